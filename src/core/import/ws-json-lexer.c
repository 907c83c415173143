/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The JSON trace reader's pull lexer: one token at a time from a
 * GInputStream, each with its line, so that errors name the line and no
 * document tree is ever built (see ws-json-trace.c for why).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-json-private.h"

void
ws_json_reader_clear (Reader *r)
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
  g_clear_pointer (&r->lives, g_hash_table_unref);
  g_clear_pointer (&r->event_lives, g_hash_table_unref);
}

gboolean
ws_json_reader_fail (Reader     *r,
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
    return ws_json_reader_fail (r, WS_ERROR_CANCELLED, r->line, "%s", _("cancelled"));

  n = g_input_stream_read (r->stream, r->buf, READ_CHUNK, r->cancellable, &local_error);
  if (n < 0)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return ws_json_reader_fail (r, WS_ERROR_CANCELLED, r->line, "%s", _("cancelled"));
      /* GZlibDecompressor says so when a gzip stream is cut short. */
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
        return ws_json_reader_fail (r, WS_ERROR_TRUNCATED, r->line,
                            _("the compressed data ends early (%s)"), local_error->message);
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA))
        return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line,
                            _("corrupt compressed data (%s)"), local_error->message);
      /* The gzip ceiling (ws-inflate-limit.h) says what it is itself. */
      if (local_error->domain == WS_ERROR)
        return ws_json_reader_fail (r, (WsError) local_error->code, r->line, "%s", local_error->message);
      return ws_json_reader_fail (r, WS_ERROR_IO, r->line, _("read error: %s"), local_error->message);
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
int
ws_json_peek_byte (Reader *r)
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

      if ((c = ws_json_peek_byte (r)) == -2)
        return FALSE;
      if (c == -1)
        return ws_json_reader_fail (r, WS_ERROR_TRUNCATED, r->line, "%s",
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
                return ws_json_reader_fail (r, WS_ERROR_TOO_LONG, line,
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
        return ws_json_reader_fail (r, WS_ERROR_BINARY, r->line, "%s", _("binary data (a NUL byte)"));
      if (c < 0x20)
        return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line,
                            _("control character 0x%02x in a string (write it as an escape)"), c);

      /* A backslash escape. */
      r->pos++;
      if ((c = ws_json_peek_byte (r)) < 0)
        return c == -2 ? FALSE : ws_json_reader_fail (r, WS_ERROR_TRUNCATED, r->line, "%s",
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
                    if ((c = ws_json_peek_byte (r)) == -2)
                      return FALSE;
                    if (c < 0 || !g_ascii_isxdigit (c))
                      return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line, "%s",
                                          _("invalid \\u escape in a string"));
                    h = g_ascii_xdigit_value (c);
                    v = v * 16 + h;
                    r->pos++;
                  }

                if (pass == 0)
                  {
                    if (v >= 0xDC00 && v <= 0xDFFF)
                      return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line, "%s",
                                          _("invalid \\u escape in a string (lone low surrogate)"));
                    if (v < 0xD800 || v > 0xDBFF)
                      {
                        u = v;
                        break;
                      }
                    /* A high surrogate: the low half must follow. */
                    u = v;
                    if (ws_json_peek_byte (r) != '\\')
                      return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line, "%s",
                                          _("invalid \\u escape in a string (lone high surrogate)"));
                    r->pos++;
                    if (ws_json_peek_byte (r) != 'u')
                      return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line, "%s",
                                          _("invalid \\u escape in a string (lone high surrogate)"));
                    r->pos++;
                  }
                else
                  {
                    if (v < 0xDC00 || v > 0xDFFF)
                      return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line, "%s",
                                          _("invalid \\u escape in a string (lone high surrogate)"));
                    u = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
                  }
              }

            if (u == 0)
              return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line, "%s",
                                  _("\\u0000 is not allowed in a string"));
            if (keep)
              g_string_append_unichar (r->str, u);
            break;
          }
        default:
          return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line,
                              _("invalid escape “\\%c” in a string"), g_ascii_isprint (c) ? c : '?');
        }

      if (keep && length > MAX_STRING_BYTES)
        return ws_json_reader_fail (r, WS_ERROR_TOO_LONG, line,
                            _("a string longer than %u bytes"), (guint) MAX_STRING_BYTES);
    }

  if (keep && !g_utf8_validate_len (r->str->str, r->str->len, NULL))
    return ws_json_reader_fail (r, WS_ERROR_PARSE, line, "%s", _("a string is not valid UTF-8"));

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

      if ((c = ws_json_peek_byte (r)) == -2)
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
        return ws_json_reader_fail (r, WS_ERROR_PARSE, line, "%s", _("a number with too many digits"));
      r->num[n++] = c;
      r->pos++;
    }

