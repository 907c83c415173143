/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The protocol buffer wire format (ws-perfetto-reader.h): keys, varints,
 * fixed values and length-delimited fields, each bounded by the end of
 * the message it is in.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-perfetto-reader.h"

void
ws_pb_cursor_init (WsPbCursor   *c,
                   const guint8 *base,
                   const guint8 *start,
                   gsize         len)
{
  c->base = base;
  c->pos = start;
  /* An empty input may have no buffer at all (NULL + 0 is undefined). */
  c->end = len > 0 ? start + len : start;
  c->status = WS_PB_OK;
  c->error_offset = 0;
}

/* The message (or packed array) held by @field, a BYTES field read from
 * @parent. */
void
ws_pb_cursor_sub (WsPbCursor       *sub,
                  const WsPbCursor *parent,
                  const WsPbField  *field)
{
  ws_pb_cursor_init (sub, parent->base, field->data, field->len);
}

static WsPbStatus
fail (WsPbCursor   *c,
      WsPbStatus    status,
      const guint8 *where)
{
  c->status = status;
  c->error_offset = (gsize) (where - c->base);
  c->pos = c->end;   /* nothing more is read from a damaged message */
  return status;
}

/* A varint: seven bits a byte, low first, at most ten bytes. */
static inline gboolean
read_varint (const guint8 **pos,
             const guint8  *end,
             guint64       *value)
{
  const guint8 *s = *pos;
  guint64 v = 0;

  for (guint shift = 0; shift < 70 && s < end; shift += 7)
    {
      guint8 b = *s++;

      v |= (guint64) (b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        {
          *pos = s;
          *value = v;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * ws_pb_next:
 * @field: (out): the next field of the message
 *
 * Returns: %WS_PB_OK with @field filled, %WS_PB_END after the last field,
 *   or what is wrong (also left in @c, with the offset of the damage)
 */
WsPbStatus
ws_pb_next (WsPbCursor *c,
            WsPbField  *field)
{
  const guint8 *key_at = c->pos;
  guint64 key, len;

  if (c->status != WS_PB_OK)
    return c->status;
  if (c->pos >= c->end)
    return WS_PB_END;
  if (!read_varint (&c->pos, c->end, &key))
    return fail (c, WS_PB_BAD_VARINT, key_at);
  field->offset = (gsize) (key_at - c->base);
  field->number = (guint32) MIN (key >> 3, G_MAXUINT32);
  field->wire = (WsPbWireType) (key & 7);
  if (field->number == 0 || (key >> 3) > 0x1fffffff)
    return fail (c, WS_PB_BAD_FIELD, key_at);

  switch (field->wire)
    {
    case WS_PB_VARINT:
      if (!read_varint (&c->pos, c->end, &field->value))
        return fail (c, WS_PB_BAD_VARINT, key_at);
      return WS_PB_OK;

    case WS_PB_FIXED64:
      if (c->end - c->pos < 8)
        return fail (c, WS_PB_TOO_LONG, key_at);
      memcpy (&len, c->pos, 8);
      field->value = GUINT64_FROM_LE (len);
      c->pos += 8;
      return WS_PB_OK;

    case WS_PB_FIXED32:
      {
        guint32 v;

        if (c->end - c->pos < 4)
          return fail (c, WS_PB_TOO_LONG, key_at);
        memcpy (&v, c->pos, 4);
        field->value = GUINT32_FROM_LE (v);
        c->pos += 4;
        return WS_PB_OK;
      }

    case WS_PB_BYTES:
      if (!read_varint (&c->pos, c->end, &len))
        return fail (c, WS_PB_BAD_VARINT, key_at);
      /* A length beyond the message's end: cut short, or not a length. */
      if (len > (guint64) (c->end - c->pos))
        return fail (c, WS_PB_TOO_LONG, key_at);
      field->data = c->pos;
      field->len = (gsize) len;
      c->pos += len;
      return WS_PB_OK;

    case WS_PB_GROUP_START:
    case WS_PB_GROUP_END:
    default:
      /* Groups are deprecated and no Perfetto message has one. */
      return fail (c, WS_PB_BAD_WIRE_TYPE, key_at);
    }
}

/**
 * ws_pb_next_packed:
 * @c: a cursor over a packed repeated varint field's bytes
 *
 * Returns: %FALSE at the end of the array or on damage (then
 *   @c->status says which)
 */
gboolean
ws_pb_next_packed (WsPbCursor *c,
                   guint64    *value)
{
  const guint8 *at = c->pos;

  if (c->status != WS_PB_OK || c->pos >= c->end)
    return FALSE;
  if (!read_varint (&c->pos, c->end, value))
    {
      fail (c, WS_PB_BAD_VARINT, at);
      return FALSE;
    }
  return TRUE;
}

/* What is wrong, for "FILE:1: byte N of the Perfetto trace: …". */
const char *
ws_pb_status_message (WsPbStatus status)
{
  switch (status)
    {
    case WS_PB_BAD_VARINT:
      return _("a number (varint) longer than ten bytes or cut short");
    case WS_PB_BAD_WIRE_TYPE:
      return _("a field of a wire type protocol buffers do not have (or a group)");
    case WS_PB_BAD_FIELD:
      return _("a field numbered 0");
    case WS_PB_TOO_LONG:
      return _("a field longer than what holds it: the file is cut short or damaged");
    case WS_PB_OK:
    case WS_PB_END:
    default:
      return "";
    }
}
