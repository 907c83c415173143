/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-similarity.h"
#include "ws-stack-table.h"

G_BEGIN_DECLS

/**
 * WsAlignmentRowKind:
 * @WS_ALIGNMENT_ROW_COMMON: every pattern has the same frame here: the
 *   common part of the cluster (a match segment M of StackMine §VI.A)
 * @WS_ALIGNMENT_ROW_SUBSTITUTION: every pattern has a frame here, not all
 *   the same (a substitution segment S)
 * @WS_ALIGNMENT_ROW_INDEL: some patterns have no frame here (an
 *   insertion/deletion segment ID)
 */
typedef enum {
  WS_ALIGNMENT_ROW_COMMON,
  WS_ALIGNMENT_ROW_SUBSTITUTION,
  WS_ALIGNMENT_ROW_INDEL,
} WsAlignmentRowKind;

/**
 * WsAlignmentCell:
 * @frame: the frame id (any table the caller likes), or %WS_ALIGNMENT_GAP
 *   where the pattern has no frame at this position
 * @function: (nullable): its function name; %NULL for a gap
 * @module: (nullable): its module, shown dimmed after the function
 */
typedef struct {
  guint32     frame;
  const char *function;
  const char *module;
} WsAlignmentCell;

#define WS_ALIGNMENT_GAP G_MAXUINT32

/* Whether @cell is a position where its pattern has no frame. */
gboolean            ws_alignment_cell_is_gap            (const WsAlignmentCell *cell);

/*
 * WsAlignmentGrid: the multiple alignment of a cluster's call-stack
 * patterns as the alignment view shows it: one column per pattern, one
 * row per aligned position, caller first from the top.  Rows where all
 * patterns agree are the cluster's common part; the others its variant
 * parts.  Built once, then immutable; strings are copied.
 */
typedef struct _WsAlignmentGrid WsAlignmentGrid;

#define WS_TYPE_ALIGNMENT_GRID (ws_alignment_grid_get_type ())
GType               ws_alignment_grid_get_type          (void) G_GNUC_CONST;

WsAlignmentGrid    *ws_alignment_grid_new               (guint                  n_patterns);
WsAlignmentGrid    *ws_alignment_grid_ref               (WsAlignmentGrid       *self);
void                ws_alignment_grid_unref             (WsAlignmentGrid       *self);
void                ws_alignment_grid_set_title         (WsAlignmentGrid       *self,
                                                         guint                  pattern,
                                                         const char            *title,
                                                         const char            *subtitle);
guint               ws_alignment_grid_append_row        (WsAlignmentGrid       *self,
                                                         const WsAlignmentCell *cells);
guint               ws_alignment_grid_get_n_patterns    (WsAlignmentGrid       *self);
guint               ws_alignment_grid_get_n_rows        (WsAlignmentGrid       *self);
WsAlignmentRowKind  ws_alignment_grid_get_row_kind      (WsAlignmentGrid       *self,
                                                         guint                  row);
const WsAlignmentCell *
                    ws_alignment_grid_get_cell          (WsAlignmentGrid       *self,
                                                         guint                  row,
                                                         guint                  pattern);
const char         *ws_alignment_grid_get_title         (WsAlignmentGrid       *self,
                                                         guint                  pattern);
const char         *ws_alignment_grid_get_subtitle      (WsAlignmentGrid       *self,
                                                         guint                  pattern);
guint               ws_alignment_grid_count_rows        (WsAlignmentGrid       *self,
                                                         WsAlignmentRowKind     kind);
guint               ws_alignment_grid_get_segment       (WsAlignmentGrid       *self,
                                                         guint                  row,
                                                         guint                 *index);
char               *ws_alignment_grid_describe          (WsAlignmentGrid       *self);

WsAlignmentGrid    *ws_alignment_grid_new_star          (WsStackTable          *table,
                                                         const WsFrameId *const*patterns,
                                                         const guint           *lengths,
                                                         guint                  n_patterns,
                                                         guint                  center,
                                                         const gint32 *const   *center_of);

WsAlignmentGrid    *ws_alignment_grid_new_aligned       (WsSimilarity          *similarity,
                                                         const WsFrameId *const*patterns,
                                                         const guint           *lengths,
                                                         guint                  n_patterns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsAlignmentGrid, ws_alignment_grid_unref)

G_END_DECLS
