/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A fleet opened for mining alone, its thread spans read again when
 * Contrast asks (ws_digest_load_spans(), issue 28).
 *
 * The law, over random fates of the fleet's files between the two
 * readings — left alone, written again with the same bytes (a newer
 * time, the same content), replaced by another run, removed:
 *
 * - the traces kept are exactly the ones left alone or written alike, in
 *   the fleet's order; every other is in `failed`, its message naming its
 *   path (changed: "changed since the fleet was opened"; removed: the
 *   loader's reason for it alone);
 * - each kept trace holds what a fleet that kept its spans at opening
 *   holds (the oracle: ws_digest_load_traces_each() with
 *   WS_DIGEST_READ_SKIP_SCENARIO_INSTANCES over the original files, the
 *   one pass the window made before): the same programs, and instance for
 *   instance the same program, duration and wait graph, node for node,
 *   its stacks compared by their frames' names (the two digests have
 *   tables of their own);
 * - the fleet read for mining alone holds no instance at all.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-digest.h"
#include "ws-trace-loader.h"

#define N_TRACES 6
#define N_ROUNDS 4

enum { LEFT_ALONE, WRITTEN_ALIKE, REPLACED, REMOVED, N_FATES };

static char *
data_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autofree char *bytes = NULL;
  gsize n;

  g_assert_true (g_file_get_contents (from, &bytes, &n, NULL));
  g_assert_true (g_file_set_contents (to, bytes, n, NULL));
}

static void
append_stack (GString      *key,
              WsStackTable *table,
              WsStackId     stack)
{
  guint n;
  const WsFrameId *frames = ws_stack_table_get_stack (table, stack, &n);

  g_string_append_c (key, '[');
  for (guint i = 0; i < n; i++)
    g_string_append_printf (key, "%s;", ws_stack_table_get_frame (table, frames[i])->function);
  g_string_append_c (key, ']');
}

/* An instance as text: program, duration, every node and edge. */
static char *
instance_key (const WsDigestInstance *inst,
              WsStackTable           *table)
{
  GString *key = g_string_new (NULL);
  const WsAwgInput *g = inst->graph;

  g_string_append_printf (key, "%s %s %" G_GINT64_FORMAT " %u/%u:", inst->scenario ? inst->scenario : "(span)",
                          inst->program, (gint64) inst->duration, g->n_nodes, g->n_edges);
  for (guint i = 0; i < g->n_nodes; i++)
    {
      const WsAwgInputNode *node = &g->nodes[i];

      g_string_append_printf (key, " %" G_GINT64_FORMAT ",%u,%u", (gint64) node->duration, node->kind, node->flags);
      append_stack (key, table, node->stack);
      append_stack (key, table, node->unwait_stack);
      for (guint32 e = g->first_edge[i]; e < g->first_edge[i + 1]; e++)
        g_string_append_printf (key, ">%u", g->edge_to[e]);
    }
  return g_string_free (key, FALSE);
}

static void
assert_same_trace (WsDigest *got,
                   guint     i,
                   WsDigest *want,
                   guint     j)
{
  const WsDigestTrace *a = ws_digest_get_trace (got, i), *b = ws_digest_get_trace (want, j);

  g_assert_cmpstr (a->path, ==, b->path);
  g_assert_cmpstr (a->content_hash, ==, b->content_hash);
  g_assert_true (a->has_instances && a->spans_only);
  g_assert_cmpstr (a->program, ==, b->program);
  g_assert_cmpuint (a->span_programs->len, ==, b->span_programs->len);
  for (guint k = 0; k < a->span_programs->len; k++)
    g_assert_cmpstr (g_ptr_array_index (a->span_programs, k), ==, g_ptr_array_index (b->span_programs, k));
  g_assert_cmpuint (a->programs->len, ==, b->programs->len);
  for (guint k = 0; k < a->programs->len; k++)
    g_assert_cmpstr (g_ptr_array_index (a->programs, k), ==, g_ptr_array_index (b->programs, k));
  g_assert_cmpuint (a->instances->len, ==, b->instances->len);
  g_assert_cmpuint (a->instances->len, >, 0);
  for (guint k = 0; k < a->instances->len; k++)
    {
      g_autofree char *x = instance_key (g_ptr_array_index (a->instances, k), ws_digest_get_stack_table (got));
      g_autofree char *y = instance_key (g_ptr_array_index (b->instances, k), ws_digest_get_stack_table (want));

      g_assert_cmpstr (x, ==, y);
    }
}

