/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Sorting a kind's log-durations, which the detector does for every kind,
 * pool and the global data before each fit (the fit's seeding draws by
 * index, so its data must come in one order).  qsort with a comparison
 * callback was 6 % of `anomalies` on a PostgreSQL trace.
 *
 * A log-duration is ln(max(d, 1)) ≥ +0, never NaN, and non-negative IEEE
 * doubles order as their bit patterns do as unsigned integers: a radix
 * sort on the bits gives exactly the array a comparison sort gives (equal
 * values have equal bits, so their order among themselves cannot show).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ws-sorted-samples.h"

#define DIGIT_BITS 11
#define BUCKETS    (1u << DIGIT_BITS)
#define SMALL      48    /* insertion sort below this */

static void
insertion_sort (double *x,
                gsize   n)
{
  for (gsize i = 1; i < n; i++)
    {
      double v = x[i];
      gsize j = i;

      for (; j > 0 && x[j - 1] > v; j--)
        x[j] = x[j - 1];
      x[j] = v;
    }
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static inline guint64
bits_of (double v)
{
  guint64 b;

  memcpy (&b, &v, sizeof b);
  return b;
}

/**
 * ws_sort_log_durations:
 * @x: (array length=n) (inout): log-durations (values ≥ +0)
 *
 * Sorts @x ascending: the same array as qsort() with a numeric comparison
 * (which it falls back to if a value is negative or NaN).
 */
void
ws_sort_log_durations (double *x,
                       gsize   n)
{
  g_autofree double *tmp = NULL;
  g_autofree guint *count = NULL;
  double *from = x, *to;
  guint64 all_and = ~(guint64) 0, all_or = 0;

  if (n < SMALL)
    {
      insertion_sort (x, n);
      return;
    }
  for (gsize i = 0; i < n; i++)
    {
      if (!(x[i] >= 0))
        {
          /* Not a log-duration: a comparison sort, whose order a negative
           * value's bits would not give. */
          qsort (x, n, sizeof *x, compare_doubles);
          return;
        }
      all_and &= bits_of (x[i]);
      all_or |= bits_of (x[i]);
    }
  tmp = g_new (double, n);
  to = tmp;
  count = g_new (guint, BUCKETS);
  for (guint shift = 0; shift < 64; shift += DIGIT_BITS)
    {
      guint64 sum = 0;
      double *swap;

      /* A digit every value shares moves nothing. */
      if ((((all_and ^ all_or) >> shift) & (BUCKETS - 1)) == 0)
        continue;
      memset (count, 0, BUCKETS * sizeof *count);
      for (gsize i = 0; i < n; i++)
        count[(bits_of (from[i]) >> shift) & (BUCKETS - 1)]++;
      for (guint b = 0; b < BUCKETS; b++)
        {
          guint c = count[b];
          count[b] = (guint) sum;
          sum += c;
        }
      for (gsize i = 0; i < n; i++)
        to[count[(bits_of (from[i]) >> shift) & (BUCKETS - 1)]++] = from[i];
      swap = from;
      from = to;
      to = swap;
    }
  if (from != x)
    memcpy (x, from, n * sizeof *x);
}

/**
 * ws_merge_sorted_doubles:
 * @a: (array length=n_a): sorted ascending
 * @b: (array length=n_b): sorted ascending
 * @out: (array length=n_a+n_b) (out caller-allocates): @a and @b together,
 *   sorted ascending
 */
void
ws_merge_sorted_doubles (const double *a,
                         gsize         n_a,
                         const double *b,
                         gsize         n_b,
                         double       *out)
{
  gsize i = 0, j = 0, o = 0;

  while (i < n_a && j < n_b)
    out[o++] = b[j] < a[i] ? b[j++] : a[i++];
  while (i < n_a)
    out[o++] = a[i++];
  while (j < n_b)
    out[o++] = b[j++];
}
