/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-json-fields.h"

void
ws_json_field_int (JsonBuilder *builder,
                   const char  *name,
                   gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

void
ws_json_field_double (JsonBuilder *builder,
                      const char  *name,
                      double       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_double_value (builder, value);
}

void
ws_json_field_boolean (JsonBuilder *builder,
                       const char  *name,
                       gboolean     value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_boolean_value (builder, value);
}

void
ws_json_field_string (JsonBuilder *builder,
                      const char  *name,
                      const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
ws_json_field_text (JsonBuilder *builder,
                    const char  *name,
                    const char  *value)
{
  g_autofree char *valid = NULL;

  if (value != NULL && !g_utf8_validate (value, -1, NULL))
    value = valid = g_utf8_make_valid (value, -1);
  ws_json_field_string (builder, name, value);
}

void
ws_json_field_null (JsonBuilder *builder,
                    const char  *name)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_null_value (builder);
}

void
ws_json_field_begin_object (JsonBuilder *builder,
                            const char  *name)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
}

void
ws_json_field_begin_array (JsonBuilder *builder,
                           const char  *name)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
}

void
ws_json_stream_field_int (WsJsonStream *stream,
                          const char   *name,
                          gint64        value)
{
  ws_json_stream_set_member_name (stream, name);
  ws_json_stream_add_int (stream, value);
}

void
ws_json_stream_field_double (WsJsonStream *stream,
                             const char   *name,
                             double        value)
{
  ws_json_stream_set_member_name (stream, name);
  ws_json_stream_add_double (stream, value);
}

void
ws_json_stream_field_string (WsJsonStream *stream,
                             const char   *name,
                             const char   *value)
{
  ws_json_stream_set_member_name (stream, name);
  if (value != NULL)
    ws_json_stream_add_string (stream, value);
  else
    ws_json_stream_add_null (stream);
}
