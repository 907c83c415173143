/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsFrameClassifier: which frames mean "lock", "timer", "interrupt", which
 * threads are heartbeats and which processes daemons.  The ready tree, the
 * critical path and the inspector all ask it, so that one configuration
 * file changes every analysis the same way.
 *
 * The defaults are written against what the real traces show (Linux 6.x
 * kernel symbols, glibc 2.36 user symbols with their version suffixes such
 * as "sem_post@GLIBC_2.2.5", CPython 3.11, PostgreSQL 15).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-error.h"
#include "ws-frame-classifier.h"
#include "ws-key-file.h"

/* Per-frame cache byte: bit 7 = computed, bits 0..2 = frame categories. */
#define FRAME_KNOWN 0x80
#define N_FRAME_LEVEL_CATEGORIES 3   /* LOCK, FALSE_RUN, INTERRUPT */

struct _WsFrameClassifier
{
  GObject     parent_instance;

  GMutex      mutex;
  GPtrArray  *patterns[WS_N_FRAME_CATEGORIES];  /* char * */
  GPtrArray  *regexes[WS_N_FRAME_CATEGORIES];   /* GRegex * */
  GHashTable *frame_caches;  /* WsStackTable * (weak) -> GByteArray * */
  GHashTable *name_cache[WS_N_FRAME_CATEGORIES]; /* name (a copy) -> 1 + match */
  gint        generation;    /* bumped by every change of a list */
};

G_DEFINE_FINAL_TYPE (WsFrameClassifier, ws_frame_classifier, G_TYPE_OBJECT)

static const char * const category_keys[WS_N_FRAME_CATEGORIES] = {
  "lock-frames",
  "false-run-frames",
  "interrupt-frames",
  "heartbeat-threads",
  "daemon-processes",
};

static const char * const default_lock[] = {
  /* futex, user side (glibc) and kernel side */
  "^futex_", "^__futex", "^do_futex", "^__lll_lock", "^__lll_unlock", "^lll_",
  "^_*pthread_mutex_", "^_*pthread_cond_", "^_*pthread_rwlock_",
  "^_*(new_)?sem_(wait|timedwait|clockwait|post)", "^__new_sem_", "^do_futex_wait",
  /* CPython's lock and GIL */
  "^PyThread_acquire_lock", "^PyThread_release_lock", "^take_gil", "^drop_gil",
  /* kernel sleeping locks */
  "^rwsem_down_", "^rwsem_wake", "^down_read", "^down_write", "^up_read$", "^up_write$",
  "^__mutex_lock", "^mutex_lock", "^__mutex_unlock", "^mutex_unlock",
  "^_*rt_mutex_", "^_*percpu_down_", "^__down(_|$)",
  /* Not io_schedule, epoll or poll: every disk wait and every PostgreSQL
   * latch wait (a plain pg_sleep included) goes through them, so listing
   * them made nearly every wait "lock-related" (issue 8).  Row and
   * heavyweight locks are found by their user frames below instead. */
  /* PostgreSQL heavyweight and lightweight locks */
  "^LWLock", "^LockAcquire", "^LockRelease", "^ProcSleep$", "^ProcReleaseLocks",
  "^ProcLockWakeup", "^ProcWakeup", "^XactLockTableWait", "^LockTuple",
  "^ConditionVariable(Sleep|TimedSleep|Signal|Broadcast)", "^PGSemaphore(Lock|Unlock)",
  "^LockBufferForCleanup",
  NULL
};

static const char * const default_false_run[] = {
  "^hrtimer_wakeup$", "^it_real_fn$", "^posix_timer_fn$", "^process_timeout$",
  "^call_timer_fn", "^tick_sched_timer$", "^alarmtimer_fired$",
  /* the timer softirqs' handlers: what an LTTng trace, which has no
   * stacks, names a wake-up in the timer softirq by */
  "^run_timer_softirq$", "^hrtimer_run_softirq$",
  NULL
};

