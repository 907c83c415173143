/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The timing driver the import benchmarks share (bench-tracecmd,
 * bench-perfetto, bench-ctf): each compares Waitscope's import with a peer
 * on the same recording.  The sides run interleaved — one run of each per
 * round — so that both see the same load of a shared machine, and each
 * keeps its best time.
 */

/* One run of a side; FALSE when it failed (the side is then dropped). */
typedef gboolean (*WsBenchRunFunc) (gpointer data);

typedef struct {
  WsBenchRunFunc run;
  gpointer       data;
  double         best;     /* out: best seconds, or -1 when it failed */
} WsBenchSide;

/* What an import side loads, and what it made. */
typedef struct {
  const char *path;
  guint       n_events;    /* out: events of the trace loaded */
} WsBenchImport;

void      ws_bench_interleave   (WsBenchSide         *sides,
                                 guint                n_sides,
                                 guint                runs);
gboolean  ws_bench_run_import   (gpointer             data);
gboolean  ws_bench_run_command  (gpointer             data);
gboolean  ws_bench_spawn        (const char * const  *argv);

G_END_DECLS
