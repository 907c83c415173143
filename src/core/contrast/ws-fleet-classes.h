/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-instance-set.h"
#include "ws-trace-classes.h"

G_BEGIN_DECLS

/**
 * WsFleetClasses:
 * @fast: the instances of the fast traces
 * @slow: the instances of the slow traces
 * @all: the instances of every trace given (for the default component)
 * @program: (nullable): without a scenario, the program whose threads are
 *   the instances (the program of interest, as `why` picks it)
 * @t_fast: T_fast for ws_contrast_run()
 * @t_slow: T_slow for ws_contrast_run()
 *
 * A contrast of whole traces: each trace is a fast or a slow run (or left
 * out), its instances are its scenario instances, or without a scenario
 * each thread of the program of interest from its first to its last event.
 * What `waitscope-cli contrast --slow/--fast/--classes` and the Contrast
 * page's "Open traces, slow against fast" both run.
 */
typedef struct {
  WsInstanceSet *fast;
  WsInstanceSet *slow;
  WsInstanceSet *all;
  char          *program;
  WsTime         t_fast;
  WsTime         t_slow;
} WsFleetClasses;

/* Adds the instances of trace @index: of @scenario, or without one each
 * thread of @program. */
typedef gboolean (*WsFleetAddFunc) (WsInstanceSet *set,
                                    guint          index,
                                    const char    *scenario,
                                    const char    *program,
                                    gpointer       data,
                                    GError       **error);

gboolean ws_fleet_classes_build_with (WsFleetClasses    *out,
                                      guint              n_traces,
                                      const WsRunClass  *classes,
                                      GArray            *entries,
                                      const char        *scenario,
                                      char              *program,
                                      WsFleetAddFunc     add,
                                      gpointer           data,
                                      GError           **error);
gboolean ws_fleet_classes_build (WsFleetClasses    *out,
                                 GPtrArray         *traces,
                                 const WsRunClass  *classes,
                                 GArray            *entries,
                                 const char        *scenario,
                                 GError           **error);
void     ws_fleet_classes_clear (WsFleetClasses    *classes);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WsFleetClasses, ws_fleet_classes_clear)

G_END_DECLS
