/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: a tar archive (plain or gzip) of an LTTng CTF trace
 * through the CTF importer's load_stream(), which unpacks it for
 * libbabeltrace2.  The checks are in ws-fuzz-harness.c, shared with the
 * regression replay.
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
  ws_fuzz_ctf (data, size);
  return 0;
}
