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
 *
 * The caller that tells waits apart (signature version 2): when
 * the outermost of the @depth frames is a generic waiting wrapper (a libc
 * system-call wrapper, a lock or condition-variable primitive,
 * PostgreSQL's WaitLatch…: generic_wrappers[] below) or has no symbol, the
 * depth frames say how the thread waits but not what for, and one kind
 * would lump a backend waiting for a row lock, one in pg_sleep and an idle
 * one.  The signature then starts with the first frame above them that is
 * neither, its **anchor**, followed by "…" for the frames skipped (none or
 * more):
 *
 *   ProcSleep;…;WaitLatch;epoll_wait|do_epoll_wait
 *   WalWriterMain;…;WaitLatch;epoll_wait|do_epoll_wait
 *
 * and with "…" first when no such frame is found.  "…" is never a symbol,
 * so a signature without it means the same set of stacks as in version 1.
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

/* Generic waiting wrappers: how a thread waits, not what for.  Anchored
 * (^…$) except where a family of names shares a prefix. */
static const char * const generic_wrappers[] = {
  /* libc system-call wrappers and their internal names */
  "^_*(GI_)*_*(libc_)?(epoll_wait|epoll_pwait2?|poll|ppoll|select|pselect6?|nanosleep|clock_nanosleep"
    "|usleep|sleep|read|readv|pread(64)?|write|writev|pwrite(64)?|recv|recvfrom|recvmsg|send|sendto|sendmsg"
    "|accept4?|connect|wait4?|waitpid|waitid|syscall|fsync|fdatasync|sync_file_range|msync|flock|fcntl(64)?"
    "|lockf(64)?|ioctl|sigtimedwait|sigwaitinfo|pause|open(at)?(64)?)(_nocancel)?$",
  /* futexes, mutexes, condition variables, semaphores, rwlocks */
  "futex", "^_*lll_", "^_*(new_)?sem_(timed|clock)?wait", "^_*new_sem_wait",
  "^_*pthread_(mutex|cond|rwlock|join|barrier)_", "^_*pthread_(mutex|cond)_?(timed|clock)?(wait|lock)",
  /* PostgreSQL's latch and wait-event set */
  "^WaitLatch", "^WaitEventSetWait", "^ConditionVariable(Timed)?Sleep$", "^pg_usleep$",
  NULL
};

static GRegex *
generic_wrapper_regex (void)
{
  static gsize once;
  static GRegex *regex;

  if (g_once_init_enter (&once))
    {
      g_autofree char *joined = g_strjoinv (")|(?:", (char **) generic_wrappers);
      g_autofree char *pattern = g_strconcat ("(?:", joined, ")", NULL);

      regex = g_regex_new (pattern, G_REGEX_OPTIMIZE, 0, NULL);
      g_once_init_leave (&once, 1);
    }
  return regex;
}

/**
 * ws_wait_frame_is_generic:
 * @function: a function name
 *
 * Returns: whether @function is a generic waiting wrapper (or has no
 *   symbol), which says how a thread waits but not what for
 */
gboolean
ws_wait_frame_is_generic (const char *function)
{
  const char *at;
  g_autofree char *bare = NULL;

  g_return_val_if_fail (function != NULL, TRUE);
  if (strcmp (function, "[unknown]") == 0)
    return TRUE;
  /* A symbol version ("clock_nanosleep@GLIBC_2.2.5") is not part of the name. */
  if ((at = strchr (function, '@')) != NULL && at > function)
    function = bare = g_strndup (function, at - function);
  return g_regex_match (generic_wrapper_regex (), function, 0, NULL);
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
  /* The anchor: the first frame above the depth frames that is not a
   * generic wrapper, when the outermost of them is one. */
  if (first < top && ws_wait_frame_is_generic (ws_stack_table_get_frame (table, frames[first])->function))
    {
      guint anchor = first;

      while (anchor > 0 && ws_wait_frame_is_generic (ws_stack_table_get_frame (table, frames[anchor - 1])->function))
        anchor--;
      if (anchor > 0)
        {
          append_frame (s, ws_stack_table_get_frame (table, frames[anchor - 1]));
          g_string_append_c (s, ';');
        }
      g_string_append (s, WS_WAIT_SIGNATURE_ELISION ";");
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
 * ws_wait_stack_function:
 * @stack: a waiting stack, or the readier's stack that ended a wait
 *   (caller first)
 *
 * The function that names what the stack waits for (or wakes from): the
 * first user-space frame, going out from the kernel, that is not a
 * generic waiting wrapper (the signature's own test,
 * ws_wait_frame_is_generic()); the leaf-most user frame when all are; for
 * a stack with no user part, the kernel's blocking function (the
 * signature's pool).  The pivot table groups by it.
 *
 * Returns: (transfer none) (nullable): the frame, or %NULL for an empty
 *   stack
 */
const WsFrame *
ws_wait_stack_function (WsStackTable *table,
                        WsStackId     stack)
{
  const WsFrameId *frames;
  guint n, top, block;

  frames = ws_stack_table_get_stack (table, stack, &n);
  if (n == 0)
    return NULL;
  for (top = n; top > 0 && is_kernel_frame (ws_stack_table_get_frame (table, frames[top - 1])); top--)
    ;
  if (top > 0)
    {
      for (guint i = top; i > 0; i--)
        {
          const WsFrame *f = ws_stack_table_get_frame (table, frames[i - 1]);
          if (!ws_wait_frame_is_generic (f->function))
            return f;
        }
      return ws_stack_table_get_frame (table, frames[top - 1]);
    }
  for (block = n; block > 0 && is_scheduler_frame (ws_stack_table_get_frame (table, frames[block - 1])); block--)
    ;
  return ws_stack_table_get_frame (table, frames[block > 0 ? block - 1 : n - 1]);
}

/**
 * ws_wait_history_depth:
 * @depth: user-space frames per signature
 *
 * The depth under which the history store records a trace's waits: the
 * signature version is part of it, so that a trace recorded under version
 * 1's signatures is recorded again under the current ones.
 *
 * Returns: the depth code
 */
guint
ws_wait_history_depth (guint depth)
{
  return depth + 256 * (WS_WAIT_SIGNATURE_VERSION - 1);
}

/**
 * ws_wait_history_key:
 * @key: a signature, "pool:…" or "*"
 *
 * The reservoir of @key in the history store.  Version 1 wrote its
 * reservoirs under the bare keys; those are kept, and never read with
 * the current signatures (a version-1 kind that version 2 splits would
 * otherwise mix its parts, and a trace recorded under both would count
 * twice in its pool).
 *
 * Returns: (transfer full): the reservoir's key
 */
char *
ws_wait_history_key (const char *key)
{
  return g_strdup_printf ("v%d:%s", WS_WAIT_SIGNATURE_VERSION, key);
}

/**
 * ws_wait_signature_split:
 * @signature: a wait signature
 * @blocking: (out) (optional) (transfer full): its kernel blocking
 *   function
 *
 * Its user-space part as frames, caller first (the anchor, "…", the depth
 * frames), for showing to a person.
 *
 * Returns: (transfer full): the frames
 */
char **
ws_wait_signature_split (const char  *signature,
                         char       **blocking)
{
  const char *bar;
  g_autofree char *user = NULL;

  g_return_val_if_fail (signature != NULL, NULL);
  bar = strrchr (signature, '|');
  user = bar ? g_strndup (signature, bar - signature) : g_strdup (signature);
  if (blocking != NULL)
    *blocking = g_strdup (bar ? bar + 1 : "-");
  return g_strsplit (user, ";", -1);
}

/**
 * ws_wait_signature_to_display:
 * @signature: a wait signature
 *
 * The signature as a person reads it, caller first, each frame calling
 * the next and the kernel's blocking function last:
 * "ProcSleep → … → WaitLatch → epoll_wait ⇒ do_epoll_wait".
 *
 * Returns: (transfer full): the text
 */
char *
ws_wait_signature_to_display (const char *signature)
{
  g_autofree char *blocking = NULL;
  g_auto(GStrv) frames = NULL;
  g_autofree char *user = NULL;

  g_return_val_if_fail (signature != NULL, NULL);
  frames = ws_wait_signature_split (signature, &blocking);
  user = g_strjoinv (" → ", frames);
  return g_strconcat (user, " ⇒ ", blocking, NULL);
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
         && ws_event_duration (event) > 0;
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
