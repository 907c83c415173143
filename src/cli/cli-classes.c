/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "cli-classes.h"
#include "cli-common.h"

void
cli_classes_add_entries (GOptionGroup *group,
                         CliClasses   *classes)
{
  const GOptionEntry entries[] = {
    { "slow", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &classes->slow,
      N_("A trace of the slow class (a slow run); repeatable"), N_("TRACE") },
    { "fast", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &classes->fast,
      N_("A trace of the fast class (a fast run); repeatable"), N_("TRACE") },
    { "classes", 0, 0, G_OPTION_ARG_FILENAME, &classes->file,
      N_("Classes of traces from a CSV file: “trace,latency”, “trace,slow|fast” or “trace,latency,slow|fast” "
         "per line (latency in milliseconds); by latency, the median and faster are fast, the 90th percentile and slower slow"), N_("FILE") },
    { NULL }
  };

  g_option_group_add_entries (group, entries);
}

gboolean
cli_classes_given (CliClasses *classes)
{
  return classes->slow != NULL || classes->fast != NULL || classes->file != NULL;
}

static void
add_all (GStrvBuilder *paths,
         CliClasses   *classes,
         char        **add,
         WsRunClass    klass)
{
  for (guint i = 0; add != NULL && add[i] != NULL; i++)
    {
      WsRunClassEntry e = { g_strdup (add[i]), NAN, klass };

      g_strv_builder_add (paths, add[i]);
      g_array_append_val (classes->classes, klass);
      if (klass != WS_RUN_CLASS_NONE)
        g_array_append_val (classes->entries, e);
      else
        g_free (e.path);
    }
}

static void
entry_clear (gpointer data)
{
  g_free (((WsRunClassEntry *) data)->path);
}

GStrv
cli_classes_paths (const char  *command,
                   CliClasses  *classes,
                   char       **positional,
                   int         *status)
{
  g_autoptr(GStrvBuilder) paths = g_strv_builder_new ();
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&classes->classes, g_array_unref);
  g_clear_pointer (&classes->entries, g_array_unref);
  classes->classes = g_array_new (FALSE, FALSE, sizeof (WsRunClass));
  classes->entries = g_array_new (FALSE, FALSE, sizeof (WsRunClassEntry));
  g_array_set_clear_func (classes->entries, entry_clear);
  add_all (paths, classes, positional, WS_RUN_CLASS_NONE);
  add_all (paths, classes, classes->fast, WS_RUN_CLASS_FAST);
  add_all (paths, classes, classes->slow, WS_RUN_CLASS_SLOW);
  if (classes->file != NULL)
    {
      if ((entries = ws_trace_classes_read_csv (classes->file, &error)) == NULL ||
          !ws_trace_classes_assign (entries, NAN, NAN, &error))
        {
          *status = cli_usage_error (command, "--classes: %s", error->message);
          return NULL;
        }
      for (guint i = 0; i < entries->len; i++)
        {
          const WsRunClassEntry *e = &g_array_index (entries, WsRunClassEntry, i);

          WsRunClassEntry copy = { g_strdup (e->path), e->latency, e->klass };

          g_strv_builder_add (paths, e->path);
          g_array_append_val (classes->classes, e->klass);
          g_array_append_val (classes->entries, copy);
        }
    }
  return g_strv_builder_end (paths);
}

void
cli_classes_clear (CliClasses *classes)
{
  g_clear_pointer (&classes->slow, g_strfreev);
  g_clear_pointer (&classes->fast, g_strfreev);
  g_clear_pointer (&classes->file, g_free);
  g_clear_pointer (&classes->classes, g_array_unref);
  g_clear_pointer (&classes->entries, g_array_unref);
}
