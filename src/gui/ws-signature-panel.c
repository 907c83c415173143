/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The signatures and their bottleneck coverage (StackMine §VII, Fig. 4),
 * split from the Mining page: the page hands it each run's stack database
 * and the frames of each signature the analyst marks; the panel does the
 * rest, the curves in a WsWorker.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "ws-coverage-figure.h"
#include "ws-export.h"
#include "ws-pattern-events.h"
#include "ws-pin-mining.h"
#include "ws-signature-panel.h"
#include "ws-worker.h"

/* The exported coverage chart, in points (pixels for PNG). */
#define COVERAGE_EXPORT_WIDTH  960
#define COVERAGE_EXPORT_HEIGHT 540

struct _WsSignaturePanel
{
  GtkWidget        parent_instance;

  /* Template widgets */
  WsCoverageView  *coverage_view;
  GtkWidget       *coverage_busy;    /* "Computing…" over the chart */
  GtkGrid         *coverage_table;
  GtkListBox      *signature_list;

  /* Owned references */
  WsStackDb       *db;               /* the run's; NULL before one */
  GPtrArray       *signatures;       /* Signature */
  WsCoverage      *coverage;
  GArray          *signature_index;  /* guint per signature: index in coverage, or G_MAXUINT */
  WsCoverageCurves *curves;          /* of coverage, once computed; NULL meanwhile */
  WsWorker        *worker;
};

G_DEFINE_FINAL_TYPE (WsSignaturePanel, ws_signature_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* A signature outlives a run: it is kept by frame names and matched again
 * in each new run's stack database (λ or the scope may change, the
 * analyst's signatures should not). */
typedef struct {
  char  *name;
  GStrv  keys;     /* frame_key() of each function, caller first */
} Signature;

static void
signature_free (gpointer data)
{
  Signature *sig = data;

  g_free (sig->name);
  g_strfreev (sig->keys);
  g_free (sig);
}


static char *
percent (double fraction)
{
  /* Translators: a coverage in percent */
  return g_strdup_printf (_("%.1f %%"), fraction * 100);
}

static char *
streams_text (double streams)
{
  if (streams < 0)
    /* Translators: a coverage no order of streams reaches */
    return g_strdup (_("never"));
  if (streams == floor (streams))
    return g_strdup_printf ("%.0f", streams);
  return g_strdup_printf ("%.1f", streams);
}

static void
grid_cell (GtkGrid    *grid,
           const char *text,
           int         column,
           int         row,
           gboolean    heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0 : 1);
  if (heading)
    gtk_widget_add_css_class (label, "caption-heading");
  else if (column > 0)
    gtk_widget_add_css_class (label, "numeric");
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

/* The coverage is not changed once its signatures are added (the page
 * builds a new one for each change), so the worker reads it unlocked. */
static void
curves_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  WsCoverageCurves *curves = ws_coverage_curves_compute (task_data, cancellable);

  if (curves == NULL)
    g_task_return_error_if_cancelled (task);
  else
    g_task_return_pointer (task, curves, (GDestroyNotify) ws_coverage_curves_free);
}

static void update_coverage_plot (WsSignaturePanel *self);
static void update_coverage_table (WsSignaturePanel *self);

