/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsGraphFlags (see the header).  Its actions live in a "graphflag"
 * action group on the page, so that the context menu (a popover on the
 * graph view) finds them; the window's own flag actions ask
 * ws_graph_flags_get_selected_wait() when the focus is on the page.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "ws-anomaly-state.h"
#include "ws-graph-flags.h"
#include "ws-graph-page.h"
#include "ws-model-window.h"

struct _WsGraphFlags
{
  GObject             parent_instance;

  GtkWidget          *page;      /* (unowned): owns this object */
  WsGraphView        *view;      /* (unowned): a child of the page */
  WsSession          *session;
  WsGraphAnomalies   *anomalies; /* (nullable): the layer of the scene shown */
  GSimpleActionGroup *actions;
  GtkWidget          *menu;      /* GtkPopoverMenu, a child of the view */
  GtkWidget          *legend;    /* GtkDrawingArea in the side panel */
};

G_DEFINE_FINAL_TYPE (WsGraphFlags, ws_graph_flags, G_TYPE_OBJECT)

static void
ws_graph_flags_dispose (GObject *object)
{
  WsGraphFlags *self = WS_GRAPH_FLAGS (object);

  if (self->menu != NULL)
    gtk_widget_unparent (self->menu);
  self->menu = NULL;
  g_clear_object (&self->session);
  g_clear_object (&self->anomalies);
  g_clear_object (&self->actions);

  G_OBJECT_CLASS (ws_graph_flags_parent_class)->dispose (object);
}

static void
ws_graph_flags_class_init (WsGraphFlagsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_graph_flags_dispose;
}

static void
ws_graph_flags_init (WsGraphFlags *self)
{
}

static void
toast (WsGraphFlags *self,
       const char   *message)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self->view), ADW_TYPE_TOAST_OVERLAY);

  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (message));
}

/* Which actions apply to the node selected now. */
static void
update_actions (WsGraphFlags *self)
{
  guint event;
  gboolean wait = ws_graph_flags_get_selected_wait (self, &event) != NULL;
  gboolean any = self->anomalies != NULL && ws_graph_anomalies_get_n_anomalous (self->anomalies) > 0;
  const char *wait_actions[] = { "flag-anomalous", "flag-normal", "unflag", "show-model" };

  for (guint i = 0; i < G_N_ELEMENTS (wait_actions); i++)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self->actions),
                                                                              wait_actions[i])), wait);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self->actions),
                                                                            "next-anomalous")), any);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self->actions),
                                                                            "previous-anomalous")), any);
}

/* The anomaly layer of the scene shown, made from the newest scores. */
static void
scene_changed (WsGraphFlags *self)
{
  WsGraphScene *scene = ws_graph_view_get_scene (self->view);
  WsAnomalyState *state = self->session ? ws_session_get_anomaly_state (self->session) : NULL;
  WsAnomalyResult *result = state ? ws_anomaly_state_get_result (state) : NULL;
  guint t = result && scene ? ws_anomaly_result_find_trace (result, ws_graph_scene_get_trace (scene)) : WS_NONE;

  g_clear_object (&self->anomalies);
  if (t != WS_NONE)
    self->anomalies = ws_graph_anomalies_new (scene, result, t);
  ws_graph_view_set_anomalies (self->view, self->anomalies);
  gtk_widget_set_visible (self->legend, self->anomalies != NULL && ws_graph_anomalies_get_n_marked (self->anomalies) > 0);
  gtk_widget_queue_resize (self->legend);
  update_actions (self);
}

/* New scores (a flag, new settings): redraw, and fill the side panel
 * again, which shows the selected node's verdict. */
static void
scores_changed (WsGraphFlags *self)
{
  guint selected = ws_graph_view_get_selected_node (self->view);

  scene_changed (self);
  if (self->anomalies != NULL && selected != WS_NONE && WS_IS_GRAPH_PAGE (self->page))
    ws_graph_page_select_node (WS_GRAPH_PAGE (self->page), selected);
}

void
ws_graph_flags_set_session (WsGraphFlags *self,
                            WsSession    *session)
{
  g_return_if_fail (WS_IS_GRAPH_FLAGS (self));

  if (!g_set_object (&self->session, session) || session == NULL)
    return;
  g_signal_connect_object (ws_session_get_anomaly_state (session), "changed",
                           G_CALLBACK (scores_changed), self, G_CONNECT_SWAPPED);
  scene_changed (self);
}

/* Returns: (transfer none) (nullable): the layer drawn */
WsGraphAnomalies *
ws_graph_flags_get_anomalies (WsGraphFlags *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_FLAGS (self), NULL);
  return self->anomalies;
}

