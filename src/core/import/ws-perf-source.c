/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The perf importer's input: plain text or gzip (inflated here in one pass
 * with zlib, concatenated members included), from a stream, after the head
 * that was read to sniff the format; and its progress reports.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-inflate-limit.h"
#include "ws-perf-private.h"

static gssize
source_read_raw (Source       *src,
                 guint8       *dst,
                 gsize         len,
                 GCancellable *cancellable,
                 GError      **error)
{
  gssize n;

  if (src->head_pos < src->head_len)
    {
      n = MIN (len, src->head_len - src->head_pos);
      memcpy (dst, src->head + src->head_pos, n);
      src->head_pos += n;
      return n;
    }
  if (src->eof)
    return 0;
  n = g_input_stream_read (src->stream, dst, len, cancellable, error);
  if (n == 0)
    src->eof = TRUE;
  if (n > 0)
    src->input_bytes += n;
  return n;
}

/* Fills dst with text; *n_read = 0 at the end of the input. */
SourceStatus
ws_perf_source_read (Source       *src,
             guint8       *dst,
             gsize         len,
             gsize        *n_read,
             GCancellable *cancellable,
             GError      **error)
{
  *n_read = 0;

  if (!src->gzip)
    {
      gssize n = source_read_raw (src, dst, len, cancellable, error);
      if (n < 0)
        return SOURCE_IO_ERROR;
      *n_read = n;
      return SOURCE_OK;
    }

  src->z.next_out = dst;
  src->z.avail_out = len;
  while (src->z.avail_out == len)
    {
      int ret;

      if (src->z.avail_in == 0)
        {
          gssize n = source_read_raw (src, src->zbuf, ZBUF_SIZE, cancellable, error);
          if (n < 0)
            return SOURCE_IO_ERROR;
          if (n == 0)
            {
              if (src->z_member_done)
                return SOURCE_OK;   /* the end, after a complete gzip member */
              return SOURCE_TRUNCATED;
            }
          src->z.next_in = src->zbuf;
          src->z.avail_in = n;
        }

      if (src->z_member_done)
        {
          /* Concatenated gzip members (gzip a >> f; gzip b >> f) are one file. */
          if (inflateReset (&src->z) != Z_OK)
            return SOURCE_CORRUPT;
          src->z_member_done = FALSE;
        }

      ret = inflate (&src->z, Z_NO_FLUSH);
      if (ret == Z_STREAM_END)
        src->z_member_done = TRUE;
      else if (ret == Z_BUF_ERROR)
        continue;   /* needs more input */
      else if (ret != Z_OK)
        return SOURCE_CORRUPT;
    }

  *n_read = len - src->z.avail_out;
  src->inflated_bytes += *n_read;
  if (!ws_inflate_check (src->input_bytes, src->inflated_bytes, error))
    return SOURCE_BOMB;
  return SOURCE_OK;
}

void
ws_perf_source_clear (Source *src)
{
  if (src->z_ready)
    inflateEnd (&src->z);
  g_free (src->zbuf);
  g_free (src->head);
}

gsize
ws_perf_count_lines (const guint8 *s,
             const guint8 *end)
{
  gsize n = 0;

  while (s < end && (s = memchr (s, '\n', end - s)) != NULL)
    n++, s++;
  return n;
}

/* At most every 1 % and every 100 ms (WsProgressFunc asks callers to
 * throttle); the first and the last report always go through. */
void
ws_perf_report (Progress   *progress,
        double      fraction,
        const char *message)
{
  gint64 now;

  if (progress->func == NULL)
    return;
  now = g_get_monotonic_time ();
  if (progress->last_time != 0 && fraction < 1.0 &&
      (now - progress->last_time < 100 * G_TIME_SPAN_MILLISECOND ||
       (fraction >= 0 && fraction - progress->last < 0.01)))
    return;
  progress->last = fraction;
  progress->last_time = now;
  progress->func (fraction, message, progress->data);
}

/* Reads and parses the whole text. */
