/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Reading a digest file as a stream (docs/digest.md): the gzip is inflated
 * 64 KiB at a time into yajl, whose callbacks fill the in-memory digest
 * directly.  No tree of the document is ever built — a merged digest of
 * thousands of traces holds millions of numbers, and a node each cost ten
 * times the text — so memory is what the digest holds, not what the file
 * says.  Every index and number is checked as it arrives, and members that
 * depend on each other when their object ends; a bad file is refused with
 * its name, the place (a JSON path) and the byte of the inflated text.
 *
 * The top-level members come in the order the writer puts them — format,
 * version, frames, stacks, traces — because a stack is checked against the
 * frames and a trace against the stacks as they stream past.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "ws-digest.h"
#include "ws-error.h"
#include "ws-stack-counts.h"

#define FORMAT_NAME "waitscope-digest"
#define CHUNK 65536
/* Deeper than any digest: an unknown member nested further is refused
 * before yajl's own stack grows with it. */
#define MAX_SKIP_DEPTH 32

/* What an open object or list is. */
typedef enum {
  K_TOP, K_FRAMES, K_FRAME, K_STACKS, K_STACK, K_TRACES, K_TRACE, K_THREADS,
  K_THREAD, K_INTS, K_STRINGS, K_WAITS, K_INSTANCES, K_INSTANCE,
} Kind;

/* Which member a key names (in the object it appears in). */
typedef enum {
  M_UNKNOWN, M_FORMAT, M_VERSION, M_FRAMES, M_STACKS, M_TRACES,
  M_PATH, M_NAME, M_CONTENT_HASH, M_EVENTS, M_WAITS, M_SAMPLES, M_START, M_END, M_THREADS,
  M_LEFT_OUT, M_WAITING, M_WAITING_ALL, M_RUNNING, M_CAUSES, M_COUNTS, M_WAIT_SAMPLES,
  M_PROGRAM, M_SPAN_PROGRAMS, M_PROGRAMS, M_INSTANCES, M_SCENARIO_RULES,
  M_DEPTH, M_KEYS, M_POOLS, M_SCENARIO, M_DURATION, M_NODES, M_DEGREES, M_TARGETS,
  M_N,
} Member;

static const char *const member_names[M_N] = {
  NULL, "format", "version", "frames", "stacks", "traces",
  "path", "name", "content_hash", "events", "waits", "samples", "start", "end", "threads",
  "left_out", "waiting", "waiting_all", "running", "causes", "counts", "wait_samples",
  "program", "span_programs", "programs", "instances", "scenario_rules",
  "depth", "keys", "pools", "scenario", "duration", "nodes", "degrees", "targets",
};

typedef struct {
  Kind     kind;
  Member   member;   /* objects: the member being read; lists: what the list is */
  guint64  index;    /* lists: elements read */
  guint    width;    /* K_INTS: tuple width */
  gint64   tuple[5]; /* K_INTS: the tuple being read; K_THREAD: tid, pid */
  guint64  seen;     /* objects: a bit per member read */
} Frame;

typedef struct {
  const char        *file;
  GError           **error;
  gboolean           failed;
  WsDigestReadFlags  flags;
  yajl_handle        yajl;
  guint64            base;        /* bytes of text before the current chunk */
  GArray            *stack;       /* Frame */
  guint              skip;        /* depth inside a value being skipped */
  WsDigest          *digest;
  WsStackTable      *table;
  guint              n_stacks;    /* once the stacks are read */
  GArray            *frames;      /* WsFrameId: the stack being read */
  char              *function;    /* the frame being read */
  char              *module;
  WsDigestTrace     *trace;       /* being read */
  char              *thread_name;
  /* The instance being read. */
  char              *scenario;
  char              *program;
  gint64             duration;
  GArray            *nodes;       /* WsAwgInputNode */
  GArray            *degrees;     /* guint32 */
  GArray            *targets;     /* guint32 */
} Reader;

static gboolean
is_object (Kind kind)
{
  return kind == K_TOP || kind == K_TRACE || kind == K_WAITS || kind == K_INSTANCE;
}

static Frame *
top (Reader *r)
{
  return r->stack->len > 0 ? &g_array_index (r->stack, Frame, r->stack->len - 1) : NULL;
}

/* The JSON path of the value being read (of its list when !at_element). */
static char *
place_of (Reader  *r,
          gboolean at_element)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < r->stack->len; i++)
    {
      const Frame *f = &g_array_index (r->stack, Frame, i);
      gboolean last = i + 1 == r->stack->len;

      switch (f->kind)
        {
        case K_TOP:
        case K_TRACE:
        case K_WAITS:
        case K_INSTANCE:
          if (f->member != M_UNKNOWN)
            g_string_append_printf (s, "%s%s", i == 0 && f->member > M_VERSION ? "" : ".",
                                    member_names[f->member]);
          break;
        case K_INTS:
          if (!last || at_element)
            g_string_append_printf (s, "[%" G_GUINT64_FORMAT "]", f->index - f->index % f->width);
          break;
        default:
          if (!last || at_element)
            g_string_append_printf (s, "[%" G_GUINT64_FORMAT "]", f->index);
          break;
        }
    }
  if (s->len == 0)
    g_string_append_c (s, '/');
  return g_string_free (s, FALSE);
}

