/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Human-readable times for every front-end (core summaries, views, CLI): durations with three significant
 * digits in the unit people expect (ns, µs, ms, s), and the "nice" tick
 * steps of a time ruler (1, 2, 5 × 10^k), labelled in one unit with just
 * enough decimals to tell neighbouring ticks apart.
 */
#include "config.h"

#include <math.h>

#include "ws-time-format.h"

static const WsTime units[] = { 1, 1000, 1000000, 1000000000 };
static const char * const unit_symbols[] = { "ns", "µs", "ms", "s" };

const char *
ws_time_unit_symbol (WsTime unit)
{
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (units[i] == unit)
      return unit_symbols[i];
  g_return_val_if_reached ("?");
}

/**
 * ws_format_duration:
 * @ns: a duration in nanoseconds (may be negative)
 *
 * Returns: (transfer full): e.g. "850 ns", "12.3 µs", "1.25 ms", "2.50 s"
 */
char *
ws_format_duration (WsTime ns)
{
  const char *sign = ns < 0 ? "-" : "";
  guint64 a = ns < 0 ? (guint64) -(ns + 1) + 1 : (guint64) ns;
  guint u = 0;
  double value;
  int decimals;

  if (a < 1000)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT " ns", sign, a);

  /* Pick the unit after rounding to three significant digits, so that
   * 999 960 ns reads "1.00 ms" and not "1000 µs". */
  for (u = 1; u < G_N_ELEMENTS (units) - 1; u++)
    {
      double v = (double) a / units[u];
      decimals = v < 10 ? 2 : v < 100 ? 1 : 0;
      if (round (v * pow (10, decimals)) / pow (10, decimals) < 1000)
        break;
    }
  value = (double) a / units[u];
  decimals = value < 9.995 ? 2 : value < 99.95 ? 1 : 0;
  return g_strdup_printf ("%s%.*f %s", sign, decimals, value, unit_symbols[u]);
}

/**
 * ws_tick_step_compute:
 * @ns_per_px: the scale of the ruler
 * @min_px_between_labels: labelled ticks are at least this far apart
 * @max_label_value: the largest value a label will show (ns from the
 *   ruler's origin), so that labels never need more than four digits
 *   before the decimal point
 */
void
ws_tick_step_compute (WsTickStep *tick,
                      double      ns_per_px,
                      double      min_px_between_labels,
                      WsTime      max_label_value)
{
  static const guint mantissas[] = { 1, 2, 5 };
  double want = MAX (ns_per_px * min_px_between_labels, 1.0);
  WsTime step = 1, minor = 1;
  guint u;

  g_return_if_fail (tick != NULL);

  for (WsTime pow10 = 1; ; pow10 *= 10)
    {
      guint i;
      for (i = 0; i < G_N_ELEMENTS (mantissas); i++)
        if ((double) (mantissas[i] * pow10) >= want)
          break;
      if (i < G_N_ELEMENTS (mantissas) || pow10 >= G_MAXINT64 / 100)
        {
          i = MIN (i, G_N_ELEMENTS (mantissas) - 1);
          step = mantissas[i] * pow10;
          /* 1 → five minor ticks of 0.2, 2 → four of 0.5, 5 → five of 1 */
          minor = mantissas[i] == 2 ? step / 4 : step / 5;
          break;
        }
    }
  if (minor < 1)
    minor = step;

  /* The largest unit that shows the step with at most one decimal… */
  for (u = G_N_ELEMENTS (units) - 1; u > 0; u--)
    if (units[u] <= step * 10)
      break;
  /* …unless labels would get five or more digits before the point. */
  while (u < G_N_ELEMENTS (units) - 1 && max_label_value / units[u] >= 10000)
    u++;

  tick->step = step;
  tick->minor = minor;
  tick->unit = units[u];
  tick->decimals = 0;
  for (WsTime d = units[u]; d > 1 && step % d != 0; d /= 10)
    tick->decimals++;
}

/**
 * ws_tick_step_format:
 * Returns: (transfer full): @value (ns) in the tick's unit, e.g. "1.2 ms"
 */
char *
ws_tick_step_format (const WsTickStep *tick,
                     WsTime            value)
{
  g_return_val_if_fail (tick != NULL, NULL);
  return g_strdup_printf ("%.*f %s", tick->decimals,
                          (double) value / (double) tick->unit,
                          ws_time_unit_symbol (tick->unit));
}
