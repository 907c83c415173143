/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-stack-table.h"

G_BEGIN_DECLS

/**
 * WsStackDbEntry:
 * @stack: the stack, an id in the database's own #WsStackTable
 * @n_events: how many events had this stack
 * @cost: their summed cost (ns: wait time, or sample periods)
 * @first_share: index of the entry's first #WsStackDbShare
 * @n_shares: number of trace streams the stack was seen in
 * @max_cost: the costliest single event with this stack (ns); a digest
 *   keeps it so that a stream's longest delay survives the merging of
 *   identical stacks
 *
 * One distinct call stack of the mining input.  Identical stacks are merged
 * before mining (StackMine §V works on costs, so merging loses nothing and
 * the 700k callstacks of the Windows study shrink to far fewer sequences).
 */
typedef struct {
  WsStackId stack;
  guint32   n_events;
  gint64    cost;
  guint32   first_share;
  guint32   n_shares;
  gint64    max_cost;
} WsStackDbEntry;

/**
 * WsStackDbShare:
 *
 * The part of an entry seen in one trace stream: the cluster metrics count
 * trace streams, and the Fig. 4 comparison needs the cost per stream.
 */
typedef struct {
  guint32 stream;
  guint32 n_events;
  gint64  cost;
} WsStackDbShare;

#define WS_TYPE_STACK_DB (ws_stack_db_get_type ())
G_DECLARE_FINAL_TYPE (WsStackDb, ws_stack_db, WS, STACK_DB, GObject)

WsStackDb            *ws_stack_db_new                   (WsStackTable   *table);
WsStackTable         *ws_stack_db_get_stack_table       (WsStackDb      *self);

guint                 ws_stack_db_add_stream            (WsStackDb      *self,
                                                         const char     *name);
guint                 ws_stack_db_get_n_streams         (WsStackDb      *self);
const char           *ws_stack_db_get_stream_name       (WsStackDb      *self,
                                                         guint           stream);
void                  ws_stack_db_set_stream_delay      (WsStackDb      *self,
                                                         guint           stream,
                                                         gint64          total,
                                                         gint64          max);
gint64                ws_stack_db_get_stream_delay_total(WsStackDb      *self,
                                                         guint           stream);
gint64                ws_stack_db_get_stream_delay_max  (WsStackDb      *self,
                                                         guint           stream);
gint64                ws_stack_db_get_stream_cost       (WsStackDb      *self,
                                                         guint           stream);

void                  ws_stack_db_add                   (WsStackDb      *self,
                                                         guint           stream,
                                                         WsStackId       stack,
                                                         gint64          cost,
                                                         guint           n_events);
void                  ws_stack_db_add_merged            (WsStackDb      *self,
                                                         guint           stream,
                                                         WsStackId       stack,
                                                         gint64          cost,
                                                         guint           n_events,
                                                         gint64          max_cost);
WsStackId             ws_stack_db_import_stack          (WsStackDb      *self,
                                                         WsStackTable   *source,
                                                         WsStackId       stack);
void                  ws_stack_db_add_from              (WsStackDb      *self,
                                                         guint           stream,
                                                         WsStackTable   *source,
                                                         WsStackId       stack,
                                                         gint64          cost);

guint                 ws_stack_db_get_n_entries         (WsStackDb      *self);
const WsStackDbEntry *ws_stack_db_get_entry             (WsStackDb      *self,
                                                         guint           index);
const WsStackDbShare *ws_stack_db_get_shares            (WsStackDb      *self,
                                                         guint           index,
                                                         guint          *n_shares);
const WsFrameId      *ws_stack_db_get_frames            (WsStackDb      *self,
                                                         guint           index,
                                                         guint          *n_frames);
gint64                ws_stack_db_get_total_cost        (WsStackDb      *self);
guint64               ws_stack_db_get_n_events          (WsStackDb      *self);

G_END_DECLS
