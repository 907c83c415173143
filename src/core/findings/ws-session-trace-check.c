/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Finding a session's traces again, by content.
 *
 * A session may come from someone else, so everything it names is checked
 * before it is read: only regular files are opened (a FIFO, /dev/zero or
 * /proc/kmsg named as a trace would block or never end), a file whose size
 * differs from the saved one is different without reading a byte, and
 * hashing reads at most the size the file had when it was opened.  The
 * functions here touch no session object, so the GUI runs them on a worker
 * thread with a cancellable (a trace of gigabytes takes seconds to hash).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws-error.h"
#include "ws-file-sha256.h"
#include "ws-session-trace-check.h"

/* Frees what @t holds (not @t itself): a GArray clear function. */
void
ws_session_trace_clear (gpointer data)
{
  WsSessionTrace *t = data;

  g_clear_pointer (&t->path, g_free);
  g_clear_pointer (&t->relative_path, g_free);
  g_clear_pointer (&t->sha256, g_free);
  g_clear_pointer (&t->name, g_free);
}

/* Returns: a deep copy of @t, for a worker thread that must not read the
 * session itself */
WsSessionTrace
ws_session_trace_copy (const WsSessionTrace *t)
{
  WsSessionTrace copy = {
    g_strdup (t->path), g_strdup (t->relative_path), g_strdup (t->sha256), t->size, g_strdup (t->name),
    t->run_class,
  };
  return copy;
}

/**
 * ws_session_trace_hash_file:
 * @size: (out) (optional): the number of bytes hashed
 * @cancellable: (nullable): looked at between megabytes
 *
 * ws_file_sha256(): a regular file's SHA-256, reading at most the size it
 * had when opened.
 *
 * Returns: (transfer full) (nullable): the hash, or %NULL with @error
 */
char *
ws_session_trace_hash_file (const char    *path,
                            gint64        *size,
                            GCancellable  *cancellable,
                            GError       **error)
{
  return ws_file_sha256 (path, size, cancellable, error);
}

/* 1: same content, 0: different, -1: unreadable or not a file (@error
 * set).  A size that differs answers without reading. */
static int
same_content (const WsSessionTrace *t,
              const char           *path,
              GCancellable         *cancellable,
              GError              **error)
{
  g_autofree char *sha = NULL;
  GStatBuf st;
  gint64 size = 0;

  if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode) && st.st_size != t->size)
    return 0;
  sha = ws_session_trace_hash_file (path, &size, cancellable, error);
  if (sha == NULL)
    return -1;
  return size == t->size && g_str_equal (sha, t->sha256);
}

static gboolean
refuse_different (const WsSessionTrace *t,
                  const char           *path,
                  GError              **error)
{
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
               _("“%s” is not the trace “%s” this session was saved with: its content differs "
                 "(expected SHA-256 %.12s…, %lld bytes)"),
               path, t->name, t->sha256, (long long) t->size);
  return FALSE;
}

/**
 * ws_session_trace_check:
 *
 * Is @path the trace @t, byte for byte?
 *
 * Returns: %TRUE if so; %FALSE with WS_ERROR_INVALID (different content,
 *   or not a regular file), WS_ERROR_IO or WS_ERROR_CANCELLED
 */
gboolean
ws_session_trace_check (const WsSessionTrace *t,
                        const char           *path,
                        GCancellable         *cancellable,
                        GError              **error)
{
  int same;

  g_return_val_if_fail (t != NULL && path != NULL, FALSE);

  same = same_content (t, path, cancellable, error);
  if (same < 0)
    return FALSE;
  return same ? TRUE : refuse_different (t, path, error);
}

/* Where a moved trace may be: the saved relative path, then beside the session. */
static GPtrArray *
relocation_candidates (const WsSessionTrace *t,
                       const char           *session_path)
{
  GPtrArray *candidates = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;

  if (session_path == NULL)
    return candidates;
  dir = g_path_get_dirname (session_path);
  base = g_path_get_basename (t->path);
  if (t->relative_path != NULL)
    g_ptr_array_add (candidates, g_canonicalize_filename (t->relative_path, dir));
  g_ptr_array_add (candidates, g_build_filename (dir, base, NULL));
  return candidates;
}

/**
 * ws_session_trace_locate:
 * @session_path: (nullable): the session file, whose folder is searched
 *   when the trace moved
 *
 * Finds trace @t: at its path if the content there is the same, else by
 * its relative path or beside the session file.  Thread-safe: it reads
 * only @t and the files.
 *
 * Returns: (transfer full) (nullable): where it is; %NULL with
 *   WS_ERROR_INVALID if a different file (or no regular file) is at its
 *   path, WS_ERROR_IO if it is nowhere to be found, WS_ERROR_CANCELLED
 */
char *
ws_session_trace_locate (const WsSessionTrace *t,
                         const char           *session_path,
                         GCancellable         *cancellable,
                         GError              **error)
{
  g_autoptr(GPtrArray) candidates = NULL;

  g_return_val_if_fail (t != NULL, NULL);

  if (g_file_test (t->path, G_FILE_TEST_EXISTS))
    return ws_session_trace_check (t, t->path, cancellable, error) ? g_strdup (t->path) : NULL;

  candidates = relocation_candidates (t, session_path);
  for (guint i = 0; i < candidates->len; i++)
    {
      const char *c = g_ptr_array_index (candidates, i);

      if (g_cancellable_set_error_if_cancelled (cancellable, NULL))
        break;
      if (ws_session_trace_check (t, c, cancellable, NULL))
        return g_strdup (c);
    }
  if (g_cancellable_is_cancelled (cancellable))
    g_set_error (error, WS_ERROR, WS_ERROR_CANCELLED, _("Checking “%s” was cancelled"), t->name);
  else
    g_set_error (error, WS_ERROR, WS_ERROR_IO,
                 _("The trace “%s” is missing: it is no longer at “%s” nor beside the session file; relocate it"),
                 t->name, t->path);
  return NULL;
}
