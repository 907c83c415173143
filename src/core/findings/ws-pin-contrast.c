/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a pin of the Contrast page records: the scenario, the component
 * expression and the T_fast / T_slow split the run was made with (so the
 * report and the page rerun ws_contrast_run() on the pinned traces), and
 * for a contrast pattern which one.  A pattern is named by its rank and by
 * its Signature Set Tuple: the rank alone could move if the traces were
 * analysed with more instances, the tuple cannot.  An aggregated wait
 * graph pin says which class it shows (slow or fast).
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-pin-contrast.h"

/**
 * ws_pin_set_contrast:
 * @scenario: the scenario whose instances @result classified
 * @settings: what @result was run with (its component and widening)
 * @result: the run; its thresholds are kept as used (proposed ones too),
 *   so that a rerun makes the same classes
 */
void
ws_pin_set_contrast (WsPin                    *pin,
                     const char               *scenario,
                     const WsContrastSettings *settings,
                     WsContrastResult         *result)
{
  g_return_if_fail (WS_IS_PIN (pin));
  g_return_if_fail (scenario != NULL && settings->component != NULL);

  ws_pin_set_setting_string (pin, "scenario", scenario);
  ws_pin_set_setting_string (pin, "component", settings->component);
  ws_pin_set_setting_bool (pin, "widen", settings->widen);
  ws_pin_set_setting_string (pin, "rank", ws_contrast_rank_to_string (settings->rank));
  ws_pin_set_setting_int (pin, "t_fast_ns", ws_contrast_result_get_t_fast (result));
  ws_pin_set_setting_int (pin, "t_slow_ns", ws_contrast_result_get_t_slow (result));
  ws_pin_set_setting_int (pin, "k", ws_contrast_result_get_k (result));
}

/**
 * ws_pin_get_contrast:
 * @traces: (element-type WsTrace): the pin's traces, in its order
 *
 * The settings to rerun @pin's contrast with, over the pinned scenario's
 * instances in @traces.
 */
gboolean
ws_pin_get_contrast (WsPin          *pin,
                     GPtrArray      *traces,
                     WsPinContrast  *out,
                     GError        **error)
{
  const char *scenario = ws_pin_get_setting_string (pin, "scenario", NULL);
  const char *component = ws_pin_get_setting_string (pin, "component", NULL);
  WsContrastSettings *s = &out->settings;

  memset (out, 0, sizeof *out);
  if (scenario == NULL || *scenario == '\0' || component == NULL || *component == '\0')
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s", _("the contrast pin names no scenario or no component"));
      return FALSE;
    }
  out->scenario = g_strdup (scenario);
  out->component = g_strdup (component);
  out->instances = ws_instance_set_new ();
  for (guint i = 0; i < traces->len; i++)
    ws_instance_set_add_trace (out->instances, g_ptr_array_index (traces, i), scenario);
  if (ws_instance_set_get_n (out->instances) == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("the traces have no instance of the scenario “%s”"), scenario);
      ws_pin_contrast_clear (out);
      return FALSE;
    }
  s->component = out->component;
  s->widen = ws_pin_get_setting_bool (pin, "widen", FALSE);
  /* A pin from before the choice existed was ranked by C/N: so it is
   * again; an unknown name ranks by the default. */
  if (!ws_contrast_rank_from_string (ws_pin_get_setting_string (pin, "rank", "average"), &s->rank))
    s->rank = WS_CONTRAST_RANK_TOTAL;
  s->instances = out->instances;
  s->t_fast = MAX (0, ws_pin_get_setting_int (pin, "t_fast_ns", 0));
  s->t_slow = MAX (s->t_fast, ws_pin_get_setting_int (pin, "t_slow_ns", 0));
  s->k = CLAMP (ws_pin_get_setting_int (pin, "k", WS_CONTRAST_DEFAULT_K), 0, 64);
  return TRUE;
}

void
ws_pin_contrast_clear (WsPinContrast *contrast)
{
  g_clear_pointer (&contrast->scenario, g_free);
  g_clear_pointer (&contrast->component, g_free);
  g_clear_object (&contrast->instances);
  memset (&contrast->settings, 0, sizeof contrast->settings);
}

void
ws_pin_set_contrast_pattern (WsPin            *pin,
                             WsContrastResult *result,
                             guint             rank)
{
  g_autofree char *tuple = NULL;

  g_return_if_fail (rank < ws_contrast_result_get_n_patterns (result));

  tuple = ws_contrast_result_format_pattern (result, ws_contrast_result_get_pattern (result, rank));
  ws_pin_set_setting_int (pin, "pattern", rank);
  ws_pin_set_setting_string (pin, "pattern_tuple", tuple);
}

/**
 * ws_pin_find_contrast_pattern:
 *
 * The rank in @result of the pattern @pin names: the one with the pinned
 * Signature Set Tuple, else the pinned rank; %G_MAXUINT if neither.
 */
guint
ws_pin_find_contrast_pattern (WsPin            *pin,
                              WsContrastResult *result)
{
  const char *tuple = ws_pin_get_setting_string (pin, "pattern_tuple", NULL);
  gint64 rank = ws_pin_get_setting_int (pin, "pattern", 0);
  guint n = ws_contrast_result_get_n_patterns (result);

  for (guint i = 0; tuple != NULL && i < n; i++)
    {
      g_autofree char *s = ws_contrast_result_format_pattern (result, ws_contrast_result_get_pattern (result, i));

      if (g_strcmp0 (s, tuple) == 0)
        return i;
    }
  return rank >= 0 && rank < n ? (guint) rank : G_MAXUINT;
}

/* Whether an aggregated-wait-graph pin shows AWG_slow (the default). */
gboolean
ws_pin_get_awg_slow (WsPin *pin)
{
  return g_strcmp0 (ws_pin_get_setting_string (pin, "class", "slow"), "fast") != 0;
}