static gboolean
fail_at (Reader     *r,
         const char *place,
         const char *format,
         ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail_at (Reader     *r,
         const char *place,
         const char *format,
         ...)
{
  g_autofree char *message = NULL, *byte = NULL, *where = NULL;
  va_list args;

  if (r->failed)
    return FALSE;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  byte = g_strdup_printf ("%" G_GUINT64_FORMAT, r->base + (r->yajl ? yajl_get_bytes_consumed (r->yajl) : 0));
  /* Translators: a place in a digest file: a JSON path, the byte of the inflated text */
  where = g_strdup_printf (_("%s, byte %s"), place, byte);
  /* Translators: a bad digest file: file, place in it, what is wrong */
  g_set_error (r->error, WS_ERROR, WS_ERROR_PARSE, _("%s: %s: %s"), r->file, where, message);
  r->failed = TRUE;
  return FALSE;
}

/* Fails at the value being read (or its list, @at_element FALSE). */
#define FAIL(r, at_element, ...) \
  G_STMT_START { g_autofree char *place_ = place_of ((r), (at_element)); fail_at ((r), place_, __VA_ARGS__); } G_STMT_END

/* FAIL with a sentence that has no arguments; FALSE, for a callback to
 * return. */
static gboolean
fail_with (Reader     *r,
           gboolean    at_element,
           const char *message)
{
  FAIL (r, at_element, "%s", message);
  return FALSE;
}

static gboolean
out_of_range (Reader *r,
              gint64  v)
{
  g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, v);

  FAIL (r, TRUE, _("%s is out of range"), text);
  return FALSE;
}

static gboolean
wrong_type (Reader *r)
{
  return fail_with (r, TRUE, _("wrong type"));
}

static void
push (Reader *r,
      Kind    kind,
      Member  member,
      guint   width)
{
  Frame f = { kind, member, 0, width, { 0 }, 0 };

  g_array_append_val (r->stack, f);
}

/* ------------------------------------------------------------------ */
/* Members                                                              */

static Member
member_of (Kind           kind,
           const unsigned char *key,
           size_t         len)
{
  static const Member top[] = { M_FORMAT, M_VERSION, M_FRAMES, M_STACKS, M_TRACES };
  static const Member trace[] = { M_PATH, M_NAME, M_CONTENT_HASH, M_EVENTS, M_WAITS, M_SAMPLES, M_START,
                                  M_END, M_THREADS, M_LEFT_OUT, M_WAITING, M_WAITING_ALL, M_RUNNING, M_CAUSES,
                                  M_COUNTS, M_WAIT_SAMPLES, M_PROGRAM, M_SPAN_PROGRAMS, M_PROGRAMS, M_INSTANCES,
                                  M_SCENARIO_RULES };
  static const Member waits[] = { M_DEPTH, M_KEYS, M_POOLS, M_SAMPLES };
  static const Member instance[] = { M_SCENARIO, M_PROGRAM, M_DURATION, M_NODES, M_DEGREES, M_TARGETS };
  const Member *list;
  guint n;

  switch (kind)
    {
    case K_TOP: list = top; n = G_N_ELEMENTS (top); break;
    case K_TRACE: list = trace; n = G_N_ELEMENTS (trace); break;
    case K_WAITS: list = waits; n = G_N_ELEMENTS (waits); break;
    case K_INSTANCE: list = instance; n = G_N_ELEMENTS (instance); break;
    default: return M_UNKNOWN;
    }
  for (guint i = 0; i < n; i++)
    if (strlen (member_names[list[i]]) == len && memcmp (member_names[list[i]], key, len) == 0)
      return list[i];
  return M_UNKNOWN;
}

/* A required member missing from the object that just ended. */
static gboolean
require (Reader       *r,
         Frame        *f,
         const Member *members,
         guint         n)
{
  for (guint i = 0; i < n; i++)
    if (!(f->seen & (G_GUINT64_CONSTANT (1) << members[i])))
      {
        f->member = members[i];
        return fail_with (r, TRUE, _("missing"));
      }
  return TRUE;
}

