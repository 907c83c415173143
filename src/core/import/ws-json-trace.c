/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The JSON trace format, read and written as a stream.
 *
 * Why not JsonParser: json-glib 1.6 builds the whole document as a tree of
 * JsonNode/JsonObject (a hash table per event object, roughly 1 KB per
 * event), so a trace of a few million events would need gigabytes before the
 * first event reaches the model, and its nodes carry no line numbers, so an
 * error in event 90 000 could not say where it is.  The reader below is a
 * small pull lexer over a GInputStream: it keeps one token at a time, knows
 * the line of every token, and stores events straight into the WsTrace being
 * built.  References (thread ids, stack ids, event indices) may point
 * forwards, so they are kept raw while reading and resolved once the whole
 * document has been seen.  The tests check the writer's output against
 * json-glib's own parser, an independent implementation.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-error.h"
#include "ws-json-trace.h"
#include "ws-trace-private.h"

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
} Reader;

typedef struct {
  WsScenarioInstance inst;  /* thread holds the raw tid until resolved */
  guint              line;
  guint              index;
} RawInstance;

static void
reader_clear (Reader *r)
{
  g_free (r->name);
  g_free (r->buf);
  g_string_free (r->str, TRUE);
  g_clear_error (&r->error);
  g_clear_object (&r->trace);
  g_clear_object (&r->stacks);
  g_array_unref (r->frame_map);
  g_array_unref (r->stack_offsets);
  g_array_unref (r->stack_frames);
  g_array_unref (r->stack_lines);
  g_array_unref (r->event_lines);
  g_array_unref (r->event_bits);
  g_array_unref (r->instances);
}

static gboolean reader_fail (Reader     *r,
                             WsError     code,
                             guint       line,
                             const char *format,
                             ...) G_GNUC_PRINTF (4, 5);

static gboolean
reader_fail (Reader     *r,
             WsError     code,
             guint       line,
             const char *format,
             ...)
{
  g_autofree char *message = NULL;
  va_list args;

  /* The first error is the one the user needs to see. */
  if (r->error != NULL)
    return FALSE;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (&r->error, WS_ERROR, code, "%s:%u: %s", r->name, line, message);
  return FALSE;
}

static void
report_progress (Reader *r)
{
  double fraction = -1.0;

  if (r->progress == NULL)
    return;

  if (r->position_source != NULL && r->total_size > 0)
    fraction = CLAMP ((double) g_seekable_tell (r->position_source) / r->total_size, 0.0, 1.0);
  r->progress (fraction * 0.9, _("Reading JSON trace"), r->progress_data);
}

/* Returns FALSE on error (set in r->error); at end of input r->eof is set. */
static gboolean
refill (Reader *r)
{
  g_autoptr(GError) local_error = NULL;
  gssize n;

  if (r->eof)
    return TRUE;

  if (g_cancellable_is_cancelled (r->cancellable))
    return reader_fail (r, WS_ERROR_CANCELLED, r->line, "%s", _("cancelled"));

  n = g_input_stream_read (r->stream, r->buf, READ_CHUNK, r->cancellable, &local_error);
  if (n < 0)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return reader_fail (r, WS_ERROR_CANCELLED, r->line, "%s", _("cancelled"));
      /* GZlibDecompressor says so when a gzip stream is cut short. */
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
        return reader_fail (r, WS_ERROR_TRUNCATED, r->line,
                            _("the compressed data ends early (%s)"), local_error->message);
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA))
        return reader_fail (r, WS_ERROR_PARSE, r->line,
                            _("corrupt compressed data (%s)"), local_error->message);
      return reader_fail (r, WS_ERROR_IO, r->line, _("read error: %s"), local_error->message);
    }

  r->pos = 0;
  r->len = n;
  r->consumed += n;
  if (n == 0)
    r->eof = TRUE;

  if (r->consumed >= r->next_progress)
    {
      report_progress (r);
      r->next_progress = r->consumed + 4 * READ_CHUNK;
    }

  return TRUE;
}

/* The next byte, -1 at end of input, -2 on error. */
static inline int
peek_byte (Reader *r)
{
  if G_LIKELY (r->pos < r->len)
    return r->buf[r->pos];
  if (!refill (r))
    return -2;
  if (r->eof)
    return -1;
  return r->buf[r->pos];
}

static gboolean
lex_string (Reader   *r,
            gboolean  keep,
            guint     line)
{
  gsize length = 0;

  r->pos++;  /* opening quote */
  g_string_truncate (r->str, 0);

  for (;;)
    {
      gsize start, i;
      int c;

      if ((c = peek_byte (r)) == -2)
        return FALSE;
      if (c == -1)
        return reader_fail (r, WS_ERROR_TRUNCATED, r->line, "%s",
                            _("the input ends inside a string"));

      /* Copy the plain run in one go: most strings have no escapes. */
      start = r->pos;
      for (i = start; i < r->len; i++)
        {
          guint8 b = r->buf[i];
          if (b == '"' || b == '\\' || b < 0x20)
            break;
        }
      if (i > start)
        {
          length += i - start;
          if (keep)
            {
              if (length > MAX_STRING_BYTES)
                return reader_fail (r, WS_ERROR_TOO_LONG, line,
                                    _("a string longer than %u bytes"), (guint) MAX_STRING_BYTES);
              g_string_append_len (r->str, (const char *) r->buf + start, i - start);
            }
          r->pos = i;
          continue;
        }

      c = r->buf[r->pos];
      if (c == '"')
        {
          r->pos++;
          break;
        }
      if (c == 0)
        return reader_fail (r, WS_ERROR_BINARY, r->line, "%s", _("binary data (a NUL byte)"));
      if (c < 0x20)
        return reader_fail (r, WS_ERROR_PARSE, r->line,
                            _("control character 0x%02x in a string (write it as an escape)"), c);

      /* A backslash escape. */
      r->pos++;
      if ((c = peek_byte (r)) < 0)
        return c == -2 ? FALSE : reader_fail (r, WS_ERROR_TRUNCATED, r->line, "%s",
                                              _("the input ends inside a string"));
      r->pos++;
      length++;
      switch (c)
        {
        case '"': case '\\': case '/':
          if (keep) g_string_append_c (r->str, c);
          break;
        case 'b': if (keep) g_string_append_c (r->str, '\b'); break;
        case 'f': if (keep) g_string_append_c (r->str, '\f'); break;
        case 'n': if (keep) g_string_append_c (r->str, '\n'); break;
        case 'r': if (keep) g_string_append_c (r->str, '\r'); break;
        case 't': if (keep) g_string_append_c (r->str, '\t'); break;
        case 'u':
          {
            gunichar u = 0;

            for (guint pass = 0; pass < 2; pass++)
              {
                guint v = 0;

                for (guint k = 0; k < 4; k++)
                  {
                    int h;
                    if ((c = peek_byte (r)) == -2)
                      return FALSE;
                    if (c < 0 || !g_ascii_isxdigit (c))
                      return reader_fail (r, WS_ERROR_PARSE, r->line, "%s",
                                          _("invalid \\u escape in a string"));
                    h = g_ascii_xdigit_value (c);
                    v = v * 16 + h;
                    r->pos++;
                  }

                if (pass == 0)
                  {
                    if (v >= 0xDC00 && v <= 0xDFFF)
                      return reader_fail (r, WS_ERROR_PARSE, r->line, "%s",
                                          _("invalid \\u escape in a string (lone low surrogate)"));
                    if (v < 0xD800 || v > 0xDBFF)
                      {
                        u = v;
                        break;
                      }
                    /* A high surrogate: the low half must follow. */
                    u = v;
                    if (peek_byte (r) != '\\')
                      return reader_fail (r, WS_ERROR_PARSE, r->line, "%s",
                                          _("invalid \\u escape in a string (lone high surrogate)"));
                    r->pos++;
                    if (peek_byte (r) != 'u')
                      return reader_fail (r, WS_ERROR_PARSE, r->line, "%s",
                                          _("invalid \\u escape in a string (lone high surrogate)"));
                    r->pos++;
                  }
                else
                  {
                    if (v < 0xDC00 || v > 0xDFFF)
                      return reader_fail (r, WS_ERROR_PARSE, r->line, "%s",
                                          _("invalid \\u escape in a string (lone high surrogate)"));
                    u = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
                  }
              }

            if (u == 0)
              return reader_fail (r, WS_ERROR_PARSE, r->line, "%s",
                                  _("\\u0000 is not allowed in a string"));
            if (keep)
              g_string_append_unichar (r->str, u);
            break;
          }
        default:
          return reader_fail (r, WS_ERROR_PARSE, r->line,
                              _("invalid escape “\\%c” in a string"), g_ascii_isprint (c) ? c : '?');
        }

      if (keep && length > MAX_STRING_BYTES)
        return reader_fail (r, WS_ERROR_TOO_LONG, line,
                            _("a string longer than %u bytes"), (guint) MAX_STRING_BYTES);
    }

  if (keep && !g_utf8_validate_len (r->str->str, r->str->len, NULL))
    return reader_fail (r, WS_ERROR_PARSE, line, "%s", _("a string is not valid UTF-8"));

  return TRUE;
}

