/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once
/*
 * Mixture fits remembered across runs, keyed by the SHA-256 of their
 * data and settings (ws-gmm-cache.c).
 */
#include "ws-gmm.h"

G_BEGIN_DECLS

typedef struct {
  guint8 bytes[32];
} WsGmmCacheKey;

void     ws_gmm_cache_key    (const double        *x,
                              gsize                n,
                              const WsGmmSettings *settings,
                              WsGmmCacheKey       *key);
gboolean ws_gmm_cache_lookup (const WsGmmCacheKey *key,
                              WsGmm               *gmm);
void     ws_gmm_cache_store  (const WsGmmCacheKey *keys,
                              const WsGmm         *gmms,
                              guint                n);
void     ws_gmm_cache_reset  (void);

G_END_DECLS
