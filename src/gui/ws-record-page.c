/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Record page (ws-record-page.h).  The form builds a WsRecordSettings;
 * the core decides the access and the command line (shown as the form
 * changes) and runs perf in a GTask thread, reporting through a
 * WsProgressRelay.  Built in code, like the welcome page.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <unistd.h>

#include "ws-error.h"
#include "ws-progress-relay.h"
#include "ws-worker.h"
#include "ws-record-page.h"
#include "ws-recorder.h"

struct _WsRecordPage
{
  GtkWidget        parent_instance;
  GtkWidget       *scroller;
  GtkCheckButton  *system_check;
  GtkCheckButton  *command_check;
  GtkCheckButton  *pid_check;
  GtkEditable     *command_entry;
  GtkSpinButton   *pid_spin;
  GtkSpinButton   *duration_spin;
  AdwActionRow    *duration_row;
  GtkSwitch       *dwarf_switch;
  GtkLabel        *perf_line;
  GtkLabel        *access_label;
  GtkStack        *controls;
  GtkProgressBar  *progress;
  GtkLabel        *status;

  WsRecordSystem  *system;
  WsRecorder      *recorder;       /* while running */
  WsWorker        *worker;
  WsProgressRelay *relay;
  char            *status_text;
  char            *output;       /* the file the next recording writes, as shown */
};

G_DEFINE_FINAL_TYPE (WsRecordPage, ws_record_page, GTK_TYPE_WIDGET)

enum { SIGNAL_RECORDED, SIGNAL_CLOSE, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
set_status (WsRecordPage *self,
            const char   *text,
            gboolean      error)
{
  g_free (self->status_text);
  self->status_text = g_strdup (text ? text : "");
  gtk_label_set_text (self->status, self->status_text);
  gtk_widget_set_visible (GTK_WIDGET (self->status), text != NULL && *text);
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->status), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->status), "error");
}

/* The form as settings; %NULL (and @error) when the command cannot be parsed. */
static WsRecordSettings *
form_settings (WsRecordPage  *self,
               GError       **error)
{
  g_autoptr(WsRecordSettings) s = ws_record_settings_new ();
  const char *command = gtk_editable_get_text (self->command_entry);

  s->target = gtk_check_button_get_active (self->command_check) ? WS_RECORD_COMMAND
              : gtk_check_button_get_active (self->pid_check) ? WS_RECORD_PID : WS_RECORD_SYSTEM;
  s->pid = gtk_spin_button_get_value_as_int (self->pid_spin);
  s->duration = gtk_spin_button_get_value (self->duration_spin);
  s->stacks = gtk_switch_get_active (self->dwarf_switch) ? WS_RECORD_STACKS_DWARF : WS_RECORD_STACKS_FP;
  /* The file this recording will write, named now so that the line shown
   * is the one run (it showed "-o perf.data" and wrote a dated file
   * elsewhere). */
  if (self->output == NULL || g_file_test (self->output, G_FILE_TEST_EXISTS))
    {
      g_free (self->output);
      self->output = ws_record_settings_default_output ();
    }
  s->output = g_strdup (self->output);
  if (s->target == WS_RECORD_COMMAND && *command != '\0' &&
      !g_shell_parse_argv (command, NULL, &s->command, error))
    return NULL;
  return g_steal_pointer (&s);
}

/* The perf line and whether the form can start, as the form changes. */
static void
form_changed (WsRecordPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsRecordSettings) s = form_settings (self, &error);
  gboolean command = gtk_check_button_get_active (self->command_check);

  gtk_widget_set_sensitive (GTK_WIDGET (self->command_entry), command);
  gtk_widget_set_sensitive (GTK_WIDGET (self->pid_spin), gtk_check_button_get_active (self->pid_check));
  adw_action_row_set_subtitle (self->duration_row,
                               command ? _("Seconds after which the command is stopped; 0 lets it run to its end")
                                       : _("Seconds to record"));
  if (s == NULL)
    {
      gtk_label_set_text (self->perf_line, error->message);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "record.start", FALSE);
      return;
    }
  {
    g_autofree char *line = ws_record_settings_format (s);
    gboolean allowed = ws_record_access_decide (self->system, NULL) <= WS_RECORD_ACCESS_PKEXEC;

    gtk_label_set_text (self->perf_line, line);
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "record.start",
                                   allowed && self->recorder == NULL && ws_record_settings_check (s, NULL));
  }
}

