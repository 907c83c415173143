/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-awg-export.h"

static void
add_sig (JsonBuilder *b, WsSignatures *sigs, const char *member, WsSigId sig)
{
  const char *name = ws_signatures_get_name (sigs, sig);

  json_builder_set_member_name (b, member);
  if (name != NULL)
    json_builder_add_string_value (b, name);
  else
    json_builder_add_null_value (b);
}

void
ws_awg_export_json (WsAwg       *awg,
                    JsonBuilder *b)
{
  WsSignatures *sigs = ws_awg_get_signatures (awg);
  const WsAwgNode *nodes = ws_awg_get_nodes (awg);
  const guint32 *roots;
  guint n_roots = 0;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "graphs");
  json_builder_add_int_value (b, ws_awg_get_n_graphs (awg));
  json_builder_set_member_name (b, "truncated_graphs");
  json_builder_add_int_value (b, ws_awg_get_n_truncated (awg));
  json_builder_set_member_name (b, "total_cost_ns");
  json_builder_add_int_value (b, ws_awg_get_total_cost (awg));
  json_builder_set_member_name (b, "pruned_roots");
  json_builder_add_int_value (b, ws_awg_get_n_pruned (awg));
  json_builder_set_member_name (b, "pruned_cost_ns");
  json_builder_add_int_value (b, ws_awg_get_pruned_cost (awg));
  json_builder_set_member_name (b, "nodes");
  json_builder_begin_array (b);
  for (guint i = 0; i < ws_awg_get_n_nodes (awg); i++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_int_value (b, i);
      json_builder_set_member_name (b, "parent");
      if (nodes[i].parent == G_MAXUINT32)
        json_builder_add_null_value (b);
      else
        json_builder_add_int_value (b, nodes[i].parent);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, ws_awg_node_kind_to_string (nodes[i].kind));
      add_sig (b, sigs, "w", nodes[i].w);
      add_sig (b, sigs, "u", nodes[i].u);
      add_sig (b, sigs, "r", nodes[i].r);
      json_builder_set_member_name (b, "c_ns");
      json_builder_add_int_value (b, nodes[i].c);
      json_builder_set_member_name (b, "n");
      json_builder_add_int_value (b, (gint64) nodes[i].n);
      json_builder_set_member_name (b, "c_max_ns");
      json_builder_add_int_value (b, nodes[i].c_max);
      json_builder_set_member_name (b, "c_path_max_ns");
      json_builder_add_int_value (b, nodes[i].c_path_max);
      json_builder_set_member_name (b, "instances");
      json_builder_add_int_value (b, nodes[i].n_instances);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "roots");
  json_builder_begin_array (b);
  roots = ws_awg_get_roots (awg, &n_roots);
  for (guint i = 0; i < n_roots; i++)
    json_builder_add_int_value (b, roots[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
append_escaped (GString *s, const char *text)
{
  for (const char *p = text; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (s, '\\');
      if (*p == '\n')
        g_string_append (s, "\\n");
      else
        g_string_append_c (s, *p);
    }
}

char *
ws_awg_export_dot (WsAwg          *awg,
                   const char     *name,
                   const gboolean *highlight)
{
  static const char *shapes[] = { "box", "box3d", "ellipse", "hexagon", "octagon" };
  const WsAwgNode *nodes = ws_awg_get_nodes (awg);
  GString *s = g_string_new ("digraph \"");

  append_escaped (s, name ? name : "awg");
  g_string_append (s, "\" {\n  rankdir=TB;\n  node [fontname=\"sans\"];\n");
  for (guint i = 0; i < ws_awg_get_n_nodes (awg); i++)
    {
      g_autofree char *label = ws_awg_node_label (awg, i);

      g_string_append_printf (s, "  n%u [shape=%s%s, label=\"", i, shapes[MIN (nodes[i].kind, 4)],
                              highlight && highlight[i] ? ", penwidth=3, color=red" : "");
      append_escaped (s, label);
      g_string_append_printf (s, "\\nC=%.3f ms N=%" G_GUINT64_FORMAT "\"];\n",
                              nodes[i].c / 1e6, nodes[i].n);
      if (nodes[i].parent != G_MAXUINT32)
        g_string_append_printf (s, "  n%u -> n%u;\n", nodes[i].parent, i);
    }
  g_string_append (s, "}\n");
  return g_string_free (s, FALSE);
}
