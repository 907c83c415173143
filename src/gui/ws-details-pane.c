/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-details-pane.h"
#include "ws-event-format.h"
#include "ws-time-format.h"
#include "ws-timeline-lod.h"
#include "ws-trace-stats.h"

struct _WsDetailsPane
{
  GtkWidget  parent_instance;

  /* Template widgets */
  GtkStack  *stack;
  GtkLabel  *title_label;
  GtkLabel  *summary_label;
  GtkWidget *stacks_box;
  GtkLabel  *stack_heading;
  GtkLabel  *stack_label;
  GtkWidget *readier_box;
  GtkLabel  *readier_heading;
  GtkLabel  *readier_stack_label;

  /* Owned references */
  WsTrace   *trace;
};

G_DEFINE_FINAL_TYPE (WsDetailsPane, ws_details_pane, GTK_TYPE_WIDGET)

static void
ws_details_pane_dispose (GObject *object)
{
  WsDetailsPane *self = WS_DETAILS_PANE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_DETAILS_PANE);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (ws_details_pane_parent_class)->dispose (object);
}

static void
ws_details_pane_class_init (WsDetailsPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_details_pane_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-details-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, WsDetailsPane, stack);
  gtk_widget_class_bind_template_child (widget_class, WsDetailsPane, title_label);
  gtk_widget_class_bind_template_child (widget_class, WsDetailsPane, summary_label);
  gtk_widget_class_bind_template_child (widget_class, WsDetailsPane, stacks_box);
  gtk_widget_class_bind_template_child (widget_class, WsDetailsPane, stack_heading);
  gtk_widget_class_bind_template_child (widget_class, WsDetailsPane, stack_label);
  gtk_widget_class_bind_template_child (widget_class, WsDetailsPane, readier_box);
  gtk_widget_class_bind_template_child (widget_class, WsDetailsPane, readier_heading);
  gtk_widget_class_bind_template_child (widget_class, WsDetailsPane, readier_stack_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "detailspane");
}

