/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * LTTng kernel traces in CTF (docs/importers.md, "LTTng CTF"): a trace
 * directory, its `metadata` file, or a tar archive (gzip or not) of one.
 *
 * A CTF trace is a directory, not a file: its `metadata` (a packetised
 * binary file starting with the magic 0x75d11d57, or plain text starting
 * "/ * CTF 1.8", without the space) describes the binary stream files beside it.  This file
 * finds the trace directories (a directory given, the one holding a
 * `metadata` file given, or a tar archive unpacked to a temporary
 * directory) and hands them to ws-ctf-reader.c, which reads them through
 * libbabeltrace2 and feeds the perf importer's passes.
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-ctf-importer.h"
#include "ws-ctf-reader.h"
#include "ws-error.h"

/* The magic of a packetised metadata file, in either byte order. */
static const guint8 ctf_magic_le[4] = { 0x57, 0x1d, 0xd1, 0x75 };
static const guint8 ctf_magic_be[4] = { 0x75, 0xd1, 0x1d, 0x57 };
/* A directory is searched this deep for its traces' metadata files: an
 * LTTng session holds kernel/ and ust/uid/UID/64-bit/. */
#define MAX_DEPTH 4
#define TAR_BLOCK 512

static gboolean
is_tar (const guint8 *head,
        gsize         len)
{
  return len >= TAR_BLOCK && memcmp (head + 257, "ustar", 5) == 0;
}

/**
 * ws_ctf_importer_sniff:
 * @head: the first bytes of a file, inflated if it was gzip
 *
 * Returns: whether they start a CTF metadata file (packetised or text), or
 *   a tar archive (which the loader then searches for a CTF trace)
 */
gboolean
ws_ctf_importer_sniff (const guint8 *head,
                       gsize         len)
{
  g_return_val_if_fail (head != NULL || len == 0, FALSE);

  if (len >= 4 && (memcmp (head, ctf_magic_le, 4) == 0 || memcmp (head, ctf_magic_be, 4) == 0))
    return TRUE;
  if (len >= 9 && memcmp (head, "/* CTF 1.", 9) == 0)
    return TRUE;
  return is_tar (head, len);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static void
find_metadata (const char *dir,
               guint       depth,
               GPtrArray  *found)
{
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) subdirs = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (g_file_test (metadata, G_FILE_TEST_IS_REGULAR))
    {
      g_ptr_array_add (found, g_strdup (dir));
      return;
    }
  if (depth >= MAX_DEPTH || (d = g_dir_open (dir, 0, NULL)) == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      char *sub = g_build_filename (dir, name, NULL);

      if (g_file_test (sub, G_FILE_TEST_IS_DIR) && !g_file_test (sub, G_FILE_TEST_IS_SYMLINK))
        g_ptr_array_add (subdirs, sub);
      else
        g_free (sub);
    }
  /* Sorted, so that a session's traces come in the same order everywhere. */
  g_ptr_array_sort (subdirs, compare_names);
  for (guint i = 0; i < subdirs->len; i++)
    find_metadata (subdirs->pdata[i], depth + 1, found);
}

/* The directories under @dir (itself included) holding a `metadata` file. */
static GPtrArray *
trace_dirs (const char *dir)
{
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);

  find_metadata (dir, 0, found);
  return found;
}

/**
 * ws_ctf_find_metadata:
 * @dir: a directory
 *
 * Returns: (transfer full) (nullable): the first `metadata` file in @dir or
 *   its subdirectories (a few levels down), for the loader to sniff
 */
char *
ws_ctf_find_metadata (const char *dir)
{
  g_autoptr(GPtrArray) found = trace_dirs (dir);

  return found->len > 0 ? g_build_filename (found->pdata[0], "metadata", NULL) : NULL;
}

static gboolean
remove_tree (const char *path)
{
  g_autoptr(GDir) d = NULL;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR) || g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    return g_unlink (path) == 0;
  if ((d = g_dir_open (path, 0, NULL)) != NULL)
    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *sub = g_build_filename (path, name, NULL);
        remove_tree (sub);
      }
  return g_rmdir (path) == 0;
}

