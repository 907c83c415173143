/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Building a flame tree.  Stacks are added as they come (child lookups in
 * one open-addressing table keyed by parent and name, so that a root with
 * 100,000 children costs no more than a deep chain), then
 * ws_flame_tree_finish() sums the totals, sorts each node's children by
 * name and renumbers the nodes breadth first so that siblings are
 * contiguous and every parent comes before its children.
 */
#include "config.h"

#include <string.h>

#include "ws-flame-tree.h"
#include "ws-hash.h"

typedef struct {
  guint32 name;
  guint32 parent;
  guint64 self;
} BuildNode;

struct _WsFlameTree {
  GStringChunk *strings;
  GHashTable   *name_ids;      /* interned name -> id + 1 */
  GPtrArray    *names;         /* id -> interned name */
  GArray       *build;         /* BuildNode, while adding */
  guint64      *slot_keys;     /* open addressing: (parent << 32 | name) + 1, 0 = empty */
  guint32      *slot_values;
  gsize         n_slots;
  WsFlameNode  *nodes;         /* after finish */
  guint         n_nodes;
  guint         max_depth;
  gboolean      finished;
};

/* @name is NUL-terminated. */
static guint32
intern (WsFlameTree *self,
        const char  *name)
{
  gpointer id = g_hash_table_lookup (self->name_ids, name);
  char *stored;

  if (id != NULL)
    return GPOINTER_TO_UINT (id) - 1;
  stored = g_string_chunk_insert (self->strings, name);
  g_ptr_array_add (self->names, stored);
  g_hash_table_insert (self->name_ids, stored, GUINT_TO_POINTER (self->names->len));
  return self->names->len - 1;
}

static guint32
add_node (WsFlameTree *self,
          guint32      parent,
          guint32      name)
{
  BuildNode n = { name, parent, 0 };

  g_array_append_val (self->build, n);
  return self->build->len - 1;
}

static void grow_slots (WsFlameTree *self);

/* The child of @parent named @name, created if new. */
static guint32
child_of (WsFlameTree *self,
          guint32      parent,
          guint32      name)
{
  guint64 key = ((guint64) parent << 32 | name) + 1;
  gsize mask, i;

  if ((self->build->len + 1) * 2 > self->n_slots)
    grow_slots (self);
  mask = self->n_slots - 1;
  for (i = ws_hash_mix64 (key) & mask; self->slot_keys[i] != 0; i = (i + 1) & mask)
    if (self->slot_keys[i] == key)
      return self->slot_values[i];
  self->slot_keys[i] = key;
  self->slot_values[i] = add_node (self, parent, name);
  return self->slot_values[i];
}

static void
grow_slots (WsFlameTree *self)
{
  gsize old_n = self->n_slots;
  guint64 *old_keys = self->slot_keys;
  guint32 *old_values = self->slot_values;
  gsize mask;

  self->n_slots = MAX (old_n * 2, 1024);
  self->slot_keys = g_new0 (guint64, self->n_slots);
  self->slot_values = g_new (guint32, self->n_slots);
  mask = self->n_slots - 1;
  for (gsize k = 0; k < old_n; k++)
    if (old_keys[k] != 0)
      {
        gsize i = ws_hash_mix64 (old_keys[k]) & mask;
        while (self->slot_keys[i] != 0)
          i = (i + 1) & mask;
        self->slot_keys[i] = old_keys[k];
        self->slot_values[i] = old_values[k];
      }
  g_free (old_keys);
  g_free (old_values);
}

/**
 * ws_flame_tree_new:
 *
 * Returns: (transfer full): an empty tree (its root "all") to add stacks to
 */
WsFlameTree *
ws_flame_tree_new (void)
{
  WsFlameTree *self = g_atomic_rc_box_new0 (WsFlameTree);

  self->strings = g_string_chunk_new (64 * 1024);
  self->name_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->names = g_ptr_array_new ();
  self->build = g_array_new (FALSE, FALSE, sizeof (BuildNode));
  add_node (self, G_MAXUINT32, intern (self, "all"));
  return self;
}

WsFlameTree *
ws_flame_tree_ref (WsFlameTree *self)
{
  return g_atomic_rc_box_acquire (self);
}

