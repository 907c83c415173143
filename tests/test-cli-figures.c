/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli cluster --alignment-figure / --coverage-figure: the real
 * binary (env WS_CLI) on pg-tpcb's transactions, each one a stream.  The
 * alignment PNG has the size of the cluster's patterns (a column per
 * pattern, at least a row per frame of the longest), the alignment's
 * common and variant fills; the coverage PNG is 960 × 540 with the
 * StackMine curve's colour; SVG by extension; bad figure options are usage
 * errors before any trace is read.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-cli-test-util.h"

#include "ws-alignment-renderer.h"
#include "ws-coverage-plot.h"

#define MARGIN 16   /* around an exported alignment */

static guint
count_colour (cairo_surface_t *surface, const WsColor *c)
{
  int w = cairo_image_surface_get_width (surface);
  int h = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  int r = (int) (c->red * 255 + 0.5), g = (int) (c->green * 255 + 0.5), b = (int) (c->blue * 255 + 0.5);
  const guchar *data;
  guint n = 0;

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guchar *p = data + y * stride + 4 * x;   /* BGRA */
        if (ABS (p[2] - r) <= 2 && ABS (p[1] - g) <= 2 && ABS (p[0] - b) <= 2)
          n++;
      }
  return n;
}

static void
test_figures (void)
{
  g_autofree char *trace = ws_cli_test_data_path ("pg-tpcb.perf.txt.gz");
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-figures-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "h.sqlite", NULL);
  g_autofree char *a_png = g_build_filename (dir, "alignment.png", NULL);
  g_autofree char *c_png = g_build_filename (dir, "coverage.png", NULL);
  g_autofree char *a_svg = g_build_filename (dir, "alignment.svg", NULL);
  g_autofree char *out = NULL, *cmd = NULL, *svg = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  WsAlignmentPalette ap;
  WsCoveragePalette cp;
  JsonObject *root, *cluster;
  JsonArray *patterns;
  cairo_surface_t *surface;
  guint n_patterns, longest = 0, all_frames = 0;
  int status, w, h;

  out = ws_cli_run_stdout (&status, "cluster", trace, "--scope", "scenario:transaction", "--per-instance", "--lambda", "20ms",
             "--threshold", "0.5", "--signature", "XactLockTableWait", "--history", history, "--json", "--top", "1",
             "--alignment-figure", a_png, "--coverage-figure", c_png, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  cluster = json_array_get_object_element (json_object_get_array_member (root, "clusters"), 0);
  patterns = json_object_get_array_member (cluster, "patterns");
  n_patterns = MIN (json_array_get_length (patterns), 24);
  g_assert_cmpuint (n_patterns, >=, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (cluster, "common")), >, 0);
  for (guint k = 0; k < n_patterns; k++)
    {
      guint len = json_array_get_length (json_object_get_array_member (json_array_get_object_element (patterns, k), "frames"));
      longest = MAX (longest, len);
      all_frames += len;
    }

  /* The alignment: a column per pattern (150 to 320 wide, 8 apart), a
   * row per aligned position (at least the longest pattern's frames, at
   * most all of them), all unfolded. */
  ws_alignment_palette_init_light (&ap);
  surface = cairo_image_surface_create_from_png (a_png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  w = cairo_image_surface_get_width (surface);
  h = cairo_image_surface_get_height (surface);
  g_test_message ("alignment %d x %d for %u patterns of up to %u frames", w, h, n_patterns, longest);
  g_assert_cmpint (w, >=, (int) (2 * MARGIN + WS_ALIGNMENT_GUTTER_WIDTH + n_patterns * WS_ALIGNMENT_MIN_COLUMN));
  g_assert_cmpint (w, <=, (int) (2 * MARGIN + WS_ALIGNMENT_GUTTER_WIDTH +
                                 n_patterns * (WS_ALIGNMENT_MAX_COLUMN + WS_ALIGNMENT_COLUMN_GAP)));
  g_assert_cmpint (h, >=, (int) (2 * MARGIN + WS_ALIGNMENT_HEADER_HEIGHT + longest * WS_ALIGNMENT_ROW_HEIGHT));
  g_assert_cmpint (h, <=, (int) (2 * MARGIN + WS_ALIGNMENT_HEADER_HEIGHT + all_frames * WS_ALIGNMENT_ROW_HEIGHT +
                                 WS_ALIGNMENT_COLUMN_GAP));
  g_assert_cmpuint (count_colour (surface, &ap.background), >, 0);
  g_assert_cmpuint (count_colour (surface, &ap.common), >, 1000);
  g_assert_cmpuint (count_colour (surface, &ap.variant), >, 100);
  /* Drawn to the bottom: the middle of the last row (common: __schedule),
   * above the margin and the closing gap, is not background. */
  {
    int stride = cairo_image_surface_get_stride (surface);
    int y = h - MARGIN - (int) WS_ALIGNMENT_COLUMN_GAP - (int) WS_ALIGNMENT_ROW_HEIGHT / 2;
    const guchar *p = cairo_image_surface_get_data (surface) + (gsize) y * stride +
                      4 * (MARGIN + (int) WS_ALIGNMENT_GUTTER_WIDTH + 30);
    g_assert_false (p[2] == 0xff && p[1] == 0xff && p[0] == 0xff);
  }
  cairo_surface_destroy (surface);

  /* The coverage chart: 960 x 540, the StackMine curve drawn. */
  ws_coverage_palette_init_light (&cp);
  surface = cairo_image_surface_create_from_png (c_png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 960);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 540);
  g_assert_cmpuint (count_colour (surface, &cp.series[0]), >, 500);
  g_assert_cmpuint (count_colour (surface, &cp.background) + count_colour (surface, &cp.plot_background), >,
                    960 * 540 / 2);
  cairo_surface_destroy (surface);

  /* SVG by the extension; another cluster by rank. */
  g_free (ws_cli_run_stdout (&status, "cluster", trace, "--scope", "scenario:transaction", "--per-instance", "--lambda", "20ms",
               "--history", history, "--alignment-figure", a_svg, "--figure-cluster", "2", NULL));
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_file_get_contents (a_svg, &svg, NULL, &error));
  g_assert_true (g_str_has_prefix (svg, "<?xml"));
  g_assert_nonnull (strstr (svg, "<svg"));

  /* Usage errors, before the trace is read (a missing trace would be 1). */
  {
    const char *missing = "/nonexistent/trace.perf.txt";
    const char *bad[][4] = {
      { "--alignment-figure", "figure.txt", NULL },
      { "--coverage-figure", "figure.png", NULL },                  /* no --signature */
      { "--alignment-figure", "figure.png", "--figure-cluster", "0" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_free (ws_cli_run_stdout (&status, "cluster", missing, "--history", history, bad[i][0], bad[i][1], bad[i][2], bad[i][3],
                     NULL));
        g_assert_cmpint (status, ==, 2);
      }
    g_free (ws_cli_run_stdout (&status, "cluster", trace, "--scope", "scenario:transaction", "--per-instance", "--lambda", "20ms",
                 "--history", history, "--alignment-figure", a_png, "--figure-cluster", "100000", NULL));
    g_assert_cmpint (status, ==, 2);
  }

  cmd = g_strdup_printf ("rm -rf '%s'", dir);
  g_assert_cmpint (system (cmd), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("WS_CLI") == NULL || g_getenv ("WS_TEST_DATA") == NULL)
    {
      g_test_skip ("WS_CLI and WS_TEST_DATA must be set");
      return g_test_run ();
    }
  g_test_add_func ("/cli/cluster-figures", test_figures);
  return g_test_run ();
}
