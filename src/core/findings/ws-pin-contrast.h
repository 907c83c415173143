/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-contrast.h"
#include "ws-pin.h"

G_BEGIN_DECLS

/**
 * WsPinContrast:
 * @settings: the contrast run a pin records, ready for ws_contrast_run()
 *   (its instances are @instances)
 * @scenario: the scenario whose instances were classified
 *
 * A Contrast pin's settings read back; free with ws_pin_contrast_clear().
 */
typedef struct {
  WsContrastSettings settings;
  char              *scenario;
  /*< private >*/
  char              *component;
  WsInstanceSet     *instances;
} WsPinContrast;

void      ws_pin_set_contrast          (WsPin                    *pin,
                                        const char               *scenario,
                                        const WsContrastSettings *settings,
                                        WsContrastResult         *result);
gboolean  ws_pin_get_contrast          (WsPin               *pin,
                                        GPtrArray           *traces,
                                        WsPinContrast       *out,
                                        GError             **error);
void      ws_pin_contrast_clear        (WsPinContrast       *contrast);
void      ws_pin_set_contrast_pattern  (WsPin               *pin,
                                        WsContrastResult    *result,
                                        guint                rank);
guint     ws_pin_find_contrast_pattern (WsPin               *pin,
                                        WsContrastResult    *result);
gboolean  ws_pin_get_awg_slow          (WsPin               *pin);

G_END_DECLS
