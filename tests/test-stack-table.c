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

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stack-table/frames-interned-once", test_frames_interned_once);
  g_test_add_func ("/stack-table/stacks-interned-once", test_stacks_interned_once_and_survive_growth);
  g_test_add_func ("/stack-table/empty-stack", test_empty_stack);
  return g_test_run ();
}
