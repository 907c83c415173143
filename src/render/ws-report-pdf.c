/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The report as a multi-page PDF (A4 landscape): a title page; for each
 * finding a page with its figure (the view's own vector drawing, scaled to
 * fit) and note, then a page with the facts and stacks behind it; an
 * appendix of the traces.  Two pages per finding keeps the figure large;
 * stacks longer than the facts page holds go on over more pages, never
 * cut (ws_report_count_pdf_pages() says how many in all).
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
#include "ws-pin-kind.h"
#include "ws-report-note.h"
#include "ws-report-private.h"
#include "ws-time-format.h"

#define PAGE_WIDTH  842.0   /* A4 landscape, points */
#define PAGE_HEIGHT 595.0
#define MARGIN       36.0
#define TEXT_WIDTH  (PAGE_WIDTH - 2 * MARGIN)
#define FONT        "Cantarell, Noto Sans, DejaVu Sans"

/* Pages are counted as they are shown: a finding's stacks may need more
 * than its one facts page. */
static const cairo_user_data_key_t page_count_key;

static void
next_page (cairo_t *cr)
{
  guint *count = cairo_get_user_data (cr, &page_count_key);

  cairo_show_page (cr);
  if (count != NULL)
    (*count)++;
}

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
  next_page (cr);
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
  next_page (cr);
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

/* ------------------------------------------------------------------ */
/* Stacks                                                               */

#define STACK_FONT    "Monospace 7"
#define STACK_COLUMNS 3
#define STACK_GAP     14.0
#define STACK_HANG    10.0   /* a wrapped frame's next lines, indented */

/* "function (module basename)": the module's directories take a column's
 * width and say nothing the basename does not ("libc.so.6",
 * "[kernel.kallsyms]"); the full paths are in the HTML report. */
char *
ws_report_short_frame (const char *frame)
{
  const char *open = strrchr (frame, '(');
  const char *slash;

  if (open == NULL || open == frame || open[-1] != ' ' || !g_str_has_suffix (open, ")"))
    return g_strdup (frame);
  slash = g_strrstr_len (open, strlen (open) - 1, "/");
  if (slash == NULL)
    return g_strdup (frame);
  return g_strdup_printf ("%.*s(%s", (int) (open - frame), frame, slash + 1);
}

/* One frame (or a stack's title) as a layout a column wide: wrapped
 * anywhere a line must break, with a hanging indent and no hyphen added,
 * so no character of a frame is lost or changed. */
