/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Hashing a trace file.  Nettle's SHA-256 rather than GLib's GChecksum:
 * the same digest, but Nettle uses the CPU's SHA instructions where it
 * has them (0.74 s of CPU a gigabyte against GChecksum's 5.8 s on the
 * development machine), and a 10 GB trace is hashed before its flags and
 * history can be looked up.
 *
 * The file may come from someone else (a session names it), so only a
 * regular file is opened (a FIFO, /dev/zero or /proc/kmsg named as a
 * trace would block or never end), and at most the size it had when it
 * was opened is read.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <nettle/sha2.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "ws-error.h"
#include "ws-file-hash-cache.h"
#include "ws-file-sha256.h"

#define CHUNK (1 << 20)

/* Opens @path for reading if it is a regular file, without blocking on a
 * FIFO or a device on the way.  Returns the descriptor, or -1 with @error. */
static int
open_regular (const char   *path,
              struct stat  *st,
              GError      **error)
{
  int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);

  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not read “%s”: %s"), path, g_strerror (saved));
      return -1;
    }
  if (fstat (fd, st) != 0 || !S_ISREG (st->st_mode))
    {
      close (fd);
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("“%s” is not a regular file (a device, a pipe or a folder); a trace must be a file"), path);
      return -1;
    }
  /* Blocking reads from here on: a regular file never blocks for long. */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

/**
 * ws_file_sha256:
 * @size: (out) (optional): the number of bytes hashed
 * @cancellable: (nullable): looked at between megabytes
 *
 * The hex SHA-256 of a regular file's bytes, reading no more than the
 * size it had when opened (a file under /proc that claims to be regular
 * but never ends is cut there).  A file hashed before and unchanged
 * since is not read again (ws-file-hash-cache.c).
 *
 * Returns: (transfer full) (nullable): the hash, or %NULL with @error
 *   (%WS_ERROR_CANCELLED when cancelled)
 */
char *
ws_file_sha256 (const char    *path,
                gint64        *size,
                GCancellable  *cancellable,
                GError       **error)
{
  struct sha256_ctx ctx;
  guint8 digest[SHA256_DIGEST_SIZE];
  g_autofree guchar *buf = NULL;
  struct stat before, after;
  gint64 expected, total = 0, started_ns = g_get_real_time () * 1000;
  char *hex;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  fd = open_regular (path, &before, error);
  if (fd < 0)
    return NULL;
  expected = before.st_size;
  if ((hex = ws_file_hash_cache_lookup (&before)) != NULL)
    {
      close (fd);
      if (size)
        *size = expected;
      return hex;
    }
  sha256_init (&ctx);
  buf = g_malloc (CHUNK);
  while (total < expected)
    {
      gssize n = read (fd, buf, MIN ((gint64) CHUNK, expected - total));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          close (fd);
          g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not read “%s”: %s"), path, g_strerror (saved));
          return NULL;
        }
      if (n == 0)
        break;
      if (g_cancellable_is_cancelled (cancellable))
        {
          close (fd);
          g_set_error (error, WS_ERROR, WS_ERROR_CANCELLED, _("Hashing “%s” was cancelled"), path);
          return NULL;
        }
      sha256_update (&ctx, n, buf);
      total += n;
    }
  sha256_digest (&ctx, sizeof digest, digest);
  hex = g_malloc (2 * sizeof digest + 1);
  for (guint i = 0; i < sizeof digest; i++)
    g_snprintf (hex + 2 * i, 3, "%02x", digest[i]);
  if (total == expected && fstat (fd, &after) == 0)
    ws_file_hash_cache_store (&before, &after, started_ns, hex);
  close (fd);
  if (size)
    *size = total;
  return hex;
}

/* ------------------------------------------------------------------ */
/* Hashing while the traces load                                       */

struct _WsFileHashes {
  char        **paths;     /* the regular files, in the order given */
  char        **hashes;    /* filled by the thread; NULL where it failed */
  GCancellable *cancellable;
  GThread      *thread;    /* NULL once joined */
};

static gpointer
hash_files (gpointer data)
{
  WsFileHashes *self = data;

  for (guint i = 0; self->paths[i] != NULL && !g_cancellable_is_cancelled (self->cancellable); i++)
    self->hashes[i] = ws_file_sha256 (self->paths[i], NULL, self->cancellable, NULL);
  return NULL;
}

/**
 * ws_file_hashes_begin:
 * @paths: (array zero-terminated=1): trace paths as given ("-" and
 *   anything not a regular file are left out)
 *
 * Starts hashing the regular files of @paths, one after another, on a
 * thread of its own, so that a command that needs both a trace and its
 * identity (`anomalies`, the window) reads the file and hashes it at
 * once on two cores instead of one after the other.
 *
 * Returns: (transfer full): the hashes to come; ws_file_hashes_take()
 */
WsFileHashes *
ws_file_hashes_begin (char **paths)
{
  WsFileHashes *self = g_new0 (WsFileHashes, 1);
  g_autoptr(GPtrArray) regular = g_ptr_array_new ();

  for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
    if (g_file_test (paths[i], G_FILE_TEST_IS_REGULAR))
      g_ptr_array_add (regular, g_strdup (paths[i]));
  g_ptr_array_add (regular, NULL);
  self->paths = (char **) g_ptr_array_free (g_steal_pointer (&regular), FALSE);
  self->hashes = g_new0 (char *, g_strv_length (self->paths) + 1);
  self->cancellable = g_cancellable_new ();
  self->thread = g_thread_new ("ws-file-hashes", hash_files, self);
  return self;
}

/**
 * ws_file_hashes_take:
 * @path: a path as given to ws_file_hashes_begin()
 *
 * Waits for the hashing to end, then gives @path's hash.
 *
 * Returns: (transfer full) (nullable): the hash, or %NULL if @path was
 *   not hashed (not a regular file, unreadable, another spelling): the
 *   caller hashes it its own way
 */
char *
ws_file_hashes_take (WsFileHashes *self,
                     const char   *path)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->thread != NULL)
    g_thread_join (g_steal_pointer (&self->thread));
  for (guint i = 0; path != NULL && self->paths[i] != NULL; i++)
    if (strcmp (self->paths[i], path) == 0)
      return g_strdup (self->hashes[i]);
  return NULL;
}

void
ws_file_hashes_free (WsFileHashes *self)
{
  if (self == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  if (self->thread != NULL)
    g_thread_join (self->thread);
  g_object_unref (self->cancellable);
  /* Not g_strfreev(): a file that failed left a NULL among the hashes. */
  for (guint i = 0; self->paths[i] != NULL; i++)
    g_free (self->hashes[i]);
  g_free (self->hashes);
  g_strfreev (self->paths);
  g_free (self);
}
