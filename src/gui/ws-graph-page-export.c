/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The graph page's exports: the graph or critical path shown as PNG, SVG,
 * PDF, DOT or JSON (ws-graph-figure.c), and the inspector's findings.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-export-dialog.h"
#include "ws-graph-figure.h"
#include "ws-graph-page-private.h"

/**
 * ws_graph_page_export:
 * @path: ends in .png, .svg, .pdf, .dot or .json (see ws_graph_figure_export())
 *
 * Returns: %TRUE if written
 */
gboolean
ws_graph_page_export (WsGraphPage  *self,
                      const char   *path,
                      GError      **error)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->shown.path != NULL)
    return ws_graph_figure_export_path (self->cp_view, self->shown.path, path, error);
  return ws_graph_figure_export_scene (self->graph_view, self->shown.scene, path, error);
}

static gboolean
export_findings_to (GtkWidget   *widget,
                    const char  *path,
                    GError     **error)
{
  return ws_inspector_panel_export_findings (WS_GRAPH_PAGE (widget)->inspector_panel, path, error);
}

static gboolean
export_to (GtkWidget   *widget,
           const char  *path,
           GError     **error)
{
  return ws_graph_page_export (WS_GRAPH_PAGE (widget), path, error);
}

static void
export_toast (GtkWidget  *widget,
              const char *message)
{
  _ws_graph_page_toast (WS_GRAPH_PAGE (widget), message);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  WsGraphPage *self = WS_GRAPH_PAGE (widget);
  const char *ext = g_variant_get_string (param, NULL);
  g_autofree char *name = NULL;

  if (self->shown.scene == NULL && self->shown.path == NULL)
    return;

  name = g_strdup_printf ("%s.%s",
                          self->shown.path ? "critical-path"
                          : ws_graph_scene_get_kind (self->shown.scene) == WS_GRAPH_SCENE_READY_TREE ? "ready-tree"
                          : "wait-graph",
                          ext);
  ws_export_dialog_show (widget, self->shown.path ? _("Export the Critical Path") : _("Export the Graph"),
                         name, export_to, export_toast);
}

static void
export_findings_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  WsGraphPage *self = WS_GRAPH_PAGE (widget);
  g_autofree char *name = NULL;

  if (ws_inspector_panel_get_findings (self->inspector_panel) == NULL)
    return;
  name = g_strdup_printf ("findings.%s", g_variant_get_string (param, NULL));
  ws_export_dialog_show (widget, _("Export the Findings"), name, export_findings_to, export_toast);
}

void
_ws_graph_page_class_export_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "graph.export", "s", export_action);
  gtk_widget_class_install_action (widget_class, "graph.export-findings", "s", export_findings_action);
}