static gboolean
wanted (Reader *r,
        Member  m)
{
  if (m == M_WAIT_SAMPLES)
    return !(r->flags & WS_DIGEST_READ_SKIP_WAIT_SAMPLES);
  if (m == M_INSTANCES)
    return !(r->flags & WS_DIGEST_READ_SKIP_INSTANCES);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Numbers                                                              */

/* An element of a list of integers: checked and stored once its tuple is
 * complete (a tuple's last number may be bounded by an earlier one). */
static gboolean
int_element (Reader *r,
             Frame  *f,
             gint64  v)
{
  guint k = f->index % f->width;
  WsDigestTrace *t = r->trace;

  f->tuple[k] = v;
  switch (f->member)
    {
    case M_STACKS: /* a frame of a stack */
      if (v < 0 || v >= ws_stack_table_get_n_frames (r->table))
        return out_of_range (r, v);
      {
        WsFrameId id = v;
        g_array_append_val (r->frames, id);
      }
      break;
    case M_WAITING:
    case M_WAITING_ALL:
    case M_RUNNING:
    case M_CAUSES:
      if ((k == 0 && (v < 1 || v > r->n_stacks)) || (k == 1 && (v < 1 || v > G_MAXUINT32)) ||
          (k == 2 && v < 0) || (k == 3 && (v < 0 || v > f->tuple[2])))
        return out_of_range (r, v);
      if (k == 3)
        {
          WsDigestEntry e = { f->tuple[0], f->tuple[1], f->tuple[2], f->tuple[3] };
          g_array_append_val (t->areas[f->member - M_WAITING], e);
        }
      break;
    case M_COUNTS:
      if ((k == 0 && (v < 1 || v > r->n_stacks)) || (k == 1 && v < 1))
        return out_of_range (r, v);
      if (k == 1)
        {
          WsStackCount c = { .stack = f->tuple[0], .count = v };
          g_array_append_val (t->counts, c);
        }
      break;
    case M_LEFT_OUT:
      if (f->index >= 2)
        return fail_with (r, FALSE, _("left_out is not a [waits, time] pair"));
      if (k == 0 && v < 0)
        return out_of_range (r, v);
      if (k == 0)
        t->n_left_out = v;
      else
        t->left_out_time = v;
      break;
    case M_SAMPLES: /* wait samples: signature, duration; signatures checked at the end */
      if (k == 0 && (v < 0 || v > G_MAXUINT32))
        return out_of_range (r, v);
      if (k == 1)
        {
          WsWaitSample w = { .signature = f->tuple[0], .duration = v };
          g_array_append_val (t->waits->samples, w);
        }
      break;
    case M_NODES:
      if ((k == 0 && (v < 0 || v > WS_WAIT_NODE_UNKNOWN_READIER)) || (k == 1 && (v < 0 || v > 15)) ||
          ((k == 2 || k == 3) && (v < 0 || v > r->n_stacks)) || (k == 4 && v < 0))
        return out_of_range (r, v);
      if (k == 4)
        {
          WsAwgInputNode n = { .kind = f->tuple[0], .flags = f->tuple[1], .stack = f->tuple[2],
                               .unwait_stack = f->tuple[3], .duration = v };
          g_array_append_val (r->nodes, n);
        }
      break;
    case M_DEGREES:
    case M_TARGETS:
      if (v < 0 || v > G_MAXUINT32)
        return out_of_range (r, v);
      {
        guint32 u = v;
        g_array_append_val (f->member == M_DEGREES ? r->degrees : r->targets, u);
      }
      break;
    default:
      g_assert_not_reached ();
    }
  f->index++;
  return TRUE;
}

/* An integer member of an object. */
static gboolean
int_member (Reader *r,
            Frame  *f,
            gint64  v)
{
  WsDigestTrace *t = r->trace;

  switch (f->member)
    {
    case M_VERSION:
      if (v != WS_DIGEST_FORMAT_VERSION)
        {
          g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, v);
          return fail_at (r, ".version", _("version %s is not supported (this build reads version %d)"),
                          text, WS_DIGEST_FORMAT_VERSION);
        }
      return TRUE;
    case M_EVENTS: if (v < 0) return out_of_range (r, v); t->n_events = v; return TRUE;
    case M_WAITS: if (v < 0) return out_of_range (r, v); t->n_waits = v; return TRUE;
    case M_SAMPLES:
      if (f->kind != K_TRACE)
        return wrong_type (r);
      if (v < 0)
        return out_of_range (r, v);
      t->n_samples = v;
      return TRUE;
    case M_START: t->start = v; return TRUE;
    case M_END: t->end = v; return TRUE;
    case M_DEPTH: if (v < 0 || v > G_MAXUINT32) return out_of_range (r, v); t->waits->depth = v; return TRUE;
    case M_DURATION: if (v < 0) return out_of_range (r, v); r->duration = v; return TRUE;
    default:
      return wrong_type (r);
    }
}

/* ------------------------------------------------------------------ */
/* yajl's callbacks                                                     */

/* Every value passes here first: skipping, and a member's bit. */
static gboolean
begin_value (Reader *r)
{
  Frame *f = top (r);

  if (f != NULL && is_object (f->kind))
    f->seen |= G_GUINT64_CONSTANT (1) << f->member;
  return TRUE;
}