static PangoLayout *
stack_line_layout (cairo_t    *cr,
                   const char *text,
                   gboolean    bold,
                   double      width)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *desc = pango_font_description_from_string (STACK_FONT);
  PangoAttrList *attrs = pango_attr_list_new ();

  if (bold)
    pango_font_description_set_weight (desc, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
  pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_indent (layout, (int) (-STACK_HANG * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_text (layout, text, -1);
  return layout;
}

/* Where the next line of the stacks goes: columns across the page, then
 * a page of its own ("continued") when they are full. */
typedef struct {
  cairo_t  *cr;
  WsReport *self;
  guint     finding;
  double    top;       /* of the columns on this page */
  double    y;
  guint     column;
} StackFlow;

static double
column_width (void)
{
  return (TEXT_WIDTH - (STACK_COLUMNS - 1) * STACK_GAP) / STACK_COLUMNS;
}

static void
flow_next_column (StackFlow *flow)
{
  if (++flow->column < STACK_COLUMNS)
    {
      flow->y = flow->top;
      return;
    }
  next_page (flow->cr);
  {
    WsPin *finding = ws_pin_list_get (ws_session_file_get_findings (flow->self->session), flow->finding);
    g_autofree char *suffix = g_strdup_printf (" — %s", _("stacks, continued"));

    flow->top = draw_heading (flow->cr, flow->finding, finding, suffix);
  }
  flow->y = flow->top;
  flow->column = 0;
}

/* Draws @text at the flow's place; returns FALSE when it did not fit the
 * column (nothing drawn). */
static gboolean
flow_try_line (StackFlow  *flow,
               const char *text,
               gboolean    bold,
               double      grey)
{
  g_autoptr(PangoLayout) layout = stack_line_layout (flow->cr, text, bold, column_width () - STACK_HANG);
  int w, h;

  pango_layout_get_size (layout, &w, &h);
  if (flow->y + (double) h / PANGO_SCALE > PAGE_HEIGHT - MARGIN && flow->y > flow->top)
    return FALSE;
  cairo_set_source_rgb (flow->cr, grey, grey, grey);
  cairo_move_to (flow->cr, MARGIN + flow->column * (column_width () + STACK_GAP), flow->y);
  pango_cairo_show_layout (flow->cr, layout);
  flow->y += (double) h / PANGO_SCALE;
  return TRUE;
}

/* Every frame of every stack, caller first, in columns: a stack longer
 * than the column goes on in the next (its title repeated), and past the
 * last column on a page of its own.  Nothing is cut. */
static void
draw_stacks (cairo_t        *cr,
             WsReport       *self,
             guint           finding,
             WsReportFigure *figure,
             double          y)
{
  StackFlow flow = { cr, self, finding, 0, 0, 0 };

  if (figure->stacks->len == 0)
    return;
  if (y > PAGE_HEIGHT - MARGIN - 60)
    {
      flow.column = STACK_COLUMNS - 1;
      flow_next_column (&flow);
      y = flow.top;
    }
  y += draw_text (cr, _("Stacks, caller first"), FONT " Bold 11", MARGIN, y + 6, TEXT_WIDTH, 0.1) + 10;
  flow.top = flow.y = y;
  for (guint k = 0; k < figure->stacks->len; k++)
    {
      const WsReportStack *s = g_ptr_array_index (figure->stacks, k);

      if (flow.y > flow.top)
        flow.y += 6;
      /* A title alone at a column's foot: start the stack in the next. */
      if (flow.y + 30 > PAGE_HEIGHT - MARGIN)
        flow_next_column (&flow);
      while (!flow_try_line (&flow, s->title, TRUE, 0.1))
        flow_next_column (&flow);
      for (guint j = 0; j < s->frames->len; j++)
        {
          g_autofree char *frame = ws_report_short_frame (g_ptr_array_index (s->frames, j));

          if (flow_try_line (&flow, frame, FALSE, 0.15))
            continue;
          flow_next_column (&flow);
          {
            g_autofree char *cont = g_strdup_printf (_("%s (continued)"), s->title);
            flow_try_line (&flow, cont, TRUE, 0.45);
          }
          flow_try_line (&flow, frame, FALSE, 0.15);
        }
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
    draw_stacks (cr, self, i, figure, y);
  next_page (cr);
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
  next_page (cr);
}

static cairo_status_t
draw_report (WsReport        *self,
             cairo_surface_t *surface,
             guint           *pages)
{
  cairo_t *cr = cairo_create (surface);
  cairo_status_t status;

  *pages = 0;
  cairo_set_user_data (cr, &page_count_key, pages, NULL);
  draw_title_page (cr, self);
  for (guint i = 0; i < self->figures->len; i++)
    {
      draw_figure_page (cr, self, i);
      draw_facts_page (cr, self, i);
    }
  draw_appendix (cr, self);
  status = cairo_status (cr);
  cairo_destroy (cr);
  return status;
}

static cairo_status_t
write_nowhere (void                *closure,
               const unsigned char *data,
               unsigned int         length)
{
  return CAIRO_STATUS_SUCCESS;
}

/**
 * ws_report_count_pdf_pages:
 *
 * Returns: the pages ws_report_write_pdf() writes: the title page, two
 * per finding (figure, facts) and one more for each page of stacks that
 * did not fit the facts page, the appendix.
 */
guint
ws_report_count_pdf_pages (WsReport *self)
{
  cairo_surface_t *surface;
  guint pages;

  g_return_val_if_fail (WS_IS_REPORT (self), 0);

  surface = cairo_pdf_surface_create_for_stream (write_nowhere, NULL, PAGE_WIDTH, PAGE_HEIGHT);
  draw_report (self, surface, &pages);
  cairo_surface_finish (surface);
  cairo_surface_destroy (surface);
  return pages;
}

gboolean
ws_report_write_pdf (WsReport    *self,
                     const char  *path,
                     GError     **error)
{
  g_autoptr(WsAtomicFile) file = NULL;
  g_autoptr(GError) local = NULL;
  cairo_surface_t *surface;
  cairo_status_t status;
  guint pages;

  g_return_val_if_fail (WS_IS_REPORT (self), FALSE);

  /* Written through a #WsAtomicFile, so a failed export never leaves half
   * a PDF under the name, and nothing planted beside it is followed. */
  if ((file = ws_atomic_file_open (path, &local)) == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not write “%s”: %s"), path, local->message);
      return FALSE;
    }
  surface = cairo_pdf_surface_create_for_stream (ws_export_cairo_write, file, PAGE_WIDTH, PAGE_HEIGHT);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, ws_session_file_get_title (self->session));
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Waitscope " PACKAGE_VERSION);
  status = draw_report (self, surface, &pages);
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
