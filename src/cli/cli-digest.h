/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-digest.h"

G_BEGIN_DECLS

gboolean  cli_paths_have_digest (char       **paths);
WsDigest *cli_load_digests      (char       **paths,
                                 WsDigestReadFlags flags,
                                 GError     **error);
WsDigest *cli_load_digests_areas (char      **paths,
                                  WsDigestReadFlags flags,
                                  guint       areas,
                                  GError    **error);

G_END_DECLS