/* The frame a scalar (null, boolean, number, string) is a value of, its
 * member marked as seen; NULL when the scalar is skipped (*result TRUE)
 * or stands outside any object (*result FALSE, the error set). */
static Frame *
scalar_frame (Reader *r,
              int    *result)
{
  Frame *f = top (r);

  *result = TRUE;
  if (r->skip > 0)
    return NULL;
  begin_value (r);
  if (f == NULL)
    *result = fail_at (r, "/", "%s", _("not a Waitscope digest"));
  return f;
}

/* An object or list opened inside a skipped value only deepens the skip. */
static int
skip_deeper (Reader *r)
{
  if (++r->skip > MAX_SKIP_DEPTH)
    return fail_at (r, "JSON", "%s", _("nested too deep"));
  return TRUE;
}

/* An object or list under a member not read: skipped whole. */
static int
skip_value (Reader *r)
{
  r->skip = 1;
  return TRUE;
}

/* The object or list on top has ended and been taken in: the one around
 * it, if a list, has one element more. */
static int
pop (Reader *r)
{
  Frame *f;

  g_array_set_size (r->stack, r->stack->len - 1);
  if ((f = top (r)) != NULL && !is_object (f->kind))
    f->index++;
  return TRUE;
}

static int
on_null (void *data)
{
  Reader *r = data;
  int result;
  Frame *f = scalar_frame (r, &result);

  if (f == NULL)
    return result;
  if (is_object (f->kind) && f->member == M_UNKNOWN)
    return TRUE;
  /* A thread span has no scenario; a trace whose picker chose nothing no program. */
  if ((f->kind == K_INSTANCE && f->member == M_SCENARIO) || (f->kind == K_TRACE && f->member == M_PROGRAM))
    return TRUE;
  return wrong_type (r);
}

static int
on_boolean (void *data,
            int   value)
{
  Reader *r = data;
  int result;
  Frame *f = scalar_frame (r, &result);

  if (f == NULL)
    return result;
  if (is_object (f->kind) && f->member == M_UNKNOWN)
    return TRUE;
  return wrong_type (r);
}

static int
on_integer (void      *data,
            long long  value)
{
  Reader *r = data;
  int result;
  Frame *f = scalar_frame (r, &result);

  if (f == NULL)
    return result;
  switch (f->kind)
    {
    case K_INTS:
      return int_element (r, f, value);
    case K_THREAD:
      if (f->index >= 2)
        return wrong_type (r);
      if (value < G_MININT32 || value > G_MAXINT32)
        return out_of_range (r, value);
      f->tuple[f->index++] = value;
      return TRUE;
    case K_TOP:
    case K_TRACE:
    case K_WAITS:
    case K_INSTANCE:
      if (f->member == M_UNKNOWN)
        return TRUE;
      return int_member (r, f, value);
    default:
      return wrong_type (r);
    }
}

static int
on_double (void       *data,
           double      value,
           G_GNUC_UNUSED const char *text,
           G_GNUC_UNUSED size_t len)
{
  Reader *r = data;
  int result;
  Frame *f = scalar_frame (r, &result);

  if (f == NULL)
    return result;
  if (is_object (f->kind) && f->member == M_UNKNOWN)
    return TRUE;
  return fail_with (r, TRUE, _("not an integer"));
}

/* yajl hands every number here as its text (yajl has checked its
 * syntax): an integer that fits 64 bits goes to on_integer(), anything
 * else (a fraction, an exponent, too many digits) is not an integer.  By
 * hand, not strtoll: this is the reader's inner loop. */
static int
on_number (void       *data,
           const char *text,
           size_t      len)
{
  gboolean negative = len > 0 && text[0] == '-';
  guint64 u = 0;
  size_t i = negative;

  if (i == len)
    return on_double (data, 0, text, len);
  for (; i < len; i++)
    {
      guint d = (guchar) text[i] - '0';

      if (d > 9 || u > (G_MAXUINT64 - d) / 10)
        return on_double (data, 0, text, len);
      u = u * 10 + d;
    }
  if (negative ? u > (guint64) G_MAXINT64 + 1 : u > (guint64) G_MAXINT64)
    return on_double (data, 0, text, len);
  return on_integer (data, negative ? (gint64) (0 - u) : (gint64) u);
}

static char *
take_string (Reader              *r,
             const unsigned char *s,
             size_t               len)
{
  /* yajl has checked the UTF-8; a \u0000 ends the string, as in C. */
  (void) r;
  return g_strndup ((const char *) s, len);
}

static void
set_string (char              **slot,
            Reader             *r,
            const unsigned char *s,
            size_t              len)
{
  g_free (*slot);
  *slot = take_string (r, s, len);
}

