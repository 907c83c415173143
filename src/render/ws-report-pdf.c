/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The report as a multi-page PDF (A4 landscape): a title page; for each
 * finding a page with its figure (the view's own vector drawing, scaled to
 * fit) and note, then a page with the facts and stacks behind it; an
 * appendix of the traces.  Two pages per finding keeps the figure large and
 * the page count predictable (2 + 2 × findings) for whoever binds it.
 */
#include "config.h"

#include <cairo-pdf.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "ws-atomic-file.h"
#include "ws-error.h"
#include "ws-export.h"
#include "ws-report-note.h"
#include "ws-report-private.h"
#include "ws-time-format.h"

#define PAGE_WIDTH  842.0   /* A4 landscape, points */
#define PAGE_HEIGHT 595.0
#define MARGIN       36.0
#define TEXT_WIDTH  (PAGE_WIDTH - 2 * MARGIN)
#define FONT        "Cantarell, Noto Sans, DejaVu Sans"

/* Draws Pango @markup at (x, y), at most @max_height tall (ellipsized).
 * Returns: the height used. */
static double
draw_markup (cairo_t    *cr,
             const char *markup,
             const char *font,
             double      x,
             double      y,
             double      width,
             double      max_height,
             double      grey)
{
  g_autoptr(PangoLayout) layout = pango_cairo_create_layout (cr);
  PangoFontDescription *desc = pango_font_description_from_string (font);
  int w, h;

  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  if (max_height > 0)
    {
      pango_layout_set_height (layout, (int) (max_height * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
    }
  pango_layout_set_markup (layout, markup, -1);
  cairo_set_source_rgb (cr, grey, grey, grey);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
  pango_layout_get_size (layout, &w, &h);
  return (double) h / PANGO_SCALE;
}

static double
draw_text (cairo_t    *cr,
           const char *text,
           const char *font,
           double      x,
           double      y,
           double      width,
           double      grey)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);
  return draw_markup (cr, escaped, font, x, y, width, -1, grey);
}

static void
draw_title_page (cairo_t  *cr,
                 WsReport *self)
{
  WsPinList *list = ws_session_file_get_findings (self->session);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d %H:%M");
  g_autoptr(GString) toc = g_string_new (NULL);
  const char *title = ws_session_file_get_title (self->session);
  guint n = ws_pin_list_get_n (list);
  g_autofree char *meta = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %u finding", "%s · %u findings", n),
                                           date, n);
  double y = PAGE_HEIGHT * 0.22;

  y += draw_text (cr, *title ? title : _("Waitscope findings"), FONT " Bold 30", MARGIN, y, TEXT_WIDTH, 0.1);
  y += 8 + draw_text (cr, meta, FONT " 13", MARGIN, y + 8, TEXT_WIDTH, 0.35);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *t = g_markup_escape_text (ws_pin_get_title (ws_pin_list_get (list, i)), -1);
      g_string_append_printf (toc, "%u.  %s\n", i + 1, t);
    }
  g_string_append_printf (toc, "%s", _("Appendix: the traces"));
  draw_markup (cr, toc->str, FONT " 14", MARGIN, y + 36, TEXT_WIDTH, PAGE_HEIGHT - y - 36 - MARGIN, 0.15);
  cairo_show_page (cr);
}

/* The figure scaled (never up) to fit the box, centred horizontally. */
static void
draw_figure (cairo_t        *cr,
             WsReportFigure *figure,
             double          x,
             double          y,
             double          width,
             double          height)
{
  double scale = MIN (1.0, MIN (width / figure->recording.width, height / figure->recording.height));

  cairo_save (cr);
  cairo_translate (cr, x + (width - figure->recording.width * scale) / 2, y);
  cairo_scale (cr, scale, scale);
  cairo_rectangle (cr, 0, 0, figure->recording.width, figure->recording.height);
  cairo_clip (cr);
  cairo_set_source_surface (cr, figure->recording.surface, 0, 0);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_set_source_rgb (cr, 0.8, 0.8, 0.8);
  cairo_set_line_width (cr, 0.5);
  cairo_rectangle (cr, x + (width - figure->recording.width * scale) / 2, y,
                   figure->recording.width * scale, figure->recording.height * scale);
  cairo_stroke (cr);
}