static void
curves_done (gpointer  owner,
             gpointer  result,
             GError   *error,
             gpointer  job)
{
  WsSignaturePanel *self = WS_SIGNATURE_PANEL (owner);

  /* Cancelled: a newer computation (or none) supersedes it. */
  if (result == NULL)
    return;
  g_clear_pointer (&self->curves, ws_coverage_curves_free);
  self->curves = result;
  gtk_widget_set_visible (self->coverage_busy, FALSE);
  update_coverage_plot (self);
  update_coverage_table (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* Drops the curves shown and, if there are signatures, computes the new
 * ones in a thread, dropping any computation still running. */
static void
start_curves (WsSignaturePanel *self)
{
  gboolean was_busy = gtk_widget_get_visible (self->coverage_busy);
  gboolean busy = self->coverage != NULL && ws_coverage_get_n_signatures (self->coverage) > 0;

  ws_worker_drop (self->worker);
  g_clear_pointer (&self->curves, ws_coverage_curves_free);
  gtk_widget_set_visible (self->coverage_busy, busy);
  update_coverage_plot (self);
  update_coverage_table (self);
  if (busy)
    ws_worker_run (self->worker, self, g_object_ref (self->coverage), g_object_unref, curves_thread, curves_done);
  if (busy != was_busy)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* The table beside the chart: per technique, the coverage after one
 * stream and the streams needed for half and for all of the signatures'
 * coverage (Fig. 4's y values at those x). */
static void
update_coverage_table (WsSignaturePanel *self)
{
  GtkWidget *child;
  double total;
  g_autofree char *half_head = NULL;
  g_autofree char *full_head = NULL;
  WsCoverageCurves *curves = self->curves;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->coverage_table))) != NULL)
    gtk_grid_remove (self->coverage_table, child);
  if (curves == NULL)
    return;

  total = curves->total;
  {
    g_autofree char *h = percent (total / 2);
    g_autofree char *f = percent (total);
    /* Translators: table heading: streams needed to reach a coverage */
    half_head = g_strdup_printf (_("To %s"), h);
    full_head = g_strdup_printf (_("To %s"), f);
  }
  grid_cell (self->coverage_table, _("Technique"), 0, 0, TRUE);
  grid_cell (self->coverage_table, _("After 1"), 1, 0, TRUE);
  grid_cell (self->coverage_table, half_head, 2, 0, TRUE);
  grid_cell (self->coverage_table, full_head, 3, 0, TRUE);
  for (guint r = 0; r < WS_N_RANKINGS; r++)
    {
      GArray *curve = curves->curve[r];
      g_autofree char *first = percent (curve->len > 1 ? g_array_index (curve, double, 1) : 0);
      g_autofree char *half = streams_text (curves->to_half[r]);
      g_autofree char *full = streams_text (curves->to_full[r]);

      grid_cell (self->coverage_table, ws_coverage_ranking_label (r), 0, r + 1, FALSE);
      grid_cell (self->coverage_table, first, 1, r + 1, FALSE);
      grid_cell (self->coverage_table, half, 2, r + 1, FALSE);
      grid_cell (self->coverage_table, full, 3, r + 1, FALSE);
    }
}