static int
on_string (void                *data,
           const unsigned char *s,
           size_t               len)
{
  Reader *r = data;
  int result;
  Frame *f = scalar_frame (r, &result);

  if (f == NULL)
    return result;
  switch (f->kind)
    {
    case K_FRAME:
      if (f->index >= 2)
        return wrong_type (r);
      set_string (f->index++ == 0 ? &r->function : &r->module, r, s, len);
      return TRUE;
    case K_THREAD:
      if (f->index != 2)
        return fail_with (r, TRUE, _("not an integer"));
      set_string (&r->thread_name, r, s, len);
      f->index++;
      return TRUE;
    case K_STRINGS:
      {
        GPtrArray *out = f->member == M_SPAN_PROGRAMS ? r->trace->span_programs
                       : f->member == M_PROGRAMS ? r->trace->programs
                       : f->member == M_SCENARIO_RULES ? r->trace->scenario_rules
                       : f->member == M_KEYS ? r->trace->waits->keys : r->trace->waits->pools;
        g_ptr_array_add (out, take_string (r, s, len));
        f->index++;
        return TRUE;
      }
    case K_TOP:
      if (f->member == M_FORMAT)
        {
          if (len != strlen (FORMAT_NAME) || memcmp (s, FORMAT_NAME, len) != 0)
            return fail_at (r, ".format", "%s", _("not a Waitscope digest"));
          return TRUE;
        }
      return f->member == M_UNKNOWN ? TRUE : wrong_type (r);
    case K_TRACE:
      switch (f->member)
        {
        case M_PATH: set_string (&r->trace->path, r, s, len); return TRUE;
        case M_NAME: set_string (&r->trace->name, r, s, len); return TRUE;
        case M_CONTENT_HASH: set_string (&r->trace->content_hash, r, s, len); return TRUE;
        case M_PROGRAM: set_string (&r->trace->program, r, s, len); return TRUE;
        case M_UNKNOWN: return TRUE;
        default: return wrong_type (r);
        }
    case K_INSTANCE:
      switch (f->member)
        {
        case M_SCENARIO: set_string (&r->scenario, r, s, len); return TRUE;
        case M_PROGRAM: set_string (&r->program, r, s, len); return TRUE;
        case M_UNKNOWN: return TRUE;
        default: return wrong_type (r);
        }
    case K_WAITS:
      return f->member == M_UNKNOWN ? TRUE : wrong_type (r);
    case K_INTS:
      return fail_with (r, TRUE, _("not an integer"));
    default:
      return wrong_type (r);
    }
}

static int
on_map_key (void                *data,
            const unsigned char *key,
            size_t               len)
{
  Reader *r = data;
  Frame *f = top (r);

  if (r->skip > 0)
    return TRUE;
  f->member = member_of (f->kind, key, len);
  if (f->member != M_UNKNOWN && !wanted (r, f->member))
    f->member = M_UNKNOWN;
  if (f->kind == K_TOP && f->member >= M_FRAMES)
    {
      /* Each part is checked against the one before it. */
      guint64 before = f->member == M_FRAMES ? (1 << M_FORMAT) | (1 << M_VERSION)
                     : f->member == M_STACKS ? 1 << M_FRAMES : 1 << M_STACKS;

      if (!(f->seen & (1 << M_FORMAT)))
        return fail_at (r, ".format", "%s", _("not a Waitscope digest"));
      if ((f->seen & before) != before || (f->seen & (G_GUINT64_CONSTANT (1) << f->member)))
        return fail_with (r, TRUE, _("format, version, frames, stacks and traces must come once each, in this order"));
    }
  return TRUE;
}

static int
on_start_map (void *data)
{
  Reader *r = data;
  Frame *f = top (r);

  if (r->skip > 0)
    return skip_deeper (r);
  begin_value (r);
  if (f == NULL)
    {
      push (r, K_TOP, M_UNKNOWN, 0);
      return TRUE;
    }
  switch (f->kind)
    {
    case K_TRACES:
      r->trace = ws_digest_trace_new ();
      push (r, K_TRACE, M_UNKNOWN, 0);
      return TRUE;
    case K_INSTANCES:
      g_clear_pointer (&r->scenario, g_free);
      g_clear_pointer (&r->program, g_free);
      r->duration = 0;
      g_array_set_size (r->nodes, 0);
      g_array_set_size (r->degrees, 0);
      g_array_set_size (r->targets, 0);
      push (r, K_INSTANCE, M_UNKNOWN, 0);
      return TRUE;
    case K_TRACE:
      if (f->member == M_WAIT_SAMPLES)
        {
          push (r, K_WAITS, M_UNKNOWN, 0);
          return TRUE;
        }
      G_GNUC_FALLTHROUGH;
    case K_TOP:
    case K_WAITS:
    case K_INSTANCE:
      if (f->member == M_UNKNOWN)
        return skip_value (r);
      return wrong_type (r);
    default:
      return wrong_type (r);
    }
}

