/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A trace digest: what the cross-trace analyses need of a trace, without
 * its events (docs/digest.md).  A trace is reduced once, here, by the very
 * extraction the mining run uses (ws_aoi_extract(), ws_aoi_extract_causes()
 * into a stack database), so a run over digests meets the same stacks with
 * the same costs in the same order as a run over the traces.
 *
 * Digests merge by concatenating their traces over one interned table: the
 * memory of a merge grows with distinct stacks and with the (sparse)
 * stacks each trace has, never with events.  ws_digest_sort() puts a
 * digest in its canonical order — frames by name, stacks by frames, traces
 * by path and content — which makes merging order-independent and
 * associative once written (ws-digest-file.c writes canonically).
 */
#include "config.h"

#include <string.h>

#include "ws-aoi-cause.h"
#include "ws-digest.h"
#include "ws-history-store.h"
#include "ws-stack-counts.h"
#include "ws-wait-signature.h"

struct _WsDigest {
  grefcount     ref_count;
  WsStackTable *table;
  GPtrArray    *traces;   /* WsDigestTrace */
  GHashTable   *known;    /* "path\nhash" of each trace: a digest is a set */
};

G_DEFINE_BOXED_TYPE (WsDigest, ws_digest, ws_digest_ref, ws_digest_unref)

static void
thread_clear (gpointer data)
{
  g_free (((WsDigestThread *) data)->name);
}

WsDigestTrace *
ws_digest_trace_new (void)
{
  WsDigestTrace *t = g_new0 (WsDigestTrace, 1);

  t->threads = g_array_new (FALSE, FALSE, sizeof (WsDigestThread));
  g_array_set_clear_func (t->threads, thread_clear);
  for (guint a = 0; a < WS_DIGEST_N_AREAS; a++)
    t->areas[a] = g_array_new (FALSE, FALSE, sizeof (WsDigestEntry));
  t->counts = g_array_new (FALSE, FALSE, sizeof (WsStackCount));
  t->waits = ws_wait_sample_set_new (WS_WAIT_SIGNATURE_DEFAULT_DEPTH);
  t->instances = g_ptr_array_new_with_free_func (ws_digest_instance_free);
  t->span_programs = g_ptr_array_new_with_free_func (g_free);
  t->programs = g_ptr_array_new_with_free_func (g_free);
  t->scenario_rules = g_ptr_array_new_with_free_func (g_free);
  return t;
}

void
ws_digest_trace_free (gpointer data)
{
  WsDigestTrace *t = data;

  if (t == NULL)   /* a slot ws_digest_take_selected() emptied */
    return;
  g_free (t->path);
  g_free (t->name);
  g_free (t->content_hash);
  g_array_unref (t->threads);
  for (guint a = 0; a < WS_DIGEST_N_AREAS; a++)
    g_array_unref (t->areas[a]);
  g_array_unref (t->counts);
  ws_wait_sample_set_free (t->waits);
  g_free (t->program);
  g_ptr_array_unref (t->instances);
  g_ptr_array_unref (t->span_programs);
  g_ptr_array_unref (t->programs);
  g_ptr_array_unref (t->scenario_rules);
  g_free (t);
}

WsDigest *
ws_digest_new (void)
{
  WsDigest *self = g_new0 (WsDigest, 1);

  g_ref_count_init (&self->ref_count);
  self->table = ws_stack_table_new ();
  self->traces = g_ptr_array_new_with_free_func (ws_digest_trace_free);
  self->known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return self;
}

WsDigest *
ws_digest_ref (WsDigest *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_digest_unref (WsDigest *self)
{
  g_return_if_fail (self != NULL);
  if (!g_ref_count_dec (&self->ref_count))
    return;
  g_object_unref (self->table);
  g_ptr_array_unref (self->traces);
  g_hash_table_unref (self->known);
  g_free (self);
}

WsStackTable *
ws_digest_get_stack_table (WsDigest *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->table;
}

guint
ws_digest_get_n_traces (WsDigest *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->traces->len;
}

const WsDigestTrace *
ws_digest_get_trace (WsDigest *self,
                     guint     index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->traces->len, NULL);
  return g_ptr_array_index (self->traces, index);
}

