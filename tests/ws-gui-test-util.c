/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <unistd.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "ws-gui-test-util.h"
#include "ws-mining-form.h"
#include "ws-signature-panel.h"

/* GTK, libadwaita and one registered application for the whole program
 * (its id can be registered once).  Without a display there is no GUI
 * test: meson counts exit status 77 as skipped. */
static gboolean
toolkit_domain (const char *domain)
{
  static const char *const domains[] = {
    "Gtk", "Gdk", "Gsk", "Adwaita", "GLib", "GLib-GObject", "GLib-GIO", "Pango", "GdkPixbuf",
  };

  for (guint i = 0; domain != NULL && i < G_N_ELEMENTS (domains); i++)
    if (strcmp (domain, domains[i]) == 0)
      return TRUE;
  return FALSE;
}

/* A warning or critical from the toolkit fails the test, whatever the
 * always-fatal mask says (structured messages from GTK do not all go
 * through it): a test that prints "GtkLabel … reported min width -3" is a
 * failing test, not a noisy one. */
static GLogWriterOutput
fail_on_toolkit_warnings (GLogLevelFlags   level,
                          const GLogField *fields,
                          gsize            n_fields,
                          gpointer         data)
{
  const char *domain = NULL;

  for (gsize i = 0; i < n_fields; i++)
    if (strcmp (fields[i].key, "GLIB_DOMAIN") == 0)
      domain = fields[i].value;
  g_log_writer_default (level, fields, n_fields, data);
  if ((level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING)) != 0 && toolkit_domain (domain))
    {
      g_printerr ("a GUI test must not make %s warnings (above); failing\n", domain);
      abort ();
    }
  return G_LOG_WRITER_HANDLED;
}

static char *own_history_dir;

static void
remove_own_history (void)
{
  static const char *const names[] = { "history.sqlite", "history.sqlite-wal", "history.sqlite-shm" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (own_history_dir, names[i], NULL);
      g_unlink (path);
    }
  g_rmdir (own_history_dir);
}

/* Each GUI test process records into a history store of its own.  With
 * the suite's shared store, what one test recorded changed what another
 * saw: pg-tpcb judged against the two PostgreSQL contrast runs that an
 * earlier test had recorded has no anomalous wait, and the Overview test
 * waited for one until it timed out.  A test that wants a particular
 * store still sets WAITSCOPE_HISTORY itself. */
static void
use_own_history (void)
{
  const char *set = g_getenv ("WAITSCOPE_HISTORY");
  g_autofree char *path = NULL;

  if (set != NULL && !g_str_has_suffix (set, G_DIR_SEPARATOR_S "history-test.sqlite"))
    return;   /* the test's own, set before */
  own_history_dir = g_dir_make_tmp ("ws-gui-history-XXXXXX", NULL);
  if (own_history_dir == NULL)
    return;
  path = g_build_filename (own_history_dir, "history.sqlite", NULL);
  g_setenv ("WAITSCOPE_HISTORY", path, TRUE);
  atexit (remove_own_history);
}

/* What the test waits for now (ws_gui_test_wait_until()), for the report
 * below: NULL outside a wait. */
static const char *volatile waiting_for;
static volatile gint64 waiting_since;

static void
say (const char *text)
{
  if (write (STDERR_FILENO, text, strlen (text)) < 0)
    return;
}

/* Killed by meson's timeout (SIGTERM, then SIGKILL half a second later):
 * says what the test was waiting for, or that it was in no wait — the
 * main thread stuck in a call, whose stack follows — so that a hang seen
 * once in CI names its place.  Only writes and a backtrace: no GLib. */
