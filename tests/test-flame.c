/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Flame graphs against independent oracles.
 *
 * - Widths: `waitscope-cli flamegraph --json` against the folded lines
 *   `waitscope-cli collapse --ns` writes for the same selection, summed per
 *   prefix here: every node's total is the sum of the lines under its
 *   path, its self the line ending there, and there is no other node; on
 *   every real trace, on-CPU, off-CPU and off-wake, whole and with a
 *   window and threads.
 * - Totals: the root's total is the selection's total computed here from
 *   the raw events (waits clipped to the window; samples taken in it),
 *   over random windows and random thread sets (a property), through the
 *   core entry point.
 * - Search: the share the CLI prints is the share of folded lines holding
 *   a match, counted once per line.
 * - Callers and callees, the SVG (parsed as XML, naming the top frames),
 *   PNG and PDF, zoom geometry and hit testing, bad options.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ws-cli-test-util.h"
#include "ws-collapse.h"
#include "ws-flame-renderer.h"
#include "ws-flame-run.h"
#include "ws-trace-loader.h"

static const char *traces[] = {
  "py-locks.perf.txt.gz", "py-locks-dwarf.perf.txt.gz", "build.perf.txt.gz",
  "io-fsync.perf.txt.gz", "pg-tpcb.perf.txt.gz",
};

/* Folded lines → per-prefix totals and per-line counts. */
typedef struct {
  GHashTable *prefix_total;   /* "a;b;c" -> guint64* */
  GHashTable *exact;          /* "a;b;c" -> guint64* */
  guint64     total;
} Tally;

static void
tally_add (GHashTable *h, const char *key, guint64 v)
{
  guint64 *p = g_hash_table_lookup (h, key);
  if (p == NULL)
    g_hash_table_insert (h, g_strdup (key), p = g_new0 (guint64, 1));
  *p += v;
}

static void
tally_init (Tally *t, const char *folded)
{
  g_auto(GStrv) lines = g_strsplit (folded, "\n", -1);

  t->prefix_total = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  t->exact = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  t->total = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *space = strrchr (lines[i], ' ');
      guint64 count;

      if (lines[i][0] == '\0')
        continue;
      g_assert_nonnull (space);
      *space = '\0';
      count = g_ascii_strtoull (space + 1, NULL, 10);
      t->total += count;
      tally_add (t->exact, lines[i], count);
      for (char *p = lines[i]; ; p++)
        if (*p == ';' || *p == '\0')
          {
            char c = *p;
            *p = '\0';
            tally_add (t->prefix_total, lines[i], count);
            *p = c;
            if (c == '\0')
              break;
          }
    }
}

static void
tally_clear (Tally *t)
{
  g_hash_table_unref (t->prefix_total);
  g_hash_table_unref (t->exact);
}

static guint64
lookup (GHashTable *h, const char *key)
{
  guint64 *p = g_hash_table_lookup (h, key);
  return p ? *p : 0;
}

/* Every node against the tally; returns the number of nodes below the root. */
static guint
check_node (JsonObject *node, const char *path, const Tally *t)
{
  JsonArray *children = json_object_has_member (node, "children") ? json_object_get_array_member (node, "children") : NULL;
  guint n = 0;
  const char *previous = NULL;

  if (path != NULL)
    {
      if ((guint64) json_object_get_int_member (node, "total") != lookup (t->prefix_total, path))
        g_error ("%s: total %" G_GINT64_FORMAT ", folded lines say %" G_GUINT64_FORMAT, path,
                 json_object_get_int_member (node, "total"), lookup (t->prefix_total, path));
      g_assert_cmpuint ((guint64) json_object_get_int_member (node, "self"), ==, lookup (t->exact, path));
    }
  for (guint i = 0; children != NULL && i < json_array_get_length (children); i++)
    {
      JsonObject *c = json_array_get_object_element (children, i);
      const char *name = json_object_get_string_member (c, "name");
      g_autofree char *child_path = path ? g_strconcat (path, ";", name, NULL) : g_strdup (name);

      /* Children in name order: a stable layout. */
      if (previous != NULL)
        g_assert_cmpint (strcmp (previous, name), <, 0);
      previous = name;
      n += 1 + check_node (c, child_path, t);
    }
  return n;
}

