/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-anomaly-detector.h"
#include "ws-awg-input.h"
#include "ws-fleet-classes.h"
#include "ws-instance-set.h"
#include "ws-progress.h"
#include "ws-scenario-rules.h"
#include "ws-stack-db.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/* The version written in every digest file; a reader refuses others. */
#define WS_DIGEST_FORMAT_VERSION 1

/**
 * WsDigestArea:
 * @WS_DIGEST_AREA_WAITING: the waits that delayed another thread (the
 *   default scope of mining)
 * @WS_DIGEST_AREA_WAITING_ALL: every wait (`--scope all`)
 * @WS_DIGEST_AREA_RUNNING: every sampled running stack (both scopes)
 * @WS_DIGEST_AREA_CAUSES: what kept the delaying waits waiting (`--by-cause`)
 *
 * The areas of interest of one trace a digest keeps: the ones a mining
 * run can take without the trace's events.
 */
typedef enum {
  WS_DIGEST_AREA_WAITING,
  WS_DIGEST_AREA_WAITING_ALL,
  WS_DIGEST_AREA_RUNNING,
  WS_DIGEST_AREA_CAUSES,
  WS_DIGEST_N_AREAS,
} WsDigestArea;

/* Every area, as a mask of (1 << #WsDigestArea) bits. */
#define WS_DIGEST_ALL_AREAS ((1u << WS_DIGEST_N_AREAS) - 1)

/**
 * WsDigestEntry:
 * @stack: a stack of the digest's table
 * @n_events: how many events (or cause pieces) had it
 * @cost: their summed cost (ns)
 * @max_cost: the costliest of them (ns)
 */
typedef struct {
  WsStackId stack;
  guint32   n_events;
  gint64    cost;
  gint64    max_cost;
} WsDigestEntry;

/**
 * WsDigestThread:
 * @tid: thread id
 * @pid: its process id
 * @name: its last name
 */
typedef struct {
  gint32  tid;
  gint32  pid;
  char   *name;
} WsDigestThread;

/**
 * WsDigestInstance:
 * @scenario: (nullable): its scenario's name; %NULL for a thread span (a
 *   thread of the trace's program of interest, from its first event to the
 *   end of its last)
 * @program: its thread's process name (the default component)
 * @duration: t1 − t0 (ns)
 * @graph: its wait graph reduced to what Algorithm 1 reads, its stacks in
 *   the digest's table
 *
 * What `contrast` needs of one instance (ws-digest-instances.c).
 */
typedef struct {
  char       *scenario;
  char       *program;
  WsTime      duration;
  WsAwgInput *graph;
} WsDigestInstance;

/**
 * WsDigestTrace:
 * @path: the trace's path as it was given
 * @name: its name (the stream's name in mining)
 * @content_hash: its identity in the history store (SHA-256, hex)
 * @n_events: events read
 * @n_waits: of them waits
 * @n_samples: of them sampled running events
 * @start: first timestamp (ns)
 * @end: last timestamp (ns)
 * @threads: (element-type WsDigestThread): the trace's threads
 * @n_left_out: waits the delaying scope left out
 * @left_out_time: their summed time (ns)
 * @areas: (element-type WsDigestEntry): per #WsDigestArea, each distinct
 *   stack in order of its first event (the order mining meets it in)
 * @counts: (element-type WsStackCount): ws_stack_counts_of_trace(), its
 *   stacks in the digest's table
 * @waits: its wait samples for the anomaly models, at the default
 *   signature depth (ws_wait_sample_set_of_trace())
 * @has_instances: whether @program and @instances were recorded (a digest
 *   written before contrast read digests has neither)
 * @program: (nullable): the program the thread picker chooses in the
 *   trace (its vote for a fleet's program of interest)
 * @span_programs: (element-type utf8): the programs whose thread spans
 *   @instances holds: @program and the picker's runner-up, then the
 *   programs asked for when digesting (#WsDigestOptions)
 * @programs: (element-type utf8): every program with a thread that has
 *   events (a program not among them has no thread span in the trace)
 * @instances: (element-type WsDigestInstance): its scenario instances, in
 *   the trace's order, then the thread spans of @span_programs
 * @scenario_rules: (element-type utf8): the scenario rules that found its
 *   scenario instances, each as "NAME=BEGIN,END[,END…]", in the rule
 *   set's order; empty: the built-in rules
 * @spans_only: @instances holds the thread spans but not the scenario
 *   instances (%WS_DIGEST_READ_SKIP_SCENARIO_INSTANCES: a fleet opened in
 *   the window, contrasted by trace class only); never written to a file
 *
 * What the cross-trace analyses need of one trace.
 */
