/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Pins of the Contrast page: the contrast pattern chosen, or AWG_slow or
 * AWG_fast, with the scenario, component and T_fast / T_slow the result
 * shown was made with (ws-pin-contrast.c); and back: a pin reopens the
 * page with its settings and, once the analysis is done again (at once if
 * the result shown is the pin's), its pattern chosen.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-contrast-pin.h"
#include "ws-document.h"
#include "ws-pin-contrast.h"

/* The documents whose traces hold the instances classified, in order. */
static void
add_files (WsInstanceSet *instances,
           GListModel    *documents,
           GPtrArray     *files)
{
  g_autoptr(GHashTable) traces = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < ws_instance_set_get_n (instances); i++)
    g_hash_table_add (traces, ws_instance_set_get (instances, i)->trace);
  for (guint i = 0; i < g_list_model_get_n_items (documents); i++)
    {
      g_autoptr(WsDocument) document = g_list_model_get_item (documents, i);

      if (ws_document_get_trace (document) != NULL && g_hash_table_contains (traces, ws_document_get_trace (document)))
        g_ptr_array_add (files, g_object_ref (ws_document_get_file (document)));
    }
}

/**
 * ws_contrast_pin_capture:
 * @kind: %WS_PIN_KIND_CONTRAST (the pattern chosen) or %WS_PIN_KIND_AWG
 * @slow: for an AWG pin, AWG_slow rather than AWG_fast
 * @documents: (element-type WsDocument): the window's
 * @files: (element-type GFile): filled with the traces analysed, in order
 *
 * Returns: (transfer full) (nullable): the pin, or %NULL without a result
 *   (or, for a pattern, without one chosen)
 */
WsPin *
ws_contrast_pin_capture (WsContrastPage *page,
                         const char     *kind,
                         gboolean        slow,
                         GListModel     *documents,
                         GPtrArray      *files)
{
  WsContrastResult *result = ws_contrast_page_get_result (page);
  guint rank = ws_contrast_page_get_selected_pattern (page);
  g_autofree char *title = NULL;
  WsContrastSettings settings;
  WsInstanceSet *instances;
  const char *scenario;
  WsPin *pin;

  if (!ws_contrast_page_get_result_settings (page, &instances, &scenario, &settings) ||
      (g_str_equal (kind, WS_PIN_KIND_CONTRAST) && rank == G_MAXUINT))
    return NULL;
  pin = ws_pin_new (kind);
  ws_pin_set_contrast (pin, scenario, &settings, result);
  /* The impact table beside it: reopened as it was. */
  if (ws_contrast_page_get_result_impact_components (page) != NULL)
    ws_pin_set_setting_string (pin, "impact_components", ws_contrast_page_get_result_impact_components (page));
  if (g_str_equal (kind, WS_PIN_KIND_CONTRAST))
    {
      ws_pin_set_contrast_pattern (pin, result, rank);
      /* Translators: a pinned contrast pattern's title: its rank, the scenario */
      title = g_strdup_printf (_("Contrast pattern #%u of %s"), rank + 1, scenario);
    }
  else
    {
      ws_pin_set_setting_string (pin, "class", slow ? "slow" : "fast");
      title = g_strdup_printf (slow ? _("AWG slow of %s") : _("AWG fast of %s"), scenario);
    }
  ws_pin_set_title (pin, title);
  add_files (instances, documents, files);
  return pin;
}

/* The result shown was made with @pin's settings. */
static gboolean
same_run (WsContrastPage *page,
          WsPin          *pin)
{
  WsContrastResult *result = ws_contrast_page_get_result (page);
  WsContrastSettings settings;
  WsInstanceSet *instances;
  const char *scenario;

  return !ws_contrast_page_get_busy (page) &&
         ws_contrast_page_get_result_settings (page, &instances, &scenario, &settings) &&
         g_strcmp0 (scenario, ws_pin_get_setting_string (pin, "scenario", NULL)) == 0 &&
         g_strcmp0 (settings.component, ws_pin_get_setting_string (pin, "component", NULL)) == 0 &&
         settings.widen == ws_pin_get_setting_bool (pin, "widen", FALSE) &&
         g_strcmp0 (ws_contrast_rank_to_string (settings.rank), ws_pin_get_setting_string (pin, "rank", "average")) == 0 &&
         ws_contrast_result_get_t_fast (result) == ws_pin_get_setting_int (pin, "t_fast_ns", -1) &&
         ws_contrast_result_get_t_slow (result) == ws_pin_get_setting_int (pin, "t_slow_ns", -1) &&
         g_strcmp0 (ws_contrast_page_get_result_impact_components (page),
                    ws_pin_get_setting_string (pin, "impact_components",
                                               ws_contrast_page_get_result_impact_components (page))) == 0;
}