static const char * const default_interrupt[] = {
  /* The same entries as the perf importer's interrupt table
   * (ws_perf_importer_is_interrupt_frame), so that the inspector and the
   * importer agree on what a hardware wake-up is.  I/O completion functions
   * that also run in process context (folio_end_writeback from an ext4
   * end-io kworker) are deliberately absent: there the kworker is the
   * readier, and the heartbeat list stops the ready tree at it. */
  "^hrtimer_interrupt$", "^__hrtimer_run_queues$",
  "^asm_sysvec_", "^__sysvec_", "^asm_common_interrupt$", "^common_interrupt$",
  "^irq_exit_rcu$", "^__irq_exit_rcu$",
  "^handle_irq_event", "^vring_interrupt$",
  "^blk_mq_end_request$", "^blk_complete_reqs$",
  "^sched_ttwu_pending$", "^__flush_smp_call_function_queue$",
  "^generic_smp_call_function_single_interrupt$", "^it_real_fn$",
  NULL
};

static const char * const default_heartbeat[] = {
  "^kworker/", "^ksoftirqd/", "^rcu_", "^rcu[a-z]*/", "^migration/", "^watchdog",
  "^cpuhp/", "^irq/", "^idle_inject/", "^kcompactd", "^kswapd", "^khugepaged$",
  "^swapper",
  NULL
};

static const char * const default_daemon[] = {
  "^systemd", "^dbus-daemon$", "^dbus-broker", "^rsyslogd$", "^cron$", "^atd$",
  "^polkitd$", "^NetworkManager$", "^irqbalance$", "^udisksd$", "^accounts-daemon$",
  "^sshd$", "^containerd", "^dockerd$", "^snapd$", "^Xorg$", "^Xwayland$",
  NULL
};

static const char * const * const defaults[WS_N_FRAME_CATEGORIES] = {
  default_lock, default_false_run, default_interrupt, default_heartbeat, default_daemon,
};

static void
stack_table_gone (gpointer  data,
                  GObject  *where_the_object_was)
{
  WsFrameClassifier *self = data;

  g_mutex_lock (&self->mutex);
  g_hash_table_remove (self->frame_caches, where_the_object_was);
  g_mutex_unlock (&self->mutex);
}

/* Called with the mutex held. */
static void
invalidate_caches (WsFrameClassifier *self)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->frame_caches);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_byte_array_set_size (value, 0);
  for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
    g_hash_table_remove_all (self->name_cache[c]);
  g_atomic_int_inc (&self->generation);
}

/**
 * ws_frame_classifier_get_generation:
 *
 * Returns: a number that changes whenever a list of @self changes, so that
 *   what others derived from it (ws_false_runs_get()) can tell it is stale
 */
guint
ws_frame_classifier_get_generation (WsFrameClassifier *self)
{
  g_return_val_if_fail (WS_IS_FRAME_CLASSIFIER (self), 0);
  return (guint) g_atomic_int_get (&self->generation);
}

static void
ws_frame_classifier_finalize (GObject *object)
{
  WsFrameClassifier *self = WS_FRAME_CLASSIFIER (object);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, self->frame_caches);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_object_weak_unref (key, stack_table_gone, self);
  g_hash_table_unref (self->frame_caches);

  for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
    {
      g_ptr_array_unref (self->patterns[c]);
      g_ptr_array_unref (self->regexes[c]);
      g_hash_table_unref (self->name_cache[c]);
    }
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (ws_frame_classifier_parent_class)->finalize (object);
}

static void
ws_frame_classifier_class_init (WsFrameClassifierClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_frame_classifier_finalize;
}

static void
ws_frame_classifier_init (WsFrameClassifier *self)
{
  g_mutex_init (&self->mutex);
  for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
    {
      self->patterns[c] = g_ptr_array_new_with_free_func (g_free);
      self->regexes[c] = g_ptr_array_new_with_free_func ((GDestroyNotify) g_regex_unref);
      self->name_cache[c] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    }
  self->frame_caches = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                              (GDestroyNotify) g_byte_array_unref);
}

/**
 * ws_frame_classifier_new_empty:
 *
 * Returns: (transfer full): a classifier with every list empty
 */
