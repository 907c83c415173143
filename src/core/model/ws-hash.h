/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * A hash for 64-bit keys that mixes all 64 bits.
 *
 * GLib's g_int64_hash() (2.74) returns the low 32 bits of the key, so the
 * keys this code packs as `high << 32 | low` -- (entry, stream) shares,
 * (caller, callee) bigrams -- all land in one bucket whenever their low
 * halves are equal: 100,000 stacks of one stream, or 80,000 callers of one
 * function, made every insertion walk the whole chain (quadratic time).
 * The splitmix64 finaliser (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014) spreads every input bit
 * over every output bit; its top 32 bits are the hash.
 *
 * Every GHashTable keyed by a 64-bit value uses ws_uint64_hash() with
 * g_int64_equal().
 */

#include <glib.h>

G_BEGIN_DECLS

static inline guint64
ws_hash_mix64 (guint64 x)
{
  x ^= x >> 30;
  x *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x ^= x >> 27;
  x *= G_GUINT64_CONSTANT (0x94d049bb133111eb);
  x ^= x >> 31;
  return x;
}

/* A GHashFunc for keys that point at a gint64 / guint64. */
static inline guint
ws_uint64_hash (gconstpointer key)
{
  return (guint) (ws_hash_mix64 (*(const guint64 *) key) >> 32);
}

/* The key of a pair of 32-bit ids, @high in the upper half. */
static inline guint64
ws_hash_pack_pair (guint32 high,
                   guint32 low)
{
  return ((guint64) high << 32) | low;
}

G_END_DECLS
