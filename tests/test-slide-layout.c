/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Presentation text is readable: the figures of a real session (a
 * timeline and a ready tree of py-locks) are placed on a 1920×1080 and a
 * 1280×720 screen, and the text each figure really draws — read back from
 * a cairo-script replay of its recording, glyph run by glyph run, font
 * matrix times transformation — is at least WS_SLIDE_MIN_TEXT_PX high on
 * a 1080-pixel screen (scaled with the height).  The old screens scaled
 * the ready tree to fit and drew its text at about 7 px.
 *
 * The reader itself is checked on text of known size first.
 */
#include "config.h"

#include <cairo-script.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ws-report.h"
#include "ws-session-file.h"
#include "ws-slide-layout.h"

static cairo_status_t
append (void                *closure,
        const unsigned char *data,
        unsigned int         length)
{
  g_string_append_len (closure, (const char *) data, length);
  return CAIRO_STATUS_SUCCESS;
}

typedef struct { double xx, yx, xy, yy, x0, y0; } M;

static M
multiply (M a, M b)   /* a then b */
{
  return (M) { a.xx * b.xx + a.yx * b.xy, a.xx * b.yx + a.yx * b.yy,
               a.xy * b.xx + a.yy * b.xy, a.xy * b.yx + a.yy * b.yy,
               a.x0 * b.xx + a.y0 * b.xy + b.x0, a.x0 * b.yx + a.y0 * b.yy + b.y0 };
}

/* The heights (px, device units of the recording) of every glyph run a
 * recording surface draws: its cairo-script replay, read for the
 * transformation (identity, translate, scale, set-matrix, transform,
 * save/restore) and the font matrix at each show-glyphs.  @script
 * receives the replay and must outlive @recording: cairo-script leaves an
 * observer on the surfaces it wrote out, which writes to the stream again
 * when they are destroyed. */
static GArray *
glyph_sizes (cairo_surface_t *recording,
             GString         *script)
{
  GArray *sizes = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (M) * 2);
  M ctm = { 1, 0, 0, 1, 0, 0 }, font = { 10, 0, 0, 10, 0, 0 };
  double nums[8] = { 0 }, array[8] = { 0 };
  guint n_nums = 0, n_array = 0;
  gboolean in_array = FALSE, array_ready = FALSE;   /* an array (or identity) just pushed */
  cairo_device_t *device = cairo_script_create_for_stream (append, script);
  const char *p, *end;

  cairo_script_from_recording_surface (device, recording);
  cairo_device_finish (device);
  cairo_device_destroy (device);

  for (p = script->str, end = p + script->len; p < end;)
    {
      const char *t;
      g_autofree char *word = NULL;

      if (g_ascii_isspace (*p)) { p++; continue; }
      if (*p == '(')
        {
          int depth = 0;
          for (; p < end; p++)
            {
              if (*p == '\\') { p++; continue; }
              if (*p == '(') depth++;
              else if (*p == ')' && --depth == 0) { p++; break; }
            }
          continue;
        }
      if (p + 1 < end && *p == '<' && (p[1] == '~' || p[1] == '|'))
        {
          const char *close = g_strstr_len (p, end - p, "~>");
          p = close ? close + 2 : end;
          continue;
        }
      if (*p == '[') { in_array = TRUE; n_array = 0; p++; continue; }
      if (*p == ']') { in_array = FALSE; array_ready = TRUE; p++; continue; }
      for (t = p; t < end && !g_ascii_isspace (*t) && *t != '[' && *t != ']' && *t != '(' && *t != '<'; t++)
        ;
      if (t == p) { p++; continue; }
      word = g_strndup (p, t - p);
      p = t;
      if (g_ascii_isdigit (word[0]) || ((word[0] == '-' || word[0] == '.') && word[1] != '\0' &&
                                        (g_ascii_isdigit (word[1]) || word[1] == '.')))
        {
          double v = g_ascii_strtod (word, NULL);
          if (in_array) { if (n_array < 8) array[n_array++] = v; }
          else { memmove (nums, nums + 1, 7 * sizeof (double)); nums[7] = v; n_nums++; array_ready = FALSE; }
          continue;
        }
      if (in_array)
        continue;
      if (!array_ready)
        n_array = 0;
      array_ready = FALSE;
      if (g_str_equal (word, "identity"))
        {
          /* pushes the identity matrix, for set-matrix */
          const double id[6] = { 1, 0, 0, 1, 0, 0 };
          memcpy (array, id, sizeof id);
          n_array = 6;
          array_ready = TRUE;
        }
      else if (g_str_equal (word, "translate"))
        ctm = multiply ((M) { 1, 0, 0, 1, nums[6], nums[7] }, ctm);
      else if (g_str_equal (word, "scale"))
        ctm = multiply ((M) { nums[6], 0, 0, nums[7], 0, 0 }, ctm);
      else if (g_str_equal (word, "set-matrix") && n_array == 6)
        ctm = (M) { array[0], array[1], array[2], array[3], array[4], array[5] };
      else if (g_str_equal (word, "transform") && n_array == 6)
        ctm = multiply ((M) { array[0], array[1], array[2], array[3], array[4], array[5] }, ctm);
      else if (g_str_equal (word, "set-font-matrix") && n_array == 6)
        font = (M) { array[0], array[1], array[2], array[3], array[4], array[5] };
      else if (g_str_equal (word, "save"))
        {
          M pair[2] = { ctm, font };
          g_array_append_vals (stack, pair, 1);
        }
      else if (g_str_equal (word, "restore") && stack->len > 0)
        {
          M *pair = (M *) (gpointer) (stack->data + (stack->len - 1) * sizeof (M) * 2);
          ctm = pair[0];
          font = pair[1];
          g_array_set_size (stack, stack->len - 1);
        }
      else if (g_str_equal (word, "show-glyphs") || g_str_equal (word, "show-text-glyphs"))
        {
          M d = multiply (font, ctm);
          double h = sqrt (fabs (d.xx * d.yy - d.yx * d.xy));
          g_array_append_val (sizes, h);
        }
    }
  return sizes;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The reader on text of known size: 12 px type under a 2× scale is 24 px,
 * 15 px type under 0.5 is 7.5 px, and a save/restore undoes a scale. */