static void
compare_with_collapse (const char *trace, const char * const *flame_args, const char * const *collapse_args)
{
  g_autoptr(GPtrArray) fa = g_ptr_array_new ();
  g_autoptr(GPtrArray) ca = g_ptr_array_new ();
  g_autofree char *json = NULL, *folded = NULL, *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  Tally t;
  guint n;

  g_ptr_array_add (fa, "flamegraph");
  for (guint i = 0; flame_args[i]; i++)
    g_ptr_array_add (fa, (gpointer) flame_args[i]);
  g_ptr_array_add (fa, "--json");
  g_ptr_array_add (fa, (gpointer) trace);
  g_ptr_array_add (fa, NULL);
  g_ptr_array_add (ca, "collapse");
  g_ptr_array_add (ca, "--ns");
  for (guint i = 0; collapse_args[i]; i++)
    g_ptr_array_add (ca, (gpointer) collapse_args[i]);
  g_ptr_array_add (ca, (gpointer) trace);
  g_ptr_array_add (ca, NULL);

  g_assert_cmpint (ws_test_run_cli ((const char * const *) fa->pdata, &json, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (ws_test_run_cli ((const char * const *) ca->pdata, &folded, &err), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  tally_init (&t, folded);
  g_assert_cmpuint ((guint64) json_object_get_int_member (root, "total"), ==, t.total);
  n = check_node (json_object_get_object_member (root, "root"), NULL, &t);
  g_assert_cmpuint (n, >, 0);
  /* No node the folded lines do not have. */
  g_assert_cmpuint (n, ==, g_hash_table_size (t.prefix_total));
  if (g_test_verbose ())
    g_printerr ("%s %s: %u nodes, total %" G_GUINT64_FORMAT "\n", trace, flame_args[0] ? flame_args[0] : "on-cpu",
                n, t.total);
  tally_clear (&t);
}

/* A window in the trace's middle and the tid of the thread waiting most often in it. */
static void
pick_selection (const char *path, char **window, char **tid)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  WsTime t0, t1, span;
  guint best = 0, best_n = 0;

  g_assert_no_error (error);
  t0 = ws_trace_get_start_time (trace);
  t1 = ws_trace_get_end_time (trace);
  span = t1 - t0;
  *window = g_strdup_printf ("%" G_GINT64_FORMAT "ns:%" G_GINT64_FORMAT "ns", t0 + span / 3, t0 + 2 * span / 3);
  for (guint i = 0; i < ws_trace_get_n_threads (trace); i++)
    {
      const WsThread *t = ws_trace_get_thread (trace, i);
      guint n = 0;

      for (guint k = 0; k < t->n_events; k++)
        {
          const WsEvent *e = ws_trace_get_event (trace, t->events[k]);
          n += e->kind == WS_EVENT_WAIT && e->time > t0 + span / 3 && e->time < t0 + 2 * span / 3;
        }
      if (n > best_n)
        best_n = n, best = i;
    }
  *tid = g_strdup_printf ("%d", ws_trace_get_thread (trace, best)->tid);
}

static void
test_widths_equal_collapse (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    {
      g_autofree char *path = ws_cli_test_data_path (traces[i]);
      g_autofree char *window = NULL, *tid = NULL;

      pick_selection (path, &window, &tid);
      {
        const char *on[] = { NULL }, *on_c[] = { NULL };
        const char *off[] = { "--off-cpu", NULL }, *off_c[] = { "--waits", NULL };
        const char *wake[] = { "--waker", NULL }, *wake_c[] = { "--waker", NULL };
        const char *sel[] = { "--off-cpu", "--window", window, "--tid", tid, NULL };
        const char *sel_c[] = { "--waits", "--window", window, "--only-tid", tid, NULL };
        const char *sel_on[] = { "--window", window, NULL }, *sel_on_c[] = { "--window", window, NULL };

        compare_with_collapse (path, on, on_c);
        compare_with_collapse (path, off, off_c);
        compare_with_collapse (path, wake, wake_c);
        compare_with_collapse (path, sel, sel_c);
        compare_with_collapse (path, sel_on, sel_on_c);
      }
    }
}

/* The selection's total from the raw events. */
static guint64
raw_total (WsTrace *trace, WsFlameMode mode, WsTime a, WsTime b, const guint8 *in_scope)
{
  guint32 event = WS_NONE;
  gboolean found = FALSE;
  guint64 sum = 0;

  for (guint i = 0; i < ws_trace_get_n_events (trace) && mode == WS_FLAME_ON_CPU && !found; i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      if (e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN))
        event = ws_event_name (e), found = TRUE;
    }
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);

      if (in_scope != NULL && !in_scope[e->thread])
        continue;
      if (mode == WS_FLAME_ON_CPU && e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN) &&
          ws_event_name (e) == event && e->time >= a && e->time < b)
        sum += ws_event_duration (e);
      else if (mode != WS_FLAME_ON_CPU && e->kind == WS_EVENT_WAIT)
        {
          WsTime s = MAX (e->time, a), t = MIN (e->time + ws_event_duration (e), b);
          if (t > s)
            sum += t - s;
        }
    }
  return sum;
}