done:
  r->num[n] = '\0';
  return TRUE;

bad:
  r->num[n] = '\0';
  return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line, _("malformed number “%s”"), r->num);
}

static gboolean
lex_literal (Reader *r,
             Token  *tok)
{
  char word[8];
  gsize n = 0;
  int c;

  while ((c = ws_json_peek_byte (r)) >= 0 && g_ascii_isalpha (c) && n + 1 < sizeof word)
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
    return ws_json_reader_fail (r, WS_ERROR_PARSE, tok->line, _("unexpected word “%s”"), word);
  return TRUE;
}

/* Reads the next token; a string's value is kept in r->str only if @keep. */
gboolean
ws_json_next_token (Reader   *r,
            gboolean  keep,
            Token    *tok)
{
  int c;

  for (;;)
    {
      if ((c = ws_json_peek_byte (r)) == -2)
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
      return ws_json_reader_fail (r, WS_ERROR_BINARY, r->line, "%s", _("binary data (a NUL byte)"));
    default:
      if (c >= 0x20 && c < 0x7f)
        return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line, _("unexpected character “%c”"), c);
      return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line, _("unexpected byte 0x%02x"), c);
    }
}

const char *
ws_json_token_description (TokenType type)
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
  return ws_json_reader_fail (r, tok->type == TOK_EOF ? WS_ERROR_TRUNCATED : WS_ERROR_PARSE, tok->line,
                      _("expected %s, found %s"), expected, ws_json_token_description (tok->type));
}

static gboolean
expect (Reader     *r,
        TokenType   type,
        const char *expected)
{
  Token tok;

  if (!ws_json_next_token (r, FALSE, &tok))
    return FALSE;
  if (tok.type != type)
    return unexpected (r, &tok, expected);
  return TRUE;
}

/*
 * Iterating over an object's members or an array's elements:
 *
 *   gboolean first = TRUE, more;
 *   while (ws_json_iter_object (r, &first, &more) && more) { key in r->str; read value }
 *
 * The opening bracket has already been read.
 */