static void
clear (gpointer data)
{
  WsFlameTree *self = data;

  g_string_chunk_free (self->strings);
  g_hash_table_unref (self->name_ids);
  g_ptr_array_unref (self->names);
  if (self->build != NULL)
    g_array_unref (self->build);
  g_free (self->slot_keys);
  g_free (self->slot_values);
  g_free (self->nodes);
}

void
ws_flame_tree_unref (WsFlameTree *self)
{
  g_atomic_rc_box_release_full (self, clear);
}

/**
 * ws_flame_tree_add_folded:
 * @frames: "caller;…;leaf" (a folded line without its count)
 * @weight: its count
 *
 * Adds @weight to the stack's leaf, creating the frames on the way.  An
 * empty frame list adds to the root itself.
 */
void
ws_flame_tree_add_folded (WsFlameTree *self,
                          const char  *frames,
                          guint64      weight)
{
  guint32 node = WS_FLAME_ROOT;
  g_autofree char *copy = NULL;

  g_return_if_fail (self != NULL && !self->finished);
  g_return_if_fail (frames != NULL);

  /* One copy, cut in place at each ';'. */
  copy = g_strdup (frames);
  for (char *p = copy; *p != '\0';)
    {
      char *end = strchr (p, ';');

      if (end != NULL)
        *end = '\0';
      node = child_of (self, node, intern (self, p));
      if (end == NULL)
        break;
      p = end + 1;
    }
  g_array_index (self->build, BuildNode, node).self += weight;
}

static int
compare_by_name (gconstpointer a,
                 gconstpointer b,
                 gpointer      data)
{
  WsFlameTree *self = data;
  const BuildNode *na = &g_array_index (self->build, BuildNode, *(const guint32 *) a);
  const BuildNode *nb = &g_array_index (self->build, BuildNode, *(const guint32 *) b);

  return strcmp (self->names->pdata[na->name], self->names->pdata[nb->name]);
}

/**
 * ws_flame_tree_finish:
 *
 * Sums the totals and lays the tree out; nothing may be added after.
 */
void
ws_flame_tree_finish (WsFlameTree *self)
{
  guint n;
  g_autofree guint64 *total = NULL;
  g_autofree guint32 *offset = NULL, *children = NULL, *order = NULL, *fill = NULL;
  guint head = 0, tail = 1;

  g_return_if_fail (self != NULL && !self->finished);

  n = self->build->len;
  total = g_new0 (guint64, n);
  offset = g_new0 (guint32, n + 1);
  for (guint i = 0; i < n; i++)
    total[i] = g_array_index (self->build, BuildNode, i).self;
  /* Children are always created after their parent. */
  for (guint i = n; i-- > 1;)
    {
      const BuildNode *b = &g_array_index (self->build, BuildNode, i);
      total[b->parent] += total[i];
      offset[b->parent + 1]++;
    }
  for (guint i = 0; i < n; i++)
    offset[i + 1] += offset[i];
  children = g_new (guint32, MAX (n, 1));
  fill = g_memdup2 (offset, sizeof (guint32) * n);
  for (guint i = 1; i < n; i++)
    children[fill[g_array_index (self->build, BuildNode, i).parent]++] = i;

  /* Breadth first: the children of each node get consecutive indices. */
  order = g_new (guint32, n);     /* new index -> old index */
  self->nodes = g_new0 (WsFlameNode, n);
  order[0] = 0;
  self->nodes[0] = (WsFlameNode) { self->names->pdata[0], g_array_index (self->build, BuildNode, 0).self,
                                   total[0], 0, G_MAXUINT32, 0, 0, 0 };
  for (head = 0; head < tail; head++)
    {
      guint32 old = order[head];
      WsFlameNode *parent = &self->nodes[head];
      guint32 *kids = children + offset[old];
      guint n_kids = offset[old + 1] - offset[old];
      guint64 x = parent->start;

      g_qsort_with_data (kids, n_kids, sizeof (guint32), compare_by_name, self);
      parent->first_child = tail;
      parent->n_children = n_kids;
      for (guint k = 0; k < n_kids; k++)
        {
          const BuildNode *b = &g_array_index (self->build, BuildNode, kids[k]);
          WsFlameNode *c = &self->nodes[tail];

          order[tail] = kids[k];
          *c = (WsFlameNode) { self->names->pdata[b->name], b->self, total[kids[k]], x, head, 0, 0,
                               parent->depth + 1 };
          self->max_depth = MAX (self->max_depth, c->depth);
          x += c->total;
          tail++;
        }
    }
  self->n_nodes = n;
  self->finished = TRUE;
  g_clear_pointer (&self->build, g_array_unref);
  g_clear_pointer (&self->slot_keys, g_free);
  g_clear_pointer (&self->slot_values, g_free);
  self->n_slots = 0;
}

