/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The two steps of the learning rule (docs/anomaly-detection.md, "Flags
 * and the learning rule"), kept apart from the detector so that they can
 * be read, and tested, as plain arithmetic on flagged values:
 *
 * - ws_anomaly_learn_cut(): a hard cut, the one that misjudges the fewest
 *   flags, placed as near a prior cut as that allows.
 * - ws_anomaly_learn_cut_with_model(): the same, with the model's own
 *   verdicts on the signature's waits in the vote, worth a fixed number
 *   of flags in all.  A signature's own flags set its cut this way: a
 *   verdict carries over to the waits of its kind on the same side as far
 *   as the flags outvote the model there, so a cut moves freely through
 *   the sparse tail and only with more flags through the bulk of a kind.
 *   Without the model's votes a cut learned from the flags alone swings
 *   to the last few flags, and from flags that are mostly corrections
 *   (the waits the detector got wrong) to an extreme.
 * - ws_anomaly_learn_shrink(): a soft, bounded move of a level's bar (a
 *   pool of signatures, or all of them) from its parent's bar toward what
 *   that level's flags say, by at most @max_shift and only as far as
 *   n / (n + @prior_flags) of the way: evidence from other kinds of wait
 *   shades a signature's bar but can never overrule its own model.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws-anomaly-learning.h"

#define CUT_MARGIN 0.1  /* log units: 10 % longer than the longest normal wait */

static int
compare_flags (const void *a,
               const void *b)
{
  double x = ((const WsLearnFlag *) a)->x, y = ((const WsLearnFlag *) b)->x;
  return x < y ? -1 : x > y;
}

/* Where to cut inside the interval (a, b] of cuts that misjudge the same
 * flags: at @base if it lies there, else as near it as the interval
 * lets, but never on a normal wait. */
static double
place_cut (double base,
           double a,
           double b)
{
  if (base > a && base <= b)
    return base;
  if (base <= a)
    return b < G_MAXDOUBLE ? MIN (a + CUT_MARGIN, (a + b) / 2) : a + CUT_MARGIN;
  return b;
}

/**
 * ws_anomaly_learn_cut:
 * @base: the cut before these flags
 * @flags: (array length=n_flags): the flags (sorted here)
 *
 * A value at or above the cut is anomalous.  Of all cuts, the ones that
 * misjudge the least weight of @flags; among them the one nearest @base.
 * Moved up past a normal flag it lands CUT_MARGIN above it, or halfway to
 * the next flag if that is nearer; moved down it lands on the anomalous
 * flag.  Flags that contradict each other are outvoted by the majority.
 *
 * Returns: the cut
 */
double
ws_anomaly_learn_cut (double       base,
                      WsLearnFlag *flags,
                      guint        n_flags)
{
  double errors = 0, best_errors = G_MAXDOUBLE, best = base;

  if (n_flags == 0)
    return base;
  qsort (flags, n_flags, sizeof (WsLearnFlag), compare_flags);

  /* A cut below every flag misjudges each normal one. */
  for (guint i = 0; i < n_flags; i++)
    errors += flags[i].anomalous ? 0 : flags[i].weight;
  for (guint i = 0; i <= n_flags; i++)
    {
      /* Cuts in (x[i-1], x[i]]: flags below are normal, from x[i] on anomalous. */
      double a = i > 0 ? flags[i - 1].x : -G_MAXDOUBLE, b = i < n_flags ? flags[i].x : G_MAXDOUBLE, c;

      if (i > 0)
        errors += flags[i - 1].anomalous ? flags[i - 1].weight : -flags[i - 1].weight;
      if (i > 0 && i < n_flags && flags[i].x == flags[i - 1].x)
        continue;
      c = place_cut (base, a, b);
      if (errors < best_errors - 1e-9 || (fabs (errors - best_errors) <= 1e-9 && fabs (c - base) < fabs (best - base)))
        {
          best_errors = errors;
          best = c;
        }
    }
  return best;
}

/**
 * ws_anomaly_learn_cut_with_model:
 * @base: the cut before these flags (where the model puts the threshold)
 * @flags: (array length=n_flags): the signature's flags
 * @samples: (array length=n_samples): the log-durations the model was
 *   fitted on (its waits, history and open traces)
 * @model_weight: how many flags the model's verdicts weigh in all
 *
 * ws_anomaly_learn_cut() over @flags and one vote per sample, for the
 * verdict @base gives it, each weighing @model_weight / @n_samples.  A
 * cut at @base misjudges no vote; moving it past a fraction q of the
 * samples costs q · @model_weight flags.
 *
 * Returns: the cut
 */
double
ws_anomaly_learn_cut_with_model (double             base,
                                 const WsLearnFlag *flags,
                                 guint              n_flags,
                                 const double      *samples,
                                 guint              n_samples,
                                 double             model_weight)
{
  g_autofree WsLearnFlag *all = NULL;
  double vote;

  if (n_flags == 0)
    return base;
  if (n_samples == 0 || model_weight <= 0)
    n_samples = 0;
  all = g_new (WsLearnFlag, n_flags + n_samples);
  memcpy (all, flags, n_flags * sizeof (WsLearnFlag));
  vote = n_samples > 0 ? model_weight / n_samples : 0;
  for (guint i = 0; i < n_samples; i++)
    all[n_flags + i] = (WsLearnFlag) { samples[i], samples[i] >= base, vote };
  return ws_anomaly_learn_cut (base, all, n_flags + n_samples);
}

/**
 * ws_anomaly_learn_shrink:
 * @parent: the bar of the level above (or the setting, at the top)
 * @flags: (array length=n_flags): this level's flags (sorted here)
 * @prior_flags: how many flags of its own a level needs to go halfway
 *   from its parent's bar to what they say (> 0)
 * @max_shift: the most the level's bar may differ from its parent's
 *
 * A shrinkage estimate: ĉ = ws_anomaly_learn_cut (@parent, @flags), kept
 * within @max_shift of @parent, then @parent + (ĉ − @parent) · n / (n +
 * @prior_flags).  So one flag moves the bar by at most @max_shift / (1 +
 * @prior_flags), and no number of flags moves it by more than @max_shift.
 *
 * Returns: the level's bar
 */
double
ws_anomaly_learn_shrink (double       parent,
                         WsLearnFlag *flags,
                         guint        n_flags,
                         double       prior_flags,
                         double       max_shift)
{
  double c;

  g_return_val_if_fail (prior_flags > 0 && max_shift >= 0, parent);
  if (n_flags == 0)
    return parent;
  c = CLAMP (ws_anomaly_learn_cut (parent, flags, n_flags), parent - max_shift, parent + max_shift);
  return parent + (c - parent) * n_flags / (n_flags + prior_flags);
}
