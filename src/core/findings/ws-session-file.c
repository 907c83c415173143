/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The .waitscope session file: versioned JSON (docs/session-format.md).
 *
 * Robustness first, since a session is hours of someone's reasoning: the
 * reader names the file and the member that is wrong and never half-loads;
 * the writer replaces the file atomically (temporary file, fsync, rename),
 * so a crash or a full disk mid-save leaves the previous good session;
 * traces are checked by content hash so a different file at the old path
 * is refused rather than silently analysed.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws-atomic-file.h"
#include "ws-error.h"
#include "ws-json-text.h"
#include "ws-pin-read.h"
#include "ws-session-file.h"
#include "ws-session-trace-check.h"

struct _WsSessionFile
{
  GObject        parent_instance;

  char          *path;            /* nullable: never saved */
  char          *title;
  GArray        *traces;          /* WsSessionTrace */
  WsPinList *findings;
  JsonObject    *view_state;
  JsonObject    *settings;
  char          *recovery_path;   /* nullable until the first autosave */
  gboolean       dirty;
  gboolean       is_recovery;     /* loaded from a recovery copy */
};

G_DEFINE_FINAL_TYPE (WsSessionFile, ws_session_file, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DIRTY,
  PROP_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
findings_changed (WsPinList *list,
                  WsSessionFile *self)
{
  ws_session_file_set_dirty (self, TRUE);
}

static void
ws_session_file_finalize (GObject *object)
{
  WsSessionFile *self = WS_SESSION_FILE (object);

  g_free (self->path);
  g_free (self->title);
  g_free (self->recovery_path);
  g_clear_pointer (&self->traces, g_array_unref);
  g_clear_object (&self->findings);
  g_clear_pointer (&self->view_state, json_object_unref);
  g_clear_pointer (&self->settings, json_object_unref);

  G_OBJECT_CLASS (ws_session_file_parent_class)->finalize (object);
}

static void
ws_session_file_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  WsSessionFile *self = WS_SESSION_FILE (object);

  switch (prop_id)
    {
    case PROP_DIRTY:
      g_value_set_boolean (value, self->dirty);
      break;
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_session_file_class_init (WsSessionFileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ws_session_file_finalize;
  object_class->get_property = ws_session_file_get_property;

  properties[PROP_DIRTY] =
    g_param_spec_boolean ("dirty", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_session_file_init (WsSessionFile *self)
{
  self->title = g_strdup ("");
  self->traces = g_array_new (FALSE, TRUE, sizeof (WsSessionTrace));
  g_array_set_clear_func (self->traces, ws_session_trace_clear);
  self->findings = ws_pin_list_new ();
  g_signal_connect_object (self->findings, "changed", G_CALLBACK (findings_changed), self, 0);
  self->view_state = json_object_new ();
  self->settings = json_object_new ();
}

WsSessionFile *
ws_session_file_new (void)
{
  return g_object_new (WS_TYPE_SESSION_FILE, NULL);
}

/* ------------------------------------------------------------------ */
/* Accessors                                                           */

/* Returns: (nullable): where it was loaded from or last saved */
const char *
ws_session_file_get_path (WsSessionFile *self)
{
  g_return_val_if_fail (WS_IS_SESSION_FILE (self), NULL);
  return self->path;
}

static void
set_path (WsSessionFile *self,
          const char    *path)
{
  if (g_strcmp0 (self->path, path) == 0)
    return;
  g_free (self->path);
  self->path = g_strdup (path);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PATH]);
}

const char *
ws_session_file_get_title (WsSessionFile *self)
{
  g_return_val_if_fail (WS_IS_SESSION_FILE (self), NULL);
  return self->title;
}

void
ws_session_file_set_title (WsSessionFile *self,
                           const char    *title)
{
  g_return_if_fail (WS_IS_SESSION_FILE (self));

  if (g_strcmp0 (self->title, title ? title : "") == 0)
    return;
  g_free (self->title);
  self->title = g_strdup (title ? title : "");
  ws_session_file_set_dirty (self, TRUE);
}

/* Returns: (transfer none) */
WsPinList *
ws_session_file_get_findings (WsSessionFile *self)
{
  g_return_val_if_fail (WS_IS_SESSION_FILE (self), NULL);
  return self->findings;
}

/* Returns: (transfer none): free-form state of the views, owned by the GUI */
JsonObject *
ws_session_file_get_view_state (WsSessionFile *self)
{
  g_return_val_if_fail (WS_IS_SESSION_FILE (self), NULL);
  return self->view_state;
}

/* Returns: (transfer none): the chosen analysis settings */
JsonObject *
ws_session_file_get_settings (WsSessionFile *self)
{
  g_return_val_if_fail (WS_IS_SESSION_FILE (self), NULL);
  return self->settings;
}

gboolean
ws_session_file_get_dirty (WsSessionFile *self)
{
  g_return_val_if_fail (WS_IS_SESSION_FILE (self), FALSE);
  return self->dirty;
}

void
ws_session_file_set_dirty (WsSessionFile *self,
                           gboolean       dirty)
{
  g_return_if_fail (WS_IS_SESSION_FILE (self));

  dirty = !!dirty;
  if (self->dirty == dirty)
    return;
  self->dirty = dirty;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRTY]);
}