guint
ws_flame_tree_get_n_nodes (WsFlameTree *self)
{
  g_return_val_if_fail (self != NULL && self->finished, 0);
  return self->n_nodes;
}

const WsFlameNode *
ws_flame_tree_get_node (WsFlameTree *self,
                        guint        index)
{
  g_return_val_if_fail (self != NULL && self->finished, NULL);
  g_return_val_if_fail (index < self->n_nodes, NULL);
  return &self->nodes[index];
}

/* The root's total: the whole selection's weight. */
guint64
ws_flame_tree_get_total (WsFlameTree *self)
{
  g_return_val_if_fail (self != NULL && self->finished, 0);
  return self->nodes[WS_FLAME_ROOT].total;
}

guint
ws_flame_tree_get_max_depth (WsFlameTree *self)
{
  g_return_val_if_fail (self != NULL && self->finished, 0);
  return self->max_depth;
}

/**
 * ws_flame_tree_find_path:
 * @frames: (array length=n_frames): names from the root's child down
 *
 * Returns: the node at the end of that path, or %G_MAXUINT if there is none
 */
guint
ws_flame_tree_find_path (WsFlameTree       *self,
                         const char *const *frames,
                         guint              n_frames)
{
  guint node = WS_FLAME_ROOT;

  g_return_val_if_fail (self != NULL && self->finished, G_MAXUINT);

  for (guint k = 0; k < n_frames; k++)
    {
      const WsFlameNode *p = &self->nodes[node];
      guint lo = p->first_child, hi = p->first_child + p->n_children;

      /* Children are sorted by name: binary search. */
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          if (strcmp (self->nodes[mid].name, frames[k]) < 0)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo == p->first_child + p->n_children || strcmp (self->nodes[lo].name, frames[k]) != 0)
        return G_MAXUINT;
      node = lo;
    }
  return node;
}

/**
 * ws_flame_tree_search:
 * @regex: what to look for in the frames' names
 * @matched: (out caller-allocates) (optional): one byte per node, set to 1
 *   where the name matches (the root never does)
 *
 * Returns: the weight under matching frames, counted once where matches
 *   nest (recursion), as flamegraph.pl's "Matched:" counts it
 */
guint64
ws_flame_tree_search (WsFlameTree *self,
                      GRegex      *regex,
                      guint8      *matched)
{
  g_autofree guint8 *under = NULL;
  guint64 sum = 0;

  g_return_val_if_fail (self != NULL && self->finished, 0);
  g_return_val_if_fail (regex != NULL, 0);

  under = g_new0 (guint8, self->n_nodes);    /* 1: this or an ancestor matched */
  if (matched != NULL)
    matched[0] = 0;
  for (guint i = 1; i < self->n_nodes; i++)
    {
      const WsFlameNode *n = &self->nodes[i];
      gboolean hit = g_regex_match (regex, n->name, 0, NULL);

      if (matched != NULL)
        matched[i] = hit;
      if (hit && !under[n->parent])
        sum += n->total;
      under[i] = under[n->parent] || hit;
    }
  return sum;
}

static void
add_relative (GHashTable *sums,
              const char *name,
              guint64     weight)
{
  guint64 *v = g_hash_table_lookup (sums, name);

  if (v == NULL)
    g_hash_table_insert (sums, (gpointer) name, v = g_new0 (guint64, 1));
  *v += weight;
}

static int
compare_relatives (gconstpointer a,
                   gconstpointer b)
{
  const WsFlameRelative *ra = a, *rb = b;

  if (ra->total != rb->total)
    return ra->total < rb->total ? 1 : -1;
  return strcmp (ra->name, rb->name);
}

static GArray *
relatives_array (GHashTable *sums)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (WsFlameRelative));
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, sums);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      WsFlameRelative r = { key, *(guint64 *) value };
      g_array_append_val (out, r);
    }
  g_array_sort (out, compare_relatives);
  return out;
}

