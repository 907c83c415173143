/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Wait signatures: what "the same event" means when a wait's history is
 * looked up (the patent's "request for a lock on a printer driver").
 *
 * A signature is the blocking point of the waiting stack:
 *
 *   user_caller;user_frame|kernel_blocking_function
 *
 * - the kernel's blocking function is the leaf-most kernel frame that is
 *   not the scheduler itself (__schedule, schedule, schedule_timeout,
 *   schedule_hrtimeout_range… are how every wait ends, not what it waits
 *   for): futex_wait_queue, ep_poll, io_schedule, wait_for_completion…;
 * - then the first @depth user-space frames above the kernel, leaf first
 *   in meaning but written caller first: the libc wrapper and its caller.
 *
 * The pool (the fallback model for a signature with too little history)
 * is the kernel blocking function alone.  A stack with no kernel part
 * (JSON traces without one) has the pool "-"; a kernel thread with no user
 * part takes its @depth kernel frames above the blocking function instead.
 * Frames without a symbol are written as [unknown]@module-basename so that
 * two unresolved call sites in different binaries stay apart.
 */
#include "config.h"

#include <string.h>

#include "ws-wait-signature.h"

struct _WsWaitSignatures
{
  GObject     parent_instance;

  WsTrace    *trace;
  guint       depth;
  GPtrArray  *keys;        /* char *, signature index → key */
  GPtrArray  *pools;       /* char *, signature index → pool */
  GHashTable *by_key;      /* key → index + 1 */
  guint32    *of_stack;    /* stack id → index, WS_NONE if unset */
  guint       n_stacks;
};

G_DEFINE_FINAL_TYPE (WsWaitSignatures, ws_wait_signatures, G_TYPE_OBJECT)

static gboolean
is_kernel_frame (const WsFrame *f)
{
  return g_str_has_prefix (f->module, "[kernel") || g_str_has_suffix (f->module, ".ko");
}

static gboolean
is_scheduler_frame (const WsFrame *f)
{
  const char *name = f->function;

  while (*name == '_')
    name++;
  return g_str_has_prefix (name, "schedule") || g_str_has_prefix (name, "preempt_schedule");
}

static void
append_frame (GString       *s,
              const WsFrame *f)
{
  if (strcmp (f->function, "[unknown]") == 0)
    {
      const char *slash = strrchr (f->module, '/');
      g_string_append_printf (s, "[unknown]@%s", slash ? slash + 1 : f->module);
    }
  else
    g_string_append (s, f->function);
}

/**
 * ws_wait_signature_for_stack:
 * @stack: a waiting stack (caller first)
 * @depth: user-space frames to keep (1 … %WS_WAIT_SIGNATURE_MAX_DEPTH)
 * @pool: (out) (optional) (transfer full): the signature's pool
 *
 * Returns: (transfer full): the signature (see the top of this file)
 */
char *
ws_wait_signature_for_stack (WsStackTable *table,
                             WsStackId     stack,
                             guint         depth,
                             char        **pool)
{
  GString *s = g_string_new (NULL);
  const WsFrameId *frames;
  guint n, top, block, first;
  const char *block_name = "-";

  depth = CLAMP (depth, 1, WS_WAIT_SIGNATURE_MAX_DEPTH);
  frames = ws_stack_table_get_stack (table, stack, &n);

  /* Kernel frames are the leaf end: [top, n). */
  for (top = n; top > 0 && is_kernel_frame (ws_stack_table_get_frame (table, frames[top - 1])); top--)
    ;
  for (block = n; block > top && is_scheduler_frame (ws_stack_table_get_frame (table, frames[block - 1])); block--)
    ;
  if (block > top)
    block_name = ws_stack_table_get_frame (table, frames[block - 1])->function;
  else if (top < n)
    block_name = ws_stack_table_get_frame (table, frames[n - 1])->function;

  /* User frames just above the kernel, or kernel frames above the
   * blocking function for a kernel thread. */
  if (top > 0)
    first = top > depth ? top - depth : 0;
  else
    {
      top = block > 0 ? block - 1 : 0;
      first = top > depth ? top - depth : 0;
    }
  for (guint i = first; i < top; i++)
    {
      if (i > first)
        g_string_append_c (s, ';');
      append_frame (s, ws_stack_table_get_frame (table, frames[i]));
    }
  if (top == first)
    g_string_append_c (s, '-');
  g_string_append_c (s, '|');
  g_string_append (s, block_name);

  if (pool != NULL)
    *pool = g_strdup (block_name);
  return g_string_free (s, FALSE);
}

/**
 * ws_wait_is_scored:
 *
 * Returns: whether @event is a wait whose duration is known: a finished
 *   wait (one still open at the end of the trace has only a lower bound)
 */
gboolean
ws_wait_is_scored (const WsEvent *event)
{
  return event->kind == WS_EVENT_WAIT
         && !(event->flags & WS_EVENT_FLAG_UNFINISHED)
         && event->duration > 0;
}

static void
ws_wait_signatures_finalize (GObject *object)
{
  WsWaitSignatures *self = WS_WAIT_SIGNATURES (object);

  g_clear_object (&self->trace);
  g_ptr_array_unref (self->keys);
  g_ptr_array_unref (self->pools);
  g_hash_table_unref (self->by_key);
  g_free (self->of_stack);

  G_OBJECT_CLASS (ws_wait_signatures_parent_class)->finalize (object);
}

static void
ws_wait_signatures_class_init (WsWaitSignaturesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_wait_signatures_finalize;
}

static void
ws_wait_signatures_init (WsWaitSignatures *self)
{
  self->keys = g_ptr_array_new_with_free_func (g_free);
  self->pools = g_ptr_array_new_with_free_func (g_free);
  self->by_key = g_hash_table_new (g_str_hash, g_str_equal);
}

static guint
signature_of_stack (WsWaitSignatures *self,
                    WsStackId         stack)
{
  WsStackTable *table = ws_trace_get_stack_table (self->trace);
  g_autofree char *pool = NULL;
  char *key;
  gpointer found;

  if (self->of_stack[stack] != WS_NONE)
    return self->of_stack[stack];

  key = ws_wait_signature_for_stack (table, stack, self->depth, &pool);
  if ((found = g_hash_table_lookup (self->by_key, key)) != NULL)
    {
      g_free (key);
      return self->of_stack[stack] = GPOINTER_TO_UINT (found) - 1;
    }
  g_ptr_array_add (self->keys, key);
  g_ptr_array_add (self->pools, g_steal_pointer (&pool));
  g_hash_table_insert (self->by_key, key, GUINT_TO_POINTER (self->keys->len));
  return self->of_stack[stack] = self->keys->len - 1;
}

/**
 * ws_wait_signatures_new:
 * @depth: user-space frames per signature
 *
 * Returns: (transfer full): the signatures of every scored wait of @trace
 */
WsWaitSignatures *
ws_wait_signatures_new (WsTrace *trace,
                        guint    depth)
{
  WsWaitSignatures *self;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  self = g_object_new (WS_TYPE_WAIT_SIGNATURES, NULL);
  self->trace = g_object_ref (trace);
  self->depth = CLAMP (depth, 1, WS_WAIT_SIGNATURE_MAX_DEPTH);
  self->n_stacks = ws_stack_table_get_n_stacks (ws_trace_get_stack_table (trace));
  self->of_stack = g_new (guint32, MAX (self->n_stacks, 1));
  memset (self->of_stack, 0xff, sizeof (guint32) * MAX (self->n_stacks, 1));
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      if (ws_wait_is_scored (e) && e->stack < self->n_stacks)
        signature_of_stack (self, e->stack);
    }
  return self;
}