/* The identity of a trace in a digest: the same file read twice is one
 * trace, as the CLI counts a path given twice once. */
static char *
trace_key (const WsDigestTrace *t)
{
  return g_strconcat (t->path, "\n", t->content_hash, NULL);
}

static gboolean
contains (WsDigest            *self,
          const WsDigestTrace *t)
{
  g_autofree char *key = trace_key (t);

  return g_hash_table_contains (self->known, key);
}

/* Adds @trace (taking it) unless the digest holds it already. */
void
ws_digest_add_trace_take (WsDigest      *self,
                          WsDigestTrace *trace)
{
  if (!g_hash_table_add (self->known, trace_key (trace)))
    {
      ws_digest_trace_free (trace);
      return;
    }
  g_ptr_array_add (self->traces, trace);
}

/* The JSON name of @area. */
const char *
ws_digest_area_to_string (WsDigestArea area)
{
  static const char *const names[] = { "waiting", "waiting_all", "running", "causes" };

  g_return_val_if_fail (area < WS_DIGEST_N_AREAS, NULL);
  return names[area];
}

/* ------------------------------------------------------------------ */
/* From a trace                                                         */

/* @db's one stream, as the digest's entries (its table is the digest's). */
static void
take_entries (GArray    *out,
              WsStackDb *db)
{
  for (guint i = 0; i < ws_stack_db_get_n_entries (db); i++)
    {
      const WsStackDbEntry *e = ws_stack_db_get_entry (db, i);
      WsDigestEntry d = { e->stack, e->n_events, e->cost, e->max_cost };

      g_array_append_val (out, d);
    }
}

/* One area of @trace by the mining run's own extraction. */
static void
reduce_area (WsDigest          *self,
             WsDigestTrace     *out,
             WsDigestArea       area,
             WsTrace           *trace,
             const WsEventSet  *delaying,
             WsFrameClassifier *classifier)
{
  g_autoptr(WsStackDb) db = ws_stack_db_new (self->table);
  g_autoptr(WsAoi) aoi = ws_aoi_new (area == WS_DIGEST_AREA_RUNNING ? WS_AOI_RUNNING : WS_AOI_WAITING);
  guint stream = ws_stack_db_add_stream (db, out->name);

  switch (area)
    {
    case WS_DIGEST_AREA_WAITING:
    case WS_DIGEST_AREA_RUNNING:
      ws_aoi_extract (aoi, trace, delaying, db, stream);
      break;
    case WS_DIGEST_AREA_WAITING_ALL:
      ws_aoi_extract (aoi, trace, NULL, db, stream);
      break;
    case WS_DIGEST_AREA_CAUSES:
      ws_aoi_extract_causes (aoi, trace, delaying, classifier, db, stream);
      break;
    case WS_DIGEST_N_AREAS:
    default:
      g_assert_not_reached ();
    }
  take_entries (out->areas[area], db);
}

static void
reduce_facts (WsDigestTrace *out,
              WsTrace       *trace)
{
  out->path = g_strdup (ws_trace_get_path (trace) ? ws_trace_get_path (trace) : "");
  out->name = g_strdup (ws_trace_get_name (trace) ? ws_trace_get_name (trace) : "");
  out->n_events = ws_trace_get_n_events (trace);
  out->n_waits = ws_trace_count_kind (trace, WS_EVENT_WAIT);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      out->n_samples += e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN);
    }
  out->start = ws_trace_get_start_time (trace);
  out->end = ws_trace_get_end_time (trace);
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThread *th = ws_trace_get_thread (trace, t);
      WsDigestThread d = { th->tid, th->pid, g_strdup (th->name ? th->name : "") };

      g_array_append_val (out->threads, d);
    }
}

/**
 * ws_digest_add_trace:
 *
 * Reduces @trace (loaded with the built-in scenario rules) to its digest,
 * keeping the thread spans of the picker's two programs, and adds it as
 * the digest's last trace.
 *
 * Returns: %FALSE with @error set if the trace could not be hashed or the
 *   run was cancelled
 */
gboolean
ws_digest_add_trace (WsDigest      *self,
                     WsTrace       *trace,
                     GCancellable  *cancellable,
                     GError       **error)
{
  return ws_digest_add_trace_full (self, trace, WS_DIGEST_READ_ALL, WS_DIGEST_ALL_AREAS, cancellable, error);
}