/* The list a member opens, or FALSE if the member is not a list. */
static gboolean
list_of_member (Reader *r,
                Frame  *f)
{
  switch (f->member)
    {
    case M_FRAMES: push (r, K_FRAMES, M_FRAMES, 1); return TRUE;
    case M_STACKS: push (r, K_STACKS, M_STACKS, 1); return TRUE;
    case M_TRACES: push (r, K_TRACES, M_TRACES, 1); return TRUE;
    case M_THREADS: push (r, K_THREADS, M_THREADS, 1); return TRUE;
    case M_LEFT_OUT: push (r, K_INTS, M_LEFT_OUT, 2); return TRUE;
    case M_WAITING:
    case M_WAITING_ALL:
    case M_RUNNING:
    case M_CAUSES: push (r, K_INTS, f->member, 4); return TRUE;
    case M_COUNTS: push (r, K_INTS, M_COUNTS, 2); return TRUE;
    case M_SAMPLES:
      if (f->kind != K_WAITS)
        return FALSE;
      push (r, K_INTS, M_SAMPLES, 2);
      return TRUE;
    case M_NODES: push (r, K_INTS, M_NODES, 5); return TRUE;
    case M_DEGREES:
    case M_TARGETS: push (r, K_INTS, f->member, 1); return TRUE;
    case M_KEYS:
    case M_POOLS:
    case M_SPAN_PROGRAMS:
    case M_PROGRAMS:
    case M_SCENARIO_RULES: push (r, K_STRINGS, f->member, 1); return TRUE;
    case M_INSTANCES: push (r, K_INSTANCES, M_INSTANCES, 1); return TRUE;
    default: return FALSE;
    }
}

static int
on_start_array (void *data)
{
  Reader *r = data;
  Frame *f = top (r);

  if (r->skip > 0)
    return skip_deeper (r);
  begin_value (r);
  if (f == NULL)
    return fail_at (r, "/", "%s", _("not a Waitscope digest"));
  switch (f->kind)
    {
    case K_FRAMES:
      g_clear_pointer (&r->function, g_free);
      g_clear_pointer (&r->module, g_free);
      push (r, K_FRAME, M_UNKNOWN, 1);
      return TRUE;
    case K_STACKS:
      g_array_set_size (r->frames, 0);
      push (r, K_INTS, M_STACKS, 1);
      return TRUE;
    case K_THREADS:
      g_clear_pointer (&r->thread_name, g_free);
      push (r, K_THREAD, M_UNKNOWN, 1);
      return TRUE;
    case K_TOP:
    case K_TRACE:
    case K_WAITS:
    case K_INSTANCE:
      if (f->member == M_UNKNOWN)
        return skip_value (r);
      if (f->kind == K_TRACE && (f->member == M_WAIT_SAMPLES))
        return wrong_type (r);
      return list_of_member (r, f) ? TRUE : wrong_type (r);
    default:
      return wrong_type (r);
    }
}

/* The list that just ended, checked and taken in. */
static gboolean
end_list (Reader *r,
          Frame  *f)
{
  Frame *parent = &g_array_index (r->stack, Frame, r->stack->len - 2);

  switch (f->kind)
    {
    case K_FRAME:
      if (f->index != 2)
        return fail_with (r, FALSE, _("not a [function, module] pair"));
      if (ws_stack_table_intern_frame (r->table, r->function, r->module) != parent->index)
        return fail_with (r, FALSE, _("the same frame twice"));
      return TRUE;
    case K_THREAD:
      if (f->index != 3)
        return fail_with (r, FALSE, _("not a [tid, pid, name] triple"));
      {
        WsDigestThread th = { f->tuple[0], f->tuple[1], g_steal_pointer (&r->thread_name) };
        g_array_append_val (r->trace->threads, th);
      }
      return TRUE;
    case K_INTS:
      if (f->member == M_STACKS)
        {
          if (f->index == 0)
            return fail_with (r, FALSE, _("not a non-empty list of frames"));
          if (ws_stack_table_intern_stack (r->table, (const WsFrameId *) (gpointer) r->frames->data,
                                           r->frames->len) != parent->index + 1)
            return fail_with (r, FALSE, _("the same stack twice"));
          return TRUE;
        }
      if (f->index % f->width != 0 || (f->member == M_LEFT_OUT && f->index != 2))
        {
          if (f->member == M_LEFT_OUT)
            FAIL (r, FALSE, "%s", _("left_out is not a [waits, time] pair"));
          else
            FAIL (r, FALSE, _("not a list of %u-tuples"), f->width);
          return FALSE;
        }
      return TRUE;
    case K_STACKS:
      r->n_stacks = ws_stack_table_get_n_stacks (r->table) - 1;
      return TRUE;
    default:
      return TRUE;
    }
}