static void
update_coverage_plot (WsSignaturePanel *self)
{
  WsCoveragePlot *plot = ws_coverage_view_get_plot (self->coverage_view);
  WsCoverageCurves *curves = self->curves;

  if (curves != NULL)
    ws_coverage_curves_plot (curves, plot);
  else
    ws_coverage_plot_clear (plot);
  ws_coverage_view_changed (self->coverage_view);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void remove_signature_cb (GtkButton *button, WsSignaturePanel *self);

static void
update_signature_list (WsSignaturePanel *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->signature_list))) != NULL)
    gtk_list_box_remove (self->signature_list, child);

  for (guint i = 0; i < self->signatures->len; i++)
    {
      Signature *sig = g_ptr_array_index (self->signatures, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
      g_autofree char *subtitle = NULL;
      guint index = self->signature_index ? g_array_index (self->signature_index, guint, i) : G_MAXUINT;

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), sig->name);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      if (self->coverage != NULL && index != G_MAXUINT)
        {
          g_autofree char *pct = percent (ws_coverage_get_signature_coverage (self->coverage, index));
          guint n = ws_coverage_get_signature_n_streams (self->coverage, index);
          /* Translators: a signature's coverage and in how many streams it shows */
          subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of the delay · %u stream",
                                                   "%s of the delay · %u streams", n), pct, n);
        }
      else
        subtitle = g_strdup (_("Not in this run's stacks"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      {
        g_autofree char *frames = g_strjoinv (" → ", sig->keys);
        g_strdelimit (frames, "\x1f", ' ');
        gtk_widget_set_tooltip_text (row, frames);
      }
      gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (remove, "flat");
      gtk_widget_set_tooltip_text (remove, _("Remove the Signature"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Remove the signature"), -1);
      g_object_set_data (G_OBJECT (remove), "signature", sig);
      g_signal_connect (remove, "clicked", G_CALLBACK (remove_signature_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);
      gtk_list_box_append (self->signature_list, row);
    }

  if (self->signatures->len == 0)
    {
      GtkWidget *row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No signatures yet"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                   _("Pick a cluster and press Mark Signature: its common part, or the frames marked in the alignment"));
      gtk_widget_add_css_class (row, "dim-label");
      gtk_list_box_append (self->signature_list, row);
    }
}

/* Matches every signature against the current run's database. */
static void
rebuild_coverage (WsSignaturePanel *self)
{
  g_autoptr(GHashTable) ids = NULL;
  WsStackTable *table;

  g_clear_object (&self->coverage);
  g_clear_pointer (&self->signature_index, g_array_unref);
  if (self->db != NULL)
    {
      table = ws_stack_db_get_stack_table (self->db);
      ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint f = 0; f < ws_stack_table_get_n_frames (table); f++)
        g_hash_table_insert (ids, ws_pattern_frame_key (ws_stack_table_get_frame (table, f)), GUINT_TO_POINTER (f + 1));

      self->coverage = ws_coverage_new (self->db);
      self->signature_index = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < self->signatures->len; i++)
        {
          Signature *sig = g_ptr_array_index (self->signatures, i);
          guint n = g_strv_length (sig->keys), index = G_MAXUINT;
          g_autofree WsFrameId *frames = g_new (WsFrameId, MAX (n, 1));
          gboolean complete = n > 0;

          for (guint k = 0; k < n && complete; k++)
            {
              guint id = GPOINTER_TO_UINT (g_hash_table_lookup (ids, sig->keys[k]));
              complete = id != 0;
              frames[k] = id - 1;
            }
          if (complete)
            index = ws_coverage_add_signature (self->coverage, sig->name, frames, n);
          g_array_append_val (self->signature_index, index);
        }
    }
  update_signature_list (self);
  start_curves (self);
}

static void
remove_signature_cb (GtkButton    *button,
                     WsSignaturePanel *self)
{
  Signature *sig = g_object_get_data (G_OBJECT (button), "signature");

  g_ptr_array_remove (self->signatures, sig);
  rebuild_coverage (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

/**
 * ws_signature_panel_set_db:
 * @db: (nullable): a new run's stack database
 *
 * Matches every signature again in @db (by frame names) and recomputes
 * the coverage.
 */
void
ws_signature_panel_set_db (WsSignaturePanel *self,
                           WsStackDb        *db)
{
  g_return_if_fail (WS_IS_SIGNATURE_PANEL (self));
  g_set_object (&self->db, db);
  rebuild_coverage (self);
}

/**
 * ws_signature_panel_add:
 * @label: the signature's telling frames, for its name "S1 · …"
 * @frames: (array length=n_frames): its frames in the database's table,
 *   caller first
 *
 * Returns: the signature's index in ws_signature_panel_get_coverage(), or
 *   %G_MAXUINT if it is not in this run's stacks
 */
guint
ws_signature_panel_add (WsSignaturePanel *self,
                        const char       *label,
                        const WsFrameId  *frames,
                        guint             n_frames)
{
  WsStackTable *table;
  g_autoptr(GStrvBuilder) keys = g_strv_builder_new ();
  Signature *sig;

  g_return_val_if_fail (WS_IS_SIGNATURE_PANEL (self), G_MAXUINT);
  g_return_val_if_fail (self->db != NULL, G_MAXUINT);

  table = ws_stack_db_get_stack_table (self->db);
  for (guint k = 0; k < n_frames; k++)
    {
      g_autofree char *key = ws_pattern_frame_key (ws_stack_table_get_frame (table, frames[k]));
      g_strv_builder_add (keys, key);
    }
  sig = g_new0 (Signature, 1);
  /* Translators: a signature's name: its number and its telling frames */
  sig->name = g_strdup_printf (_("S%u · %s"), self->signatures->len + 1, label);
  sig->keys = g_strv_builder_end (keys);
  g_ptr_array_add (self->signatures, sig);
  rebuild_coverage (self);
  return g_array_index (self->signature_index, guint, self->signatures->len - 1);
}

/**
 * ws_signature_panel_pin:
 *
 * Adds the signatures to @pin (a coverage pin), by their frames' names.
 */
void
ws_signature_panel_pin (WsSignaturePanel *self,
                        WsPin            *pin)
{
  g_return_if_fail (WS_IS_SIGNATURE_PANEL (self));

  for (guint i = 0; i < self->signatures->len; i++)
    {
      Signature *sig = g_ptr_array_index (self->signatures, i);

      ws_pin_add_signature_keys (pin, sig->name, (const char * const *) sig->keys);
    }
}

/**
 * ws_signature_panel_set_pinned:
 *
 * Replaces the signatures with @pin's (reopening a coverage pin) and
 * matches them in the run shown.
 */
void
ws_signature_panel_set_pinned (WsSignaturePanel *self,
                               WsPin            *pin)
{
  g_return_if_fail (WS_IS_SIGNATURE_PANEL (self));

  g_ptr_array_set_size (self->signatures, 0);
  for (guint i = 0; i < ws_pin_get_n_signatures (pin); i++)
    {
      const char *name = NULL;
      GStrv keys = ws_pin_get_signature_keys (pin, i, &name);
      Signature *sig;

      if (keys == NULL)
        continue;
      sig = g_new0 (Signature, 1);
      sig->name = g_strdup (name);
      sig->keys = keys;
      g_ptr_array_add (self->signatures, sig);
    }
  rebuild_coverage (self);
}

guint
ws_signature_panel_get_n_signatures (WsSignaturePanel *self)
{
  g_return_val_if_fail (WS_IS_SIGNATURE_PANEL (self), 0);
  return self->signatures->len;
}

/* Returns: (transfer none) (nullable): the coverage of this run */
WsCoverage *
ws_signature_panel_get_coverage (WsSignaturePanel *self)
{
  g_return_val_if_fail (WS_IS_SIGNATURE_PANEL (self), NULL);
  return self->coverage;
}

/* Whether the coverage curves are being computed. */
gboolean
ws_signature_panel_get_busy (WsSignaturePanel *self)
{
  g_return_val_if_fail (WS_IS_SIGNATURE_PANEL (self), FALSE);
  return self->coverage_busy != NULL && gtk_widget_get_visible (self->coverage_busy);
}

/* Returns: (transfer none): the chart */
WsCoverageView *
ws_signature_panel_get_view (WsSignaturePanel *self)
{
  g_return_val_if_fail (WS_IS_SIGNATURE_PANEL (self), NULL);
  return self->coverage_view;
}

/**
 * ws_signature_panel_export:
 * @path: ends in .png, .svg or .pdf
 *
 * Writes the bottleneck-coverage chart (StackMine Fig. 4) of the marked
 * signatures as a 960 × 540 figure.
 *
 * Returns: %TRUE if written
 */
gboolean
ws_signature_panel_export (WsSignaturePanel  *self,
                           const char        *path,
                           GError           **error)
{
  WsCoveragePlot *plot;
  WsExportFormat format;

  g_return_val_if_fail (WS_IS_SIGNATURE_PANEL (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  plot = ws_coverage_view_get_plot (self->coverage_view);
  if (ws_signature_panel_get_busy (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                           _("The coverage is still being computed: export it when the chart shows"));
      return FALSE;
    }
  if (ws_coverage_plot_get_n_series (plot) == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("There is no coverage to export: mark a signature first"));
      return FALSE;
    }
  if (!ws_export_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("“%s” does not end in .png, .svg or .pdf"), path);
      return FALSE;
    }
  return ws_coverage_plot_export (plot, path, format, COVERAGE_EXPORT_WIDTH, COVERAGE_EXPORT_HEIGHT, error);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
ws_signature_panel_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, ws_signature_panel_get_busy (WS_SIGNATURE_PANEL (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_signature_panel_dispose (GObject *object)
{
  WsSignaturePanel *self = WS_SIGNATURE_PANEL (object);
  GtkWidget *child;

  if (self->worker != NULL)
    ws_worker_drop (self->worker);
  g_clear_object (&self->worker);
  g_clear_pointer (&self->curves, ws_coverage_curves_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_SIGNATURE_PANEL);
  /* The template's root has no id, so dispose_template() leaves it. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->db);
  g_clear_object (&self->coverage);
  g_clear_pointer (&self->signature_index, g_array_unref);
  g_clear_pointer (&self->signatures, g_ptr_array_unref);

  G_OBJECT_CLASS (ws_signature_panel_parent_class)->dispose (object);
}

static void
ws_signature_panel_class_init (WsSignaturePanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = ws_signature_panel_get_property;
  object_class->dispose = ws_signature_panel_dispose;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * WsSignaturePanel::changed:
   *
   * The signatures or the chart changed.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (WS_TYPE_COVERAGE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-signature-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, WsSignaturePanel, coverage_view);
  gtk_widget_class_bind_template_child (widget_class, WsSignaturePanel, coverage_busy);
  gtk_widget_class_bind_template_child (widget_class, WsSignaturePanel, coverage_table);
  gtk_widget_class_bind_template_child (widget_class, WsSignaturePanel, signature_list);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "signaturepanel");
}

static void
ws_signature_panel_init (WsSignaturePanel *self)
{
  self->signatures = g_ptr_array_new_with_free_func (signature_free);
  self->worker = ws_worker_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  update_signature_list (self);
}
