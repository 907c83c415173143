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
 * - ws_anomaly_learn_marks() and ws_anomaly_marked_boundary(): what the
 *   flags say about the mixture's components.  A kind's slow waits often
 *   form a component of their own (a fault, a slow path); the tail rule
 *   cuts somewhere inside it, because the model took it for normal.  Once
 *   the flags call such a component anomalous, every wait more probably
 *   from it than from the rest is, and one flag carries to its whole
 *   component.
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

#define BOUNDARY_STEPS 256  /* scan steps before bisecting the boundary */
/* How often either way of judging a wait (a cut, or the marked part of a
 * mixture) is taken to be wrong about it: one time in twenty.  Measured
 * on the tuning split, 0.05 and 0.2 gave the same curve for the checking
 * analyst; 0.2 let the correcting one unmark more often. */
#define MARK_EPSILON 0.05
/* The most of a kind's waits a mark may call anomalous: an anomaly is the
 * exception, and a kind whose slow part is larger is one with two normal
 * speeds, not a faulty one.  (On the fault trace the lock kind's faults
 * are 18 % of its waits and their mark calls 16 % anomalous; a history
 * mixing two programs' condition-variable waits offered a mark calling
 * 57 % anomalous on one flag.) */
#define MARK_MAX_SHARE 0.25

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

/* The component the kind's normal waits come from: the heaviest. */
static guint
main_component (const WsGmm *gmm)
{
  guint main = 0;

  for (guint k = 1; k < gmm->n_components; k++)
    if (gmm->components[k].weight > gmm->components[main].weight)
      main = k;
  return main;
}

static double
marked_posterior (const WsGmm    *gmm,
                  const gboolean *marked,
                  double          x)
{
  double r[WS_GMM_MAX_COMPONENTS], p = 0;

  ws_gmm_posteriors (gmm, x, r);
  for (guint k = 0; k < gmm->n_components; k++)
    p += marked[k] ? r[k] : 0;
  return p;
}

/**
 * ws_anomaly_marked_boundary:
 * @gmm: a signature's mixture
 * @marked: (array fixed-size=WS_GMM_MAX_COMPONENTS): its anomalous
 *   components (ws_anomaly_learn_marks())
 *
 * The lowest log-duration between the main component's mean and the
 * slowest marked component's mean at which a wait is more probably from
 * the marked components than from the others: Bayes' boundary between
 * the normal and the anomalous part of the mixture.
 *
 * Returns: the boundary, or %G_MAXDOUBLE if there is none (nothing
 *   marked, or the marked components never dominate there)
 */
double
ws_anomaly_marked_boundary (const WsGmm    *gmm,
                            const gboolean *marked)
{
  double lo, hi = -G_MAXDOUBLE, step;

  g_return_val_if_fail (gmm != NULL && marked != NULL, G_MAXDOUBLE);
  lo = gmm->n_components > 0 ? gmm->components[main_component (gmm)].mean : 0;
  for (guint k = 0; k < gmm->n_components; k++)
    if (marked[k])
      hi = MAX (hi, gmm->components[k].mean);
  if (hi <= lo)
    return G_MAXDOUBLE;
  /* The posterior need not be monotone where variances differ: scan for
   * its first crossing, then bisect the step that holds it. */
  step = (hi - lo) / BOUNDARY_STEPS;
  for (guint i = 1; i <= BOUNDARY_STEPS; i++)
    {
      double a = lo + (i - 1) * step, b = i == BOUNDARY_STEPS ? hi : lo + i * step;

      if (marked_posterior (gmm, marked, b) < 0.5)
        continue;
      if (marked_posterior (gmm, marked, a) >= 0.5)
        return a;
      for (guint j = 0; j < 50; j++)
        {
          double mid = (a + b) / 2;

          *(marked_posterior (gmm, marked, mid) >= 0.5 ? &b : &a) = mid;
        }
      return b;
    }
  return G_MAXDOUBLE;
}

/* How much better the marked part @set of the mixture explains @flags
 * than the cut @base does, as a log-likelihood ratio.  Under the cut a
 * wait is anomalous with probability 1 − ε at or above it and ε below;
 * under the marked part, with the probability that it came from @set,
 * kept within [ε, 1 − ε].  Flags far above both or far below both say
 * next to nothing; a flag between them, or a miss in the slow part's
 * lower flank, says the most.  Weighing evidence this way rather than
 * counting flags between the two cuts keeps a mark when the analyst's
 * flags are mostly corrections: the false alarms just above a boundary
 * are cases the mixture itself calls even, the misses below it are
 * waits the mixture gives some chance of being anomalous and the cut
 * none. */
static double
evidence_for (const WsGmm       *gmm,
              const gboolean    *set,
              double             base,
              const WsLearnFlag *flags,
              guint              n_flags)
{
  double e = 0;

  for (guint i = 0; i < n_flags; i++)
    {
      double p1 = CLAMP (marked_posterior (gmm, set, flags[i].x), MARK_EPSILON, 1 - MARK_EPSILON);
      double p0 = flags[i].x >= base ? 1 - MARK_EPSILON : MARK_EPSILON;

      e += flags[i].weight * (flags[i].anomalous ? log (p1 / p0) : log ((1 - p1) / (1 - p0)));
    }
  return e;
}

/**
 * ws_anomaly_learn_marks:
 * @gmm: a signature's mixture
 * @base: the cut before the flags (the tail rule's)
 * @flags: (array length=n_flags): the signature's flags
 * @marked: (out caller-allocates) (array fixed-size=WS_GMM_MAX_COMPONENTS):
 *   %TRUE for each component the flags call anomalous
 *
 * Which slow part of the mixture the flags call anomalous, if any.  The
 * candidates are the components slower than the main (heaviest) one,
 * each with every slower one; each proposes its Bayes boundary
 * (ws_anomaly_marked_boundary()) as the cut, if below @base and if the
 * mixture puts at most MARK_MAX_SHARE of the kind above it.  The flags
 * choose: the candidate that explains them best (evidence_for()), if it
 * explains them better than @base does; else nothing is marked.
 *
 * Returns: the number of components marked
 */
guint
ws_anomaly_learn_marks (const WsGmm       *gmm,
                        double             base,
                        const WsLearnFlag *flags,
                        guint              n_flags,
                        gboolean          *marked)
{
  gboolean set[WS_GMM_MAX_COMPONENTS];
  double best = 0;
  guint main, n_marked = 0;

  g_return_val_if_fail (gmm != NULL && marked != NULL, 0);
  memset (marked, 0, WS_GMM_MAX_COMPONENTS * sizeof (gboolean));
  if (gmm->n_components < 2 || n_flags == 0)
    return 0;
  main = main_component (gmm);
  /* Slowest first: between candidates the flags favour as much, the one
   * that changes the fewest verdicts. */
  for (guint k = gmm->n_components; k-- > 0;)
    {
      double from = gmm->components[k].mean, cut, e;
      guint n = 0;

      if (from <= gmm->components[main].mean)
        continue;
      for (guint j = 0; j < gmm->n_components; j++)
        {
          set[j] = j != main && gmm->components[j].mean >= from;
          n += set[j];
        }
      cut = ws_anomaly_marked_boundary (gmm, set);
      if (cut >= base || ws_gmm_upper_tail (gmm, cut) > MARK_MAX_SHARE)
        continue;
      e = evidence_for (gmm, set, base, flags, n_flags);
      if (e > best + 1e-9)
        {
          best = e;
          memcpy (marked, set, sizeof set);
          n_marked = n;
        }
    }
  return n_marked;
}