static void
ws_details_pane_init (WsDetailsPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
ws_details_pane_new (void)
{
  return g_object_new (WS_TYPE_DETAILS_PANE, NULL);
}

/**
 * ws_details_pane_set_trace:
 * @trace: (nullable):
 */
void
ws_details_pane_set_trace (WsDetailsPane *self,
                           WsTrace       *trace)
{
  g_return_if_fail (WS_IS_DETAILS_PANE (self));
  g_set_object (&self->trace, trace);
  ws_details_pane_clear (self);
}

void
ws_details_pane_clear (WsDetailsPane *self)
{
  g_return_if_fail (WS_IS_DETAILS_PANE (self));
  gtk_stack_set_visible_child_name (self->stack, "empty");
  gtk_label_set_text (self->title_label, "");
}

/**
 * ws_details_pane_show_event:
 * @full_stacks: %TRUE for the whole stacks (a clicked event), %FALSE for
 *   the top frames only (a hovered one)
 */
void
ws_details_pane_show_event (WsDetailsPane *self,
                            guint          event,
                            gboolean       full_stacks)
{
  const WsEvent *e;
  g_autofree char *title = NULL;
  g_autofree char *thread = NULL;
  g_autofree char *at = NULL;
  g_autofree char *readier = NULL;
  g_autofree char *stack = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *thread_e = NULL;
  const WsThread *t;
  const WsProcess *p;
  guint max_frames = full_stacks ? 0 : 8;
  guint readier_thread = WS_NONE;

  g_return_if_fail (WS_IS_DETAILS_PANE (self));
  if (self->trace == NULL || event >= ws_trace_get_n_events (self->trace))
    {
      ws_details_pane_clear (self);
      return;
    }

  e = ws_trace_get_event (self->trace, event);
  t = ws_trace_get_thread (self->trace, e->thread);
  p = t->process != WS_NONE ? ws_trace_get_process (self->trace, t->process) : NULL;
  title = ws_event_format_title (self->trace, event);
  thread = ws_event_format_thread (self->trace, e->thread);
  thread_e = g_markup_escape_text (thread, -1);
  at = ws_format_duration (e->time - ws_trace_get_start_time (self->trace));
  readier = ws_event_format_readier (self->trace, event);

  {
    g_autofree char *pname = g_markup_escape_text (p && p->name ? p->name : "?", -1);
    g_autofree char *readier_e = readier ? g_markup_escape_text (readier, -1) : NULL;
    g_autofree char *pid = ws_format_pid (t->pid);
    /* Translators: details pane: thread, process, pid, time from trace start, CPU */
    summary = g_strdup_printf (_("<b>%s</b> of %s (%s) · at +%s · CPU %u"),
                               thread_e, pname, pid, at, e->cpu);
    if (readier_e != NULL)
      {
        char *tmp = g_strdup_printf ("%s\n%s", summary, readier_e);
        g_free (summary);
        summary = tmp;
      }
  }

  gtk_label_set_text (self->title_label, title);
  gtk_label_set_markup (self->summary_label, summary);

  stack = ws_event_format_stack (self->trace, e->stack, max_frames);
  gtk_label_set_text (self->stack_label, stack);
  gtk_label_set_text (self->stack_heading,
                      e->kind == WS_EVENT_WAIT ? _("Waiting stack (leaf first)")
                      : e->kind == WS_EVENT_UNWAIT ? _("Stack when it woke the thread (leaf first)")
                      : _("Stack (leaf first)"));

  if (e->kind == WS_EVENT_WAIT &&
      ws_trace_wait_readier (self->trace, event, &readier_thread) != WS_READIER_UNKNOWN)
    {
      const WsEvent *unwait = ws_trace_get_event (self->trace, e->peer);
      g_autofree char *unwait_stack = ws_event_format_stack (self->trace, unwait->stack, max_frames);
      g_autofree char *heading = NULL;

      if (readier_thread != WS_NONE)
        {
          g_autofree char *who = ws_event_format_thread (self->trace, readier_thread);
          /* Translators: heading above the readier's stack */
          heading = g_strdup_printf (_("Readier %s: unwait stack"), who);
        }
      else
        heading = g_strdup (_("Interrupt context: unwait stack"));
      gtk_label_set_text (self->readier_heading, heading);
      gtk_label_set_text (self->readier_stack_label, unwait_stack);
      gtk_widget_set_visible (self->readier_box, TRUE);
    }
  else
    gtk_widget_set_visible (self->readier_box, FALSE);

  gtk_widget_set_visible (self->stacks_box, e->kind != WS_EVENT_MARKER && e->kind != WS_EVENT_HW_SERVICE);
  gtk_stack_set_visible_child_name (self->stack, "details");
}

/**
 * ws_details_pane_show_window:
 *
 * Summarises a selected thread window: how its time divides into running,
 * ready and waiting, counted from the exact events.
 */
void
ws_details_pane_show_window (WsDetailsPane *self,
                             guint          thread,
                             WsTime         t0,
                             WsTime         t1)
{
  const WsEvent *events;
  WsThreadTotals totals;
  g_autofree char *name = NULL;
  g_autofree char *len = NULL, *run_s = NULL, *ready_s = NULL, *wait_s = NULL, *title = NULL, *summary = NULL;

  g_return_if_fail (WS_IS_DETAILS_PANE (self));
  if (self->trace == NULL || thread >= ws_trace_get_n_threads (self->trace))
    return;

  events = ws_trace_get_events (self->trace);
  ws_thread_totals_in_window (self->trace, thread, t0, t1, &totals);
  name = ws_event_format_thread (self->trace, thread);
  len = ws_format_duration (t1 - t0);
  run_s = ws_format_duration (totals.run_total);
  ready_s = ws_format_duration (totals.preempt_total);
  wait_s = ws_format_duration (totals.wait_total);
  /* Translators: details pane title for a selected window: thread, length */
  title = g_strdup_printf (_("Window of %s · %s"), name, len);
  /* Translators: time split of a selected window */
  summary = g_strdup_printf (ngettext ("Running %s · ready %s · waiting %s in %u wait (%u with no wake-up recorded)",
                                       "Running %s · ready %s · waiting %s in %u waits (%u with no wake-up recorded)",
                                       totals.n_waits),
                             run_s, ready_s, wait_s, totals.n_waits, totals.n_unknown);
  gtk_label_set_text (self->title_label, title);
  gtk_label_set_text (self->summary_label, summary);

  if (totals.longest_wait_event != WS_NONE)
    {
      g_autofree char *stack = ws_event_format_stack (self->trace, events[totals.longest_wait_event].stack, 0);
      g_autofree char *dur = ws_format_duration (totals.longest_wait);
      g_autofree char *heading = g_strdup_printf (_("Longest wait (%s), waiting stack"), dur);

      gtk_label_set_text (self->stack_heading, heading);
      gtk_label_set_text (self->stack_label, stack);
      gtk_widget_set_visible (self->stacks_box, TRUE);
    }
  else
    gtk_widget_set_visible (self->stacks_box, FALSE);
  gtk_widget_set_visible (self->readier_box, FALSE);
  gtk_stack_set_visible_child_name (self->stack, "details");
}

const char *
ws_details_pane_get_title (WsDetailsPane *self)
{
  g_return_val_if_fail (WS_IS_DETAILS_PANE (self), NULL);
  return gtk_label_get_text (self->title_label);
}

const char *
ws_details_pane_get_stack_text (WsDetailsPane *self)
{
  g_return_val_if_fail (WS_IS_DETAILS_PANE (self), NULL);
  return gtk_label_get_text (self->stack_label);
}
