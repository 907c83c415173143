/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkFileChooserNative *ws_trace_chooser_new (GtkWindow            *parent,
                                            GtkFileChooserAction  action,
                                            const char           *title,
                                            const char           *accept_label);

G_END_DECLS
