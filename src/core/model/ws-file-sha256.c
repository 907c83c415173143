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
#include <unistd.h>

#include "ws-error.h"
#include "ws-file-sha256.h"

#define CHUNK (1 << 20)

/* Opens @path for reading if it is a regular file, without blocking on a
 * FIFO or a device on the way.  Returns the descriptor, or -1 with @error. */
static int
open_regular (const char  *path,
              gint64      *size,
              GError     **error)
{
  struct stat st;
  int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);

  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not read “%s”: %s"), path, g_strerror (saved));
      return -1;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("“%s” is not a regular file (a device, a pipe or a folder); a trace must be a file"), path);
      return -1;
    }
  /* Blocking reads from here on: a regular file never blocks for long. */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  *size = st.st_size;
  return fd;
}

/**
 * ws_file_sha256:
 * @size: (out) (optional): the number of bytes hashed
 * @cancellable: (nullable): looked at between megabytes
 *
 * The hex SHA-256 of a regular file's bytes, reading no more than the
 * size it had when opened (a file under /proc that claims to be regular
 * but never ends is cut there).
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
  gint64 expected = 0, total = 0;
  char *hex;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  fd = open_regular (path, &expected, error);
  if (fd < 0)
    return NULL;
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
  close (fd);
  sha256_digest (&ctx, sizeof digest, digest);
  hex = g_malloc (2 * sizeof digest + 1);
  for (guint i = 0; i < sizeof digest; i++)
    g_snprintf (hex + 2 * i, 3, "%02x", digest[i]);
  if (size)
    *size = total;
  return hex;
}