WsFrameClassifier *
ws_frame_classifier_new_empty (void)
{
  return g_object_new (WS_TYPE_FRAME_CLASSIFIER, NULL);
}

/**
 * ws_frame_classifier_new:
 *
 * Returns: (transfer full): a classifier with the Linux defaults
 */
WsFrameClassifier *
ws_frame_classifier_new (void)
{
  WsFrameClassifier *self = ws_frame_classifier_new_empty ();

  for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
    for (guint i = 0; defaults[c][i] != NULL; i++)
      {
        g_autoptr(GError) error = NULL;
        if (!ws_frame_classifier_add_pattern (self, c, defaults[c][i], &error))
          g_error ("bad default pattern %s: %s", defaults[c][i], error->message);
      }

  return self;
}

/**
 * ws_frame_classifier_get_default:
 *
 * Returns: (transfer none): a process-wide classifier with the Linux
 *   defaults; do not change it
 */
WsFrameClassifier *
ws_frame_classifier_get_default (void)
{
  static gsize once;
  static WsFrameClassifier *instance;

  if (g_once_init_enter (&once))
    {
      instance = ws_frame_classifier_new ();
      g_once_init_leave (&once, 1);
    }
  return instance;
}

/**
 * ws_frame_classifier_add_pattern:
 * @pattern: a Perl-compatible regular expression (GRegex)
 *
 * Returns: %FALSE with WS_ERROR_INVALID if @pattern does not compile
 */
gboolean
ws_frame_classifier_add_pattern (WsFrameClassifier  *self,
                                 WsFrameCategory     category,
                                 const char         *pattern,
                                 GError            **error)
{
  g_autoptr(GError) local_error = NULL;
  GRegex *regex;

  g_return_val_if_fail (WS_IS_FRAME_CLASSIFIER (self), FALSE);
  g_return_val_if_fail (category < WS_N_FRAME_CATEGORIES, FALSE);
  g_return_val_if_fail (pattern != NULL, FALSE);

  regex = g_regex_new (pattern, G_REGEX_OPTIMIZE, 0, &local_error);
  if (regex == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("Invalid pattern “%s” in %s: %s"),
                   pattern, category_keys[category], local_error->message);
      ws_error_make_valid (error);
      return FALSE;
    }

  g_mutex_lock (&self->mutex);
  g_ptr_array_add (self->patterns[category], g_strdup (pattern));
  g_ptr_array_add (self->regexes[category], regex);
  invalidate_caches (self);
  g_mutex_unlock (&self->mutex);

  return TRUE;
}

void
ws_frame_classifier_clear (WsFrameClassifier *self,
                           WsFrameCategory    category)
{
  g_return_if_fail (WS_IS_FRAME_CLASSIFIER (self));
  g_return_if_fail (category < WS_N_FRAME_CATEGORIES);

  g_mutex_lock (&self->mutex);
  g_ptr_array_set_size (self->patterns[category], 0);
  g_ptr_array_set_size (self->regexes[category], 0);
  invalidate_caches (self);
  g_mutex_unlock (&self->mutex);
}

/**
 * ws_frame_classifier_get_patterns:
 *
 * Returns: (transfer full) (array zero-terminated=1): the patterns of
 *   @category, in the order they are tried
 */
char **
ws_frame_classifier_get_patterns (WsFrameClassifier *self,
                                  WsFrameCategory    category)
{
  GStrvBuilder *builder;
  char **result;

  g_return_val_if_fail (WS_IS_FRAME_CLASSIFIER (self), NULL);
  g_return_val_if_fail (category < WS_N_FRAME_CATEGORIES, NULL);

  builder = g_strv_builder_new ();
  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->patterns[category]->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (self->patterns[category], i));
  g_mutex_unlock (&self->mutex);
  result = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return result;
}

const char *
ws_frame_category_to_key (WsFrameCategory category)
{
  g_return_val_if_fail (category < WS_N_FRAME_CATEGORIES, NULL);
  return category_keys[category];
}