/* A tar header's octal (or GNU base-256) number; -1 if it is neither. */
static gint64
tar_number (const guint8 *field,
            gsize         len)
{
  gint64 v = 0;
  gsize i = 0;

  if (field[0] & 0x80)
    {
      for (i = 1; i < len; i++)
        {
          if (v > G_MAXINT64 >> 8)
            return -1;
          v = (v << 8) | field[i];
        }
      return v;
    }
  while (i < len && field[i] == ' ')
    i++;
  for (; i < len && field[i] >= '0' && field[i] <= '7'; i++)
    {
      if (v > G_MAXINT64 >> 3)
        return -1;
      v = v * 8 + (field[i] - '0');
    }
  if (i < len && field[i] != 0 && field[i] != ' ')
    return -1;
  return v;
}

static gboolean
tar_checksum_ok (const guint8 *h)
{
  gint64 want = tar_number (h + 148, 8);
  gint64 sum = 0;

  for (guint i = 0; i < TAR_BLOCK; i++)
    sum += (i >= 148 && i < 156) ? ' ' : h[i];
  return want == sum;
}

/* @name made safe under the extraction directory: no absolute path, no
 * "..": NULL if nothing is left. */
static char *
safe_relative (const char *name)
{
  g_auto(GStrv) parts = g_strsplit (name, "/", -1);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();

  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (*parts[i] == '\0' || g_str_equal (parts[i], "."))
        continue;
      if (g_str_equal (parts[i], ".."))
        return NULL;
      g_ptr_array_add (kept, parts[i]);
    }
  if (kept->len == 0)
    return NULL;
  g_ptr_array_add (kept, NULL);
  return g_build_filenamev ((char **) kept->pdata);
}

static gboolean
tar_fail (GError    **error,
          const char *display_name,
          guint64     offset,
          const char *problem)
{
  g_autofree char *offset_text = g_strdup_printf ("%" G_GUINT64_FORMAT, offset);

  g_set_error (error, WS_ERROR, WS_ERROR_PARSE, _("%s:1: byte %s of the tar archive: %s"),
               display_name, offset_text, problem);
  return FALSE;
}

/* What a failed read of the archive means to the user. */
static const char *
tar_read_problem (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
    return _("the compressed data ends early: the archive was cut short");
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA))
    return _("corrupt compressed data");
  return error->message;
}

/* Copies @size bytes of @in to @out (NULL: skips them), then the padding
 * to the next block. */