static void
select_pinned (WsContrastPage *page,
               WsPin          *pin)
{
  WsContrastResult *result = ws_contrast_page_get_result (page);
  guint rank;

  if (result == NULL || !g_str_equal (ws_pin_get_kind (pin), WS_PIN_KIND_CONTRAST))
    return;
  rank = ws_pin_find_contrast_pattern (pin, result);
  if (rank != G_MAXUINT)
    ws_contrast_page_select_pattern (page, rank);
}

static void
finished_cb (WsContrastPage *page,
             WsPin          *pin)
{
  /* Disconnecting drops the handler's reference on @pin: use it first. */
  select_pinned (page, pin);
  g_signal_handlers_disconnect_by_func (page, finished_cb, pin);
}

static void
unref_pin (gpointer  data,
           GClosure *closure)
{
  g_object_unref (data);
}

/**
 * ws_contrast_pin_apply:
 *
 * Shows @pin on the page: its settings in the form, its pattern chosen,
 * analysing again first when the result shown is another one.
 */
void
ws_contrast_pin_apply (WsContrastPage *page,
                       WsPin          *pin)
{
  if (same_run (page, pin))
    {
      select_pinned (page, pin);
      return;
    }
  g_signal_handlers_disconnect_matched (page, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, finished_cb, NULL);
  ws_contrast_page_set_scenario (page, ws_pin_get_setting_string (pin, "scenario", ""));
  ws_contrast_page_set_component (page, ws_pin_get_setting_string (pin, "component", ""));
  ws_contrast_page_set_widen (page, ws_pin_get_setting_bool (pin, "widen", FALSE));
  {
    WsContrastRank rank = WS_CONTRAST_RANK_TOTAL;

    /* A pin from before the choice was ranked by C/N. */
    ws_contrast_rank_from_string (ws_pin_get_setting_string (pin, "rank", "average"), &rank);
    ws_contrast_page_set_rank (page, rank);
  }
  /* A pin from before impact components were kept leaves them as typed. */
  if (ws_pin_get_setting_string (pin, "impact_components", NULL) != NULL)
    ws_contrast_page_set_impact_components (page, ws_pin_get_setting_string (pin, "impact_components", ""));
  ws_contrast_page_set_thresholds (page, ws_pin_get_setting_int (pin, "t_fast_ns", 0),
                                   ws_pin_get_setting_int (pin, "t_slow_ns", 0));
  g_signal_connect_data (page, "finished", G_CALLBACK (finished_cb), g_object_ref (pin), unref_pin, 0);
  ws_contrast_page_run (page);
}

static const char * const *
pin_kinds (WsPage *page)
{
  static const char * const kinds[] = { WS_PIN_KIND_CONTRAST, WS_PIN_KIND_AWG, NULL };

  return kinds;
}

/* @what: "pattern", "slow" or "fast"; NULL pins the pattern chosen, else
 * AWG_slow. */
static WsPin *
capture_pin (WsPage     *page,
             const char *what,
             GPtrArray  *files,
             char      **message)
{
  WsContrastPage *self = WS_CONTRAST_PAGE (page);
  WsSession *session = ws_page_get_session (page);
  gboolean pattern;
  WsPin *pin;

  if (what == NULL)
    what = ws_contrast_page_get_selected_pattern (self) != G_MAXUINT ? "pattern" : "slow";
  pattern = g_str_equal (what, "pattern");
  pin = session == NULL ? NULL
        : ws_contrast_pin_capture (self, pattern ? WS_PIN_KIND_CONTRAST : WS_PIN_KIND_AWG, !g_str_equal (what, "fast"),
                                   ws_session_get_documents (session), files);
  if (pin == NULL || files->len == 0)
    {
      g_clear_object (&pin);
      *message = g_strdup (pattern ? _("Analyse, then choose a contrast pattern to pin it")
                                   : _("Analyse first, then pin a graph"));
    }
  return pin;
}

static void
apply_pin (WsPage  *page,
           WsPin   *pin,
           GFile  **traces,
           guint    n_traces)
{
  ws_contrast_pin_apply (WS_CONTRAST_PAGE (page), pin);
}

void
ws_contrast_pin_class_init (WsPageClass *page_class)
{
  page_class->pin_kinds = pin_kinds;
  page_class->capture_pin = capture_pin;
  page_class->apply_pin = apply_pin;
}
