/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Signatures are asked for millions of times (every node of every wait
 * graph), but a trace has a few thousand distinct frames and stacks: the
 * regex runs once per frame and the signature is computed once per stack,
 * both cached per stack table (a trace's, or a digest's shared by its
 * traces).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-error.h"
#include "ws-signatures.h"

enum { FRAME_UNSEEN, FRAME_OTHER, FRAME_COMPONENT };

typedef struct {
  WsStackTable *table;
  GArray     *frame_state;  /* guint8 per frame id */
  GHashTable *stack_sig;    /* stack id -> sig + 1 */
  GHashTable *stack_rel;    /* stack id -> 1 (no) / 2 (yes) */
} TraceCache;

struct _WsSignatures
{
  GObject     parent_instance;

  char       *component;
  gboolean    widen;
  GRegex     *regex;
  GRegex     *disk_regex;
  GPtrArray  *names;        /* sig id -> name */
  GHashTable *ids;          /* name -> sig id + 1 */
  GHashTable *caches;       /* WsStackTable* -> TraceCache* */
};

G_DEFINE_FINAL_TYPE (WsSignatures, ws_signatures, G_TYPE_OBJECT)

static void
trace_cache_free (gpointer data)
{
  TraceCache *c = data;

  g_object_unref (c->table);
  g_array_unref (c->frame_state);
  g_hash_table_unref (c->stack_sig);
  g_hash_table_unref (c->stack_rel);
  g_free (c);
}

static void
ws_signatures_finalize (GObject *object)
{
  WsSignatures *self = WS_SIGNATURES (object);

  g_free (self->component);
  g_clear_pointer (&self->regex, g_regex_unref);
  g_clear_pointer (&self->disk_regex, g_regex_unref);
  g_ptr_array_unref (self->names);
  g_hash_table_unref (self->ids);
  g_hash_table_unref (self->caches);

  G_OBJECT_CLASS (ws_signatures_parent_class)->finalize (object);
}

static void
ws_signatures_class_init (WsSignaturesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_signatures_finalize;
}

static void
ws_signatures_init (WsSignatures *self)
{
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->caches = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, trace_cache_free);
}

/**
 * ws_signatures_new:
 * @component_regex: a Perl regex matched, unanchored, against each frame's
 *   "function (module)" text (`postgres`, `\.sys\)`, `ext4_|blk_`)
 *
 * Returns: (transfer full): the signature table, or %NULL with @error set
 *   (WS_ERROR_INVALID) for an empty or bad regex
 */
WsSignatures *
ws_signatures_new (const char  *component_regex,
                   gboolean     widen,
                   GError     **error)
{
  g_autoptr(WsSignatures) self = NULL;
  g_autoptr(GError) local = NULL;

  if (component_regex == NULL || *component_regex == '\0')
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("No component given (a regular expression over frames)"));
      return NULL;
    }

  self = g_object_new (WS_TYPE_SIGNATURES, NULL);
  self->component = g_strdup (component_regex);
  self->widen = widen;
  self->regex = g_regex_new (component_regex, G_REGEX_OPTIMIZE, 0, &local);
  if (self->regex == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("Bad component regular expression “%s”: %s"),
                   component_regex, local->message);
      return NULL;
    }
  /* Frames that show a block-device completion, or a thread asleep on
   * its own block I/O: the "disk service" of the paper. */
  self->disk_regex = g_regex_new ("blk_|bio_|_end_request|end_io|writeback|io_schedule|submit_bio|"
                                  "virtblk|nvme|scsi|[Dd]isk",
                                  G_REGEX_OPTIMIZE, 0, NULL);
  return g_steal_pointer (&self);
}

const char *
ws_signatures_get_component (WsSignatures *self)
{
  g_return_val_if_fail (WS_IS_SIGNATURES (self), NULL);
  return self->component;
}

gboolean
ws_signatures_get_widen (WsSignatures *self)
{
  g_return_val_if_fail (WS_IS_SIGNATURES (self), FALSE);
  return self->widen;
}

