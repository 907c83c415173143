/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The side panel of the graph page.  It holds the trace and search only
 * while it fills itself: the page tells it what to show each time the
 * selection, the graph or the search changes.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-event-format.h"
#include "ws-node-details.h"
#include "ws-time-format.h"
#include "ws-wake-words.h"

struct _WsNodeDetails
{
  GtkWidget       parent_instance;

  /* Template widgets */
  GtkLabel       *detail_title;
  GtkLabel       *detail_subtitle;
  GtkBox         *detail_grid;
  GtkButton      *timeline_button;
  GtkLabel       *stack_heading;
  GtkLabel       *stack_label;
  GtkLabel       *readier_heading;
  GtkLabel       *readier_label;

  /* While filling: borrowed from the caller */
  WsTrace        *trace;
  WsStackSearch  *search;
};

G_DEFINE_FINAL_TYPE (WsNodeDetails, ws_node_details, GTK_TYPE_WIDGET)

static gboolean
frame_matches (WsNodeDetails *self,
               WsFrameId    frame)
{
  return self->search != NULL && ws_stack_search_matches_frame (self->search, frame);
}

/* The frames of @stack leaf first, one a line, the module dimmed and
 * search matches highlighted. */
static char *
stack_markup (WsNodeDetails *self,
              WsStackId    stack)
{
  WsStackTable *stacks = ws_trace_get_stack_table (self->trace);
  const WsFrameId *frames;
  GString *s = g_string_new (NULL);
  guint n;

  if (stack == WS_STACK_EMPTY)
    {
      g_string_append_printf (s, "<i>%s</i>", _("No stack recorded"));
      return g_string_free (s, FALSE);
    }
  frames = ws_stack_table_get_stack (stacks, stack, &n);
  for (guint k = n; k > 0; k--)
    {
      const WsFrame *f = ws_stack_table_get_frame (stacks, frames[k - 1]);
      g_autofree char *function = g_markup_escape_text (f->function ? f->function : "?", -1);
      g_autofree char *base = g_path_get_basename (f->module ? f->module : "?");
      g_autofree char *module = g_markup_escape_text (base, -1);

      if (s->len > 0)
        g_string_append_c (s, '\n');
      if (frame_matches (self, frames[k - 1]))
        g_string_append_printf (s, "<span background=\"#f6d32d\" foreground=\"#000000\">%s</span>", function);
      else
        g_string_append (s, function);
      g_string_append_printf (s, " <span alpha=\"55%%\">%s</span>", module);
    }
  return g_string_free (s, FALSE);
}

/* One "key  value" line of the details.  Values do not wrap (wrapped
 * labels in a scrolled side panel are measured for the wrong width on
 * GTK 4.8): they are short, and ellipsized with the whole text in the
 * tooltip. */
static void
grid_row (WsNodeDetails *self,
          int          row,
          const char  *name,
          const char  *value)
{
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *key = gtk_label_new (name);
  GtkWidget *val = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (key), 1);
  gtk_widget_add_css_class (key, "dim-label");
  gtk_label_set_width_chars (GTK_LABEL (key), 12);
  gtk_label_set_max_width_chars (GTK_LABEL (key), 12);
  gtk_label_set_ellipsize (GTK_LABEL (key), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (val), 0);
  gtk_label_set_ellipsize (GTK_LABEL (val), PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (val), TRUE);
  gtk_widget_set_tooltip_text (val, value);
  gtk_widget_set_hexpand (val, TRUE);
  gtk_box_append (GTK_BOX (line), key);
  gtk_box_append (GTK_BOX (line), val);
  gtk_box_append (self->detail_grid, line);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (val), GTK_ACCESSIBLE_RELATION_LABELLED_BY, key, NULL, -1);
}

/* What ended the wait, in the glossary's words (ws_wake_word_for_kind(),
 * the rule `why`, the critical path and the timeline use). */
