/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Writing a file whole or not at all (ws-atomic-file.h).  g_file_replace()
 * writes a new file straight under its final name (Ctrl+C left half a
 * converted trace there), g_file_set_contents() leaves its temporary file
 * behind when the process is killed, and a fixed "NAME.part" is a name
 * anyone can plant a symbolic link at.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <gio/gunixoutputstream.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "ws-atomic-file.h"
#include "ws-error.h"

struct _WsAtomicFile
{
  char          *path;
  char          *temp_path;
  int            fd;
  GOutputStream *stream;
  int            write_errno;   /* the first write's failure, 0 if none */
};

/* The temporary files that exist now, for the signal handler: a fixed
 * table it can walk without locks or allocation.  A slot is emptied before
 * its string is freed. */
#define MAX_LIVE 64
static char *volatile live[MAX_LIVE];
static GMutex live_lock;

static void
live_add (char *temp_path)
{
  g_mutex_lock (&live_lock);
  for (guint i = 0; i < MAX_LIVE; i++)
    if (live[i] == NULL)
      {
        live[i] = temp_path;
        break;
      }
  g_mutex_unlock (&live_lock);
}

static void
live_remove (const char *temp_path)
{
  g_mutex_lock (&live_lock);
  for (guint i = 0; i < MAX_LIVE; i++)
    if (live[i] == temp_path)
      live[i] = NULL;
  g_mutex_unlock (&live_lock);
}

static void
on_fatal_signal (int sig)
{
  int saved = errno;

  for (guint i = 0; i < MAX_LIVE; i++)
    {
      char *p = live[i];

      if (p != NULL)
        unlink (p);
    }
  errno = saved;
  /* Then die of the signal as before, so the shell sees it. */
  signal (sig, SIG_DFL);
  raise (sig);
}

/**
 * ws_atomic_file_clean_up_on_signals:
 *
 * For the CLI: SIGINT, SIGTERM and SIGHUP remove the temporary files being
 * written, then end the process as they would have.  A signal the process
 * ignores stays ignored.
 */
void
ws_atomic_file_clean_up_on_signals (void)
{
  static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      struct sigaction action = { 0 }, old = { 0 };

      if (sigaction (signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
        continue;
      action.sa_handler = on_fatal_signal;
      sigemptyset (&action.sa_mask);
      sigaction (signals[i], &action, NULL);
    }
}

/**
 * ws_atomic_file_open:
 * @path: the file to write (it may exist; it is replaced at commit)
 *
 * Returns: (transfer full): a temporary file beside @path, or %NULL with
 *   @error set (a message without @path, for the caller to put it in)
 */
WsAtomicFile *
ws_atomic_file_open (const char  *path,
                     GError     **error)
{
  g_autofree char *dir = NULL, *base = NULL, *tmpl = NULL;
  WsAtomicFile *self;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  if (*path == '\0')
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_IO, _("the file name is empty"));
      return NULL;
    }
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  /* Hidden, and random: g_mkstemp_full() adds O_CREAT|O_EXCL. */
  tmpl = g_strdup_printf ("%s%s.%s.XXXXXX", dir, G_DIR_SEPARATOR_S, base);
  fd = g_mkstemp_full (tmpl, O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      int saved = errno;
      g_autofree char *display = g_filename_display_name (dir);

      g_set_error (error, WS_ERROR, WS_ERROR_IO, _("cannot create a file in the folder “%s”: %s"),
                   display, g_strerror (saved));
      return NULL;
    }

  self = g_new0 (WsAtomicFile, 1);
  self->path = g_strdup (path);
  self->temp_path = g_steal_pointer (&tmpl);
  self->fd = fd;
  live_add (self->temp_path);
  return self;
}

/**
 * ws_atomic_file_get_stream:
 *
 * Returns: (transfer none): a stream writing to the temporary file (closing
 *   it does not close the file: ws_atomic_file_commit() does)
 */
GOutputStream *
ws_atomic_file_get_stream (WsAtomicFile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->stream == NULL)
    self->stream = g_unix_output_stream_new (self->fd, FALSE);
  return self->stream;
}

/**
 * ws_atomic_file_write:
 *
 * Writes all of @data; a failure is also remembered, so that commit fails
 * even when the caller (a cairo write function) cannot say why.
 */
gboolean
ws_atomic_file_write (WsAtomicFile  *self,
                      const void    *data,
                      gsize          len,
                      GError       **error)
{
  const char *p = data;

  g_return_val_if_fail (self != NULL, FALSE);

  while (len > 0 && self->write_errno == 0)
    {
      gssize n = write (self->fd, p, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        self->write_errno = n < 0 ? errno : EIO;
      else
        p += n, len -= n;
    }
  if (self->write_errno != 0)
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_IO, g_strerror (self->write_errno));
      return FALSE;
    }
  return TRUE;
}

/* For a writer that needs a name (none should: it could be swapped). */
const char *
ws_atomic_file_get_temp_path (WsAtomicFile *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->temp_path;
}

static void
free_file (WsAtomicFile *self)
{
  live_remove (self->temp_path);
  g_clear_object (&self->stream);
  if (self->fd >= 0)
    close (self->fd);
  g_free (self->temp_path);
  g_free (self->path);
  g_free (self);
}

/**
 * ws_atomic_file_abort:
 *
 * Removes the temporary file and frees @self; @path is as it was.
 */
void
ws_atomic_file_abort (WsAtomicFile *self)
{
  if (self == NULL)
    return;
  g_unlink (self->temp_path);
  free_file (self);
}

/**
 * ws_atomic_file_commit:
 * @durable: flush to disk before the rename (a session the user saved)
 *
 * Puts the complete file under its name, or removes it.  Frees @self.
 *
 * Returns: whether the file is now under its name; if not, @error says why
 *   (without the path) and @path is as it was
 */
gboolean
ws_atomic_file_commit (WsAtomicFile  *self,
                       gboolean       durable,
                       GError       **error)
{
  int saved = self->write_errno;

  if (saved == 0 && durable && fsync (self->fd) != 0)
    saved = errno;
  if (close (self->fd) != 0 && saved == 0)
    saved = errno;   /* NFS reports a full disk here */
  self->fd = -1;
  if (saved == 0 && g_rename (self->temp_path, self->path) != 0)
    saved = errno;
  if (saved != 0)
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_IO, g_strerror (saved));
      ws_atomic_file_abort (self);
      return FALSE;
    }
  free_file (self);
  return TRUE;
}

/**
 * ws_atomic_file_set_contents:
 * @len: bytes, or -1 for a NUL-terminated string
 *
 * g_file_set_contents() through a #WsAtomicFile.
 */
gboolean
ws_atomic_file_set_contents (const char  *path,
                             const void  *data,
                             gssize       len,
                             gboolean     durable,
                             GError     **error)
{
  g_autoptr(WsAtomicFile) file = ws_atomic_file_open (path, error);

  if (file == NULL)
    return FALSE;
  if (!ws_atomic_file_write (file, data, len < 0 ? strlen (data) : (gsize) len, error))
    return FALSE;
  return ws_atomic_file_commit (g_steal_pointer (&file), durable, error);
}
