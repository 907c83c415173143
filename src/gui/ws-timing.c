/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>

#include "ws-timing.h"

static gint64 started;
static gboolean enabled;
static GHashTable *reached;   /* milestone → itself */
G_LOCK_DEFINE_STATIC (reached);

void
ws_timing_start (void)
{
  started = g_get_monotonic_time ();
  enabled = g_getenv ("WAITSCOPE_TIMING") != NULL;
}

/* Logs @milestone the first time it is reached (from any thread). */
void
ws_timing_mark (const char *milestone)
{
  if (!enabled)
    return;
  G_LOCK (reached);
  if (reached == NULL)
    reached = g_hash_table_new (g_str_hash, g_str_equal);
  if (g_hash_table_contains (reached, milestone))
    {
      G_UNLOCK (reached);
      return;
    }
  g_hash_table_add (reached, (gpointer) milestone);
  G_UNLOCK (reached);
  fprintf (stderr, "waitscope-timing: %.3f s %s\n", (g_get_monotonic_time () - started) / 1e6, milestone);
  fflush (stderr);
}