static const char *
wake_text (WsWakeKind wake,
           char       state)
{
  WsWakeWord word;

  if (ws_wake_word_for_kind (wake, state, &word))
    return ws_wake_word_phrase (word);
  return wake == WS_WAKE_HEARTBEAT ? _("a heartbeat thread (a routine wake-up, not a cause)") : _("a thread");
}

static const char *
stop_text (WsReadyStop stop)
{
  switch (stop)
    {
    case WS_READY_STOP_READIER_RAN:      return _("the readier was running all along");
    case WS_READY_STOP_NOT_LOCK_RELATED: return _("not lock-related");
    case WS_READY_STOP_DEPTH_LIMIT:      return _("depth limit");
    case WS_READY_STOP_TRACE_START:      return _("the readier's history starts before the trace");
    case WS_READY_STOP_FALSE_RUN:        return _("not another thread’s work");
    case WS_READY_STOP_HARDWARE:         return ws_wake_word_phrase (WS_WAKE_WORD_INTERRUPT);
    case WS_READY_STOP_UNKNOWN_READIER:  return ws_wake_word_phrase (WS_WAKE_WORD_UNKNOWN);
    case WS_READY_STOP_NODE_LIMIT:       return _("node limit");
    case WS_READY_STOP_NONE:
    case WS_N_READY_STOPS:
    default:                             return NULL;
    }
}

static void
set_stacks_visible (WsNodeDetails *self,
                    gboolean     own,
                    gboolean     readier)
{
  gtk_widget_set_visible (GTK_WIDGET (self->stack_heading), own);
  gtk_widget_set_visible (GTK_WIDGET (self->stack_label), own);
  gtk_widget_set_visible (GTK_WIDGET (self->readier_heading), readier);
  gtk_widget_set_visible (GTK_WIDGET (self->readier_label), readier);
}

/* Shows the panel's stacks: the own stack (with its heading) and the
 * readier's, each from its markup, %NULL to hide it. */
static void
set_stack (GtkLabel   *heading,
           GtkLabel   *label,
           const char *title,
           const char *markup)
{
  gtk_widget_set_visible (GTK_WIDGET (heading), markup != NULL);
  gtk_widget_set_visible (GTK_WIDGET (label), markup != NULL);
  if (markup == NULL)
    return;
  gtk_label_set_text (heading, title);
  gtk_label_set_markup (label, markup);
}

static void
clear_grid (WsNodeDetails *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->detail_grid))) != NULL)
    gtk_box_remove (self->detail_grid, child);
}

static void
show_nothing (WsNodeDetails *self,
              const char    *hint)
{
  gtk_label_set_text (self->detail_title, _("Nothing selected"));
  gtk_label_set_text (self->detail_subtitle, hint);
  gtk_widget_set_visible (GTK_WIDGET (self->detail_grid), FALSE);
  set_stacks_visible (self, FALSE, FALSE);
}

/* The thread's process, "name · pid". */
static void
process_row (WsNodeDetails *self,
             int            row,
             guint          thread)
{
  const WsThread *t = ws_trace_get_thread (self->trace, thread);
  const WsProcess *p = ws_trace_get_process (self->trace, t->process);
  g_autofree char *pid = ws_format_pid (t->pid);
  g_autofree char *process = g_strdup_printf ("%s · %s", p && p->name ? p->name : "?", pid);

  grid_row (self, row, _("Process"), process);
}

/* ------------------------------------------------------------------ */
/* A critical path segment                                              */

