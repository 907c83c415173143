/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GFileInputStream *ws_importer_open_file (const char    *path,
                                         gboolean      *compressed,
                                         GCancellable  *cancellable,
                                         GError       **error);

G_END_DECLS
