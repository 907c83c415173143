/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Pins of the Mining page: the cluster whose alignment is shown, or the
 * coverage chart of the signatures marked, with the settings of the run
 * (ws-pin-mining.c), and back: a pin reopens the page with its cluster
 * selected or its signatures charted, mining again with the pin's
 * settings (the form set as pinned) when the run shown is another one.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-mining-pin.h"
#include "ws-pin-mining.h"

/* A new pin (its own id) with the settings of the run shown, over its
 * traces. */
static WsPin *
new_run_pin (WsMiningShown *shown,
             const char    *kind,
             GPtrArray     *files)
{
  g_autoptr(GList) names = NULL;
  JsonObject *settings;
  WsPin *pin;
  WsTime t0, t1;

  pin = ws_pin_new (kind);
  settings = ws_pin_get_settings (shown->pin);
  names = json_object_get_members (settings);
  for (GList *l = names; l != NULL; l = l->next)
    json_object_set_member (ws_pin_get_settings (pin), l->data, json_node_copy (json_object_get_member (settings, l->data)));
  if (ws_pin_get_window (shown->pin, &t0, &t1))
    {
      ws_pin_set_tid (pin, ws_pin_get_tid (shown->pin));
      ws_pin_set_window (pin, t0, t1);
    }
  for (guint i = 0; i < shown->documents->len; i++)
    g_ptr_array_add (files, g_object_ref (ws_document_get_file (g_ptr_array_index (shown->documents, i))));
  return pin;
}

/* The coverage chart of the signatures marked, over the run shown. */
static WsPin *
capture_coverage (WsMiningPage *page,
                  GPtrArray    *files)
{
  WsMiningShown *shown = ws_mining_page_get_shown (page);
  WsSignaturePanel *panel = ws_mining_page_get_signature_panel (page);
  guint n = ws_signature_panel_get_n_signatures (panel);
  g_autofree char *title = NULL;
  WsPin *pin;

  if (shown == NULL || shown->pin == NULL || n == 0)
    return NULL;
  pin = new_run_pin (shown, WS_PIN_KIND_COVERAGE, files);
  ws_signature_panel_pin (panel, pin);
  title = g_strdup_printf (ngettext ("Bottleneck coverage of %u signature",
                                     "Bottleneck coverage of %u signatures", n), n);
  ws_pin_set_title (pin, title);
  return pin;
}

/**
 * ws_mining_pin_capture:
 * @files: (element-type GFile): filled with the traces mined, in order
 *
 * Returns: (transfer full) (nullable): a coverage pin when the Coverage
 *   tab is shown (and has signatures), else an alignment pin of the
 *   cluster shown; %NULL when there is nothing to pin
 */
WsPin *
ws_mining_pin_capture (WsMiningPage *page,
                       GPtrArray    *files)
{
  WsMiningShown *shown = ws_mining_page_get_shown (page);
  guint cluster = ws_mining_page_get_shown_cluster (page);
  WsPin *pin;

  /* A fleet read as a digest has no trace a session could open again:
   * its pin could not reopen what was pinned. */
  if (shown != NULL && shown->documents->len != shown->run->n_traces)
    return NULL;
  if (g_strcmp0 (ws_mining_page_get_detail (page), "coverage") == 0)
    return capture_coverage (page, files);
  if (shown == NULL || shown->pin == NULL || cluster == G_MAXUINT)
    return NULL;
  pin = new_run_pin (shown, WS_PIN_KIND_ALIGNMENT, files);
  ws_pin_set_cluster (pin, shown->run, cluster);
  {
    g_autofree char *title = g_strdup_printf (_("Mining: cluster %u and its alignment"), cluster + 1);
    ws_pin_set_title (pin, title);
  }
  return pin;
}

