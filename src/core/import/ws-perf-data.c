/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A first look at a perf.data file before perf reads it.  perf answers a
 * damaged or forged header with warnings about the fields we asked for
 * ("'trace' not valid for hardware events. Ignoring.", seven times) and
 * then "incompatible file format": its noise hides the reason.  The
 * header is small and fixed (tools/perf/util/header.h):
 *
 *     magic "PERFILE2", size, attr_size, attrs {offset, size},
 *     data {offset, size}, event_types {offset, size}, features[32]
 *
 * all 64-bit, in the recording host's byte order (the magic tells which);
 * a file written to a pipe (perf record -o -) has only magic and size.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "ws-error.h"
#include "ws-perf-private.h"

#define FILE_HEADER_SIZE 104   /* sizeof (struct perf_file_header) */
#define PIPE_HEADER_SIZE 16    /* sizeof (struct perf_pipe_file_header) */

static guint64
read_u64 (const guint8 *p,
          gboolean      swapped)
{
  guint64 v;

  memcpy (&v, p, sizeof v);
  return swapped ? GUINT64_SWAP_LE_BE (v) : v;
}

/* Whether the section [offset, offset + size) lies inside the file. */
static gboolean
section_fits (guint64 offset,
              guint64 size,
              guint64 file_size)
{
  return offset <= file_size && size <= file_size - offset;
}

/**
 * ws_perf_data_check_header:
 * @display_name: names the file in messages
 * @path: a file starting with "PERFILE2"
 *
 * Returns: %FALSE with @error set ("FILE:1: …", the reason in our words)
 *   when the header cannot be a perf.data header; %TRUE leaves the rest
 *   to perf
 */
gboolean
ws_perf_data_check_header (const char  *display_name,
                           const char  *path,
                           GError     **error)
{
  guint8 h[FILE_HEADER_SIZE];
  g_autofree char *size_text = NULL;
  FILE *f;
  gsize n;
  GStatBuf st;
  gboolean swapped;
  guint64 header_size, attr_size, attrs_offset, attrs_size;

  if (g_stat (path, &st) != 0 || (f = g_fopen (path, "rb")) == NULL)
    return TRUE;   /* perf will say it cannot read it */
  n = fread (h, 1, sizeof h, f);
  fclose (f);
  if (n < PIPE_HEADER_SIZE)
    return TRUE;

  /* The magic is one 64-bit number: byte-swapped in a big-endian file. */
  swapped = memcmp (h, "2ELIFREP", 8) == 0;
  header_size = read_u64 (h + 8, swapped);
  if (header_size == PIPE_HEADER_SIZE)
    return TRUE;
  size_text = g_format_size_full (st.st_size, G_FORMAT_SIZE_LONG_FORMAT);
  if (header_size != FILE_HEADER_SIZE)
    return g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                        _("%s:1: not a perf.data file perf can read: its header says it is %llu bytes long, and perf writes %d (or %d from a pipe); "
                          "the file is damaged or was not written by perf"),
                        display_name, (unsigned long long) header_size, FILE_HEADER_SIZE, PIPE_HEADER_SIZE), FALSE;
  if (n < FILE_HEADER_SIZE)
    return g_set_error (error, WS_ERROR, WS_ERROR_TRUNCATED,
                        _("%s:1: the perf.data file ends inside its header (%s): it was cut short"),
                        display_name, size_text), FALSE;

  attr_size = read_u64 (h + 16, swapped);
  attrs_offset = read_u64 (h + 24, swapped);
  attrs_size = read_u64 (h + 32, swapped);
  if (attr_size == 0 || attrs_size == 0 || !section_fits (attrs_offset, attrs_size, st.st_size))
    return g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                        _("%s:1: not a perf.data file perf can read: the event descriptions its "
                          "header points to are not inside the file (%s); the file is damaged or "
                          "was not written by perf"),
                        display_name, size_text), FALSE;
  /* A file cut short after its descriptions is perf's to read (it reads
   * what is there). */
  return TRUE;
}