/* A command runs to its end unless the user sets a limit; a process or
 * the system needs a duration: switch the untouched defaults over. */
static void
command_toggled (WsRecordPage *self)
{
  double value = gtk_spin_button_get_value (self->duration_spin);

  if (gtk_check_button_get_active (self->command_check) && value == 5)
    gtk_spin_button_set_value (self->duration_spin, 0);
  else if (!gtk_check_button_get_active (self->command_check) && value == 0)
    gtk_spin_button_set_value (self->duration_spin, 5);
}

static void
relay_progress (double      fraction,
                const char *message,
                gpointer    data)
{
  WsRecordPage *self = data;

  if (self->recorder == NULL)
    return;
  if (fraction < 0)
    gtk_progress_bar_pulse (self->progress);
  else
    gtk_progress_bar_set_fraction (self->progress, fraction);
  if (message != NULL)
    gtk_progress_bar_set_text (self->progress, message);
}

static void
set_running (WsRecordPage *self,
             gboolean      running)
{
  gtk_stack_set_visible_child_name (self->controls, running ? "running" : "idle");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "record.stop", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "record.cancel", running);
  form_changed (self);
}

/* What the recording thread needs, so that it never reads the page. */
typedef struct {
  WsRecorder      *recorder;
  WsProgressRelay *relay;
} RecordJob;

static void
record_job_free (RecordJob *job)
{
  g_object_unref (job->recorder);
  g_object_unref (job->relay);
  g_free (job);
}

static void
record_thread (GTask        *task,
               gpointer      source,
               gpointer      data,
               GCancellable *cancellable)
{
  RecordJob *job = data;
  GError *error = NULL;

  if (ws_recorder_run (job->recorder, ws_progress_relay_report, job->relay, cancellable, &error))
    g_task_return_pointer (task, GINT_TO_POINTER (TRUE), NULL);
  else
    g_task_return_error (task, error);
}

/* Not called once the page has gone (dispose drops the job). */
static void
record_done (gpointer  owner,
             gpointer  result,
             GError   *error,
             gpointer  data)
{
  WsRecordPage *self = WS_RECORD_PAGE (owner);
  g_autoptr(WsRecorder) recorder = g_steal_pointer (&self->recorder);

  set_running (self, FALSE);
  if (result == NULL)
    {
      set_status (self, error->message, !g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED));
      return;
    }
  {
    g_autoptr(GFile) file = g_file_new_for_path (ws_recorder_get_output (recorder));
    g_autofree char *done = g_strdup_printf (_("Recorded %s."), ws_recorder_get_output (recorder));

    set_status (self, done, FALSE);
    form_changed (self);   /* the next recording's file, in the line shown */
    g_signal_emit (self, signals[SIGNAL_RECORDED], 0, file);
  }
}

static void
start_action (GtkWidget  *widget,
              const char *name,
              GVariant   *param)
{
  WsRecordPage *self = WS_RECORD_PAGE (widget);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsRecordSettings) s = form_settings (self, &error);
  RecordJob *job;

  if (self->recorder != NULL)
    return;
  if (s == NULL || !ws_record_settings_check (s, &error))
    {
      set_status (self, error->message, TRUE);
      return;
    }
  self->recorder = ws_recorder_new (s, self->system);
  set_status (self, NULL, FALSE);
  gtk_progress_bar_set_fraction (self->progress, 0);
  gtk_progress_bar_set_text (self->progress, _("Starting perf…"));
  set_running (self, TRUE);
  job = g_new0 (RecordJob, 1);
  job->recorder = g_object_ref (self->recorder);
  job->relay = g_object_ref (self->relay);
  ws_worker_run (self->worker, self, job, (GDestroyNotify) record_job_free, record_thread, record_done);
}

static void
stop_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  WsRecordPage *self = WS_RECORD_PAGE (widget);

  if (self->recorder != NULL)
    ws_recorder_stop (self->recorder);
}

