/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-importer.h"

G_BEGIN_DECLS

WsImporterSniffFunc    ws_ctf_importer_sniff;
char     *ws_ctf_find_metadata       (const char     *dir);
WsImporterLoadFileFunc ws_ctf_importer_load;

G_END_DECLS
