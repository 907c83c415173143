/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsFrameCategory:
 * @WS_FRAME_CATEGORY_LOCK: function names of lock acquire/release and other
 *   synchronisation waits (futex, pthread mutexes and condition variables,
 *   kernel rwsem/mutex, PostgreSQL LWLock/LockAcquire/
 *   ProcSleep…).  A wait is *lock-related* when its waiting stack or its
 *   unwait stack holds one of them (the patent's test).
 * @WS_FRAME_CATEGORY_FALSE_RUN: function names of timer wake-ups (hrtimer,
 *   POSIX timers, SIGALRM): the patent's "false runs"
 * @WS_FRAME_CATEGORY_INTERRUPT: function names that show interrupt or softirq
 *   context (I/O completion, IPIs): hardware, not a thread to follow
 * @WS_FRAME_CATEGORY_HEARTBEAT_THREAD: thread names of kernel helpers and
 *   heartbeat threads (kworker, ksoftirqd, rcu_*…) that wake unrelated
 *   threads on behalf of someone else
 * @WS_FRAME_CATEGORY_DAEMON: process names of daemons that serve many
 *   unrelated clients (systemd*, dbus-daemon…): joining two processes only
 *   through one of them is a suspicious over-connection
 *
 * The configurable lists of a #WsFrameClassifier.  Every list holds Perl
 * regular expressions matched (unanchored, use `^`/`$`) against a function,
 * thread or process name.
 */
typedef enum {
  WS_FRAME_CATEGORY_LOCK,
  WS_FRAME_CATEGORY_FALSE_RUN,
  WS_FRAME_CATEGORY_INTERRUPT,
  WS_FRAME_CATEGORY_HEARTBEAT_THREAD,
  WS_FRAME_CATEGORY_DAEMON,
  WS_N_FRAME_CATEGORIES
} WsFrameCategory;

/**
 * WsWakeKind:
 * @WS_WAKE_THREAD: a thread readied the wait: follow it
 * @WS_WAKE_TIMER: a timer woke it (hardware readier, or unwait stack with a
 *   %WS_FRAME_CATEGORY_FALSE_RUN frame): a "false run"
 * @WS_WAKE_INTERRUPT: interrupt context (I/O completion, IPI…): hardware
 * @WS_WAKE_HEARTBEAT: readied by a %WS_FRAME_CATEGORY_HEARTBEAT_THREAD
 *   thread (kworker, ksoftirqd…): treated as a false run, not followed by
 *   the ready tree
 * @WS_WAKE_UNKNOWN: no wake-up was recorded (under-connection)
 *
 * What ended a wait, refined from ws_trace_wait_readier() with the lists.
 */
typedef enum {
  WS_WAKE_THREAD,
  WS_WAKE_TIMER,
  WS_WAKE_INTERRUPT,
  WS_WAKE_HEARTBEAT,
  WS_WAKE_UNKNOWN,
} WsWakeKind;

/*
 * Key file format (ws_frame_classifier_load_key_file()): group
 * [classifier], one string-list key per category: `lock-frames`,
 * `false-run-frames`, `interrupt-frames`, `heartbeat-threads`,
 * `daemon-processes`.  A key replaces that list (defaults included); the
 * same key with `-extra` appended (`lock-frames-extra=^my_lock;`) adds to
 * it.  Unknown keys are an error, so that a typo does not silently keep the
 * defaults.
 *
 * Classification results are cached per stack table and frame id, so that
 * classifying millions of waits costs one regex pass per distinct frame.
 * A classifier may be used from several threads at once.
 */
#define WS_FRAME_CLASSIFIER_GROUP "classifier"

#define WS_TYPE_FRAME_CLASSIFIER (ws_frame_classifier_get_type ())
G_DECLARE_FINAL_TYPE (WsFrameClassifier, ws_frame_classifier, WS, FRAME_CLASSIFIER, GObject)

WsFrameClassifier  *ws_frame_classifier_new              (void);
WsFrameClassifier  *ws_frame_classifier_new_empty        (void);
WsFrameClassifier  *ws_frame_classifier_get_default      (void);

gboolean            ws_frame_classifier_add_pattern      (WsFrameClassifier  *self,
                                                          WsFrameCategory     category,
                                                          const char         *pattern,
                                                          GError            **error);
void                ws_frame_classifier_clear            (WsFrameClassifier  *self,
                                                          WsFrameCategory     category);
char              **ws_frame_classifier_get_patterns     (WsFrameClassifier  *self,
                                                          WsFrameCategory     category);
gboolean            ws_frame_classifier_load_key_file    (WsFrameClassifier  *self,
                                                          GKeyFile           *key_file,
                                                          GError            **error);
gboolean            ws_frame_classifier_load_file        (WsFrameClassifier  *self,
                                                          const char         *path,
                                                          GError            **error);
void                ws_frame_classifier_save_to_key_file (WsFrameClassifier  *self,
                                                          GKeyFile           *key_file);

gboolean            ws_frame_classifier_match            (WsFrameClassifier  *self,
                                                          WsFrameCategory     category,
                                                          const char         *name);
gboolean            ws_frame_classifier_stack_matches    (WsFrameClassifier  *self,
                                                          WsFrameCategory     category,
                                                          WsStackTable       *stacks,
                                                          WsStackId           stack);
gboolean            ws_frame_classifier_is_lock_wait     (WsFrameClassifier  *self,
                                                          WsTrace            *trace,
                                                          guint               wait_event);
WsWakeKind          ws_frame_classifier_classify_wake    (WsFrameClassifier  *self,
                                                          WsTrace            *trace,
                                                          guint               wait_event,
                                                          guint              *readier_thread);
gboolean            ws_frame_classifier_is_heartbeat_thread (WsFrameClassifier *self,
                                                          WsTrace            *trace,
                                                          guint               thread);
gboolean            ws_frame_classifier_is_daemon_process (WsFrameClassifier *self,
                                                          WsTrace            *trace,
                                                          guint               process);

guint               ws_frame_classifier_get_generation   (WsFrameClassifier  *self);

const char         *ws_frame_category_to_key             (WsFrameCategory     category);
const char         *ws_wake_kind_to_string               (WsWakeKind          kind);

G_END_DECLS