guint
ws_session_file_get_n_traces (WsSessionFile *self)
{
  g_return_val_if_fail (WS_IS_SESSION_FILE (self), 0);
  return self->traces->len;
}

const WsSessionTrace *
ws_session_file_get_trace (WsSessionFile *self,
                           guint          index)
{
  g_return_val_if_fail (WS_IS_SESSION_FILE (self), NULL);
  g_return_val_if_fail (index < self->traces->len, NULL);
  return &g_array_index (self->traces, WsSessionTrace, index);
}

/* Returns: the index of the trace recorded at @path, or G_MAXUINT */
guint
ws_session_file_find_trace (WsSessionFile *self,
                            const char    *path)
{
  g_autofree char *canonical = NULL;

  g_return_val_if_fail (WS_IS_SESSION_FILE (self), G_MAXUINT);
  g_return_val_if_fail (path != NULL, G_MAXUINT);

  canonical = g_canonicalize_filename (path, NULL);
  for (guint i = 0; i < self->traces->len; i++)
    if (g_str_equal (g_array_index (self->traces, WsSessionTrace, i).path, canonical))
      return i;
  return G_MAXUINT;
}

/* ------------------------------------------------------------------ */
/* Traces: content hash, relocation                                    */

/**
 * ws_session_file_hash_file:
 * @size: (out) (optional): the file's size
 *
 * Returns: (transfer full): the hex SHA-256 of the file's bytes
 */
char *
ws_session_file_hash_file (const char  *path,
                           gint64      *size,
                           GError     **error)
{
  return ws_session_trace_hash_file (path, size, NULL, error);
}

/**
 * ws_session_file_hash_file_full:
 * @cancellable: (nullable): looked at between megabytes
 *
 * ws_session_file_hash_file() for a worker thread: a trace of gigabytes
 * takes seconds to hash, and closing the window must not wait for it.
 * Only regular files are read (ws-session-trace-check.c says why).
 */
char *
ws_session_file_hash_file_full (const char    *path,
                                gint64        *size,
                                GCancellable  *cancellable,
                                GError       **error)
{
  return ws_session_trace_hash_file (path, size, cancellable, error);
}

/**
 * ws_session_file_add_trace:
 * @name: (nullable): display name; default the file's base name
 * @index: (out) (optional): its index in the session
 *
 * Records a trace by path and content hash; a trace already recorded (same
 * content) keeps its index.
 */
