/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The two steps of the learning rule (docs/anomaly-detection.md, "Flags
 * and the learning rule"), kept apart from the detector so that they can
 * be read, and tested, as plain arithmetic on flagged values:
 *
 * - ws_anomaly_learn_cut(): a hard cut, the one that misjudges the fewest
 *   flags, placed as near a prior cut as that allows.
 * - ws_anomaly_learn_kind_cut(): a signature's cut from its own flags,
 *   the model's own verdicts on its waits (worth a fixed number of flags
 *   in all) and the marks its mixture offers (ws_anomaly_mark_hypotheses():
 *   a kind's slow waits often form a component of their own, a fault or a
 *   slow path, inside which the tail rule cuts because the model took it
 *   for normal; one flag may carry to that whole component).  The rule is
 *   built so that learning is monotone: a normal flag never lowers the
 *   cut, an anomalous one never raises it, whatever flags came before.
 * - ws_anomaly_marked_boundary(): Bayes' boundary of a mark.
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
/* What a mark costs before any flag argues for it, in flags: one wait
 * flagged anomalous between the mark's boundary and the tail cut (which
 * the tail cut misjudges, a cost of 1) is enough to mark its part of the
 * mixture, and waits flagged normal there (which the mark misjudges)
 * outweigh it again once their weights (ws_anomaly_flag_weight()) pass
 * the half flag it is ahead by. */
#define MARK_PRIOR 0.5

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

/**
 * ws_anomaly_mark_hypotheses:
 * @gmm: a signature's mixture
 * @base: the tail rule's cut
 * @out: (out caller-allocates) (array fixed-size=WS_GMM_MAX_COMPONENTS):
 *   the hypotheses
 *
 * The slow parts of the mixture that flags may call anomalous: each
 * component slower than the main (heaviest) one, together with every
 * slower component, proposes its Bayes boundary
 * (ws_anomaly_marked_boundary()) as a cut, if it lies below @base and
 * the mixture puts at most MARK_MAX_SHARE of the kind above it.  They
 * depend on the mixture and @base only, never on the flags.
 *
 * Returns: how many
 */
