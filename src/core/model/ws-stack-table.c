/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsStackTable interns frames (function + module) and stacks (sequences of
 * frame ids) so that a trace of millions of events stores a 32-bit stack id
 * per event instead of strings.  Both tables are open-addressing hash sets of
 * ids with the hash kept beside the id: the perf importer interns one frame
 * per text line, so this is the hottest path of an import.
 */
#include "ws-stack-table.h"

#include <string.h>

typedef struct {
  guint32 id;    /* 0 = free slot (ids stored + 1) */
  guint32 hash;
} Slot;

typedef struct {
  guint32 offset;  /* into stack_frames */
  guint32 length;
} StackSpan;

struct _WsStackTable
{
  GObject parent_instance;

  GStringChunk *strings;
  GArray       *frames;        /* WsFrame */
  GArray       *frame_lens;    /* guint32 pairs: function_len, module_len */
  Slot         *frame_slots;
  guint32       frame_mask;

  GArray       *stack_frames;  /* WsFrameId, all stacks concatenated */
  GArray       *stacks;        /* StackSpan, index = stack id */
  Slot         *stack_slots;
  guint32       stack_mask;
};

G_DEFINE_FINAL_TYPE (WsStackTable, ws_stack_table, G_TYPE_OBJECT)

/* FNV-1a: simple, good enough for symbol names, and fast on short keys. */
static inline guint32
hash_bytes (guint32 h, const char *s, gsize len)
{
  for (gsize i = 0; i < len; i++)
    h = (h ^ (guchar) s[i]) * 16777619u;
  return h;
}

static inline guint32
hash_ids (const guint32 *ids, guint n)
{
  guint32 h = 2166136261u ^ n;
  for (guint i = 0; i < n; i++)
    {
      h ^= ids[i];
      h *= 0x9E3779B1u;
      h ^= h >> 15;
    }
  return h ? h : 1;
}

static void
ws_stack_table_finalize (GObject *object)
{
  WsStackTable *self = WS_STACK_TABLE (object);

  g_string_chunk_free (self->strings);
  g_array_unref (self->frames);
  g_array_unref (self->frame_lens);
  g_free (self->frame_slots);
  g_array_unref (self->stack_frames);
  g_array_unref (self->stacks);
  g_free (self->stack_slots);

  G_OBJECT_CLASS (ws_stack_table_parent_class)->finalize (object);
}

static void
ws_stack_table_class_init (WsStackTableClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_stack_table_finalize;
}

static void
ws_stack_table_init (WsStackTable *self)
{
  StackSpan empty = { 0, 0 };

  self->strings = g_string_chunk_new (64 * 1024);
  self->frames = g_array_new (FALSE, FALSE, sizeof (WsFrame));
  self->frame_lens = g_array_new (FALSE, FALSE, sizeof (guint32) * 2);
  self->frame_mask = 1024 - 1;
  self->frame_slots = g_new0 (Slot, self->frame_mask + 1);

  self->stack_frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  self->stacks = g_array_new (FALSE, FALSE, sizeof (StackSpan));
  g_array_append_val (self->stacks, empty);   /* WS_STACK_EMPTY */
  self->stack_mask = 1024 - 1;
  self->stack_slots = g_new0 (Slot, self->stack_mask + 1);
}

WsStackTable *
ws_stack_table_new (void)
{
  return g_object_new (WS_TYPE_STACK_TABLE, NULL);
}

static Slot *
grow (Slot *slots, guint32 *mask)
{
  guint32 old_size = *mask + 1;
  guint32 new_mask = old_size * 2 - 1;
  Slot *new_slots = g_new0 (Slot, new_mask + 1);

  for (guint32 i = 0; i < old_size; i++)
    {
      guint32 j;

      if (slots[i].id == 0)
        continue;
      for (j = slots[i].hash & new_mask; new_slots[j].id != 0; j = (j + 1) & new_mask)
        ;
      new_slots[j] = slots[i];
    }

  g_free (slots);
  *mask = new_mask;
  return new_slots;
}