gboolean
ws_session_file_add_trace (WsSessionFile  *self,
                           const char     *path,
                           const char     *name,
                           guint          *index,
                           GError        **error)
{
  g_autofree char *canonical = NULL;
  g_autofree char *sha = NULL;
  gint64 size = 0;

  g_return_val_if_fail (WS_IS_SESSION_FILE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  canonical = g_canonicalize_filename (path, NULL);
  sha = ws_session_file_hash_file (canonical, &size, error);
  if (sha == NULL)
    return FALSE;
  ws_session_file_add_trace_hashed (self, canonical, name, sha, size, index);
  return TRUE;
}

/**
 * ws_session_file_add_trace_hashed:
 * @sha256: the file's hex SHA-256, from ws_session_file_hash_file()
 * @index: (out) (optional): its index in the session
 *
 * ws_session_file_add_trace() with the hash already computed, so the
 * application can hash a large trace on a worker thread and record it on
 * the main one.
 */
void
ws_session_file_add_trace_hashed (WsSessionFile *self,
                                  const char    *path,
                                  const char    *name,
                                  const char    *sha256,
                                  gint64         size,
                                  guint         *index)
{
  WsSessionTrace t = { 0 };

  g_return_if_fail (WS_IS_SESSION_FILE (self));
  g_return_if_fail (path != NULL && sha256 != NULL);

  for (guint i = 0; i < self->traces->len; i++)
    if (g_str_equal (g_array_index (self->traces, WsSessionTrace, i).sha256, sha256))
      {
        if (index)
          *index = i;
        return;
      }

  t.path = g_canonicalize_filename (path, NULL);
  t.sha256 = g_ascii_strdown (sha256, -1);
  t.size = size;
  t.name = name ? g_strdup (name) : g_path_get_basename (t.path);
  g_array_append_val (self->traces, t);
  if (index)
    *index = self->traces->len - 1;
  ws_session_file_set_dirty (self, TRUE);
}

/**
 * ws_session_file_resolve_trace:
 * @relocated: (out) (optional): set when the trace was found elsewhere
 *   (its path is then updated and the session marked dirty)
 *
 * Checks that trace @index is where the session says, with the same
 * content; if it moved, looks for it by its relative path and beside the
 * session file (ws_session_trace_locate()).
 *
 * Returns: %FALSE with WS_ERROR_INVALID if a different file is at its
 *   path, WS_ERROR_IO if it is nowhere to be found (ask the user to
 *   relocate it, ws_session_file_relocate_trace())
 */
gboolean
ws_session_file_resolve_trace (WsSessionFile  *self,
                               guint           index,
                               gboolean       *relocated,
                               GError        **error)
{
  WsSessionTrace *t;
  g_autofree char *found = NULL;

  g_return_val_if_fail (WS_IS_SESSION_FILE (self), FALSE);
  g_return_val_if_fail (index < self->traces->len, FALSE);

  t = &g_array_index (self->traces, WsSessionTrace, index);
  found = ws_session_trace_locate (t, self->path, NULL, error);
  if (found == NULL)
    return FALSE;
  ws_session_file_set_trace_found (self, index, found, relocated);
  return TRUE;
}

/**
 * ws_session_file_set_trace_found:
 * @found: where ws_session_trace_locate() found trace @index
 * @relocated: (out) (optional): set when that is not where it was
 *
 * Records the answer of a check made on a worker thread.
 */
void
ws_session_file_set_trace_found (WsSessionFile *self,
                                 guint          index,
                                 const char    *found,
                                 gboolean      *relocated)
{
  WsSessionTrace *t;
  gboolean moved;

  g_return_if_fail (WS_IS_SESSION_FILE (self));
  g_return_if_fail (index < self->traces->len && found != NULL);

  t = &g_array_index (self->traces, WsSessionTrace, index);
  moved = !g_str_equal (t->path, found);
  if (moved)
    {
      g_free (t->path);
      t->path = g_strdup (found);
      ws_session_file_set_dirty (self, TRUE);
    }
  if (relocated)
    *relocated = moved;
}

/**
 * ws_session_file_get_trace_class:
 * @klass: (out): trace @index's class (%WS_RUN_CLASS_NONE: left out)
 *
 * Returns: whether the session gives trace @index a class at all
 */
gboolean
ws_session_file_get_trace_class (WsSessionFile *self,
                                 guint          index,
                                 WsRunClass    *klass)
{
  const WsSessionTrace *t;

  g_return_val_if_fail (WS_IS_SESSION_FILE (self), FALSE);
  g_return_val_if_fail (index < self->traces->len, FALSE);
  t = &g_array_index (self->traces, WsSessionTrace, index);
  if (t->run_class == 0)
    return FALSE;
  *klass = t->run_class - 1;
  return TRUE;
}

/**
 * ws_session_file_set_trace_class:
 * @given: %FALSE to take trace @index's class away (then @klass is unused)
 *
 * Gives trace @index its class in a fleet of runs, as the window's trace
 * classes say; saved as `trace_classes`.
 */
void
ws_session_file_set_trace_class (WsSessionFile *self,
                                 guint          index,
                                 gboolean       given,
                                 WsRunClass     klass)
{
  WsSessionTrace *t;
  guint value = given ? (guint) klass + 1 : 0;

  g_return_if_fail (WS_IS_SESSION_FILE (self));
  g_return_if_fail (index < self->traces->len && klass <= WS_RUN_CLASS_SLOW);
  t = &g_array_index (self->traces, WsSessionTrace, index);
  if (t->run_class == value)
    return;
  t->run_class = value;
  ws_session_file_set_dirty (self, TRUE);
}

/**
 * ws_session_file_relocate_trace:
 *
 * Points trace @index at @new_path, the user's answer to a missing trace.
 * Refused (WS_ERROR_INVALID, naming both files) unless the content is the
 * same as when the session was saved.
 */
gboolean
ws_session_file_relocate_trace (WsSessionFile  *self,
                                guint           index,
                                const char     *new_path,
                                GError        **error)
{
  WsSessionTrace *t;

  g_return_val_if_fail (WS_IS_SESSION_FILE (self), FALSE);
  g_return_val_if_fail (index < self->traces->len, FALSE);
  g_return_val_if_fail (new_path != NULL, FALSE);

  t = &g_array_index (self->traces, WsSessionTrace, index);
  if (!ws_session_trace_check (t, new_path, NULL, error))
    return FALSE;
  g_free (t->path);
  t->path = g_canonicalize_filename (new_path, NULL);
  ws_session_file_set_dirty (self, TRUE);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */

/* @path relative to folder @dir ("../traces/a.gz"), both absolute. */
static char *
relative_path (const char *dir,
               const char *path)
{
  g_auto(GStrv) d = g_strsplit (dir, G_DIR_SEPARATOR_S, -1);
  g_auto(GStrv) p = g_strsplit (path, G_DIR_SEPARATOR_S, -1);
  g_autoptr(GString) out = g_string_new (NULL);
  guint common = 0, nd = g_strv_length (d), np = g_strv_length (p);

  while (common < nd && common + 1 < np && g_str_equal (d[common], p[common]))
    common++;
  for (guint i = common; i < nd; i++)
    if (*d[i] != '\0')
      g_string_append (out, ".." G_DIR_SEPARATOR_S);
  for (guint i = common; i < np; i++)
    {
      g_string_append (out, p[i]);
      if (i + 1 < np)
        g_string_append_c (out, G_DIR_SEPARATOR);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
add_traces (JsonBuilder   *b,
            WsSessionFile *self,
            const char    *base_path)
{
  g_autofree char *dir = base_path ? g_path_get_dirname (base_path) : NULL;

  json_builder_begin_array (b);
  for (guint i = 0; i < self->traces->len; i++)
    {
      const WsSessionTrace *t = &g_array_index (self->traces, WsSessionTrace, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "path");
      json_builder_add_string_value (b, t->path);
      if (dir != NULL)
        {
          g_autofree char *rel = relative_path (dir, t->path);
          json_builder_set_member_name (b, "relative_path");
          json_builder_add_string_value (b, rel);
        }
      json_builder_set_member_name (b, "sha256");
      json_builder_add_string_value (b, t->sha256);
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, t->size);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, t->name);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* `trace_classes`: the traces given a class, by index, as findings name
 * traces (never by path: a path in a session is only ever opened as one of
 * its checked traces). */
static guint
add_trace_classes (JsonBuilder   *b,
                   WsSessionFile *self)
{
  guint n = 0;

  for (guint i = 0; i < self->traces->len; i++)
    {
      const WsSessionTrace *t = &g_array_index (self->traces, WsSessionTrace, i);

      if (t->run_class == 0)
        continue;
      if (n++ == 0)
        {
          json_builder_set_member_name (b, "trace_classes");
          json_builder_begin_array (b);
        }
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "trace");
      json_builder_add_int_value (b, i);
      json_builder_set_member_name (b, "class");
      json_builder_add_string_value (b, ws_run_class_to_string (t->run_class - 1));
      json_builder_end_object (b);
    }
  if (n > 0)
    json_builder_end_array (b);
  return n;
}

/* The lowest version that holds the document: 2 once it has trace classes
 * or a mining pin made with them (which a version-1 reader would reopen
 * ranked by cost, silently), else 1, which older Waitscopes still read. */
static gint64
document_version (WsSessionFile *self)
{
  for (guint i = 0; i < self->traces->len; i++)
    if (g_array_index (self->traces, WsSessionTrace, i).run_class != 0)
      return 2;
  for (guint i = 0; i < ws_pin_list_get_n (self->findings); i++)
    {
      JsonObject *settings = ws_pin_get_settings (ws_pin_list_get (self->findings, i));

      if (json_object_has_member (settings, "classes"))
        return 2;
    }
  return 1;
}

static void
add_object (JsonBuilder *b,
            const char  *name,
            JsonObject  *object)
{
  json_builder_set_member_name (b, name);
  json_builder_add_value (b, json_node_init_object (json_node_alloc (), object));
}

/* The document, with relative paths from @base_path's folder (nullable). */
static char *
to_data (WsSessionFile *self,
         const char    *base_path,
         gboolean       recovery)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *saved = g_date_time_format_iso8601 (now);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, WS_SESSION_FILE_FORMAT);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, document_version (self));
  json_builder_set_member_name (b, "generator");
  json_builder_add_string_value (b, "Waitscope " PACKAGE_VERSION);
  json_builder_set_member_name (b, "saved");
  json_builder_add_string_value (b, saved);
  json_builder_set_member_name (b, "title");
  json_builder_add_string_value (b, self->title);
  json_builder_set_member_name (b, "traces");
  add_traces (b, self, base_path);
  add_trace_classes (b, self);
  json_builder_set_member_name (b, "findings");
  json_builder_begin_array (b);
  for (guint i = 0; i < ws_pin_list_get_n (self->findings); i++)
    json_builder_add_value (b, ws_pin_to_json (ws_pin_list_get (self->findings, i)));
  json_builder_end_array (b);
  add_object (b, "view_state", self->view_state);
  add_object (b, "settings", self->settings);
  if (recovery)
    {
      json_builder_set_member_name (b, "recovery");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "original_path");
      if (self->path)
        json_builder_add_string_value (b, self->path);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  /* The one JSON writer: a trace path that is not UTF-8 must not make
   * the session a file the reader refuses. */
  return ws_json_text_from_node (root);
}