static gboolean
lex_number (Reader *r,
            guint   line)
{
  /* JSON grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
  enum { SIGN, INT0, INT, AFTER_INT, FRAC, FRAC_DIGITS, EXP, EXP_SIGN, EXP_DIGITS } state = SIGN;
  gsize n = 0;
  int c;

  r->num_is_int = TRUE;
  for (;;)
    {
      gboolean digit;

      if ((c = peek_byte (r)) == -2)
        return FALSE;
      digit = c >= '0' && c <= '9';

      switch (state)
        {
        case SIGN:
          if (c == '-') { state = INT0; break; }
          G_GNUC_FALLTHROUGH;
        case INT0:
          if (c == '0') { state = AFTER_INT; break; }
          if (digit) { state = INT; break; }
          goto bad;
        case INT:
          if (digit) break;
          G_GNUC_FALLTHROUGH;
        case AFTER_INT:
          if (c == '.') { state = FRAC; r->num_is_int = FALSE; break; }
          if (c == 'e' || c == 'E') { state = EXP; r->num_is_int = FALSE; break; }
          goto done;
        case FRAC:
          if (digit) { state = FRAC_DIGITS; break; }
          goto bad;
        case FRAC_DIGITS:
          if (digit) break;
          if (c == 'e' || c == 'E') { state = EXP; break; }
          goto done;
        case EXP:
          if (c == '+' || c == '-') { state = EXP_SIGN; break; }
          G_GNUC_FALLTHROUGH;
        case EXP_SIGN:
          if (digit) { state = EXP_DIGITS; break; }
          goto bad;
        case EXP_DIGITS:
          if (digit) break;
          goto done;
        default:
          g_assert_not_reached ();
        }

      if (n + 1 >= sizeof r->num)
        return reader_fail (r, WS_ERROR_PARSE, line, "%s", _("a number with too many digits"));
      r->num[n++] = c;
      r->pos++;
    }

done:
  r->num[n] = '\0';
  return TRUE;

bad:
  r->num[n] = '\0';
  return reader_fail (r, WS_ERROR_PARSE, r->line, _("malformed number “%s”"), r->num);
}

static gboolean
lex_literal (Reader *r,
             Token  *tok)
{
  char word[8];
  gsize n = 0;
  int c;

  while ((c = peek_byte (r)) >= 0 && g_ascii_isalpha (c) && n + 1 < sizeof word)
    {
      word[n++] = c;
      r->pos++;
    }
  if (c == -2)
    return FALSE;
  word[n] = '\0';

  if (strcmp (word, "true") == 0)
    tok->type = TOK_TRUE;
  else if (strcmp (word, "false") == 0)
    tok->type = TOK_FALSE;
  else if (strcmp (word, "null") == 0)
    tok->type = TOK_NULL;
  else
    return reader_fail (r, WS_ERROR_PARSE, tok->line, _("unexpected word “%s”"), word);
  return TRUE;
}

/* Reads the next token; a string's value is kept in r->str only if @keep. */
static gboolean
next_token (Reader   *r,
            gboolean  keep,
            Token    *tok)
{
  int c;

  for (;;)
    {
      if ((c = peek_byte (r)) == -2)
        return FALSE;
      if (c == '\n')
        r->line++;
      else if (c != ' ' && c != '\t' && c != '\r')
        break;
      r->pos++;
    }

  tok->line = r->line;
  switch (c)
    {
    case -1:  tok->type = TOK_EOF; return TRUE;
    case '{': tok->type = TOK_LBRACE; r->pos++; return TRUE;
    case '}': tok->type = TOK_RBRACE; r->pos++; return TRUE;
    case '[': tok->type = TOK_LBRACKET; r->pos++; return TRUE;
    case ']': tok->type = TOK_RBRACKET; r->pos++; return TRUE;
    case ':': tok->type = TOK_COLON; r->pos++; return TRUE;
    case ',': tok->type = TOK_COMMA; r->pos++; return TRUE;
    case '"': tok->type = TOK_STRING; return lex_string (r, keep, tok->line);
    case 't': case 'f': case 'n':
      return lex_literal (r, tok);
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      tok->type = TOK_NUMBER;
      return lex_number (r, tok->line);
    case 0:
      return reader_fail (r, WS_ERROR_BINARY, r->line, "%s", _("binary data (a NUL byte)"));
    default:
      if (c >= 0x20 && c < 0x7f)
        return reader_fail (r, WS_ERROR_PARSE, r->line, _("unexpected character “%c”"), c);
      return reader_fail (r, WS_ERROR_PARSE, r->line, _("unexpected byte 0x%02x"), c);
    }
}

static const char *
token_description (TokenType type)
{
  switch (type)
    {
    case TOK_EOF: return _("the end of the input");
    case TOK_LBRACE: return "“{”";
    case TOK_RBRACE: return "“}”";
    case TOK_LBRACKET: return "“[”";
    case TOK_RBRACKET: return "“]”";
    case TOK_COLON: return "“:”";
    case TOK_COMMA: return "“,”";
    case TOK_STRING: return _("a string");
    case TOK_NUMBER: return _("a number");
    case TOK_TRUE: case TOK_FALSE: return _("a boolean");
    case TOK_NULL: return "null";
    default: return "?";
    }
}

static gboolean
unexpected (Reader     *r,
            const Token *tok,
            const char *expected)
{
  return reader_fail (r, tok->type == TOK_EOF ? WS_ERROR_TRUNCATED : WS_ERROR_PARSE, tok->line,
                      _("expected %s, found %s"), expected, token_description (tok->type));
}

static gboolean
expect (Reader     *r,
        TokenType   type,
        const char *expected)
{
  Token tok;

  if (!next_token (r, FALSE, &tok))
    return FALSE;
  if (tok.type != type)
    return unexpected (r, &tok, expected);
  return TRUE;
}

/*
 * Iterating over an object's members or an array's elements:
 *
 *   gboolean first = TRUE, more;
 *   while (iter_object (r, &first, &more) && more) { key in r->str; read value }
 *
 * The opening bracket has already been read.
 */
static gboolean
iter_object (Reader   *r,
             gboolean *first,
             gboolean *more)
{
  Token tok;

  *more = FALSE;
  if (!next_token (r, TRUE, &tok))
    return FALSE;
  if (!*first)
    {
      if (tok.type == TOK_RBRACE)
        return TRUE;
      if (tok.type != TOK_COMMA)
        return unexpected (r, &tok, _("“,” or “}”"));
      if (!next_token (r, TRUE, &tok))
        return FALSE;
    }
  else if (tok.type == TOK_RBRACE)
    return TRUE;

  *first = FALSE;
  if (tok.type != TOK_STRING)
    return unexpected (r, &tok, _("a member name"));
  if (!expect (r, TOK_COLON, "“:”"))
    return FALSE;
  *more = TRUE;
  return TRUE;
}

static gboolean skip_value (Reader *r, const Token *tok, guint depth);

static gboolean
skip_value (Reader      *r,
            const Token *tok,
            guint        depth)
{
  gboolean first = TRUE, more;
  Token t;

  if (depth > MAX_DEPTH)
    return reader_fail (r, WS_ERROR_PARSE, tok->line,
                        _("nested deeper than %u levels"), (guint) MAX_DEPTH);

  switch (tok->type)
    {
    case TOK_STRING: case TOK_NUMBER: case TOK_TRUE: case TOK_FALSE: case TOK_NULL:
      return TRUE;
    case TOK_LBRACE:
      while (iter_object (r, &first, &more) && more)
        if (!next_token (r, FALSE, &t) || !skip_value (r, &t, depth + 1))
          return FALSE;
      return r->error == NULL;
    case TOK_LBRACKET:
      for (;;)
        {
          if (!next_token (r, FALSE, &t))
            return FALSE;
          if (t.type == TOK_RBRACKET && first)
            return TRUE;
          if (!first)
            {
              if (t.type == TOK_RBRACKET)
                return TRUE;
              if (t.type != TOK_COMMA)
                return unexpected (r, &t, _("“,” or “]”"));
              if (!next_token (r, FALSE, &t))
                return FALSE;
            }
          first = FALSE;
          if (!skip_value (r, &t, depth + 1))
            return FALSE;
        }
    default:
      return unexpected (r, tok, _("a value"));
    }
}

/*
 * Arrays of values: the element's first token is read by the caller of
 * next_element(), which handles the commas.  Returns FALSE on error; *tok
 * is TOK_RBRACKET at the end.
 */
static gboolean
next_element (Reader   *r,
              gboolean *first,
              gboolean  keep,
              Token    *tok)
{
  if (!next_token (r, keep, tok))
    return FALSE;
  if (tok->type == TOK_RBRACKET)
    return TRUE;
  if (!*first)
    {
      if (tok->type != TOK_COMMA)
        return unexpected (r, tok, _("“,” or “]”"));
      if (!next_token (r, keep, tok))
        return FALSE;
      if (tok->type == TOK_RBRACKET)
        return unexpected (r, tok, _("a value"));
    }
  *first = FALSE;
  return TRUE;
}

static gboolean
to_int64 (Reader      *r,
          const Token *tok,
          const char  *what,
          gint64       min,
          gint64       max,
          gint64      *out)
{
  gint64 v;

  if (tok->type != TOK_NUMBER)
    return reader_fail (r, WS_ERROR_PARSE, tok->line,
                        _("%s: expected an integer, found %s"), what, token_description (tok->type));
  if (!r->num_is_int || !g_ascii_string_to_signed (r->num, 10, G_MININT64, G_MAXINT64, &v, NULL))
    return reader_fail (r, WS_ERROR_PARSE, tok->line,
                        _("%s: expected an integer, found “%s”"), what, r->num);
  if (v < min || v > max)
    return reader_fail (r, WS_ERROR_PARSE, tok->line,
                        _("%s: %s is out of range (%lld … %lld)"),
                        what, r->num, (long long) min, (long long) max);
  *out = v;
  return TRUE;
}

static gboolean
read_int (Reader     *r,
          const char *what,
          gint64      min,
          gint64      max,
          gint64     *out)
{
  Token tok;
  return next_token (r, FALSE, &tok) && to_int64 (r, &tok, what, min, max, out);
}

/* Reads a string value into r->str. */
static gboolean
read_string (Reader     *r,
             const char *what)
{
  Token tok;

  if (!next_token (r, TRUE, &tok))
    return FALSE;
  if (tok.type != TOK_STRING)
    return reader_fail (r, WS_ERROR_PARSE, tok.line,
                        _("%s: expected a string, found %s"), what, token_description (tok.type));
  return TRUE;
}

static gboolean
begin_array (Reader     *r,
             const char *what)
{
  Token tok;

  if (!next_token (r, FALSE, &tok))
    return FALSE;
  if (tok.type != TOK_LBRACKET)
    return reader_fail (r, tok.type == TOK_EOF ? WS_ERROR_TRUNCATED : WS_ERROR_PARSE, tok.line,
                        _("“%s” must be an array, found %s"), what, token_description (tok.type));
  return TRUE;
}

static gboolean
expect_object (Reader      *r,
               const Token *tok,
               const char  *what,
               guint        index)
{
  if (tok->type != TOK_LBRACE)
    return reader_fail (r, tok->type == TOK_EOF ? WS_ERROR_TRUNCATED : WS_ERROR_PARSE, tok->line,
                        _("%s %u: expected an object, found %s"), what, index,
                        token_description (tok->type));
  return TRUE;
}

/* "function (module)" as perf prints a frame, or a bare function name. */
static WsFrameId
intern_frame_string (WsStackTable *stacks,
                     const char   *text)
{
  gsize len = strlen (text);
  const char *open;

  if (len > 0 && text[len - 1] == ')' && (open = g_strrstr (text, " (")) != NULL && open != text)
    return ws_stack_table_intern_frame_len (stacks, text, open - text,
                                            open + 2, text + len - 1 - (open + 2));
  return ws_stack_table_intern_frame (stacks, text, "[unknown]");
}

static gboolean
parse_frame_object (Reader     *r,
                    const char *what,
                    guint       index,
                    guint       line,
                    WsFrameId  *out)
{
  g_autofree char *function = NULL;
  g_autofree char *module = NULL;
  gboolean first = TRUE, more;

  while (iter_object (r, &first, &more) && more)
    {
      if (strcmp (r->str->str, "function") == 0)
        {
          if (!read_string (r, "function"))
            return FALSE;
          g_free (function);
          function = g_strdup (r->str->str);
        }
      else if (strcmp (r->str->str, "module") == 0)
        {
          if (!read_string (r, "module"))
            return FALSE;
          g_free (module);
          module = g_strdup (r->str->str);
        }
      else
        {
          Token tok;
          if (!next_token (r, FALSE, &tok) || !skip_value (r, &tok, 1))
            return FALSE;
        }
    }
  if (r->error)
    return FALSE;

  if (function == NULL)
    return reader_fail (r, WS_ERROR_MISSING_FIELD, line,
                        _("%s %u: missing member “%s”"), what, index, "function");

  *out = ws_stack_table_intern_frame (r->stacks, function, module ? module : "[unknown]");
  return TRUE;
}

static gboolean
parse_frames (Reader *r)
{
  gboolean first = TRUE;
  Token tok;

  if (!begin_array (r, "frames"))
    return FALSE;

  for (guint index = 0;; index++)
    {
      WsFrameId id;

      if (!next_element (r, &first, FALSE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        return TRUE;
      if (!expect_object (r, &tok, _("frame"), index)
          || !parse_frame_object (r, _("frame"), index, tok.line, &id))
        return FALSE;
      g_array_append_val (r->frame_map, id);
    }
}

static gboolean
parse_stacks (Reader *r)
{
  gboolean first = TRUE;
  Token tok;

  if (!begin_array (r, "stacks"))
    return FALSE;

  for (guint index = 0;; index++)
    {
      guint32 span[2] = { r->stack_frames->len, 0 };
      gboolean first_frame = TRUE;
      guint line;

      if (!next_element (r, &first, FALSE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        return TRUE;
      if (tok.type != TOK_LBRACKET)
        return reader_fail (r, WS_ERROR_PARSE, tok.line,
                            _("stack %u: expected an array of frame ids, found %s"),
                            index, token_description (tok.type));
      line = tok.line;

      for (;;)
        {
          gint64 frame;
          guint32 f;

          if (!next_element (r, &first_frame, FALSE, &tok))
            return FALSE;
          if (tok.type == TOK_RBRACKET)
            break;
          if (!to_int64 (r, &tok, _("frame id"), 0, G_MAXUINT32 - 1, &frame))
            return FALSE;
          f = frame;
          g_array_append_val (r->stack_frames, f);
        }

      span[1] = r->stack_frames->len - span[0];
      if (index == 0 && span[1] != 0)
        return reader_fail (r, WS_ERROR_PARSE, line, "%s",
                            _("stack 0 must be the empty stack []"));
      g_array_append_vals (r->stack_offsets, span, 2);
      g_array_append_val (r->stack_lines, line);
    }
}

static gboolean
parse_processes (Reader *r)
{
  gboolean first = TRUE;
  Token tok;

  if (!begin_array (r, "processes"))
    return FALSE;

  for (guint index = 0;; index++)
    {
      g_autofree char *name = NULL;
      gboolean first_member = TRUE, more, has_pid = FALSE;
      gint64 pid = 0;
      guint line;

      if (!next_element (r, &first, FALSE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        return TRUE;
      if (!expect_object (r, &tok, _("process"), index))
        return FALSE;
      line = tok.line;

      while (iter_object (r, &first_member, &more) && more)
        {
          if (strcmp (r->str->str, "pid") == 0)
            {
              if (!read_int (r, "pid", G_MININT32, G_MAXINT32, &pid))
                return FALSE;
              has_pid = TRUE;
            }
          else if (strcmp (r->str->str, "name") == 0)
            {
              if (!read_string (r, "name"))
                return FALSE;
              g_free (name);
              name = g_strdup (r->str->str);
            }
          else if (!next_token (r, FALSE, &tok) || !skip_value (r, &tok, 1))
            return FALSE;
        }
      if (r->error)
        return FALSE;
      if (!has_pid)
        return reader_fail (r, WS_ERROR_MISSING_FIELD, line,
                            _("%s %u: missing member “%s”"), _("process"), index, "pid");
      ws_trace_set_process_name (r->trace, pid, name);
    }
}

static gboolean
parse_threads (Reader *r)
{
  gboolean first = TRUE;
  Token tok;

  if (!begin_array (r, "threads"))
    return FALSE;

  for (guint index = 0;; index++)
    {
      g_autofree char *name = NULL;
      gboolean first_member = TRUE, more, has_tid = FALSE, has_pid = FALSE;
      gint64 tid = 0, pid = 0;
      guint line, thread;

      if (!next_element (r, &first, FALSE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        return TRUE;
      if (!expect_object (r, &tok, _("thread"), index))
        return FALSE;
      line = tok.line;

      while (iter_object (r, &first_member, &more) && more)
        {
          if (strcmp (r->str->str, "tid") == 0)
            {
              if (!read_int (r, "tid", G_MININT32, G_MAXINT32, &tid))
                return FALSE;
              has_tid = TRUE;
            }
          else if (strcmp (r->str->str, "pid") == 0)
            {
              if (!read_int (r, "pid", G_MININT32, G_MAXINT32, &pid))
                return FALSE;
              has_pid = TRUE;
            }
          else if (strcmp (r->str->str, "name") == 0)
            {
              if (!read_string (r, "name"))
                return FALSE;
              g_free (name);
              name = g_strdup (r->str->str);
            }
          else if (!next_token (r, FALSE, &tok) || !skip_value (r, &tok, 1))
            return FALSE;
        }
      if (r->error)
        return FALSE;
      if (!has_tid)
        return reader_fail (r, WS_ERROR_MISSING_FIELD, line,
                            _("%s %u: missing member “%s”"), _("thread"), index, "tid");
      if (ws_trace_find_thread (r->trace, tid) != WS_NONE)
        return reader_fail (r, WS_ERROR_PARSE, line,
                            _("thread %u: tid %d is listed twice"), index, (int) tid);

      /* A hand-written single-threaded process need not repeat its pid. */
      thread = ws_trace_ensure_thread (r->trace, tid, has_pid ? pid : tid);
      ws_trace_set_thread_name (r->trace, thread, name);
    }
}

static const char * const flag_names[8] = {
  "span", "readier-unknown", "uninterruptible", "unfinished", "echo", NULL, NULL, NULL,
};

static gboolean
parse_flags (Reader *r,
             guint   index,
             guint8 *flags)
{
  gboolean first = TRUE;
  Token tok;

  if (!begin_array (r, "flags"))
    return FALSE;

  for (;;)
    {
      guint bit;

      if (!next_element (r, &first, TRUE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        return TRUE;
      if (tok.type != TOK_STRING)
        return reader_fail (r, WS_ERROR_PARSE, tok.line,
                            _("event %u: a flag must be a string, found %s"),
                            index, token_description (tok.type));

      for (bit = 0; bit < 8; bit++)
        if (flag_names[bit] != NULL && strcmp (r->str->str, flag_names[bit]) == 0)
          break;
      /* Flags added to the model later than this reader are written "bitN". */
      if (bit == 8 && g_str_has_prefix (r->str->str, "bit")
          && r->str->len == 4 && r->str->str[3] >= '0' && r->str->str[3] <= '7')
        bit = r->str->str[3] - '0';
      if (bit == 8)
        return reader_fail (r, WS_ERROR_PARSE, tok.line,
                            _("event %u: unknown flag “%s”"), index, r->str->str);
      *flags |= 1u << bit;
    }
}

/* An inline stack: caller first, "function (module)" strings or objects. */
static gboolean
parse_inline_stack (Reader   *r,
                    guint     index,
                    guint32  *stack)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  gboolean first = TRUE;
  Token tok;

  for (;;)
    {
      WsFrameId id;

      if (!next_element (r, &first, TRUE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        break;
      if (tok.type == TOK_STRING)
        id = intern_frame_string (r->stacks, r->str->str);
      else if (tok.type == TOK_LBRACE)
        {
          if (!parse_frame_object (r, _("event"), index, tok.line, &id))
            return FALSE;
        }
      else
        return reader_fail (r, WS_ERROR_PARSE, tok.line,
                            _("event %u: a stack frame must be a string or an object, found %s"),
                            index, token_description (tok.type));
      g_array_append_val (frames, id);
    }

  *stack = ws_stack_table_intern_stack (r->stacks, (const WsFrameId *) (gpointer) frames->data,
                                        frames->len);
  return TRUE;
}

static gboolean
parse_event (Reader *r,
             guint   index,
             guint   line)
{
  WsEvent ev = {
    .peer = WS_NONE,
    .target = WS_NONE,
    .ready_latency = WS_LATENCY_UNKNOWN,
    .stack = WS_STACK_EMPTY,
  };
  guint8 bits = RAW_STACK_IS_FILE_ID | RAW_PEER_ABSENT;
  gboolean first = TRUE, more, has_kind = FALSE, has_time = FALSE, has_tid = FALSE;
  gboolean has_name = FALSE;
  guint target_line = 0;
  gint64 v;
  Token tok;

  while (iter_object (r, &first, &more) && more)
    {
      const char *key = r->str->str;

      if (strcmp (key, "kind") == 0)
        {
          WsEventKind kind;
          if (!read_string (r, "kind"))
            return FALSE;
          if (!ws_event_kind_from_string (r->str->str, &kind))
            return reader_fail (r, WS_ERROR_PARSE, r->line,
                                _("event %u: unknown kind “%s”"), index, r->str->str);
          ev.kind = kind;
          has_kind = TRUE;
        }
      else if (strcmp (key, "t") == 0)
        {
          if (!read_int (r, "t", WS_TIME_MIN, WS_TIME_MAX, &ev.time))
            return FALSE;
          has_time = TRUE;
        }
      else if (strcmp (key, "dur") == 0)
        {
          if (!read_int (r, "dur", 0, WS_TIME_MAX, &ev.duration))
            return FALSE;
        }
      else if (strcmp (key, "tid") == 0)
        {
          if (!read_int (r, "tid", G_MININT32, G_MAXINT32, &v))
            return FALSE;
          ev.thread = (guint32) (gint32) v;
          has_tid = TRUE;
        }
      else if (strcmp (key, "cpu") == 0)
        {
          if (!read_int (r, "cpu", 0, G_MAXUINT16, &v))
            return FALSE;
          ev.cpu = v;
        }
      else if (strcmp (key, "stack") == 0)
        {
          if (!next_token (r, FALSE, &tok))
            return FALSE;
          if (tok.type == TOK_LBRACKET)
            {
              if (!parse_inline_stack (r, index, &ev.stack))
                return FALSE;
              bits &= ~RAW_STACK_IS_FILE_ID;
            }
          else
            {
              if (!to_int64 (r, &tok, "stack", 0, G_MAXUINT32 - 1, &v))
                return FALSE;
              ev.stack = v;
              bits |= RAW_STACK_IS_FILE_ID;
            }
        }
      else if (strcmp (key, "state") == 0)
        {
          if (!read_string (r, "state"))
            return FALSE;
          if (r->str->len != 1)
            return reader_fail (r, WS_ERROR_PARSE, r->line,
                                _("event %u: “state” must be one character, found “%s”"),
                                index, r->str->str);
          ev.state = r->str->str[0];
        }
      else if (strcmp (key, "peer") == 0)
        {
          if (!next_token (r, FALSE, &tok))
            return FALSE;
          bits &= ~RAW_PEER_ABSENT;
          if (tok.type != TOK_NULL)
            {
              if (!to_int64 (r, &tok, "peer", 0, G_MAXUINT32 - 1, &v))
                return FALSE;
              ev.peer = v;
            }
        }
      else if (strcmp (key, "target") == 0)
        {
          if (!next_token (r, FALSE, &tok))
            return FALSE;
          target_line = tok.line;
          if (!to_int64 (r, &tok, "target", G_MININT32, G_MAXINT32, &v))
            return FALSE;
          ev.target = (guint32) (gint32) v;
          bits |= RAW_HAS_TARGET;
        }
      else if (strcmp (key, "name") == 0)
        {
          if (!read_string (r, "name"))
            return FALSE;
          ev.target = ws_trace_intern_string (r->trace, r->str->str);
          has_name = TRUE;
        }
      else if (strcmp (key, "latency") == 0)
        {
          if (!read_int (r, "latency", 0, WS_LATENCY_UNKNOWN - 1, &v))
            return FALSE;
          ev.ready_latency = v;
        }
      else if (strcmp (key, "flags") == 0)
        {
          if (!parse_flags (r, index, &ev.flags))
            return FALSE;
        }
      else if (!next_token (r, FALSE, &tok) || !skip_value (r, &tok, 1))
        return FALSE;
    }
  if (r->error)
    return FALSE;

  if (!has_kind || !has_time || !has_tid)
    return reader_fail (r, WS_ERROR_MISSING_FIELD, line,
                        _("event %u: missing member “%s”"), index,
                        !has_kind ? "kind" : !has_time ? "t" : "tid");
  /* The model computes end times as t + dur. */
  if (ev.time > 0 && ev.duration > G_MAXINT64 - ev.time)
    return reader_fail (r, WS_ERROR_PARSE, line,
                        _("event %u: t + dur is beyond the largest time"), index);
  if (ev.kind == WS_EVENT_MARKER && (bits & RAW_HAS_TARGET))
    return reader_fail (r, WS_ERROR_PARSE, target_line,
                        _("event %u: a marker has a “name”, not a “target”"), index);
  if (ev.kind != WS_EVENT_MARKER && has_name)
    return reader_fail (r, WS_ERROR_PARSE, line,
                        _("event %u: only markers have a “name”"), index);
  if (has_name && (bits & RAW_HAS_TARGET))
    return reader_fail (r, WS_ERROR_PARSE, line,
                        _("event %u: both “name” and “target”"), index);

  ws_trace_add_event (r->trace, &ev);
  g_array_append_val (r->event_lines, line);
  g_array_append_val (r->event_bits, bits);
  return TRUE;
}

static gboolean
parse_events (Reader *r)
{
  gboolean first = TRUE;
  Token tok;

  if (!begin_array (r, "events"))
    return FALSE;

  for (;;)
    {
      guint index = r->event_lines->len;

      if (!next_element (r, &first, FALSE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        return TRUE;
      if (index >= WS_NONE - 1)
        return reader_fail (r, WS_ERROR_TOO_LONG, tok.line, "%s", _("too many events"));
      if (!expect_object (r, &tok, _("event"), index) || !parse_event (r, index, tok.line))
        return FALSE;
    }
}

static gboolean
parse_instances (Reader *r)
{
  gboolean first = TRUE;
  Token tok;

  if (!begin_array (r, "scenario_instances"))
    return FALSE;

  for (guint index = 0;; index++)
    {
      RawInstance raw = {
        .inst = { .scenario = WS_NONE, .begin_event = WS_NONE, .end_event = WS_NONE },
        .index = index,
      };
      gboolean first_member = TRUE, more, has_tid = FALSE, has_t0 = FALSE, has_t1 = FALSE;
      gint64 v;

      if (!next_element (r, &first, FALSE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        return TRUE;
      if (!expect_object (r, &tok, _("scenario instance"), index))
        return FALSE;
      raw.line = tok.line;

      while (iter_object (r, &first_member, &more) && more)
        {
          const char *key = r->str->str;

          if (strcmp (key, "scenario") == 0)
            {
              if (!read_string (r, "scenario"))
                return FALSE;
              raw.inst.scenario = ws_trace_intern_string (r->trace, r->str->str);
            }
          else if (strcmp (key, "tid") == 0)
            {
              if (!read_int (r, "tid", G_MININT32, G_MAXINT32, &v))
                return FALSE;
              raw.inst.thread = (guint32) (gint32) v;
              has_tid = TRUE;
            }
          else if (strcmp (key, "t0") == 0)
            {
              if (!read_int (r, "t0", WS_TIME_MIN, WS_TIME_MAX, &raw.inst.t0))
                return FALSE;
              has_t0 = TRUE;
            }
          else if (strcmp (key, "t1") == 0)
            {
              if (!read_int (r, "t1", WS_TIME_MIN, WS_TIME_MAX, &raw.inst.t1))
                return FALSE;
              has_t1 = TRUE;
            }
          else if (strcmp (key, "begin") == 0 || strcmp (key, "end") == 0)
            {
              gboolean is_begin = key[0] == 'b';
              if (!next_token (r, FALSE, &tok))
                return FALSE;
              if (tok.type != TOK_NULL)
                {
                  if (!to_int64 (r, &tok, is_begin ? "begin" : "end", 0, G_MAXUINT32 - 1, &v))
                    return FALSE;
                  if (is_begin)
                    raw.inst.begin_event = v;
                  else
                    raw.inst.end_event = v;
                }
            }
          else if (!next_token (r, FALSE, &tok) || !skip_value (r, &tok, 1))
            return FALSE;
        }
      if (r->error)
        return FALSE;

      if (raw.inst.scenario == WS_NONE || !has_tid || !has_t0 || !has_t1)
        return reader_fail (r, WS_ERROR_MISSING_FIELD, raw.line,
                            _("%s %u: missing member “%s”"), _("scenario instance"), index,
                            raw.inst.scenario == WS_NONE ? "scenario"
                            : !has_tid ? "tid" : !has_t0 ? "t0" : "t1");
      if (raw.inst.t1 < raw.inst.t0)
        return reader_fail (r, WS_ERROR_PARSE, raw.line,
                            _("scenario instance %u: t1 is before t0"), index);
      g_array_append_val (r->instances, raw);
    }
}

static gboolean
parse_document (Reader *r)
{
  gboolean first = TRUE, more;
  Token tok;
  int c;

  /* A byte-order mark, as some editors on other systems write. */
  if (peek_byte (r) == 0xEF && r->len - r->pos >= 3
      && r->buf[r->pos + 1] == 0xBB && r->buf[r->pos + 2] == 0xBF)
    r->pos += 3;

  /* Say "not a trace" rather than "unexpected byte" for other files. */
  while ((c = peek_byte (r)) == ' ' || c == '\t' || c == '\r' || c == '\n')
    {
      r->line += c == '\n';
      r->pos++;
    }
  if (c == -2)
    return FALSE;
  if (c >= 0 && c != '{')
    return reader_fail (r, c == 0 ? WS_ERROR_BINARY : WS_ERROR_PARSE, r->line, "%s",
                        _("not a Waitscope JSON trace: it does not start with “{”"));

  if (!next_token (r, FALSE, &tok))
    return FALSE;
  if (tok.type == TOK_EOF)
    return reader_fail (r, WS_ERROR_EMPTY, tok.line, "%s", _("the file is empty"));
  if (tok.type != TOK_LBRACE)
    return reader_fail (r, WS_ERROR_PARSE, tok.line,
                        _("not a Waitscope JSON trace: expected “{”, found %s"),
                        token_description (tok.type));

  while (iter_object (r, &first, &more) && more)
    {
      const char *key = r->str->str;
      guint line = r->line;

      if (strcmp (key, "format") == 0)
        {
          if (!read_string (r, "format"))
            return FALSE;
          if (strcmp (r->str->str, WS_JSON_TRACE_FORMAT) != 0)
            return reader_fail (r, WS_ERROR_PARSE, line,
                                _("not a Waitscope JSON trace: “format” is “%s”, not “%s”"),
                                r->str->str, WS_JSON_TRACE_FORMAT);
          r->seen_format = TRUE;
        }
      else if (strcmp (key, "version") == 0)
        {
          gint64 version;
          if (!read_int (r, "version", G_MININT64, G_MAXINT64, &version))
            return FALSE;
          if (version > WS_JSON_TRACE_VERSION || version < 1)
            return reader_fail (r, WS_ERROR_PARSE, line,
                                _("format version %lld is not supported (this Waitscope reads version %d)"),
                                (long long) version, WS_JSON_TRACE_VERSION);
          r->seen_version = TRUE;
        }
      else if (strcmp (key, "name") == 0)
        {
          if (!read_string (r, "name"))
            return FALSE;
          ws_trace_set_name (r->trace, r->str->str);
        }
      else if (strcmp (key, "frames") == 0)
        {
          if (!parse_frames (r))
            return FALSE;
        }
      else if (strcmp (key, "stacks") == 0)
        {
          if (!parse_stacks (r))
            return FALSE;
        }
      else if (strcmp (key, "processes") == 0)
        {
          if (!parse_processes (r))
            return FALSE;
        }
      else if (strcmp (key, "threads") == 0)
        {
          if (!parse_threads (r))
            return FALSE;
        }
      else if (strcmp (key, "events") == 0)
        {
          if (!parse_events (r))
            return FALSE;
        }
      else if (strcmp (key, "scenario_instances") == 0)
        {
          if (!parse_instances (r))
            return FALSE;
        }
      else if (!next_token (r, FALSE, &tok) || !skip_value (r, &tok, 1))
        return FALSE;
    }
  if (r->error)
    return FALSE;

  if (!next_token (r, FALSE, &tok))
    return FALSE;
  if (tok.type != TOK_EOF)
    return reader_fail (r, WS_ERROR_PARSE, tok.line, _("unexpected %s after the end of the trace object"),
                        token_description (tok.type));

  if (!r->seen_format)
    return reader_fail (r, WS_ERROR_MISSING_FIELD, 1, _("missing member “%s”"), "format");
  if (!r->seen_version)
    return reader_fail (r, WS_ERROR_MISSING_FIELD, 1, _("missing member “%s”"), "version");

  return TRUE;
}

static gboolean
resolve (Reader *r)
{
  guint n_events = r->event_lines->len;
  guint n_stacks = r->stack_lines->len;
  g_autofree guint32 *stack_map = g_new (guint32, MAX (n_stacks, 1));
  const guint32 *lines = (const guint32 *) (gconstpointer) r->event_lines->data;
  const guint8 *bits = (const guint8 *) (gconstpointer) r->event_bits->data;
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));

  stack_map[0] = WS_STACK_EMPTY;
  for (guint s = 0; s < n_stacks; s++)
    {
      const guint32 *span = &g_array_index (r->stack_offsets, guint32, 2 * s);

      g_array_set_size (frames, 0);
      for (guint k = 0; k < span[1]; k++)
        {
          guint32 f = g_array_index (r->stack_frames, guint32, span[0] + k);
          if (f >= r->frame_map->len)
            return reader_fail (r, WS_ERROR_INVALID, g_array_index (r->stack_lines, guint32, s),
                                _("stack %u: frame %u does not exist (there are %u frames)"),
                                s, f, r->frame_map->len);
          g_array_append_val (frames, g_array_index (r->frame_map, WsFrameId, f));
        }
      stack_map[s] = ws_stack_table_intern_stack (r->stacks, (const WsFrameId *) (gpointer) frames->data,
                                                  frames->len);
    }

  for (guint i = 0; i < n_events; i++)
    {
      WsEvent *e = ws_trace_peek_event (r->trace, i);
      guint thread;

      if ((i & 0xffff) == 0 && g_cancellable_is_cancelled (r->cancellable))
        return reader_fail (r, WS_ERROR_CANCELLED, lines[i], "%s", _("cancelled"));

      if ((thread = ws_trace_find_thread (r->trace, (gint32) e->thread)) == WS_NONE)
        return reader_fail (r, WS_ERROR_INVALID, lines[i],
                            _("event %u: thread %d is not listed in “threads”"), i, (gint32) e->thread);
      e->thread = thread;

      if (bits[i] & RAW_HAS_TARGET)
        {
          if ((thread = ws_trace_find_thread (r->trace, (gint32) e->target)) == WS_NONE)
            return reader_fail (r, WS_ERROR_INVALID, lines[i],
                                _("event %u: target thread %d is not listed in “threads”"),
                                i, (gint32) e->target);
          e->target = thread;
        }

      if (bits[i] & RAW_STACK_IS_FILE_ID)
        {
          /* Stack 0 is the empty stack, whether or not "stacks" lists it. */
          if (e->stack != 0 && e->stack >= n_stacks)
            return reader_fail (r, WS_ERROR_INVALID, lines[i],
                                _("event %u: stack %u does not exist (there are %u stacks)"),
                                i, e->stack, n_stacks);
          e->stack = stack_map[e->stack];
        }

      /* Marker peers are not event links (the model does not remap them). */
      if (e->peer != WS_NONE && e->kind != WS_EVENT_MARKER)
        {
          const WsEvent *p;

          if (e->peer >= n_events)
            return reader_fail (r, WS_ERROR_INVALID, lines[i],
                                _("event %u: peer event %u does not exist (there are %u events)"),
                                i, e->peer, n_events);
          p = ws_trace_peek_event (r->trace, e->peer);
          if (e->kind == WS_EVENT_WAIT && p->kind != WS_EVENT_UNWAIT && p->kind != WS_EVENT_HW_SERVICE)
            return reader_fail (r, WS_ERROR_INVALID, lines[i],
                                _("event %u: the peer of a wait must be an unwait or hw-service event, event %u is a %s"),
                                i, e->peer, ws_event_kind_to_string (p->kind));
          if ((e->kind == WS_EVENT_UNWAIT || e->kind == WS_EVENT_HW_SERVICE) && p->kind != WS_EVENT_WAIT)
            return reader_fail (r, WS_ERROR_INVALID, lines[i],
                                _("event %u: the peer of an unwait or hw-service event must be a wait, event %u is a %s"),
                                i, e->peer, ws_event_kind_to_string (p->kind));
        }
    }

  /* Hand-written traces may give the link on the wait only ("peer" absent
   * on the unwait): fill in the back link.  The writer writes "peer": null
   * where the model has none, so a written trace reads back unchanged. */
  for (guint i = 0; i < n_events; i++)
    {
      WsEvent *e = ws_trace_peek_event (r->trace, i);

      if (e->kind == WS_EVENT_WAIT && e->peer != WS_NONE)
        {
          WsEvent *p = ws_trace_peek_event (r->trace, e->peer);
          if ((bits[e->peer] & RAW_PEER_ABSENT) && p->peer == WS_NONE)
            p->peer = i;
        }
    }

  for (guint k = 0; k < r->instances->len; k++)
    {
      RawInstance *raw = &g_array_index (r->instances, RawInstance, k);
      guint thread = ws_trace_find_thread (r->trace, (gint32) raw->inst.thread);

      if (thread == WS_NONE)
        return reader_fail (r, WS_ERROR_INVALID, raw->line,
                            _("scenario instance %u: thread %d is not listed in “threads”"),
                            raw->index, (gint32) raw->inst.thread);
      if ((raw->inst.begin_event != WS_NONE && raw->inst.begin_event >= n_events)
          || (raw->inst.end_event != WS_NONE && raw->inst.end_event >= n_events))
        return reader_fail (r, WS_ERROR_INVALID, raw->line,
                            _("scenario instance %u: event %u does not exist (there are %u events)"),
                            raw->index,
                            raw->inst.begin_event != WS_NONE && raw->inst.begin_event >= n_events
                            ? raw->inst.begin_event : raw->inst.end_event,
                            n_events);
      raw->inst.thread = thread;
      ws_trace_add_scenario_instance (r->trace, &raw->inst);
    }

  return TRUE;
}

static WsTrace *
load_internal (GInputStream   *stream,
               const char     *path,
               const char     *display_name,
               WsStackTable   *stacks,
               GSeekable      *position_source,
               goffset         total_size,
               WsProgressFunc  progress,
               gpointer        progress_data,
               GCancellable   *cancellable,
               GError        **error)
{
  Reader r = {
    .stream = stream,
    .cancellable = cancellable,
    .name = g_strdup (display_name),
    .buf = g_malloc (READ_CHUNK),
    .line = 1,
    .position_source = position_source,
    .total_size = total_size,
    .progress = progress,
    .progress_data = progress_data,
    .str = g_string_sized_new (256),
    .trace = ws_trace_new (path, stacks),
    .frame_map = g_array_new (FALSE, FALSE, sizeof (WsFrameId)),
    .stack_offsets = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .stack_frames = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .stack_lines = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .event_lines = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .event_bits = g_array_new (FALSE, FALSE, sizeof (guint8)),
    .instances = g_array_new (FALSE, FALSE, sizeof (RawInstance)),
  };
  WsTrace *trace = NULL;

  r.stacks = g_object_ref (ws_trace_get_stack_table (r.trace));

  if (parse_document (&r) && resolve (&r))
    {
      if (progress)
        progress (0.95, _("Indexing events"), progress_data);
      ws_trace_finish (r.trace);
      trace = g_steal_pointer (&r.trace);
      if (progress)
        progress (1.0, NULL, progress_data);
    }
  else
    g_propagate_error (error, g_steal_pointer (&r.error));

  reader_clear (&r);
  return trace;
}

/**
 * ws_json_trace_load_stream:
 * @stream: uncompressed JSON text
 * @display_name: the name used in error messages ("FILE:LINE: …") and as
 *   the trace's path
 * @stacks: (nullable): a stack table to share, or %NULL for a new one.  It
 *   is not locked: do not load into one table from two threads at once.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
WsTrace *
ws_json_trace_load_stream (GInputStream   *stream,
                           const char     *display_name,
                           WsStackTable   *stacks,
                           WsProgressFunc  progress,
                           gpointer        progress_data,
                           GCancellable   *cancellable,
                           GError        **error)
{
  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (display_name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return load_internal (stream, display_name, display_name, stacks, NULL, 0,
                        progress, progress_data, cancellable, error);
}

/**
 * ws_json_trace_load:
 * @path: a `.json` file, or a gzip-compressed one
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
WsTrace *
ws_json_trace_load (const char     *path,
                    WsStackTable   *stacks,
                    WsProgressFunc  progress,
                    gpointer        progress_data,
                    GCancellable   *cancellable,
                    GError        **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) local_error = NULL;
  guint8 magic[2] = { 0 };
  gsize n_magic = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = g_file_new_for_path (path);
  if ((in = g_file_read (file, cancellable, &local_error)) == NULL
      || !g_input_stream_read_all (G_INPUT_STREAM (in), magic, 2, &n_magic, cancellable, &local_error)
      || !g_seekable_seek (G_SEEKABLE (in), 0, G_SEEK_SET, cancellable, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_set_error (error, WS_ERROR, WS_ERROR_CANCELLED, "%s: %s", path, _("cancelled"));
      else
        g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path, local_error->message);
      return NULL;
    }

  info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, NULL);

  if (n_magic == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
    {
      g_autoptr(GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      stream = g_converter_input_stream_new (G_INPUT_STREAM (in), G_CONVERTER (gunzip));
    }
  else
    stream = g_object_ref (G_INPUT_STREAM (in));

  return load_internal (stream, path, path, stacks, G_SEEKABLE (in),
                        info ? g_file_info_get_size (info) : 0,
                        progress, progress_data, cancellable, error);
}

/**
 * ws_json_trace_sniff:
 *
 * Returns: whether @head (the first bytes of the uncompressed input) look
 * like a JSON document: an object, after optional whitespace and BOM.
 */
gboolean
ws_json_trace_sniff (const guint8 *head,
                     gsize         len)
{
  gsize i = 0;

  if (len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
    i = 3;
  while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
    i++;
  return i < len && head[i] == '{';
}

/* ---------------------------------------------------------------------- */
/* Writer */

typedef struct {
  GOutputStream *out;
  GCancellable  *cancellable;
  GString       *buf;
  GError        *error;
} Writer;

static gboolean
writer_flush (Writer *w)
{
  if (w->error == NULL && w->buf->len > 0)
    g_output_stream_write_all (w->out, w->buf->str, w->buf->len, NULL, w->cancellable, &w->error);
  g_string_truncate (w->buf, 0);
  return w->error == NULL;
}

static inline gboolean
writer_maybe_flush (Writer *w)
{
  if (w->buf->len >= READ_CHUNK)
    return writer_flush (w);
  return w->error == NULL;
}

/* A JSON string literal.  Invalid UTF-8 (a damaged symbol table) cannot be
 * written as JSON; it is replaced by U+FFFD as g_utf8_make_valid() does. */
static void
append_string (GString    *buf,
               const char *str)
{
  g_autofree char *valid = NULL;

  if (str == NULL)
    {
      g_string_append (buf, "null");
      return;
    }
  if (!g_utf8_validate (str, -1, NULL))
    str = valid = g_utf8_make_valid (str, -1);

  g_string_append_c (buf, '"');
  for (const guchar *p = (const guchar *) str; *p; p++)
    {
      switch (*p)
        {
        case '"':  g_string_append (buf, "\\\""); break;
        case '\\': g_string_append (buf, "\\\\"); break;
        case '\n': g_string_append (buf, "\\n"); break;
        case '\r': g_string_append (buf, "\\r"); break;
        case '\t': g_string_append (buf, "\\t"); break;
        case '\b': g_string_append (buf, "\\b"); break;
        case '\f': g_string_append (buf, "\\f"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf (buf, "\\u%04x", *p);
          else
            g_string_append_c (buf, *p);
        }
    }
  g_string_append_c (buf, '"');
}

static void
append_member_string (GString    *buf,
                      const char *key,
                      const char *value)
{
  g_string_append_printf (buf, ", \"%s\": ", key);
  append_string (buf, value);
}

static void
write_event (Writer        *w,
             WsTrace       *trace,
             const WsEvent *e,
             const guint32 *stack_ids,
             gboolean       explicit_null_peer)
{
  GString *b = w->buf;
  guint n_threads = ws_trace_get_n_threads (trace);

  g_string_append (b, "    {\"kind\": ");
  append_string (b, ws_event_kind_to_string (e->kind));
  g_string_append_printf (b, ", \"t\": %" G_GINT64_FORMAT, e->time);
  if (e->duration != 0)
    g_string_append_printf (b, ", \"dur\": %" G_GINT64_FORMAT, e->duration);
  g_string_append_printf (b, ", \"tid\": %d, \"cpu\": %u",
                          ws_trace_get_thread (trace, e->thread)->tid, e->cpu);
  if (e->stack != WS_STACK_EMPTY)
    g_string_append_printf (b, ", \"stack\": %u", stack_ids[e->stack]);
  if (e->state != '\0')
    {
      char state[2] = { e->state, '\0' };
      append_member_string (b, "state", state);
    }
  if (e->peer != WS_NONE)
    g_string_append_printf (b, ", \"peer\": %u", e->peer);
  else if (explicit_null_peer)
    g_string_append (b, ", \"peer\": null");
  if (e->kind == WS_EVENT_MARKER)
    {
      if (e->target != WS_NONE)
        append_member_string (b, "name", ws_trace_get_string (trace, e->target));
    }
  else if (e->target != WS_NONE && e->target < n_threads)
    g_string_append_printf (b, ", \"target\": %d", ws_trace_get_thread (trace, e->target)->tid);
  if (e->ready_latency != WS_LATENCY_UNKNOWN)
    g_string_append_printf (b, ", \"latency\": %u", e->ready_latency);
  if (e->flags != 0)
    {
      gboolean first = TRUE;

      g_string_append (b, ", \"flags\": [");
      for (guint bit = 0; bit < 8; bit++)
        {
          char name[8];

          if (!(e->flags & (1u << bit)))
            continue;
          if (!first)
            g_string_append (b, ", ");
          first = FALSE;
          if (flag_names[bit] == NULL)
            g_snprintf (name, sizeof name, "bit%u", bit);
          append_string (b, flag_names[bit] ? flag_names[bit] : name);
        }
      g_string_append_c (b, ']');
    }
  g_string_append_c (b, '}');
}

/**
 * ws_json_trace_write_stream:
 *
 * Writes @trace as a Waitscope JSON trace, one frame, stack, thread or
 * event per line.  Only the frames and stacks the trace uses are written
 * (a stack table may be shared by many traces), renumbered densely in the
 * order of their ids in the table.
 */
gboolean
ws_json_trace_write_stream (WsTrace       *trace,
                            GOutputStream *stream,
                            GCancellable  *cancellable,
                            GError       **error)
{
  WsStackTable *stacks;
  Writer w = { .out = stream, .cancellable = cancellable };
  g_autofree guint32 *stack_ids = NULL;
  g_autofree guint32 *frame_ids = NULL;
  g_autofree guint8 *pointed = NULL;
  guint n_table_stacks, n_table_frames, n_events, n_stacks = 0, n_frames = 0;
  const WsEvent *events;
  gboolean ok;

  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  stacks = ws_trace_get_stack_table (trace);
  n_table_stacks = ws_stack_table_get_n_stacks (stacks);
  n_table_frames = ws_stack_table_get_n_frames (stacks);
  n_events = ws_trace_get_n_events (trace);
  events = ws_trace_get_events (trace);

  /* Which stacks and frames this trace uses, and which unwaits a wait
   * points to (for the explicit "peer": null, see resolve()). */
  stack_ids = g_new (guint32, MAX (n_table_stacks, 1));
  frame_ids = g_new (guint32, MAX (n_table_frames, 1));
  pointed = g_new0 (guint8, MAX (n_events, 1));
  memset (stack_ids, 0xff, sizeof (guint32) * MAX (n_table_stacks, 1));
  memset (frame_ids, 0xff, sizeof (guint32) * MAX (n_table_frames, 1));
  stack_ids[WS_STACK_EMPTY] = 0;
  for (guint i = 0; i < n_events; i++)
    {
      if (events[i].stack < n_table_stacks)
        stack_ids[events[i].stack] = 0;
      if (events[i].kind == WS_EVENT_WAIT && events[i].peer < n_events)
        pointed[events[i].peer] = 1;
    }
  for (guint s = 0; s < n_table_stacks; s++)
    if (stack_ids[s] != G_MAXUINT32)
      {
        guint n;
        const WsFrameId *f = ws_stack_table_get_stack (stacks, s, &n);

        stack_ids[s] = n_stacks++;
        for (guint k = 0; k < n; k++)
          frame_ids[f[k]] = 0;
      }
  for (guint f = 0; f < n_table_frames; f++)
    if (frame_ids[f] != G_MAXUINT32)
      frame_ids[f] = n_frames++;

  w.buf = g_string_sized_new (2 * READ_CHUNK);
  g_string_append_printf (w.buf, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n  \"name\": ",
                          WS_JSON_TRACE_FORMAT, WS_JSON_TRACE_VERSION);
  append_string (w.buf, ws_trace_get_name (trace));

  g_string_append (w.buf, ",\n  \"frames\": [");
  for (guint f = 0, k = 0; f < n_table_frames && w.error == NULL; f++)
    {
      const WsFrame *frame;

      if (frame_ids[f] == G_MAXUINT32)
        continue;
      frame = ws_stack_table_get_frame (stacks, f);
      g_string_append (w.buf, k++ ? ",\n    {\"function\": " : "\n    {\"function\": ");
      append_string (w.buf, frame->function);
      append_member_string (w.buf, "module", frame->module);
      g_string_append_c (w.buf, '}');
      writer_maybe_flush (&w);
    }
  g_string_append (w.buf, n_frames ? "\n  ],\n  \"stacks\": [" : "],\n  \"stacks\": [");

  for (guint s = 0, k = 0; s < n_table_stacks && w.error == NULL; s++)
    {
      const WsFrameId *f;
      guint n;

      if (stack_ids[s] == G_MAXUINT32)
        continue;
      f = ws_stack_table_get_stack (stacks, s, &n);
      g_string_append (w.buf, k++ ? ",\n    [" : "\n    [");
      for (guint j = 0; j < n; j++)
        g_string_append_printf (w.buf, j ? ", %u" : "%u", frame_ids[f[j]]);
      g_string_append_c (w.buf, ']');
      writer_maybe_flush (&w);
    }

  g_string_append (w.buf, "\n  ],\n  \"processes\": [");
  for (guint p = 0; p < ws_trace_get_n_processes (trace); p++)
    {
      const WsProcess *process = ws_trace_get_process (trace, p);

      g_string_append_printf (w.buf, "%s\n    {\"pid\": %d", p ? "," : "", process->pid);
      if (process->name != NULL)
        append_member_string (w.buf, "name", process->name);
      g_string_append_c (w.buf, '}');
      writer_maybe_flush (&w);
    }

  g_string_append (w.buf, ws_trace_get_n_processes (trace) ? "\n  ],\n  \"threads\": [" : "],\n  \"threads\": [");
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThread *thread = ws_trace_get_thread (trace, t);

      g_string_append_printf (w.buf, "%s\n    {\"tid\": %d, \"pid\": %d", t ? "," : "",
                              thread->tid, thread->pid);
      if (thread->name != NULL)
        append_member_string (w.buf, "name", thread->name);
      g_string_append_c (w.buf, '}');
      writer_maybe_flush (&w);
    }

  g_string_append (w.buf, ws_trace_get_n_threads (trace) ? "\n  ],\n  \"events\": [" : "],\n  \"events\": [");
  for (guint i = 0; i < n_events && w.error == NULL; i++)
    {
      const WsEvent *e = &events[i];
      gboolean explicit_null = pointed[i] && e->peer == WS_NONE
                               && (e->kind == WS_EVENT_UNWAIT || e->kind == WS_EVENT_HW_SERVICE);

      g_string_append (w.buf, i ? ",\n" : "\n");
      write_event (&w, trace, e, stack_ids, explicit_null);
      if ((i & 0xfff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, &w.error))
        break;
      writer_maybe_flush (&w);
    }

  g_string_append (w.buf, n_events ? "\n  ],\n  \"scenario_instances\": [" : "],\n  \"scenario_instances\": [");
  for (guint k = 0; k < ws_trace_get_n_scenario_instances (trace); k++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, k);

      g_string_append (w.buf, k ? ",\n    {\"scenario\": " : "\n    {\"scenario\": ");
      append_string (w.buf, ws_trace_get_string (trace, inst->scenario));
      g_string_append_printf (w.buf, ", \"tid\": %d, \"t0\": %" G_GINT64_FORMAT ", \"t1\": %" G_GINT64_FORMAT,
                              ws_trace_get_thread (trace, inst->thread)->tid, inst->t0, inst->t1);
      if (inst->begin_event != WS_NONE)
        g_string_append_printf (w.buf, ", \"begin\": %u", inst->begin_event);
      if (inst->end_event != WS_NONE)
        g_string_append_printf (w.buf, ", \"end\": %u", inst->end_event);
      g_string_append_c (w.buf, '}');
      writer_maybe_flush (&w);
    }
  g_string_append (w.buf, ws_trace_get_n_scenario_instances (trace) ? "\n  ]\n}\n" : "]\n}\n");

  writer_flush (&w);
  g_string_free (w.buf, TRUE);

  ok = w.error == NULL;
  if (!ok)
    g_propagate_error (error, w.error);
  return ok;
}

/**
 * ws_json_trace_save:
 * @path: where to write; a name ending in ".gz" is gzip-compressed
 *
 * Writes through a temporary file renamed into place at the end, so a
 * failed or cancelled save never leaves a half-written trace behind (nor
 * destroys the file it would have replaced).
 */
gboolean
ws_json_trace_save (WsTrace       *trace,
                    const char    *path,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GOutputStream) stream = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  file = g_file_new_for_path (path);
  out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, cancellable, &local_error);
  if (out == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path, local_error->message);
      return FALSE;
    }

  if (g_str_has_suffix (path, ".gz"))
    {
      g_autoptr(GZlibCompressor) gzip = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
      stream = g_converter_output_stream_new (G_OUTPUT_STREAM (out), G_CONVERTER (gzip));
    }
  else
    stream = g_object_ref (G_OUTPUT_STREAM (out));

  if (!ws_json_trace_write_stream (trace, stream, cancellable, &local_error)
      || !g_output_stream_close (stream, cancellable, &local_error))
    {
      g_autoptr(GCancellable) abandon = g_cancellable_new ();

      /* Closing with a cancelled cancellable discards the temporary file
       * and keeps whatever was at @path before. */
      g_cancellable_cancel (abandon);
      g_output_stream_close (G_OUTPUT_STREAM (out), abandon, NULL);

      if (local_error->domain == WS_ERROR)
        g_propagate_error (error, g_steal_pointer (&local_error));
      else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_set_error (error, WS_ERROR, WS_ERROR_CANCELLED, "%s: %s", path, _("cancelled"));
      else
        g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path, local_error->message);
      return FALSE;
    }

  return TRUE;
}