static void
report_timeout (int signum)
{
  void *frames[64];
  const char *what = waiting_for;
  char seconds[32];
  gint64 since = waiting_since;
  int n;

  say ("\n# killed by a timeout ");
  if (what != NULL)
    {
      gint64 s = (g_get_monotonic_time () - since) / G_USEC_PER_SEC;
      char digits[24];
      int len = 0;

      do
        digits[len++] = '0' + s % 10;
      while ((s /= 10) > 0 && len < (int) sizeof digits);
      for (int i = 0; i < len; i++)
        seconds[i] = digits[len - 1 - i];
      seconds[len] = '\0';
      say ("while waiting for ");
      say (what);
      say (" (for ");
      say (seconds);
      say (" s)");
    }
  else
    say ("outside any wait: the test's own thread was busy or blocked");
  say ("; the stack of the thread that took the signal:\n");
  n = backtrace (frames, G_N_ELEMENTS (frames));
  backtrace_symbols_fd (frames, n, STDERR_FILENO);
  signal (signum, SIG_DFL);
  raise (signum);
}

WsApplication *
ws_gui_test_init (int    *argc,
                  char ***argv)
{
  g_autoptr(GError) error = NULL;
  WsApplication *app;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display (run the suite under xvfb-run)\n");
      exit (77);
    }
  g_log_set_writer_func (fail_on_toolkit_warnings, NULL, NULL);
  use_own_history ();
  {
    void *frames[1];

    backtrace (frames, 1);   /* loads libgcc's unwinder now, not in the handler */
    signal (SIGTERM, report_timeout);
  }

  gtk_test_init (argc, argv, NULL);
  adw_init ();

  app = ws_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("could not register the application: %s", error->message);
  return app;
}

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
poll_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until @condition holds, or fails after @seconds
 * naming @what.  The condition is checked after every event and at least
 * every 50 ms (some change with no event of their own: a widget's first
 * render node). */
void
ws_gui_test_wait_until (WsGuiTestCondition  condition,
                        gpointer            data,
                        guint               seconds,
                        const char         *what)
{
  gboolean expired = FALSE;
  guint id = g_timeout_add_seconds (seconds, timeout_cb, &expired);
  guint poll = g_timeout_add (50, poll_cb, NULL);
  const char *outer = waiting_for;
  gint64 outer_since = waiting_since;

  waiting_since = g_get_monotonic_time ();
  waiting_for = what;
  while (!condition (data) && !expired)
    g_main_context_iteration (NULL, TRUE);
  waiting_for = outer;
  waiting_since = outer_since;
  g_source_remove (poll);
  if (expired)
    g_error ("timed out after %u s waiting for %s", seconds, what);
  g_source_remove (id);
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

void
ws_gui_test_wait_for_flag (gboolean   *flag,
                           guint       seconds,
                           const char *what)
{
  ws_gui_test_wait_until (flag_set, flag, seconds, what);
}

/* For signals without arguments: sets the flag it was connected with. */
void
ws_gui_test_flag_cb (gpointer  instance,
                     gboolean *flag)
{
  *flag = TRUE;
}

static gboolean
widget_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0
         && gtk_widget_get_height (widget) > 0;
}

/* Waits until @widget is on screen with a size. */
void
ws_gui_test_wait_mapped (GtkWidget  *widget,
                         const char *what)
{
  ws_gui_test_wait_until (widget_mapped, widget, 60, what);
}

static gboolean
main_loop_idle (gpointer data)
{
  return !g_main_context_pending (NULL);
}

/* Waits until what the test changed has reached the window holding
 * @widget: the main loop has run out of ready work (idle handlers, queued
 * events, finished jobs' callbacks) and the window is laid out again.
 * This is what a test that waited "a little while" for the screen to
 * catch up really waits for.
 *
 * The layout is done here rather than waited for on the frame clock:
 * under Xvfb with no window manager a window's frame clock may stop
 * ticking while it is mapped (seen on message dialogs, the shortcuts
 * window and, after some resizes, the main window), and no wait on it
 * would end.  Allocating the window at its surface's size is what the
 * clock's layout phase does. */
void
ws_gui_test_settle (GtkWidget *widget)
{
  GtkWidget *native = GTK_WIDGET (gtk_widget_get_native (widget));

  g_assert_nonnull (native);
  ws_gui_test_wait_mapped (native, "the window to be on screen");
  ws_gui_test_wait_until (main_loop_idle, NULL, 60, "the main loop to run out of ready work");
  {
    GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (native));

    gtk_widget_allocate (native, gdk_surface_get_width (surface), gdk_surface_get_height (surface), -1, NULL);
  }
}

