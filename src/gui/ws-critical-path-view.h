/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-critical-path-renderer.h"

G_BEGIN_DECLS

/*
 * WsCriticalPathView: draws a #WsCriticalPath with
 * #WsCriticalPathRenderer, as tall as its lanes need (put it in a
 * vertically scrolling #GtkScrolledWindow), and lets the user zoom into
 * time and pick segments.
 *
 * Mouse: a click selects the segment under the pointer (or nothing), a
 * double click activates it; Ctrl+wheel or pinch zooms time about the
 * pointer, Shift+wheel, horizontal scrolling or a drag pans time; the
 * plain wheel scrolls the lanes.  Keyboard (the view is focusable): Left /
 * Right select the previous / next segment along the path, Home / End the
 * first / last; + and − zoom, 0 or F shows the whole window;
 * Ctrl+Left / Right pan; Enter activates.
 */
#define WS_TYPE_CRITICAL_PATH_VIEW (ws_critical_path_view_get_type ())
G_DECLARE_FINAL_TYPE (WsCriticalPathView, ws_critical_path_view, WS, CRITICAL_PATH_VIEW, GtkWidget)

GtkWidget              *ws_critical_path_view_new                  (void);
void                    ws_critical_path_view_set_path             (WsCriticalPathView *self,
                                                                    WsCriticalPath     *path);
WsCriticalPath         *ws_critical_path_view_get_path             (WsCriticalPathView *self);
WsCriticalPathRenderer *ws_critical_path_view_get_renderer         (WsCriticalPathView *self);

void                    ws_critical_path_view_set_selected_segment (WsCriticalPathView *self,
                                                                    guint               segment);
guint                   ws_critical_path_view_get_selected_segment (WsCriticalPathView *self);
void                    ws_critical_path_view_set_matches          (WsCriticalPathView *self,
                                                                    GArray             *matches);

void                    ws_critical_path_view_zoom                 (WsCriticalPathView *self,
                                                                    double              factor);
double                  ws_critical_path_view_get_zoom             (WsCriticalPathView *self);
void                    ws_critical_path_view_fit                  (WsCriticalPathView *self);
void                    ws_critical_path_view_reveal_segment       (WsCriticalPathView *self,
                                                                    guint               segment);
guint                   ws_critical_path_view_segment_at           (WsCriticalPathView *self,
                                                                    double              x,
                                                                    double              y);
char                   *ws_critical_path_view_dup_segment_text     (WsCriticalPathView *self,
                                                                    guint               segment);

G_END_DECLS
