/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ws_threads_from_env(): how many threads WAITSCOPE_THREADS and
 * WAITSCOPE_LOAD_THREADS ask for, one rule for every parallel step.
 *
 * Oracle: the rule as the docs state it, computed here on the text
 * (digits only, compared by length and then digit by digit, so it never
 * overflows): a whole number from 1 up is taken, capped at
 * WS_THREADS_ENV_MAX; unset, empty, 0 and anything else mean one thread
 * per core.  Over the listed values and random strings; and the anomaly
 * fits (ws_gmm_threads()) read the same number.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ws-gmm-many.h"
#include "ws-threads-env.h"

#define VARIABLE "WS_TEST_THREADS"

static guint
expected (const char *value)
{
  guint per_core = MAX (g_get_num_processors (), 1);
  g_autofree char *max = g_strdup_printf ("%u", WS_THREADS_ENV_MAX);
  const char *digits;

  if (value == NULL || *value == '\0')
    return per_core;
  for (const char *p = value; *p != '\0'; p++)
    if (*p < '0' || *p > '9')
      return per_core;
  digits = value;
  while (*digits == '0')
    digits++;
  if (*digits == '\0')
    return per_core;   /* 0, 00, … */
  if (strlen (digits) > strlen (max) || (strlen (digits) == strlen (max) && strcmp (digits, max) > 0))
    return WS_THREADS_ENV_MAX;
  return (guint) atoi (digits);
}

static void
check (const char *value)
{
  if (value == NULL)
    g_unsetenv (VARIABLE);
  else
    g_setenv (VARIABLE, value, TRUE);
  g_assert_cmpuint (ws_threads_from_env (VARIABLE), ==, expected (value));
  g_unsetenv (VARIABLE);
}

static void
test_values (void)
{
  static const char *values[] = {
    "1", "3", "0", "abc", "3x", "x3", " 3", "3 ", "-2", "+3", "", "007", "000",
    "1024", "1025", "99999", "4294967297", "18446744073709551616",
    "999999999999999999999999999999999999",
  };
  guint per_core = MAX (g_get_num_processors (), 1);

  check (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    check (values[i]);

  /* The rule, spelt out for the values the task names. */
  g_unsetenv (VARIABLE);
  g_assert_cmpuint (ws_threads_from_env (VARIABLE), ==, per_core);
  g_setenv (VARIABLE, "1", TRUE);
  g_assert_cmpuint (ws_threads_from_env (VARIABLE), ==, 1);
  g_setenv (VARIABLE, "3", TRUE);
  g_assert_cmpuint (ws_threads_from_env (VARIABLE), ==, 3);
  g_setenv (VARIABLE, "0", TRUE);
  g_assert_cmpuint (ws_threads_from_env (VARIABLE), ==, per_core);
  g_setenv (VARIABLE, "abc", TRUE);
  g_assert_cmpuint (ws_threads_from_env (VARIABLE), ==, per_core);
  g_setenv (VARIABLE, "3x", TRUE);
  g_assert_cmpuint (ws_threads_from_env (VARIABLE), ==, per_core);
  g_setenv (VARIABLE, "18446744073709551616", TRUE);
  g_assert_cmpuint (ws_threads_from_env (VARIABLE), ==, WS_THREADS_ENV_MAX);
  g_unsetenv (VARIABLE);
}

/* Random strings of digits, with now and then a letter, sign or space. */
static void
test_random (void)
{
  static const char alphabet[] = "0123456789000000111222333999ab -+x";
  GRand *rand = g_rand_new_with_seed (25);

  for (guint i = 0; i < 20000; i++)
    {
      guint len = g_rand_int_range (rand, 0, 24);
      g_autofree char *value = g_malloc0 (len + 1);

      for (guint k = 0; k < len; k++)
        value[k] = alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];
      check (value);
    }
  g_rand_free (rand);
}

/* The anomaly fits read WAITSCOPE_THREADS by the same rule. */
static void
test_gmm_threads (void)
{
  static const char *values[] = { NULL, "1", "3", "0", "abc", "3x", "1025", "99999999999999999999999" };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      if (values[i] == NULL)
        g_unsetenv ("WAITSCOPE_THREADS");
      else
        g_setenv ("WAITSCOPE_THREADS", values[i], TRUE);
      g_assert_cmpuint (ws_gmm_threads (), ==, expected (values[i]));
    }
  g_unsetenv ("WAITSCOPE_THREADS");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/threads-env/values", test_values);
  g_test_add_func ("/threads-env/random", test_random);
  g_test_add_func ("/threads-env/gmm-threads", test_gmm_threads);
  return g_test_run ();
}
