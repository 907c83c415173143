/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The first step every file importer takes: open the file and tell a
 * gzip-compressed one by its magic, with the error every importer gives.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-importer-open.h"

/**
 * ws_importer_open_file:
 * @path: the file
 * @compressed: (out): whether it starts with the gzip magic
 *
 * Opens @path, reads its first two bytes and seeks back to its start.
 *
 * Returns: (transfer full): the stream at offset 0, or %NULL with @error
 *   set: %WS_ERROR_CANCELLED, or %WS_ERROR_IO with a message that starts
 *   "PATH:1: "
 */
GFileInputStream *
ws_importer_open_file (const char    *path,
                       gboolean      *compressed,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GError) local_error = NULL;
  guint8 magic[2] = { 0 };
  gsize n = 0;

  g_return_val_if_fail (path != NULL && compressed != NULL, NULL);

  file = g_file_new_for_path (path);
  if ((in = g_file_read (file, cancellable, &local_error)) == NULL
      || !g_input_stream_read_all (G_INPUT_STREAM (in), magic, 2, &n, cancellable, &local_error)
      || !g_seekable_seek (G_SEEKABLE (in), 0, G_SEEK_SET, cancellable, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_set_error (error, WS_ERROR, WS_ERROR_CANCELLED, "%s: %s", path, _("cancelled"));
      else
        g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", path, local_error->message);
      return NULL;
    }
  *compressed = n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  return g_steal_pointer (&in);
}