guint
ws_anomaly_mark_hypotheses (const WsGmm       *gmm,
                            double             base,
                            WsLearnHypothesis *out)
{
  gboolean set[WS_GMM_MAX_COMPONENTS];
  guint main, n_out = 0;

  g_return_val_if_fail (gmm != NULL && out != NULL, 0);
  if (gmm->n_components < 2)
    return 0;
  main = main_component (gmm);
  for (guint k = 0; k < gmm->n_components; k++)
    {
      double from = gmm->components[k].mean, cut;
      guint mask = 0;

      if (from <= gmm->components[main].mean)
        continue;
      for (guint j = 0; j < gmm->n_components; j++)
        {
          set[j] = j != main && gmm->components[j].mean >= from;
          mask |= set[j] ? 1u << j : 0;
        }
      cut = ws_anomaly_marked_boundary (gmm, set);
      if (cut >= base || ws_gmm_upper_tail (gmm, cut) > MARK_MAX_SHARE)
        continue;
      out[n_out++] = (WsLearnHypothesis) { cut, MARK_PRIOR, mask };
    }
  return n_out;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* How many of @sorted are below @v. */
static guint
count_below (const double *sorted,
             guint         n,
             double        v)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (sorted[mid] < v)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* A flag's weight on a grid of 2^-20 flag.  The cost compares sums of
 * weights taken over different sets of flags; with weights of any value
 * (the posterior ones) those sums round differently as flags are added,
 * and a rounding error of 1e-16 could break a tie the wrong way: a normal
 * flag added once lowered a cut from "nothing anomalous" to the bar (the
 * random kinds of /anomaly/learning-monotone found it).  On the grid every
 * sum of fewer than 2^32 flags is exact, so ties are ties. */
static double
exact_weight (double weight)
{
  return ldexp (nearbyint (ldexp (MAX (weight, 0), 20)), -20);
}

/* The flags of one verdict, sorted, with the running sum of their
 * weights: prefix[i] is the weight of the first i. */
typedef struct {
  double *x;
  double *prefix;
  guint   n;
} FlagSide;

static void
flag_side_init (FlagSide          *side,
                const WsLearnFlag *flags,
                guint              n_flags,
                gboolean           anomalous)
{
  g_autofree WsLearnFlag *mine = g_new (WsLearnFlag, MAX (n_flags, 1));

  side->n = 0;
  for (guint i = 0; i < n_flags; i++)
    if (!flags[i].anomalous == !anomalous)
      mine[side->n++] = flags[i];
  qsort (mine, side->n, sizeof (WsLearnFlag), compare_flags);
  side->x = g_new (double, side->n + 1);
  side->prefix = g_new (double, side->n + 1);
  side->prefix[0] = 0;
  for (guint i = 0; i < side->n; i++)
    {
      side->x[i] = mine[i].x;
      side->prefix[i + 1] = side->prefix[i] + exact_weight (mine[i].weight);
    }
}

static void
flag_side_clear (FlagSide *side)
{
  g_free (side->x);
  g_free (side->prefix);
}

/**
 * ws_anomaly_learn_kind_cut:
 * @base: the tail rule's cut (P(D ≥ d) = the threshold)
 * @hyps: (array length=n_hyps): the marks the mixture offers
 *   (ws_anomaly_mark_hypotheses())
 * @flags: (array length=n_flags): the kind's flags; each weight must
 *   depend on its own flag only
 * @samples: (array length=n_samples): the log-durations the model was
 *   fitted on, sorted ascending
 * @model_weight: how many flags the model's verdicts on @samples weigh in
 *   all (rounded to a whole number)
 * @hypothesis: (out) (optional): the index in @hyps of the mark the cut
 *   follows, or %G_MAXUINT when it follows @base
 *
 * The learning rule (docs/anomaly-detection.md, "Flags and the learning
 * rule"): of all cuts c, the one that minimises
 *
 *   misjudged flags(c) + min over h of (prior(h) + W · share of @samples
 *                                       on which c and h disagree)
 *
 * where h ranges over @base (prior 0) and @hyps.  A flag misjudged costs
 * its weight plus the model's verdict on one wait (W / n): the flag stands
 * in for the model's verdict on its own wait, so that with W = n (one flag
 * a wait, the default) the cut moves past a stretch of waits when the
 * flags there outweigh the model's verdicts on the waits not flagged.
 * That addition is the flag's own too.  The second term does
 * not depend on the flags, and each flag adds a term of its own that
 * grows with c for an anomalous flag (misjudged when c > x) and shrinks
 * with c for a normal one (misjudged when c ≤ x).  The cut is taken
 * among the points where that sum can change (samples, flags, @base and
 * +∞: a cut at a point stands for every cut down to the previous point),
 * and between cuts that cost the same, one at or below @base before one
 * above it, then the highest.  So, by construction, adding a normal flag
 * never lowers the cut and adding an anomalous one never raises it
 * (monotone comparative statics: adding a term that falls with c moves
 * the highest minimiser up, one that rises moves it down); the verdicts
 * of the other waits of the kind move only the way the flag says.  It is
 * a function of the set of flags: their order does not matter, and
 * removing a flag restores exactly the cut before it.
 *
 * Returns: the cut (%G_MAXDOUBLE: nothing anomalous)
 */
double
ws_anomaly_learn_kind_cut (double                   base,
                           const WsLearnHypothesis *hyps,
                           guint                    n_hyps,
                           const WsLearnFlag       *flags,
                           guint                    n_flags,
                           const double            *samples,
                           guint                    n_samples,
                           double                   model_weight,
                           guint                   *hypothesis)
{
  g_autofree double *cands = NULL;
  FlagSide anomalous, normal;
  double scale = MAX (n_samples, 1), w = floor (MAX (model_weight, 0) + 0.5);
  double best = base, best_cost = G_MAXDOUBLE;
  guint n = 0, best_above = 1, best_h = G_MAXUINT;

  if (hypothesis != NULL)
    *hypothesis = G_MAXUINT;
  if (n_flags == 0)
    return base;
  cands = g_new (double, n_samples + n_flags + n_hyps + 2);
  memcpy (cands, samples, n_samples * sizeof (double));
  n = n_samples;
  for (guint i = 0; i < n_flags; i++)
    cands[n++] = flags[i].x;
  for (guint i = 0; i < n_hyps; i++)
    cands[n++] = hyps[i].cut;
  cands[n++] = base;
  cands[n++] = G_MAXDOUBLE;
  qsort (cands, n, sizeof (double), compare_doubles);
  flag_side_init (&anomalous, flags, n_flags, TRUE);
  flag_side_init (&normal, flags, n_flags, FALSE);

  /* Costs in units of 1/scale flag, so that with a whole W and whole or
   * half flag weights every sum is exact and ties are ties. */
  for (guint i = 0; i < n; i++)
    {
      double c = cands[i], cost, model = G_MAXDOUBLE;
      guint above = c > base, h_at = G_MAXUINT, below_c;

      if (i > 0 && c == cands[i - 1])
        continue;
      below_c = count_below (samples, n_samples, c);
      for (guint h = 0; h <= n_hyps; h++)
        {
          double at = h < n_hyps ? hyps[h].cut : base;
          double prior = h < n_hyps ? hyps[h].prior : 0;
          guint below_h = count_below (samples, n_samples, at);
          double m = prior * scale + w * (below_c > below_h ? below_c - below_h : below_h - below_c);

          if (m < model)
            {
              model = m;
              h_at = h < n_hyps ? h : G_MAXUINT;
            }
        }
      guint a_below = count_below (anomalous.x, anomalous.n, c), n_below = count_below (normal.x, normal.n, c);

      /* A misjudged flag costs its weight, and the model's verdict on
       * its own wait (w / scale: the flag replaces it). */
      cost = model
             + scale * anomalous.prefix[a_below] + w * a_below
             + scale * (normal.prefix[normal.n] - normal.prefix[n_below]) + w * (normal.n - n_below);
      if (cost < best_cost || (cost == best_cost && above <= best_above))
        {
          best_cost = cost;
          best_above = above;
          best = c;
          best_h = h_at;
        }
    }
  flag_side_clear (&anomalous);
  flag_side_clear (&normal);
  if (hypothesis != NULL)
    *hypothesis = best_h;
  return best;
}

/**
 * ws_anomaly_fdr_bar:
 * @gmm: a kind's mixture
 * @samples: (array length=n_samples): the log-durations it was fitted
 *   on, sorted ascending
 * @q: the false-discovery rate (0 < @q < 1)
 *
 * The Benjamini–Hochberg step-up rule over a kind's waits
 * (docs/anomaly-detection.md, "Which waits are anomalous"): with the
 * p-values p(1) ≤ … ≤ p(n) of its n waits, p = P(D ≥ d) under @gmm, k is
 * the largest j with p(j) ≤ j·@q/n, and the bar is max(k, 1)·@q/n: the
 * k waits at or under it are the discoveries, and with none the bar is
 * where the first one would have to lie (Bonferroni's @q/n).  When the
 * waits follow the model (p uniform), the chance that a kind has any
 * discovery at all is at most @q, whatever n; the tail rule P ≤ @q calls
 * a share @q of every kind anomalous.  The bar depends on the kind's data
 * and model only, never on a flag or on another kind.
 *
 * Returns: the bar on P(D ≥ d)
 */
double
ws_anomaly_fdr_bar (const WsGmm  *gmm,
                    const double *samples,
                    guint         n_samples,
                    double        q)
{
  g_autofree double *p = NULL;
  guint k = 0;

  g_return_val_if_fail (gmm != NULL && q > 0 && q < 1, q);
  if (n_samples == 0)
    return q;
  p = g_new (double, n_samples);
  ws_gmm_upper_tail_many (gmm, samples, n_samples, p);
  /* Samples ascending, so p descending: p(j) = p[n − j]. */
  for (guint j = 1; j <= n_samples; j++)
    if (p[n_samples - j] <= j * q / n_samples)
      k = j;
  return MAX (k, 1) * q / n_samples;
}

/**
 * ws_anomaly_flag_weight:
 * @gmm: the kind's mixture
 * @x: the flagged wait's log-duration
 * @anomalous: the flag's verdict
 *
 * What misjudging a flag costs when flags are weighed by the model
 * (%WS_FLAG_WEIGHTS_POSTERIOR): a wait flagged anomalous weighs 1; one
 * flagged normal weighs the posterior probability, under @gmm, that a
 * wait that long comes from the kind's main (heaviest) component, at
 * least MARK_EPSILON.  A normal wait inside a slow component is what the
 * mixture expects to find there now and then: an analyst who rejects the
 * false alarms a mark makes inside it finds such waits because they are
 * errors, not because the component is normal, and each used to weigh as
 * much against the mark as the miss that set it.  The weight depends on
 * the flag's own wait and the flag-free model only, so the cost keeps one
 * term per flag, monotone in the cut: learning stays monotone.
 *
 * Returns: the weight, in (0, 1]
 */
double
ws_anomaly_flag_weight (const WsGmm *gmm,
                        double       x,
                        gboolean     anomalous)
{
  double r[WS_GMM_MAX_COMPONENTS];

  g_return_val_if_fail (gmm != NULL, 1);
  if (anomalous || gmm->n_components < 2)
    return 1;
  ws_gmm_posteriors (gmm, x, r);
  return CLAMP (r[main_component (gmm)], MARK_EPSILON, 1);
}
