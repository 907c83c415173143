/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The classes of whole runs a window's pages share (ws-run-classes.h).
 * A classes file is read by the parser `--classes` uses
 * (ws_trace_classes_read_csv(), then ws_trace_classes_assign() with the
 * CLI's thresholds), so a file gives the window the classes it gives
 * `waitscope-cli mine` and `contrast`.
 */
#include "config.h"

#include <math.h>

#include "ws-run-classes.h"

struct _WsRunClasses
{
  GObject     parent_instance;

  GHashTable *by_path;   /* canonical path -> WsRunClass + 1 */
  GHashTable *by_name;   /* base name -> WsRunClass + 1: a classes file's, when unique in it */
  char       *file;      /* the classes file loaded last, or NULL */
};

G_DEFINE_FINAL_TYPE (WsRunClasses, ws_run_classes, G_TYPE_OBJECT)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
ws_run_classes_finalize (GObject *object)
{
  WsRunClasses *self = WS_RUN_CLASSES (object);

  g_hash_table_unref (self->by_path);
  g_hash_table_unref (self->by_name);
  g_free (self->file);
  G_OBJECT_CLASS (ws_run_classes_parent_class)->finalize (object);
}

static void
ws_run_classes_class_init (WsRunClassesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_run_classes_finalize;

  /**
   * WsRunClasses::changed:
   *
   * A class was given, changed or taken away, or a file replaced them all.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
}

static void
ws_run_classes_init (WsRunClasses *self)
{
  self->by_path = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

WsRunClasses *
ws_run_classes_new (void)
{
  return g_object_new (WS_TYPE_RUN_CLASSES, NULL);
}

/**
 * ws_run_classes_lookup:
 * @path: (nullable): a trace file, as the document or the digest names it
 *
 * Returns: the class given to @path (or, from a classes file, to a trace
 *   of its base name), else %WS_RUN_CLASS_NONE
 */
WsRunClass
ws_run_classes_lookup (WsRunClasses *self,
                       const char   *path)
{
  WsRunClass klass = WS_RUN_CLASS_NONE;

  ws_run_classes_lookup_given (self, path, &klass);
  return klass;
}

/**
 * ws_run_classes_lookup_given:
 * @klass: (out): the class given, %WS_RUN_CLASS_NONE for "left out"
 *
 * Returns: whether @path was given a class at all (left out counts): a
 *   page with a default for traces never marked keeps it only for those
 */
gboolean
ws_run_classes_lookup_given (WsRunClasses *self,
                             const char   *path,
                             WsRunClass   *klass)
{
  g_autofree char *canonical = NULL;
  g_autofree char *name = NULL;
  gpointer found;

  g_return_val_if_fail (WS_IS_RUN_CLASSES (self), FALSE);
  if (path == NULL)
    return FALSE;
  canonical = g_canonicalize_filename (path, NULL);
  if ((found = g_hash_table_lookup (self->by_path, canonical)) == NULL)
    {
      name = g_path_get_basename (path);
      found = g_hash_table_lookup (self->by_name, name);
    }
  if (found == NULL)
    return FALSE;
  *klass = GPOINTER_TO_UINT (found) - 1;
  return TRUE;
}

/**
 * ws_run_classes_set_many:
 * @paths: (array length=n): trace files
 * @classes: (array length=n): the class of each (%WS_RUN_CLASS_NONE: left out)
 *
 * Gives each trace its class, then says "changed" once.
 */
void
ws_run_classes_set_many (WsRunClasses       *self,
                         const char * const *paths,
                         const WsRunClass   *classes,
                         guint               n)
{
  gboolean changed = FALSE;

  g_return_if_fail (WS_IS_RUN_CLASSES (self));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = NULL;

      WsRunClass old;

      if (paths[i] == NULL || (ws_run_classes_lookup_given (self, paths[i], &old) && old == classes[i]))
        continue;
      /* The user's word for this file outranks a file's for its name. */
      name = g_path_get_basename (paths[i]);
      g_hash_table_remove (self->by_name, name);
      g_hash_table_insert (self->by_path, g_canonicalize_filename (paths[i], NULL), GUINT_TO_POINTER (classes[i] + 1));
      changed = TRUE;
    }
  if (changed)
    g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * ws_run_classes_load_csv:
 * @file: a classes file, as `--classes` reads it
 *
 * Replaces every class with the file's: a trace named with a class keeps
 * it, one named with a latency only is classed by the CLI's rule (the
 * median and faster fast, the 90th percentile and slower slow).
 *
 * Returns: %FALSE with @error naming the file and line; the classes are
 *   then as they were
 */
gboolean
ws_run_classes_load_csv (WsRunClasses  *self,
                         const char    *file,
                         GError       **error)
{
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GHashTable) names = NULL;

  g_return_val_if_fail (WS_IS_RUN_CLASSES (self), FALSE);
  if ((entries = ws_trace_classes_read_csv (file, error)) == NULL ||
      !ws_trace_classes_assign (entries, NAN, NAN, error))
    return FALSE;
  g_hash_table_remove_all (self->by_path);
  g_hash_table_remove_all (self->by_name);
  names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < entries->len; i++)
    {
      const WsRunClassEntry *e = &g_array_index (entries, WsRunClassEntry, i);
      char *name = g_path_get_basename (e->path);
      guint seen = GPOINTER_TO_UINT (g_hash_table_lookup (names, name));

      g_hash_table_insert (self->by_path, g_canonicalize_filename (e->path, NULL), GUINT_TO_POINTER (e->klass + 1));
      /* Two files of one name in different folders: neither by name. */
      g_hash_table_replace (names, name, GUINT_TO_POINTER (seen == 0 ? e->klass + 1 : G_MAXUINT));
    }
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, names);
    while (g_hash_table_iter_next (&iter, &key, &value))
      if (GPOINTER_TO_UINT (value) != G_MAXUINT)
        g_hash_table_insert (self->by_name, g_strdup (key), value);
  }
  g_free (self->file);
  self->file = g_strdup (file);
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

