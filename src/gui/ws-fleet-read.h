/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-digest.h"
#include "ws-progress-relay.h"

G_BEGIN_DECLS

/* Reads @paths (and, when given, checks each against @hashes) into a
 * digest, passing by a trace that cannot be read with its error added to
 * @failed: ws_digest_load_spans()'s shape. */
typedef WsDigest *(*WsFleetReadFunc) (char           **paths,
                                      char           **hashes,
                                      WsProgressFunc   progress,
                                      gpointer         progress_data,
                                      GPtrArray       *failed,
                                      GCancellable    *cancellable,
                                      GError         **error);

/**
 * WsFleetRead:
 * @read: what reads the traces, on the worker thread
 * @paths: the traces
 * @hashes: (nullable): their content hashes, for @read to check
 * @relay: where @read's progress goes, coalesced onto the main thread
 * @fleet: (nullable): the fleet this read is for, compared on the main
 *   thread when the result comes (never read in the thread)
 *
 * A job that reads a fleet's traces off the main thread (File → Open
 * Traces as a Fleet…, and the Contrast page reading a fleet's wait graphs
 * again), for a #WsWorker: the job owns copies of all the thread reads.
 */
typedef struct {
  WsFleetReadFunc  read;
  GStrv            paths;
  GStrv            hashes;
  WsProgressRelay *relay;
  WsDigest        *fleet;
} WsFleetRead;

/**
 * WsFleetReadResult:
 * @digest: the traces read
 * @failed: (element-type GError): each trace passed by, with why
 */
typedef struct {
  WsDigest  *digest;
  GPtrArray *failed;
} WsFleetReadResult;

WsFleetRead *ws_fleet_read_new         (WsFleetReadFunc  read,
                                        GStrv            paths,
                                        GStrv            hashes,
                                        WsProgressRelay *relay);
void         ws_fleet_read_free        (gpointer         job);
void         ws_fleet_read_result_free (gpointer         result);
void         ws_fleet_read_in_thread   (GTask           *task,
                                        gpointer         source,
                                        gpointer         job,
                                        GCancellable    *cancellable);

G_END_DECLS