static const char *
level_label (WsModelLevel level)
{
  switch (level)
    {
    case WS_MODEL_LEVEL_SIGNATURE: return _("own (this signature's history)");
    case WS_MODEL_LEVEL_POOL:      return _("pooled (same kernel blocking function)");
    case WS_MODEL_LEVEL_GLOBAL:    return _("global (every wait)");
    default:                       return "?";
    }
}

/**
 * ws_graph_flags_fill_details:
 *
 * Adds @node's anomaly rows to the side panel: the verdict, P(D ≥ d),
 * the threshold, the signature and the model it came from.
 */
void
ws_graph_flags_fill_details (WsGraphFlags  *self,
                             WsNodeDetails *details,
                             guint          node)
{
  const WsWaitScore *s;
  const WsAnomalyModel *m;
  g_autofree char *score = NULL;
  g_autofree char *threshold = NULL;
  g_autofree char *model = NULL;
  g_autofree char *signature = NULL;

  g_return_if_fail (WS_IS_GRAPH_FLAGS (self));

  if (self->anomalies == NULL || node == WS_NONE
      || (s = ws_graph_anomalies_get_score (self->anomalies, node)) == NULL)
    return;
  m = ws_anomaly_result_get_model (ws_graph_anomalies_get_result (self->anomalies), s->model);
  score = g_strdup_printf ("%.3g %%", 100 * s->score);
  threshold = g_strdup_printf ("%.3g %%", 100 * m->threshold);
  model = m->level == WS_MODEL_LEVEL_SIGNATURE ? g_strdup (level_label (m->level))
        : g_strdup_printf ("%s: %s", level_label (m->level), m->level == WS_MODEL_LEVEL_POOL ? m->pool : "*");
  ws_node_details_add_row (details, _("Anomaly"),
                           s->flag == WS_ANOMALY_FLAG_ANOMALOUS ? _("anomalous (your flag)")
                           : s->flag == WS_ANOMALY_FLAG_NORMAL ? _("not anomalous (your flag)")
                           : s->anomalous ? _("anomalous (model)") : _("normal (model)"));
  ws_node_details_add_row (details, _("P(D ≥ d)"), score);
  ws_node_details_add_row (details, _("Threshold"), threshold);
  signature = ws_wait_signature_to_display (m->key);
  /* Translators: the wait's kind (its signature), its frames caller first (→), the kernel's
   * blocking function after ⇒ */
  ws_node_details_add_row (details, _("Signature"), signature);
  ws_node_details_add_row (details, _("Model"), model);
}

static WsDocument *
document_of (WsGraphFlags *self,
             WsTrace      *trace)
{
  GListModel *docs = self->session ? ws_session_get_documents (self->session) : NULL;

  for (guint i = 0; docs != NULL && i < g_list_model_get_n_items (docs); i++)
    {
      g_autoptr(WsDocument) doc = g_list_model_get_item (docs, i);
      if (ws_document_get_trace (doc) == trace)
        return doc;  /* the list keeps it */
    }
  return NULL;
}

/**
 * ws_graph_flags_get_selected_wait:
 * @event: (out): its event index
 *
 * Returns: (transfer none) (nullable): the document of the graph's
 *   selected node when that node is a scored wait, else %NULL
 */
WsDocument *
ws_graph_flags_get_selected_wait (WsGraphFlags *self,
                                  guint        *event)
{
  guint node;
  const WsWaitScore *s;

  g_return_val_if_fail (WS_IS_GRAPH_FLAGS (self), NULL);

  node = ws_graph_view_get_selected_node (self->view);
  if (self->anomalies == NULL || node == WS_NONE
      || (s = ws_graph_anomalies_get_score (self->anomalies, node)) == NULL)
    return NULL;
  *event = s->event;
  return document_of (self, ws_graph_scene_get_trace (ws_graph_anomalies_get_scene (self->anomalies)));
}

/**
 * ws_graph_flags_flag_selected:
 * @verdict: %WS_ANOMALY_FLAG_NONE removes the flag
 *
 * Flags the selected node's wait (saved at once; scored again after).
 */
gboolean
ws_graph_flags_flag_selected (WsGraphFlags   *self,
                              WsAnomalyFlag   verdict,
                              GError        **error)
{
  WsDocument *doc;
  guint event;

  g_return_val_if_fail (WS_IS_GRAPH_FLAGS (self), FALSE);

  if ((doc = ws_graph_flags_get_selected_wait (self, &event)) == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Select a finished wait in the graph first"));
      return FALSE;
    }
  return ws_anomaly_state_flag (ws_session_get_anomaly_state (self->session), doc, event, verdict, error);
}

