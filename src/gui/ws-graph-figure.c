/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Writing a graph or critical path to a file.  A picture goes through the
 * view's own renderer (so it has the selection and search highlights the
 * user sees); data goes through the core's exporters.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-export-dialog.h"
#include "ws-graph-export.h"
#include "ws-graph-figure.h"

static gboolean
has_suffix (const char *path,
            const char *suffix)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);
  return g_str_has_suffix (lower, suffix);
}

static gboolean
write_json (const char  *path,
            JsonNode    *node,
            GError     **error)
{
  g_autofree char *json = ws_graph_export_json_to_string (node);
  return ws_export_write_text (path, json, error);
}

static gboolean
unknown_extension (const char  *path,
                   GError     **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
               _("“%s” does not end in .png, .svg, .pdf, .dot or .json"), path);
  return FALSE;
}

/**
 * ws_graph_figure_export_scene:
 * @scene: (nullable): the scene @view shows
 * @path: ends in .png, .svg, .pdf (a picture of the whole graph, with the
 *   selection and search highlights), .dot or .json (the analysis: for a
 *   wait graph the whole graph, whatever the depth shown)
 *
 * Returns: %TRUE if written
 */
gboolean
ws_graph_figure_export_scene (WsGraphView   *view,
                              WsGraphScene  *scene,
                              const char    *path,
                              GError       **error)
{
  gboolean tree;
  WsExportFormat format;

  if (scene == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("There is no graph to export"));
      return FALSE;
    }
  if (ws_export_format_from_path (path, &format))
    return ws_graph_renderer_export (ws_graph_view_get_renderer (view), scene,
                                     ws_graph_view_get_viewport (view), path, format, error);

  tree = ws_graph_scene_get_kind (scene) == WS_GRAPH_SCENE_READY_TREE;
  if (has_suffix (path, ".dot") || has_suffix (path, ".gv"))
    {
      g_autofree char *dot = tree ? ws_graph_export_ready_tree_dot (ws_graph_scene_get_ready_tree (scene),
                                                                    ws_graph_scene_get_metric (scene))
                                  : ws_graph_export_wait_graph_dot (ws_graph_scene_get_wait_graph (scene));
      return ws_export_write_text (path, dot, error);
    }
  if (has_suffix (path, ".json"))
    {
      g_autoptr(JsonNode) node = tree ? ws_graph_export_ready_tree_json (ws_graph_scene_get_ready_tree (scene),
                                                                         ws_graph_scene_get_metric (scene))
                                      : ws_graph_export_wait_graph_json (ws_graph_scene_get_wait_graph (scene));
      return write_json (path, node, error);
    }
  return unknown_extension (path, error);
}

/**
 * ws_graph_figure_export_path:
 * @path: ends in .png, .svg, .pdf (the span shown with every lane), .dot
 *   or .json
 *
 * Returns: %TRUE if written
 */
gboolean
ws_graph_figure_export_path (WsCriticalPathView  *view,
                             WsCriticalPath      *critical_path,
                             const char          *path,
                             GError             **error)
{
  WsExportFormat format;

  if (ws_export_format_from_path (path, &format))
    return ws_critical_path_renderer_export (ws_critical_path_view_get_renderer (view), path, format,
                                             MAX (1200, gtk_widget_get_width (GTK_WIDGET (view))), error);
  if (has_suffix (path, ".dot") || has_suffix (path, ".gv"))
    {
      g_autofree char *dot = ws_graph_export_critical_path_dot (critical_path);
      return ws_export_write_text (path, dot, error);
    }
  if (has_suffix (path, ".json"))
    {
      g_autoptr(JsonNode) node = ws_graph_export_critical_path_json (critical_path);
      return write_json (path, node, error);
    }
  return unknown_extension (path, error);
}