typedef struct {
  char    *path;
  char    *name;
  char    *content_hash;
  guint64  n_events;
  guint64  n_waits;
  guint64  n_samples;
  WsTime   start;
  WsTime   end;
  GArray  *threads;
  guint64  n_left_out;
  gint64   left_out_time;
  GArray  *areas[WS_DIGEST_N_AREAS];
  GArray  *counts;
  WsWaitSampleSet *waits;
  gboolean  has_instances;
  char     *program;
  GPtrArray *span_programs;
  GPtrArray *programs;
  GPtrArray *instances;
  GPtrArray *scenario_rules;
  gboolean  spans_only;
} WsDigestTrace;

/**
 * WsDigestOptions:
 * @scenario_rules: (nullable) (array zero-terminated=1): the text of the
 *   scenario rules the trace was loaded with (ws_scenario_rules_to_string()
 *   of each); %NULL or empty: the built-in rules
 * @programs: (nullable) (array zero-terminated=1): programs whose thread
 *   spans to keep besides the picker's first and runner-up
 *
 * What the analyst asked a digest to be made for (`digest --scenario`,
 * `--program`).
 */
typedef struct {
  const char * const *scenario_rules;
  const char * const *programs;
} WsDigestOptions;

/**
 * WsDigestReadFlags:
 * @WS_DIGEST_READ_ALL: every member
 * @WS_DIGEST_READ_SKIP_WAIT_SAMPLES: not the wait samples (only `history
 *   add` reads them)
 * @WS_DIGEST_READ_SKIP_INSTANCES: not the contrast instances (a trace
 *   then has none, as in a digest written before they existed)
 * @WS_DIGEST_READ_SKIP_SCENARIO_INSTANCES: when traces are reduced as
 *   they load: of the contrast instances only the thread spans, which a
 *   contrast by trace class reads, not the scenario instances, whose wait
 *   graphs grow with the trace (a PostgreSQL trace's transactions: about
 *   11 MB a trace; docs/performance.md)
 *
 * The parts of a digest a run can leave unread: skipped in the stream,
 * never held.
 */
typedef enum {
  WS_DIGEST_READ_ALL = 0,
  WS_DIGEST_READ_SKIP_WAIT_SAMPLES = 1 << 0,
  WS_DIGEST_READ_SKIP_INSTANCES = 1 << 1,
  WS_DIGEST_READ_SKIP_SCENARIO_INSTANCES = 1 << 2,
} WsDigestReadFlags;

typedef struct _WsDigest WsDigest;

#define WS_TYPE_DIGEST (ws_digest_get_type ())
GType          ws_digest_get_type        (void) G_GNUC_CONST;

WsDigest      *ws_digest_new             (void);
WsDigest      *ws_digest_ref             (WsDigest      *self);
void           ws_digest_unref           (WsDigest      *self);
WsStackTable  *ws_digest_get_stack_table (WsDigest      *self);
guint          ws_digest_get_n_traces    (WsDigest      *self);
const WsDigestTrace *ws_digest_get_trace (WsDigest      *self,
                                          guint          index);
gboolean       ws_digest_add_trace       (WsDigest      *self,
                                          WsTrace       *trace,
                                          GCancellable  *cancellable,
                                          GError       **error);
gboolean       ws_digest_add_trace_full  (WsDigest      *self,
                                          WsTrace       *trace,
                                          WsDigestReadFlags skip,
                                          guint          areas,
                                          GCancellable  *cancellable,
                                          GError       **error);
gboolean       ws_digest_add_trace_with  (WsDigest      *self,
                                          WsTrace       *trace,
                                          const WsDigestOptions *options,
                                          WsDigestReadFlags skip,
                                          guint          areas,
                                          GCancellable  *cancellable,
                                          GError       **error);
void           ws_digest_merge           (WsDigest      *self,
                                          WsDigest      *other);
void           ws_digest_sort            (WsDigest      *self);
const char    *ws_digest_area_to_string  (WsDigestArea   area);

/* ws-digest-file.c */
/* The gzip level of a trace's digest: small, written once per trace.  A
 * merge writes at a lower one by default (`digest-merge --level`): at
 * level 6 deflating was about half of a merge's time. */