/**
 * ws_digest_add_trace_full:
 * @skip: the parts the run will not read, left out as a reader of the
 *   digest file leaves them out (ws_digest_read_full()): a trace mined as
 *   it is loaded needs neither its wait samples nor its contrast instances,
 *   whose wait graphs are most of a reduction's time
 * @areas: the areas to reduce, a mask of (1 << #WsDigestArea) bits; the
 *   others are left empty (a run mines one area, and extracting the causes
 *   walks every delaying wait's readier)
 *
 * ws_digest_add_trace(), keeping only what the run needs.
 */
gboolean
ws_digest_add_trace_full (WsDigest          *self,
                          WsTrace           *trace,
                          WsDigestReadFlags  skip,
                          guint              areas,
                          GCancellable      *cancellable,
                          GError           **error)
{
  return ws_digest_add_trace_with (self, trace, NULL, skip, areas, cancellable, error);
}

/**
 * ws_digest_add_trace_with:
 * @options: (nullable): the scenario rules @trace was loaded with and the
 *   programs whose spans to keep (`digest --scenario`, `--program`);
 *   %NULL: the built-in rules and the picker's two programs
 *
 * ws_digest_add_trace_full(), for a digest made for the scenario and the
 * programs the analyst cares about.
 */
gboolean
ws_digest_add_trace_with (WsDigest              *self,
                          WsTrace               *trace,
                          const WsDigestOptions *options,
                          WsDigestReadFlags      skip,
                          guint                  areas,
                          GCancellable          *cancellable,
                          GError               **error)
{
  g_autoptr(WsFrameClassifier) classifier = ws_frame_classifier_new ();
  g_autoptr(WsEventSet) delaying = NULL;
  g_autoptr(GArray) counts = NULL;
  g_autoptr(WsStackDb) importer = NULL;
  g_autofree char *hash = NULL;
  WsDigestTrace *out;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);

  if ((hash = ws_history_store_trace_digest_full (trace, cancellable, error)) == NULL)
    return FALSE;
  out = ws_digest_trace_new ();
  out->content_hash = g_steal_pointer (&hash);
  reduce_facts (out, trace);

  delaying = ws_aoi_scope_delaying (trace, classifier);
  ws_aoi_count_left_out (trace, delaying, NULL, &out->n_left_out, &out->left_out_time);
  for (guint a = 0; a < WS_DIGEST_N_AREAS; a++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ws_digest_trace_free (out);
          return FALSE;
        }
      if (areas & (1u << a))
        reduce_area (self, out, a, trace, delaying, classifier);
    }

  importer = ws_stack_db_new (self->table);
  counts = ws_stack_counts_of_trace (trace);
  for (guint i = 0; i < counts->len; i++)
    {
      WsStackCount c = g_array_index (counts, WsStackCount, i);

      c.stack = ws_stack_db_import_stack (importer, ws_trace_get_stack_table (trace), c.stack);
      g_array_append_val (out->counts, c);
    }
  if (!(skip & WS_DIGEST_READ_SKIP_WAIT_SAMPLES))
    {
      ws_wait_sample_set_free (out->waits);
      out->waits = ws_wait_sample_set_of_trace (trace, WS_WAIT_SIGNATURE_DEFAULT_DEPTH);
    }
  if (!(skip & WS_DIGEST_READ_SKIP_INSTANCES) &&
      !ws_digest_reduce_instances (out, trace, self->table, options,
                                   !(skip & WS_DIGEST_READ_SKIP_SCENARIO_INSTANCES), cancellable, error))
    {
      ws_digest_trace_free (out);
      return FALSE;
    }
  ws_digest_add_trace_take (self, out);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Merging                                                              */