static gboolean
pointer_cleared (gpointer data)
{
  return *(gpointer *) data == NULL;
}

/* Destroys @window and waits until it is finalized: its jobs are over
 * and what it writes on closing (history, autosave) is written before the
 * next test starts. */
void
ws_gui_test_close_window (GtkWidget *window)
{
  gpointer alive = window;

  g_object_add_weak_pointer (G_OBJECT (window), &alive);
  gtk_window_destroy (GTK_WINDOW (window));
  ws_gui_test_wait_until (pointer_cleared, &alive, 60, "the closed window to be finalized");
}

/* A new window of @width × @height (the default size for 0), presented and
 * on screen. */
WsWindow *
ws_gui_test_new_window (WsApplication *app,
                        int            width,
                        int            height)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (app));

  if (width > 0 && height > 0)
    gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  ws_gui_test_wait_mapped (GTK_WIDGET (window), "the new window to be on screen");
  return window;
}

static gboolean
document_loaded (gpointer document)
{
  return ws_document_get_state (document) != WS_DOCUMENT_LOADING;
}

/* Opens @name (a path under WS_TEST_DATA, or an absolute one) in @window
 * and waits for it to load; fails naming the file and the error if it does
 * not.  The one copy of the open-and-wait loop every GUI test needs. */
WsDocument *
ws_gui_test_open_trace (WsWindow   *window,
                        const char *name)
{
  g_autofree char *path = g_path_is_absolute (name) ? g_strdup (name)
                          : g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *what = g_strdup_printf ("%s to load", path);
  WsDocument *document = ws_window_open_file (window, file);

  if (document == NULL)
    g_error ("%s was not opened as a trace", path);
  ws_gui_test_wait_until (document_loaded, document, 120, what);
  if (ws_document_get_state (document) != WS_DOCUMENT_READY)
    g_error ("%s did not load: %s", path,
             ws_document_get_error (document) != NULL ? ws_document_get_error (document)->message : "no error given");
  return document;
}

typedef struct {
  GtkWidget     *window;
  GdkPaintable  *paintable;
  GskRenderNode *node;
  int            width, height;
} Render;

static gboolean
render_node_ready (gpointer data)
{
  Render *r = data;
  GtkSnapshot *snapshot;

  r->width = gtk_widget_get_width (r->window);
  r->height = gtk_widget_get_height (r->window);
  if (!gtk_widget_get_mapped (r->window) || r->width <= 0 || r->height <= 0)
    return FALSE;
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (r->paintable, snapshot, r->width, r->height);
  r->node = gtk_snapshot_free_to_node (snapshot);
  return r->node != NULL;
}

/* The window as it is on screen.  On a loaded machine it may not be
 * mapped and drawn yet (an unmapped or unallocated widget snapshots to no
 * node at all): wait for a painted frame and for a node. */
GdkTexture *
ws_gui_test_render (GtkWidget *window)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  Render r = { window, paintable, NULL, 0, 0 };
  GdkTexture *texture;

  ws_gui_test_settle (window);
  ws_gui_test_wait_until (render_node_ready, &r, 60, "the window to have something to render");
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (window)), r.node,
                                         &GRAPHENE_RECT_INIT (0, 0, r.width, r.height));
  gsk_render_node_unref (r.node);
  return texture;
}

/* Renders the window now and saves it as @name in WS_SCREENSHOT_DIR, if
 * set. */
GdkTexture *
ws_gui_test_screenshot_now (GtkWidget  *window,
                            const char *name)
{
  const char *dir = g_getenv ("WS_SCREENSHOT_DIR");
  GdkTexture *texture = ws_gui_test_render (window);

  if (dir != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_mkdir_with_parents (dir, 0755);
      g_assert_true (gdk_texture_save_to_png (texture, path));
      g_test_message ("screenshot: %s", path);
    }
  return texture;
}

static gboolean
any_stack_in_transition (GtkWidget *widget)
{
  if (GTK_IS_STACK (widget) && gtk_stack_get_transition_running (GTK_STACK (widget)))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (any_stack_in_transition (child))
      return TRUE;
  return FALSE;
}

