/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * JSON text written as it is made, for the outputs with one element per
 * thread or per wait: a JsonBuilder tree of a million threads took ten
 * times the memory of its text (`info --json`: 3.15 GB for 233 MB of
 * text).  The containers around the long arrays are written here; each
 * element is a small tree, written by json-glib exactly as the whole tree
 * would have been (byte for byte the output of ws_json_text_from_node(),
 * valid UTF-8 whatever the input) and freed.
 */

#include <stdio.h>

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct _WsJsonStream WsJsonStream;

WsJsonStream *ws_json_stream_new             (FILE         *out);
void          ws_json_stream_begin_object    (WsJsonStream *self);
void          ws_json_stream_end_object      (WsJsonStream *self);
void          ws_json_stream_begin_array     (WsJsonStream *self);
void          ws_json_stream_end_array       (WsJsonStream *self);
void          ws_json_stream_set_member_name (WsJsonStream *self,
                                              const char   *name);
void          ws_json_stream_add_node        (WsJsonStream *self,
                                              JsonNode     *node);
void          ws_json_stream_add_builder     (WsJsonStream *self,
                                              JsonBuilder  *builder);
void          ws_json_stream_add_string      (WsJsonStream *self,
                                              const char   *value);
void          ws_json_stream_add_int         (WsJsonStream *self,
                                              gint64        value);
void          ws_json_stream_add_double      (WsJsonStream *self,
                                              double        value);
void          ws_json_stream_add_boolean     (WsJsonStream *self,
                                              gboolean      value);
void          ws_json_stream_add_null        (WsJsonStream *self);
gboolean      ws_json_stream_finish          (WsJsonStream *self);

G_END_DECLS