static void
cancel_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  ws_worker_cancel (WS_RECORD_PAGE (widget)->worker);
}

static void
close_action (GtkWidget  *widget,
              const char *name,
              GVariant   *param)
{
  g_signal_emit (widget, signals[SIGNAL_CLOSE], 0);
}

static void
entry_activated (WsRecordPage *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "record.start", NULL);
}

/* A row of the boxed list: @prefix (a radio) and an optional @suffix. */
static GtkWidget *
form_row (const char *title,
          const char *subtitle,
          GtkWidget  *prefix,
          GtkWidget  *suffix)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  if (prefix != NULL)
    {
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), prefix);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), prefix);
    }
  if (suffix != NULL)
    {
      gtk_widget_set_valign (suffix, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), suffix);
      if (prefix == NULL)
        adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), suffix);
    }
  return row;
}

static GtkWidget *
boxed_list (const char *title,
            GtkWidget  *content)
{
  GtkWidget *list = gtk_list_box_new ();

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  {
    GtkWidget *label = gtk_label_new (title);
    gtk_label_set_xalign (GTK_LABEL (label), 0);
    gtk_widget_add_css_class (label, "heading");
    gtk_box_append (GTK_BOX (content), label);
  }
  gtk_box_append (GTK_BOX (content), list);
  return list;
}

static void
build_target (WsRecordPage *self,
              GtkWidget    *content)
{
  GtkWidget *list = boxed_list (_("What to Record"), content);
  GtkWidget *entry = gtk_entry_new ();
  GtkWidget *pid = gtk_spin_button_new_with_range (1, 4194304, 1);

  self->system_check = GTK_CHECK_BUTTON (gtk_check_button_new ());
  self->command_check = GTK_CHECK_BUTTON (gtk_check_button_new ());
  self->pid_check = GTK_CHECK_BUTTON (gtk_check_button_new ());
  gtk_check_button_set_group (self->command_check, self->system_check);
  gtk_check_button_set_group (self->pid_check, self->system_check);
  gtk_check_button_set_active (self->system_check, TRUE);
  self->command_entry = GTK_EDITABLE (entry);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("e.g. python3 server.py --port 8080"));
  gtk_editable_set_width_chars (self->command_entry, 28);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Command"), -1);
  self->pid_spin = GTK_SPIN_BUTTON (pid);
  gtk_spin_button_set_value (self->pid_spin, getpid ());
  gtk_accessible_update_property (GTK_ACCESSIBLE (pid), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Process id"), -1);

  gtk_list_box_append (GTK_LIST_BOX (list),
                       form_row (_("The Whole System"),
                                 _("Every CPU: also the wakers in other processes and interrupts (best for waits)"),
                                 GTK_WIDGET (self->system_check), NULL));
  gtk_list_box_append (GTK_LIST_BOX (list),
                       form_row (_("A Command"), _("Started now, run until it ends; every CPU is recorded meanwhile, so the wakers of its waits are seen"),
                                 GTK_WIDGET (self->command_check), entry));
  gtk_list_box_append (GTK_LIST_BOX (list),
                       form_row (_("A Running Process"), _("Its threads only: wake-ups from other processes and interrupts are missed"), GTK_WIDGET (self->pid_check), pid));
  for (GtkCheckButton **c = (GtkCheckButton *[]) { self->system_check, self->command_check, self->pid_check, NULL }; *c; c++)
    g_signal_connect_swapped (*c, "toggled", G_CALLBACK (form_changed), self);
  g_signal_connect_swapped (self->command_check, "toggled", G_CALLBACK (command_toggled), self);
  g_signal_connect_swapped (entry, "changed", G_CALLBACK (form_changed), self);
  /* Enter in the command starts the recording, as the button would. */
  g_signal_connect_swapped (entry, "activate", G_CALLBACK (entry_activated), self);
  g_signal_connect_swapped (pid, "value-changed", G_CALLBACK (form_changed), self);
}