static double
draw_heading (cairo_t    *cr,
              guint       i,
              WsPin  *finding,
              const char *suffix)
{
  const WsPinKindInfo *info = ws_pin_kind_lookup (ws_pin_get_kind (finding));
  g_autofree char *heading = g_strdup_printf ("%u. %s%s", i + 1, ws_pin_get_title (finding), suffix);
  double y = MARGIN;

  y += draw_text (cr, heading, FONT " Bold 18", MARGIN, y, TEXT_WIDTH, 0.1);
  y += draw_text (cr, info ? _(info->label) : ws_pin_get_kind (finding), FONT " 10", MARGIN, y + 2,
                  TEXT_WIDTH, 0.4);
  return y + 10;
}

static void
draw_figure_page (cairo_t  *cr,
                  WsReport *self,
                  guint     i)
{
  WsPin *finding = ws_pin_list_get (ws_session_file_get_findings (self->session), i);
  const char *error_message = NULL;
  WsReportFigure *figure = ws_report_get_figure (self, i, &error_message);
  g_autofree char *note = ws_report_note_to_pango (ws_pin_get_note (finding));
  double y = draw_heading (cr, i, finding, "");
  double note_h = 0;
  double box_h;

  /* Measure the note first: the figure takes what is left. */
  if (*note)
    {
      cairo_save (cr);
      cairo_push_group (cr);
      note_h = MIN (PAGE_HEIGHT * 0.3, draw_markup (cr, note, FONT " 12", MARGIN, 0, TEXT_WIDTH, -1, 0)) + 12;
      cairo_pattern_destroy (cairo_pop_group (cr));
      cairo_restore (cr);
    }
  box_h = PAGE_HEIGHT - MARGIN - y - note_h;
  if (figure != NULL)
    draw_figure (cr, figure, MARGIN, y, TEXT_WIDTH, box_h);
  else
    {
      g_autofree char *text = g_strdup_printf (_("This view could not be redrawn: %s"), error_message);
      draw_text (cr, text, FONT " 12", MARGIN, y, TEXT_WIDTH, 0.5);
    }
  if (*note)
    draw_markup (cr, note, FONT " 12", MARGIN, PAGE_HEIGHT - MARGIN - note_h + 12, TEXT_WIDTH,
                 note_h - 12, 0.1);
  cairo_show_page (cr);
}

static double
draw_facts (cairo_t  *cr,
            WsReport *self,
            guint     i,
            double    y)
{
  g_autoptr(GPtrArray) facts = ws_report_dup_facts (self, i);

  for (guint k = 0; k < facts->len && y < PAGE_HEIGHT - MARGIN - 20; k++)
    {
      const WsReportFact *f = g_ptr_array_index (facts, k);
      double h1 = draw_text (cr, f->label, FONT " Bold 10", MARGIN, y, 170, 0.1);
      double h2 = draw_text (cr, f->value, FONT " 10", MARGIN + 180, y, TEXT_WIDTH - 180, 0.1);
      y += MAX (h1, h2) + 4;
    }
  return y;
}

/* Stacks side by side, caller first, cut with "…" at the page's foot. */
static void
draw_stacks (cairo_t        *cr,
             WsReportFigure *figure,
             double          y)
{
  guint n = MIN (figure->stacks->len, 3);
  double col_w, max_h = PAGE_HEIGHT - MARGIN - y - 18;

  if (n == 0 || max_h < 40)
    return;
  y += draw_text (cr, _("Stacks, caller first"), FONT " Bold 11", MARGIN, y + 6, TEXT_WIDTH, 0.1) + 10;
  col_w = (TEXT_WIDTH - (n - 1) * 12) / n;
  for (guint k = 0; k < n; k++)
    {
      const WsReportStack *s = g_ptr_array_index (figure->stacks, k);
      g_autoptr(GString) text = g_string_new (NULL);
      g_autofree char *title = g_markup_escape_text (s->title, -1);
      double x = MARGIN + k * (col_w + 12);

      g_string_append_printf (text, "<b>%s</b>\n", title);
      for (guint j = 0; j < s->frames->len; j++)
        {
          g_autofree char *frame = g_markup_escape_text (g_ptr_array_index (s->frames, j), -1);
          g_string_append_printf (text, "%s%s", frame, j + 1 < s->frames->len ? "\n" : "");
        }
      draw_markup (cr, text->str, "Monospace 7", x, y, col_w, PAGE_HEIGHT - MARGIN - y, 0.1);
    }
}

