/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void ws_csv_append_field (GString    *out,
                          const char *text);

G_END_DECLS