static void
flag_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       data)
{
  WsGraphFlags *self = data;
  const char *name = g_action_get_name (G_ACTION (action));
  WsAnomalyFlag verdict = g_str_equal (name, "flag-anomalous") ? WS_ANOMALY_FLAG_ANOMALOUS
                        : g_str_equal (name, "flag-normal") ? WS_ANOMALY_FLAG_NORMAL
                        : WS_ANOMALY_FLAG_NONE;
  g_autoptr(GError) error = NULL;

  if (!ws_graph_flags_flag_selected (self, verdict, &error))
    toast (self, error->message);
  else
    toast (self, verdict == WS_ANOMALY_FLAG_ANOMALOUS ? _("Flagged anomalous")
                 : verdict == WS_ANOMALY_FLAG_NORMAL ? _("Flagged not anomalous")
                 : _("Flag removed"));
}

static void
show_model_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       data)
{
  WsGraphFlags *self = data;
  guint node = ws_graph_view_get_selected_node (self->view);
  const WsWaitScore *s = self->anomalies ? ws_graph_anomalies_get_score (self->anomalies, node) : NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self->view));

  if (s == NULL || !GTK_IS_WINDOW (root))
    return;
  gtk_window_present (GTK_WINDOW (ws_model_window_new (GTK_WINDOW (root), ws_graph_anomalies_get_result (self->anomalies),
                                                       s, ws_event_duration (ws_trace_get_event (ws_graph_scene_get_trace (ws_graph_anomalies_get_scene (self->anomalies)), s->event)))));
}

static void
next_anomalous_activated (GSimpleAction *action,
                          GVariant      *parameter,
                          gpointer       data)
{
  WsGraphFlags *self = data;
  gboolean forward = g_str_equal (g_action_get_name (G_ACTION (action)), "next-anomalous");
  guint node;

  if (self->anomalies == NULL)
    return;
  node = ws_graph_anomalies_next_anomalous (self->anomalies, ws_graph_view_get_selected_node (self->view), forward);
  if (node == WS_NONE || !WS_IS_GRAPH_PAGE (self->page))
    return;
  ws_graph_page_select_node (WS_GRAPH_PAGE (self->page), node);
  ws_graph_view_reveal_node (self->view, node);
}

static void
menu_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       data)
{
  WsGraphFlags *self = data;
  ws_graph_flags_popup_menu (self, -1, -1);
}

static GMenuModel *
build_menu (void)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) flags = g_menu_new ();
  g_autoptr(GMenu) other = g_menu_new ();

  g_menu_append (flags, _("Flag as _Anomalous"), "graphflag.flag-anomalous");
  g_menu_append (flags, _("Flag as _Not Anomalous"), "graphflag.flag-normal");
  g_menu_append (flags, _("_Remove Flag"), "graphflag.unflag");
  g_menu_append (flags, _("_Undo Last Flag"), "win.undo-flag");
  g_menu_append (other, _("Show the Wait's _Model"), "graphflag.show-model");
  g_menu_append (other, _("Ne_xt Anomalous Node"), "graphflag.next-anomalous");
  g_menu_append (other, _("Show in _Timeline"), "graph.show-in-timeline");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (flags));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (other));
  return G_MENU_MODEL (menu);
}

/**
 * ws_graph_flags_popup_menu:
 * @x: where (view coordinates), or -1 to point at the selected node
 */
void
ws_graph_flags_popup_menu (WsGraphFlags *self,
                           double        x,
                           double        y)
{
  guint node;
  GdkRectangle at = { 0, 0, 1, 1 };

  g_return_if_fail (WS_IS_GRAPH_FLAGS (self));

  node = ws_graph_view_get_selected_node (self->view);
  if (x < 0)
    {
      WsGraphScene *scene = ws_graph_view_get_scene (self->view);
      const WsGraphViewport *vp = ws_graph_view_get_viewport (self->view);
      WsGraphRect r;
      double px, py;

      if (scene == NULL || node == WS_NONE)
        return;
      ws_graph_layout_get_node_rect (ws_graph_scene_get_layout (scene), node, &r);
      ws_graph_viewport_to_device (vp, r.x + r.width / 2, r.y + r.height, &px, &py);
      x = CLAMP (px, 0, gtk_widget_get_width (GTK_WIDGET (self->view)));
      y = CLAMP (py, 0, gtk_widget_get_height (GTK_WIDGET (self->view)));
    }
  update_actions (self);
  at.x = (int) x;
  at.y = (int) y;
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &at);
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
secondary_pressed_cb (GtkGestureClick *gesture,
                      int              n_press,
                      double           x,
                      double           y,
                      WsGraphFlags    *self)
{
  guint node = ws_graph_view_node_at (self->view, x, y);

  if (node == WS_NONE)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  if (WS_IS_GRAPH_PAGE (self->page))
    ws_graph_page_select_node (WS_GRAPH_PAGE (self->page), node);
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
  ws_graph_flags_popup_menu (self, x, y);
}