/* The run shown was made with @pin's settings (its cluster aside). */
static gboolean
same_run (WsMiningShown *shown,
          WsPin         *pin)
{
  JsonObject *want = ws_pin_get_settings (pin), *have;
  g_autoptr(GList) names = NULL;

  if (shown == NULL || shown->pin == NULL)
    return FALSE;
  have = ws_pin_get_settings (shown->pin);
  names = json_object_get_members (want);
  for (GList *l = names; l != NULL; l = l->next)
    if (!g_str_has_prefix (l->data, "cluster") && !g_str_equal (l->data, "signatures") &&
        (!json_object_has_member (have, l->data) ||
         !json_node_equal (json_object_get_member (have, l->data), json_object_get_member (want, l->data))))
      return FALSE;
  return TRUE;
}

/* The pin's cluster selected, or its signatures charted. */
static gboolean
select_pinned (WsMiningPage *page,
               WsPin        *pin)
{
  WsMiningShown *shown = ws_mining_page_get_shown (page);
  guint cluster;

  if (g_str_equal (ws_pin_get_kind (pin), WS_PIN_KIND_COVERAGE))
    {
      if (shown == NULL)
        return FALSE;
      ws_signature_panel_set_pinned (ws_mining_page_get_signature_panel (page), pin);
      return TRUE;
    }
  cluster = shown ? ws_pin_find_cluster (pin, shown->run) : G_MAXUINT;
  return cluster != G_MAXUINT && ws_mining_page_select_cluster_index (page, cluster);
}

typedef struct {
  WsPin  *pin;
  gulong  handler;
} Pending;

static void
pending_free (gpointer data,
              GClosure *closure)
{
  Pending *p = data;

  g_object_unref (p->pin);
  g_free (p);
}

static void
finished_cb (WsMiningPage *page,
             Pending      *p)
{
  select_pinned (page, p->pin);
  g_signal_handler_disconnect (page, p->handler);
}

/* The classes the pin's run was made with, given to its traces in the
 * session's classes (which the page mines by, and the chips show): the
 * pin keeps its own, so classes changed since do not change its rows. */
static void
set_classes (WsMiningPage *page,
             WsPin        *pin,
             GFile       **traces,
             guint         n_traces)
{
  WsSession *session = ws_page_get_session (WS_PAGE (page));
  g_autoptr(GArray) classes = ws_pin_dup_run_classes (pin, NULL);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  if (session == NULL || classes == NULL || classes->len != n_traces)
    return;
  for (guint i = 0; i < n_traces; i++)
    g_ptr_array_add (paths, traces[i] != NULL ? g_file_get_path (traces[i]) : NULL);
  ws_run_classes_set_many (ws_session_get_run_classes (session), (const char * const *) paths->pdata,
                           (const WsRunClass *) (gconstpointer) classes->data, n_traces);
}

/* The form set as the pin says: the area of interest (scope, stack kind,
 * threads, critical path, filters), λ, the threshold and the linkage, and
 * the page's cluster ranking (by a cost, or by what slow traces have more
 * of).  The pin stores the core's scope; the form offers the same ones
 * under its own names.  Pins from before rank and linkage were restored
 * have them too (ws_pin_set_mining() always wrote them); a pin without
 * them gets the defaults. */