static gboolean
stacks_settled (gpointer window)
{
  return !any_stack_in_transition (window);
}

GdkTexture *
ws_gui_test_screenshot (GtkWidget  *window,
                        const char *name)
{
  /* A stack's crossfade (the loading page giving way to the document)
   * half done is not what the user ends up seeing; the render waits for
   * the last changes to be painted. */
  ws_gui_test_wait_until (stacks_settled, window, 60, "stack transitions to finish");
  return ws_gui_test_screenshot_now (window, name);
}

/* Pixels of @texture (a render of @window) inside @widget's bounds for
 * which @test holds. */
guint
ws_gui_test_count_pixels (GtkWidget      *window,
                          GdkTexture     *texture,
                          GtkWidget      *widget,
                          WsGuiTestPixel  test,
                          gpointer        data)
{
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  g_autofree guchar *pixels = g_malloc ((gsize) w * h * 4);
  graphene_rect_t b;
  guint n = 0;

  gdk_texture_download (texture, pixels, w * 4);
  g_assert_true (gtk_widget_compute_bounds (widget, window, &b));
  for (int y = MAX ((int) b.origin.y, 0); y < MIN ((int) (b.origin.y + b.size.height), h); y++)
    for (int x = MAX ((int) b.origin.x, 0); x < MIN ((int) (b.origin.x + b.size.width), w); x++)
      if (test (pixels + (gsize) y * w * 4 + x * 4, data))
        n++;
  return n;
}

typedef struct {
  guint32 rgb;
  int     tolerance;
} Colour;

static gboolean
near_colour (const guchar *p,   /* B G R A */
             gpointer      data)
{
  const Colour *c = data;

  return ABS (p[2] - (int) ((c->rgb >> 16) & 0xff)) <= c->tolerance &&
         ABS (p[1] - (int) ((c->rgb >> 8) & 0xff)) <= c->tolerance &&
         ABS (p[0] - (int) (c->rgb & 0xff)) <= c->tolerance;
}

/* Pixels inside @widget within @tolerance of @rgb in every channel. */
guint
ws_gui_test_count_colour (GtkWidget  *window,
                          GdkTexture *texture,
                          GtkWidget  *widget,
                          guint32     rgb,
                          int         tolerance)
{
  Colour c = { rgb, tolerance };

  return ws_gui_test_count_pixels (window, texture, widget, near_colour, &c);
}

/* A key press as it reaches @widget: its key controllers in turn until
 * one handles it.  A search entry's own handler is the capture-phase one. */
gboolean
ws_gui_test_press_key_in (GtkWidget       *widget,
                          guint            keyval,
                          GdkModifierType  state)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (c) &&
          (gtk_event_controller_get_propagation_phase (c) == GTK_PHASE_CAPTURE || !GTK_IS_SEARCH_ENTRY (widget)))
        {
          g_signal_emit_by_name (c, "key-pressed", keyval, 0, state, &handled);
          if (handled)
            return TRUE;
        }
    }
  return FALSE;
}

/* A key press as @widget's shortcut controllers (its class's key
 * bindings) see it: the first shortcut whose trigger is exactly this key
 * and whose action runs handles it; otherwise its key controllers. */
gboolean
ws_gui_test_press_shortcut_in (GtkWidget       *widget,
                               guint            keyval,
                               GdkModifierType  state)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (c))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (c)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (c), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
              gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == state &&
              gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget,
                                            gtk_shortcut_get_arguments (shortcut)))
            return TRUE;
        }
    }
  return ws_gui_test_press_key_in (widget, keyval, state);
}

/* A click of the primary button at widget point (x, y): the widget's drag
 * gestures begin there, then its click gestures' press and release. */
