/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The perf importer's input read ahead on a thread of its own: while the
 * parser splits and parses one chunk, the next is read (and inflated) on
 * the other core.  Reading was a fifth of a plain-text import (the
 * kernel's copy into the buffer), inflating most of a gzip one; both now
 * overlap the parse.
 *
 * The reader fills at most N_CHUNKS buffers ahead and hands them over in
 * order with the status of the read that filled them, so the parser
 * meets an error (truncated or corrupt gzip, I/O, cancel) exactly where
 * it met it when it read for itself, and names the same line.
 */
#include "config.h"

#include "ws-perf-private.h"

#define N_CHUNKS 3

typedef struct {
  guint8       *data;
  gsize         len;
  gsize         pos;
  SourceStatus  status;
  GError       *error;
  guint64       input_bytes;   /* the source's count after this read */
} Chunk;

struct _WsPerfPrefetch {
  Source       *src;
  /* The reads' own: cancelled with the caller's, and when the parser
   * stops early, so a read from a pipe does not keep the parse waiting. */
  GCancellable *cancellable;
  GCancellable *caller;
  gulong        caller_handler;
  GThread      *thread;
  GMutex        lock;
  GCond         cond;
  GQueue        empty;   /* Chunk *: to fill */
  GQueue        full;    /* Chunk *: filled, in input order */
  Chunk        *current; /* being handed out */
  gboolean      stop;    /* the parser is done: read no more */
};

static Chunk *
take (WsPerfPrefetch *self,
      GQueue         *queue)
{
  Chunk *chunk;

  while ((chunk = g_queue_pop_head (queue)) == NULL && !self->stop)
    g_cond_wait (&self->cond, &self->lock);
  return chunk;
}

static void
give (WsPerfPrefetch *self,
      GQueue         *queue,
      Chunk          *chunk)
{
  g_queue_push_tail (queue, chunk);
  g_cond_broadcast (&self->cond);
}

static gpointer
read_ahead (gpointer data)
{
  WsPerfPrefetch *self = data;

  for (;;)
    {
      Chunk *chunk;
      gboolean last;

      g_mutex_lock (&self->lock);
      chunk = take (self, &self->empty);
      g_mutex_unlock (&self->lock);
      if (chunk == NULL)
        return NULL;   /* stopped */

      chunk->pos = 0;
      chunk->status = ws_perf_source_read (self->src, chunk->data, CHUNK_SIZE, &chunk->len,
                                           self->cancellable, &chunk->error);
      chunk->input_bytes = self->src->input_bytes;
      last = chunk->status != SOURCE_OK || chunk->len == 0;

      g_mutex_lock (&self->lock);
      give (self, &self->full, chunk);
      g_mutex_unlock (&self->lock);
      if (last)
        return NULL;
    }
}

static void
forward_cancel (GCancellable *caller,
                gpointer      data)
{
  g_cancellable_cancel (data);
}

/**
 * ws_perf_prefetch_start:
 * @src: the source, its head already read; the reader thread is its only
 *   user until ws_perf_prefetch_free()
 *
 * Returns: (transfer full): the reader, started
 */
WsPerfPrefetch *
ws_perf_prefetch_start (Source       *src,
                        GCancellable *cancellable)
{
  WsPerfPrefetch *self = g_new0 (WsPerfPrefetch, 1);

  self->src = src;
  self->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      self->caller = g_object_ref (cancellable);
      self->caller_handler = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel),
                                                    self->cancellable, NULL);
    }
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  for (guint i = 0; i < N_CHUNKS; i++)
    {
      Chunk *chunk = g_new0 (Chunk, 1);

      chunk->data = g_malloc (CHUNK_SIZE);
      g_queue_push_tail (&self->empty, chunk);
    }
  self->thread = g_thread_new ("ws-perf-read", read_ahead, self);
  return self;
}

/**
 * ws_perf_prefetch_read:
 *
 * ws_perf_source_read() through the reader: up to @len bytes of text into
 * @dst, *@n_read = 0 at the end; *@input_bytes is the source's input
 * count once those bytes were read.
 */
SourceStatus
ws_perf_prefetch_read (WsPerfPrefetch *self,
                       guint8         *dst,
                       gsize           len,
                       gsize          *n_read,
                       guint64        *input_bytes,
                       GError        **error)
{
  Chunk *chunk;
  gsize n;

  g_mutex_lock (&self->lock);
  if (self->current != NULL && self->current->pos == self->current->len && self->current->len > 0)
    {
      give (self, &self->empty, self->current);
      self->current = NULL;
    }
  if (self->current == NULL)
    self->current = take (self, &self->full);
  chunk = self->current;
  g_mutex_unlock (&self->lock);

  *input_bytes = chunk->input_bytes;
  if (chunk->status != SOURCE_OK)
    {
      *n_read = 0;
      if (chunk->error != NULL)
        g_propagate_error (error, g_steal_pointer (&chunk->error));
      return chunk->status;
    }
  n = MIN (len, chunk->len - chunk->pos);
  memcpy (dst, chunk->data + chunk->pos, n);
  chunk->pos += n;
  *n_read = n;
  return SOURCE_OK;
}

static void
chunk_free (gpointer data)
{
  Chunk *chunk = data;

  g_clear_error (&chunk->error);
  g_free (chunk->data);
  g_free (chunk);
}

/* Stops the reader (a read under way is cancelled) and frees it. */
void
ws_perf_prefetch_free (WsPerfPrefetch *self)
{
  g_mutex_lock (&self->lock);
  self->stop = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  g_cancellable_cancel (self->cancellable);
  g_thread_join (self->thread);
  if (self->caller != NULL)
    g_cancellable_disconnect (self->caller, self->caller_handler);
  g_clear_object (&self->caller);

  if (self->current != NULL)
    chunk_free (self->current);
  g_queue_clear_full (&self->empty, chunk_free);
  g_queue_clear_full (&self->full, chunk_free);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_clear_object (&self->cancellable);
  g_free (self);
}