static gboolean
key_to_category (const char      *key,
                 WsFrameCategory *category,
                 gboolean        *extra)
{
  for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
    {
      gsize len = strlen (category_keys[c]);

      if (strncmp (key, category_keys[c], len) != 0)
        continue;
      if (key[len] == '\0')
        *extra = FALSE;
      else if (g_str_equal (key + len, "-extra"))
        *extra = TRUE;
      else
        continue;
      *category = c;
      return TRUE;
    }
  return FALSE;
}

/* The work of ws_frame_classifier_load_key_file(); on error *@bad_key is
 * the key at fault (%NULL: the group), for the line number. */
static gboolean
load_key_file (WsFrameClassifier  *self,
               GKeyFile           *key_file,
               char              **bad_key,
               GError            **error)
{
  g_auto(GStrv) keys = NULL;
  g_autoptr(WsFrameClassifier) staged = NULL;

  if (!g_key_file_has_group (key_file, WS_FRAME_CLASSIFIER_GROUP))
    return TRUE;

  keys = g_key_file_get_keys (key_file, WS_FRAME_CLASSIFIER_GROUP, NULL, error);
  if (keys == NULL)
    return FALSE;

  /* Stage into a scratch classifier so that a bad pattern leaves @self as it was. */
  staged = ws_frame_classifier_new_empty ();
  for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
    {
      g_auto(GStrv) current = ws_frame_classifier_get_patterns (self, c);
      for (guint i = 0; current[i] != NULL; i++)
        if (!ws_frame_classifier_add_pattern (staged, c, current[i], error))
          return FALSE;
    }

  /* Replacements first, so that "X" and "X-extra" in one file combine. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint k = 0; keys[k] != NULL; k++)
      {
        WsFrameCategory category;
        gboolean extra;
        g_auto(GStrv) values = NULL;
        g_autoptr(GError) local_error = NULL;

        g_free (*bad_key);
        *bad_key = g_strdup (keys[k]);
        if (!key_to_category (keys[k], &category, &extra))
          {
            if (pass == 0)
              {
                g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                             _("Unknown key “%s” in group [%s] of the classifier configuration"),
                             keys[k], WS_FRAME_CLASSIFIER_GROUP);
                ws_error_make_valid (error);
                return FALSE;
              }
            continue;
          }
        if (extra != (pass == 1))
          continue;

        values = g_key_file_get_string_list (key_file, WS_FRAME_CLASSIFIER_GROUP, keys[k], NULL, &local_error);
        if (values == NULL)
          {
            /* Mostly a regex escape that key files do not know (\d, \w). */
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s (%s)", local_error->message,
                         _("in a key file a pattern's backslash is written twice: \\\\d for \\d"));
            ws_error_make_valid (error);
            return FALSE;
          }
        if (!extra)
          {
            ws_frame_classifier_clear (staged, category);
          }
        for (guint i = 0; values[i] != NULL; i++)
          {
            g_strstrip (values[i]);
            if (*values[i] == '\0')
              continue;
            if (!ws_frame_classifier_add_pattern (staged, category, values[i], error))
              return FALSE;
          }
      }

  g_clear_pointer (bad_key, g_free);
  for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
    {
      g_auto(GStrv) patterns = ws_frame_classifier_get_patterns (staged, c);

      ws_frame_classifier_clear (self, c);
      for (guint i = 0; patterns[i] != NULL; i++)
        ws_frame_classifier_add_pattern (self, c, patterns[i], NULL);
    }

  return TRUE;
}

/**
 * ws_frame_classifier_load_key_file:
 *
 * Applies the [classifier] group of @key_file (see the header for the
 * keys).  A file without that group changes nothing.  On error nothing is
 * changed either: the whole group is validated first.
 */
gboolean
ws_frame_classifier_load_key_file (WsFrameClassifier  *self,
                                   GKeyFile           *key_file,
                                   GError            **error)
{
  g_autofree char *bad_key = NULL;

  g_return_val_if_fail (WS_IS_FRAME_CLASSIFIER (self), FALSE);
  g_return_val_if_fail (key_file != NULL, FALSE);

  return load_key_file (self, key_file, &bad_key, error);
}