static gboolean
tar_copy (GInputStream  *in,
          FILE          *out,
          gint64         size,
          GCancellable  *cancellable,
          GError       **error)
{
  guint8 buffer[64 * 1024];
  gint64 left = size + ((TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK);
  gint64 data_left = size;

  while (left > 0)
    {
      gsize n = 0, want = (gsize) MIN (left, (gint64) sizeof buffer);

      if (!g_input_stream_read_all (in, buffer, want, &n, cancellable, error))
        return FALSE;
      if (n < want)
        {
          g_set_error_literal (error, WS_ERROR, WS_ERROR_TRUNCATED, _("the archive ends inside a file: it was cut short"));
          return FALSE;
        }
      if (out != NULL && data_left > 0 && fwrite (buffer, 1, (gsize) MIN (data_left, (gint64) n), out) != (gsize) MIN (data_left, (gint64) n))
        {
          g_set_error_literal (error, WS_ERROR, WS_ERROR_IO, g_strerror (errno));
          return FALSE;
        }
      data_left -= MIN (data_left, (gint64) n);
      left -= n;
    }
  return TRUE;
}

/*
 * Unpacks the tar archive @stream (gzip inflated within the decompression
 * ceiling) into @dir: regular files and directories only, GNU long names
 * and POSIX `path` records understood, every name kept under @dir.
 */
static gboolean
untar (GInputStream  *stream,
       gboolean       compressed,
       const char    *dir,
       const char    *display_name,
       GCancellable  *cancellable,
       GError       **error)
{
  g_autoptr(GInputStream) in = ws_importer_text_stream (stream, compressed);
  g_autofree char *long_name = NULL;
  guint8 h[TAR_BLOCK];
  guint64 offset = 0;

  for (;;)
    {
      g_autoptr(GError) local_error = NULL;
      g_autofree char *name = NULL, *relative = NULL, *target = NULL;
      gsize n = 0;
      gint64 size;
      guint8 type;

      if (!g_input_stream_read_all (in, h, TAR_BLOCK, &n, cancellable, &local_error))
        return tar_fail (error, display_name, offset, tar_read_problem (local_error));
      if (n == 0)
        return TRUE;   /* no end-of-archive blocks: still a whole archive */
      if (n < TAR_BLOCK)
        return tar_fail (error, display_name, offset, _("the archive ends inside a header: it was cut short"));
      if (h[0] == 0)
        return TRUE;   /* the end-of-archive block */
      if (!tar_checksum_ok (h))
        return tar_fail (error, display_name, offset, _("a header whose checksum is wrong (damaged data)"));
      size = tar_number (h + 124, 12);
      if (size < 0)
        return tar_fail (error, display_name, offset, _("a header whose size is not a number"));
      type = h[156];
      offset += TAR_BLOCK;

      if (type == 'L' || type == 'x')
        {
          /* A GNU long name, or POSIX extended attributes: read them
           * (bounded) for the next entry's name. */
          g_autofree char *text = NULL;
          gsize got = 0;

          if (size > 64 * 1024)
            return tar_fail (error, display_name, offset, _("a long name or attribute record over 64 KiB"));
          text = g_malloc0 (size + 1);
          if (!g_input_stream_read_all (in, text, size, &got, cancellable, &local_error) || got < (gsize) size)
            return tar_fail (error, display_name, offset, _("the archive ends inside a file: it was cut short"));
          if (size % TAR_BLOCK != 0 &&
              g_input_stream_skip (in, TAR_BLOCK - size % TAR_BLOCK, cancellable, &local_error) < 0)
            return tar_fail (error, display_name, offset, local_error->message);
          offset += size + (TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK;
          g_free (long_name);
          if (type == 'L')
            long_name = g_strndup (text, size);
          else
            {
              const char *path = strstr (text, " path=");
              long_name = path != NULL ? g_strndup (path + 6, strcspn (path + 6, "\n")) : NULL;
            }
          continue;
        }

      if (long_name != NULL)
        name = g_steal_pointer (&long_name);
      else if (memcmp (h + 257, "ustar", 5) == 0 && h[345] != 0)
        name = g_strdup_printf ("%.155s/%.100s", (const char *) h + 345, (const char *) h);
      else
        name = g_strndup ((const char *) h, 100);
      relative = safe_relative (name);
      target = relative != NULL ? g_build_filename (dir, relative, NULL) : NULL;

      if (target != NULL && type == '5')
        g_mkdir_with_parents (target, 0700);
      if (target != NULL && (type == '0' || type == 0 || type == '7'))
        {
          g_autofree char *parent = g_path_get_dirname (target);
          FILE *out;
          gboolean ok;

          g_mkdir_with_parents (parent, 0700);
          if ((out = g_fopen (target, "wb")) == NULL)
            return tar_fail (error, display_name, offset, g_strerror (errno));
          ok = tar_copy (in, out, size, cancellable, &local_error);
          fclose (out);
          if (!ok)
            return tar_fail (error, display_name, offset, tar_read_problem (local_error));
        }
      else if (!tar_copy (in, NULL, size, cancellable, &local_error))
        return tar_fail (error, display_name, offset, tar_read_problem (local_error));
      offset += size + (TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK;
    }
}

/* Reads the traces under @dir; @display_name names them in messages. */
static WsTrace *
load_dir (const char     *dir,
          const char     *display_name,
          gboolean        from_archive,
          WsStackTable   *stacks,
          WsProgressFunc  progress,
          gpointer        progress_data,
          GCancellable   *cancellable,
          GError        **error)
{
  g_autoptr(GPtrArray) dirs = trace_dirs (dir);

  if (dirs->len == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:1: %s", display_name,
                   from_archive ? _("a tar archive with no CTF trace in it (no file called “metadata”)")
                                : _("a directory with no CTF trace in it (no file called “metadata”)"));
      return NULL;
    }
#ifdef HAVE_BABELTRACE2
  g_ptr_array_add (dirs, NULL);
  return ws_ctf_read ((const char * const *) dirs->pdata, display_name, stacks, progress, progress_data,
                      cancellable, error);
#else
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s:1: %s", display_name,
               _("an LTTng (CTF) trace, but this build of Waitscope cannot read LTTng traces: "
                 "it was built without libbabeltrace2 (Debian: libbabeltrace2-dev)"));
  return NULL;
#endif
}

static WsTrace *
load_archive (GInputStream   *stream,
              const char     *display_name,
              gboolean        compressed,
              WsStackTable   *stacks,
              WsProgressFunc  progress,
              gpointer        progress_data,
              GCancellable   *cancellable,
              GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("waitscope-ctf-XXXXXX", &local_error);
  WsTrace *trace = NULL;

  if (dir == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", display_name, local_error->message);
      return NULL;
    }
  if (untar (stream, compressed, dir, display_name, cancellable, &local_error))
    trace = load_dir (dir, display_name, TRUE, stacks, progress, progress_data, cancellable, &local_error);
  remove_tree (dir);
  if (trace == NULL && local_error != NULL && g_str_has_prefix (local_error->message, dir))
    {
      /* A file of the archive (its kallsyms, say) named by its place in
       * the temporary folder, which the user never saw and which is gone
       * now: the archive is named instead, then the file within it. */
      const char *member = local_error->message + strlen (dir);
      char *message;

      while (*member == G_DIR_SEPARATOR)
        member++;
      message = g_strdup_printf ("%s:1: %s", display_name, member);
      g_free (local_error->message);
      local_error->message = message;
    }
  if (trace == NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return trace;
}

/**
 * ws_ctf_importer_load:
 * @path: a CTF trace directory (or a directory holding some), its
 *   `metadata` file, or a tar archive of one, gzip-compressed or not
 *
 * Returns: (transfer full): the trace, or %NULL with @error set to a
 *   %WS_ERROR whose message starts "PATH:1: "
 */
WsTrace *
ws_ctf_importer_load (const char     *path,
                      WsStackTable   *stacks,
                      WsProgressFunc  progress,
                      gpointer        progress_data,
                      GCancellable   *cancellable,
                      GError        **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) local_error = NULL;
  guint8 head[TAR_BLOCK];
  gsize n = 0;
  gboolean compressed;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return load_dir (path, path, FALSE, stacks, progress, progress_data, cancellable, error);

  file = g_file_new_for_path (path);
  if ((stream = g_file_read (file, cancellable, &local_error)) == NULL ||
      !g_input_stream_read_all (G_INPUT_STREAM (stream), head, sizeof head, &n, cancellable, &local_error))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", path, local_error->message);
      return NULL;
    }
  compressed = n >= 2 && head[0] == 0x1f && head[1] == 0x8b;
  if (!compressed && !is_tar (head, n))
    {
      /* The metadata file itself: the trace is its directory. */
      g_autofree char *dir = g_path_get_dirname (path);
      return load_dir (dir, path, FALSE, stacks, progress, progress_data, cancellable, error);
    }
  if (!g_seekable_seek (G_SEEKABLE (stream), 0, G_SEEK_SET, cancellable, &local_error))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", path, local_error->message);
      return NULL;
    }
  return load_archive (G_INPUT_STREAM (stream), path, compressed, stacks, progress, progress_data,
                       cancellable, error);
}

static WsTrace *
ctf_load_stream (GInputStream   *stream,
                 const char     *display_name,
                 gboolean        compressed,
                 WsStackTable   *stacks,
                 WsProgressFunc  progress,
                 gpointer        progress_data,
                 GCancellable   *cancellable,
                 GError        **error)
{
  /* Only an archive can come through a pipe: a metadata file alone has
   * its stream files beside it, which a pipe does not. */
  return load_archive (stream, display_name ? display_name : "stdin", compressed, stacks, progress,
                       progress_data, cancellable, error);
}

static const char * const ctf_patterns[] = { "metadata", "*.tar", "*.tar.gz", "*.tgz", NULL };

const WsImporter ws_ctf_importer = {
  .id = "ctf",
  .name = N_("LTTng trace (CTF)"),
  .patterns = ctf_patterns,
  .sniff = ws_ctf_importer_sniff,
  .load_file = ws_ctf_importer_load,
  .load_stream = ctf_load_stream,
};
