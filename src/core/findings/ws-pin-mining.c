/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a pin of the Mining page records: the run's settings (so the report
 * and the page rerun ws_mining_run() on the pinned traces) and which
 * cluster.  A cluster is named by its index and by its costliest pattern's
 * frames: the index alone can move when the similarity's weights come
 * from a history that has grown since, the frames cannot.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <string.h>

#include "ws-error.h"
#include "ws-pin-mining.h"

/**
 * ws_pin_set_mining:
 * @settings: the settings @run was made with
 * @run: the run; its λ is kept rather than the guideline's inputs, so
 *   that a rerun mines the same patterns
 */
void
ws_pin_set_mining (WsPin                  *pin,
                   const WsMiningSettings *settings,
                   WsMiningResult         *run)
{
  const WsThread *thread;
  WsTrace *trace;

  ws_pin_set_setting_bool (pin, "running", settings->stacks == WS_AOI_RUNNING);
  if (settings->must != NULL && settings->must[0] != NULL)
    ws_pin_set_setting_string (pin, "must", settings->must[0]);
  if (settings->must_not != NULL && settings->must_not[0] != NULL)
    ws_pin_set_setting_string (pin, "must_not", settings->must_not[0]);
  if (settings->thread_names != NULL && *settings->thread_names != '\0')
    ws_pin_set_setting_string (pin, "threads", settings->thread_names);
  ws_pin_set_setting_int (pin, "scope", settings->scope);
  ws_pin_set_setting_bool (pin, "per_instance", settings->per_instance);
  ws_pin_set_setting_bool (pin, "critical_path", settings->critical_path);
  ws_pin_set_setting_int (pin, "lambda", run->lambda);
  ws_pin_set_setting_int (pin, "threshold_ppm", (gint64) (settings->threshold * 1e6 + 0.5));
  ws_pin_set_setting_int (pin, "linkage", settings->linkage);
  ws_pin_set_setting_int (pin, "rank", settings->rank);
  if (settings->classes != NULL)
    {
      JsonArray *classes = json_array_new ();

      for (guint i = 0; i < run->n_traces; i++)
        json_array_add_string_element (classes, ws_run_class_to_string (settings->classes[i]));
      json_object_set_array_member (ws_pin_get_settings (pin), "classes", classes);
    }
  if (settings->scope != WS_MINING_RUN_SCOPE_SYMPTOM_GRAPH || settings->symptom_trace >= run->traces->len)
    return;
  trace = g_ptr_array_index (run->traces, settings->symptom_trace);
  if (settings->symptom.thread >= ws_trace_get_n_threads (trace))
    return;
  thread = ws_trace_get_thread (trace, settings->symptom.thread);
  ws_pin_set_setting_int (pin, "symptom_trace", settings->symptom_trace);
  ws_pin_set_tid (pin, thread->tid);
  ws_pin_set_window (pin, settings->symptom.t0, settings->symptom.t1);
}

/**
 * ws_pin_dup_run_classes:
 *
 * The classes @pin's run was made with, one per pinned trace, in its
 * order: what `WsMiningSettings.classes` takes.
 *
 * Returns: (transfer full) (nullable) (element-type WsRunClass): %NULL
 *   without classes, or with @error set when they are malformed (not one
 *   "slow", "fast" or "none" per trace), or when the pin ranks by the
 *   discriminative score without a slow and a fast trace
 */
