/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-frame-classifier.h"
#include "ws-instance-set.h"
#include "ws-progress.h"

G_BEGIN_DECLS

/**
 * WsImpact:
 * @component: the component regex
 * @n_instances: scenario instances measured
 * @d_scn: D_scn, Σ of the durations of each wait graph's top-level events
 *   (the instance thread's own running and waiting events in its window)
 * @d_wait: D_wait, Σ of the top-level waits of the component: breadth-first
 *   from the top level, a wait holding a component frame is counted and its
 *   children are not looked at (their time is inside it)
 * @d_run: D_run, Σ of the running events holding a component frame,
 *   anywhere in the wait graphs (overlaps @d_wait, as in the paper)
 * @d_waitdist: D_waitdist, @d_wait with each distinct wait event counted
 *   once however many instances' graphs it lies in
 * @n_waits: top-level component waits counted in @d_wait
 * @n_distinct_waits: distinct ones among them
 * @ia_run: IA_run = D_run / D_scn
 * @ia_wait: IA_wait = D_wait / D_scn
 * @ia_opt: IA_opt = (D_wait − D_waitdist) / D_scn
 * @wait_ratio: D_wait / D_waitdist (0 when D_waitdist is 0)
 *
 * The impact analysis of §3 for one component.  A wait or running event
 * *holds* a component when a frame of its stack matches the component's
 * regex (the same test as Algorithm 1's line 6).
 */
typedef struct {
  char   *component;
  guint   n_instances;
  WsTime  d_scn;
  WsTime  d_wait;
  WsTime  d_run;
  WsTime  d_waitdist;
  guint   n_waits;
  guint   n_distinct_waits;
  double  ia_run;
  double  ia_wait;
  double  ia_opt;
  double  wait_ratio;
} WsImpact;

/**
 * WsImpactSettings:
 * @components: %NULL-terminated component regexes, one table row each
 * @classifier: (nullable): for the wait graphs; %NULL = default
 */
typedef struct {
  const char * const *components;
  WsFrameClassifier  *classifier;
} WsImpactSettings;

/*
 * ws_impact_run:
 *
 * Builds every instance's wait graph once and measures each component on it.
 *
 * Returns: (transfer full) (element-type WsImpact): one #WsImpact per
 *   component, in order (free with g_array_unref: the component strings go
 *   with it), or %NULL with @error set (WS_ERROR_INVALID for a bad regex,
 *   WS_ERROR_CANCELLED)
 */
GArray *ws_impact_run (WsInstanceSet          *instances,
                       const WsImpactSettings *settings,
                       GCancellable           *cancellable,
                       WsProgressFunc          progress,
                       gpointer                progress_data,
                       GError                **error);

G_END_DECLS
