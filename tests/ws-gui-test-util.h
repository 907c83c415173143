/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-application.h"
#include "ws-document.h"
#include "ws-graph-page.h"
#include "ws-mining-page.h"
#include "ws-trace.h"
#include "ws-window.h"

G_BEGIN_DECLS

/*
 * What the GUI tests share: opening a window and a trace, waiting for a
 * condition with a time limit (never for a fixed time: on a loaded
 * machine any fixed time is too short, and a wait names what it waited
 * for when it fails), rendering the window once its first frame exists,
 * counting pixels, and emulating key presses and clicks through a
 * widget's own controllers.
 */

typedef gboolean (*WsGuiTestCondition) (gpointer data);
typedef gboolean (*WsGuiTestPixel) (const guchar *bgra,
                                    gpointer      data);

WsApplication *ws_gui_test_init           (int                 *argc,
                                           char              ***argv);
void           ws_gui_test_wait_until     (WsGuiTestCondition   condition,
                                           gpointer             data,
                                           guint                seconds,
                                           const char          *what);
void           ws_gui_test_wait_for_flag  (gboolean            *flag,
                                           guint                seconds,
                                           const char          *what);
void           ws_gui_test_flag_cb        (gpointer             instance,
                                           gboolean            *flag);
void           ws_gui_test_settle         (GtkWidget           *widget);
void           ws_gui_test_wait_mapped    (GtkWidget           *widget,
                                           const char          *what);
void           ws_gui_test_close_window   (GtkWidget           *window);
WsWindow      *ws_gui_test_new_window     (WsApplication       *app,
                                           int                  width,
                                           int                  height);
WsWindow      *ws_gui_test_new_mining_window (WsApplication    *app,
                                              const char       *history,
                                              gint64            lambda,
                                              double            threshold);
WsDocument    *ws_gui_test_open_trace     (WsWindow            *window,
                                           const char          *name);
GdkTexture    *ws_gui_test_render         (GtkWidget           *window);
GdkTexture    *ws_gui_test_screenshot_now (GtkWidget           *window,
                                           const char          *name);
GdkTexture    *ws_gui_test_screenshot     (GtkWidget           *window,
                                           const char          *name);
guint          ws_gui_test_count_pixels   (GtkWidget           *window,
                                           GdkTexture          *texture,
                                           GtkWidget           *widget,
                                           WsGuiTestPixel       test,
                                           gpointer             data);
guint          ws_gui_test_count_colour   (GtkWidget           *window,
                                           GdkTexture          *texture,
                                           GtkWidget           *widget,
                                           guint32              rgb,
                                           int                  tolerance);
gboolean       ws_gui_test_press_key_in   (GtkWidget           *widget,
                                           guint                keyval,
                                           GdkModifierType      state);
gboolean       ws_gui_test_press_shortcut_in (GtkWidget        *widget,
                                              guint             keyval,
                                              GdkModifierType   state);
void           ws_gui_test_click_at       (GtkWidget           *widget,
                                           double               x,
                                           double               y);
gboolean       ws_gui_test_real_click     (GtkWidget           *widget,
                                           double               x,
                                           double               y,
                                           guint                n_press);
gboolean       ws_gui_test_real_type      (GtkWidget           *widget,
                                           const char          *text);
GtkWidget     *ws_gui_test_find_child     (GtkWidget           *root,
                                           GType                type);
GtkWindow     *ws_gui_test_find_toplevel  (GType                type);
GtkWidget     *ws_gui_test_find_named     (GtkWidget           *root,
                                           const char          *name);
GtkWidget     *ws_gui_test_find_label_containing (GtkWidget    *root,
                                                  const char   *needle);
GtkFileChooser *ws_gui_test_wait_for_chooser (const char          *title);
char          *ws_gui_test_take_message   (const char          *needle,
                                           guint                seconds,
                                           const char          *what);
char          *ws_gui_test_data_path      (const char          *name);
void           ws_gui_test_resize_and_wait (WsWindow           *window,
                                            int                 width,
                                            int                 height);
guint          ws_gui_test_find_thread    (WsTrace             *trace,
                                           const char          *name);
gboolean       ws_gui_test_stack_has      (WsTrace             *trace,
                                           WsStackId            stack,
                                           const char          *needle);

/* A graph page as a user sees it: its model (ws_graph_page_get_shown()),
 * its properties and its widgets, not getters written for tests. */
gboolean       ws_gui_test_graph_busy             (WsGraphPage         *page);
WsGraphMode    ws_gui_test_graph_mode             (WsGraphPage         *page);
guint          ws_gui_test_graph_n_matches        (WsGraphPage         *page);
const char    *ws_gui_test_graph_match_status     (WsGraphPage         *page);
guint          ws_gui_test_graph_selected_segment (WsGraphPage         *page);

/* The same for the Mining page: its properties and its signature panel. */
gboolean       ws_gui_test_mining_busy            (WsMiningPage        *page);
gboolean       ws_gui_test_mining_coverage_busy   (WsMiningPage        *page);
const char    *ws_gui_test_mining_status          (WsMiningPage        *page);
WsClusterSet  *ws_gui_test_mining_cluster_set     (WsMiningPage        *page);
guint          ws_gui_test_mining_n_signatures    (WsMiningPage        *page);

G_END_DECLS
