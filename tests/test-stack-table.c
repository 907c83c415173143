/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-stack-table.h"

static void
test_frames_interned_once (void)
{
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  WsFrameId a = ws_stack_table_intern_frame (table, "main", "/usr/bin/app");
  WsFrameId b = ws_stack_table_intern_frame (table, "main", "/usr/lib/libc.so.6");
  WsFrameId c = ws_stack_table_intern_frame_len (table, "mainXX", 4, "/usr/bin/appYY", 12);

  g_assert_cmpuint (a, !=, b);
  g_assert_cmpuint (a, ==, c);
  g_assert_cmpstr (ws_stack_table_get_frame (table, b)->module, ==, "/usr/lib/libc.so.6");
  g_assert_cmpuint (ws_stack_table_get_n_frames (table), ==, 2);
}

static void
test_stacks_interned_once_and_survive_growth (void)
{
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  WsStackId ids[5000];

  /* Enough distinct stacks to force several rehashes of both tables. */
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autofree char *name = g_strdup_printf ("fn_%u", i);
      WsFrameId frames[3] = {
        ws_stack_table_intern_frame (table, "root", "m"),
        ws_stack_table_intern_frame (table, name, "m"),
        ws_stack_table_intern_frame (table, "leaf", "m"),
      };
      ids[i] = ws_stack_table_intern_stack (table, frames, 3);
      g_assert_cmpuint (ids[i], !=, WS_STACK_EMPTY);
    }

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autofree char *name = g_strdup_printf ("fn_%u", i);
      WsFrameId frames[3] = {
        ws_stack_table_intern_frame (table, "root", "m"),
        ws_stack_table_intern_frame (table, name, "m"),
        ws_stack_table_intern_frame (table, "leaf", "m"),
      };
      guint n;
      const WsFrameId *got;

      g_assert_cmpuint (ws_stack_table_intern_stack (table, frames, 3), ==, ids[i]);
      got = ws_stack_table_get_stack (table, ids[i], &n);
      g_assert_cmpuint (n, ==, 3);
      g_assert_cmpstr (ws_stack_table_get_frame (table, got[1])->function, ==, name);
      g_assert_true (ws_stack_table_stack_contains (table, ids[i], frames[1]));
    }

  g_assert_cmpuint (ws_stack_table_get_n_stacks (table), ==, G_N_ELEMENTS (ids) + 1);
  g_assert_cmpuint (ws_stack_table_get_n_frames (table), ==, G_N_ELEMENTS (ids) + 2);
}

static void
test_empty_stack (void)
{
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  guint n = 99;

  g_assert_cmpuint (ws_stack_table_intern_stack (table, NULL, 0), ==, WS_STACK_EMPTY);
  g_assert_null (ws_stack_table_get_stack (table, WS_STACK_EMPTY, &n));
  g_assert_cmpuint (n, ==, 0);
}

/* A random stream of interning: some frames and stacks of a small pool
 * (so that they repeat, within and across tables), frames interned on
 * their own too, as an importer may. */
static void
intern_random (WsStackTable *table,
               GRand        *rand,
               guint         n_ops)
{
  for (guint op = 0; op < n_ops; op++)
    {
      WsFrameId frames[8];
      guint n = g_rand_int_range (rand, 0, G_N_ELEMENTS (frames) + 1);

      for (guint i = 0; i < n; i++)
        {
          g_autofree char *fn = g_strdup_printf ("f%d", g_rand_int_range (rand, 0, 60));
          g_autofree char *mod = g_strdup_printf ("m%d", g_rand_int_range (rand, 0, 4));

          frames[i] = ws_stack_table_intern_frame (table, fn, mod);
        }
      if (g_rand_int_range (rand, 0, 5) > 0)
        ws_stack_table_intern_stack (table, frames, n);
    }
}

static void
assert_tables_equal (WsStackTable *a,
                     WsStackTable *b)
{
  g_assert_cmpuint (ws_stack_table_get_n_frames (a), ==, ws_stack_table_get_n_frames (b));
  g_assert_cmpuint (ws_stack_table_get_n_stacks (a), ==, ws_stack_table_get_n_stacks (b));
  for (guint f = 0; f < ws_stack_table_get_n_frames (a); f++)
    {
      g_assert_cmpstr (ws_stack_table_get_frame (a, f)->function, ==, ws_stack_table_get_frame (b, f)->function);
      g_assert_cmpstr (ws_stack_table_get_frame (a, f)->module, ==, ws_stack_table_get_frame (b, f)->module);
    }
  for (guint s = 0; s < ws_stack_table_get_n_stacks (a); s++)
    {
      guint na, nb;
      const WsFrameId *fa = ws_stack_table_get_stack (a, s, &na), *fb = ws_stack_table_get_stack (b, s, &nb);

      g_assert_cmpuint (na, ==, nb);
      if (na > 0)
        g_assert_cmpmem (fa, na * sizeof (WsFrameId), fb, nb * sizeof (WsFrameId));
    }
}

/* The law of ws_stack_table_copy_into(): interning a stream into a table
 * of its own and copying that into a shared table gives the shared table
 * exactly the ids interning the stream there directly gives, and the map
 * sends each stack to that id. */
static void
test_copy_into_law (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261128);

  for (guint c = 0; c < 300; c++)
    {
      g_autoptr(WsStackTable) direct = ws_stack_table_new ();
      g_autoptr(WsStackTable) shared = ws_stack_table_new ();
      g_autoptr(WsStackTable) own = ws_stack_table_new ();
      g_autofree WsStackId *map = NULL;
      guint32 seed_before = g_rand_int (rand), seed_stream = g_rand_int (rand);
      guint n_before = g_rand_int_range (rand, 0, 40), n_stream = g_rand_int_range (rand, 0, 80);
      g_autoptr(GRand) r1 = g_rand_new_with_seed (seed_before);
      g_autoptr(GRand) r2 = g_rand_new_with_seed (seed_before);
      g_autoptr(GRand) s1 = g_rand_new_with_seed (seed_stream);
      g_autoptr(GRand) s2 = g_rand_new_with_seed (seed_stream);

      /* What other traces left in the shared table, the same in both. */
      intern_random (direct, r1, n_before);
      intern_random (shared, r2, n_before);
      /* The new trace: straight into one, through a table of its own into the other. */
      intern_random (direct, s1, n_stream);
      intern_random (own, s2, n_stream);
      map = ws_stack_table_copy_into (own, shared);
      assert_tables_equal (direct, shared);
      for (guint s = 0; s < ws_stack_table_get_n_stacks (own); s++)
        {
          guint n, m;
          const WsFrameId *f = ws_stack_table_get_stack (own, s, &n);
          const WsFrameId *g = ws_stack_table_get_stack (shared, map[s], &m);

          g_assert_cmpuint (n, ==, m);
          for (guint i = 0; i < n; i++)
            g_assert_cmpstr (ws_stack_table_get_frame (own, f[i])->function, ==,
                             ws_stack_table_get_frame (shared, g[i])->function);
        }
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stack-table/frames-interned-once", test_frames_interned_once);
  g_test_add_func ("/stack-table/stacks-interned-once", test_stacks_interned_once_and_survive_growth);
  g_test_add_func ("/stack-table/empty-stack", test_empty_stack);
  g_test_add_func ("/stack-table/copy-into-law", test_copy_into_law);
  return g_test_run ();
}
