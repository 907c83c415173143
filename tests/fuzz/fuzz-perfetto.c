/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: Perfetto protobuf traces (plain or gzip) through the importer's load_stream(),
 * which reads them whole.
 * The checks are in ws-fuzz-harness.c, shared with the regression replay.
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
  ws_fuzz_perfetto (data, size);
  return 0;
}