static void
build_options (WsRecordPage *self,
               GtkWidget    *content)
{
  GtkWidget *list = boxed_list (_("Options"), content);
  GtkWidget *duration = gtk_spin_button_new_with_range (0, WS_RECORD_MAX_DURATION, 1);
  GtkWidget *dwarf = gtk_switch_new ();

  self->duration_spin = GTK_SPIN_BUTTON (duration);
  gtk_spin_button_set_digits (self->duration_spin, 1);
  gtk_spin_button_set_value (self->duration_spin, 5);
  gtk_accessible_update_property (GTK_ACCESSIBLE (duration), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Duration in seconds"), -1);
  self->dwarf_switch = GTK_SWITCH (dwarf);
  gtk_accessible_update_property (GTK_ACCESSIBLE (dwarf), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Complete user stacks"), -1);
  self->duration_row = ADW_ACTION_ROW (form_row (_("Duration"), NULL, NULL, duration));
  gtk_list_box_append (GTK_LIST_BOX (list), GTK_WIDGET (self->duration_row));
  gtk_list_box_append (GTK_LIST_BOX (list),
                       form_row (_("Complete User Stacks"),
                                 _("DWARF unwinding: every frame of code built without frame pointers; files about ten times larger"),
                                 NULL, dwarf));
  g_signal_connect_swapped (duration, "value-changed", G_CALLBACK (form_changed), self);
  g_signal_connect_swapped (dwarf, "notify::active", G_CALLBACK (form_changed), self);
}

static GtkWidget *
button (const char *label,
        const char *action,
        const char *style)
{
  GtkWidget *b = gtk_button_new_with_mnemonic (label);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (b), action);
  gtk_widget_add_css_class (b, "pill");
  if (style != NULL)
    gtk_widget_add_css_class (b, style);
  return b;
}

static void
build_controls (WsRecordPage *self,
                GtkWidget    *content)
{
  GtkWidget *idle = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *running = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *run_buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  self->controls = GTK_STACK (gtk_stack_new ());
  gtk_stack_set_vhomogeneous (self->controls, FALSE);
  gtk_widget_set_halign (idle, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (idle), button (_("_Back"), "record.close", NULL));
  gtk_box_append (GTK_BOX (idle), button (_("_Start Recording"), "record.start", "suggested-action"));
  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_show_text (self->progress, TRUE);
  gtk_widget_set_halign (run_buttons, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (run_buttons), button (_("_Cancel"), "record.cancel", NULL));
  gtk_box_append (GTK_BOX (run_buttons), button (_("Stop and _Open"), "record.stop", "suggested-action"));
  gtk_box_append (GTK_BOX (running), GTK_WIDGET (self->progress));
  gtk_box_append (GTK_BOX (running), run_buttons);
  gtk_stack_add_named (self->controls, idle, "idle");
  gtk_stack_add_named (self->controls, running, "running");
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->controls));

  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_selectable (self->status, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->status), FALSE);
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->status));
}

/* Whether perf may record here, said before the start. */
static void
update_access (WsRecordPage *self)
{
  g_autofree char *message = NULL;
  WsRecordAccessKind kind = ws_record_access_decide (self->system, &message);

  gtk_label_set_text (self->access_label, message ? message : "");
  gtk_widget_remove_css_class (GTK_WIDGET (self->access_label), "warning");
  gtk_widget_remove_css_class (GTK_WIDGET (self->access_label), "error");
  gtk_widget_add_css_class (GTK_WIDGET (self->access_label),
                            kind == WS_RECORD_ACCESS_PKEXEC ? "warning" : "error");
  gtk_widget_set_visible (GTK_WIDGET (self->access_label), message != NULL);
}

static void
build_command_line (WsRecordPage *self,
                    GtkWidget    *content)
{
  GtkWidget *label = gtk_label_new (_("Command Line"));

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (content), label);
  self->perf_line = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_selectable (self->perf_line, TRUE);
  gtk_label_set_wrap (self->perf_line, TRUE);
  gtk_label_set_wrap_mode (self->perf_line, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (self->perf_line, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->perf_line), "monospace");
  gtk_widget_add_css_class (GTK_WIDGET (self->perf_line), "card");
  gtk_widget_add_css_class (GTK_WIDGET (self->perf_line), "ws-record-line");
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->perf_line));

  self->access_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->access_label, TRUE);
  gtk_label_set_xalign (self->access_label, 0);
  gtk_label_set_selectable (self->access_label, TRUE);
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->access_label));
  update_access (self);
}

