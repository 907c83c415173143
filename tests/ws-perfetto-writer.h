/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The tests' own writer of Perfetto protobuf (field numbers from
 * Perfetto's public .proto files, as the importer's comments list them):
 * enough to build small traces by hand and random ones for the laws.
 */

#include <glib.h>

static inline void
pbw_varint (GByteArray *out,
            guint64     v)
{
  do
    {
      guint8 b = v & 0x7f;

      v >>= 7;
      if (v != 0)
        b |= 0x80;
      g_byte_array_append (out, &b, 1);
    }
  while (v != 0);
}

static inline void
pbw_uint (GByteArray *out,
          guint       number,
          guint64     v)
{
  pbw_varint (out, (guint64) number << 3);
  pbw_varint (out, v);
}

static inline void
pbw_bytes (GByteArray   *out,
           guint         number,
           const guint8 *data,
           gsize         len)
{
  pbw_varint (out, (guint64) number << 3 | 2);
  pbw_varint (out, len);
  g_byte_array_append (out, data, len);
}

static inline void
pbw_string (GByteArray *out,
            guint       number,
            const char *s)
{
  pbw_bytes (out, number, (const guint8 *) s, strlen (s));
}

/* @msg as field @number of @out; @msg is freed. */
static inline void
pbw_message (GByteArray *out,
             guint       number,
             GByteArray *msg)
{
  pbw_bytes (out, number, msg->data, msg->len);
  g_byte_array_unref (msg);
}