static void
draw_facts_page (cairo_t  *cr,
                 WsReport *self,
                 guint     i)
{
  WsPin *finding = ws_pin_list_get (ws_session_file_get_findings (self->session), i);
  WsReportFigure *figure = ws_report_get_figure (self, i, NULL);
  g_autofree char *suffix = g_strdup_printf (" — %s", _("the facts behind it"));
  double y = draw_heading (cr, i, finding, suffix);

  y = draw_facts (cr, self, i, y);
  if (figure != NULL)
    draw_stacks (cr, figure, y);
  cairo_show_page (cr);
}

static void
draw_appendix (cairo_t  *cr,
               WsReport *self)
{
  double y = MARGIN;

  y += draw_text (cr, _("Appendix: the traces"), FONT " Bold 18", MARGIN, y, TEXT_WIDTH, 0.1) + 12;
  for (guint i = 0; i < ws_session_file_get_n_traces (self->session) && y < PAGE_HEIGHT - MARGIN - 40; i++)
    {
      const WsSessionTrace *t = ws_session_file_get_trace (self->session, i);
      WsTrace *trace = g_ptr_array_index (self->traces, i);
      g_autofree char *size = g_format_size (t->size);
      g_autofree char *head = g_strdup_printf ("%u. %s", i, t->name);
      g_autofree char *body = NULL;

      if (trace != NULL)
        {
          g_autofree char *a = ws_report_format_time (ws_trace_get_start_time (trace));
          g_autofree char *d = ws_format_duration (ws_trace_get_end_time (trace) - ws_trace_get_start_time (trace));
          guint nt = ws_trace_get_n_threads (trace), ne = ws_trace_get_n_events (trace);
          g_autofree char *threads = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread", "%u threads", nt), nt);
          g_autofree char *events = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u event", "%u events", ne), ne);

          /* Translators: a trace in the report: path, size, digest, start,
           * length, then "12 threads" and "3,400 events" */
          body = g_strdup_printf (_("%s\n%s, SHA-256 %s\nfrom %s for %s; %s, %s"), t->path, size,
                                  t->sha256, a, d, threads, events);
        }
      else
        body = g_strdup_printf (_("%s\n%s, SHA-256 %s"), t->path, size, t->sha256);
      y += draw_text (cr, head, FONT " Bold 11", MARGIN, y, TEXT_WIDTH, 0.1) + 2;
      y += draw_text (cr, body, FONT " 10", MARGIN, y, TEXT_WIDTH, 0.25) + 12;
    }
  cairo_show_page (cr);
}

guint
ws_report_count_pdf_pages (WsReport *self)
{
  g_return_val_if_fail (WS_IS_REPORT (self), 0);
  return 2 + 2 * self->figures->len;
}

/**
 * ws_report_write_pdf:
 *
 * Writes ws_report_count_pdf_pages() pages.  Written through a
 * #WsAtomicFile, so a failed export never leaves half a PDF under the name.
 */
gboolean
ws_report_write_pdf (WsReport    *self,
                     const char  *path,
                     GError     **error)
{
  g_autoptr(WsAtomicFile) file = NULL;
  g_autoptr(GError) local = NULL;
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (WS_IS_REPORT (self), FALSE);

  if ((file = ws_atomic_file_open (path, &local)) == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not write “%s”: %s"), path, local->message);
      return FALSE;
    }
  surface = cairo_pdf_surface_create_for_stream (ws_export_cairo_write, file, PAGE_WIDTH, PAGE_HEIGHT);
  cr = cairo_create (surface);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, ws_session_file_get_title (self->session));
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Waitscope " PACKAGE_VERSION);
  draw_title_page (cr, self);
  for (guint i = 0; i < self->figures->len; i++)
    {
      draw_figure_page (cr, self, i);
      draw_facts_page (cr, self, i);
    }
  draw_appendix (cr, self);
  status = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not write “%s”: %s"), path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  if (ws_atomic_file_commit (g_steal_pointer (&file), FALSE, &local))
    return TRUE;
  g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not write “%s”: %s"), path, local->message);
  return FALSE;
}
