/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-trace-classes.h"

G_BEGIN_DECLS

/*
 * WsRunClasses: the one home, in a window, of which traces are slow runs
 * and which fast.  The window's session owns it (ws_session_get_run_classes());
 * the Mining page ranks a fleet by it and the Contrast page contrasts by
 * it, so a trace marked once, or a classes file loaded once, serves both.
 *
 * A class is kept per trace file (its canonical path), whether the trace
 * is open as a document or is one of a fleet's digest; a classes file's
 * names also match a trace of the same base name elsewhere (a digest
 * merged on another machine names its traces as they were given there).
 * Only classes the user gave are kept: a trace never marked is in no
 * class (%WS_RUN_CLASS_NONE), and the Contrast page's own default (the
 * first trace fast, the others slow) stays the page's.
 */
#define WS_TYPE_RUN_CLASSES (ws_run_classes_get_type ())
G_DECLARE_FINAL_TYPE (WsRunClasses, ws_run_classes, WS, RUN_CLASSES, GObject)

WsRunClasses *ws_run_classes_new        (void);
WsRunClass    ws_run_classes_lookup     (WsRunClasses       *self,
                                         const char         *path);
gboolean      ws_run_classes_lookup_given (WsRunClasses     *self,
                                           const char       *path,
                                           WsRunClass       *klass);
void          ws_run_classes_set_many   (WsRunClasses       *self,
                                         const char * const *paths,
                                         const WsRunClass   *classes,
                                         guint               n);
gboolean      ws_run_classes_load_csv   (WsRunClasses       *self,
                                         const char         *file,
                                         GError            **error);
void          ws_run_classes_clear      (WsRunClasses       *self);
const char   *ws_run_classes_get_file   (WsRunClasses       *self);
GArray       *ws_run_classes_dup_for    (WsRunClasses       *self,
                                         const char * const *paths,
                                         guint               n,
                                         guint              *n_slow,
                                         guint              *n_fast);

G_END_DECLS
