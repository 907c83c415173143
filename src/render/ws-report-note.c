/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The notes' light markup to HTML and to Pango markup.  Both outputs are
 * XML-like, so one converter with two tag sets does it; the text between
 * marks is escaped, so a note can never inject markup into the report.
 */
#include "config.h"

#include <string.h>

#include "ws-report-note.h"

typedef struct {
  const char *em[2];
  const char *strong[2];
  const char *code[2];
  const char *para[2];
  const char *list[2];
  const char *item[2];
  const char *line_break;
} Tags;

static const Tags html_tags = {
  { "<em>", "</em>" }, { "<strong>", "</strong>" }, { "<code>", "</code>" },
  { "<p>", "</p>\n" }, { "<ul>\n", "</ul>\n" }, { "<li>", "</li>\n" }, "<br>\n",
};

static const Tags pango_tags = {
  { "<i>", "</i>" }, { "<b>", "</b>" }, { "<tt>", "</tt>" },
  { "", "\n\n" }, { "", "\n" }, { "  • ", "\n" }, "\n",
};

/* A mark opens only if it closes later on the same line. */
static gboolean
closes_later (const char *p,
              const char *mark)
{
  return strstr (p, mark) != NULL;
}

static void
append_inline (GString    *out,
               const char *line,
               const Tags *tags)
{
  gboolean em = FALSE, strong = FALSE, code = FALSE;
  const char *p = line;

  while (*p)
    {
      if (!code && g_str_has_prefix (p, "**") && (strong || closes_later (p + 2, "**")))
        {
          g_string_append (out, tags->strong[strong]);
          strong = !strong;
          p += 2;
        }
      else if (!code && *p == '*' && (em || closes_later (p + 1, "*")))
        {
          g_string_append (out, tags->em[em]);
          em = !em;
          p++;
        }
      else if (*p == '`' && (code || closes_later (p + 1, "`")))
        {
          g_string_append (out, tags->code[code]);
          code = !code;
          p++;
        }
      else
        {
          const char *next = g_utf8_next_char (p);
          g_autofree char *escaped = g_markup_escape_text (p, next - p);
          g_string_append (out, escaped);
          p = next;
        }
    }
  /* Unbalanced by construction never happens, but close defensively. */
  if (code)
    g_string_append (out, tags->code[1]);
  if (em)
    g_string_append (out, tags->em[1]);
  if (strong)
    g_string_append (out, tags->strong[1]);
}

static char *
convert (const char *note,
         const Tags *tags)
{
  g_auto(GStrv) lines = g_strsplit (note ? note : "", "\n", -1);
  GString *out = g_string_new (NULL);
  gboolean in_para = FALSE, in_list = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *line = g_strstrip (g_strdup (lines[i]));
      gboolean item = g_str_has_prefix (line, "- ") || g_str_has_prefix (line, "* ");

      if ((*line == '\0' || item) && in_para)
        {
          g_string_append (out, tags->para[1]);
          in_para = FALSE;
        }
      if (!item && in_list)
        {
          g_string_append (out, tags->list[1]);
          in_list = FALSE;
        }
      if (*line == '\0')
        continue;
      if (item)
        {
          if (!in_list)
            g_string_append (out, tags->list[0]);
          in_list = TRUE;
          g_string_append (out, tags->item[0]);
          append_inline (out, line + 2, tags);
          g_string_append (out, tags->item[1]);
          continue;
        }
      if (in_para)
        g_string_append (out, tags->line_break);
      else
        g_string_append (out, tags->para[0]);
      in_para = TRUE;
      append_inline (out, line, tags);
    }
  if (in_para)
    g_string_append (out, tags->para[1]);
  if (in_list)
    g_string_append (out, tags->list[1]);
  return g_string_free (out, FALSE);
}

char *
ws_report_note_to_html (const char *note)
{
  return convert (note, &html_tags);
}

/* Pango markup, for the PDF and the presentation; trailing blank lines trimmed. */
char *
ws_report_note_to_pango (const char *note)
{
  char *markup = convert (note, &pango_tags);
  return g_strchomp (markup);
}
