/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The ceiling on how far a gzip-compressed trace may inflate.  gzip turns
 * a run of identical lines into about a thousandth of its size, so a
 * 73 MB file can hold 70 GB of text: a "decompression bomb" that would
 * take the machine's memory before any line looked wrong.  Real traces
 * inflate 10 to 50 times (perf script text; docs/hostile-inputs.md), so
 * past the first WS_INFLATE_FREE_BYTES of text the inflated size may be at
 * most WAITSCOPE_MAX_INFLATE_RATIO (default 200) times the compressed
 * bytes read so far; 0 turns the check off.
 */

#include <gio/gio.h>

G_BEGIN_DECLS

/* Text that small costs nothing, however compressible. */
#define WS_INFLATE_FREE_BYTES (64 * 1024 * 1024)
#define WS_INFLATE_DEFAULT_RATIO 200

guint64     ws_inflate_max_ratio (void);
gboolean    ws_inflate_check     (guint64   compressed_bytes,
                                  guint64   inflated_bytes,
                                  GError  **error);
GConverter *ws_inflate_guard_new (void);

G_END_DECLS