WsFrameId
ws_stack_table_intern_frame_len (WsStackTable *self,
                                 const char   *function,
                                 gsize         function_len,
                                 const char   *module,
                                 gsize         module_len)
{
  guint32 h, i;
  WsFrame frame;
  guint32 lens[2];

  g_return_val_if_fail (WS_IS_STACK_TABLE (self), 0);

  if (function == NULL)
    function = "[unknown]", function_len = 9;
  if (module == NULL)
    module = "[unknown]", module_len = 9;

  h = hash_bytes (2166136261u, function, function_len);
  h = hash_bytes (h ^ 0xff, module, module_len);
  if (h == 0)
    h = 1;

  for (i = h & self->frame_mask; self->frame_slots[i].id != 0; i = (i + 1) & self->frame_mask)
    {
      const Slot *slot = &self->frame_slots[i];
      guint32 id = slot->id - 1;
      const guint32 *l;
      const WsFrame *f;

      if (slot->hash != h)
        continue;
      l = &g_array_index (self->frame_lens, guint32, id * 2);
      f = &g_array_index (self->frames, WsFrame, id);
      if (l[0] == function_len && l[1] == module_len &&
          memcmp (f->function, function, function_len) == 0 &&
          memcmp (f->module, module, module_len) == 0)
        return id;
    }

  /* Frames are shown in GTK widgets and written as JSON, which both want
   * UTF-8: an invalid name is interned as its U+FFFD-substituted form
   * (the raw bytes miss, and come here, each time; only bad names pay). */
  if (!g_utf8_validate_len (function, function_len, NULL) || !g_utf8_validate_len (module, module_len, NULL))
    {
      g_autofree char *vf = g_utf8_make_valid (function, function_len);
      g_autofree char *vm = g_utf8_make_valid (module, module_len);

      return ws_stack_table_intern_frame_len (self, vf, strlen (vf), vm, strlen (vm));
    }

  frame.function = g_string_chunk_insert_len (self->strings, function, function_len);
  frame.module = g_string_chunk_insert_len (self->strings, module, module_len);
  lens[0] = function_len;
  lens[1] = module_len;
  g_array_append_val (self->frames, frame);
  g_array_append_vals (self->frame_lens, lens, 1);
  self->frame_slots[i].id = self->frames->len;
  self->frame_slots[i].hash = h;

  if (self->frames->len * 2 > self->frame_mask)
    self->frame_slots = grow (self->frame_slots, &self->frame_mask);

  return self->frames->len - 1;
}

WsFrameId
ws_stack_table_intern_frame (WsStackTable *self,
                             const char   *function,
                             const char   *module)
{
  return ws_stack_table_intern_frame_len (self,
                                          function, function ? strlen (function) : 0,
                                          module, module ? strlen (module) : 0);
}

WsStackId
ws_stack_table_intern_stack (WsStackTable    *self,
                             const WsFrameId *frames,
                             guint            n_frames)
{
  guint32 h, i;
  StackSpan span;

  g_return_val_if_fail (WS_IS_STACK_TABLE (self), WS_STACK_EMPTY);

  if (n_frames == 0)
    return WS_STACK_EMPTY;

  h = hash_ids (frames, n_frames);
  for (i = h & self->stack_mask; self->stack_slots[i].id != 0; i = (i + 1) & self->stack_mask)
    {
      const Slot *slot = &self->stack_slots[i];
      const StackSpan *s;

      if (slot->hash != h)
        continue;
      s = &g_array_index (self->stacks, StackSpan, slot->id - 1);
      if (s->length == n_frames &&
          memcmp (&g_array_index (self->stack_frames, WsFrameId, s->offset),
                  frames, n_frames * sizeof (WsFrameId)) == 0)
        return slot->id - 1;
    }

  span.offset = self->stack_frames->len;
  span.length = n_frames;
  g_array_append_vals (self->stack_frames, frames, n_frames);
  g_array_append_val (self->stacks, span);
  self->stack_slots[i].id = self->stacks->len;   /* id + 1 */
  self->stack_slots[i].hash = h;

  if (self->stacks->len * 2 > self->stack_mask)
    self->stack_slots = grow (self->stack_slots, &self->stack_mask);

  return self->stacks->len - 1;
}

const WsFrame *
ws_stack_table_get_frame (WsStackTable *self,
                          WsFrameId     frame)
{
  g_return_val_if_fail (WS_IS_STACK_TABLE (self), NULL);
  g_return_val_if_fail (frame < self->frames->len, NULL);

  return &g_array_index (self->frames, WsFrame, frame);
}

const WsFrameId *
ws_stack_table_get_stack (WsStackTable *self,
                          WsStackId     stack,
                          guint        *n_frames)
{
  const StackSpan *s;

  g_return_val_if_fail (WS_IS_STACK_TABLE (self), NULL);
  g_return_val_if_fail (n_frames != NULL, NULL);

  if (stack >= self->stacks->len)
    {
      g_critical ("stack id %u out of range", stack);
      *n_frames = 0;
      return NULL;
    }

  s = &g_array_index (self->stacks, StackSpan, stack);
  *n_frames = s->length;
  if (s->length == 0)
    return NULL;
  return &g_array_index (self->stack_frames, WsFrameId, s->offset);
}

