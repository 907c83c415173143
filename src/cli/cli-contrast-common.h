/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * What the impact, awg and contrast subcommands share: choosing the
 * scenario and loading its instances over the traces.
 */

#include "ws-instance-set.h"

G_BEGIN_DECLS

typedef struct {
  char     *scenario_name;
  char    **rule_specs;
  char     *rules_file;
  char    **components;
  gboolean  widen;
  gboolean  json;
  /* contrast only: no --component means the default one, and traces
   * without scenario instances are contrasted as thread spans */
  gboolean  fleet;
} CliContrastOptions;

/* Adds --scenario-name, --scenario, --scenario-file, --component, --widen
 * and --json to @context. */
void           cli_contrast_add_options   (GOptionContext     *context,
                                           CliContrastOptions *options);
void           cli_contrast_options_clear (CliContrastOptions *options);
/* Loads @paths and adds the instances of the chosen scenario to @into (one
 * of @intos per group of paths, when several).  With no --scenario-name,
 * the traces must hold exactly one scenario.  Returns FALSE with @status
 * set (the message printed). */
gboolean       cli_contrast_load          (char              **paths,
                                           CliContrastOptions *options,
                                           const char         *command,
                                           GPtrArray         **traces,
                                           int                *status);
/* Chooses the scenario among @names (all the traces have) into
 * @options->scenario_name, as cli_contrast_load() does. */
gboolean       cli_contrast_choose_scenario (GStrv              names,
                                           CliContrastOptions *options,
                                           const char         *command,
                                           int                *status);
WsInstanceSet *cli_contrast_instances     (GPtrArray          *traces,
                                           guint               from,
                                           guint               to,
                                           const char         *scenario);

G_END_DECLS

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliContrastOptions, cli_contrast_options_clear)