/* Returns: (transfer full): the document as it would be saved in place */
char *
ws_session_file_to_data (WsSessionFile *self)
{
  g_return_val_if_fail (WS_IS_SESSION_FILE (self), NULL);
  return to_data (self, self->path, FALSE);
}

/* Temporary file in the same folder, fsync, rename: the old file stays
 * whole until the new one is complete on disk. */
static gboolean
write_atomically (const char  *path,
                  const char  *data,
                  GError     **error)
{
  g_autoptr(GError) local = NULL;

  if (ws_atomic_file_set_contents (path, data, -1, TRUE, &local))
    return TRUE;
  g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not save “%s”: %s"), path, local->message);
  return FALSE;
}

/**
 * ws_session_file_save:
 * @path: (nullable): where; %NULL for where it was loaded or last saved
 *
 * Saves atomically, then drops the recovery copy.
 */
gboolean
ws_session_file_save (WsSessionFile  *self,
                      const char     *path,
                      GError        **error)
{
  g_autofree char *canonical = NULL;
  g_autofree char *data = NULL;

  g_return_val_if_fail (WS_IS_SESSION_FILE (self), FALSE);
  g_return_val_if_fail (path != NULL || self->path != NULL, FALSE);

  canonical = g_canonicalize_filename (path ? path : self->path, NULL);
  data = to_data (self, canonical, FALSE);
  if (!write_atomically (canonical, data, error))
    return FALSE;
  set_path (self, canonical);
  /* The recovery copy goes, unless it is the file just written. */
  if (self->recovery_path != NULL && g_str_equal (self->recovery_path, canonical))
    g_clear_pointer (&self->recovery_path, g_free);
  ws_session_file_discard_recovery (self);
  self->is_recovery = FALSE;
  ws_session_file_set_dirty (self, FALSE);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Autosave                                                            */

/* Returns: (transfer full): $WAITSCOPE_RECOVERY_DIR, or
 *   ~/.local/share/waitscope/recovery */
char *
ws_session_file_get_recovery_dir (void)
{
  const char *env = g_getenv ("WAITSCOPE_RECOVERY_DIR");

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  return g_build_filename (g_get_user_data_dir (), "waitscope", "recovery", NULL);
}

/* Returns: (nullable): this session's recovery copy, once one was written */
const char *
ws_session_file_get_recovery_path (WsSessionFile *self)
{
  g_return_val_if_fail (WS_IS_SESSION_FILE (self), NULL);
  return self->recovery_path;
}

gboolean
ws_session_file_is_recovery (WsSessionFile *self)
{
  g_return_val_if_fail (WS_IS_SESSION_FILE (self), FALSE);
  return self->is_recovery;
}

/**
 * ws_session_file_save_recovery:
 *
 * Writes the recovery copy (atomically, like a save) without touching the
 * user's file or the dirty flag.  Called a few seconds after each change,
 * so a crash loses at most those seconds.
 */
gboolean
ws_session_file_save_recovery (WsSessionFile  *self,
                               GError        **error)
{
  g_autofree char *data = NULL;

  g_return_val_if_fail (WS_IS_SESSION_FILE (self), FALSE);

  if (self->recovery_path == NULL)
    {
      g_autofree char *dir = ws_session_file_get_recovery_dir ();
      g_autofree char *uuid = g_uuid_string_random ();
      g_autofree char *name = g_strconcat (uuid, ".waitscope", NULL);

      if (g_mkdir_with_parents (dir, 0700) != 0)
        {
          int saved = errno;
          g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not create “%s”: %s"), dir, g_strerror (saved));
          return FALSE;
        }
      self->recovery_path = g_build_filename (dir, name, NULL);
    }
  data = to_data (self, self->path, TRUE);
  return write_atomically (self->recovery_path, data, error);
}

/* Removes the recovery copy: after a save, or on a clean close. */
void
ws_session_file_discard_recovery (WsSessionFile *self)
{
  g_return_if_fail (WS_IS_SESSION_FILE (self));

  if (self->recovery_path != NULL)
    g_unlink (self->recovery_path);
  g_clear_pointer (&self->recovery_path, g_free);
}

static gint
compare_mtime_desc (gconstpointer a,
                    gconstpointer b)
{
  GStatBuf sa, sb;
  const char *pa = *(const char * const *) a, *pb = *(const char * const *) b;

  if (g_stat (pa, &sa) != 0 || g_stat (pb, &sb) != 0)
    return 0;
  return sa.st_mtime < sb.st_mtime ? 1 : sa.st_mtime > sb.st_mtime ? -1 : 0;
}

/* Returns: (transfer full): the recovery copies left by sessions that did
 *   not close cleanly, newest first */
GPtrArray *
ws_session_file_list_recoveries (void)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir_path = ws_session_file_get_recovery_dir ();
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  if (dir == NULL)
    return paths;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".waitscope"))
      g_ptr_array_add (paths, g_build_filename (dir_path, name, NULL));
  g_ptr_array_sort (paths, compare_mtime_desc);
  return paths;
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */

