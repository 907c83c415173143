/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The pivot table written out: text for people (the CLI's default), CSV
 * (the CLI's --csv and the Pivot page's export, byte for byte the same)
 * and JSON (--json).  Times in CSV and JSON are integer nanoseconds, so a
 * script's sums are exact; every row is written, subtotals and leaves, in
 * the table's order (depth first).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "ws-atomic-file.h"
#include "ws-csv.h"
#include "ws-json-text.h"
#include "ws-pivot.h"
#include "ws-time-format.h"

static guint
row_depth (const WsPivotRow *row)
{
  guint depth = 0;

  for (; row->parent != NULL; row = row->parent)
    depth++;
  return depth;
}

static void
text_row (const WsPivot    *pivot,
          const WsPivotRow *row,
          GString          *out)
{
  g_autofree char *time = ws_format_duration (row->time);
  guint depth = row_depth (row);

  g_string_append_printf (out, "%12s %6.1f %% %9" G_GUINT64_FORMAT "  ",
                          time, 100.0 * ws_pivot_row_share (pivot, row), row->count);
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
  g_string_append (out, row->label);
  g_string_append_c (out, '\n');
  for (guint i = 0; row->children != NULL && i < row->children->len; i++)
    text_row (pivot, g_ptr_array_index (row->children, i), out);
}

/**
 * ws_pivot_write_text:
 *
 * The table as the CLI prints it: a heading that says what was summed,
 * then time, share of the total, span count and the indented rows.
 */
void
ws_pivot_write_text (const WsPivot *pivot,
                     GString       *out)
{
  g_autofree char *window = ws_format_duration (pivot->t1 - pivot->t0);
  g_autofree char *unrecorded = ws_format_duration (pivot->unrecorded);
  g_autoptr(GString) by = g_string_new (NULL);

  for (guint c = 0; c < pivot->n_columns; c++)
    g_string_append_printf (by, "%s%s", c ? ", " : "", ws_pivot_column_get_label (pivot->columns[c]));
  /* Translators: "Time by Process, State: 12 threads over 4.2 s" */
  g_string_append_printf (out, _("Time by %s: %u threads over %s (%s of their lives not recorded)\n"),
                          by->len ? by->str : _("nothing (the total)"), pivot->n_threads, window, unrecorded);
  g_string_append_printf (out, "%12s %8s %9s  %s\n", _("Time"), _("Share"), _("Count"), _("Row"));
  text_row (pivot, pivot->root, out);
}

static void
csv_row (const WsPivot    *pivot,
         const WsPivotRow *row,
         GString          *out)
{
  const WsPivotRow *path[WS_N_PIVOT_COLUMNS + 1];
  guint depth = 0;

  for (const WsPivotRow *r = row; r->parent != NULL; r = r->parent)
    path[depth++] = r;
  g_string_append_printf (out, "%u", depth);
  for (guint c = 0; c < pivot->n_columns; c++)
    {
      g_string_append_c (out, ',');
      if (c < depth)
        ws_csv_append_field (out, path[depth - 1 - c]->label);
    }
  g_string_append_printf (out, ",%" G_GINT64_FORMAT ",%.6f,%" G_GUINT64_FORMAT "\r\n",
                          row->time, ws_pivot_row_share (pivot, row), row->count);
  for (guint i = 0; row->children != NULL && i < row->children->len; i++)
    csv_row (pivot, g_ptr_array_index (row->children, i), out);
}

/**
 * ws_pivot_write_csv:
 *
 * A header row (depth, one column per grouping column, time_ns, share,
 * count), then every row depth first: depth 0 is the total, a row of
 * depth d names its first d columns and leaves the rest empty.
 */
void
ws_pivot_write_csv (const WsPivot *pivot,
                    GString       *out)
{
  g_string_append (out, "depth");
  for (guint c = 0; c < pivot->n_columns; c++)
    g_string_append_printf (out, ",%s", ws_pivot_column_to_string (pivot->columns[c]));
  g_string_append (out, ",time_ns,share,count\r\n");
  csv_row (pivot, pivot->root, out);
}

static void
json_row (JsonBuilder      *b,
          const WsPivot    *pivot,
          const WsPivotRow *row)
{
  json_builder_begin_object (b);
  if (row->parent != NULL)
    {
      json_builder_set_member_name (b, "column");
      json_builder_add_string_value (b, ws_pivot_column_to_string (row->column));
      json_builder_set_member_name (b, "key");
      if (row->key != NULL)
        json_builder_add_string_value (b, row->key);
      else
        json_builder_add_null_value (b);
    }
  json_builder_set_member_name (b, "label");
  json_builder_add_string_value (b, row->label);
  json_builder_set_member_name (b, "time_ns");
  json_builder_add_int_value (b, row->time);
  json_builder_set_member_name (b, "share");
  json_builder_add_double_value (b, ws_pivot_row_share (pivot, row));
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, (gint64) row->count);
  if (row->children != NULL)
    {
      json_builder_set_member_name (b, "children");
      json_builder_begin_array (b);
      for (guint i = 0; i < row->children->len; i++)
        json_row (b, pivot, g_ptr_array_index (row->children, i));
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

/**
 * ws_pivot_write_json:
 *
 * {"trace", "columns": [words], "window": {"start", "end"}, "threads",
 * "lifetime_ns", "unrecorded_ns", "total": row}; a row is {"column",
 * "key" (null where nothing is named), "label", "time_ns", "share",
 * "count", "children": [rows]} (the total has no column or key).  Valid
 * UTF-8 whatever the trace holds.
 */
void
ws_pivot_write_json (const WsPivot *pivot,
                     GString       *out)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "trace");
  json_builder_add_string_value (b, ws_trace_get_name (pivot->trace));
  json_builder_set_member_name (b, "columns");
  json_builder_begin_array (b);
  for (guint c = 0; c < pivot->n_columns; c++)
    json_builder_add_string_value (b, ws_pivot_column_to_string (pivot->columns[c]));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "window");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "start");
  json_builder_add_int_value (b, pivot->t0);
  json_builder_set_member_name (b, "end");
  json_builder_add_int_value (b, pivot->t1);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "threads");
  json_builder_add_int_value (b, pivot->n_threads);
  json_builder_set_member_name (b, "lifetime_ns");
  json_builder_add_int_value (b, pivot->lifetime);
  json_builder_set_member_name (b, "unrecorded_ns");
  json_builder_add_int_value (b, pivot->unrecorded);
  json_builder_set_member_name (b, "total");
  json_row (b, pivot, pivot->root);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  text = ws_json_text_from_node (root);
  g_string_append (out, text);
}

/**
 * ws_pivot_save_csv:
 *
 * Writes ws_pivot_write_csv() to @path atomically.
 */
gboolean
ws_pivot_save_csv (const WsPivot *pivot,
                   const char    *path,
                   GError       **error)
{
  g_autoptr(GString) out = g_string_new (NULL);

  ws_pivot_write_csv (pivot, out);
  return ws_atomic_file_set_contents (path, out->str, out->len, FALSE, error);
}