static void
test_random_windows (void)
{
  const char *names[] = { "py-locks.perf.txt.gz", "pg-tpcb.perf.txt.gz" };

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autofree char *path = ws_cli_test_data_path (names[k]);
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
      g_autoptr(GRand) rand = g_rand_new_with_seed (27 + k);
      guint n_threads = ws_trace_get_n_threads (trace);
      WsTime t0 = ws_trace_get_start_time (trace), t1 = ws_trace_get_end_time (trace);

      g_assert_no_error (error);
      for (guint round = 0; round < 60; round++)
        {
          WsTime a = t0 + (WsTime) (g_rand_double (rand) * (t1 - t0));
          WsTime b = a + (WsTime) (g_rand_double (rand) * (t1 - a));
          g_autofree guint8 *in_scope = NULL;
          g_autoptr(GArray) threads = NULL;
          WsFlameSettings settings;

          ws_flame_settings_init (&settings);
          settings.mode = round % 3;
          settings.has_window = TRUE;
          settings.window_start = a;
          settings.window_end = b;
          if (round % 2 == 1)
            {
              /* A random third of the threads. */
              in_scope = g_new0 (guint8, n_threads);
              threads = g_array_new (FALSE, FALSE, sizeof (guint));
              for (guint t = 0; t < n_threads; t++)
                if (g_rand_int_range (rand, 0, 3) == 0)
                  {
                    in_scope[t] = 1;
                    g_array_append_val (threads, t);
                  }
              settings.threads = (const guint *) threads->data;
              settings.n_threads = threads->len;
            }
          {
            g_autoptr(WsFlameGraph) graph = ws_flame_run (trace, &settings, NULL, NULL, NULL, &error);
            guint64 expected = raw_total (trace, settings.mode, a, b, in_scope);

            g_assert_no_error (error);
            g_assert_cmpuint (ws_flame_tree_get_total (graph->tree), ==, expected);
            /* Every node's total is its self plus its children's. */
            for (guint i = 0; i < ws_flame_tree_get_n_nodes (graph->tree); i++)
              {
                const WsFlameNode *n = ws_flame_tree_get_node (graph->tree, i);
                guint64 sum = n->self;
                for (guint c = n->first_child; c < n->first_child + n->n_children; c++)
                  sum += ws_flame_tree_get_node (graph->tree, c)->total;
                g_assert_cmpuint (sum, ==, n->total);
              }
          }
        }
    }
}

