/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The timeline's two palettes (light and dark), kept apart from the
 * drawing: the widget picks one from the style, the exporters use the
 * light one.
 */
#include "config.h"

#include "ws-render-util.h"
#include "ws-timeline-renderer.h"

static void
set_state_colours (WsTimelinePalette *p,
                   guint32            run,
                   guint32            ready,
                   guint32            sleep,
                   guint32            disk,
                   guint32            other)
{
  p->states[WS_THREAD_STATE_RUN] = ws_render_rgb (run, 1);
  p->states[WS_THREAD_STATE_READY] = ws_render_rgb (ready, 1);
  p->states[WS_THREAD_STATE_SLEEP] = p->states[WS_THREAD_STATE_SLEEP_UNKNOWN] = ws_render_rgb (sleep, 1);
  p->states[WS_THREAD_STATE_DISK] = p->states[WS_THREAD_STATE_DISK_UNKNOWN] = ws_render_rgb (disk, 1);
  p->states[WS_THREAD_STATE_OTHER] = p->states[WS_THREAD_STATE_OTHER_UNKNOWN] = ws_render_rgb (other, 1);
}

/* GNOME palette colours, so the chart sits well in an Adwaita window. */
void
ws_timeline_palette_init_light (WsTimelinePalette *p)
{
  g_return_if_fail (p != NULL);

  p->background = ws_render_rgb (0xffffff, 1);
  p->row_alternate = ws_render_rgb (0xf4f4f6, 1);
  p->header_background = ws_render_rgb (0xe8e8eb, 1);
  p->foreground = ws_render_rgb (0x000000, 0.80);
  p->dim_foreground = ws_render_rgb (0x000000, 0.55);
  p->grid = ws_render_rgb (0x000000, 0.07);
  p->separator = ws_render_rgb (0x000000, 0.15);
  set_state_colours (p, 0x26a269, 0xe5a50a, 0x1c71d8, 0xc64600, 0x77767b);
  p->marks[WS_MARK_SAMPLE] = ws_render_rgb (0x26a269, 1);
  p->marks[WS_MARK_UNWAIT] = ws_render_rgb (0xc01c28, 1);
  p->marks[WS_MARK_MARKER] = ws_render_rgb (0x813d9c, 1);
  p->selection = ws_render_rgb (0x3584e4, 0.20);
  p->accent = ws_render_rgb (0x1c71d8, 1);
  p->arrow = ws_render_rgb (0xe01b24, 1);
  p->hover = ws_render_rgb (0x000000, 0.75);
  p->search_match = ws_render_rgb (0xf6d32d, 0.45);
  p->scenario = ws_render_rgb (0x9141ac, 1);
}

void
ws_timeline_palette_init_dark (WsTimelinePalette *p)
{
  g_return_if_fail (p != NULL);

  p->background = ws_render_rgb (0x1e1e1e, 1);
  p->row_alternate = ws_render_rgb (0x262626, 1);
  p->header_background = ws_render_rgb (0x303034, 1);
  p->foreground = ws_render_rgb (0xffffff, 0.90);
  p->dim_foreground = ws_render_rgb (0xffffff, 0.55);
  p->grid = ws_render_rgb (0xffffff, 0.07);
  p->separator = ws_render_rgb (0xffffff, 0.14);
  set_state_colours (p, 0x33d17a, 0xf8e45c, 0x62a0ea, 0xffa348, 0x9a9996);
  p->marks[WS_MARK_SAMPLE] = ws_render_rgb (0x33d17a, 1);
  p->marks[WS_MARK_UNWAIT] = ws_render_rgb (0xf66151, 1);
  p->marks[WS_MARK_MARKER] = ws_render_rgb (0xdc8add, 1);
  p->selection = ws_render_rgb (0x78aeed, 0.24);
  p->accent = ws_render_rgb (0x78aeed, 1);
  p->arrow = ws_render_rgb (0xff7b63, 1);
  p->hover = ws_render_rgb (0xffffff, 0.80);
  p->search_match = ws_render_rgb (0xf6d32d, 0.32);
  p->scenario = ws_render_rgb (0xc061cb, 1);
}
