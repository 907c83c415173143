/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * WsFlameTree: folded stacks ("comm;caller;…;leaf" and a weight) merged
 * into one tree of frames, as a flame graph draws it.  The root is "all";
 * each node has its frame's name, its self weight (stacks ending there)
 * and its total (self plus its children's totals).  Children are sorted by
 * name, as flamegraph.pl sorts them, so that the same selection always
 * lays out the same way, and stored contiguously so that a renderer walks
 * them without lookups.
 */

#include <glib.h>

G_BEGIN_DECLS

#define WS_FLAME_ROOT 0u

/**
 * WsFlameNode:
 * @name: the frame (interned in the tree; "all" for the root)
 * @self: weight of the stacks that end here
 * @total: @self plus the children's totals
 * @start: weight of everything left of this node at its depth, from the
 *   root's left edge: the node spans [@start, @start + @total)
 * @parent: index of the parent, %G_MAXUINT32 for the root
 * @first_child: index of the first child (children are contiguous)
 * @n_children: how many
 * @depth: 0 for the root
 */
typedef struct {
  const char *name;
  guint64     self;
  guint64     total;
  guint64     start;
  guint32     parent;
  guint32     first_child;
  guint32     n_children;
  guint32     depth;
} WsFlameNode;

typedef struct _WsFlameTree WsFlameTree;

WsFlameTree       *ws_flame_tree_new             (void);
WsFlameTree       *ws_flame_tree_ref             (WsFlameTree       *self);
void               ws_flame_tree_unref           (WsFlameTree       *self);

void               ws_flame_tree_add_folded      (WsFlameTree       *self,
                                                  const char        *frames,
                                                  guint64            weight);
void               ws_flame_tree_finish          (WsFlameTree       *self);

guint              ws_flame_tree_get_n_nodes     (WsFlameTree       *self);
const WsFlameNode *ws_flame_tree_get_node        (WsFlameTree       *self,
                                                  guint              index);
guint64            ws_flame_tree_get_total       (WsFlameTree       *self);
guint              ws_flame_tree_get_max_depth   (WsFlameTree       *self);
guint              ws_flame_tree_find_path       (WsFlameTree       *self,
                                                  const char *const *frames,
                                                  guint              n_frames);

guint64            ws_flame_tree_search          (WsFlameTree       *self,
                                                  GRegex            *regex,
                                                  guint8            *matched);

/**
 * WsFlameRelative:
 * @name: a caller's or callee's frame
 * @total: the weight spent in the selected frame under that caller, or in
 *   that callee under the selected frame
 */
typedef struct {
  const char *name;
  guint64     total;
} WsFlameRelative;

guint64            ws_flame_tree_callers_callees (WsFlameTree       *self,
                                                  const char        *frame,
                                                  GArray           **callers,
                                                  GArray           **callees);

double            *ws_flame_tree_diff            (WsFlameTree       *self,
                                                  WsFlameTree       *base,
                                                  gboolean           normalise);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsFlameTree, ws_flame_tree_unref)

G_END_DECLS