GArray *
ws_pin_dup_run_classes (WsPin   *pin,
                        GError **error)
{
  JsonNode *node = json_object_get_member (ws_pin_get_settings (pin), "classes");
  gint64 rank = ws_pin_get_setting_int (pin, "rank", WS_CLUSTER_RANK_TOTAL);
  g_autoptr(GArray) classes = NULL;
  JsonArray *array;
  guint n_slow = 0, n_fast = 0;

  if (node == NULL && rank != WS_CLUSTER_RANK_DISCRIMINATIVE)
    return NULL;
  if (node != NULL && (!JSON_NODE_HOLDS_ARRAY (node) ||
                       json_array_get_length (json_node_get_array (node)) != ws_pin_get_n_traces (pin)))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("a mining pin’s “classes” must be an array of one class per trace (%u)"),
                   ws_pin_get_n_traces (pin));
      return NULL;
    }
  classes = g_array_new (FALSE, FALSE, sizeof (WsRunClass));
  array = node != NULL ? json_node_get_array (node) : NULL;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *e = json_array_get_element (array, i);
      const char *s = JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING
                      ? json_node_get_string (e) : "";
      WsRunClass klass = g_str_equal (s, "slow") ? WS_RUN_CLASS_SLOW
                         : g_str_equal (s, "fast") ? WS_RUN_CLASS_FAST : WS_RUN_CLASS_NONE;

      if (klass == WS_RUN_CLASS_NONE && !g_str_equal (s, "none"))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       _("a mining pin’s class %u must be “slow”, “fast” or “none”"), i);
          return NULL;
        }
      n_slow += klass == WS_RUN_CLASS_SLOW;
      n_fast += klass == WS_RUN_CLASS_FAST;
      g_array_append_val (classes, klass);
    }
  if (rank == WS_CLUSTER_RANK_DISCRIMINATIVE && (n_slow == 0 || n_fast == 0))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s",
                   _("a mining pin ranked by what slow traces have more of must record its traces’ “classes”, "
                     "a slow and a fast one at least"));
      return NULL;
    }
  return g_steal_pointer (&classes);
}

/**
 * ws_pin_mining_check:
 *
 * The session reader's check of an alignment or coverage pin
 * (#WsPinKindInfo): a rank it knows, and classes that could rank again.
 */
gboolean
ws_pin_mining_check (WsPin   *pin,
                     GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(GArray) classes = NULL;
  JsonNode *rank = json_object_get_member (ws_pin_get_settings (pin), "rank");

  if (rank != NULL && (json_node_get_value_type (rank) != G_TYPE_INT64 || json_node_get_int (rank) < WS_CLUSTER_RANK_TOTAL ||
                       json_node_get_int (rank) > WS_CLUSTER_RANK_DISCRIMINATIVE))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("a mining pin’s “rank” must be an integer from %d to %d"),
                   WS_CLUSTER_RANK_TOTAL, WS_CLUSTER_RANK_DISCRIMINATIVE);
      return FALSE;
    }
  classes = ws_pin_dup_run_classes (pin, &local);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

static char *
dup_setting (WsPin      *pin,
             const char *name)
{
  const char *s = ws_pin_get_setting_string (pin, name, NULL);

  return s != NULL && *s != '\0' ? g_strdup (s) : NULL;
}

/* The symptom of a graph scope: the pinned thread and window, looked up
 * in the pinned trace. */
static gboolean
get_symptom (WsPin            *pin,
             GPtrArray        *traces,
             WsMiningSettings *s,
             GError          **error)
{
  gint64 index = ws_pin_get_setting_int (pin, "symptom_trace", 0);
  WsTime t0, t1;
  guint thread;

  if (index < 0 || index >= traces->len || !ws_pin_get_window (pin, &t0, &t1))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s", _("the pin's wait-graph scope names no trace and window"));
      return FALSE;
    }
  thread = ws_trace_find_thread (g_ptr_array_index (traces, index), ws_pin_get_tid (pin));
  if (thread == WS_NONE)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("the pin's thread %d is not in its trace"), ws_pin_get_tid (pin));
      return FALSE;
    }
  s->symptom_trace = index;
  s->symptom = (WsSymptom) { thread, t0, t1 };
  return TRUE;
}

/**
 * ws_pin_get_mining:
 * @traces: (element-type WsTrace): the pin's traces, in its order
 *
 * The settings to rerun @pin's mining with.  The history store is only
 * read: redrawing a finding records nothing.
 */
