/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The JSON of a flame graph: what was folded (mode, unit, event, window)
 * and the tree, each node {"name", "self", "total", "children": [...]},
 * children in the tree's order (by name).  Names that are not UTF-8 are
 * written with U+FFFD in place of the bad bytes, so the output is valid
 * JSON whatever the trace held.
 */
#include "config.h"

#include "ws-flame-export.h"

static void
add_node (JsonBuilder  *b,
          WsFlameTree  *tree,
          const double *diff,
          guint         index)
{
  const WsFlameNode *n = ws_flame_tree_get_node (tree, index);
  g_autofree char *name = g_utf8_make_valid (n->name, -1);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "self");
  json_builder_add_int_value (b, (gint64) n->self);
  json_builder_set_member_name (b, "total");
  json_builder_add_int_value (b, (gint64) n->total);
  if (diff != NULL)
    {
      json_builder_set_member_name (b, "delta");
      json_builder_add_double_value (b, diff[index]);
    }
  if (n->n_children > 0)
    {
      json_builder_set_member_name (b, "children");
      json_builder_begin_array (b);
      for (guint c = n->first_child; c < n->first_child + n->n_children; c++)
        add_node (b, tree, diff, c);
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

/**
 * ws_flame_graph_to_json:
 * @settings: (nullable): the selection it was run on, for the record
 * @diff: (nullable): a differential graph's differences
 *   (ws_flame_tree_diff()): each node gets a "delta"
 *
 * Returns: (transfer full): the graph as a JSON object
 */
JsonNode *
ws_flame_graph_to_json (const WsFlameGraph    *graph,
                        const WsFlameSettings *settings,
                        const double          *diff)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (graph != NULL && graph->tree != NULL, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "mode");
  json_builder_add_string_value (b, ws_flame_mode_get_info (graph->mode)->name);
  json_builder_set_member_name (b, "unit");
  json_builder_add_string_value (b, graph->unit == WS_FLAME_UNIT_NS ? "ns" : "period");
  json_builder_set_member_name (b, "source");
  json_builder_add_string_value (b, graph->mode != WS_FLAME_ON_CPU ? "waits" :
                                    graph->from_spans ? "spans" : "samples");
  if (graph->event != NULL)
    {
      g_autofree char *event = g_utf8_make_valid (graph->event, -1);
      json_builder_set_member_name (b, "event");
      json_builder_add_string_value (b, event);
    }
  if (settings != NULL && settings->has_window)
    {
      json_builder_set_member_name (b, "window");
      json_builder_begin_array (b);
      json_builder_add_int_value (b, settings->window_start);
      json_builder_add_int_value (b, settings->window_end);
      json_builder_end_array (b);
    }
  json_builder_set_member_name (b, "total");
  json_builder_add_int_value (b, (gint64) ws_flame_tree_get_total (graph->tree));
  json_builder_set_member_name (b, "root");
  add_node (b, graph->tree, diff, WS_FLAME_ROOT);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
