/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * WsExportFunc:
 * @widget: the widget that asked
 * @path: the local file chosen; its extension says the format
 *
 * Writes the figure (or data) to @path.
 *
 * Returns: %TRUE if written, else %FALSE with @error set
 */
typedef gboolean (*WsExportFunc) (GtkWidget   *widget,
                                  const char  *path,
                                  GError     **error);

/**
 * WsToastFunc:
 *
 * Shows @message to the user (a toast).
 */
typedef void     (*WsToastFunc)  (GtkWidget   *widget,
                                  const char  *message);

void ws_export_dialog_show (GtkWidget    *widget,
                            const char   *title,
                            const char   *suggested_name,
                            WsExportFunc  export_func,
                            WsToastFunc   toast_func);

gboolean ws_export_write_text (const char  *path,
                               const char  *text,
                               GError     **error);

G_END_DECLS
