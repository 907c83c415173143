/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the SQLite history store, opened read-only and read-write.
 * The checks are in ws-fuzz-files.c, shared with the regression replay.
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
  ws_fuzz_history_store (data, size);
  return 0;
}