static gboolean
bad (GError    **error,
     const char *path,
     const char *what)
{
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("“%s” is not a valid Waitscope session: %s"), path, what);
  return FALSE;
}

static gboolean
is_sha256 (const char *s)
{
  if (strlen (s) != 64)
    return FALSE;
  for (const char *c = s; *c; c++)
    if (!g_ascii_isxdigit (*c))
      return FALSE;
  return TRUE;
}

static const char *
string_member (JsonObject *obj,
               const char *name)
{
  JsonNode *node = json_object_get_member (obj, name);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
read_trace (WsSessionFile *self,
            const char    *path,
            guint          i,
            JsonNode      *node,
            GError       **error)
{
  g_autofree char *what = NULL;
  WsSessionTrace t = { 0 };
  JsonObject *obj;
  JsonNode *size;
  const char *trace_path, *sha, *rel, *name;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      what = g_strdup_printf (_("trace %u is not an object"), i);
      return bad (error, path, what);
    }
  obj = json_node_get_object (node);
  trace_path = string_member (obj, "path");
  sha = string_member (obj, "sha256");
  rel = string_member (obj, "relative_path");
  name = string_member (obj, "name");
  size = json_object_get_member (obj, "size");
  if (trace_path == NULL || *trace_path == '\0')
    what = g_strdup_printf (_("trace %u has no “path”"), i);
  else if (sha == NULL || !is_sha256 (sha))
    what = g_strdup_printf (_("trace %u has no valid “sha256” (64 hex digits)"), i);
  else if (size == NULL || json_node_get_value_type (size) != G_TYPE_INT64 || json_node_get_int (size) < 0)
    what = g_strdup_printf (_("trace %u has no valid “size”"), i);
  if (what != NULL)
    return bad (error, path, what);

  t.path = g_strdup (trace_path);
  t.relative_path = rel && *rel ? g_strdup (rel) : NULL;
  t.sha256 = g_ascii_strdown (sha, -1);
  t.size = json_node_get_int (size);
  t.name = name ? g_strdup (name) : g_path_get_basename (trace_path);
  g_array_append_val (self->traces, t);
  return TRUE;
}