static void
segment_grid (WsNodeDetails           *self,
              WsCriticalPath          *path,
              const WsCriticalSegment *seg)
{
  const WsSymptom *symptom = ws_critical_path_get_symptom (path);
  g_autofree char *thread = ws_event_format_thread_short (self->trace, seg->thread);
  g_autofree char *from = ws_event_format_offset (self->trace, seg->start);
  g_autofree char *to = ws_event_format_offset (self->trace, seg->end);
  g_autofree char *duration = ws_format_duration (seg->end - seg->start);
  g_autofree char *share = NULL;
  g_autofree char *depth = NULL;
  int row = 0;

  share = g_strdup_printf (_("%.1f %% of the window"),
                           symptom->t1 > symptom->t0 ? 100.0 * (seg->end - seg->start) / (symptom->t1 - symptom->t0) : 0);
  if (seg->depth == 0)
    depth = g_strdup (_("the thread of interest"));
  else
    depth = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u readier hop", "%u readier hops", seg->depth),
                             seg->depth);

  grid_row (self, row++, _("Thread"), thread);
  process_row (self, row++, seg->thread);
  grid_row (self, row++, _("State"), ws_critical_path_segment_label (path, seg - ws_critical_path_get_segments (path)));
  grid_row (self, row++, _("From"), from);
  grid_row (self, row++, _("To"), to);
  grid_row (self, row++, _("Duration"), duration);
  grid_row (self, row++, _("Share"), share);
  grid_row (self, row++, _("Depth"), depth);
  if (seg->event != WS_NONE)
    {
      const WsEvent *e = ws_trace_get_event (self->trace, seg->event);
      g_autofree char *what = e->kind == WS_EVENT_WAIT ? ws_event_format_wait (self->trace, seg->event, TRUE)
                                                       : g_strdup (_("preempted while runnable"));
      grid_row (self, row++, e->kind == WS_EVENT_WAIT ? _("In the wait") : _("Event"), what);
    }
  if (seg->on_behalf_of != WS_NONE)
    {
      g_autofree char *wait = ws_event_format_wait (self->trace, seg->on_behalf_of, TRUE);
      grid_row (self, row++, _("On behalf of"), wait);
    }
  else
    grid_row (self, row++, _("On behalf of"), _("itself"));
}

/* Stacks: the wait's own and what ended it; for a readier's work, its
 * stack when it readied the wait the path is following. */
static void
segment_stacks (WsNodeDetails           *self,
                const WsCriticalSegment *seg)
{
  set_stacks_visible (self, FALSE, FALSE);
  if (seg->event != WS_NONE)
    {
      const WsEvent *e = ws_trace_get_event (self->trace, seg->event);
      g_autofree char *own = stack_markup (self, e->stack);

      set_stack (self->stack_heading, self->stack_label,
                 e->kind == WS_EVENT_WAIT ? _("Waiting stack") : _("Stack when preempted"), own);
      if (e->kind == WS_EVENT_WAIT && e->peer != WS_NONE)
        {
          const WsEvent *u = ws_trace_get_event (self->trace, e->peer);
          g_autofree char *readier = stack_markup (self, u->stack);

          set_stack (self->readier_heading, self->readier_label,
                     u->kind == WS_EVENT_HW_SERVICE ? _("Wake-up stack (interrupt context)")
                                                    : _("Readier's stack (what woke it)"),
                     readier);
        }
    }
  else if (seg->on_behalf_of != WS_NONE)
    {
      const WsEvent *w = ws_trace_get_event (self->trace, seg->on_behalf_of);

      if (w->peer != WS_NONE && ws_trace_get_event (self->trace, w->peer)->thread == seg->thread)
        {
          g_autofree char *readier = stack_markup (self, ws_trace_get_event (self->trace, w->peer)->stack);
          set_stack (self->readier_heading, self->readier_label, _("Its stack when it readied that wait"), readier);
        }
    }
}

/**
 * ws_node_details_show_segment:
 * @segment: a segment of @path, or %WS_NONE for none
 * @search: (nullable): whose matching frames to highlight
 *
 * Returns: whether a segment is shown (the timeline button applies)
 */
