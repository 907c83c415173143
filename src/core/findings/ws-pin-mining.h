/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-mining-run.h"
#include "ws-pin.h"

G_BEGIN_DECLS

/**
 * WsPinMining:
 * @settings: the mining run a pin records, ready for ws_mining_run()
 *
 * A mining pin's settings read back; its strings are owned by it (free
 * with ws_pin_mining_clear()).
 */
typedef struct {
  WsMiningSettings settings;
  /*< private >*/
  char *must[2];
  char *must_not[2];
  char *threads;
  GArray *classes;
} WsPinMining;

void      ws_pin_set_mining        (WsPin                  *pin,
                                    const WsMiningSettings *settings,
                                    WsMiningResult         *run);
gboolean  ws_pin_get_mining        (WsPin                  *pin,
                                    GPtrArray              *traces,
                                    WsPinMining            *out,
                                    GError                **error);
void      ws_pin_mining_clear      (WsPinMining            *mining);
gboolean  ws_pin_mining_check      (WsPin                  *pin,
                                    GError                **error);
GArray   *ws_pin_dup_run_classes   (WsPin                  *pin,
                                    GError                **error);
void      ws_pin_set_cluster       (WsPin                  *pin,
                                    WsMiningResult         *run,
                                    guint                   cluster);
guint     ws_pin_find_cluster      (WsPin                  *pin,
                                    WsMiningResult         *run);
char     *ws_mining_cluster_signature (WsMiningResult      *run,
                                    guint                   cluster);
void      ws_pin_add_signature     (WsPin                  *pin,
                                    const char             *name,
                                    WsStackTable           *table,
                                    const WsFrameId        *frames,
                                    guint                   n_frames);
void      ws_pin_add_signature_keys (WsPin                 *pin,
                                    const char             *name,
                                    const char * const     *keys);
GStrv     ws_pin_get_signature_keys (WsPin                 *pin,
                                    guint                   i,
                                    const char            **name);
guint     ws_pin_get_n_signatures  (WsPin                  *pin);
WsCoverage *ws_pin_get_coverage    (WsPin                  *pin,
                                    WsMiningResult         *run,
                                    guint                  *n_missing);

G_END_DECLS
