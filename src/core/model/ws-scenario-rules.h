/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/*
 * Scenario rules say which marker events delimit a scenario instance
 * ⟨trace, scenario, TID, t0, t1⟩: a begin event and one or more end events,
 * on the same thread.  The built-in rule is
 *
 *   transaction = sdt_postgresql:transaction__start
 *                 → sdt_postgresql:transaction__commit | …__abort
 *
 * (an aborted transaction is still an instance: the user waited for it).
 * A rule set is not locked: fill it, then share it read-only (the loader
 * applies it from a worker thread).
 */

#define WS_SCENARIO_RULES_MAX_ENDS 8

#define WS_TYPE_SCENARIO_RULES (ws_scenario_rules_get_type ())
G_DECLARE_FINAL_TYPE (WsScenarioRules, ws_scenario_rules, WS, SCENARIO_RULES, GObject)

WsScenarioRules    *ws_scenario_rules_new             (void);
WsScenarioRules    *ws_scenario_rules_new_default     (void);
gboolean            ws_scenario_rules_add             (WsScenarioRules    *self,
                                                       const char         *name,
                                                       const char         *begin,
                                                       const char * const *ends,
                                                       GError            **error);
gboolean            ws_scenario_rules_add_from_string (WsScenarioRules    *self,
                                                       const char         *spec,
                                                       GError            **error);
gboolean            ws_scenario_rules_load_key_file   (WsScenarioRules    *self,
                                                       GKeyFile           *key_file,
                                                       GError            **error);
gboolean            ws_scenario_rules_load_file       (WsScenarioRules    *self,
                                                       const char         *path,
                                                       GError            **error);
guint               ws_scenario_rules_get_n_rules     (WsScenarioRules    *self);
const char         *ws_scenario_rules_get_name        (WsScenarioRules    *self,
                                                       guint               index);
const char         *ws_scenario_rules_get_begin       (WsScenarioRules    *self,
                                                       guint               index);
const char * const *ws_scenario_rules_get_ends        (WsScenarioRules    *self,
                                                       guint               index);
char               *ws_scenario_rules_to_string       (WsScenarioRules    *self,
                                                       guint               index);
guint               ws_scenario_rules_apply           (WsScenarioRules    *self,
                                                       WsTrace            *trace);

G_END_DECLS
