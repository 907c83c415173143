/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Names for the addresses of LTTng's call-stack contexts.
 *
 * LTTng records `callstack_kernel` and `callstack_user` as sequences of
 * instruction addresses and leaves naming them to the reader; a kernel
 * trace carries no symbol table (lttng-modules' statedump lists
 * processes, files and memory maps, not kernel symbols).  So a frame is
 * its address, "0xffffffff813b4986", unless the trace's session
 * directory — the directory above a trace directory, where LTTng puts
 * `kernel/` and `ust/` — holds a file `kallsyms` in the form of
 * /proc/kallsyms (a copy of the recording machine's, taken as root):
 *
 *     ffffffff813b4986 T try_to_wake_up
 *     ffffffffc0a01000 t ext4_sync_file	[ext4]
 *     0000500000ee137 t fsync	[/usr/lib/x86_64-linux-gnu/libc.so.6]
 *
 * An address takes the name of the symbol at or below it, as kallsyms is
 * read; the name is the function alone (no "+0x12" offset), as the perf
 * importer names perf's frames, so that one function is one frame.  A
 * module in brackets that is a path is the frame's file, any other keeps
 * its brackets ("[ext4]", as perf names kernel modules); no module is the
 * kernel ("[kernel.kallsyms]").  The file can't live inside the trace
 * directory: libbabeltrace2 reads every file there as a stream.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-ctf-symbols.h"
#include "ws-error.h"

#define KERNEL_MODULE "[kernel.kallsyms]"

typedef struct {
  guint64 address;
  guint32 name;      /* offset in names */
  guint32 module;    /* offset in names, or G_MAXUINT32: the kernel */
} Symbol;

struct _WsCtfSymbols {
  GArray     *symbols;  /* Symbol, by address */
  GString    *names;    /* NUL-separated */
  GHashTable *frames;   /* address -> WsFrameId + 1 (kernel and user addresses never overlap) */
};

static int
compare_symbols (gconstpointer a,
                 gconstpointer b)
{
  guint64 x = ((const Symbol *) a)->address, y = ((const Symbol *) b)->address;

  return x < y ? -1 : x > y;
}

static guint32
add_name (GString    *names,
          const char *s,
          gsize       len)
{
  guint32 at = (guint32) names->len;

  g_string_append_len (names, s, len);
  g_string_append_c (names, '\0');
  return at;
}

/* One line "ADDRESS TYPE NAME[\t[MODULE]]"; FALSE if it is not one. */
static gboolean
parse_line (WsCtfSymbols *self,
            char         *line)
{
  char *end, *name, *tab;
  Symbol sym = { 0 };

  /* Names end up in every output, JSON included: text only. */
  if (!g_ascii_isxdigit (line[0]) || !g_utf8_validate (line, -1, NULL))
    return FALSE;
  sym.address = g_ascii_strtoull (line, &end, 16);
  if (*end != ' ' || end[1] == '\0' || end[1] == ' ' || end[2] != ' ' || end[3] == '\0')
    return FALSE;
  name = end + 3;
  if ((tab = strchr (name, '\t')) != NULL)
    {
      char *open = tab + 1, *close = strrchr (open, ']');

      if (*open != '[' || close == NULL || close[1] != '\0' || close == open + 1)
        return FALSE;
      *tab = '\0';
      /* "[/usr/lib/libc.so.6]": a file; "[ext4]": a kernel module, named as perf names it. */
      sym.module = open[1] == '/' ? add_name (self->names, open + 1, close - open - 1)
                                  : add_name (self->names, open, close - open + 1);
    }
  else
    sym.module = G_MAXUINT32;
  if (*name == '\0')
    return FALSE;
  /* Unprivileged readers of /proc/kallsyms see every address as 0. */
  if (sym.address == 0)
    return TRUE;
  sym.name = add_name (self->names, name, strlen (name));
  g_array_append_val (self->symbols, sym);
  return TRUE;
}

static gboolean
read_file (WsCtfSymbols *self,
           const char   *path,
           GError      **error)
{
  g_autofree char *text = NULL;
  g_autofree char *display = g_filename_display_name (path);
  gsize len;
  char *line, *next;
  guint line_no = 0;

  if (!g_file_get_contents (path, &text, &len, error))
    return FALSE;
  for (line = text; line < text + len; line = next)
    {
      char *nl = memchr (line, '\n', text + len - line);
      char *end = nl != NULL ? nl : text + len;
      gboolean bad;

      next = nl != NULL ? nl + 1 : text + len;
      line_no++;
      if (end > line && end[-1] == '\r')
        end--;
      bad = memchr (line, '\0', end - line) != NULL;   /* (text ends in a NUL of its own) */
      *end = '\0';
      if (*line == '\0' && !bad)
        continue;
      if (bad || !parse_line (self, line))
        return g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                            _("%s:%u: not a kallsyms line (ADDRESS TYPE NAME, then a tab and [MODULE])"),
                            display, line_no), FALSE;
    }
  g_array_sort (self->symbols, compare_symbols);
  return TRUE;
}