void
ws_gui_test_click_at (GtkWidget *widget,
                      double     x,
                      double     y)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_DRAG (c))
        g_signal_emit_by_name (c, "drag-begin", x, y);
    }
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (c))
        {
          g_signal_emit_by_name (c, "pressed", 1, x, y);
          g_signal_emit_by_name (c, "released", 1, x, y);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Real input through the X server                                     */

#ifdef GDK_WINDOWING_X11
/* Xlib and XTEST looked up at run time: the tests link neither (libX11 is
 * loaded with GTK; libXtst is only the runtime library on Debian). */
typedef struct {
  int  (*warp_pointer)  (Display *, Window, Window, int, int, unsigned, unsigned, int, int);
  int  (*flush)         (Display *);
  int  (*sync)          (Display *, Bool);
  KeyCode (*keysym_to_keycode) (Display *, KeySym);
  int  (*fake_button)   (Display *, unsigned, Bool, unsigned long);
  int  (*fake_key)      (Display *, unsigned, Bool, unsigned long);
} XInput;

static const XInput *
x_input (GtkWidget *widget)
{
  static XInput x;
  static gsize done;

  if (!GDK_IS_X11_DISPLAY (gtk_widget_get_display (widget)))
    return NULL;
  if (g_once_init_enter (&done))
    {
      void *xlib = dlopen ("libX11.so.6", RTLD_NOW | RTLD_NOLOAD);
      void *xtst = dlopen ("libXtst.so.6", RTLD_NOW);

      if (xlib != NULL && xtst != NULL)
        {
          x.warp_pointer = dlsym (xlib, "XWarpPointer");
          x.flush = dlsym (xlib, "XFlush");
          x.sync = dlsym (xlib, "XSync");
          x.keysym_to_keycode = dlsym (xlib, "XKeysymToKeycode");
          x.fake_button = dlsym (xtst, "XTestFakeButtonEvent");
          x.fake_key = dlsym (xtst, "XTestFakeKeyEvent");
        }
      g_once_init_leave (&done, 1);
    }
  return x.fake_button != NULL && x.warp_pointer != NULL && x.fake_key != NULL ? &x : NULL;
}
#endif

/* Button and key releases the toolkit has been handed, counted by an
 * emission hook on every surface's "event" signal: what a test sending
 * real input waits for instead of a pause. */
static guint releases[2];

static gboolean
count_release (GSignalInvocationHint *hint,
               guint                  n_params,
               const GValue          *params,
               gpointer               data)
{
  GdkEvent *event = g_value_peek_pointer (&params[1]);
  GdkEventType type = gdk_event_get_event_type (event);

  if (type == GDK_BUTTON_RELEASE || type == GDK_KEY_RELEASE)
    releases[type == GDK_KEY_RELEASE]++;
  return TRUE;
}

static guint
n_released (GdkEventType type)
{
  static gsize hooked;

  if (g_once_init_enter (&hooked))
    {
      g_type_class_unref (g_type_class_ref (GDK_TYPE_SURFACE));
      g_signal_add_emission_hook (g_signal_lookup ("event", GDK_TYPE_SURFACE), 0, count_release, NULL, NULL);
      g_once_init_leave (&hooked, 1);
    }
  return releases[type == GDK_KEY_RELEASE];
}

typedef struct {
  GdkEventType type;
  guint        count;
} Released;

static gboolean
released_enough (gpointer data)
{
  Released *r = data;
  return n_released (r->type) >= r->count;
}

static void
wait_released (GdkEventType  type,
               guint         count,
               const char   *what)
{
  Released r = { type, count };

  ws_gui_test_wait_until (released_enough, &r, 60, what);
}

/* When the last real click ended, and whether the toolkit would take a
 * press now as part of it (within its double-click time). */
static gint64 last_click_us;

static gboolean
double_click_time_past (gpointer widget)
{
  int ms = 400;

  g_object_get (gtk_widget_get_settings (widget), "gtk-double-click-time", &ms, NULL);
  return g_get_monotonic_time () - last_click_us > (gint64) ms * 1000;
}

/* @n_press clicks of the primary button at @widget's point (x, y), sent
 * through the X server as a user's would be (XTEST): the toolkit's own
 * gestures see real events, with their timing (a double click is two
 * clicks within the double-click time).  Returns: FALSE when there is no
 * X display or no XTEST to send them with. */
gboolean
ws_gui_test_real_click (GtkWidget *widget,
                        double     x,
                        double     y,
                        guint      n_press)
{
#ifdef GDK_WINDOWING_X11
  const XInput *xi = x_input (widget);
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t at;
  double sx, sy;
  Display *dpy;

  if (xi == NULL || native == NULL
      || !gtk_widget_compute_point (widget, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (x, y), &at))
    return FALSE;
  dpy = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  gtk_native_get_surface_transform (native, &sx, &sy);
  xi->warp_pointer (dpy, None, gdk_x11_surface_get_xid (gtk_native_get_surface (native)), 0, 0, 0, 0,
                    (int) (at.x + sx), (int) (at.y + sy));
  xi->sync (dpy, False);
  /* A new click, not the next press of the last one's multi-click.  The
   * toolkit forgets a click when its own double-click timeout runs; the
   * time having passed is not enough: on a loaded machine that timeout
   * can still be waiting to be dispatched when the next press arrives,
   * and the two clicks make a double click.  So the sources already due
   * (that timeout among them) are dispatched before the press is sent. */
  ws_gui_test_wait_until (double_click_time_past, widget, 60, "the double-click time since the last click to pass");
  for (guint i = 0; i < 100 && g_main_context_pending (NULL); i++)
    g_main_context_iteration (NULL, FALSE);
  for (guint i = 0; i < n_press; i++)
    {
      guint released = n_released (GDK_BUTTON_RELEASE) + 1;

      xi->fake_button (dpy, 1, True, CurrentTime);
      xi->fake_button (dpy, 1, False, CurrentTime);
      xi->sync (dpy, False);
      wait_released (GDK_BUTTON_RELEASE, released, "the button release to reach the toolkit");
    }
  last_click_us = g_get_monotonic_time ();
  ws_gui_test_settle (widget);
  return TRUE;
#else
  return FALSE;
#endif
}

/* @text typed key by key through the X server (XTEST) into whatever has
 * the keyboard focus, as a user types: ASCII letters, digits and spaces. */
gboolean
ws_gui_test_real_type (GtkWidget  *widget,
                       const char *text)
{
#ifdef GDK_WINDOWING_X11
  const XInput *xi = x_input (widget);
  Display *dpy;

  if (xi == NULL)
    return FALSE;
  dpy = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  for (const char *p = text; *p; p++)
    {
      KeySym sym = *p == ' ' ? XK_space : *p == '\n' ? XK_Return : (KeySym) (guchar) *p;
      KeyCode code = xi->keysym_to_keycode (dpy, sym);

      if (code == 0)
        return FALSE;
      guint released = n_released (GDK_KEY_RELEASE) + 1;

      xi->fake_key (dpy, code, True, CurrentTime);
      xi->fake_key (dpy, code, False, CurrentTime);
      xi->sync (dpy, False);
      wait_released (GDK_KEY_RELEASE, released, "the key release to reach the toolkit");
    }
  ws_gui_test_settle (widget);
  return TRUE;
#else
  return FALSE;
#endif
}

/* The first widget of @type in @root's tree, depth first. */
GtkWidget *
ws_gui_test_find_child (GtkWidget *root,
                        GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = ws_gui_test_find_child (c, type);
      if (found)
        return found;
    }
  return NULL;
}

