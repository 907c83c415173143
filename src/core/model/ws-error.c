/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-error.h"

G_DEFINE_QUARK (ws-error-quark, ws_error)

/**
 * ws_error_make_valid:
 * @error: (nullable): where an error may have been set
 *
 * Messages quote names and lines from the user's files, whose bytes need
 * not be UTF-8; a GTK label or a terminal needs them to be.  Replaces what
 * is not UTF-8 in the message of *@error with U+FFFD.
 */
void
ws_error_make_valid (GError **error)
{
  char *valid;

  if (error == NULL || *error == NULL || (*error)->message == NULL
      || g_utf8_validate ((*error)->message, -1, NULL))
    return;
  valid = g_utf8_make_valid ((*error)->message, -1);
  g_free ((*error)->message);
  (*error)->message = valid;
}
