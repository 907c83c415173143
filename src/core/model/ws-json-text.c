/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one place JSON text is made from a JsonNode, for every --json
 * output of waitscope-cli and every JSON export of the application.
 *
 * json-glib writes strings byte for byte, so a symbol, thread name or
 * file name that is not UTF-8 (perf writes whatever the binary or the
 * kernel holds) would make the output invalid JSON.  The importers
 * already substitute U+FFFD in the names they intern; this is the guard
 * for everything else (file paths, strings built from them).  Only
 * string contents can be invalid: the JSON syntax around them is ASCII,
 * and an invalid sequence never swallows the ASCII byte after it, so
 * substituting on the finished text keeps it well-formed.
 */
#include "config.h"

#include "ws-json-text.h"

/**
 * ws_json_text_from_node:
 * @node: a JSON tree
 *
 * Returns: (transfer full): @node pretty-printed (indent 2), valid
 *   UTF-8 (U+FFFD for the bytes that are not), ending with a newline
 */
char *
ws_json_text_from_node (JsonNode *node)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  gsize len = 0;

  g_return_val_if_fail (node != NULL, NULL);

  json_generator_set_root (gen, node);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  text = json_generator_to_data (gen, &len);
  if (!g_utf8_validate_len (text, len, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (text, len);

      return g_strconcat (valid, "\n", NULL);
    }
  return g_strconcat (text, "\n", NULL);
}