/**
 * ws_frame_classifier_load_file:
 *
 * Loads a key file from @path, see ws_frame_classifier_load_key_file().
 * Error messages start with "PATH:LINE: " (just "PATH: " if it cannot be
 * read).
 */
gboolean
ws_frame_classifier_load_file (WsFrameClassifier  *self,
                               const char         *path,
                               GError            **error)
{
  g_autoptr(GKeyFile) key_file = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *bad_key = NULL;
  gsize length = 0;

  g_return_val_if_fail (WS_IS_FRAME_CLASSIFIER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if ((key_file = ws_key_file_load (path, &contents, &length, error)) == NULL)
    return FALSE;
  if (!load_key_file (self, key_file, &bad_key, &local_error))
    {
      guint line = ws_key_file_find_line (contents, length, WS_FRAME_CLASSIFIER_GROUP, bad_key);

      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u: %s", path, MAX (line, 1), local_error->message);
      ws_error_make_valid (error);
      return FALSE;
    }
  return TRUE;
}

/**
 * ws_frame_classifier_save_to_key_file:
 *
 * Writes every list into the [classifier] group of @key_file (full
 * replacement keys), e.g. for a preferences dialog.
 */
void
ws_frame_classifier_save_to_key_file (WsFrameClassifier *self,
                                      GKeyFile          *key_file)
{
  g_return_if_fail (WS_IS_FRAME_CLASSIFIER (self));
  g_return_if_fail (key_file != NULL);

  for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
    {
      g_auto(GStrv) patterns = ws_frame_classifier_get_patterns (self, c);
      g_key_file_set_string_list (key_file, WS_FRAME_CLASSIFIER_GROUP, category_keys[c],
                                  (const char * const *) patterns, g_strv_length (patterns));
    }
}

/* Called with the mutex held. */
static gboolean
match_locked (WsFrameClassifier *self,
              WsFrameCategory    category,
              const char        *name)
{
  GPtrArray *regexes = self->regexes[category];

  for (guint i = 0; i < regexes->len; i++)
    if (g_regex_match (g_ptr_array_index (regexes, i), name, 0, NULL))
      return TRUE;
  return FALSE;
}

/**
 * ws_frame_classifier_match:
 * @name: a function, thread or process name
 *
 * Returns: whether one of the patterns of @category matches @name
 */
gboolean
ws_frame_classifier_match (WsFrameClassifier *self,
                           WsFrameCategory    category,
                           const char        *name)
{
  gboolean result;

  g_return_val_if_fail (WS_IS_FRAME_CLASSIFIER (self), FALSE);
  g_return_val_if_fail (category < WS_N_FRAME_CATEGORIES, FALSE);

  if (name == NULL)
    return FALSE;

  g_mutex_lock (&self->mutex);
  result = match_locked (self, category, name);
  g_mutex_unlock (&self->mutex);
  return result;
}

/* Thread and process names are cached by their text, not their address:
 * the default classifier outlives the traces, and a closed trace's
 * interned names are freed — a later trace's names can reuse the memory
 * (a kernel "migration/1" took a freed "pool-main"'s verdict). */
static gboolean
match_interned (WsFrameClassifier *self,
                WsFrameCategory    category,
                const char        *name)
{
  gpointer cached;
  gboolean result;

  if (name == NULL)
    return FALSE;

  g_mutex_lock (&self->mutex);
  cached = g_hash_table_lookup (self->name_cache[category], name);
  if (cached != NULL)
    result = GPOINTER_TO_UINT (cached) - 1;
  else
    {
      result = match_locked (self, category, name);
      g_hash_table_insert (self->name_cache[category], g_strdup (name), GUINT_TO_POINTER (result + 1));
    }
  g_mutex_unlock (&self->mutex);
  return result;
}

/* Called with the mutex held. */
static guint8
frame_bits_locked (WsFrameClassifier *self,
                   WsStackTable      *stacks,
                   GByteArray        *cache,
                   WsFrameId          frame)
{
  guint8 bits;
  const WsFrame *f;

  if (frame < cache->len && (cache->data[frame] & FRAME_KNOWN))
    return cache->data[frame];

  if (frame >= cache->len)
    {
      guint old = cache->len;
      g_byte_array_set_size (cache, MAX (frame + 1, ws_stack_table_get_n_frames (stacks)));
      memset (cache->data + old, 0, cache->len - old);
    }

  f = ws_stack_table_get_frame (stacks, frame);
  bits = FRAME_KNOWN;
  for (guint c = 0; c < N_FRAME_LEVEL_CATEGORIES; c++)
    if (f != NULL && f->function != NULL && match_locked (self, c, f->function))
      bits |= 1 << c;
  cache->data[frame] = bits;
  return bits;
}

static GByteArray *
cache_for_locked (WsFrameClassifier *self,
                  WsStackTable      *stacks)
{
  GByteArray *cache = g_hash_table_lookup (self->frame_caches, stacks);

  if (cache == NULL)
    {
      cache = g_byte_array_new ();
      g_hash_table_insert (self->frame_caches, stacks, cache);
      g_object_weak_ref (G_OBJECT (stacks), stack_table_gone, self);
    }
  return cache;
}

/* Bitmask (1 << category) of the frame-level categories present in @stack. */
static guint
stack_bits (WsFrameClassifier *self,
            WsStackTable      *stacks,
            WsStackId          stack)
{
  const WsFrameId *frames;
  guint n = 0, bits = 0;
  GByteArray *cache;

  if (stack == WS_STACK_EMPTY)
    return 0;
  frames = ws_stack_table_get_stack (stacks, stack, &n);

  g_mutex_lock (&self->mutex);
  cache = cache_for_locked (self, stacks);
  for (guint i = 0; i < n; i++)
    bits |= frame_bits_locked (self, stacks, cache, frames[i]);
  g_mutex_unlock (&self->mutex);

  return bits & ((1 << N_FRAME_LEVEL_CATEGORIES) - 1);
}

/**
 * ws_frame_classifier_stack_matches:
 * @category: %WS_FRAME_CATEGORY_LOCK, %WS_FRAME_CATEGORY_FALSE_RUN or
 *   %WS_FRAME_CATEGORY_INTERRUPT
 *
 * Returns: whether a frame of @stack has a function matching @category
 */
gboolean
ws_frame_classifier_stack_matches (WsFrameClassifier *self,
                                   WsFrameCategory    category,
                                   WsStackTable      *stacks,
                                   WsStackId          stack)
{
  g_return_val_if_fail (WS_IS_FRAME_CLASSIFIER (self), FALSE);
  g_return_val_if_fail (WS_IS_STACK_TABLE (stacks), FALSE);
  g_return_val_if_fail (category < N_FRAME_LEVEL_CATEGORIES, FALSE);

  return (stack_bits (self, stacks, stack) & (1u << category)) != 0;
}

/**
 * ws_frame_classifier_is_lock_wait:
 *
 * Returns: whether WAIT event @wait_event is lock-related: its waiting
 *   stack, or the unwait stack of the event that ended it, holds a
 *   %WS_FRAME_CATEGORY_LOCK frame.  The patent checks both the switched-in
 *   thread's stack ("acquire lock") and the readier's ("release lock").
 */
gboolean
ws_frame_classifier_is_lock_wait (WsFrameClassifier *self,
                                  WsTrace           *trace,
                                  guint              wait_event)
{
  WsStackTable *stacks;
  const WsEvent *wait;

  g_return_val_if_fail (WS_IS_FRAME_CLASSIFIER (self), FALSE);
  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (wait_event < ws_trace_get_n_events (trace), FALSE);

  wait = ws_trace_get_event (trace, wait_event);
  if (wait->kind != WS_EVENT_WAIT)
    return FALSE;

  stacks = ws_trace_get_stack_table (trace);
  if (stack_bits (self, stacks, wait->stack) & (1u << WS_FRAME_CATEGORY_LOCK))
    return TRUE;
  if (wait->peer != WS_NONE)
    {
      const WsEvent *unwait = ws_trace_get_event (trace, wait->peer);
      if (stack_bits (self, stacks, unwait->stack) & (1u << WS_FRAME_CATEGORY_LOCK))
        return TRUE;
    }
  return FALSE;
}

gboolean
ws_frame_classifier_is_heartbeat_thread (WsFrameClassifier *self,
                                         WsTrace           *trace,
                                         guint              thread)
{
  g_return_val_if_fail (WS_IS_FRAME_CLASSIFIER (self), FALSE);
  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);

  if (thread >= ws_trace_get_n_threads (trace))
    return FALSE;
  return match_interned (self, WS_FRAME_CATEGORY_HEARTBEAT_THREAD,
                         ws_trace_get_thread (trace, thread)->name);
}

