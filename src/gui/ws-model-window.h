/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ws-anomaly-detector.h"

G_BEGIN_DECLS

/*
 * WsModelWindow: the model view of one wait (the patent's Fig. 6): the
 * histogram of its signature's history, the fitted mixture and its
 * components, the threshold, and the wait marked; exported as PNG, SVG or
 * PDF through the render library.  A table below says the same in words
 * for screen readers.
 */
#define WS_TYPE_MODEL_WINDOW (ws_model_window_get_type ())
G_DECLARE_FINAL_TYPE (WsModelWindow, ws_model_window, WS, MODEL_WINDOW, AdwWindow)

WsModelWindow *ws_model_window_new (GtkWindow            *parent,
                                    WsAnomalyResult      *result,
                                    const WsWaitScore    *score,
                                    gint64                duration);

G_END_DECLS
