/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The one interface every trace format implements: a sniffer that
 * recognises the format from the file's first bytes and a loader.  The
 * registry (ws-importer.c) lists them in the order they are tried; a new
 * format is one new file defining a #WsImporter plus one line there
 * (docs/importers.md).
 */

#include <gio/gio.h>

#include "ws-progress.h"
#include "ws-stack-table.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/* The entry points' signatures: each format's header declares its own
 * with them (`WsImporterLoadFileFunc ws_folded_importer_load;`), so the
 * compiler holds every format to this one interface. */
typedef gboolean WsImporterSniffFunc      (const guint8   *head,
                                           gsize           len);
typedef WsTrace *WsImporterLoadFileFunc   (const char     *path,
                                           WsStackTable   *stacks,
                                           WsProgressFunc  progress,
                                           gpointer        progress_data,
                                           GCancellable   *cancellable,
                                           GError        **error);
typedef WsTrace *WsImporterLoadStreamFunc (GInputStream   *stream,
                                           const char     *display_name,
                                           gboolean        compressed,
                                           WsStackTable   *stacks,
                                           WsProgressFunc  progress,
                                           gpointer        progress_data,
                                           GCancellable   *cancellable,
                                           GError        **error);

/**
 * WsImporter:
 * @id: a short stable name ("perf", "json", "folded"), for `--json` output
 *   and tests
 * @name: what the format is called, marked with N_() (translate it with
 *   _() when showing it)
 * @patterns: (array zero-terminated=1): file-name globs for file choosers
 * @sniff: whether @head, the first bytes of the input (inflated when the
 *   file is gzip-compressed, at most a few kilobytes, maybe cut mid-line),
 *   is this format
 * @load_file: reads the file at @path, compressed or not
 * @load_stream: reads @stream (standard input, a pipe); @compressed says
 *   whether it is gzip, which the loader inflates itself or with
 *   ws_importer_text_stream()
 *
 * Loaders return %NULL with a %WS_ERROR whose message starts "FILE:LINE: ".
 */
typedef struct {
  const char               *id;
  const char               *name;
  const char * const       *patterns;
  WsImporterSniffFunc      *sniff;
  WsImporterLoadFileFunc   *load_file;
  WsImporterLoadStreamFunc *load_stream;
} WsImporter;

const WsImporter * const *ws_importers_get      (guint          *n_importers);
const WsImporter         *ws_importers_lookup   (const char     *id);
const WsImporter         *ws_importers_sniff    (const guint8   *head,
                                                 gsize           len);
char                     *ws_importers_describe (void);
GInputStream             *ws_importer_text_stream (GInputStream *stream,
                                                 gboolean        compressed);

/* The registered importers, one per format (defined in their own files). */
extern const WsImporter ws_json_importer;
extern const WsImporter ws_perf_importer;
extern const WsImporter ws_tracecmd_importer;
extern const WsImporter ws_ctf_importer;
extern const WsImporter ws_perfetto_importer;
extern const WsImporter ws_folded_importer;

G_END_DECLS