/* One member of `trace_classes`: a class for one of the session's own
 * traces, named by index; anything else is refused, as a bad finding is. */
static gboolean
read_trace_class (WsSessionFile *self,
                  const char    *path,
                  guint          i,
                  JsonNode      *node,
                  GError       **error)
{
  g_autofree char *what = NULL;
  static const char * const names[] = { "none", "fast", "slow" };
  JsonObject *obj;
  JsonNode *index;
  const char *klass;
  gint64 t = -1;
  guint k = G_N_ELEMENTS (names);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      what = g_strdup_printf (_("trace class %u is not an object"), i);
      return bad (error, path, what);
    }
  obj = json_node_get_object (node);
  index = json_object_get_member (obj, "trace");
  klass = string_member (obj, "class");
  for (k = 0; klass != NULL && k < G_N_ELEMENTS (names) && !g_str_equal (klass, names[k]); k++)
    ;
  if (index == NULL || json_node_get_value_type (index) != G_TYPE_INT64)
    what = g_strdup_printf (_("trace class %u has no “trace” index"), i);
  else if ((t = json_node_get_int (index)) < 0 || t >= self->traces->len)
    what = g_strdup_printf (_("trace class %u: trace index %lld is out of range (the session lists %u traces)"),
                            i, (long long) t, self->traces->len);
  else if (klass == NULL || k == G_N_ELEMENTS (names))
    what = g_strdup_printf (_("trace class %u: “class” must be “slow”, “fast” or “none”"), i);
  else if (g_array_index (self->traces, WsSessionTrace, t).run_class != 0)
    what = g_strdup_printf (_("trace class %u: trace %lld already has a class"), i, (long long) t);
  if (what != NULL)
    return bad (error, path, what);
  G_STATIC_ASSERT (WS_RUN_CLASS_NONE == 0 && WS_RUN_CLASS_FAST == 1 && WS_RUN_CLASS_SLOW == 2);
  g_array_index (self->traces, WsSessionTrace, t).run_class = k + 1;
  return TRUE;
}

