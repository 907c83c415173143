/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-digest.h"
#include "ws-scenario-rules.h"

G_BEGIN_DECLS

gboolean  cli_paths_have_digest (char       **paths);
WsDigest *cli_load_digests      (char       **paths,
                                 WsDigestReadFlags flags,
                                 GError     **error);
WsDigest *cli_load_digests_areas (char      **paths,
                                  WsDigestReadFlags flags,
                                  guint       areas,
                                  GError    **error);
WsDigest *cli_load_digests_with_rules (char    **paths,
                                       WsDigestReadFlags flags,
                                       WsScenarioRules *rules,
                                       char    **rules_text,
                                       GError  **error);
GStrv     cli_rules_text        (WsScenarioRules *rules);

G_END_DECLS
