/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/*
 * Frame order: everywhere in Waitscope a stack is stored and passed
 * *caller first* (frames[0] is the outermost function, frames[n-1] the leaf),
 * as the StackMine and ASPLOS'14 papers write callstacks (f0 f1 ... fM-1).
 * perf prints the leaf first; the perf importer reverses.
 */

typedef guint32 WsFrameId;
typedef guint32 WsStackId;

/* Stack id 0 is the empty stack (an event recorded without a call chain). */
#define WS_STACK_EMPTY ((WsStackId) 0)

typedef struct {
  const char *function;  /* symbol, or "[unknown]" */
  const char *module;    /* DSO / module path, or "[unknown]" */
} WsFrame;

#define WS_TYPE_STACK_TABLE (ws_stack_table_get_type ())
G_DECLARE_FINAL_TYPE (WsStackTable, ws_stack_table, WS, STACK_TABLE, GObject)

WsStackTable   *ws_stack_table_new               (void);

WsFrameId       ws_stack_table_intern_frame      (WsStackTable     *self,
                                                  const char       *function,
                                                  const char       *module);
WsFrameId       ws_stack_table_intern_frame_len  (WsStackTable     *self,
                                                  const char       *function,
                                                  gsize             function_len,
                                                  const char       *module,
                                                  gsize             module_len);
WsStackId       ws_stack_table_intern_stack      (WsStackTable     *self,
                                                  const WsFrameId  *frames,
                                                  guint             n_frames);

const WsFrame  *ws_stack_table_get_frame         (WsStackTable     *self,
                                                  WsFrameId         frame);
const WsFrameId*ws_stack_table_get_stack         (WsStackTable     *self,
                                                  WsStackId         stack,
                                                  guint            *n_frames);
guint           ws_stack_table_get_n_frames      (WsStackTable     *self);
guint           ws_stack_table_get_n_stacks      (WsStackTable     *self);
gboolean        ws_stack_table_stack_contains    (WsStackTable     *self,
                                                  WsStackId         stack,
                                                  WsFrameId         frame);
char           *ws_stack_table_format_frame      (WsStackTable     *self,
                                                  WsFrameId         frame);
gsize           ws_stack_table_get_memory_size   (WsStackTable     *self);
WsStackId      *ws_stack_table_copy_into         (WsStackTable     *self,
                                                  WsStackTable     *into);

G_END_DECLS