gboolean
ws_pin_get_mining (WsPin        *pin,
                   GPtrArray    *traces,
                   WsPinMining  *out,
                   GError      **error)
{
  WsMiningSettings *s = &out->settings;

  memset (out, 0, sizeof *out);
  ws_mining_settings_init (s);
  s->stacks = ws_pin_get_setting_bool (pin, "running", FALSE) ? WS_AOI_RUNNING : WS_AOI_WAITING;
  out->must[0] = dup_setting (pin, "must");
  out->must_not[0] = dup_setting (pin, "must_not");
  out->threads = dup_setting (pin, "threads");
  s->must = (const char * const *) out->must;
  s->must_not = (const char * const *) out->must_not;
  s->thread_names = out->threads;
  s->scope = CLAMP (ws_pin_get_setting_int (pin, "scope", s->scope), WS_MINING_RUN_SCOPE_ALL, WS_MINING_RUN_SCOPE_DELAYING);
  s->per_instance = ws_pin_get_setting_bool (pin, "per_instance", TRUE);
  s->critical_path = ws_pin_get_setting_bool (pin, "critical_path", FALSE);
  s->lambda = MAX (0, ws_pin_get_setting_int (pin, "lambda", 0));
  s->cluster = TRUE;
  s->threshold = CLAMP (ws_pin_get_setting_int (pin, "threshold_ppm", s->threshold * 1e6) / 1e6, 0.0, 1.0);
  s->linkage = CLAMP (ws_pin_get_setting_int (pin, "linkage", s->linkage), WS_LINKAGE_AVERAGE, WS_LINKAGE_SINGLE);
  s->rank = CLAMP (ws_pin_get_setting_int (pin, "rank", s->rank), WS_CLUSTER_RANK_TOTAL, WS_CLUSTER_RANK_DISCRIMINATIVE);
  s->record_history = FALSE;
  {
    g_autoptr(GError) local = NULL;

    out->classes = ws_pin_dup_run_classes (pin, &local);
    if (local == NULL && out->classes != NULL && out->classes->len != traces->len)
      g_set_error (&local, WS_ERROR, WS_ERROR_INVALID, _("the pin records classes of %u traces, not of its %u"),
                   out->classes->len, traces->len);
    if (local != NULL)
      {
        g_propagate_error (error, g_steal_pointer (&local));
        ws_pin_mining_clear (out);
        return FALSE;
      }
    s->classes = out->classes != NULL ? (const WsRunClass *) (gconstpointer) out->classes->data : NULL;
  }
  if (s->scope == WS_MINING_RUN_SCOPE_SYMPTOM_GRAPH && !get_symptom (pin, traces, s, error))
    {
      ws_pin_mining_clear (out);
      return FALSE;
    }
  return ws_mining_settings_check (s, error);
}

void
ws_pin_mining_clear (WsPinMining *mining)
{
  g_clear_pointer (&mining->must[0], g_free);
  g_clear_pointer (&mining->must_not[0], g_free);
  g_clear_pointer (&mining->threads, g_free);
  g_clear_pointer (&mining->classes, g_array_unref);
}

/**
 * ws_mining_cluster_signature:
 *
 * The frames of @cluster's costliest pattern, caller first, one
 * "function (module)" a line; %NULL without such a cluster.
 */
char *
ws_mining_cluster_signature (WsMiningResult *run,
                             guint           cluster)
{
  WsStackTable *table;
  const WsCluster *cl;
  const WsPattern *p;
  GString *s;

  if (run->clusters == NULL || cluster >= ws_cluster_set_get_n_clusters (run->clusters))
    return NULL;
  cl = ws_cluster_set_get_cluster (run->clusters, cluster);
  if (cl->n_patterns == 0)
    return NULL;
  p = ws_pattern_set_get_pattern (run->patterns, cl->patterns[0]);
  table = ws_stack_db_get_stack_table (run->db);
  s = g_string_new (NULL);
  for (guint i = 0; i < p->n_frames; i++)
    {
      g_autofree char *frame = ws_stack_table_format_frame (table, p->frames[i]);

      g_string_append_printf (s, "%s%s", i ? "\n" : "", frame);
    }
  return g_string_free (s, FALSE);
}

void
ws_pin_set_cluster (WsPin          *pin,
                    WsMiningResult *run,
                    guint           cluster)
{
  g_autofree char *signature = ws_mining_cluster_signature (run, cluster);

  ws_pin_set_setting_int (pin, "cluster", cluster);
  if (signature != NULL)
    ws_pin_set_setting_string (pin, "cluster_signature", signature);
}

