/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Cairo spends about half a microsecond per rectangle (path, tessellation,
 * one pixman composite per box, more with a repeating dash pattern); a
 * zoomed-out frame has tens of thousands of one-pixel columns.  When the
 * target is an image surface and the transformation a translation, the
 * rectangles are written straight into its pixels instead, which costs a
 * few nanoseconds per pixel.  Vector targets (SVG, PDF) keep the Cairo
 * path; the tests check both give the same pixels.
 */
#include "config.h"

#include <math.h>

#include "ws-render-util.h"
#include "ws-timeline-fill.h"

void
ws_fill_rects_cairo (cairo_t *cr,
                     GArray  *rects)
{
  const WsFillRect *r = (const WsFillRect *) (gconstpointer) rects->data;

  if (rects->len == 0)
    return;
  for (guint i = 0; i < rects->len; i++)
    cairo_rectangle (cr, r[i].x, r[i].y, r[i].w, r[i].h);
  cairo_fill (cr);
  g_array_set_size (rects, 0);
}

gboolean
ws_fill_target_init (WsFillTarget *ft,
                     cairo_t      *cr)
{
  cairo_surface_t *target = cairo_get_group_target (cr);
  cairo_rectangle_list_t *clips;
  cairo_format_t format;
  cairo_matrix_t m;
  double sx, sy, offx, offy, x0, y0, x1, y1;

  if (target != cairo_get_target (cr) || cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE)
    return FALSE;
  format = cairo_image_surface_get_format (target);
  if (format != CAIRO_FORMAT_ARGB32 && format != CAIRO_FORMAT_RGB24)
    return FALSE;
  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_scale (target, &sx, &sy);
  cairo_surface_get_device_offset (target, &offx, &offy);
  if (m.xx != 1 || m.yy != 1 || m.xy != 0 || m.yx != 0 || sx != sy || sx < 1 || sx != floor (sx))
    return FALSE;

  ft->scale = sx;
  ft->tx = m.x0 + offx / sx;
  ft->ty = m.y0 + offy / sx;
  if (ft->tx * sx != floor (ft->tx * sx) || ft->ty * sx != floor (ft->ty * sx))
    return FALSE;

  /* Only a clip made of one rectangle can be honoured by hand. */
  clips = cairo_copy_clip_rectangle_list (cr);
  if (clips->status != CAIRO_STATUS_SUCCESS || clips->num_rectangles != 1)
    {
      cairo_rectangle_list_destroy (clips);
      return FALSE;
    }
  x0 = clips->rectangles[0].x;
  y0 = clips->rectangles[0].y;
  x1 = x0 + clips->rectangles[0].width;
  y1 = y0 + clips->rectangles[0].height;
  cairo_rectangle_list_destroy (clips);

  ft->clip_x0 = MAX ((int) ceil ((x0 + ft->tx) * sx), 0);
  ft->clip_y0 = MAX ((int) ceil ((y0 + ft->ty) * sx), 0);
  ft->clip_x1 = MIN ((int) floor ((x1 + ft->tx) * sx), cairo_image_surface_get_width (target));
  ft->clip_y1 = MIN ((int) floor ((y1 + ft->ty) * sx), cairo_image_surface_get_height (target));

  cairo_surface_flush (target);
  ft->data = (guint32 *) (gpointer) cairo_image_surface_get_data (target);
  ft->stride = cairo_image_surface_get_stride (target) / 4;
  return ft->data != NULL;
}

static inline guint32
premultiplied (const WsColor *c)
{
  double a = CLAMP (c->alpha, 0, 1);

  return ((guint32) lround (a * 255) << 24) |
         ((guint32) lround (c->red * a * 255) << 16) |
         ((guint32) lround (c->green * a * 255) << 8) |
         (guint32) lround (c->blue * a * 255);
}

static inline guint32
over (guint32 src,
      guint32 dst)
{
  guint32 inv = 255 - (src >> 24);
  guint32 out = 0;

  for (int shift = 0; shift < 32; shift += 8)
    {
      guint32 d = (dst >> shift) & 0xff;
      guint32 t = d * inv + 0x80;
      guint32 v = ((src >> shift) & 0xff) + ((t + (t >> 8)) >> 8);
      out |= MIN (v, 255) << shift;
    }
  return out;
}

/* @on/@off: a dash anchored at user x = @phase_x, or on = 0 for solid.
 * Rectangles are whole user pixels (the painter made them so). */
void
ws_fill_rects_fast (const WsFillTarget *ft,
                    GArray             *rects,
                    const WsColor      *colour,
                    guint               on,
                    guint               off,
                    double              phase_x)
{
  const WsFillRect *r = (const WsFillRect *) (gconstpointer) rects->data;
  guint32 src = premultiplied (colour);
  gboolean opaque = (src >> 24) == 0xff;
  int period = on + off;
  int s = (int) ft->scale;
  int tx = (int) (ft->tx * s), ty = (int) (ft->ty * s);
  int phase = (int) phase_x;

  for (guint i = 0; i < rects->len; i++)
    {
      int ux0 = (int) r[i].x, ux1 = (int) (r[i].x + r[i].w);
      int y0 = MAX ((int) r[i].y * s + ty, ft->clip_y0);
      int y1 = MIN ((int) (r[i].y + r[i].h) * s + ty, ft->clip_y1);
      int m;

      if (y1 <= y0)
        continue;
      m = period ? (ux0 - phase) % period : 0;
      if (m < 0)
        m += period;

      /* One user column at a time: the dash is decided once per column,
       * then s device pixels wide are filled on every row. */
      for (int ux = ux0; ux < ux1; ux++, m = (period && ++m == period) ? 0 : m)
        {
          int x0, x1;

          if (on != 0 && m >= (int) on)
            continue;
          x0 = MAX (ux * s + tx, ft->clip_x0);
          x1 = MIN ((ux + 1) * s + tx, ft->clip_x1);
          for (int y = y0; y < y1; y++)
            {
              guint32 *row = ft->data + (gsize) y * ft->stride;
              for (int x = x0; x < x1; x++)
                row[x] = opaque ? src : over (src, row[x]);
            }
        }
    }
  g_array_set_size (rects, 0);
}
