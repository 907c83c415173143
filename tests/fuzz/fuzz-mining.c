/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: a stack database (recipe in ws-fuzz-mining.c) through
 * the miner, the similarity model and the clusterer.
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
  ws_fuzz_mining (data, size);
  return 0;
}
