/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-stack-table.h"

G_BEGIN_DECLS

/* φ of StackMine §VI: "no function" before a segment's first or after its
 * last function. */
#define WS_FRAME_NONE G_MAXUINT32

/* Patterns deeper than this many frames are aligned on their outermost
 * and innermost WS_SIMILARITY_MAX_DEPTH / 2 frames only (their aligned
 * view, ws_similarity_view()): the alignment's time and memory grow with
 * the product of the two depths, and real call stacks are far shallower
 * (perf records at most 127 frames by default). */
#define WS_SIMILARITY_MAX_DEPTH 512u

/**
 * WsAlignOp:
 * @WS_ALIGN_MATCH: the same function in both patterns (cost 0)
 * @WS_ALIGN_SUBSTITUTE: two different functions face each other (cost
 *   Sub(f1, f2))
 * @WS_ALIGN_DELETE: a function of the left pattern only (cost 1)
 * @WS_ALIGN_INSERT: a function of the right pattern only (cost 1)
 */
typedef enum {
  WS_ALIGN_MATCH,
  WS_ALIGN_SUBSTITUTE,
  WS_ALIGN_DELETE,
  WS_ALIGN_INSERT,
} WsAlignOp;

/**
 * WsAlignStep:
 * @left: index into the left pattern, or %G_MAXUINT32 for an insertion
 * @right: index into the right pattern, or %G_MAXUINT32 for a deletion
 * @op: a #WsAlignOp
 */
typedef struct {
  guint32 left;
  guint32 right;
  guint8  op;
} WsAlignStep;

/**
 * WsFunctionCounts:
 * @n_stacks: callstacks including the function (each stack counted once)
 * @n_with_callee: occurrences of the function with a callee (not the leaf)
 * @n_with_caller: occurrences with a caller (not the root)
 *
 * The unigram statistics of §VI.C, over every callstack of the trace
 * history (the history store), not only the traces open now.
 */
typedef struct {
  guint64 n_stacks;
  guint64 n_with_callee;
  guint64 n_with_caller;
} WsFunctionCounts;

#define WS_TYPE_SIMILARITY (ws_similarity_get_type ())
G_DECLARE_FINAL_TYPE (WsSimilarity, ws_similarity, WS, SIMILARITY, GObject)

char          **ws_similarity_split_words      (const char          *name);
double          ws_similarity_sub_names        (const char          *name1,
                                                const char          *name2);
char           *ws_similarity_frame_name       (const WsFrame       *frame);

WsSimilarity   *ws_similarity_new              (WsStackTable        *table);
WsStackTable   *ws_similarity_get_stack_table  (WsSimilarity        *self);

void            ws_similarity_set_n_callstacks (WsSimilarity        *self,
                                                guint64              n_callstacks);
guint64         ws_similarity_get_n_callstacks (WsSimilarity        *self);
void            ws_similarity_set_function     (WsSimilarity        *self,
                                                WsFrameId            frame,
                                                const WsFunctionCounts *counts);
void            ws_similarity_set_bigram       (WsSimilarity        *self,
                                                WsFrameId            caller,
                                                WsFrameId            callee,
                                                guint64              count);
void            ws_similarity_count_stack      (WsSimilarity        *self,
                                                const WsFrameId     *frames,
                                                guint                n_frames,
                                                guint64              weight);

const guint32  *ws_similarity_get_words        (WsSimilarity        *self,
                                                WsFrameId            f,
                                                guint               *n_words);
guint           ws_similarity_view             (const WsFrameId     *frames,
                                                guint                n_frames,
                                                WsFrameId           *view);
guint           ws_similarity_view_index       (guint                n_frames,
                                                guint                k);
double          ws_similarity_sub              (WsSimilarity        *self,
                                                WsFrameId            f1,
                                                WsFrameId            f2);
double          ws_similarity_uni              (WsSimilarity        *self,
                                                WsFrameId            f);
double          ws_similarity_fbi              (WsSimilarity        *self,
                                                WsFrameId            f1,
                                                WsFrameId            f2);
double          ws_similarity_bbi              (WsSimilarity        *self,
                                                WsFrameId            f1,
                                                WsFrameId            f2);
double          ws_similarity_weight           (WsSimilarity        *self,
                                                WsFrameId            prev,
                                                WsFrameId            f,
                                                WsFrameId            next);

GArray         *ws_similarity_align            (WsSimilarity        *self,
                                                const WsFrameId     *left,
                                                guint                n_left,
                                                const WsFrameId     *right,
                                                guint                n_right,
                                                double              *cost);
double          ws_similarity_sim_of_alignment (WsSimilarity        *self,
                                                const WsFrameId     *left,
                                                const WsFrameId     *right,
                                                const WsAlignStep   *steps,
                                                guint                n_steps);
double          ws_similarity_sim              (WsSimilarity        *self,
                                                const WsFrameId     *left,
                                                guint                n_left,
                                                const WsFrameId     *right,
                                                guint                n_right);

G_END_DECLS
