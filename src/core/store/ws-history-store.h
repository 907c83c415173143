/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-file-sha256.h"
#include "ws-similarity.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/* Version of the on-disk schema (PRAGMA user_version). */
#define WS_HISTORY_SCHEMA_VERSION 2

/* PRAGMA application_id of every history database ("WsHy"): a file with
 * another id is another application's and is never written to. */
#define WS_HISTORY_APPLICATION_ID 0x57734879

/**
 * WsAnomalyFlag:
 * @WS_ANOMALY_FLAG_NONE: the user has not judged the wait
 * @WS_ANOMALY_FLAG_ANOMALOUS: the user marked it anomalous
 * @WS_ANOMALY_FLAG_NORMAL: the user marked it normal
 */
typedef enum {
  WS_ANOMALY_FLAG_NONE,
  WS_ANOMALY_FLAG_ANOMALOUS,
  WS_ANOMALY_FLAG_NORMAL,
} WsAnomalyFlag;

/**
 * WsAnomalyRecord:
 * @trace_digest: the trace's digest (see ws_history_store_trace_digest())
 * @event_time: the wait's start time in that trace (ns)
 * @tid: the waiting thread's TID
 * @flag: a #WsAnomalyFlag
 * @updated_at: when the flag was set (µs since the epoch)
 */
typedef struct {
  char          *trace_digest;
  gint64         event_time;
  gint32         tid;
  WsAnomalyFlag  flag;
  gint64         updated_at;
} WsAnomalyRecord;

/**
 * WsWaitFlag:
 * @trace_digest: the trace's digest
 * @event_time: the wait's start time in that trace (ns)
 * @tid: the waiting thread's TID
 * @signature: the wait's signature (see ws-wait-signature.h)
 * @duration: the wait's duration (ns), so a flag teaches the model even
 *   when its trace is not open
 * @flag: a #WsAnomalyFlag
 * @updated_at: when it was set (µs since the epoch; filled by listing)
 */
typedef struct {
  char          *trace_digest;
  gint64         event_time;
  gint32         tid;
  char          *signature;
  gint64         duration;
  WsAnomalyFlag  flag;
  gint64         updated_at;
} WsWaitFlag;

void ws_wait_flag_clear (WsWaitFlag *flag);

/**
 * WsHistoryStats:
 * @n_traces: traces recorded (one per digest)
 * @n_callstacks: callstacks counted, "#callstacks in database" of
 *   StackMine §VI.C
 * @n_functions: distinct functions (name and module) ever seen in them
 * @n_bigrams: distinct caller → callee pairs
 * @n_wait_samples: wait durations kept for the mixture models
 * @n_wait_signatures: distinct wait signatures among them
 * @n_flags: the user's anomalous / normal verdicts
 *
 * What the history holds, read in one snapshot.
 */
typedef struct {
  guint64 n_traces;
  guint64 n_callstacks;
  guint64 n_functions;
  guint64 n_bigrams;
  guint64 n_wait_samples;
  guint64 n_wait_signatures;
  guint64 n_flags;
} WsHistoryStats;

/**
 * WsHistoryFunction:
 * @function: its name
 * @module: its module
 * @counts: its unigram counts
 */
typedef struct {
  char             *function;
  char             *module;
  WsFunctionCounts  counts;
} WsHistoryFunction;

#define WS_TYPE_HISTORY_STORE (ws_history_store_get_type ())
G_DECLARE_FINAL_TYPE (WsHistoryStore, ws_history_store, WS, HISTORY_STORE, GObject)

char            *ws_history_store_default_path     (void);
WsHistoryStore  *ws_history_store_open_read_only   (const char       *path,
                                                    GError          **error);
WsHistoryStore  *ws_history_store_open             (const char       *path,
                                                    GError          **error);
const char      *ws_history_store_get_path         (WsHistoryStore   *self);

char            *ws_history_store_file_digest      (const char       *path,
                                                    GError          **error);
char            *ws_history_store_trace_digest     (WsTrace          *trace,
                                                    GError          **error);
char            *ws_history_store_file_digest_full (const char       *path,
                                                    GCancellable     *cancellable,
                                                    GError          **error);
char            *ws_history_store_trace_digest_hashed (WsTrace       *trace,
                                                        WsFileHashes  *hashes,
                                                        GError       **error);
