/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * CSV as RFC 4180 writes it, for every CSV Waitscope writes (the pivot
 * table's, `query --csv`'s): one home for the quoting rule, so that a
 * spreadsheet reads each the same way.
 */
#include "config.h"

#include <string.h>

#include "ws-csv.h"

/**
 * ws_csv_append_field:
 * @out: the row being written
 * @text: a field's text
 *
 * Appends @text as one CSV field: as it is, or — when it holds a comma,
 * a double quote or a line break — between double quotes, each double
 * quote doubled.
 */
void
ws_csv_append_field (GString    *out,
                     const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}
