/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Key files written by users (scenario rules, classifier lists) loaded so
 * that errors can name the line, as the trace importers do: GKeyFile
 * itself reports neither the line of a syntax error nor where a group or
 * key it complains about is.
 */

GKeyFile *ws_key_file_load_data (const char  *name,
                                 const char  *contents,
                                 gsize        length,
                                 GError     **error);
GKeyFile *ws_key_file_load      (const char  *path,
                                 char       **contents,
                                 gsize       *length,
                                 GError     **error);
guint     ws_key_file_find_line (const char  *contents,
                                 gsize        length,
                                 const char  *group,
                                 const char  *key);

G_END_DECLS
