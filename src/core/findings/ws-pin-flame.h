/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-flame-run.h"
#include "ws-pin.h"

G_BEGIN_DECLS

/**
 * WsPinFlame:
 * @mode: on-CPU, off-CPU or off-wake
 * @scope: the whole trace, the pin's window, or its thread over the window
 * @zoom: (nullable) (array zero-terminated=1): the zoomed frame as its
 *   path of names from the root's child down; %NULL: the whole graph
 * @search: (nullable): the search (a regular expression)
 * @icicle: root at the top
 *
 * What a flame pin records besides its traces (the first is folded, a
 * second is the differential's base) and its thread and window.  Free
 * with ws_pin_flame_clear().
 */
typedef struct {
  WsFlameMode   mode;
  WsFlameScope  scope;
  char        **zoom;
  char         *search;
  gboolean      icicle;
} WsPinFlame;

const char *ws_flame_scope_to_string (WsFlameScope scope);
gboolean  ws_flame_scope_from_string (const char  *name,
                                      WsFlameScope *scope);
gboolean  ws_flame_mode_from_string  (const char  *name,
                                      WsFlameMode *mode);

void      ws_pin_set_flame       (WsPin             *pin,
                                  const WsPinFlame  *flame);
gboolean  ws_pin_get_flame       (WsPin             *pin,
                                  WsPinFlame        *out,
                                  GError           **error);
gboolean  ws_pin_flame_check     (WsPin             *pin,
                                  GError           **error);
void      ws_pin_flame_clear     (WsPinFlame        *flame);
gboolean  ws_pin_flame_settings  (WsPin             *pin,
                                  const WsPinFlame  *flame,
                                  WsTrace           *trace,
                                  WsFlameSettings   *settings,
                                  guint             *thread,
                                  GError           **error);
char    **ws_flame_tree_dup_path (WsFlameTree       *tree,
                                  guint              node);
guint     ws_flame_tree_find_zoom (WsFlameTree      *tree,
                                   char * const     *zoom);

G_END_DECLS