/* `trace_classes` (version 2; absent: no class given). */
static gboolean
read_trace_classes (WsSessionFile *self,
                    const char    *path,
                    JsonObject    *root,
                    GError       **error)
{
  JsonNode *node = json_object_get_member (root, "trace_classes");
  JsonArray *array;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return bad (error, path, _("“trace_classes” must be an array"));
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (!read_trace_class (self, path, i, json_array_get_element (array, i), error))
      return FALSE;
  return TRUE;
}

static gboolean
read_array (WsSessionFile *self,
            const char    *path,
            JsonObject    *root,
            const char    *member,
            gboolean       findings,
            GError       **error)
{
  JsonNode *node = json_object_get_member (root, member);
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *what = g_strdup_printf (_("“%s” must be an array"), member);
      return bad (error, path, what);
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *e = json_array_get_element (array, i);
      g_autoptr(GError) local = NULL;
      g_autoptr(WsPin) finding = NULL;

      if (!findings)
        {
          if (!read_trace (self, path, i, e, error))
            return FALSE;
          continue;
        }
      /* A view whose settings could not redraw it (its kind's check) is
       * refused here, where the reader can still name the file and the
       * finding, not when reopened. */
      finding = ws_pin_new_from_json (e, self->traces->len, &local);
      if (finding == NULL)
        {
          g_autofree char *what = g_strdup_printf (_("finding %u: %s"), i, local->message);
          return bad (error, path, what);
        }
      ws_pin_list_append (self->findings, finding);
    }
  return TRUE;
}

static gboolean
read_object (JsonObject  *root,
             const char  *member,
             const char  *path,
             JsonObject **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (root, member);

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *what = g_strdup_printf (_("“%s” must be an object"), member);
      return bad (error, path, what);
    }
  json_object_unref (*out);
  *out = json_object_ref (json_node_get_object (node));
  return TRUE;
}

static gboolean
check_header (JsonObject  *root,
              const char  *path,
              GError     **error)
{
  JsonNode *version = json_object_get_member (root, "version");
  gint64 v;

  if (g_strcmp0 (string_member (root, "format"), WS_SESSION_FILE_FORMAT) != 0)
    return bad (error, path, _("“format” is not “waitscope-session”"));
  if (version == NULL || json_node_get_value_type (version) != G_TYPE_INT64)
    return bad (error, path, _("“version” is missing or not an integer"));
  v = json_node_get_int (version);
  if (v > WS_SESSION_FILE_VERSION)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("“%s” was written by a newer Waitscope (session version %lld); "
                     "this one reads versions up to %d"),
                   path, (long long) v, WS_SESSION_FILE_VERSION);
      return FALSE;
    }
  if (v < 1)
    return bad (error, path, _("“version” must be at least 1"));
  return TRUE;
}

/* Where a recovered session may be saved back to: an absolute path to a
 * session file, never a path like ~/.bashrc. */
static gboolean
is_session_path (const char *path)
{
  return g_path_is_absolute (path) && g_str_has_suffix (path, ".waitscope");
}

/* Is @path a recovery copy this application wrote: a regular file of the
 * user's own (not a link) directly inside the recovery folder?  A session
 * from anywhere else that carries a "recovery" member is an ordinary
 * session: otherwise a file from a colleague could name any file of the
 * user's as the one its next save overwrites. */
static gboolean
is_own_recovery_copy (const char *path)
{
  g_autofree char *dir = ws_session_file_get_recovery_dir ();
  g_autofree char *parent = NULL;
  g_autofree char *real_dir = NULL;
  g_autofree char *real_parent = NULL;
  GStatBuf st;

  if (g_lstat (path, &st) != 0 || !S_ISREG (st.st_mode) || st.st_uid != getuid ())
    return FALSE;
  parent = g_path_get_dirname (path);
  real_dir = realpath (dir, NULL);
  real_parent = realpath (parent, NULL);
  return real_dir != NULL && real_parent != NULL && g_str_equal (real_dir, real_parent);
}