/* Forgets every class. */
void
ws_run_classes_clear (WsRunClasses *self)
{
  g_return_if_fail (WS_IS_RUN_CLASSES (self));
  if (g_hash_table_size (self->by_path) == 0 && g_hash_table_size (self->by_name) == 0)
    return;
  g_hash_table_remove_all (self->by_path);
  g_hash_table_remove_all (self->by_name);
  g_clear_pointer (&self->file, g_free);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* Returns: (nullable): the classes file loaded last, until cleared */
const char *
ws_run_classes_get_file (WsRunClasses *self)
{
  g_return_val_if_fail (WS_IS_RUN_CLASSES (self), NULL);
  return self->file;
}

/**
 * ws_run_classes_dup_for:
 * @paths: (array length=n): the traces of a run, in its order
 * @n_slow: (out) (optional): how many are slow
 * @n_fast: (out) (optional): how many fast
 *
 * Returns: (transfer full) (element-type WsRunClass): one class per trace,
 *   what a core run takes as its classes (`WsMiningSettings.classes`)
 */
GArray *
ws_run_classes_dup_for (WsRunClasses       *self,
                        const char * const *paths,
                        guint               n,
                        guint              *n_slow,
                        guint              *n_fast)
{
  GArray *classes = g_array_sized_new (FALSE, FALSE, sizeof (WsRunClass), n);
  guint slow = 0, fast = 0;

  for (guint i = 0; i < n; i++)
    {
      WsRunClass klass = ws_run_classes_lookup (self, paths[i]);

      slow += klass == WS_RUN_CLASS_SLOW;
      fast += klass == WS_RUN_CLASS_FAST;
      g_array_append_val (classes, klass);
    }
  if (n_slow != NULL)
    *n_slow = slow;
  if (n_fast != NULL)
    *n_fast = fast;
  return classes;
}