/**
 * ws_pin_find_cluster:
 *
 * The cluster of @run that @pin names: the one whose costliest pattern
 * has the pinned frames, else the pinned index; %G_MAXUINT if neither.
 */
guint
ws_pin_find_cluster (WsPin          *pin,
                     WsMiningResult *run)
{
  const char *signature = ws_pin_get_setting_string (pin, "cluster_signature", NULL);
  gint64 index = ws_pin_get_setting_int (pin, "cluster", 0);
  guint n = run->clusters ? ws_cluster_set_get_n_clusters (run->clusters) : 0;

  for (guint i = 0; signature != NULL && i < n; i++)
    {
      g_autofree char *s = ws_mining_cluster_signature (run, i);

      if (g_strcmp0 (s, signature) == 0)
        return i;
    }
  return index >= 0 && index < n ? (guint) index : G_MAXUINT;
}

/* ------------------------------------------------------------------ */
/* Signatures of a coverage pin                                         */

/* The signatures a coverage pin names, kept by their frames' function and
 * module (caller first) rather than by frame ids: a rerun builds a new
 * stack table, and the ids change with it. */
static JsonArray *
signatures (WsPin    *pin,
            gboolean  create)
{
  JsonObject *settings = ws_pin_get_settings (pin);
  JsonNode *node = json_object_get_member (settings, "signatures");

  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    return json_node_get_array (node);
  if (!create)
    return NULL;
  json_object_set_array_member (settings, "signatures", json_array_new ());
  return json_object_get_array_member (settings, "signatures");
}

/**
 * ws_pin_add_signature_keys:
 * @keys: (array zero-terminated=1): the frames, caller first, each
 *   "function\x1fmodule" (as the Mining page keeps its signatures)
 *
 * Adds a signature whose bottleneck coverage the pin charts.
 */
void
ws_pin_add_signature_keys (WsPin              *pin,
                           const char         *name,
                           const char * const *keys)
{
  JsonObject *sig = json_object_new ();
  JsonArray *list = json_array_new ();

  g_return_if_fail (WS_IS_PIN (pin) && name != NULL && keys != NULL);

  for (guint k = 0; keys[k] != NULL; k++)
    {
      const char *sep = strchr (keys[k], '\x1f');
      JsonObject *frame = json_object_new ();
      g_autofree char *function = sep ? g_strndup (keys[k], sep - keys[k]) : g_strdup (keys[k]);

      json_object_set_string_member (frame, "function", function);
      json_object_set_string_member (frame, "module", sep ? sep + 1 : "");
      json_array_add_object_element (list, frame);
    }
  json_object_set_string_member (sig, "name", name);
  json_object_set_array_member (sig, "frames", list);
  json_array_add_object_element (signatures (pin, TRUE), sig);
}

static char *frame_key (const char *function, const char *module);

/**
 * ws_pin_add_signature:
 * @table: the table @frames are in
 * @frames: (array length=n_frames): the signature's frames, caller first
 */
void
ws_pin_add_signature (WsPin           *pin,
                      const char      *name,
                      WsStackTable    *table,
                      const WsFrameId *frames,
                      guint            n_frames)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);

  for (guint k = 0; k < n_frames; k++)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, frames[k]);

      g_ptr_array_add (keys, frame_key (f->function, f->module));
    }
  g_ptr_array_add (keys, NULL);
  ws_pin_add_signature_keys (pin, name, (const char * const *) keys->pdata);
}

/**
 * ws_pin_get_signature_keys:
 * @name: (out) (transfer none): its name
 *
 * Returns: (transfer full) (nullable): signature @i's frames as
 *   "function\x1fmodule" keys, caller first; %NULL if malformed
 */