/**
 * ws_flame_tree_callers_callees:
 * @frame: a frame's name
 * @callers: (out) (optional) (transfer full) (element-type WsFlameRelative):
 *   who called it, heaviest first ("all" for a first frame)
 * @callees: (out) (optional) (transfer full) (element-type WsFlameRelative):
 *   what it called
 *
 * Recursion counts once: only the outermost @frame of each stack counts.
 *
 * Returns: the weight spent in @frame and below it
 */
guint64
ws_flame_tree_callers_callees (WsFlameTree *self,
                               const char  *frame,
                               GArray     **callers,
                               GArray     **callees)
{
  g_autoptr(GHashTable) up = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_autoptr(GHashTable) down = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_autofree guint8 *inside = NULL;
  const char *name;
  guint id;
  guint64 sum = 0;

  g_return_val_if_fail (self != NULL && self->finished, 0);
  g_return_val_if_fail (frame != NULL, 0);

  /* Interned: compare pointers. */
  id = GPOINTER_TO_UINT (g_hash_table_lookup (self->name_ids, frame));
  name = id > 0 ? self->names->pdata[id - 1] : NULL;
  inside = g_new0 (guint8, self->n_nodes);
  for (guint i = 1; name != NULL && i < self->n_nodes; i++)
    {
      const WsFlameNode *n = &self->nodes[i];

      inside[i] = inside[n->parent] || (self->nodes[n->parent].name == name && n->parent != WS_FLAME_ROOT);
      if (n->name != name || inside[i])
        continue;
      sum += n->total;
      add_relative (up, self->nodes[n->parent].name, n->total);
      for (guint c = n->first_child; c < n->first_child + n->n_children; c++)
        add_relative (down, self->nodes[c].name, self->nodes[c].total);
    }
  if (callers != NULL)
    *callers = relatives_array (up);
  if (callees != NULL)
    *callees = relatives_array (down);
  return sum;
}

/* The child of @parent in @tree named @name (by binary search), or G_MAXUINT. */
static guint
find_child (WsFlameTree *tree,
            guint        parent,
            const char  *name)
{
  const WsFlameNode *p = &tree->nodes[parent];
  guint lo = p->first_child, hi = p->first_child + p->n_children;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (strcmp (tree->nodes[mid].name, name) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < p->first_child + p->n_children && strcmp (tree->nodes[lo].name, name) == 0 ? lo : G_MAXUINT;
}

/**
 * ws_flame_tree_diff:
 * @base: the tree to compare with (the "before", or the fast selection)
 * @normalise: scale @base to @self's total first, so that shares are
 *   compared rather than amounts (difffolded.pl -n)
 *
 * A differential flame graph, drawn with @self's shape: for each node of
 * @self, its total minus the total of the same path (same frames from the
 * root) in @base, scaled if asked; a path @base lacks counts in full.
 * Paths only @base has are not in @self's shape and are not counted.
 *
 * Returns: (transfer full) (array): one difference per node of @self
 */
double *
ws_flame_tree_diff (WsFlameTree *self,
                    WsFlameTree *base,
                    gboolean     normalise)
{
  g_autofree guint *match = NULL;
  double *delta;
  double scale = 1.0;

  g_return_val_if_fail (self != NULL && self->finished, NULL);
  g_return_val_if_fail (base != NULL && base->finished, NULL);

  if (normalise && base->nodes[WS_FLAME_ROOT].total > 0)
    scale = (double) self->nodes[WS_FLAME_ROOT].total / base->nodes[WS_FLAME_ROOT].total;
  match = g_new (guint, self->n_nodes);
  delta = g_new0 (double, self->n_nodes);
  match[WS_FLAME_ROOT] = WS_FLAME_ROOT;
  /* Breadth first: a node's parent is matched before it. */
  for (guint i = 0; i < self->n_nodes; i++)
    {
      const WsFlameNode *n = &self->nodes[i];

      if (i != WS_FLAME_ROOT)
        match[i] = match[n->parent] == G_MAXUINT ? G_MAXUINT : find_child (base, match[n->parent], n->name);
      delta[i] = (double) n->total - (match[i] == G_MAXUINT ? 0.0 : scale * base->nodes[match[i]].total);
    }
  return delta;
}
