/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-error.h"

G_DEFINE_QUARK (ws-error-quark, ws_error)