static void
set_form (WsMiningPage *page,
          WsPin        *pin)
{
  WsMiningForm *form = ws_mining_page_get_form (page);
  WsMiningSettings defaults;
  gint64 scope;

  ws_mining_settings_init (&defaults);
  ws_mining_page_set_rank (page, CLAMP (ws_pin_get_setting_int (pin, "rank", defaults.rank),
                                        WS_CLUSTER_RANK_TOTAL, WS_CLUSTER_RANK_DISCRIMINATIVE));
  ws_mining_form_set_linkage (form, CLAMP (ws_pin_get_setting_int (pin, "linkage", defaults.linkage),
                                           WS_LINKAGE_AVERAGE, WS_LINKAGE_SINGLE));
  scope = ws_pin_get_setting_int (pin, "scope", defaults.scope);
  ws_mining_form_set_scope (form, ws_mining_scope_from_run_scope (CLAMP (scope, WS_MINING_RUN_SCOPE_ALL,
                                                                         WS_MINING_RUN_SCOPE_DELAYING)));
  ws_mining_form_set_running (form, ws_pin_get_setting_bool (pin, "running", FALSE));
  ws_mining_form_set_threads (form, ws_pin_get_setting_string (pin, "threads", ""));
  ws_mining_form_set_critical_path (form, ws_pin_get_setting_bool (pin, "critical_path", FALSE));
  ws_mining_form_set_filters (form, ws_pin_get_setting_string (pin, "must", ""),
                              ws_pin_get_setting_string (pin, "must_not", ""));
  ws_mining_form_set_lambda (form, ws_pin_get_setting_int (pin, "lambda", 0));
  ws_mining_form_set_threshold (form, ws_pin_get_setting_int (pin, "threshold_ppm", (gint64) (defaults.threshold * 1e6 + 0.5)) / 1e6);
}

/**
 * ws_mining_pin_apply:
 * @traces: (array length=n_traces): the pin's traces, as opened
 *
 * Selects @pin's cluster (or charts its signatures): at once when the
 * run shown is the pin's, else after mining again with the pin's
 * settings (and the classes it was made with).
 */
void
ws_mining_pin_apply (WsMiningPage *page,
                     WsPin        *pin,
                     GFile       **traces,
                     guint         n_traces)
{
  Pending *p;
  gboolean busy = FALSE;

  /* A run in progress will replace the one shown: wait for it. */
  g_object_get (page, "busy", &busy, NULL);
  if (!busy && same_run (ws_mining_page_get_shown (page), pin) && select_pinned (page, pin))
    return;
  set_form (page, pin);
  /* May start a run (the page mines again when classes change): the
   * one below supersedes it. */
  set_classes (page, pin, traces, n_traces);
  p = g_new0 (Pending, 1);
  p->pin = g_object_ref (pin);
  p->handler = g_signal_connect_data (page, "finished", G_CALLBACK (finished_cb), p, pending_free, 0);
  ws_mining_page_run (page);
}

static const char * const *
pin_kinds (WsPage *page)
{
  static const char * const kinds[] = { WS_PIN_KIND_ALIGNMENT, WS_PIN_KIND_COVERAGE, NULL };

  return kinds;
}

static WsPin *
capture_pin (WsPage     *page,
             const char *what,
             GPtrArray  *files,
             char      **message)
{
  WsMiningPage *self = WS_MINING_PAGE (page);
  WsMiningShown *shown = ws_mining_page_get_shown (self);
  WsPin *pin = ws_mining_pin_capture (self, files);

  if (pin == NULL && shown != NULL && shown->documents->len != shown->run->n_traces)
    *message = g_strdup (_("A fleet read as a digest cannot be pinned: a session keeps traces it can open again. "
                           "Open the traces themselves to pin what they show."));
  else if (pin == NULL)
    *message = g_strdup (g_strcmp0 (ws_mining_page_get_detail (self), "coverage") == 0
                         ? _("Mark a signature, then pin its coverage chart")
                         : _("Mine, then select a cluster to pin it"));
  return pin;
}

static void
apply_pin (WsPage  *page,
           WsPin   *pin,
           GFile  **traces,
           guint    n_traces)
{
  WsMiningPage *self = WS_MINING_PAGE (page);

  ws_mining_page_show_detail (self, g_str_equal (ws_pin_get_kind (pin), WS_PIN_KIND_COVERAGE) ? "coverage" : "alignment");
  ws_mining_pin_apply (self, pin, traces, n_traces);
}

void
ws_mining_pin_class_init (WsPageClass *page_class)
{
  page_class->pin_kinds = pin_kinds;
  page_class->capture_pin = capture_pin;
  page_class->apply_pin = apply_pin;
}