gboolean
ws_json_iter_object (Reader   *r,
             gboolean *first,
             gboolean *more)
{
  Token tok;

  *more = FALSE;
  if (!ws_json_next_token (r, TRUE, &tok))
    return FALSE;
  if (!*first)
    {
      if (tok.type == TOK_RBRACE)
        return TRUE;
      if (tok.type != TOK_COMMA)
        return unexpected (r, &tok, _("“,” or “}”"));
      if (!ws_json_next_token (r, TRUE, &tok))
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

gboolean
ws_json_skip_value (Reader      *r,
            const Token *tok,
            guint        depth)
{
  gboolean first = TRUE, more;
  Token t;

  if (depth > MAX_DEPTH)
    return ws_json_reader_fail (r, WS_ERROR_PARSE, tok->line,
                        _("nested deeper than %u levels"), (guint) MAX_DEPTH);

  switch (tok->type)
    {
    case TOK_STRING: case TOK_NUMBER: case TOK_TRUE: case TOK_FALSE: case TOK_NULL:
      return TRUE;
    case TOK_LBRACE:
      while (ws_json_iter_object (r, &first, &more) && more)
        if (!ws_json_next_token (r, FALSE, &t) || !ws_json_skip_value (r, &t, depth + 1))
          return FALSE;
      return r->error == NULL;
    case TOK_LBRACKET:
      for (;;)
        {
          if (!ws_json_next_token (r, FALSE, &t))
            return FALSE;
          if (t.type == TOK_RBRACKET && first)
            return TRUE;
          if (!first)
            {
              if (t.type == TOK_RBRACKET)
                return TRUE;
              if (t.type != TOK_COMMA)
                return unexpected (r, &t, _("“,” or “]”"));
              if (!ws_json_next_token (r, FALSE, &t))
                return FALSE;
            }
          first = FALSE;
          if (!ws_json_skip_value (r, &t, depth + 1))
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
gboolean
ws_json_next_element (Reader   *r,
              gboolean *first,
              gboolean  keep,
              Token    *tok)
{
  if (!ws_json_next_token (r, keep, tok))
    return FALSE;
  if (tok->type == TOK_RBRACKET)
    return TRUE;
  if (!*first)
    {
      if (tok->type != TOK_COMMA)
        return unexpected (r, tok, _("“,” or “]”"));
      if (!ws_json_next_token (r, keep, tok))
        return FALSE;
      if (tok->type == TOK_RBRACKET)
        return unexpected (r, tok, _("a value"));
    }
  *first = FALSE;
  return TRUE;
}

gboolean
ws_json_to_int64 (Reader      *r,
          const Token *tok,
          const char  *what,
          gint64       min,
          gint64       max,
          gint64      *out)
{
  gint64 v;

  if (tok->type != TOK_NUMBER)
    return ws_json_reader_fail (r, WS_ERROR_PARSE, tok->line,
                        _("%s: expected an integer, found %s"), what, ws_json_token_description (tok->type));
  if (!r->num_is_int || !g_ascii_string_to_signed (r->num, 10, G_MININT64, G_MAXINT64, &v, NULL))
    return ws_json_reader_fail (r, WS_ERROR_PARSE, tok->line,
                        _("%s: expected an integer, found “%s”"), what, r->num);
  if (v < min || v > max)
    return ws_json_reader_fail (r, WS_ERROR_PARSE, tok->line,
                        _("%s: %s is out of range (%lld … %lld)"),
                        what, r->num, (long long) min, (long long) max);
  *out = v;
  return TRUE;
}

gboolean
ws_json_read_int (Reader     *r,
          const char *what,
          gint64      min,
          gint64      max,
          gint64     *out)
{
  Token tok;
  return ws_json_next_token (r, FALSE, &tok) && ws_json_to_int64 (r, &tok, what, min, max, out);
}

/* Reads a string value into r->str. */
gboolean
ws_json_read_string (Reader     *r,
             const char *what)
{
  Token tok;

  if (!ws_json_next_token (r, TRUE, &tok))
    return FALSE;
  if (tok.type != TOK_STRING)
    return ws_json_reader_fail (r, WS_ERROR_PARSE, tok.line,
                        _("%s: expected a string, found %s"), what, ws_json_token_description (tok.type));
  return TRUE;
}

gboolean
ws_json_begin_array (Reader     *r,
             const char *what)
{
  Token tok;

  if (!ws_json_next_token (r, FALSE, &tok))
    return FALSE;
  if (tok.type != TOK_LBRACKET)
    return ws_json_reader_fail (r, tok.type == TOK_EOF ? WS_ERROR_TRUNCATED : WS_ERROR_PARSE, tok.line,
                        _("“%s” must be an array, found %s"), what, ws_json_token_description (tok.type));
  return TRUE;
}

gboolean
ws_json_expect_object (Reader      *r,
               const Token *tok,
               const char  *what,
               guint        index)
{
  if (tok->type != TOK_LBRACE)
    return ws_json_reader_fail (r, tok->type == TOK_EOF ? WS_ERROR_TRUNCATED : WS_ERROR_PARSE, tok->line,
                        _("%s %u: expected an object, found %s"), what, index,
                        ws_json_token_description (tok->type));
  return TRUE;
}