/* The first toplevel window of @type (a model view, Preferences…), or
 * NULL. */
GtkWindow *
ws_gui_test_find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* (transfer none) */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (w, type))
        return GTK_WINDOW (w);
    }
  return NULL;
}

/* The first mapped label under @root whose text holds @needle: what a
 * user reads on screen, wherever the page put it. */
GtkWidget *
ws_gui_test_find_label_containing (GtkWidget  *root,
                                   const char *needle)
{
  if (GTK_IS_LABEL (root) && gtk_widget_get_mapped (root)
      && strstr (gtk_label_get_text (GTK_LABEL (root)), needle) != NULL)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = ws_gui_test_find_label_containing (c, needle);
      if (found != NULL)
        return found;
    }
  return NULL;
}

typedef struct {
  const char *title;
  GtkWindow  *found;
} ChooserWait;

static gboolean
chooser_shown (gpointer data)
{
  ChooserWait *c = data;
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER (w) && g_strcmp0 (gtk_window_get_title (GTK_WINDOW (w)), c->title) == 0
          && gtk_widget_get_visible (GTK_WIDGET (w)))
        {
          c->found = GTK_WINDOW (w);
          return TRUE;
        }
    }
  return FALSE;
}

/* Waits for the file chooser titled @title to be shown (a native chooser
 * is a GtkFileChooserDialog under Xvfb) and returns it; answer it with
 * gtk_dialog_response(). */