GStrv
ws_pin_get_signature_keys (WsPin       *pin,
                           guint        i,
                           const char **name)
{
  JsonArray *list = signatures (pin, FALSE);
  g_autoptr(GStrvBuilder) keys = g_strv_builder_new ();
  JsonObject *sig;
  JsonNode *frames;

  if (list == NULL || i >= json_array_get_length (list) || !JSON_NODE_HOLDS_OBJECT (json_array_get_element (list, i)))
    return NULL;
  sig = json_array_get_object_element (list, i);
  frames = json_object_get_member (sig, "frames");
  if (frames == NULL || !JSON_NODE_HOLDS_ARRAY (frames))
    return NULL;
  *name = json_object_get_string_member_with_default (sig, "name", "");
  for (guint k = 0; k < json_array_get_length (json_node_get_array (frames)); k++)
    {
      JsonNode *f = json_array_get_element (json_node_get_array (frames), k);
      g_autofree char *key = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (f))
        return NULL;
      key = frame_key (json_object_get_string_member_with_default (json_node_get_object (f), "function", ""),
                       json_object_get_string_member_with_default (json_node_get_object (f), "module", ""));
      g_strv_builder_add (keys, key);
    }
  return g_strv_builder_end (keys);
}

guint
ws_pin_get_n_signatures (WsPin *pin)
{
  JsonArray *list = signatures (pin, FALSE);

  return list != NULL ? json_array_get_length (list) : 0;
}

static char *
frame_key (const char *function,
           const char *module)
{
  return g_strconcat (function ? function : "", "\x1f", module ? module : "", NULL);
}

/* One stored signature's frames as ids of @ids' table; FALSE if one of
 * them is not there (or the entry is malformed). */
static gboolean
match_signature (JsonNode   *node,
                 GHashTable *ids,
                 GArray     *frames)
{
  JsonArray *list;

  if (!JSON_NODE_HOLDS_OBJECT (node) || !json_object_has_member (json_node_get_object (node), "frames") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (json_node_get_object (node), "frames")))
    return FALSE;
  list = json_object_get_array_member (json_node_get_object (node), "frames");
  for (guint k = 0; k < json_array_get_length (list); k++)
    {
      JsonNode *f = json_array_get_element (list, k);
      g_autofree char *key = NULL;
      guint id;
      WsFrameId fid;

      if (!JSON_NODE_HOLDS_OBJECT (f))
        return FALSE;
      key = frame_key (json_object_get_string_member_with_default (json_node_get_object (f), "function", ""),
                       json_object_get_string_member_with_default (json_node_get_object (f), "module", ""));
      id = GPOINTER_TO_UINT (g_hash_table_lookup (ids, key));
      if (id == 0)
        return FALSE;
      fid = id - 1;
      g_array_append_val (frames, fid);
    }
  return frames->len > 0;
}

/**
 * ws_pin_get_coverage:
 * @run: a rerun of the pin's mining
 * @n_missing: (out) (optional): signatures whose frames are not all in
 *   @run's stacks (left out)
 *
 * Returns: (transfer full): the bottleneck coverage of the pinned
 *   signatures over @run's streams
 */
WsCoverage *
ws_pin_get_coverage (WsPin          *pin,
                     WsMiningResult *run,
                     guint          *n_missing)
{
  WsStackTable *table = ws_stack_db_get_stack_table (run->db);
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonArray *list = signatures (pin, FALSE);
  WsCoverage *coverage = ws_coverage_new (run->db);
  guint missing = 0;

  for (guint f = ws_stack_table_get_n_frames (table); f-- > 0;)
    {
      const WsFrame *frame = ws_stack_table_get_frame (table, f);

      /* Backwards, so that the smallest id of a key is the one kept. */
      g_hash_table_insert (ids, frame_key (frame->function, frame->module), GUINT_TO_POINTER (f + 1));
    }
  for (guint i = 0; list != NULL && i < json_array_get_length (list); i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
      const char *name;

      if (!match_signature (node, ids, frames))
        {
          missing++;
          continue;
        }
      name = json_object_get_string_member_with_default (json_node_get_object (node), "name", "");
      ws_coverage_add_signature (coverage, name, (const WsFrameId *) (gpointer) frames->data, frames->len);
    }
  if (n_missing != NULL)
    *n_missing = missing;
  return coverage;
}
