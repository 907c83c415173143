/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The importer registry: every format Waitscope reads, in the order their
 * sniffers are asked.  Order matters only where two formats could claim the
 * same bytes: JSON starts with '{', trace-cmd files with their binary
 * magic, Perfetto traces with a packet (0x0a, a length, packet fields), perf script text has event headers,
 * folded stacks are the loosest ("a;b;c 12") and come last.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-importer.h"
#include "ws-inflate-limit.h"

static const WsImporter * const importers[] = {
  &ws_json_importer,
  &ws_tracecmd_importer,
  &ws_ctf_importer,
  &ws_perfetto_importer,
  &ws_perf_importer,
  &ws_folded_importer,
};

/**
 * ws_importers_get:
 * @n_importers: (out): how many there are
 *
 * Returns: (transfer none) (array length=n_importers): every importer, in
 *   sniffing order
 */
const WsImporter * const *
ws_importers_get (guint *n_importers)
{
  g_return_val_if_fail (n_importers != NULL, NULL);

  *n_importers = G_N_ELEMENTS (importers);
  return importers;
}

/**
 * ws_importers_lookup:
 *
 * Returns: (transfer none) (nullable): the importer called @id
 */
const WsImporter *
ws_importers_lookup (const char *id)
{
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (importers); i++)
    if (g_str_equal (importers[i]->id, id))
      return importers[i];
  return NULL;
}

/**
 * ws_importers_sniff:
 * @head: the input's first bytes, inflated if it was gzip
 *
 * Returns: (transfer none) (nullable): the first importer that recognises
 *   @head, or %NULL
 */
const WsImporter *
ws_importers_sniff (const guint8 *head,
                    gsize         len)
{
  g_return_val_if_fail (head != NULL || len == 0, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (importers); i++)
    if (importers[i]->sniff (head, len))
      return importers[i];
  return NULL;
}

/**
 * ws_importers_describe:
 *
 * Returns: (transfer full): the formats read, for error messages
 *   ("perf script text or perf.data, Waitscope JSON trace, folded stacks")
 */
char *
ws_importers_describe (void)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (importers); i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, _(importers[i]->name));
    }
  return g_string_free (s, FALSE);
}

/**
 * ws_importer_text_stream:
 * @stream: the input
 * @compressed: whether it is gzip
 *
 * For loaders that read text through GIO: @stream itself, or a stream that
 * inflates it.
 *
 * Returns: (transfer full): the text stream
 */
GInputStream *
ws_importer_text_stream (GInputStream *stream,
                         gboolean      compressed)
{
  g_autoptr(GConverter) gunzip = NULL;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  if (!compressed)
    return g_object_ref (stream);
  /* Bounded: a decompression bomb stops at the ceiling (ws-inflate-limit.h). */
  gunzip = ws_inflate_guard_new ();
  return g_converter_input_stream_new (stream, gunzip);
}