GtkFileChooser *
ws_gui_test_wait_for_chooser (const char *title)
{
  ChooserWait c = { title, NULL };

  ws_gui_test_wait_until (chooser_shown, &c, 30, title);
  return GTK_FILE_CHOOSER (c.found);
}

typedef struct {
  const char *needle;
  char       *body;
} MessageWait;

static gboolean
message_shown (gpointer data)
{
  MessageWait *m = data;
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);
      const char *heading, *body;

      if (!ADW_IS_MESSAGE_DIALOG (w))
        continue;
      heading = adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (w));
      body = adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (w));
      if ((heading != NULL && strstr (heading, m->needle) != NULL) || (body != NULL && strstr (body, m->needle) != NULL))
        {
          m->body = g_strdup (body);
          g_test_message ("dialog: %s: %s", heading, body);
          gtk_window_destroy (GTK_WINDOW (w));
          return TRUE;
        }
    }
  return FALSE;
}

/* Waits for a message dialog whose heading or body holds @needle, closes
 * it, and returns its body (free it) for the test to read. */
char *
ws_gui_test_take_message (const char *needle,
                          guint       seconds,
                          const char *what)
{
  MessageWait m = { needle, NULL };

  ws_gui_test_wait_until (message_shown, &m, seconds, what);
  return m.body;
}

/* A 1280×720 window recording into the history store @history, whose
 * Mining page mines as the CLI does with --lambda @lambda and --threshold
 * @threshold and no other option: the settings a test might have changed
 * are reset, and the page's own filters are cleared. */
WsWindow *
ws_gui_test_new_mining_window (WsApplication *app,
                               const char    *history,
                               gint64         lambda,
                               double         threshold)
{
  GSettings *settings = ws_application_get_settings (app);
  const char *keys[] = { "mining-scope", "mining-stack-kind", "mining-must-match", "mining-must-not-match",
                         "mining-threads", "mining-threshold", "mining-rank", "mining-linkage" };
  WsWindow *window;
  WsMiningForm *form;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
  window = ws_gui_test_new_window (app, 1280, 720);
  ws_session_set_history_path (ws_window_get_session (window), history);
  form = WS_MINING_FORM (ws_gui_test_find_child (GTK_WIDGET (ws_window_get_mining_page (window)), WS_TYPE_MINING_FORM));
  ws_mining_form_set_filters (form, NULL, NULL);
  ws_mining_form_set_lambda (form, lambda);
  ws_mining_form_set_threshold (form, threshold);
  return window;
}

/* @name under WS_TEST_DATA (tests/data). */
char *
ws_gui_test_data_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
}

typedef struct {
  GtkWidget *window;
  int        width_before;
  gboolean   grow;
} Resized;

static gboolean
resized (gpointer data)
{
  Resized *r = data;
  int w = gtk_widget_get_width (r->window);

  return r->grow ? w > r->width_before : w < r->width_before;
}

/* Asks for @width × @height and waits for the window to change size that
 * way (Xvfb's screen may be smaller than asked: as large as it lets). */
void
ws_gui_test_resize_and_wait (WsWindow *window,
                             int       width,
                             int       height)
{
  Resized r = { GTK_WIDGET (window), gtk_widget_get_width (GTK_WIDGET (window)), FALSE };

  r.grow = width > r.width_before;
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  ws_gui_test_wait_until (resized, &r, 60, "the window to change size");
  ws_gui_test_settle (GTK_WIDGET (window));
}

/* The first widget named @name (gtk_widget_set_name(), "name" in a
 * template) under @root: for widgets whose type is not unique, such as
 * a page's search entry beside its drop-downs' own. */
