/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The "Slowest" list: what a newcomer should look at first, across every
 * loaded trace — the slowest scenario instances and the longest waits
 * that another thread ended —
 * each row a jump to the timeline.  It reads the levels of detail each
 * document already built (ws_timeline_lod_dup_longest_waits()), so
 * refreshing costs a sort of the waits of 1 ms or more, not a pass over
 * the events.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-slowest-list.h"
#include "ws-thread-picker.h"
#include "ws-time-format.h"

#define CANDIDATE_WAITS 2000

typedef struct {
  WsDocument   *document;   /* (unowned: the list is rebuilt on refresh) */
  WsSlowestKind kind;
  guint         index;
  WsTime        duration;
} Entry;

struct _WsSlowestList
{
  GtkWidget   parent_instance;

  GtkWidget  *scroller;
  GtkListBox *instance_box;
  GtkListBox *wait_box;
  GtkWidget  *instance_title;
  GtkWidget  *empty_label;
  GListModel *documents;
  GArray     *entries[2];    /* Entry, per WsSlowestKind, longest first */
};

G_DEFINE_FINAL_TYPE (WsSlowestList, ws_slowest_list, GTK_TYPE_WIDGET)

enum {
  ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static int
compare_entry (gconstpointer a,
               gconstpointer b)
{
  const Entry *ea = a, *eb = b;

  if (ea->duration != eb->duration)
    return ea->duration > eb->duration ? -1 : 1;
  return ea->index < eb->index ? -1 : ea->index > eb->index;
}

static void
collect (WsSlowestList *self,
         WsDocument    *document)
{
  WsTimelineLod *lod = ws_document_get_lod (document);
  WsTrace *trace = ws_document_get_trace (document);
  g_autoptr(GArray) waits = NULL;

  if (ws_document_get_state (document) != WS_DOCUMENT_READY || lod == NULL)
    return;
  for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
    {
      const WsScenarioInstance *si = ws_trace_get_scenario_instance (trace, i);
      Entry e = { document, WS_SLOWEST_INSTANCE, i, si->t1 - si->t0 };
      g_array_append_val (self->entries[WS_SLOWEST_INSTANCE], e);
    }
  /* Waits another thread ended, of threads a person investigates: an
   * idle kernel thread's timer sleep is long too, and so are a kernel
   * migration/N thread's waits for its stopper work and the recorder's
   * for its `sleep`, but none is anybody's delay (the picker's choice,
   * as `why` makes without scenarios). */
  waits = ws_timeline_lod_dup_longest_waits (lod, CANDIDATE_WAITS);
  for (guint i = 0, n = 0; i < waits->len && n < WS_SLOWEST_LIST_MAX_ROWS; i++)
    {
      const WsLodWait *w = &g_array_index (waits, WsLodWait, i);
      Entry e = { document, WS_SLOWEST_WAIT, w->event, w->t1 - w->t0 };
      guint readier;

      if (ws_trace_wait_readier (trace, w->event, &readier) != WS_READIER_THREAD
          || !ws_thread_picker_is_candidate (trace, NULL, ws_trace_get_event (trace, w->event)->thread))
        continue;
      g_array_append_val (self->entries[WS_SLOWEST_WAIT], e);
      n++;
    }
}

static char *
thread_text (WsTrace *trace,
             guint    thread)
{
  const WsThread *t = thread < ws_trace_get_n_threads (trace) ? ws_trace_get_thread (trace, thread) : NULL;

  return t ? g_strdup_printf ("%s %d", t->name ? t->name : "?", t->tid) : g_strdup ("?");
}

/* "44.9 ms  transaction" over "postgres 9057 · pg-tpcb · at 1.23 s". */
static GtkWidget *
entry_row (const Entry *e)
{
  WsTrace *trace = ws_document_get_trace (e->document);
  g_autofree char *dur = ws_format_duration (e->duration);
  g_autofree char *thread = NULL, *title = NULL, *at = NULL, *subtitle = NULL;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *top, *bottom;
  WsTime start;

  if (e->kind == WS_SLOWEST_INSTANCE)
    {
      const WsScenarioInstance *si = ws_trace_get_scenario_instance (trace, e->index);
      g_autofree char *name = g_markup_escape_text (ws_trace_get_string (trace, si->scenario), -1);

      thread = thread_text (trace, si->thread);
      title = g_strdup_printf ("<b>%s</b>  %s", dur, name);
      start = si->t0;
    }
  else
    {
      const WsEvent *w = ws_trace_get_event (trace, e->index);
      WsThreadState state = ws_thread_state_for_wait (w);

      thread = thread_text (trace, w->thread);
      title = g_markup_printf_escaped ("<b>%s</b>  %s", dur, ws_thread_state_get_label (state));
      start = w->time;
    }
  at = ws_format_duration (start - ws_trace_get_start_time (trace));
  /* Translators: second line of a row of the Slowest list: thread, trace,
   * and when it started from the start of the trace */
  subtitle = g_strdup_printf (_("%s · %s · at %s"), thread, ws_trace_get_name (trace), at);

  top = gtk_label_new (NULL);
  gtk_label_set_markup (GTK_LABEL (top), title);
  gtk_label_set_xalign (GTK_LABEL (top), 0);
  bottom = gtk_label_new (subtitle);
  gtk_label_set_xalign (GTK_LABEL (bottom), 0);
  gtk_label_set_ellipsize (GTK_LABEL (bottom), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (bottom, "dim-label");
  gtk_widget_add_css_class (bottom, "caption");
  gtk_box_append (GTK_BOX (box), top);
  gtk_box_append (GTK_BOX (box), bottom);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL, dur, -1);
  return box;
}

static void
fill_box (WsSlowestList *self,
          WsSlowestKind  kind)
{
  GtkListBox *box = kind == WS_SLOWEST_INSTANCE ? self->instance_box : self->wait_box;
  GtkWidget *child;
  GArray *entries = self->entries[kind];

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))) != NULL)
    gtk_list_box_remove (box, child);
  for (guint i = 0; i < entries->len; i++)
    gtk_list_box_append (box, entry_row (&g_array_index (entries, Entry, i)));
}

