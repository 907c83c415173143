/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the trace digest reader, ws_digest_read_bytes(), then
 * a canonical rewrite and a mining run over what it read.  The checks are
 * in ws-fuzz-digest.c, shared with the regression replay.
 */
#include "config.h"

#include "ws-fuzz-harness.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 *data, gsize size);

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  ws_fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        gsize         size)
{
  ws_fuzz_digest (data, size);
  return 0;
}
