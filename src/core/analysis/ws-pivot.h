/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-progress.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsPivotColumn:
 * @WS_PIVOT_PROCESS: the thread's process
 * @WS_PIVOT_THREAD: the thread
 * @WS_PIVOT_STATE: its state, as the timeline's legend names it
 * @WS_PIVOT_READIER_PROCESS: the process of the thread that ended the
 *   wait (for a wait and the ready latency after it)
 * @WS_PIVOT_READIER_THREAD: that thread
 * @WS_PIVOT_WAITING_FUNCTION: the function the waiting stack waits in
 *   (ws_wait_stack_function())
 * @WS_PIVOT_READIER_FUNCTION: the function of the readier's stack that
 *   ended the wait
 *
 * What the pivot table can group time by, in any order.
 */
typedef enum {
  WS_PIVOT_PROCESS,
  WS_PIVOT_THREAD,
  WS_PIVOT_STATE,
  WS_PIVOT_READIER_PROCESS,
  WS_PIVOT_READIER_THREAD,
  WS_PIVOT_WAITING_FUNCTION,
  WS_PIVOT_READIER_FUNCTION,
  WS_N_PIVOT_COLUMNS
} WsPivotColumn;

const char *ws_pivot_column_to_string   (WsPivotColumn  column);
gboolean    ws_pivot_column_from_string (const char    *text,
                                         WsPivotColumn *column);
const char *ws_pivot_column_get_label   (WsPivotColumn  column);
gboolean    ws_pivot_parse_columns      (const char    *text,
                                         WsPivotColumn *columns,
                                         guint         *n_columns,
                                         GError       **error);

/**
 * WsPivotSettings:
 * @columns: the grouping columns, outermost first, each at most once
 * @n_columns: how many (0: the grand total alone)
 * @threads: (array length=n_threads) (nullable): the thread indices in
 *   scope, %NULL for every thread
 * @t0: start of the window
 * @t1: its end; @t1 <= @t0 means the whole trace
 */
typedef struct {
  WsPivotColumn  columns[WS_N_PIVOT_COLUMNS];
  guint          n_columns;
  const guint32 *threads;
  guint          n_threads;
  WsTime         t0;
  WsTime         t1;
} WsPivotSettings;

/**
 * WsPivotRow:
 * @column: the column of @key (the root's is %WS_N_PIVOT_COLUMNS)
 * @key: what the row stands for, stable for scripts: a pid, a tid, a
 *   state word, a function name; %NULL where the column does not apply
 *   (a running span has no readier) or nothing is known
 * @label: the same for people, translated ("postgres 9054", "Sleeping (S)",
 *   "Interrupt", "Not waiting")
 * @time: ns of state spans in the row, clipped to the window
 * @count: state spans (clipped pieces) in the row
 * @first_thread: the thread of the row's earliest span
 * @first_event: that span's event
 * @first_time: that span's start, clipped to the window
 * @parent: (nullable): the enclosing row
 * @children: (element-type WsPivotRow): the rows one column further,
 *   longest time first; empty for a leaf
 */
typedef struct _WsPivotRow WsPivotRow;
struct _WsPivotRow {
  WsPivotColumn  column;
  char          *key;
  char          *label;
  WsTime         time;
  guint64        count;
  guint32        first_thread;
  guint32        first_event;
  WsTime         first_time;
  WsPivotRow    *parent;
  GPtrArray     *children;
  /*< private >*/
  gint64         id;
  GHashTable    *index;
};

/**
 * WsPivot:
 * @trace: the trace
 * @columns, @n_columns: the grouping, as asked
 * @t0, @t1: the window the spans were clipped to
 * @n_threads: threads in scope
 * @lifetime: ns of the threads' lives inside the window, summed
 *   ([first event, last event] of each, widened to its spans)
 * @unrecorded: @lifetime − the grand total: time in a thread's life that
 *   no state span covers (the trace does not say)
 * @root: the grand total, and the tree
 */
typedef struct {
  WsTrace       *trace;
  WsPivotColumn  columns[WS_N_PIVOT_COLUMNS];
  guint          n_columns;
  WsTime         t0;
  WsTime         t1;
  guint          n_threads;
  WsTime         lifetime;
  WsTime         unrecorded;
  WsPivotRow    *root;
} WsPivot;

WsPivot    *ws_pivot_run        (WsTrace               *trace,
                                 const WsPivotSettings *settings,
                                 GCancellable          *cancellable,
                                 WsProgressFunc         progress,
                                 gpointer               progress_data,
                                 GError               **error);
void        ws_pivot_free       (WsPivot               *pivot);
double      ws_pivot_row_share  (const WsPivot         *pivot,
                                 const WsPivotRow      *row);
void        ws_pivot_sort       (WsPivot               *pivot,
                                 GCompareFunc           compare);
int         ws_pivot_row_compare_time (gconstpointer a,
                                       gconstpointer b);

/* ws-pivot-export.c: the table as text, CSV or JSON. */
void        ws_pivot_write_text (const WsPivot         *pivot,
                                 GString               *out);
void        ws_pivot_write_csv  (const WsPivot         *pivot,
                                 GString               *out);
void        ws_pivot_write_json (const WsPivot         *pivot,
                                 GString               *out);
gboolean    ws_pivot_save_csv   (const WsPivot         *pivot,
                                 const char            *path,
                                 GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsPivot, ws_pivot_free)

G_END_DECLS
