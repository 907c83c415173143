/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Key files with line numbers in their errors (see ws-key-file.h).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-error.h"
#include "ws-key-file.h"

/* The end of line @n (1-based) of @contents, or its end. */
static gsize
end_of_line (const char *contents,
             gsize       length,
             guint       n)
{
  const char *s = contents, *end = contents + length;

  for (guint i = 0; i < n; i++)
    {
      const char *nl = memchr (s, '\n', end - s);
      if (nl == NULL)
        return length;
      s = nl + 1;
    }
  return s - contents;
}

/*
 * The line GKeyFile stops at: the shortest run of first lines that fails
 * to parse.  A syntax error is local to its line (a line that is not a
 * group, key=value or comment; a key before the first group), so the
 * failing prefixes are exactly those that reach that line: bisect.
 */
static guint
error_line (const char *contents,
            gsize       length)
{
  guint lo = 1, hi = 1;

  for (const char *s = contents; (s = memchr (s, '\n', contents + length - s)) != NULL; s++)
    hi++;
  while (lo < hi)
    {
      g_autoptr(GKeyFile) key_file = g_key_file_new ();
      guint mid = lo + (hi - lo) / 2;

      if (g_key_file_load_from_data (key_file, contents, end_of_line (contents, length, mid),
                                     G_KEY_FILE_NONE, NULL))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * ws_key_file_load_data:
 * @name: the file's name, for messages
 *
 * Returns: (transfer full) (nullable): the key file, or %NULL with a
 *   %WS_ERROR whose message starts with "NAME:LINE: "
 */
GKeyFile *
ws_key_file_load_data (const char  *name,
                       const char  *contents,
                       gsize        length,
                       GError     **error)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  const char *nul;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (contents != NULL || length == 0, NULL);

  if ((nul = memchr (contents, '\0', length)) != NULL)
    {
      guint line = 1;

      for (const char *c = contents; c < nul && (c = memchr (c, '\n', nul - c)) != NULL; c++)
        line++;
      g_set_error (error, WS_ERROR, WS_ERROR_BINARY, "%s:%u: %s", name, line,
                   _("binary data (a NUL byte), not a key file"));
      ws_error_make_valid (error);
      return NULL;
    }
  if (!g_key_file_load_from_data (key_file, contents, length, G_KEY_FILE_NONE, &local_error))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u: %s", name,
                   error_line (contents, length), local_error->message);
      ws_error_make_valid (error);
      return NULL;
    }
  return g_steal_pointer (&key_file);
}

/**
 * ws_key_file_load:
 * @contents: (out) (optional): the text, to find lines in later
 * @length: (out) (optional): its length
 *
 * Returns: (transfer full) (nullable): the key file of @path, or %NULL
 *   with a %WS_ERROR ("PATH: …" if it cannot be read, "PATH:LINE: …" if
 *   it is not a key file)
 */
GKeyFile *
ws_key_file_load (const char  *path,
                  char       **contents,
                  gsize       *length,
                  GError     **error)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) local_error = NULL;
  GKeyFile *key_file;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &text, &len, &local_error))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path, local_error->message);
      ws_error_make_valid (error);
      return NULL;
    }
  if ((key_file = ws_key_file_load_data (path, text, len, error)) == NULL)
    return NULL;
  if (contents != NULL)
    *contents = g_steal_pointer (&text);
  if (length != NULL)
    *length = len;
  return key_file;
}

static const char *
trim (const char *s,
      const char *end,
      const char **trimmed_end)
{
  while (s < end && g_ascii_isspace (*s))
    s++;
  while (end > s && g_ascii_isspace (end[-1]))
    end--;
  *trimmed_end = end;
  return s;
}

static gboolean
equal (const char *s,
       const char *end,
       const char *word)
{
  gsize len = strlen (word);
  return (gsize) (end - s) == len && memcmp (s, word, len) == 0;
}

/**
 * ws_key_file_find_line:
 * @group: a group name
 * @key: (nullable): a key of @group, or %NULL for the group's header
 *
 * Returns: the line (1-based) of @key in @group, the last one if it is
 *   given more than once (GKeyFile keeps the last); of the group's header
 *   if @key is %NULL or not there; 0 if the group is not there either
 */
guint
ws_key_file_find_line (const char *contents,
                       gsize       length,
                       const char *group,
                       const char *key)
{
  const char *s = contents, *end = contents + length;
  guint line = 0, group_line = 0, key_line = 0;
  gboolean in_group = FALSE;

  g_return_val_if_fail (contents != NULL || length == 0, 0);
  g_return_val_if_fail (group != NULL, 0);

  while (s < end)
    {
      const char *nl = memchr (s, '\n', end - s);
      const char *line_end = nl ? nl : end, *t, *t_end;

      line++;
      t = trim (s, line_end, &t_end);
      if (t < t_end && *t == '[' && t_end[-1] == ']')
        {
          in_group = equal (t + 1, t_end - 1, group);
          if (in_group && group_line == 0)
            group_line = line;
        }
      else if (in_group && key != NULL && t < t_end && *t != '#')
        {
          const char *eq = memchr (t, '=', t_end - t), *k_end;

          if (eq != NULL)
            {
              const char *k = trim (t, eq, &k_end);
              if (equal (k, k_end, key))
                key_line = line;
            }
        }
      s = nl ? nl + 1 : end;
    }
  return key_line ? key_line : group_line;
}