static void
test_reader (void)
{
  g_autoptr(GString) script = g_string_sized_new (1 << 20);   /* outlives rec: see glyph_sizes() */
  cairo_surface_t *rec = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *cr = cairo_create (rec);
  const double px[] = { 12, 15, 9 }, scale[] = { 2, 0.5, 1 };
  g_autoptr(GArray) sizes = NULL;

  for (guint i = 0; i < 3; i++)
    {
      PangoLayout *layout = pango_cairo_create_layout (cr);
      PangoFontDescription *font = pango_font_description_from_string ("Sans");

      pango_font_description_set_absolute_size (font, px[i] * PANGO_SCALE);
      pango_layout_set_font_description (layout, font);
      pango_layout_set_text (layout, "Wait 12 ms", -1);
      cairo_save (cr);
      cairo_translate (cr, 10 * i, 30 * i);
      cairo_scale (cr, scale[i], scale[i]);
      cairo_move_to (cr, 0, 0);
      pango_cairo_show_layout (cr, layout);
      cairo_restore (cr);
      pango_font_description_free (font);
      g_object_unref (layout);
    }
  cairo_destroy (cr);
  sizes = glyph_sizes (rec, script);
  g_assert_cmpuint (sizes->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpfloat_with_epsilon (g_array_index (sizes, double, i), px[i] * scale[i], 0.01);
  cairo_surface_destroy (rec);
}

static void
test_real_figures (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "session-v1.waitscope", NULL);
  g_autoptr(GError) error = NULL;
  /* Declared before the report, so freed after its figures: see glyph_sizes(). */
  g_autoptr(GString) script = g_string_sized_new (1 << 24);   /* the fonts are embedded */
  g_autoptr(WsSessionFile) session = ws_session_file_load (path, &error);
  g_autoptr(WsReport) report = NULL;
  const double screens[][2] = { { 1920, 1080 }, { 1280, 720 } };
  guint n_figures = 0;

  g_assert_no_error (error);
  report = ws_report_new (session, &error);
  g_assert_no_error (error);
  for (guint f = 0; f < ws_pin_list_get_n (ws_session_file_get_findings (session)); f++)
    {
      const char *why = NULL;
      WsReportFigure *figure = ws_report_get_figure (report, f, &why);
      g_autoptr(GArray) sizes = NULL;
      double least, tenth;

      g_assert_nonnull (figure);
      g_string_truncate (script, 0);
      sizes = glyph_sizes (figure->recording.surface, script);
      g_assert_cmpuint (sizes->len, >, 10);
      g_array_sort (sizes, compare_double);
      least = g_array_index (sizes, double, 0);
      tenth = g_array_index (sizes, double, sizes->len / 10);
      g_test_message ("figure %u (%.0f × %.0f): %u glyph runs, smallest %.2f, 10th percentile %.2f, median %.2f",
                      f, figure->recording.width, figure->recording.height, sizes->len, least, tenth,
                      g_array_index (sizes, double, sizes->len / 2));
      /* The layout's premise: no renderer draws smaller than this. */
      g_assert_cmpfloat (least, >=, WS_FIGURE_BODY_TEXT_PX - 0.05);
      for (guint s = 0; s < G_N_ELEMENTS (screens); s++)
        {
          WsSlideLayout layout;
          double need = WS_SLIDE_MIN_TEXT_PX * screens[s][1] / 1080.0;

          ws_slide_layout_init (&layout, screens[s][0], screens[s][1]);
          ws_slide_layout_place (&layout, screens[s][0], screens[s][1], layout.title_size * 1.3,
                                 layout.note_size * 2.6, figure->recording.width, figure->recording.height);
          g_test_message ("  on %.0f × %.0f: scale %.2f, smallest text %.1f px%s", screens[s][0], screens[s][1],
                          layout.scale, least * layout.scale, layout.overflows ? ", panned" : "");
          {
            /* what the old screens drew: scaled to fit under a title of
             * 1/18 and a note of 1/5 of the height */
            double m = screens[s][1] / 24.0, top = m + screens[s][1] / 18.0 * 1.3 + m / 2;
            double old = MIN ((screens[s][0] - 2 * m) / figure->recording.width,
                              (screens[s][1] - top - screens[s][1] / 5.0 - 2 * m) / figure->recording.height);
            g_test_message ("  (the old screen: scale %.2f, smallest text %.1f px)", old, least * old);
          }
          g_assert_cmpfloat (least * layout.scale, >=, need - 0.05);
          /* never bigger than it must be: fitting, or at the readable size */
          g_assert_true (!layout.overflows || fabs (ws_slide_layout_text_px (&layout) - need) < 0.05);
        }
      n_figures++;
    }
  g_assert_cmpuint (n_figures, ==, 2);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/slide-layout/reader", test_reader);
  g_test_add_func ("/slide-layout/real-figures", test_real_figures);
  return g_test_run ();
}