WsSigId
ws_signatures_intern (WsSignatures *self,
                      const char   *name)
{
  gpointer found;
  char *copy;

  g_return_val_if_fail (WS_IS_SIGNATURES (self), WS_SIG_NONE);
  g_return_val_if_fail (name != NULL, WS_SIG_NONE);

  if ((found = g_hash_table_lookup (self->ids, name)) != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  /* Names reach JSON and labels: never invalid UTF-8, whatever the trace held. */
  copy = g_utf8_validate (name, -1, NULL) ? g_strdup (name) : g_utf8_make_valid (name, -1);
  g_ptr_array_add (self->names, copy);
  g_hash_table_insert (self->ids, g_strdup (name), GUINT_TO_POINTER (self->names->len));
  return self->names->len - 1;
}

const char *
ws_signatures_get_name (WsSignatures *self,
                        WsSigId       sig)
{
  g_return_val_if_fail (WS_IS_SIGNATURES (self), NULL);
  if (sig == WS_SIG_NONE || sig >= self->names->len)
    return NULL;
  return g_ptr_array_index (self->names, sig);
}

guint
ws_signatures_get_n (WsSignatures *self)
{
  g_return_val_if_fail (WS_IS_SIGNATURES (self), 0);
  return self->names->len;
}

static TraceCache *
get_cache (WsSignatures *self,
           WsStackTable *table)
{
  TraceCache *c = g_hash_table_lookup (self->caches, table);

  if (c == NULL)
    {
      c = g_new0 (TraceCache, 1);
      c->table = g_object_ref (table);
      c->frame_state = g_array_new (FALSE, TRUE, sizeof (guint8));
      c->stack_sig = g_hash_table_new (g_direct_hash, g_direct_equal);
      c->stack_rel = g_hash_table_new (g_direct_hash, g_direct_equal);
      g_hash_table_insert (self->caches, table, c);
    }
  return c;
}

static gboolean
frame_is_component (WsSignatures *self,
                    TraceCache   *c,
                    WsStackTable *stacks,
                    WsFrameId     frame)
{
  guint8 *state;

  if (frame >= c->frame_state->len)
    g_array_set_size (c->frame_state, frame + 1);
  state = &g_array_index (c->frame_state, guint8, frame);
  if (*state == FRAME_UNSEEN)
    {
      g_autofree char *text = ws_stack_table_format_frame (stacks, frame);
      *state = g_regex_match (self->regex, text, 0, NULL) ? FRAME_COMPONENT : FRAME_OTHER;
    }
  return *state == FRAME_COMPONENT;
}

static gboolean
frame_is_named (WsStackTable *stacks,
                WsFrameId     frame)
{
  const WsFrame *f = ws_stack_table_get_frame (stacks, frame);
  return f->function[0] != '\0' && strcmp (f->function, "[unknown]") != 0;
}

gboolean
ws_signatures_stack_is_relevant (WsSignatures *self,
                                 WsTrace      *trace,
                                 WsStackId     stack)
{
  return ws_signatures_stack_is_relevant_in (self, ws_trace_get_stack_table (trace), stack);
}

gboolean
ws_signatures_stack_is_relevant_in (WsSignatures *self,
                                    WsStackTable *stacks,
                                    WsStackId     stack)
{
  TraceCache *c;
  const WsFrameId *frames;
  gpointer found;
  guint n = 0;
  gboolean relevant = FALSE;

  g_return_val_if_fail (WS_IS_SIGNATURES (self), FALSE);
  if (stack == WS_STACK_EMPTY)
    return FALSE;

  c = get_cache (self, stacks);
  if ((found = g_hash_table_lookup (c->stack_rel, GUINT_TO_POINTER (stack))) != NULL)
    return GPOINTER_TO_UINT (found) == 2;

  frames = ws_stack_table_get_stack (stacks, stack, &n);
  for (guint i = 0; i < n && !relevant; i++)
    relevant = frame_is_component (self, c, stacks, frames[i]);
  g_hash_table_insert (c->stack_rel, GUINT_TO_POINTER (stack), GUINT_TO_POINTER (relevant ? 2 : 1));
  return relevant;
}

static WsSigId
compute_signature (WsSignatures *self,
                   TraceCache   *c,
                   WsStackTable *stacks,
                   WsStackId     stack)
{
  guint n = 0;
  const WsFrameId *frames = ws_stack_table_get_stack (stacks, stack, &n);

  for (guint i = n; i > 0; i--)
    {
      const WsFrame *f;

      if (!frame_is_named (stacks, frames[i - 1]) || !frame_is_component (self, c, stacks, frames[i - 1]))
        continue;
      f = ws_stack_table_get_frame (stacks, frames[i - 1]);
      if (!self->widen)
        return ws_signatures_intern (self, f->function);
      for (guint j = i - 1; j > 0; j--)
        if (frame_is_named (stacks, frames[j - 1]))
          {
            g_autofree char *both = g_strdup_printf ("%s ← %s", f->function,
                                                     ws_stack_table_get_frame (stacks, frames[j - 1])->function);
            return ws_signatures_intern (self, both);
          }
      return ws_signatures_intern (self, f->function);
    }
  return WS_SIG_NONE;
}

WsSigId
ws_signatures_of_stack (WsSignatures *self,
                        WsTrace      *trace,
                        WsStackId     stack)
{
  return ws_signatures_of_stack_in (self, ws_trace_get_stack_table (trace), stack);
}

WsSigId
ws_signatures_of_stack_in (WsSignatures *self,
                           WsStackTable *stacks,
                           WsStackId     stack)
{
  TraceCache *c;
  gpointer found;
  WsSigId sig;

  g_return_val_if_fail (WS_IS_SIGNATURES (self), WS_SIG_NONE);
  if (stack == WS_STACK_EMPTY)
    return WS_SIG_NONE;

  c = get_cache (self, stacks);
  if ((found = g_hash_table_lookup (c->stack_sig, GUINT_TO_POINTER (stack))) != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  sig = compute_signature (self, c, stacks, stack);
  g_hash_table_insert (c->stack_sig, GUINT_TO_POINTER (stack), GUINT_TO_POINTER (sig + 1));
  return sig;
}

WsSigId
ws_signatures_of_hardware (WsSignatures *self,
                           WsTrace      *trace,
                           WsStackId     stack,
                           gboolean      timer)
{
  return ws_signatures_of_hardware_in (self, ws_trace_get_stack_table (trace), stack, timer);
}

WsSigId
ws_signatures_of_hardware_in (WsSignatures *self,
                              WsStackTable *stacks,
                              WsStackId     stack,
                              gboolean      timer)
{
  const WsFrameId *frames;
  guint n = 0;

  g_return_val_if_fail (WS_IS_SIGNATURES (self), WS_SIG_NONE);

  if (timer)
    return ws_signatures_intern (self, "TimerService");
  frames = ws_stack_table_get_stack (stacks, stack, &n);
  for (guint i = 0; i < n; i++)
    if (g_regex_match (self->disk_regex, ws_stack_table_get_frame (stacks, frames[i])->function, 0, NULL))
      return ws_signatures_intern (self, "DiskService");
  return ws_signatures_intern (self, "InterruptService");
}