/* The share printed for --search: lines holding a match, once each. */
static void
test_search_share (void)
{
  g_autofree char *path = ws_cli_test_data_path ("pg-tpcb.perf.txt.gz");
  g_autofree char *dir = g_dir_make_tmp ("ws-flame-XXXXXX", NULL);
  g_autofree char *svg_path = g_build_filename (dir, "f.svg", NULL);
  const char *re = "^(LWLock|PGSemaphore|futex)";
  const char *flame[] = { "flamegraph", "--off-cpu", "--search", re, path, "-o", svg_path, NULL };
  const char *collapse[] = { "collapse", "--waits", "--ns", path, NULL };
  g_autofree char *out = NULL, *folded = NULL, *expected = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GRegex) regex = g_regex_new (re, 0, 0, NULL);
  guint64 hit = 0, all = 0;

  g_assert_cmpint (ws_test_run_cli (flame, &out, NULL), ==, 0);
  g_assert_cmpint (ws_test_run_cli (collapse, &folded, NULL), ==, 0);
  lines = g_strsplit (folded, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *space = strrchr (lines[i], ' ');
      g_auto(GStrv) frames = NULL;
      guint64 count;
      gboolean any = FALSE;

      if (space == NULL)
        continue;
      *space = '\0';
      count = g_ascii_strtoull (space + 1, NULL, 10);
      frames = g_strsplit (lines[i], ";", -1);
      for (guint f = 0; frames[f] != NULL; f++)
        any = any || g_regex_match (regex, frames[f], 0, NULL);
      all += count;
      hit += any ? count : 0;
    }
  g_assert_cmpuint (hit, >, 0);
  expected = g_strdup_printf ("%.2f %%", 100.0 * hit / all);
  g_assert_nonnull (strstr (out, expected));
}

typedef struct {
  GPtrArray *titles;
  gboolean   in_title;
} SvgScan;

static void
svg_start (GMarkupParseContext *c, const char *name, const char **an, const char **av, gpointer data, GError **e)
{
  ((SvgScan *) data)->in_title = strcmp (name, "title") == 0;
}

static void
svg_text (GMarkupParseContext *c, const char *text, gsize len, gpointer data, GError **e)
{
  SvgScan *s = data;
  if (s->in_title)
    g_ptr_array_add (s->titles, g_strndup (text, len));
}

static void
svg_end (GMarkupParseContext *c, const char *name, gpointer data, GError **e)
{
  ((SvgScan *) data)->in_title = FALSE;
}

/* The SVG is XML and names the heaviest first frames; PNG and PDF too. */
static void
test_figures (void)
{
  g_autofree char *path = ws_cli_test_data_path ("py-locks.perf.txt.gz");
  g_autofree char *dir = g_dir_make_tmp ("ws-flame-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "f.svg", NULL);
  g_autofree char *png = g_build_filename (dir, "f.png", NULL);
  g_autofree char *pdf = g_build_filename (dir, "f.pdf", NULL);
  const char *to_svg[] = { "flamegraph", "--off-cpu", path, "-o", svg, NULL };
  const char *to_png[] = { "flamegraph", "--icicle", path, "-o", png, NULL };
  const char *to_pdf[] = { "flamegraph", "--waker", path, "-o", pdf, NULL };
  GMarkupParser parser = { svg_start, svg_end, svg_text, NULL, NULL };
  g_autoptr(GPtrArray) titles = g_ptr_array_new_with_free_func (g_free);
  SvgScan scan = { titles, FALSE };
  g_autoptr(GMarkupParseContext) ctx = g_markup_parse_context_new (&parser, 0, &scan, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(WsFlameGraph) graph = NULL;
  g_autofree char *text = NULL, *head = NULL;
  WsFlameSettings settings;
  const WsFlameNode *root;
  gsize len;
  guint named = 0;

  g_assert_cmpint (ws_test_run_cli (to_svg, NULL, NULL), ==, 0);
  g_assert_cmpint (ws_test_run_cli (to_png, NULL, NULL), ==, 0);
  g_assert_cmpint (ws_test_run_cli (to_pdf, NULL, NULL), ==, 0);
  g_assert_true (g_file_get_contents (svg, &text, &len, &error));
  g_assert_true (g_markup_parse_context_parse (ctx, text, len, &error));
  g_assert_true (g_markup_parse_context_end_parse (ctx, &error));

  ws_flame_settings_init (&settings);
  settings.mode = WS_FLAME_OFF_CPU;
  graph = ws_flame_run (trace, &settings, NULL, NULL, NULL, &error);
  root = ws_flame_tree_get_node (graph->tree, WS_FLAME_ROOT);
  /* Each first frame wider than 1 % has a <title> starting with its name. */
  for (guint c = root->first_child; c < root->first_child + root->n_children; c++)
    {
      const WsFlameNode *n = ws_flame_tree_get_node (graph->tree, c);
      gboolean found = FALSE;

      if (n->total * 100 < root->total)
        continue;
      for (guint i = 0; i < titles->len && !found; i++)
        found = g_str_has_prefix (g_ptr_array_index (titles, i), n->name);
      g_assert_true (found);
      named++;
    }
  g_assert_cmpuint (named, >=, 3);

  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (png, &text, &len, &error));
  g_assert_true (len > 8 && memcmp (text, "\x89PNG", 4) == 0);
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (pdf, &text, &len, &error));
  g_assert_true (len > 8 && memcmp (text, "%PDF", 4) == 0);
}