/**
 * ws_ctf_symbols_load:
 * @dirs: the trace directories, %NULL-terminated
 *
 * Returns: (transfer full): the names of the first `kallsyms` found in a
 *   directory above one of @dirs (none when there is none), or %NULL with
 *   @error set, naming the file and line, when that file does not read.
 */
WsCtfSymbols *
ws_ctf_symbols_load (const char * const *dirs,
                     GError            **error)
{
  g_autoptr(WsCtfSymbols) self = g_new0 (WsCtfSymbols, 1);

  self->symbols = g_array_new (FALSE, FALSE, sizeof (Symbol));
  self->names = g_string_new (NULL);
  self->frames = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++)
    {
      g_autofree char *parent = g_path_get_dirname (dirs[i]);
      g_autofree char *path = g_build_filename (parent, "kallsyms", NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          if (!read_file (self, path, error))
            return NULL;
          break;
        }
    }
  return g_steal_pointer (&self);
}

void
ws_ctf_symbols_free (WsCtfSymbols *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->symbols);
  g_string_free (self->names, TRUE);
  g_hash_table_unref (self->frames);
  g_free (self);
}

gboolean
ws_ctf_symbols_found (const WsCtfSymbols *self)
{
  return self->symbols->len > 0;
}

/* The symbol at or below @address, or NULL. */
static const Symbol *
lookup (WsCtfSymbols *self,
        guint64       address)
{
  guint lo = 0, hi = self->symbols->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->symbols, Symbol, mid).address <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 ? &g_array_index (self->symbols, Symbol, lo - 1) : NULL;
}

/**
 * ws_ctf_symbols_frame:
 * @kernel: the address is from `callstack_kernel`
 *
 * Returns: the frame of @address: its symbol, or the address itself in
 *   hexadecimal, in the kernel's module or in "[unknown]".
 */
WsFrameId
ws_ctf_symbols_frame (WsCtfSymbols *self,
                      WsStackTable *stacks,
                      guint64       address,
                      gboolean      kernel)
{
  gint64 key = (gint64) address;
  gpointer cached = g_hash_table_lookup (self->frames, &key);
  const Symbol *sym;
  WsFrameId frame;

  if (cached != NULL)
    return GPOINTER_TO_UINT (cached) - 1;
  if ((sym = lookup (self, address)) != NULL)
    {
      const char *name = self->names->str + sym->name;
      const char *module = sym->module != G_MAXUINT32 ? self->names->str + sym->module : KERNEL_MODULE;

      frame = ws_stack_table_intern_frame_len (stacks, name, strlen (name), module, strlen (module));
    }
  else
    {
      char name[24];
      const char *module = kernel ? KERNEL_MODULE : "[unknown]";

      g_snprintf (name, sizeof name, "0x%" G_GINT64_MODIFIER "x", address);
      frame = ws_stack_table_intern_frame_len (stacks, name, strlen (name), module, strlen (module));
    }
  g_hash_table_insert (self->frames, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (frame + 1));
  return frame;
}
