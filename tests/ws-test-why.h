/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-attribution.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/*
 * The importer tests' `why` comparison: one recording read through two
 * importers must give the same answer.  ws_test_why_top_cause() is what
 * `why` does with no thread named (the waiting threads of the one
 * program picked, attributed); ws_test_why_assert_same_cause() compares
 * two traces' top causes.
 */
typedef enum {
  WS_TEST_WHY_SAME_SIGNATURE,        /* same stacks: label and share equal */
  WS_TEST_WHY_SAME_KERNEL_FUNCTION,  /* kernel stacks only on one side: the kernel
                                      * function equal, shares within 5 points */
} WsTestWhyMatch;

const WsCause *ws_test_why_top_cause         (WsTrace         *trace,
                                              WsAttribution  **attribution,
                                              char           **program);
char          *ws_test_why_assert_same_cause (const char      *name,
                                              const char      *what_a,
                                              WsTrace         *a,
                                              WsTrace         *b,
                                              WsTestWhyMatch   match);

G_END_DECLS