/* Callers' weights add up to the frame's; the frame's is that of the
 * folded lines holding it. */
static void
test_callers_callees (void)
{
  g_autofree char *path = ws_cli_test_data_path ("pg-tpcb.perf.txt.gz");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(WsFlameGraph) graph = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  WsCollapseOptions options;
  WsFlameSettings settings;
  const char *frames[] = { "schedule", "__schedule", "futex_wait", "do_syscall_64" };

  ws_flame_settings_init (&settings);
  settings.mode = WS_FLAME_OFF_CPU;
  graph = ws_flame_run (trace, &settings, NULL, NULL, NULL, &error);
  ws_collapse_options_init (&options);
  options.mode = WS_COLLAPSE_WAITS;
  options.wait_unit_ns = 1;
  lines = ws_collapse_lines (trace, &options, NULL);
  for (guint f = 0; f < G_N_ELEMENTS (frames); f++)
    {
      g_autoptr(GArray) callers = NULL, callees = NULL;
      guint64 total = ws_flame_tree_callers_callees (graph->tree, frames[f], &callers, &callees);
      guint64 expected = 0, up = 0, down = 0;

      for (guint i = 0; i < lines->len; i++)
        {
          g_autofree char *line = g_strdup (g_ptr_array_index (lines, i));
          char *space = strrchr (line, ' ');
          g_auto(GStrv) parts = NULL;

          *space = '\0';
          parts = g_strsplit (line, ";", -1);
          if (g_strv_contains ((const char * const *) parts, frames[f]))
            expected += g_ascii_strtoull (space + 1, NULL, 10);
        }
      g_assert_cmpuint (total, ==, expected);
      for (guint i = 0; i < callers->len; i++)
        up += g_array_index (callers, WsFlameRelative, i).total;
      for (guint i = 0; i < callees->len; i++)
        down += g_array_index (callees, WsFlameRelative, i).total;
      g_assert_cmpuint (up, ==, total);
      g_assert_cmpuint (down, <=, total);
    }
}

/* Zoom: the frame fills the width, its ancestors span it, a click on a
 * frame's centre hits that frame. */
static void
test_zoom_and_hit (void)
{
  g_autofree char *path = ws_cli_test_data_path ("py-locks.perf.txt.gz");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(WsFlameGraph) graph = NULL;
  g_autoptr(WsFlameRenderer) renderer = ws_flame_renderer_new ();
  WsFlameSettings settings;
  WsFlameView view;
  const double W = 1000, H = 600;
  guint zoom = WS_FLAME_NO_NODE, checked = 0;
  cairo_rectangle_t r;

  ws_flame_settings_init (&settings);
  graph = ws_flame_run (trace, &settings, NULL, NULL, NULL, &error);
  ws_flame_view_init (&view);
  /* A frame of depth ≥ 2 narrower than a tenth of the width. */
  for (guint i = 1; i < ws_flame_tree_get_n_nodes (graph->tree) && zoom == WS_FLAME_NO_NODE; i++)
    {
      const WsFlameNode *n = ws_flame_tree_get_node (graph->tree, i);
      if (n->depth >= 2 && n->total * 10 < ws_flame_tree_get_total (graph->tree) && n->total * 200 > ws_flame_tree_get_total (graph->tree))
        zoom = i;
    }
  g_assert_cmpuint (zoom, !=, WS_FLAME_NO_NODE);
  g_assert_true (ws_flame_renderer_node_rect (renderer, graph->tree, &view, W, H, zoom, &r));
  g_assert_cmpfloat (r.width, <, W / 10 + 1);
  g_assert_cmpuint (ws_flame_renderer_hit (renderer, graph->tree, &view, W, H, r.x + r.width / 2, r.y + r.height / 2), ==, zoom);

  view.zoom = zoom;
  g_assert_true (ws_flame_renderer_node_rect (renderer, graph->tree, &view, W, H, zoom, &r));
  g_assert_cmpfloat (r.x, ==, 0);
  g_assert_cmpfloat (r.width, ==, W);
  for (guint a = ws_flame_tree_get_node (graph->tree, zoom)->parent; a != G_MAXUINT32;
       a = ws_flame_tree_get_node (graph->tree, a)->parent, checked++)
    {
      g_assert_true (ws_flame_renderer_node_rect (renderer, graph->tree, &view, W, H, a, &r));
      g_assert_cmpfloat (r.width, ==, W);
    }
  g_assert_cmpuint (checked, ==, ws_flame_tree_get_node (graph->tree, zoom)->depth);
  /* A sibling of the zoomed frame is not drawn. */
  {
    const WsFlameNode *z = ws_flame_tree_get_node (graph->tree, zoom);
    const WsFlameNode *p = ws_flame_tree_get_node (graph->tree, z->parent);
    for (guint c = p->first_child; c < p->first_child + p->n_children; c++)
      if (c != zoom)
        g_assert_false (ws_flame_renderer_node_rect (renderer, graph->tree, &view, W, H, c, NULL));
  }
}

