/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The session file's tests' one way to write a session's text to a
 * temporary path and read it back (tests/test-session-file.c,
 * tests/test-cli-untrusted-session.c).
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "ws-session-test-util.h"

char *
ws_session_test_make_dir (const char *prefix)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *template = g_strdup_printf ("%s-XXXXXX", prefix);
  char *dir = g_dir_make_tmp (template, &error);

  g_assert_no_error (error);
  return dir;
}

void
ws_session_test_remove_dir (const char *dir)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        ws_session_test_remove_dir (path);
      else
        g_assert_cmpint (g_unlink (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

char *
ws_session_test_write (const char *dir,
                       const char *name,
                       const char *text,
                       gssize      len)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);

  g_file_set_contents (path, text, len, &error);
  g_assert_no_error (error);
  return path;
}

WsSessionFile *
ws_session_test_load_text (const char  *dir,
                           const char  *name,
                           const char  *text,
                           gssize       len,
                           GError     **error)
{
  g_autofree char *path = ws_session_test_write (dir, name, text, len);

  return ws_session_file_load (path, error);
}

char *
ws_session_test_add_member (const char *data,
                            const char *member)
{
  g_autofree char *object = g_strchomp (g_strdup (data));
  size_t len = strlen (object);

  g_assert_true (len > 0 && object[len - 1] == '}');
  object[len - 1] = '\0';
  return g_strdup_printf ("%s, %s}", object, member);
}