gboolean
ws_node_details_show_segment (WsNodeDetails  *self,
                              WsTrace        *trace,
                              WsCriticalPath *path,
                              guint           segment,
                              WsStackSearch  *search)
{
  const WsCriticalSegment *seg;
  g_autofree char *thread = NULL;

  g_return_val_if_fail (WS_IS_NODE_DETAILS (self), FALSE);

  clear_grid (self);
  if (path == NULL || segment == WS_NONE)
    {
      show_nothing (self, _("Click a segment of the path to see which thread it was on, in what state, and the wait it was on behalf of."));
      return FALSE;
    }
  self->trace = trace;
  self->search = search;
  seg = ws_critical_path_get_segment (path, segment);
  thread = ws_event_format_thread_short (trace, seg->thread);
  gtk_label_set_text (self->detail_title, thread);
  gtk_label_set_text (self->detail_subtitle, ws_critical_path_segment_label (path, segment));
  gtk_widget_set_visible (GTK_WIDGET (self->detail_grid), TRUE);
  segment_grid (self, path, seg);
  segment_stacks (self, seg);
  self->trace = NULL;
  self->search = NULL;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* A node of a wait graph or ready tree                                 */

static void
wait_rows (WsNodeDetails     *self,
           int                row,
           const WsSceneNode *n)
{
  g_autofree char *state = g_strdup_printf ("%c%s", n->state ? n->state : '?',
                                            (n->flags & WS_SCENE_NODE_FLAG_LOCK) ? _(", lock-related") : "");
  g_autofree char *readier = ws_event_format_thread_short (self->trace, n->readier_thread);
  g_autofree char *woken = n->wake == WS_WAKE_THREAD && n->readier_thread != WS_NONE
                           ? g_strdup (readier) : g_strdup (wake_text (n->wake, n->state));

  grid_row (self, row++, _("State"), state);
  grid_row (self, row++, _("Ended by"), woken);
  if (stop_text (n->stop))
    grid_row (self, row++, _("Not followed"), stop_text (n->stop));
}

static void
node_grid (WsNodeDetails     *self,
           const WsSceneNode *n)
{
  g_autofree char *thread = ws_event_format_thread_short (self->trace, n->thread);
  g_autofree char *start = ws_event_format_offset (self->trace, n->time);
  g_autofree char *duration = ws_format_duration (n->duration);
  int row = 0;

  grid_row (self, row++, _("Thread"), thread);
  if (n->thread != WS_NONE && n->thread < ws_trace_get_n_threads (self->trace))
    process_row (self, row++, n->thread);
  grid_row (self, row++, _("Kind"), ws_scene_node_kind_to_string (n->kind));
  grid_row (self, row++, n->kind == WS_SCENE_NODE_WAIT ? _("Blocked at") : _("At"), start);
  if (n->kind == WS_SCENE_NODE_WAIT || n->kind == WS_SCENE_NODE_RUN)
    grid_row (self, row++, _("Duration"), (n->flags & WS_SCENE_NODE_FLAG_READIER) ? "—" : duration);
  if (n->kind == WS_SCENE_NODE_WAIT)
    wait_rows (self, row, n);
  grid_row (self, row++, _("Chain"),
            (n->flags & WS_SCENE_NODE_FLAG_ANOMALOUS) ? _("on the anomalous chain") : _("no"));
}

static const char *
stack_title (const WsSceneNode *n)
{
  switch ((WsSceneNodeKind) n->kind)
    {
    case WS_SCENE_NODE_WAIT:
      return _("Waiting stack");
    case WS_SCENE_NODE_RUN:
      return (n->flags & WS_SCENE_NODE_FLAG_READIER) ? _("Readier's stack when it woke the wait") : _("Stack");
    case WS_SCENE_NODE_HARDWARE:
    case WS_SCENE_NODE_TIMER:
      return _("Wake-up stack (interrupt context)");
    case WS_SCENE_NODE_UNKNOWN:
    case WS_N_SCENE_NODE_KINDS:
    default:
      return _("Stack");
    }
}

/**
 * ws_node_details_show_node:
 * @scene: (nullable): the scene shown
 * @node: a node of @scene, or %WS_NONE for none
 * @search: (nullable): whose matching frames to highlight
 *
 * Returns: whether a node is shown (the timeline button applies)
 */
gboolean
ws_node_details_show_node (WsNodeDetails *self,
                           WsTrace       *trace,
                           WsGraphScene  *scene,
                           guint          node,
                           WsStackSearch *search)
{
  const WsSceneNode *n;
  g_autofree char *title = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *stack = NULL;
  g_autofree char *readier = NULL;

  g_return_val_if_fail (WS_IS_NODE_DETAILS (self), FALSE);

  clear_grid (self);
  if (scene == NULL || node == WS_NONE)
    {
      show_nothing (self, _("Click a node to see its stacks."));
      return FALSE;
    }
  self->trace = trace;
  self->search = search;
  n = ws_graph_scene_get_node (scene, node);
  title = ws_graph_scene_dup_title (scene, node);
  detail = ws_graph_scene_dup_detail (scene, node);
  gtk_label_set_text (self->detail_title, title);
  gtk_label_set_text (self->detail_subtitle, detail);
  gtk_widget_set_visible (GTK_WIDGET (self->detail_grid), TRUE);
  node_grid (self, n);

  /* The full stacks, leaf on top. */
  stack = stack_markup (self, n->stack);
  set_stack (self->stack_heading, self->stack_label, stack_title (n), stack);
  if (n->kind == WS_SCENE_NODE_WAIT)
    readier = stack_markup (self, n->unwait_stack);
  set_stack (self->readier_heading, self->readier_label, _("Readier's stack (what woke it)"), readier);
  self->trace = NULL;
  self->search = NULL;
  return TRUE;
}

/**
 * ws_node_details_add_row:
 *
 * Adds one "name  value" line under those of the node shown (the anomaly
 * rows of the Graph page's WsGraphFlags).
 */
void
ws_node_details_add_row (WsNodeDetails *self,
                         const char    *name,
                         const char    *value)
{
  g_return_if_fail (WS_IS_NODE_DETAILS (self));
  grid_row (self, 0, name, value);
}

/**
 * ws_node_details_add_extra:
 * @widget: shown under the details' rows (the anomaly legend)
 */
void
ws_node_details_add_extra (WsNodeDetails *self,
                           GtkWidget     *widget)
{
  g_return_if_fail (WS_IS_NODE_DETAILS (self));
  gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (self->detail_grid))), widget,
                              GTK_WIDGET (self->detail_grid));
}

