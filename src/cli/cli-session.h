/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * `waitscope-cli session pin`: its options, and the views that rerun an
 * analysis over the pinned traces to record what the report redraws
 * (cli-session-views.c: a Mining cluster, a coverage chart, a contrast
 * pattern, an aggregated wait graph).
 */

#include "ws-pin.h"
#include "ws-session-file.h"

G_BEGIN_DECLS

typedef struct {
  char     *view;
  char    **traces;
  int       tid;
  char     *from;
  char     *to;
  gint64    event;
  int       scenario_instance;
  char     *chain_metric;
  gboolean  lock_only;
  int       cluster;
  char     *title;
  char     *note;
  /* Mining (alignment, coverage): the Mining page's form */
  char     *scope;
  gboolean  running;
  char     *threads;
  gboolean  critical_path;
  char     *must;
  char     *must_not;
  char     *lambda;
  double    threshold;
  char    **signatures;
  char     *rank;          /* total (the default) or discriminative */
  char    **run_classes;   /* --run-class: one per --trace, saved in the session */
  GArray   *classes;       /* WsRunClass per pinned trace, from the session; NULL: none given */
  /* Contrast (contrast, awg) */
  char     *scenario;
  char     *component;
  gboolean  widen;
  char     *t_fast;
  char     *t_slow;
  int       pattern;
  char     *awg_class;
  /* Flame graph (flame-graph); its scope is --scope */
  char     *flame_mode;
  char     *zoom;
  char     *search;
  gboolean  icicle;
} CliPinOptions;

void  cli_pin_options_clear      (CliPinOptions *o);
GOptionGroup *cli_pin_view_options (CliPinOptions *o);
/* Reruns the view's analysis on @traces (the pin's, loaded) and records
 * it in @pin; -1 on success, else the exit status (message printed). */
int   cli_pin_mining             (WsPin         *pin,
                                  GPtrArray     *traces,
                                  CliPinOptions *o);
int   cli_pin_contrast           (WsPin         *pin,
                                  GPtrArray     *traces,
                                  CliPinOptions *o);
int   cli_pin_flame              (WsPin         *pin,
                                  GPtrArray     *traces,
                                  CliPinOptions *o);

G_END_DECLS