static WsDigestTrace *
copy_trace (const WsDigestTrace *src,
            WsStackDb           *importer,
            WsStackTable        *source)
{
  WsDigestTrace *t = ws_digest_trace_new ();

  t->path = g_strdup (src->path);
  t->name = g_strdup (src->name);
  t->content_hash = g_strdup (src->content_hash);
  t->n_events = src->n_events;
  t->n_waits = src->n_waits;
  t->n_samples = src->n_samples;
  t->start = src->start;
  t->end = src->end;
  t->n_left_out = src->n_left_out;
  t->left_out_time = src->left_out_time;
  for (guint i = 0; i < src->threads->len; i++)
    {
      WsDigestThread d = g_array_index (src->threads, WsDigestThread, i);

      d.name = g_strdup (d.name);
      g_array_append_val (t->threads, d);
    }
  for (guint a = 0; a < WS_DIGEST_N_AREAS; a++)
    for (guint i = 0; i < src->areas[a]->len; i++)
      {
        WsDigestEntry e = g_array_index (src->areas[a], WsDigestEntry, i);

        e.stack = ws_stack_db_import_stack (importer, source, e.stack);
        g_array_append_val (t->areas[a], e);
      }
  for (guint i = 0; i < src->counts->len; i++)
    {
      WsStackCount c = g_array_index (src->counts, WsStackCount, i);

      c.stack = ws_stack_db_import_stack (importer, source, c.stack);
      g_array_append_val (t->counts, c);
    }
  t->waits->depth = src->waits->depth;
  for (guint i = 0; i < src->waits->keys->len; i++)
    {
      g_ptr_array_add (t->waits->keys, g_strdup (g_ptr_array_index (src->waits->keys, i)));
      g_ptr_array_add (t->waits->pools, g_strdup (g_ptr_array_index (src->waits->pools, i)));
    }
  g_array_append_vals (t->waits->samples, src->waits->samples->data, src->waits->samples->len);
  ws_digest_copy_instances (t, src, importer, source);
  return t;
}

/**
 * ws_digest_merge:
 *
 * Appends @other's traces to @self's, their stacks interned in @self's
 * table; a trace @self holds already (the same path and content) is not
 * added twice, so merging is a union of sets.  The order is kept: mining @self then meets the traces as it
 * would meet them given one after the other; ws_digest_sort() makes the
 * result independent of the order merged in.
 */
void
ws_digest_merge (WsDigest *self,
                 WsDigest *other)
{
  g_autoptr(WsStackDb) importer = NULL;

  g_return_if_fail (self != NULL && other != NULL && self != other);

  importer = ws_stack_db_new (self->table);
  for (guint i = 0; i < other->traces->len; i++)
    if (!contains (self, g_ptr_array_index (other->traces, i)))
      ws_digest_add_trace_take (self, copy_trace (g_ptr_array_index (other->traces, i), importer, other->table));
}

/**
 * ws_digest_take_selected:
 * @self: the digest to take the traces from; left empty (its table stays)
 *
 * The traces are moved, not copied, and the result shares @self's stack
 * table, which may hold stacks none of them has (no analysis reads the
 * table but through a trace's stacks; the signatures of a contrast go by
 * frames, not by stack numbers).  A fleet contrast selects every trace of
 * a merged digest: a copy held the instance graphs of 10,000 traces twice.
 *
 * Returns: (transfer full): a digest holding @self's traces @indices in
 *   that order (a trace given twice is held once, at its first place)
 */
WsDigest *
ws_digest_take_selected (WsDigest    *self,
                         const guint *indices,
                         guint        n)
{
  WsDigest *out;

  g_return_val_if_fail (self != NULL && (indices != NULL || n == 0), NULL);

  out = g_new0 (WsDigest, 1);
  g_ref_count_init (&out->ref_count);
  out->table = g_object_ref (self->table);
  out->traces = g_ptr_array_new_full (n, ws_digest_trace_free);
  out->known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < n; i++)
    {
      g_return_val_if_fail (indices[i] < self->traces->len, out);
      /* Taken already: it was picked before. */
      if (g_ptr_array_index (self->traces, indices[i]) != NULL)
        ws_digest_add_trace_take (out, g_steal_pointer (&g_ptr_array_index (self->traces, indices[i])));
    }
  g_ptr_array_set_size (self->traces, 0);
  g_hash_table_remove_all (self->known);
  return out;
}

/* ------------------------------------------------------------------ */
/* The canonical order                                                  */