static void
test_bad_options (void)
{
  g_autofree char *path = ws_cli_test_data_path ("py-locks.perf.txt.gz");
  g_autofree char *err = NULL;
  const char *no_tid[] = { "flamegraph", "--json", "--tid", "999999", path, NULL };
  const char *bad_window[] = { "flamegraph", "--json", "--window", "5s", path, NULL };
  const char *backwards[] = { "flamegraph", "--json", "--window", "2s:1s", path, NULL };
  const char *bad_ext[] = { "flamegraph", path, "-o", "/tmp/x.gif", NULL };
  const char *bad_re[] = { "flamegraph", "--json", "--search", "(", path, NULL };
  const char *missing[] = { "flamegraph", "--json", "/nonexistent/trace.perf.txt", NULL };

  g_assert_cmpint (ws_test_run_cli (no_tid, NULL, &err), ==, 1);
  g_assert_nonnull (strstr (err, "999999"));
  g_assert_nonnull (strstr (err, "py-locks"));
  g_assert_cmpint (ws_test_run_cli (bad_window, NULL, NULL), ==, 2);
  g_assert_cmpint (ws_test_run_cli (backwards, NULL, NULL), ==, 2);
  g_assert_cmpint (ws_test_run_cli (bad_ext, NULL, NULL), ==, 2);
  g_assert_cmpint (ws_test_run_cli (bad_re, NULL, NULL), ==, 2);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (ws_test_run_cli (missing, NULL, &err), ==, 1);
  g_assert_nonnull (strstr (err, "/nonexistent/trace.perf.txt"));
}

/* Differential: every node's delta is its total minus the same path's
 * total in the base (scaled to the same total with --normalise), both
 * tallied from collapse's lines. */
static void
check_delta (JsonObject *node, const char *path, const Tally *t, const Tally *base, double scale)
{
  JsonArray *children = json_object_has_member (node, "children") ? json_object_get_array_member (node, "children") : NULL;
  double expected = path ? (double) lookup (t->prefix_total, path) - scale * lookup (base->prefix_total, path)
                         : (double) t->total - scale * base->total;
  double got = json_object_get_double_member (node, "delta");

  if (fabs (got - expected) > 1e-6 * MAX (1.0, fabs (expected)))
    g_error ("%s: delta %f, folded lines say %f", path ? path : "all", got, expected);
  for (guint i = 0; children != NULL && i < json_array_get_length (children); i++)
    {
      JsonObject *c = json_array_get_object_element (children, i);
      g_autofree char *child_path = path ? g_strconcat (path, ";", json_object_get_string_member (c, "name"), NULL)
                                         : g_strdup (json_object_get_string_member (c, "name"));
      check_delta (c, child_path, t, base, scale);
    }
}