/**
 * ws_slowest_list_refresh:
 *
 * Lists again what the loaded documents hold.
 */
void
ws_slowest_list_refresh (WsSlowestList *self)
{
  guint n;

  g_return_if_fail (WS_IS_SLOWEST_LIST (self));

  for (guint k = 0; k < 2; k++)
    g_array_set_size (self->entries[k], 0);
  n = self->documents ? g_list_model_get_n_items (self->documents) : 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WsDocument) document = g_list_model_get_item (self->documents, i);
      collect (self, document);
    }
  for (guint k = 0; k < 2; k++)
    {
      g_array_sort (self->entries[k], compare_entry);
      if (self->entries[k]->len > WS_SLOWEST_LIST_MAX_ROWS)
        g_array_set_size (self->entries[k], WS_SLOWEST_LIST_MAX_ROWS);
      fill_box (self, k);
    }
  gtk_widget_set_visible (self->instance_title, self->entries[WS_SLOWEST_INSTANCE]->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->instance_box), self->entries[WS_SLOWEST_INSTANCE]->len > 0);
  gtk_widget_set_visible (self->empty_label,
                          self->entries[WS_SLOWEST_INSTANCE]->len + self->entries[WS_SLOWEST_WAIT]->len == 0);
}

void
ws_slowest_list_set_documents (WsSlowestList *self,
                               GListModel    *documents)
{
  g_return_if_fail (WS_IS_SLOWEST_LIST (self));
  g_set_object (&self->documents, documents);
  ws_slowest_list_refresh (self);
}

guint
ws_slowest_list_get_n_rows (WsSlowestList *self,
                            WsSlowestKind  kind)
{
  g_return_val_if_fail (WS_IS_SLOWEST_LIST (self), 0);
  g_return_val_if_fail (kind <= WS_SLOWEST_WAIT, 0);
  return self->entries[kind]->len;
}

/**
 * ws_slowest_list_get_row:
 * @document: (out) (transfer none) (optional):
 * @index: (out) (optional): the instance or event index
 * @duration: (out) (optional):
 *
 * Returns: %FALSE if there is no such row
 */
