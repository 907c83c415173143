/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WS_ERROR (ws_error_quark ())

/**
 * WsError:
 * @WS_ERROR_IO: the file could not be read or written
 * @WS_ERROR_PARSE: a line or value does not follow the format
 * @WS_ERROR_TRUNCATED: the input ends in the middle of a record
 * @WS_ERROR_BINARY: the input is not text (NUL bytes, invalid UTF-8 headers)
 * @WS_ERROR_EMPTY: the input holds no events at all
 * @WS_ERROR_TOO_LONG: a single line exceeds the importer's line limit
 * @WS_ERROR_MISSING_FIELD: a required field (JSON member, tracepoint field) is absent
 * @WS_ERROR_CANCELLED: the operation was cancelled by the user
 * @WS_ERROR_INVALID: an argument (thread, window, rule) does not exist in the trace
 *
 * Every importer error message starts with "FILE:LINE: " so that the user
 * can go straight to the offending input.
 */
typedef enum {
  WS_ERROR_IO,
  WS_ERROR_PARSE,
  WS_ERROR_TRUNCATED,
  WS_ERROR_BINARY,
  WS_ERROR_EMPTY,
  WS_ERROR_TOO_LONG,
  WS_ERROR_MISSING_FIELD,
  WS_ERROR_CANCELLED,
  WS_ERROR_INVALID,
} WsError;

GQuark ws_error_quark      (void);
void   ws_error_make_valid (GError **error);

G_END_DECLS