WsTrace *
ws_wait_signatures_get_trace (WsWaitSignatures *self)
{
  g_return_val_if_fail (WS_IS_WAIT_SIGNATURES (self), NULL);
  return self->trace;
}

guint
ws_wait_signatures_get_depth (WsWaitSignatures *self)
{
  g_return_val_if_fail (WS_IS_WAIT_SIGNATURES (self), 0);
  return self->depth;
}

guint
ws_wait_signatures_get_n (WsWaitSignatures *self)
{
  g_return_val_if_fail (WS_IS_WAIT_SIGNATURES (self), 0);
  return self->keys->len;
}

const char *
ws_wait_signatures_get_key (WsWaitSignatures *self,
                            guint             signature)
{
  g_return_val_if_fail (WS_IS_WAIT_SIGNATURES (self), NULL);
  g_return_val_if_fail (signature < self->keys->len, NULL);
  return g_ptr_array_index (self->keys, signature);
}

const char *
ws_wait_signatures_get_pool (WsWaitSignatures *self,
                             guint             signature)
{
  g_return_val_if_fail (WS_IS_WAIT_SIGNATURES (self), NULL);
  g_return_val_if_fail (signature < self->pools->len, NULL);
  return g_ptr_array_index (self->pools, signature);
}

/* Returns: the signature index of @key, or %WS_NONE */
guint
ws_wait_signatures_lookup (WsWaitSignatures *self,
                           const char       *key)
{
  gpointer found;

  g_return_val_if_fail (WS_IS_WAIT_SIGNATURES (self), WS_NONE);
  found = g_hash_table_lookup (self->by_key, key);
  return found ? GPOINTER_TO_UINT (found) - 1 : WS_NONE;
}

/**
 * ws_wait_signatures_of_event:
 *
 * Returns: the signature index of a scored wait, %WS_NONE for any other
 *   event
 */
guint
ws_wait_signatures_of_event (WsWaitSignatures *self,
                             guint             event)
{
  const WsEvent *e;

  g_return_val_if_fail (WS_IS_WAIT_SIGNATURES (self), WS_NONE);

  if (event >= ws_trace_get_n_events (self->trace))
    return WS_NONE;
  e = ws_trace_get_event (self->trace, event);
  if (!ws_wait_is_scored (e) || e->stack >= self->n_stacks)
    return WS_NONE;
  return self->of_stack[e->stack];
}