gboolean
ws_slowest_list_get_row (WsSlowestList *self,
                         WsSlowestKind  kind,
                         guint          position,
                         WsDocument   **document,
                         guint         *index,
                         WsTime        *duration)
{
  const Entry *e;

  g_return_val_if_fail (WS_IS_SLOWEST_LIST (self), FALSE);
  g_return_val_if_fail (kind <= WS_SLOWEST_WAIT, FALSE);

  if (position >= self->entries[kind]->len)
    return FALSE;
  e = &g_array_index (self->entries[kind], Entry, position);
  if (document)
    *document = e->document;
  if (index)
    *index = e->index;
  if (duration)
    *duration = e->duration;
  return TRUE;
}

/* Emits ::activated for a row, as a click or Enter on it does. */
void
ws_slowest_list_activate_row (WsSlowestList *self,
                              WsSlowestKind  kind,
                              guint          position)
{
  const Entry *e;

  g_return_if_fail (WS_IS_SLOWEST_LIST (self));
  g_return_if_fail (kind <= WS_SLOWEST_WAIT);

  if (position >= self->entries[kind]->len)
    return;
  e = &g_array_index (self->entries[kind], Entry, position);
  g_signal_emit (self, signals[ACTIVATED], 0, e->document, (int) kind, e->index);
}

static void
row_activated_cb (GtkListBox    *box,
                  GtkListBoxRow *row,
                  WsSlowestList *self)
{
  ws_slowest_list_activate_row (self, box == self->instance_box ? WS_SLOWEST_INSTANCE : WS_SLOWEST_WAIT,
                                gtk_list_box_row_get_index (row));
}

static GtkListBox *
add_section (WsSlowestList *self,
             GtkBox        *content,
             const char    *title,
             GtkWidget    **title_label)
{
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *box = gtk_list_box_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_margin_top (label, 6);
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (box), GTK_SELECTION_BROWSE);
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (box), TRUE);
  gtk_widget_add_css_class (box, "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  g_signal_connect (box, "row-activated", G_CALLBACK (row_activated_cb), self);
  gtk_box_append (content, label);
  gtk_box_append (content, box);
  if (title_label)
    *title_label = label;
  return GTK_LIST_BOX (box);
}

static void
ws_slowest_list_dispose (GObject *object)
{
  WsSlowestList *self = WS_SLOWEST_LIST (object);

  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_object (&self->documents);
  G_OBJECT_CLASS (ws_slowest_list_parent_class)->dispose (object);
}

static void
ws_slowest_list_finalize (GObject *object)
{
  WsSlowestList *self = WS_SLOWEST_LIST (object);

  for (guint k = 0; k < 2; k++)
    g_array_unref (self->entries[k]);
  G_OBJECT_CLASS (ws_slowest_list_parent_class)->finalize (object);
}

static void
ws_slowest_list_class_init (WsSlowestListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_slowest_list_dispose;
  object_class->finalize = ws_slowest_list_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "slowestlist");

  /**
   * WsSlowestList::activated:
   * @document: the trace's document
   * @kind: a #WsSlowestKind
   * @index: the scenario instance or WAIT event
   */
  signals[ACTIVATED] =
    g_signal_new ("activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, WS_TYPE_DOCUMENT, G_TYPE_INT, G_TYPE_UINT);
}

static void
ws_slowest_list_init (WsSlowestList *self)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  for (guint k = 0; k < 2; k++)
    self->entries[k] = g_array_new (FALSE, FALSE, sizeof (Entry));

  gtk_widget_set_margin_start (content, 6);
  gtk_widget_set_margin_end (content, 6);
  gtk_widget_set_margin_bottom (content, 6);
  self->empty_label = gtk_label_new (_("No trace is loaded, or none has a wait of 1 ms or more."));
  gtk_label_set_wrap (GTK_LABEL (self->empty_label), TRUE);
  gtk_widget_add_css_class (self->empty_label, "dim-label");
  gtk_box_append (GTK_BOX (content), self->empty_label);
  self->instance_box = add_section (self, GTK_BOX (content), _("Slowest Scenario Instances"), &self->instance_title);
  self->wait_box = add_section (self, GTK_BOX (content), _("Longest Waits for Another Thread"), NULL);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (self->scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (self->scroller), 560);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), content);
  gtk_widget_set_size_request (self->scroller, 380, -1);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
}

GtkWidget *
ws_slowest_list_new (void)
{
  return g_object_new (WS_TYPE_SLOWEST_LIST, NULL);
}