static void
ws_record_page_init (WsRecordPage *self)
{
  GtkWidget *clamp = adw_clamp_new ();
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 14);
  GtkWidget *title = gtk_label_new (_("Record a Trace"));
  GtkWidget *intro = gtk_label_new (_("Waitscope runs perf record with the scheduler's switches and wake-ups, "
                                      "their call stacks and CPU samples, then opens the recording."));

  self->system = ws_record_system_probe ();
  self->relay = ws_progress_relay_new_for_owner (self, relay_progress);
  self->worker = ws_worker_new ();
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 720);
  gtk_widget_set_margin_top (content, 24);
  gtk_widget_set_margin_bottom (content, 24);
  gtk_widget_set_margin_start (content, 18);
  gtk_widget_set_margin_end (content, 18);
  gtk_widget_add_css_class (title, "title-1");
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_xalign (GTK_LABEL (intro), 0);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (intro, "dim-label");
  gtk_box_append (GTK_BOX (content), title);
  gtk_box_append (GTK_BOX (content), intro);
  build_target (self, content);
  build_options (self, content);
  build_command_line (self, content);
  build_controls (self, content);
  adw_clamp_set_child (ADW_CLAMP (clamp), content);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), clamp);
  set_running (self, FALSE);
}

static void
ws_record_page_dispose (GObject *object)
{
  WsRecordPage *self = WS_RECORD_PAGE (object);

  /* A recording still running is cancelled, its result dropped. */
  if (self->worker != NULL)
    ws_worker_drop (self->worker);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_record_page_parent_class)->dispose (object);
}

static void
ws_record_page_finalize (GObject *object)
{
  WsRecordPage *self = WS_RECORD_PAGE (object);

  g_clear_object (&self->worker);
  g_clear_object (&self->recorder);
  g_clear_object (&self->relay);
  g_clear_pointer (&self->system, ws_record_system_free);
  g_free (self->status_text);
  g_free (self->output);
  G_OBJECT_CLASS (ws_record_page_parent_class)->finalize (object);
}

static void
ws_record_page_class_init (WsRecordPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_record_page_dispose;
  G_OBJECT_CLASS (klass)->finalize = ws_record_page_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "recordpage");

  /**
   * WsRecordPage::recorded:
   * @file: the perf.data file written
   */
  signals[SIGNAL_RECORDED] = g_signal_new ("recorded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_FILE);
  signals[SIGNAL_CLOSE] = g_signal_new ("close", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_install_action (widget_class, "record.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "record.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "record.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "record.close", NULL, close_action);
}

/* Chooses "a command" with @command_line (as a shell would split it). */
void
ws_record_page_set_command (WsRecordPage *self,
                            const char   *command_line)
{
  gtk_check_button_set_active (self->command_check, TRUE);
  gtk_editable_set_text (self->command_entry, command_line);
}

void
ws_record_page_set_duration (WsRecordPage *self,
                             double        seconds)
{
  gtk_spin_button_set_value (self->duration_spin, seconds);
}

/* The perf record line shown: the one run, with the file it writes. */
const char *
ws_record_page_get_perf_line (WsRecordPage *self)
{
  return gtk_label_get_text (self->perf_line);
}

/* The last outcome: "Recorded FILE.", an error, or "". */
const char *
ws_record_page_get_status (WsRecordPage *self)
{
  return self->status_text ? self->status_text : "";
}

/* What this machine allows, instead of what was probed (tests show the
 * pkexec and denied cases with it). */
void
ws_record_page_set_system (WsRecordPage         *self,
                           const WsRecordSystem *system)
{
  ws_record_system_free (self->system);
  self->system = ws_record_system_copy (system);
  update_access (self);
  form_changed (self);
}

/* The access message shown, "" when perf may record directly. */
const char *
ws_record_page_get_access_message (WsRecordPage *self)
{
  return gtk_label_get_text (self->access_label);
}

gboolean
ws_record_page_get_running (WsRecordPage *self)
{
  return self->recorder != NULL;
}