char            *ws_history_store_trace_digest_full (WsTrace         *trace,
                                                    GCancellable     *cancellable,
                                                    GError          **error);
gboolean         ws_history_store_record_trace     (WsHistoryStore   *self,
                                                    WsTrace          *trace,
                                                    gboolean         *newly_recorded,
                                                    GError          **error);
gboolean         ws_history_store_begin_batch (WsHistoryStore  *self,
                                               GError         **error);
gboolean         ws_history_store_end_batch   (WsHistoryStore  *self,
                                               gboolean         commit,
                                               GError         **error);
gboolean         ws_history_store_record_trace_digest (WsHistoryStore *self,
                                                    WsTrace          *trace,
                                                    const char       *digest,
                                                    gboolean         *newly_recorded,
                                                    GError          **error);
gboolean         ws_history_store_record_stacks    (WsHistoryStore   *self,
                                                    const char       *digest,
                                                    const char       *path,
                                                    WsStackTable     *table,
                                                    const WsStackId  *stacks,
                                                    const guint64    *counts,
                                                    guint             n_stacks,
                                                    gboolean         *newly_recorded,
                                                    GError          **error);
gboolean         ws_history_store_has_trace        (WsHistoryStore   *self,
                                                    const char       *digest);
guint            ws_history_store_get_n_traces     (WsHistoryStore   *self);
guint64          ws_history_store_get_n_callstacks (WsHistoryStore   *self);
gboolean         ws_history_store_lookup_function  (WsHistoryStore   *self,
                                                    const char       *function,
                                                    const char       *module,
                                                    WsFunctionCounts *counts);
guint64          ws_history_store_lookup_bigram    (WsHistoryStore   *self,
                                                    const WsFrame    *caller,
                                                    const WsFrame    *callee);
gboolean         ws_history_store_get_stats        (WsHistoryStore   *self,
                                                    WsHistoryStats   *stats,
                                                    GError          **error);
GArray          *ws_history_store_top_functions    (WsHistoryStore   *self,
                                                    guint             n,
                                                    GError          **error);
gboolean         ws_history_store_fill_similarity  (WsHistoryStore   *self,
                                                    WsSimilarity     *similarity,
                                                    const WsFrameId  *frames,
                                                    guint             n_frames,
                                                    GError          **error);

gboolean         ws_history_store_add_wait_samples (WsHistoryStore   *self,
                                                    const char       *signature,
                                                    const char       *trace_digest,
                                                    const gint64     *durations,
                                                    guint             n_durations,
                                                    GError          **error);
GArray          *ws_history_store_get_wait_samples (WsHistoryStore   *self,
                                                    const char       *signature,
                                                    GError          **error);

gboolean         ws_history_store_set_flag         (WsHistoryStore   *self,
                                                    const char       *trace_digest,
                                                    gint64            event_time,
                                                    gint32            tid,
                                                    const char       *signature,
                                                    WsAnomalyFlag     flag,
                                                    GError          **error);
WsAnomalyFlag    ws_history_store_get_flag         (WsHistoryStore   *self,
                                                    const char       *trace_digest,
                                                    gint64            event_time,
                                                    gint32            tid);
GArray          *ws_history_store_list_flags       (WsHistoryStore   *self,
                                                    const char       *signature,
                                                    GError          **error);

/* Wait history and flags (ws-history-store-waits.c) */
gboolean         ws_history_store_has_waits        (WsHistoryStore   *self,
                                                    const char       *digest,
                                                    guint             depth);
gboolean         ws_history_store_record_wait_samples (WsHistoryStore *self,
                                                    const char       *digest,
                                                    guint             depth,
                                                    const char * const *keys,
                                                    GArray * const   *samples,
                                                    guint             n_keys,
                                                    guint             capacity,
                                                    gboolean         *newly_recorded,
                                                    GCancellable     *cancellable,
                                                    GError          **error);
GArray          *ws_history_store_get_reservoir    (WsHistoryStore   *self,
                                                    const char       *key,
                                                    guint64          *n_seen,
                                                    GError          **error);
gboolean         ws_history_store_flag_wait        (WsHistoryStore   *self,
                                                    const WsWaitFlag *flag,
                                                    GError          **error);
GArray          *ws_history_store_list_wait_flags  (WsHistoryStore   *self,
                                                    const char       *signature,
                                                    GError          **error);

G_END_DECLS