static void
test_differential (void)
{
  g_autofree char *slow = ws_cli_test_data_path ("pg-contrast-slow.perf.txt.gz");
  g_autofree char *fast = ws_cli_test_data_path ("pg-contrast-fast.perf.txt.gz");
  g_autofree char *folded_slow = NULL, *folded_fast = NULL;
  const char *c_slow[] = { "collapse", "--waits", "--ns", slow, NULL };
  const char *c_fast[] = { "collapse", "--waits", "--ns", fast, NULL };
  Tally ts, tf;

  g_assert_cmpint (ws_test_run_cli (c_slow, &folded_slow, NULL), ==, 0);
  g_assert_cmpint (ws_test_run_cli (c_fast, &folded_fast, NULL), ==, 0);
  tally_init (&ts, folded_slow);
  tally_init (&tf, folded_fast);
  for (guint normalise = 0; normalise < 2; normalise++)
    {
      const char *args[] = { "flamegraph", "--off-cpu", "--json", "--base", fast, slow,
                             normalise ? "--normalise" : NULL, NULL };
      g_autofree char *json = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;

      g_assert_cmpint (ws_test_run_cli (args, &json, NULL), ==, 0);
      g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
      check_delta (json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "root"),
                   NULL, &ts, &tf, normalise ? (double) ts.total / tf.total : 1.0);
    }
  tally_clear (&ts);
  tally_clear (&tf);
}

/* Frame names that are not UTF-8, or hold XML's and JSON's special
 * characters: the JSON is valid UTF-8 JSON and the SVG parses as XML. */
static void
test_hostile_names (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-flame-XXXXXX", NULL);
  g_autofree char *folded = g_build_filename (dir, "bad.folded", NULL);
  g_autofree char *svg = g_build_filename (dir, "bad.svg", NULL);
  const char *text = "w\xff-12/13;main;<b>&amp;\"quote\"</b> 8\nok-12/14;main;wait\xe9\x01 2\n";
  const char *json_args[] = { "flamegraph", "--json", folded, NULL };
  const char *svg_args[] = { "flamegraph", "--search", "wait", folded, "-o", svg, NULL };
  g_autofree char *out = NULL, *contents = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  GMarkupParser markup = { NULL, NULL, NULL, NULL, NULL };
  g_autoptr(GMarkupParseContext) ctx = g_markup_parse_context_new (&markup, 0, NULL, NULL);
  gsize len;

  g_assert_true (g_file_set_contents (folded, text, -1, &error));
  g_assert_cmpint (ws_test_run_cli (json_args, &out, NULL), ==, 0);
  g_assert_true (g_utf8_validate (out, -1, NULL));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (json_parser_get_root (parser)), "total"), ==, 10);
  g_assert_cmpint (ws_test_run_cli (svg_args, NULL, NULL), ==, 0);
  g_assert_true (g_file_get_contents (svg, &contents, &len, &error));
  g_assert_true (g_markup_parse_context_parse (ctx, contents, len, &error));
  g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
  /* GMarkup takes "&#x1;", which XML 1.0 (and a strict parser) does not. */
  for (const char *p = strstr (contents, "&#"); p != NULL; p = strstr (p + 2, "&#"))
    {
      gboolean hex = p[2] == 'x';
      guint64 c = g_ascii_strtoull (p + (hex ? 3 : 2), NULL, hex ? 16 : 10);
      g_assert_true (c >= 0x20 || c == 0x9 || c == 0xa || c == 0xd);
    }
  g_unlink (svg);
  g_unlink (folded);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/flame/widths-equal-collapse", test_widths_equal_collapse);
  g_test_add_func ("/flame/random-windows", test_random_windows);
  g_test_add_func ("/flame/search-share", test_search_share);
  g_test_add_func ("/flame/figures", test_figures);
  g_test_add_func ("/flame/callers-callees", test_callers_callees);
  g_test_add_func ("/flame/zoom-and-hit", test_zoom_and_hit);
  g_test_add_func ("/flame/bad-options", test_bad_options);
  g_test_add_func ("/flame/hostile-names", test_hostile_names);
  g_test_add_func ("/flame/differential", test_differential);
  return g_test_run ();
}
