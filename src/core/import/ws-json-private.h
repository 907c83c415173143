/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Shared by the JSON trace reader's files: the pull lexer
 * (ws-json-lexer.c) and the document reader (ws-json-trace.c).
 */

#include "ws-error.h"
#include "ws-json-trace.h"
#include "ws-trace-private.h"

G_BEGIN_DECLS


/* Names are symbols, modules and thread names: a string of more than this is
 * not one of them but damaged or hostile input. */
#define MAX_STRING_BYTES (1024 * 1024)
#define MAX_DEPTH        256
#define READ_CHUNK       (64 * 1024)

typedef enum {
  TOK_EOF,
  TOK_LBRACE,
  TOK_RBRACE,
  TOK_LBRACKET,
  TOK_RBRACKET,
  TOK_COLON,
  TOK_COMMA,
  TOK_STRING,
  TOK_NUMBER,
  TOK_TRUE,
  TOK_FALSE,
  TOK_NULL,
} TokenType;

typedef struct {
  TokenType type;
  guint     line;
} Token;

/* Per-event bits kept while reading, until references are resolved. */
enum {
  RAW_STACK_IS_FILE_ID = 1 << 0,  /* stack holds an index into "stacks" */
  RAW_PEER_ABSENT      = 1 << 1,  /* no "peer" member (null is explicit) */
  RAW_HAS_TARGET       = 1 << 2,  /* target holds a raw tid */
};

typedef struct {
  /* Input */
  GInputStream   *stream;
  GCancellable   *cancellable;
  char           *name;
  guint8         *buf;
  gsize           pos;
  gsize           len;
  gboolean        eof;
  guint           line;
  guint64         consumed;

  /* Progress: position in the (possibly compressed) file, out of total. */
  GSeekable      *position_source;
  goffset         total_size;
  WsProgressFunc  progress;
  gpointer        progress_data;
  guint64         next_progress;

  /* Current token values */
  GString        *str;
  char            num[64];
  gboolean        num_is_int;

  GError         *error;

  /* Document */
  WsTrace        *trace;
  WsStackTable   *stacks;
  gboolean        seen_format;
  gboolean        seen_version;
  GArray         *frame_map;      /* file frame id -> WsFrameId */
  GArray         *stack_offsets;  /* guint32 pairs: offset, length into stack_frames */
  GArray         *stack_frames;   /* raw file frame ids */
  GArray         *stack_lines;    /* guint32 */
  GArray         *event_lines;    /* guint32 per event */
  GArray         *event_bits;     /* guint8 per event */
  GArray         *instances;      /* RawInstance */
  /* Threads whose tid an earlier thread had ("life" ≥ 1 in "threads"):
   * (tid << 32 | life) -> thread + 1; and the events naming one of them:
   * event index -> life | target life << 16.  Both made on first use. */
  GHashTable     *lives;
  GHashTable     *event_lives;
} Reader;

typedef struct {
  WsScenarioInstance inst;  /* thread holds the raw tid until resolved */
  guint              life;  /* which of the threads with that tid */
  guint              line;
  guint              index;
} RawInstance;


/* The event flags' names, by bit (null: unnamed). */

void ws_json_reader_clear (Reader *r);
gboolean ws_json_reader_fail (Reader *r, WsError code, guint line, const char *format, ...) G_GNUC_PRINTF (4, 5);
int ws_json_peek_byte (Reader *r);
gboolean ws_json_next_token (Reader   *r,
            gboolean  keep,
            Token    *tok);
const char * ws_json_token_description (TokenType type);
gboolean ws_json_iter_object (Reader   *r,
             gboolean *first,
             gboolean *more);
gboolean ws_json_skip_value (Reader      *r,
            const Token *tok,
            guint        depth);
gboolean ws_json_next_element (Reader   *r,
              gboolean *first,
              gboolean  keep,
              Token    *tok);
gboolean ws_json_to_int64 (Reader      *r,
          const Token *tok,
          const char  *what,
          gint64       min,
          gint64       max,
          gint64      *out);
gboolean ws_json_read_int (Reader     *r,
          const char *what,
          gint64      min,
          gint64      max,
          gint64     *out);
gboolean ws_json_read_string (Reader     *r,
             const char *what);
gboolean ws_json_begin_array (Reader     *r,
             const char *what);
gboolean ws_json_expect_object (Reader      *r,
               const Token *tok,
               const char  *what,
               guint        index);

G_END_DECLS
