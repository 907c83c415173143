/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Each waitscope-cli subcommand lives in its own cli-NAME.c and is listed in
 * the table of waitscope-cli.c.  It gets argv from its own name on
 * (argv[0] = "NAME"), prints to stdout, and returns the process exit status.
 */
typedef int (*CliCommandFunc) (int argc, char **argv);

typedef struct {
  const char     *name;
  CliCommandFunc  run;
  const char     *summary;   /* untranslated; passed through gettext when printed */
} CliCommand;

G_END_DECLS
