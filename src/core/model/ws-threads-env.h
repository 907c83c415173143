/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The most threads an environment variable may ask for: a larger number
 * is taken as this many (each thread costs a stack; no step of ours has
 * work for more). */
#define WS_THREADS_ENV_MAX 1024

guint ws_threads_from_env (const char *variable);

G_END_DECLS