static gboolean
end_instance (Reader *r)
{
  static const Member required[] = { M_PROGRAM, M_DURATION, M_NODES, M_DEGREES, M_TARGETS };
  Frame *f = top (r);
  g_autoptr(WsAwgInput) graph = NULL;
  guint64 n_edges = 0;

  if (!require (r, f, required, G_N_ELEMENTS (required)))
    return FALSE;
  f->member = M_UNKNOWN;
  if (r->degrees->len != r->nodes->len)
    return fail_with (r, FALSE, _("as many degrees as nodes are needed"));
  for (guint k = 0; k < r->degrees->len; k++)
    n_edges += g_array_index (r->degrees, guint32, k);
  if (n_edges != r->targets->len)
    return fail_with (r, FALSE, _("the degrees do not add up to the targets"));
  graph = ws_awg_input_new (r->nodes->len, r->targets->len);
  for (guint k = 0; k < r->nodes->len; k++)
    {
      graph->nodes[k] = g_array_index (r->nodes, WsAwgInputNode, k);
      graph->first_edge[k + 1] = graph->first_edge[k] + g_array_index (r->degrees, guint32, k);
    }
  /* An empty GArray has no data: memcpy must not see its NULL. */
  if (r->targets->len > 0)
    memcpy (graph->edge_to, r->targets->data, sizeof (guint32) * r->targets->len);
  if (!ws_awg_input_is_valid (graph, r->n_stacks + 1))
    return fail_with (r, FALSE, _("an edge points outside the graph"));
  g_ptr_array_add (r->trace->instances,
                   ws_digest_instance_new (r->scenario, r->program, r->duration, g_steal_pointer (&graph)));
  return TRUE;
}

static gboolean
end_trace (Reader *r)
{
  static const Member required[] = { M_PATH, M_NAME, M_CONTENT_HASH, M_EVENTS, M_WAITS, M_SAMPLES, M_START,
                                     M_END, M_THREADS, M_LEFT_OUT, M_WAITING, M_WAITING_ALL, M_RUNNING,
                                     M_CAUSES, M_COUNTS };
  static const Member with_instances[] = { M_SPAN_PROGRAMS, M_PROGRAMS };
  Frame *f = top (r);
  WsDigestTrace *t = r->trace;

  if (!require (r, f, required, G_N_ELEMENTS (required)))
    return FALSE;
  if (!(r->flags & WS_DIGEST_READ_SKIP_WAIT_SAMPLES) && !require (r, f, (const Member[]) { M_WAIT_SAMPLES }, 1))
    return FALSE;
  t->has_instances = (f->seen & (G_GUINT64_CONSTANT (1) << M_INSTANCES)) != 0;
  /* The program is the trace's vote only beside its instances. */
  if (!t->has_instances)
    g_clear_pointer (&t->program, g_free);
  if (t->has_instances && !require (r, f, with_instances, G_N_ELEMENTS (with_instances)))
    return FALSE;
  f->member = M_UNKNOWN;
  if (t->n_waits > t->n_events || t->n_samples > t->n_events || t->n_left_out > t->n_waits)
    return fail_with (r, FALSE, _("more waits or samples than events, or more left out than waits"));
  ws_digest_add_trace_take (r->digest, g_steal_pointer (&r->trace));
  return TRUE;
}

static gboolean
end_waits (Reader *r)
{
  static const Member required[] = { M_DEPTH, M_KEYS, M_POOLS, M_SAMPLES };
  Frame *f = top (r);
  WsWaitSampleSet *w = r->trace->waits;

  if (!require (r, f, required, G_N_ELEMENTS (required)))
    return FALSE;
  f->member = M_UNKNOWN;
  if (w->keys->len != w->pools->len)
    return fail_with (r, FALSE, _("as many pools as keys are needed"));
  for (guint i = 0; i < w->samples->len; i++)
    if (g_array_index (w->samples, WsWaitSample, i).signature >= w->keys->len)
      {
        f->member = M_SAMPLES;
        return fail_with (r, TRUE, _("a sample's signature is out of range"));
      }
  return TRUE;
}

static int
on_end_map (void *data)
{
  Reader *r = data;
  Frame *f = top (r);
  gboolean ok = TRUE;

  if (r->skip > 0)
    {
      r->skip--;
      return TRUE;
    }
  switch (f->kind)
    {
    case K_TOP:
      ok = require (r, f, (const Member[]) { M_FORMAT, M_VERSION, M_FRAMES, M_STACKS, M_TRACES }, 5);
      break;
    case K_TRACE:
      ok = end_trace (r);
      break;
    case K_WAITS:
      ok = end_waits (r);
      break;
    case K_INSTANCE:
      ok = end_instance (r);
      break;
    default:
      break;
    }
  if (!ok)
    return FALSE;
  return pop (r);
}

static int
on_end_array (void *data)
{
  Reader *r = data;
  Frame *f = top (r);

  if (r->skip > 0)
    {
      r->skip--;
      return TRUE;
    }
  if (!end_list (r, f))
    return FALSE;
  return pop (r);
}

static const yajl_callbacks callbacks = {
  on_null, on_boolean, NULL, NULL, on_number, on_string,
  on_start_map, on_map_key, on_end_map, on_start_array, on_end_array,
};

/* ------------------------------------------------------------------ */
/* The stream                                                           */