gboolean
ws_frame_classifier_is_daemon_process (WsFrameClassifier *self,
                                       WsTrace           *trace,
                                       guint              process)
{
  g_return_val_if_fail (WS_IS_FRAME_CLASSIFIER (self), FALSE);
  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);

  if (process >= ws_trace_get_n_processes (trace))
    return FALSE;
  return match_interned (self, WS_FRAME_CATEGORY_DAEMON,
                         ws_trace_get_process (trace, process)->name);
}

/**
 * ws_frame_classifier_classify_wake:
 * @readier_thread: (out) (optional): the readier thread for THREAD and
 *   HEARTBEAT, else %WS_NONE
 *
 * Refines ws_trace_wait_readier(): a wake-up whose unwait stack shows a
 * timer (FALSE_RUN frame) is TIMER and one showing interrupt context is
 * INTERRUPT, whatever thread it was recorded in (interrupts borrow the
 * interrupted thread's identity); a HW_SERVICE wake-up without either is
 * INTERRUPT; a readier thread on the heartbeat list is HEARTBEAT.
 */
WsWakeKind
ws_frame_classifier_classify_wake (WsFrameClassifier *self,
                                   WsTrace           *trace,
                                   guint              wait_event,
                                   guint             *readier_thread)
{
  const WsEvent *wait, *unwait;
  guint bits;

  if (readier_thread)
    *readier_thread = WS_NONE;

  g_return_val_if_fail (WS_IS_FRAME_CLASSIFIER (self), WS_WAKE_UNKNOWN);
  g_return_val_if_fail (WS_IS_TRACE (trace), WS_WAKE_UNKNOWN);
  g_return_val_if_fail (wait_event < ws_trace_get_n_events (trace), WS_WAKE_UNKNOWN);

  wait = ws_trace_get_event (trace, wait_event);
  if (wait->kind != WS_EVENT_WAIT || wait->peer == WS_NONE)
    return WS_WAKE_UNKNOWN;

  unwait = ws_trace_get_event (trace, wait->peer);
  bits = stack_bits (self, ws_trace_get_stack_table (trace), unwait->stack);
  if (bits & (1u << WS_FRAME_CATEGORY_FALSE_RUN))
    return WS_WAKE_TIMER;
  if (unwait->kind == WS_EVENT_HW_SERVICE || (bits & (1u << WS_FRAME_CATEGORY_INTERRUPT)))
    return WS_WAKE_INTERRUPT;

  if (readier_thread)
    *readier_thread = unwait->thread;
  if (ws_frame_classifier_is_heartbeat_thread (self, trace, unwait->thread))
    return WS_WAKE_HEARTBEAT;
  return WS_WAKE_THREAD;
}

const char *
ws_wake_kind_to_string (WsWakeKind kind)
{
  switch (kind)
    {
    case WS_WAKE_THREAD:    return "thread";
    case WS_WAKE_TIMER:     return "timer";
    case WS_WAKE_INTERRUPT: return "interrupt";
    case WS_WAKE_HEARTBEAT: return "heartbeat";
    case WS_WAKE_UNKNOWN:   return "unknown";
    default:                return NULL;
    }
}
