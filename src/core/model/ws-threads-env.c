/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * How many threads a parallel step runs on, read from the environment the
 * same way by every step (WAITSCOPE_THREADS for the anomaly fits and the
 * timeline's levels of detail, WAITSCOPE_LOAD_THREADS for loading many
 * traces).  One rule, so that "3x" or "0" mean the same to all of them.
 */
#include "config.h"

#include "ws-threads-env.h"

/**
 * ws_threads_from_env:
 * @variable: the environment variable's name
 *
 * The variable's value when it is a whole number from 1 (the calling
 * thread alone) up; numbers above %WS_THREADS_ENV_MAX (however many
 * digits) count as %WS_THREADS_ENV_MAX.  Unset, empty, 0, negative, or
 * anything but digits ("abc", "3x", " 3"): one thread per core, as if it
 * were unset — a bad value never stops a run.  Callers clamp the answer
 * to the work they have.
 *
 * Returns: at least 1
 */
guint
ws_threads_from_env (const char *variable)
{
  const char *value;
  g_autoptr(GError) error = NULL;
  guint64 n = 0;

  g_return_val_if_fail (variable != NULL, 1);
  value = g_getenv (variable);
  if (value == NULL || *value == '\0' || !g_ascii_isdigit (*value))
    return MAX (g_get_num_processors (), 1);
  if (!g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT64, &n, &error))
    /* Digits only, but more than 64 bits hold: a huge number. */
    return g_error_matches (error, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS)
           ? WS_THREADS_ENV_MAX : MAX (g_get_num_processors (), 1);
  if (n == 0)
    return MAX (g_get_num_processors (), 1);
  return (guint) MIN (n, WS_THREADS_ENV_MAX);
}