/* json-glib's parser recurses once per level: a 200 KB document nested
 * 100,000 deep overflows the stack.  Sessions nest a few levels; refuse
 * deep ones before parsing (the trace reader has the same limit). */
#define MAX_DEPTH 256

static gboolean
nested_too_deep (const char *data,
                 gsize       length)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > MAX_DEPTH)
            return TRUE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return FALSE;
}

static JsonNode *
parse (const char  *path,
       GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;
  GStatBuf st;

  /* A FIFO or a device named as a session would block or never end. */
  if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("“%s” is not a regular file (a device, a pipe or a folder), not a Waitscope session"), path);
      return NULL;
    }
  if (!g_file_get_contents (path, &data, &length, &local))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not read “%s”: %s"), path, local->message);
      return NULL;
    }
  if (length == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_EMPTY, _("“%s” is empty, not a Waitscope session"), path);
      return NULL;
    }
  if (memchr (data, '\0', length) != NULL || !g_utf8_validate (data, length, NULL))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_BINARY, _("“%s” is not a Waitscope session (not UTF-8 text)"), path);
      return NULL;
    }
  if (nested_too_deep (data, length))
    {
      g_autofree char *what = g_strdup_printf (_("nested deeper than %u levels"), (guint) MAX_DEPTH);
      bad (error, path, what);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, data, length, &local))
    {
      /* json-glib says "<data>:LINE:COL: Parse error: WHAT"; say it plainly. */
      const char *msg = local->message;
      const char *what = strstr (msg, "error: ");
      guint line = 0, column = 0;

      /* json-glib quotes the bad text and may cut a character in two. */
      g_autofree char *valid = g_utf8_make_valid (what ? what + 7 : msg, -1);

      if (sscanf (msg, "<data>:%u:%u:", &line, &column) == 2 && what != NULL)
        g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                     _("“%s” is not a valid Waitscope session: damaged or truncated JSON at line %u, column %u: %s"),
                     path, line, column, valid);
      else
        g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                     _("“%s” is not a valid Waitscope session: damaged or truncated JSON: %s"), path, valid);
      return NULL;
    }
  /* Blank text parses to no root at all. */
  if (json_parser_get_root (parser) == NULL || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      bad (error, path, _("the document is not a JSON object"));
      return NULL;
    }
  return json_node_ref (json_parser_get_root (parser));
}

/**
 * ws_session_file_load:
 *
 * Reads a session (or a recovery copy, which then remembers the file it
 * stands for).  Nothing is half-loaded: on any error the result is %NULL
 * and @error names the file and what is wrong in it.
 *
 * Returns: (transfer full) (nullable): the session
 */
WsSessionFile *
ws_session_file_load (const char  *path,
                      GError     **error)
{
  g_autoptr(WsSessionFile) self = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *root, *recovery = NULL;
  const char *title;

  g_return_val_if_fail (path != NULL, NULL);

  node = parse (path, error);
  if (node == NULL)
    return NULL;
  root = json_node_get_object (node);
  self = ws_session_file_new ();
  if (!check_header (root, path, error) ||
      !read_array (self, path, root, "traces", FALSE, error) ||
      !read_trace_classes (self, path, root, error) ||
      !read_array (self, path, root, "findings", TRUE, error) ||
      !read_object (root, "view_state", path, &self->view_state, error) ||
      !read_object (root, "settings", path, &self->settings, error))
    return NULL;
  title = string_member (root, "title");
  g_free (self->title);
  self->title = g_strdup (title ? title : "");

  if (json_object_has_member (root, "recovery") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (root, "recovery")))
    recovery = json_object_get_object_member (root, "recovery");
  if (recovery != NULL && is_own_recovery_copy (path))
    {
      /* Saving a recovered session writes the file it stood for; only a
       * copy this application wrote may say which file that is. */
      const char *original = string_member (recovery, "original_path");

      self->is_recovery = TRUE;
      self->recovery_path = g_canonicalize_filename (path, NULL);
      self->path = original != NULL && is_session_path (original) ? g_strdup (original) : NULL;
    }
  else
    self->path = g_canonicalize_filename (path, NULL);

  /* Loading appended the findings: that is not a change one can undo. */
  ws_pin_list_clear_undo (self->findings);
  self->dirty = self->is_recovery;
  return g_steal_pointer (&self);
}
