/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-trace-types.h"

G_BEGIN_DECLS

typedef struct _WsBlockRequests WsBlockRequests;

/*
 * A trace's block-layer requests (docs/trace-format.md, "Block
 * requests"): each request a device was handed (the kernel's
 * `block:block_rq_issue` tracepoint) with its completion
 * (`block:block_rq_complete`), paired by device, operation and sector
 * range.  They say whose I/O was in a device's queue while a thread waited
 * for its own (ws-behind.c).
 *
 * The thread is the one in whose context the request was *issued*: for a
 * direct write (`dd oflag=direct`) or a read the process that asked, for
 * buffered writes the kernel's flusher (`kworker/u8:2`) writing pages
 * some process dirtied, for a cache flush the block layer's worker
 * (`kworker/0:1H`) — the tracepoint does not say on whose behalf.
 */

typedef enum {
  WS_BLOCK_REQUEST_UNFINISHED = 1 << 0,  /* no completion recorded (see ws_block_requests_finish()) */
} WsBlockRequestFlags;

/**
 * WsBlockRequest:
 * @issue: when the request was handed to the device's driver
 * @complete: when the device completed it; %WS_BLOCK_REQUEST_UNFINISHED:
 *   when the issuing thread's wait for it ended, else @issue (unknown)
 * @sector: the first 512-byte sector
 * @bytes: its size (a flush: 0)
 * @device: the device, major << 20 | minor (the kernel's dev_t)
 * @thread: thread index of the trace in whose context it was issued
 * @op: 'R' read, 'W' write, 'F' flush, 'D' discard, 'N' other
 * @flags: #WsBlockRequestFlags
 */
typedef struct {
  WsTime  issue;
  WsTime  complete;
  guint64 sector;
  guint32 bytes;
  guint32 device;
  guint32 thread;
  gchar   op;
  guint8  flags;
} WsBlockRequest;

#define WS_BLOCK_DEVICE_MAJOR(d) ((d) >> 20)
#define WS_BLOCK_DEVICE_MINOR(d) ((d) & 0xfffff)


WsBlockRequests      *ws_block_requests_new          (void);
void                  ws_block_requests_free         (WsBlockRequests *self);

/* Building (importers, through ws-trace-private.h): the tracepoints'
 * records in any order, then finish pairs them. */
void                  ws_block_requests_add_issue    (WsBlockRequests *self,
                                                      WsTime           time,
                                                      guint            thread,
                                                      guint32          device,
                                                      gchar            op,
                                                      guint64          sector,
                                                      guint32          n_sectors,
                                                      guint32          bytes);
void                  ws_block_requests_add_complete (WsBlockRequests *self,
                                                      WsTime           time,
                                                      guint32          device,
                                                      gchar            op,
                                                      guint64          sector,
                                                      guint32          n_sectors);
/*
 * Returns the end of the wait @thread went into for its own request
 * issued at @issue (its next wait, if uninterruptible), or -1.
 */
typedef WsTime (*WsBlockWaitEnd) (guint    thread,
                                  WsTime   issue,
                                  gpointer user_data);

/*
 * Pairs the records.  A request whose completion was not recorded —
 * issued near the end, or completed in an interrupt the kernel did not
 * trace (on some kernels `block_rq_complete` is lost when the interrupt
 * arrives on an idle CPU) — ends when its issuing thread's following
 * uninterruptible wait ended (@wait_end: a synchronous read or direct
 * write waits for exactly that), else is left at zero length: its time
 * in flight is unknown, and it counts for no one.
 */
void                  ws_block_requests_finish       (WsBlockRequests *self,
                                                      WsBlockWaitEnd   wait_end,
                                                      gpointer         user_data);

/* The paired requests, by issue time. */
guint                 ws_block_requests_get_n        (const WsBlockRequests *self);
const WsBlockRequest *ws_block_requests_get          (const WsBlockRequests *self,
                                                      guint            index);
/* The longest request (ns): how far back a request may still be in flight. */
WsTime                ws_block_requests_get_longest  (const WsBlockRequests *self);
/* Completions whose issue was not recorded (before the recording began):
 * left out. */
guint                 ws_block_requests_get_n_orphans (const WsBlockRequests *self);
/* Requests with no completion recorded, and how many of them ended at
 * their issuer's wait (the others have zero length). */
guint                 ws_block_requests_get_n_unfinished (const WsBlockRequests *self,
                                                      guint           *n_by_wait);

gchar                 ws_block_op_from_rwbs          (const char      *rwbs,
                                                      gsize            len);
gchar                 ws_block_op_from_lttng_rwbs    (guint64          flags);

/*
 * The printed fields of `block:block_rq_issue` ("254,0 WS 1048576 ()
 * 174233600 + 2048 0x2,0,4 [dd]", the ioprio since Linux 6.x) and of
 * `block:block_rq_complete` ("254,0 WS () 174233600 + 2048 0x2,0,4 [0]"):
 * @bytes is left alone for a completion.  FALSE when they do not read so.
 */
gboolean              ws_block_parse_fields          (const char      *s,
                                                      const char      *end,
                                                      gboolean         issue,
                                                      guint32         *device,
                                                      gchar           *op,
                                                      guint64         *sector,
                                                      guint32         *n_sectors,
                                                      guint32         *bytes);

/* "254:0" */
char                 *ws_block_device_to_string      (guint32          device);

G_END_DECLS