static void
fail_yajl (Reader              *r,
           const unsigned char *text,
           gsize                len)
{
  unsigned char *message = yajl_get_error (r->yajl, 0, text, len);
  g_autofree char *line = g_strstrip (g_strdup ((const char *) message));

  yajl_free_error (r->yajl, message);
  fail_at (r, "JSON", "%s", line);
}

/* Feeds @in to yajl; FALSE with r->error set on the first fault. */
static gboolean
parse_stream (Reader       *r,
              GInputStream *in)
{
  g_autofree guint8 *buf = g_malloc (CHUNK);
  g_autoptr(GError) local = NULL;
  gssize n;

  while ((n = g_input_stream_read (in, buf, CHUNK, NULL, &local)) > 0)
    {
      if (yajl_parse (r->yajl, buf, n) != yajl_status_ok)
        {
          if (!r->failed)
            fail_yajl (r, buf, n);
          return FALSE;
        }
      r->base += yajl_get_bytes_consumed (r->yajl);
    }
  if (n < 0)
    return fail_at (r, "gzip", "%s", local->message);
  if (r->base == 0)
    return fail_at (r, "/", "%s", _("not a Waitscope digest"));
  if (yajl_complete_parse (r->yajl) != yajl_status_ok)
    {
      if (!r->failed)
        fail_yajl (r, NULL, 0);
      return FALSE;
    }
  return !r->failed;
}

/* @in, inflated if it starts as gzip does. */
static GInputStream *
inflated (GInputStream *in)
{
  g_autoptr(GBufferedInputStream) buffered = G_BUFFERED_INPUT_STREAM (g_buffered_input_stream_new_sized (in, CHUNK));
  g_autoptr(GZlibDecompressor) zlib = NULL;
  const guint8 *head;
  gsize size = 0;

  g_buffered_input_stream_fill (buffered, 2, NULL, NULL);
  head = g_buffered_input_stream_peek_buffer (buffered, &size);
  if (size < 2 || head[0] != 0x1f || head[1] != 0x8b)
    return G_INPUT_STREAM (g_steal_pointer (&buffered));
  zlib = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  return g_converter_input_stream_new (G_INPUT_STREAM (buffered), G_CONVERTER (zlib));
}

static WsDigest *
read_stream (GInputStream      *raw,
             const char        *name,
             WsDigestReadFlags  flags,
             GError           **error)
{
  g_autoptr(GInputStream) in = inflated (raw);
  g_autoptr(WsDigest) digest = ws_digest_new ();
  Reader r = { 0 };
  gboolean ok;

  r.file = name;
  r.error = error;
  r.flags = flags;
  r.digest = digest;
  r.table = ws_digest_get_stack_table (digest);
  r.stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  r.frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  r.nodes = g_array_new (FALSE, FALSE, sizeof (WsAwgInputNode));
  r.degrees = g_array_new (FALSE, FALSE, sizeof (guint32));
  r.targets = g_array_new (FALSE, FALSE, sizeof (guint32));
  r.yajl = yajl_alloc (&callbacks, NULL, &r);

  ok = parse_stream (&r, in);

  yajl_free (r.yajl);
  g_array_unref (r.stack);
  g_array_unref (r.frames);
  g_array_unref (r.nodes);
  g_array_unref (r.degrees);
  g_array_unref (r.targets);
  g_free (r.function);
  g_free (r.module);
  g_free (r.thread_name);
  g_free (r.scenario);
  g_free (r.program);
  if (r.trace != NULL)
    ws_digest_trace_free (r.trace);
  return ok ? g_steal_pointer (&digest) : NULL;
}

/**
 * ws_digest_read_bytes:
 * @name: the file's name, for errors
 *
 * Returns: (transfer full): the digest, or %NULL with a %WS_ERROR_PARSE
 *   error naming @name and the place in it
 */
WsDigest *
ws_digest_read_bytes (GBytes      *bytes,
                      const char  *name,
                      GError     **error)
{
  g_autoptr(GInputStream) in = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);
  in = g_memory_input_stream_new_from_bytes (bytes);
  return read_stream (in, name, WS_DIGEST_READ_ALL, error);
}

/**
 * ws_digest_read_full:
 * @flags: the parts a run does not need, skipped unread (and unchecked)
 *
 * Reads @path as a stream: memory is what the digest holds, never the
 * file's text.
 */
WsDigest *
ws_digest_read_full (const char         *path,
                     WsDigestReadFlags   flags,
                     GError            **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) in = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  file = g_file_new_for_path (path);
  /* GIO's message names the file. */
  if ((in = g_file_read (file, NULL, error)) == NULL)
    return NULL;
  return read_stream (G_INPUT_STREAM (in), path, flags, error);
}

WsDigest *
ws_digest_read (const char  *path,
                GError     **error)
{
  return ws_digest_read_full (path, WS_DIGEST_READ_ALL, error);
}