/* The panel's title (the selected node's or segment's thread). */
const char *
ws_node_details_get_title (WsNodeDetails *self)
{
  g_return_val_if_fail (WS_IS_NODE_DETAILS (self), NULL);
  return gtk_label_get_text (self->detail_title);
}

/**
 * ws_node_details_get_stack_text:
 * @readier: the readier's (unwait) stack rather than the node's own
 *
 * Returns: the stack shown, one frame a line, leaf first ("" if none)
 */
const char *
ws_node_details_get_stack_text (WsNodeDetails *self,
                                gboolean       readier)
{
  GtkLabel *label;

  g_return_val_if_fail (WS_IS_NODE_DETAILS (self), NULL);
  label = readier ? self->readier_label : self->stack_label;
  return gtk_widget_get_visible (GTK_WIDGET (label)) ? gtk_label_get_text (label) : "";
}

static void
ws_node_details_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), WS_TYPE_NODE_DETAILS);
  /* The template's root has no id, so dispose_template() leaves it. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (ws_node_details_parent_class)->dispose (object);
}

static void
ws_node_details_class_init (WsNodeDetailsClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_node_details_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-node-details.ui");
  gtk_widget_class_bind_template_child (widget_class, WsNodeDetails, detail_title);
  gtk_widget_class_bind_template_child (widget_class, WsNodeDetails, detail_subtitle);
  gtk_widget_class_bind_template_child (widget_class, WsNodeDetails, detail_grid);
  gtk_widget_class_bind_template_child (widget_class, WsNodeDetails, timeline_button);
  gtk_widget_class_bind_template_child (widget_class, WsNodeDetails, stack_heading);
  gtk_widget_class_bind_template_child (widget_class, WsNodeDetails, stack_label);
  gtk_widget_class_bind_template_child (widget_class, WsNodeDetails, readier_heading);
  gtk_widget_class_bind_template_child (widget_class, WsNodeDetails, readier_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "nodedetails");
}

static void
ws_node_details_init (WsNodeDetails *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  show_nothing (self, _("Click a node to see its stacks."));
}