static void
test_spans_law (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-digest-spans-XXXXXX", NULL);
  g_autofree char *other = data_path ("fleet/run-20.perf.txt.gz");
  char *sources[N_TRACES + 1] = { NULL }, *copies[N_TRACES + 1] = { NULL };
  g_autoptr(GPtrArray) none = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  g_autoptr(WsDigest) oracle = NULL;
  GError *error = NULL;

  for (guint i = 0; i < N_TRACES; i++)
    {
      g_autofree char *name = g_strdup_printf ("fleet/run-%02u.perf.txt.gz", 2 * i + 1);
      g_autofree char *copy = g_strdup_printf ("copy-%u.perf.txt.gz", i);

      sources[i] = data_path (name);
      copies[i] = g_build_filename (dir, copy, NULL);
      copy_file (sources[i], copies[i]);
    }
  /* The one pass that kept the spans at opening, over the same files. */
  oracle = ws_digest_load_traces_each (copies, NULL,
                                       WS_DIGEST_READ_SKIP_WAIT_SAMPLES | WS_DIGEST_READ_SKIP_SCENARIO_INSTANCES,
                                       WS_DIGEST_ALL_AREAS, NULL, NULL, none, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (none->len, ==, 0);
  g_assert_cmpuint (ws_digest_get_n_traces (oracle), ==, N_TRACES);

  for (guint round = 0; round < N_ROUNDS; round++)
    {
      g_autoptr(GPtrArray) failed = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
      g_autoptr(GPtrArray) failed_now = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
      g_autoptr(WsDigest) fleet = NULL, spans = NULL;
      char *hashes[N_TRACES + 1] = { NULL };
      guint fate[N_TRACES], n_kept = 0, k = 0;

      for (guint i = 0; i < N_TRACES; i++)
        copy_file (sources[i], copies[i]);
      fleet = ws_digest_load_traces_each (copies, NULL, WS_DIGEST_READ_SKIP_WAIT_SAMPLES | WS_DIGEST_READ_SKIP_INSTANCES,
                                          WS_DIGEST_ALL_AREAS, NULL, NULL, failed, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ws_digest_get_n_traces (fleet), ==, N_TRACES);
      g_assert_cmpuint (ws_digest_count_instances (fleet), ==, 0);
      for (guint i = 0; i < N_TRACES; i++)
        hashes[i] = ws_digest_get_trace (fleet, i)->content_hash;

      /* Round 0 leaves every file alone; the others draw each one's fate. */
      for (guint i = 0; i < N_TRACES; i++)
        {
          fate[i] = round == 0 ? LEFT_ALONE : (guint) g_test_rand_int_range (0, N_FATES);
          if (fate[i] == WRITTEN_ALIKE)
            copy_file (sources[i], copies[i]);
          else if (fate[i] == REPLACED)
            copy_file (other, copies[i]);
          else if (fate[i] == REMOVED)
            g_assert_cmpint (g_unlink (copies[i]), ==, 0);
          n_kept += fate[i] == LEFT_ALONE || fate[i] == WRITTEN_ALIKE;
        }

      spans = ws_digest_load_spans (copies, hashes, NULL, NULL, failed_now, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ws_digest_get_n_traces (spans), ==, n_kept);
      g_assert_cmpuint (failed_now->len, ==, N_TRACES - n_kept);
      for (guint i = 0; i < N_TRACES; i++)
        {
          if (fate[i] == LEFT_ALONE || fate[i] == WRITTEN_ALIKE)
            {
              assert_same_trace (spans, k++, oracle, i);
              continue;
            }
          /* Named once, with why. */
          {
            guint named = 0;

            for (guint e = 0; e < failed_now->len; e++)
              {
                const char *message = ((GError *) g_ptr_array_index (failed_now, e))->message;

                if (strstr (message, copies[i]) == NULL)
                  continue;
                named++;
                if (fate[i] == REPLACED)
                  g_assert_nonnull (strstr (message, "changed since the fleet was opened"));
              }
            g_assert_cmpuint (named, ==, 1);
          }
        }
      g_test_message ("round %u: %u of %u kept, %u named", round, n_kept, N_TRACES, failed_now->len);
    }
  for (guint i = 0; i < N_TRACES; i++)
    {
      g_unlink (copies[i]);
      g_free (copies[i]);
      g_free (sources[i]);
    }
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/digest/spans/law", test_spans_law);
  return g_test_run ();
}
