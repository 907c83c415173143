/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Pins of the Mining page: the cluster whose alignment is shown, with
 * the settings of the run that found it (ws-pin-mining.c), and back: a
 * pin reopens the page with its cluster selected, mining again with the
 * pin's settings when the run shown is another one.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-mining-pin.h"
#include "ws-pin-mining.h"

/**
 * ws_mining_pin_capture:
 * @files: (element-type GFile): filled with the traces mined, in order
 *
 * Returns: (transfer full) (nullable): an alignment pin of the cluster
 *   shown, or %NULL when no cluster is
 */
WsPin *
ws_mining_pin_capture (WsMiningPage *page,
                       GPtrArray    *files)
{
  WsMiningShown *shown = ws_mining_page_get_shown (page);
  guint cluster = ws_mining_page_get_shown_cluster (page);
  g_autoptr(GList) names = NULL;
  JsonObject *settings;
  WsPin *pin;
  WsTime t0, t1;

  if (shown == NULL || shown->pin == NULL || cluster == G_MAXUINT)
    return NULL;
  /* A new pin (its own id) with the run's settings */
  pin = ws_pin_new (WS_PIN_KIND_ALIGNMENT);
  settings = ws_pin_get_settings (shown->pin);
  names = json_object_get_members (settings);
  for (GList *l = names; l != NULL; l = l->next)
    json_object_set_member (ws_pin_get_settings (pin), l->data, json_node_copy (json_object_get_member (settings, l->data)));
  if (ws_pin_get_window (shown->pin, &t0, &t1))
    {
      ws_pin_set_tid (pin, ws_pin_get_tid (shown->pin));
      ws_pin_set_window (pin, t0, t1);
    }
  ws_pin_set_cluster (pin, shown->run, cluster);
  {
    g_autofree char *title = g_strdup_printf (_("Mining: cluster %u and its alignment"), cluster + 1);
    ws_pin_set_title (pin, title);
  }
  for (guint i = 0; i < shown->documents->len; i++)
    g_ptr_array_add (files, g_object_ref (ws_document_get_file (g_ptr_array_index (shown->documents, i))));
  return pin;
}

/* The run shown was made with @pin's settings (its cluster aside). */
static gboolean
same_run (WsMiningShown *shown,
          WsPin         *pin)
{
  JsonObject *want = ws_pin_get_settings (pin), *have;
  g_autoptr(GList) names = NULL;

  if (shown == NULL || shown->pin == NULL)
    return FALSE;
  have = ws_pin_get_settings (shown->pin);
  names = json_object_get_members (want);
  for (GList *l = names; l != NULL; l = l->next)
    if (!g_str_has_prefix (l->data, "cluster") &&
        (!json_object_has_member (have, l->data) ||
         !json_node_equal (json_object_get_member (have, l->data), json_object_get_member (want, l->data))))
      return FALSE;
  return TRUE;
}

static gboolean
select_pinned (WsMiningPage *page,
               WsPin        *pin)
{
  WsMiningShown *shown = ws_mining_page_get_shown (page);
  guint cluster = shown ? ws_pin_find_cluster (pin, shown->run) : G_MAXUINT;

  return cluster != G_MAXUINT && ws_mining_page_select_cluster_index (page, cluster);
}

typedef struct {
  WsPin  *pin;
  gulong  handler;
} Pending;

static void
pending_free (gpointer data,
              GClosure *closure)
{
  Pending *p = data;

  g_object_unref (p->pin);
  g_free (p);
}

static void
finished_cb (WsMiningPage *page,
             Pending      *p)
{
  select_pinned (page, p->pin);
  g_signal_handler_disconnect (page, p->handler);
}

/* The form set as the pin says (what it can show: scope, filters, λ and
 * threshold). */
static void
set_form (WsMiningForm *form,
          WsPin        *pin)
{
  gint64 scope = ws_pin_get_setting_int (pin, "scope", WS_MINING_SCOPE_WHOLE_TRACES);

  ws_mining_form_set_scope (form, scope <= WS_MINING_SCOPE_SELECTION_GRAPH ? (WsMiningScope) scope
                                                                          : WS_MINING_SCOPE_WHOLE_TRACES);
  ws_mining_form_set_filters (form, ws_pin_get_setting_string (pin, "must", ""),
                              ws_pin_get_setting_string (pin, "must_not", ""));
  ws_mining_form_set_lambda (form, ws_pin_get_setting_int (pin, "lambda", 0));
  ws_mining_form_set_threshold (form, ws_pin_get_setting_int (pin, "threshold_ppm", 600000) / 1e6);
}

/**
 * ws_mining_pin_apply:
 *
 * Selects @pin's cluster: at once when the run shown is the pin's, else
 * after mining again with the pin's settings.
 */
void
ws_mining_pin_apply (WsMiningPage *page,
                     WsPin        *pin)
{
  Pending *p;
  gboolean busy = FALSE;

  /* A run in progress will replace the one shown: wait for it. */
  g_object_get (page, "busy", &busy, NULL);
  if (!busy && same_run (ws_mining_page_get_shown (page), pin) && select_pinned (page, pin))
    return;
  set_form (ws_mining_page_get_form (page), pin);
  p = g_new0 (Pending, 1);
  p->pin = g_object_ref (pin);
  p->handler = g_signal_connect_data (page, "finished", G_CALLBACK (finished_cb), p, pending_free, 0);
  ws_mining_page_run (page);
}
