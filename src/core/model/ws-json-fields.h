/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * One member of a JSON object in one line: the results' exports
 * (ws-*-export.c) are field tables that read top to bottom, name then
 * value, as their documented schemas list them (docs/json-schemas.md).
 * Text is added as it is; the writers (ws_json_text_from_node(),
 * WsJsonStream) make it valid UTF-8.
 */

#include <json-glib/json-glib.h>

#include "ws-json-stream.h"

G_BEGIN_DECLS

void ws_json_field_int          (JsonBuilder *builder,
                                 const char  *name,
                                 gint64       value);
void ws_json_field_double       (JsonBuilder *builder,
                                 const char  *name,
                                 double       value);
void ws_json_field_boolean      (JsonBuilder *builder,
                                 const char  *name,
                                 gboolean     value);
/* @value %NULL: null. */
void ws_json_field_string       (JsonBuilder *builder,
                                 const char  *name,
                                 const char  *value);
/* Text read from a trace or a store, made valid UTF-8 here (U+FFFD for
 * bad bytes); %NULL: null. */
void ws_json_field_text         (JsonBuilder *builder,
                                 const char  *name,
                                 const char  *value);
void ws_json_field_null         (JsonBuilder *builder,
                                 const char  *name);
/* The name of a member whose value is an object or array built next. */
void ws_json_field_begin_object (JsonBuilder *builder,
                                 const char  *name);
void ws_json_field_begin_array  (JsonBuilder *builder,
                                 const char  *name);

/* The same, for the members a WsJsonStream writes around its long arrays. */
void ws_json_stream_field_int    (WsJsonStream *stream,
                                  const char   *name,
                                  gint64        value);
void ws_json_stream_field_double (WsJsonStream *stream,
                                  const char   *name,
                                  double        value);
/* @value %NULL: null; the stream makes text valid UTF-8. */
void ws_json_stream_field_string (WsJsonStream *stream,
                                  const char   *name,
                                  const char   *value);

G_END_DECLS
