/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-run-classes.h"

G_BEGIN_DECLS

/*
 * WsRunClassChips: a chip per trace (its name and a drop-down: fast,
 * slow, left out) over the session's #WsRunClasses, with "Load Classes
 * File…" (the CSV `--classes` reads) and "Clear".  The Mining page and the
 * Contrast page each show one; both write to the same classes, so a trace
 * marked in one is marked in the other.
 *
 * A page that contrasts needs two classes before the user says anything:
 * with first-fast, a trace never marked shows as fast if it is the first,
 * else slow, and changing any chip gives every trace the class it shows.
 */
#define WS_TYPE_RUN_CLASS_CHIPS (ws_run_class_chips_get_type ())
G_DECLARE_FINAL_TYPE (WsRunClassChips, ws_run_class_chips, WS, RUN_CLASS_CHIPS, GtkWidget)

GtkWidget *ws_run_class_chips_new         (void);
void       ws_run_class_chips_set_classes (WsRunClassChips    *self,
                                           WsRunClasses       *classes);
void       ws_run_class_chips_set_traces  (WsRunClassChips    *self,
                                           const char * const *paths,
                                           const char * const *names,
                                           guint               n);
void       ws_run_class_chips_set_first_fast (WsRunClassChips *self,
                                              gboolean         first_fast);
WsRunClass ws_run_class_chips_get_shown   (WsRunClassChips    *self,
                                           guint               index);
gboolean   ws_run_class_chips_load_file   (WsRunClassChips    *self,
                                           const char         *file);

G_END_DECLS
