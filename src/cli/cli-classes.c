/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "cli-classes.h"
#include "cli-common.h"
#include "ws-error.h"

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

/* One trace of the command line or the CSV.  A file named twice (by
 * different spellings too) is one trace: listed once, at its first
 * place, in the class it was given, if any; two different classes are a
 * usage error.  @seen: canonical path -> index in classes->classes + 1. */
static gboolean
add_one (GStrvBuilder  *paths,
         CliClasses    *classes,
         GHashTable    *seen,
         const char    *path,
         double         latency,
         WsRunClass     klass,
         GError       **error)
{
  g_autofree char *canonical = g_canonicalize_filename (path, NULL);
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (seen, canonical));
  WsRunClassEntry e = { g_strdup (path), latency, klass };

  if (index > 0)
    {
      WsRunClass *old = &g_array_index (classes->classes, WsRunClass, index - 1);

      if (klass != WS_RUN_CLASS_NONE && *old != WS_RUN_CLASS_NONE && *old != klass)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("%s is named in both the slow and the fast class"), path);
          g_free (e.path);
          return FALSE;
        }
      if (klass != WS_RUN_CLASS_NONE && *old == WS_RUN_CLASS_NONE)
        {
          *old = klass;
          g_array_append_val (classes->entries, e);
        }
      else
        g_free (e.path);
      return TRUE;
    }

  g_strv_builder_add (paths, path);
  g_array_append_val (classes->classes, klass);
  g_hash_table_insert (seen, g_steal_pointer (&canonical), GUINT_TO_POINTER (classes->classes->len));
  if (klass != WS_RUN_CLASS_NONE)
    g_array_append_val (classes->entries, e);
  else
    g_free (e.path);
  return TRUE;
}

static gboolean
add_all (GStrvBuilder  *paths,
         CliClasses    *classes,
         GHashTable    *seen,
         char         **add,
         WsRunClass     klass,
         GError       **error)
{
  for (guint i = 0; add != NULL && add[i] != NULL; i++)
    if (!add_one (paths, classes, seen, add[i], NAN, klass, error))
      return FALSE;
  return TRUE;
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
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&classes->classes, g_array_unref);
  g_clear_pointer (&classes->entries, g_array_unref);
  classes->classes = g_array_new (FALSE, FALSE, sizeof (WsRunClass));
  classes->entries = g_array_new (FALSE, FALSE, sizeof (WsRunClassEntry));
  g_array_set_clear_func (classes->entries, entry_clear);
  if (classes->file != NULL
      && ((entries = ws_trace_classes_read_csv (classes->file, &error)) == NULL
          || !ws_trace_classes_assign (entries, NAN, NAN, &error)))
    {
      *status = cli_usage_error (command, "--classes: %s", error->message);
      return NULL;
    }
  if (!add_all (paths, classes, seen, positional, WS_RUN_CLASS_NONE, &error)
      || !add_all (paths, classes, seen, classes->fast, WS_RUN_CLASS_FAST, &error)
      || !add_all (paths, classes, seen, classes->slow, WS_RUN_CLASS_SLOW, &error))
    {
      *status = cli_usage_error (command, "%s", error->message);
      return NULL;
    }
  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      const WsRunClassEntry *e = &g_array_index (entries, WsRunClassEntry, i);

      if (!add_one (paths, classes, seen, e->path, e->latency, e->klass, &error))
        {
          *status = cli_usage_error (command, "--classes: %s", error->message);
          return NULL;
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