GtkWidget *
ws_gui_test_find_named (GtkWidget  *root,
                        const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = ws_gui_test_find_named (c, name);
      if (found)
        return found;
    }
  return NULL;
}

guint
ws_gui_test_find_thread (WsTrace    *trace,
                         const char *name)
{
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    if (g_strcmp0 (ws_trace_get_thread (trace, t)->name, name) == 0)
      return t;
  return WS_NONE;
}

/* Whether a frame of @stack has @needle (lower case) in its function or
 * module name, ignoring case. */
gboolean
ws_gui_test_stack_has (WsTrace    *trace,
                       WsStackId   stack,
                       const char *needle)
{
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  const WsFrameId *frames;
  guint n;

  if (stack == WS_STACK_EMPTY)
    return FALSE;
  frames = ws_stack_table_get_stack (stacks, stack, &n);
  for (guint i = 0; i < n; i++)
    {
      const WsFrame *f = ws_stack_table_get_frame (stacks, frames[i]);
      g_autofree char *fn = g_ascii_strdown (f->function, -1);
      g_autofree char *mod = g_ascii_strdown (f->module ? f->module : "", -1);
      if (strstr (fn, needle) || strstr (mod, needle))
        return TRUE;
    }
  return FALSE;
}

gboolean
ws_gui_test_graph_busy (WsGraphPage *page)
{
  gboolean busy = FALSE;

  g_object_get (page, "busy", &busy, NULL);
  return busy;
}

WsGraphMode
ws_gui_test_graph_mode (WsGraphPage *page)
{
  int mode = WS_GRAPH_MODE_READY_TREE;

  g_object_get (page, "mode", &mode, NULL);
  return mode;
}

guint
ws_gui_test_graph_n_matches (WsGraphPage *page)
{
  const WsGraphShown *shown = ws_graph_page_get_shown (page);

  return shown->matches ? shown->matches->len : 0;
}

/* The "n of m" label beside the search entry. */
const char *
ws_gui_test_graph_match_status (WsGraphPage *page)
{
  GtkWidget *label = ws_gui_test_find_named (GTK_WIDGET (page), "graph-match-status");

  g_assert_true (GTK_IS_LABEL (label));
  return gtk_label_get_text (GTK_LABEL (label));
}

/* The segment selected in the critical path view, %WS_NONE when no path shows. */
guint
ws_gui_test_graph_selected_segment (WsGraphPage *page)
{
  GtkWidget *view = ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_CRITICAL_PATH_VIEW);

  g_assert_nonnull (view);
  if (ws_graph_page_get_shown (page)->path == NULL)
    return WS_NONE;
  return ws_critical_path_view_get_selected_segment (WS_CRITICAL_PATH_VIEW (view));
}

gboolean
ws_gui_test_mining_busy (WsMiningPage *page)
{
  gboolean busy = FALSE;

  g_object_get (page, "busy", &busy, NULL);
  return busy;
}

gboolean
ws_gui_test_mining_coverage_busy (WsMiningPage *page)
{
  gboolean busy = FALSE;

  g_object_get (page, "coverage-busy", &busy, NULL);
  return busy;
}

/* Returns: (transfer none) (nullable): the page's status, valid until the next call */
const char *
ws_gui_test_mining_status (WsMiningPage *page)
{
  char *status = NULL;

  g_object_get (page, "status", &status, NULL);
  g_object_set_data_full (G_OBJECT (page), "ws-gui-test-status", status, g_free);
  return status;
}

/* Returns: (transfer none) (nullable): the page keeps its own reference */
WsClusterSet *
ws_gui_test_mining_cluster_set (WsMiningPage *page)
{
  WsClusterSet *clusters = NULL;

  g_object_get (page, "cluster-set", &clusters, NULL);
  if (clusters != NULL)
    ws_cluster_set_unref (clusters);
  return clusters;
}

guint
ws_gui_test_mining_n_signatures (WsMiningPage *page)
{
  GtkWidget *panel = ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_SIGNATURE_PANEL);

  g_assert_nonnull (panel);
  return ws_signature_panel_get_n_signatures (WS_SIGNATURE_PANEL (panel));
}