guint
ws_stack_table_get_n_frames (WsStackTable *self)
{
  g_return_val_if_fail (WS_IS_STACK_TABLE (self), 0);
  return self->frames->len;
}

guint
ws_stack_table_get_n_stacks (WsStackTable *self)
{
  g_return_val_if_fail (WS_IS_STACK_TABLE (self), 0);
  return self->stacks->len;
}

gboolean
ws_stack_table_stack_contains (WsStackTable *self,
                               WsStackId     stack,
                               WsFrameId     frame)
{
  guint n;
  const WsFrameId *frames = ws_stack_table_get_stack (self, stack, &n);

  for (guint i = 0; i < n; i++)
    if (frames[i] == frame)
      return TRUE;
  return FALSE;
}

/**
 * ws_stack_table_format_frame:
 *
 * Returns: (transfer full): "function (module)" as perf writes it.
 */
char *
ws_stack_table_format_frame (WsStackTable *self,
                             WsFrameId     frame)
{
  const WsFrame *f = ws_stack_table_get_frame (self, frame);

  g_return_val_if_fail (f != NULL, NULL);
  return g_strdup_printf ("%s (%s)", f->function, f->module);
}

gsize
ws_stack_table_get_memory_size (WsStackTable *self)
{
  g_return_val_if_fail (WS_IS_STACK_TABLE (self), 0);

  /* GStringChunk does not report its size; count the interned bytes. */
  gsize strings = 0;
  for (guint i = 0; i < self->frame_lens->len; i++)
    {
      const guint32 *l = &g_array_index (self->frame_lens, guint32, i * 2);
      strings += l[0] + l[1] + 2;
    }

  return strings
       + self->frames->len * (sizeof (WsFrame) + 2 * sizeof (guint32))
       + (self->frame_mask + 1) * sizeof (Slot)
       + self->stack_frames->len * sizeof (WsFrameId)
       + self->stacks->len * sizeof (StackSpan)
       + (self->stack_mask + 1) * sizeof (Slot);
}

/**
 * ws_stack_table_copy_into:
 * @self: a table
 * @into: the table to intern @self's frames and stacks in
 *
 * Interns every frame of @self into @into, then every stack, each in id
 * order.  Frames and stacks have ids of their own kinds, each given in
 * first-interned order, so @into ends with exactly the ids it would have
 * given had @self's stacks been interned there in the first place: a
 * trace loaded into a table of its own (on its own thread) joins a shared
 * table as if it had been loaded into it.
 *
 * Returns: (transfer full) (array): for each stack id of @self, its id in
 *   @into (ws_stack_table_get_n_stacks (@self) entries)
 */
WsStackId *
ws_stack_table_copy_into (WsStackTable *self,
                          WsStackTable *into)
{
  g_autofree WsFrameId *frame_map = NULL;
  g_autofree WsFrameId *frames = NULL;
  WsStackId *stack_map;
  guint longest = 0;

  g_return_val_if_fail (WS_IS_STACK_TABLE (self) && WS_IS_STACK_TABLE (into), NULL);

  frame_map = g_new (WsFrameId, MAX (self->frames->len, 1));
  for (guint f = 0; f < self->frames->len; f++)
    {
      const WsFrame *frame = &g_array_index (self->frames, WsFrame, f);
      const guint32 *l = &g_array_index (self->frame_lens, guint32, f * 2);

      frame_map[f] = ws_stack_table_intern_frame_len (into, frame->function, l[0], frame->module, l[1]);
    }
  for (guint s = 0; s < self->stacks->len; s++)
    longest = MAX (longest, g_array_index (self->stacks, StackSpan, s).length);
  frames = g_new (WsFrameId, MAX (longest, 1));
  stack_map = g_new (WsStackId, self->stacks->len);
  for (guint s = 0; s < self->stacks->len; s++)
    {
      const StackSpan *span = &g_array_index (self->stacks, StackSpan, s);

      for (guint i = 0; i < span->length; i++)
        frames[i] = frame_map[g_array_index (self->stack_frames, WsFrameId, span->offset + i)];
      stack_map[s] = ws_stack_table_intern_stack (into, frames, span->length);
    }
  return stack_map;
}