static int
compare_traces (gconstpointer a,
                gconstpointer b)
{
  const WsDigestTrace *x = *(WsDigestTrace *const *) a, *y = *(WsDigestTrace *const *) b;
  int c;

  if ((c = strcmp (x->path, y->path)) != 0 || (c = strcmp (x->content_hash, y->content_hash)) != 0)
    return c;
  return strcmp (x->name, y->name);
}

typedef struct {
  WsStackTable *table;
  const guint32 *frame_rank;
} StackOrder;

static int
compare_frames (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  WsStackTable *table = data;
  const WsFrame *x = ws_stack_table_get_frame (table, *(const WsFrameId *) a);
  const WsFrame *y = ws_stack_table_get_frame (table, *(const WsFrameId *) b);
  int c = strcmp (x->function, y->function);

  return c != 0 ? c : strcmp (x->module, y->module);
}

static int
compare_stacks (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  StackOrder *order = data;
  guint na, nb;
  const WsFrameId *fa = ws_stack_table_get_stack (order->table, *(const WsStackId *) a, &na);
  const WsFrameId *fb = ws_stack_table_get_stack (order->table, *(const WsStackId *) b, &nb);

  for (guint i = 0; i < MIN (na, nb); i++)
    if (order->frame_rank[fa[i]] != order->frame_rank[fb[i]])
      return order->frame_rank[fa[i]] < order->frame_rank[fb[i]] ? -1 : 1;
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/**
 * ws_digest_sort:
 *
 * Puts @self in its canonical order: traces by path, content hash and
 * name; a new table whose frames are ordered by function and module and
 * whose stacks by their frames.  Two digests holding the same traces are
 * then the same whatever order they were merged in.
 */
void
ws_digest_sort (WsDigest *self)
{
  guint n_frames = ws_stack_table_get_n_frames (self->table);
  guint n_stacks = ws_stack_table_get_n_stacks (self->table);
  g_autofree WsFrameId *frames = g_new (WsFrameId, MAX (n_frames, 1));
  g_autofree guint32 *frame_rank = g_new (guint32, MAX (n_frames, 1));
  g_autofree WsStackId *stacks = g_new (WsStackId, MAX (n_stacks, 1));
  g_autofree WsStackId *new_id = g_new0 (WsStackId, MAX (n_stacks, 1));
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  g_autoptr(GArray) copy = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  StackOrder order = { self->table, frame_rank };

  g_return_if_fail (self != NULL);

  g_ptr_array_sort (self->traces, compare_traces);
  for (guint f = 0; f < n_frames; f++)
    frames[f] = f;
  g_qsort_with_data (frames, n_frames, sizeof (WsFrameId), compare_frames, self->table);
  for (guint r = 0; r < n_frames; r++)
    {
      const WsFrame *frame = ws_stack_table_get_frame (self->table, frames[r]);

      frame_rank[frames[r]] = ws_stack_table_intern_frame (table, frame->function, frame->module);
    }
  for (guint s = 1; s < n_stacks; s++)
    stacks[s - 1] = s;
  if (n_stacks > 1)
    g_qsort_with_data (stacks, n_stacks - 1, sizeof (WsStackId), compare_stacks, &order);
  for (guint r = 0; r + 1 < n_stacks; r++)
    {
      guint n;
      const WsFrameId *f = ws_stack_table_get_stack (self->table, stacks[r], &n);

      g_array_set_size (copy, 0);
      for (guint k = 0; k < n; k++)
        g_array_append_val (copy, frame_rank[f[k]]);
      new_id[stacks[r]] = ws_stack_table_intern_stack (table, (const WsFrameId *) (gpointer) copy->data, n);
    }
  for (guint i = 0; i < self->traces->len; i++)
    {
      WsDigestTrace *t = g_ptr_array_index (self->traces, i);

      for (guint a = 0; a < WS_DIGEST_N_AREAS; a++)
        for (guint k = 0; k < t->areas[a]->len; k++)
          g_array_index (t->areas[a], WsDigestEntry, k).stack =
            new_id[g_array_index (t->areas[a], WsDigestEntry, k).stack];
      for (guint k = 0; k < t->counts->len; k++)
        g_array_index (t->counts, WsStackCount, k).stack = new_id[g_array_index (t->counts, WsStackCount, k).stack];
      ws_digest_remap_instances (t, new_id);
    }
  g_set_object (&self->table, table);
}
