/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-attribution.h"

G_BEGIN_DECLS

char *ws_cause_dup_ended (const WsCause *cause);

G_END_DECLS
