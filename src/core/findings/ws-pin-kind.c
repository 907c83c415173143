/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The registry of pinnable view kinds.  Session files store kinds by name,
 * so a kind is a string, not an enum: pages added later (overview, contrast,
 * anomaly model) register theirs without touching the reader.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-pin.h"
#include "ws-pin-flame.h"
#include "ws-pin-kind.h"
#include "ws-pin-mining.h"

static const WsPinKindInfo builtin_kinds[] = {
  { WS_PIN_KIND_TIMELINE, N_("Timeline window"), FALSE, FALSE },
  { WS_PIN_KIND_WAIT_GRAPH, N_("Wait graph"), TRUE, FALSE },
  { WS_PIN_KIND_READY_TREE, N_("Ready tree"), TRUE, FALSE },
  { WS_PIN_KIND_CRITICAL_PATH, N_("Critical path"), TRUE, FALSE },
  { WS_PIN_KIND_ALIGNMENT, N_("Cluster alignment"), FALSE, TRUE, ws_pin_mining_check },
  { WS_PIN_KIND_COVERAGE, N_("Bottleneck coverage"), FALSE, TRUE, ws_pin_mining_check },
  { WS_PIN_KIND_ANOMALY_MODEL, N_("Wait model"), TRUE, FALSE },
  { WS_PIN_KIND_ATTRIBUTION, N_("Root-cause attribution"), FALSE, TRUE },
  { WS_PIN_KIND_CONTRAST, N_("Contrast pattern"), FALSE, TRUE },
  { WS_PIN_KIND_AWG, N_("Aggregated wait graph"), FALSE, TRUE },
  /* Two traces when differential: the graph's, then its base. */
  { WS_PIN_KIND_FLAME, N_("Flame graph"), FALSE, TRUE, ws_pin_flame_check },
};

static GMutex registry_lock;
static GPtrArray *registry;   /* WsPinKindInfo*, owned copies */

static void
ensure_registry (void)
{
  if (registry != NULL)
    return;
  registry = g_ptr_array_new ();
  for (guint i = 0; i < G_N_ELEMENTS (builtin_kinds); i++)
    g_ptr_array_add (registry, (gpointer) &builtin_kinds[i]);
}

/**
 * ws_pin_kind_register:
 * @info: the kind; copied, its strings must be static
 *
 * Registers (or replaces) a pinnable view kind.
 */
void
ws_pin_kind_register (const WsPinKindInfo *info)
{
  g_return_if_fail (info != NULL && info->name != NULL && info->label != NULL);

  g_mutex_lock (&registry_lock);
  ensure_registry ();
  for (guint i = 0; i < registry->len; i++)
    {
      const WsPinKindInfo *k = g_ptr_array_index (registry, i);
      if (g_str_equal (k->name, info->name))
        {
          g_ptr_array_remove_index (registry, i);
          break;
        }
    }
  /* Leaked on purpose: registrations live as long as the process. */
  g_ptr_array_add (registry, g_memdup2 (info, sizeof *info));
  g_mutex_unlock (&registry_lock);
}

/**
 * ws_pin_kind_lookup:
 *
 * Returns: (nullable): the kind named @name, %NULL if none is registered
 */
const WsPinKindInfo *
ws_pin_kind_lookup (const char *name)
{
  const WsPinKindInfo *found = NULL;

  g_return_val_if_fail (name != NULL, NULL);

  g_mutex_lock (&registry_lock);
  ensure_registry ();
  for (guint i = 0; i < registry->len && found == NULL; i++)
    {
      const WsPinKindInfo *k = g_ptr_array_index (registry, i);
      if (g_str_equal (k->name, name))
        found = k;
    }
  g_mutex_unlock (&registry_lock);
  return found;
}

GPtrArray *
ws_pin_kind_list (void)
{
  GPtrArray *names = g_ptr_array_new ();

  g_mutex_lock (&registry_lock);
  ensure_registry ();
  for (guint i = 0; i < registry->len; i++)
    g_ptr_array_add (names, (gpointer) ((const WsPinKindInfo *) g_ptr_array_index (registry, i))->name);
  g_mutex_unlock (&registry_lock);
  return names;
}

/**
 * ws_pin_kind_check:
 *
 * Runs the check of @pin's kind, if it has one (a kind no one registered
 * has none: its pins are kept as they are).
 *
 * Returns: %FALSE with @error from the kind's check
 */
gboolean
ws_pin_kind_check (WsPin   *pin,
                   GError **error)
{
  const WsPinKindInfo *info;

  g_return_val_if_fail (WS_IS_PIN (pin), FALSE);
  info = ws_pin_kind_lookup (ws_pin_get_kind (pin));
  return info == NULL || info->check == NULL || info->check (pin, error);
}
