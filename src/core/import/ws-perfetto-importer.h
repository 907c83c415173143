/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-importer.h"

G_BEGIN_DECLS

WsImporterSniffFunc    ws_perfetto_importer_sniff;
WsImporterLoadFileFunc ws_perfetto_importer_load;

G_END_DECLS