#define WS_DIGEST_GZIP_LEVEL 6
#define WS_DIGEST_MERGE_GZIP_LEVEL 1
gboolean       ws_digest_write           (WsDigest      *self,
                                          const char    *path,
                                          GError       **error);
gboolean       ws_digest_write_level     (WsDigest      *self,
                                          const char    *path,
                                          int            level,
                                          GError       **error);
GBytes        *ws_digest_to_bytes        (WsDigest      *self);
gboolean       ws_digest_file_sniff      (const char    *path);

/* ws-digest-read.c */
WsDigest      *ws_digest_read            (const char    *path,
                                          GError       **error);
WsDigest      *ws_digest_read_full       (const char    *path,
                                          WsDigestReadFlags flags,
                                          GError       **error);
WsDigest      *ws_digest_read_bytes      (GBytes        *bytes,
                                          const char    *name,
                                          GError       **error);

/* ws-digest-load.c */
WsDigest      *ws_digest_load_traces     (char         **paths,
                                          WsScenarioRules *rules,
                                          WsDigestReadFlags skip,
                                          guint          areas,
                                          GCancellable  *cancellable,
                                          GError       **error);
WsDigest      *ws_digest_load_traces_each (char        **paths,
                                          WsScenarioRules *rules,
                                          WsDigestReadFlags skip,
                                          guint          areas,
                                          WsProgressFunc progress,
                                          gpointer       progress_data,
                                          GPtrArray     *failed,
                                          GCancellable  *cancellable,
                                          GError       **error);
WsDigest      *ws_digest_load_spans      (char         **paths,
                                          char         **hashes,
                                          WsProgressFunc progress,
                                          gpointer       progress_data,
                                          GPtrArray     *failed,
                                          GCancellable  *cancellable,
                                          GError       **error);
guint          ws_digest_count_instances (WsDigest      *self);
guint64        ws_digest_guess_span_bytes (WsDigest     *self);

/* ws-digest-instances.c */
gboolean       ws_digest_reduce_instances (WsDigestTrace *out,
                                          WsTrace       *trace,
                                          WsStackTable  *table,
                                          const WsDigestOptions *options,
                                          gboolean       with_scenarios,
                                          GCancellable  *cancellable,
                                          GError       **error);
WsDigestInstance *ws_digest_instance_new  (const char    *scenario,
                                          const char    *program,
                                          WsTime         duration,
                                          WsAwgInput    *graph);
void           ws_digest_instance_free   (gpointer       instance);
void           ws_digest_copy_instances  (WsDigestTrace       *to,
                                          const WsDigestTrace *from,
                                          WsStackDb           *importer,
                                          WsStackTable        *source);
void           ws_digest_remap_instances (WsDigestTrace *trace,
                                          const WsStackId *map);
/* Contrast over a digest: the calls a contrast over traces makes, from
 * the instances the digest keeps. */
gboolean       ws_digest_check_instances (WsDigest      *self,
                                          GError       **error);
gboolean       ws_digest_check_rules     (WsDigest      *self,
                                          const char * const *rules,
                                          GError       **error);
gboolean       ws_digest_check_made_alike (const WsDigestTrace *a,
                                          const char          *a_file,
                                          const WsDigestTrace *b,
                                          const char          *b_file,
                                          GError             **error);
GStrv          ws_digest_list_scenarios  (WsDigest      *self);
char          *ws_digest_program_of_interest (WsDigest  *self);
gboolean       ws_digest_add_instances   (WsDigest      *self,
                                          guint          trace,
                                          const char    *scenario,
                                          const char    *program,
                                          WsInstanceSet *set,
                                          GError       **error);
gboolean       ws_digest_fleet_classes_build (WsFleetClasses   *out,
                                          WsDigest         *self,
                                          const WsRunClass *classes,
                                          GArray           *entries,
                                          const char       *scenario,
                                          GError          **error);
/* A digest of @self's traces @indices, in that order, moved out of
 * @self (ws-digest.c). */
WsDigest      *ws_digest_take_selected   (WsDigest      *self,
                                          const guint   *indices,
                                          guint          n);

/* Internal to the two files. */
WsDigestTrace *ws_digest_trace_new       (void);
void           ws_digest_trace_free      (gpointer       trace);
void           ws_digest_add_trace_take  (WsDigest      *self,
                                          WsDigestTrace *trace);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsDigest, ws_digest_unref)

G_END_DECLS
