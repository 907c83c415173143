/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A toolbar layout that wraps: children left to right, onto a new row
 * when the next one does not fit even at its minimum width.  GTK 4.8 and
 * libadwaita 1.2 have no wrap box (AdwWrapBox is 1.7), and a toolbar in a
 * sideways-scrolling window hid its last buttons at 1280×720 with nothing
 * to say they were there.  A child whose halign is END goes to the right
 * end of its row (the view's own buttons: zoom, table, export).
 */
#include "config.h"

#include "ws-wrap-layout.h"

struct _WsWrapLayout
{
  GtkLayoutManager parent_instance;
  int              spacing;
  int              row_spacing;
};

G_DEFINE_FINAL_TYPE (WsWrapLayout, ws_wrap_layout, GTK_TYPE_LAYOUT_MANAGER)

static gboolean
shown (GtkWidget *child)
{
  return gtk_widget_should_layout (child);
}

/* Rows for @width: a child goes on the current row while the row's
 * minimum widths fit; the room left is shared out towards the natural
 * widths (a search entry gives up some of its width before the view's
 * buttons go onto a row of their own).  Calls @place (when not NULL) for
 * each child with its box.  Returns: the height used. */
typedef void (*PlaceFunc) (GtkWidget *child, int x, int y, int width, int height);

static int
flow (WsWrapLayout *self,
      GtkWidget    *widget,
      int           width,
      PlaceFunc     place)
{
  GtkWidget *row_start = gtk_widget_get_first_child (widget);
  g_autoptr(GArray) sizes = g_array_new (FALSE, TRUE, sizeof (GtkRequestedSize));
  int y = 0;

  while (row_start != NULL)
    {
      GtkWidget *row_end = NULL, *c;
      int used = 0, row_h = 0, extra, x = 0;
      guint k = 0;

      g_array_set_size (sizes, 0);
      for (c = row_start; c != NULL; c = gtk_widget_get_next_sibling (c))
        {
          GtkRequestedSize r = { c, 0, 0 };

          if (!shown (c))
            continue;
          gtk_widget_measure (c, GTK_ORIENTATION_HORIZONTAL, -1, &r.minimum_size, &r.natural_size, NULL, NULL);
          if (sizes->len > 0 && used + self->spacing + r.minimum_size > width)
            {
              row_end = c;
              break;
            }
          used += (sizes->len > 0 ? self->spacing : 0) + r.minimum_size;
          g_array_append_val (sizes, r);
        }
      extra = MAX (0, width - used);
      if (sizes->len > 0)
        extra = gtk_distribute_natural_allocation (extra, sizes->len, (GtkRequestedSize *) sizes->data);
      for (k = 0; k < sizes->len; k++)
        {
          GtkRequestedSize *r = &g_array_index (sizes, GtkRequestedSize, k);
          int h;

          gtk_widget_measure (r->data, GTK_ORIENTATION_VERTICAL, r->minimum_size, NULL, &h, NULL, NULL);
          row_h = MAX (row_h, h);
        }
      if (place != NULL)
        for (k = 0; k < sizes->len; k++)
          {
            GtkRequestedSize *r = &g_array_index (sizes, GtkRequestedSize, k);

            /* The row's last child, right-aligned: the room left goes
             * before it. */
            if (k + 1 == sizes->len && gtk_widget_get_halign (r->data) == GTK_ALIGN_END)
              x = MAX (x, width - r->minimum_size);
            place (r->data, x, y, r->minimum_size, row_h);
            x += r->minimum_size + self->spacing;
          }
      y += row_h + (row_end != NULL ? self->row_spacing : 0);
      row_start = row_end;
    }
  return y;
}

static void
place_child (GtkWidget *child,
             int        x,
             int        y,
             int        width,
             int        height)
{
  gtk_widget_size_allocate (child, &(GtkAllocation) { x, y, width, height }, -1);
}

static GtkSizeRequestMode
ws_wrap_layout_get_request_mode (GtkLayoutManager *manager,
                                 GtkWidget        *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
ws_wrap_layout_measure (GtkLayoutManager *manager,
                        GtkWidget        *widget,
                        GtkOrientation    orientation,
                        int               for_size,
                        int              *minimum,
                        int              *natural,
                        int              *minimum_baseline,
                        int              *natural_baseline)
{
  WsWrapLayout *self = WS_WRAP_LAYOUT (manager);
  int min = 0, nat = 0, n = 0;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* At least the widest child; naturally all on one row. */
      for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
        {
          int cmin, cnat;

          if (!shown (c))
            continue;
          gtk_widget_measure (c, GTK_ORIENTATION_HORIZONTAL, -1, &cmin, &cnat, NULL, NULL);
          min = MAX (min, cmin);
          nat += (n++ > 0 ? self->spacing : 0) + cnat;
        }
      *minimum = min;
      *natural = nat;
      return;
    }
  if (for_size < 0)
    {
      int cmin = 0;

      ws_wrap_layout_measure (manager, widget, GTK_ORIENTATION_HORIZONTAL, -1, &cmin, &nat, NULL, NULL);
      for_size = nat;
    }
  *minimum = *natural = flow (self, widget, for_size, NULL);
}

static void
ws_wrap_layout_allocate (GtkLayoutManager *manager,
                         GtkWidget        *widget,
                         int               width,
                         int               height,
                         int               baseline)
{
  flow (WS_WRAP_LAYOUT (manager), widget, width, place_child);
}

static void
ws_wrap_layout_class_init (WsWrapLayoutClass *klass)
{
  GtkLayoutManagerClass *manager_class = GTK_LAYOUT_MANAGER_CLASS (klass);

  manager_class->get_request_mode = ws_wrap_layout_get_request_mode;
  manager_class->measure = ws_wrap_layout_measure;
  manager_class->allocate = ws_wrap_layout_allocate;
}

static void
ws_wrap_layout_init (WsWrapLayout *self)
{
  self->spacing = 6;
  self->row_spacing = 4;
}

GtkLayoutManager *
ws_wrap_layout_new (int spacing,
                    int row_spacing)
{
  WsWrapLayout *self = g_object_new (WS_TYPE_WRAP_LAYOUT, NULL);

  self->spacing = spacing;
  self->row_spacing = row_spacing;
  return GTK_LAYOUT_MANAGER (self);
}
