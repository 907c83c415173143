/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The protocol buffer wire format, as much of it as a Perfetto trace
 * needs: a message is a run of fields, each a key (field number << 3 |
 * wire type) then a varint, a fixed 64- or 32-bit value or a
 * length-delimited run of bytes (a string, a nested message, a packed
 * array).  Written from the public encoding description; nothing here
 * knows Perfetto's schema (ws-perfetto-events.c does).
 *
 * Every read is bounded by its message's end, so a damaged file can make
 * a read fail but never read past the buffer; a failure leaves the byte
 * offset of the damage (from the start of the whole trace) and what was
 * wrong in the cursor.
 */

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  WS_PB_VARINT = 0,
  WS_PB_FIXED64 = 1,
  WS_PB_BYTES = 2,
  WS_PB_GROUP_START = 3,
  WS_PB_GROUP_END = 4,
  WS_PB_FIXED32 = 5,
} WsPbWireType;

typedef enum {
  WS_PB_OK,
  WS_PB_END,          /* no more fields: not an error */
  WS_PB_BAD_VARINT,   /* more than ten bytes, or cut by the message's end */
  WS_PB_BAD_WIRE_TYPE,
  WS_PB_BAD_FIELD,    /* field number 0 */
  WS_PB_TOO_LONG,     /* a length or fixed value beyond the message's end */
} WsPbStatus;

/* A message being read: [pos, end) of the trace that starts at base. */
typedef struct {
  const guint8 *base;
  const guint8 *pos;
  const guint8 *end;
  WsPbStatus    status;
  gsize         error_offset;   /* where the damage is, from base */
} WsPbCursor;

/* One field read. */
typedef struct {
  guint32       number;
  WsPbWireType  wire;
  guint64       value;   /* VARINT, FIXED64, FIXED32 */
  const guint8 *data;    /* BYTES */
  gsize         len;     /* BYTES */
  gsize         offset;  /* of its key, from base */
} WsPbField;

void        ws_pb_cursor_init      (WsPbCursor       *c,
                                    const guint8     *base,
                                    const guint8     *start,
                                    gsize             len);
void        ws_pb_cursor_sub       (WsPbCursor       *sub,
                                    const WsPbCursor *parent,
                                    const WsPbField  *field);
WsPbStatus  ws_pb_next             (WsPbCursor       *c,
                                    WsPbField        *field);
gboolean    ws_pb_next_packed      (WsPbCursor       *c,
                                    guint64          *value);
const char *ws_pb_status_message   (WsPbStatus        status);

static inline gint64
ws_pb_zigzag (guint64 v)
{
  return (gint64) (v >> 1) ^ -(gint64) (v & 1);
}

G_END_DECLS