static void
add_shortcut (GtkShortcutController *controller,
              guint                  key,
              GdkModifierType        modifiers,
              const char            *action)
{
  gtk_shortcut_controller_add_shortcut (controller,
                                        gtk_shortcut_new (gtk_keyval_trigger_new (key, modifiers),
                                                          gtk_named_action_new (action)));
}

static void
attach_input (WsGraphFlags *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_shortcut_controller_new ();
  g_autoptr(GMenuModel) model = build_menu ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (secondary_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->view), GTK_EVENT_CONTROLLER (click));

  add_shortcut (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_Menu, 0, "graphflag.menu");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_F10, GDK_SHIFT_MASK, "graphflag.menu");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_n, 0, "graphflag.next-anomalous");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_N, GDK_SHIFT_MASK, "graphflag.previous-anomalous");
  gtk_widget_add_controller (GTK_WIDGET (self->view), keys);

  self->menu = gtk_popover_menu_new_from_model (model);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), TRUE);
  gtk_widget_set_parent (self->menu, GTK_WIDGET (self->view));
}

static void
draw_legend (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        data)
{
  WsGraphFlags *self = data;
  GdkRGBA fg;
  WsColor colour;

  if (self->anomalies == NULL)
    return;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  colour = (WsColor) { fg.red, fg.green, fg.blue, fg.alpha };
  ws_graph_anomalies_draw_legend (self->anomalies, cr, NULL, &colour, 0, 0, width);
}

/* The legend's height for its width, set on the next frame: set while
 * the side panel was being laid out, it was not laid out again and the
 * legend's last line stayed cut off (allocated 88 px of 106). */
static gboolean
legend_height_tick (GtkWidget     *area,
                    GdkFrameClock *clock,
                    gpointer       data)
{
  (void) clock;
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), GPOINTER_TO_INT (data));
  return G_SOURCE_REMOVE;
}

static void
legend_resized (GtkDrawingArea *area,
                int             width,
                int             height,
                gpointer        data)
{
  WsGraphFlags *self = data;
  int need;

  if (self->anomalies == NULL)
    return;
  need = (int) ceil (ws_graph_anomalies_draw_legend (self->anomalies, NULL, NULL, &(WsColor) { 0, 0, 0, 1 },
                                                     0, 0, width));
  if (need != gtk_drawing_area_get_content_height (area))
    gtk_widget_add_tick_callback (GTK_WIDGET (area), legend_height_tick, GINT_TO_POINTER (need), NULL);
}

/**
 * ws_graph_flags_new:
 * @page: the Graph page (its "graphflag" actions go there)
 * @view: its graph view
 *
 * Returns: (transfer full): the page's anomaly helper
 */
WsGraphFlags *
ws_graph_flags_new (GtkWidget     *page,
                    WsGraphView   *view,
                    WsNodeDetails *details)
{
  static const GActionEntry entries[] = {
    { "flag-anomalous", flag_activated, NULL, NULL, NULL, { 0 } },
    { "flag-normal", flag_activated, NULL, NULL, NULL, { 0 } },
    { "unflag", flag_activated, NULL, NULL, NULL, { 0 } },
    { "show-model", show_model_activated, NULL, NULL, NULL, { 0 } },
    { "next-anomalous", next_anomalous_activated, NULL, NULL, NULL, { 0 } },
    { "previous-anomalous", next_anomalous_activated, NULL, NULL, NULL, { 0 } },
    { "menu", menu_activated, NULL, NULL, NULL, { 0 } },
  };
  WsGraphFlags *self = g_object_new (WS_TYPE_GRAPH_FLAGS, NULL);

  self->page = page;
  self->view = view;
  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), entries, G_N_ELEMENTS (entries), self);
  gtk_widget_insert_action_group (page, "graphflag", G_ACTION_GROUP (self->actions));
  attach_input (self);
  self->legend = gtk_drawing_area_new ();
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->legend), 88);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->legend), draw_legend, self, NULL);
  g_signal_connect (self->legend, "resize", G_CALLBACK (legend_resized), self);
  gtk_widget_set_visible (self->legend, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->legend), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Legend of the anomaly marks: a vermillion triangle for an anomalous wait, "
                                    "with a black pennant when you flagged it, a green tick for a wait you "
                                    "flagged not anomalous, a purple band along the chain through anomalous waits"),
                                  -1);
  ws_node_details_add_extra (details, self->legend);
  g_signal_connect_object (view, "notify::scene", G_CALLBACK (scene_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (view, "notify::selected-node", G_CALLBACK (update_actions), self, G_CONNECT_SWAPPED);
  update_actions (self);
  return self;
}
