/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * WsPinKindInfo:
 * @name: the stable name stored in session files ("ready-tree")
 * @label: a translatable label for people ("Ready tree"), untranslated here
 * @needs_thread: whether a pin of this kind must name a thread
 * @multi_trace: whether it may span several traces (mining views)
 *
 * One kind of view that can be pinned.  The built-in kinds are the views
 * that exist; a new page registers its own kind with
 * ws_pin_kind_register() so its pins survive in session files even
 * before the report knows how to draw them.
 */
typedef struct {
  const char *name;
  const char *label;
  gboolean    needs_thread;
  gboolean    multi_trace;
} WsPinKindInfo;

#define WS_PIN_KIND_TIMELINE      "timeline"
#define WS_PIN_KIND_WAIT_GRAPH    "wait-graph"
#define WS_PIN_KIND_READY_TREE    "ready-tree"
#define WS_PIN_KIND_CRITICAL_PATH "critical-path"
#define WS_PIN_KIND_ALIGNMENT     "alignment"
#define WS_PIN_KIND_COVERAGE      "coverage"
#define WS_PIN_KIND_ANOMALY_MODEL "anomaly-model"
#define WS_PIN_KIND_ATTRIBUTION   "attribution"
#define WS_PIN_KIND_CONTRAST      "contrast"
#define WS_PIN_KIND_AWG           "awg"
#define WS_PIN_KIND_FLAME         "flame-graph"

void                     ws_pin_kind_register (const WsPinKindInfo *info);
const WsPinKindInfo *ws_pin_kind_lookup   (const char              *name);
/* Returns: (transfer container): the registered names, built-ins first. */
GPtrArray               *ws_pin_kind_list     (void);

G_END_DECLS
