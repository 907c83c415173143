#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes paper-case.json: the motivating case of the cost-propagation
paper (§2.2) as a Waitscope JSON trace, by hand.

Six threads: the browser UI thread (T_B,UI) and two workers (T_B,W0,
T_B,W1), an antivirus worker (T_A,W0), a configuration manager (T_C,W0) and
a system thread (T_S,W0).  Per BrowserTabCreate instance on the UI thread:

 fast (6): UI waits 30 ms in fv.sys!QueryFileTable for W1, which waits in
   fs.sys!AcquireMDU for C,W0, which runs 18 ms in AcquireMDU.
 slow, disk (3): UI waits 800 ms in QueryFileTable for W1; W1 waits in
   AcquireMDU for C,W0; C,W0 holds the MDU and waits for a read served by
   S,W0, which decrypts (se.sys!ReadDecrypt, 60 + 4 ms) and waits 700 ms in
   ReadDecrypt for the disk (a hardware-service wake-up).
 slow, compute (2): UI waits in QueryFileTable while W1 computes 580 ms in
   fv.sys!HashEntries.

B,W0 and A,W0 contend for the same locks (as in Figure 1) but ready no one
the UI waits for.  Times in ns; one instance per second.
"""
import json, sys

MS = 1_000_000
events, instances = [], []

def add(**e):
    events.append(e)
    return len(events) - 1

def span(tid, t, dur, stack):
    add(kind="running", t=t, dur=dur, tid=tid, stack=stack, flags=["span"])

def wait(tid, t, dur, stack, peer=None):
    e = dict(kind="wait", t=t, dur=dur, tid=tid, stack=stack, state="S")
    if peer is not None:
        e["peer"] = peer
    return add(**e)

def unwait(tid, t, target, stack):
    return add(kind="unwait", t=t, tid=tid, target=target, stack=stack)

UI, BW0, BW1, AW0, CW0, SW0, IDLE = 101, 102, 103, 201, 301, 4, 1
BROWSER = ["BrowserMain (browser.exe)", "CreateTab (browser.exe)"]
WORKER = ["WorkerMain (browser.exe)"]
CFG = ["CfgMain (cfgmgr.exe)"]
AV = ["ScanMain (antivirus.exe)"]
SYS = ["KiSystemThread (ntoskrnl.exe)"]
QFT = "QueryFileTable (fv.sys)"
MDU = "AcquireMDU (fs.sys)"
WAITK = "KeWaitForSingleObject (ntoskrnl.exe)"
SETK = "KeSetEvent (ntoskrnl.exe)"

def browser_start(t0):
    span(UI, t0, 10 * MS, BROWSER)

def browser_end(t0, t_wake, scenario_end):
    span(UI, t_wake, 10 * MS, BROWSER + [QFT])
    instances.append(dict(scenario="BrowserTabCreate", tid=UI, t0=t0, t1=scenario_end))

def fast(t0):
    browser_start(t0)
    u1 = unwait(BW1, t0 + 40 * MS, UI, WORKER + [QFT, SETK])
    wait(UI, t0 + 10 * MS, 30 * MS, BROWSER + ["NtCreateFile (ntoskrnl.exe)", QFT, WAITK], u1)
    u2 = unwait(CW0, t0 + 35 * MS, BW1, CFG + [MDU, SETK])
    wait(BW1, t0 + 15 * MS, 20 * MS, WORKER + [QFT, MDU, WAITK], u2)
    span(CW0, t0 + 16 * MS, 18 * MS, CFG + [MDU])
    span(BW1, t0 + 36 * MS, 3 * MS, WORKER + [QFT])
    browser_end(t0, t0 + 40 * MS, t0 + 50 * MS)

def slow_disk(t0):
    browser_start(t0)
    u_ui = unwait(BW1, t0 + 810 * MS, UI, WORKER + [QFT, SETK])
    wait(UI, t0 + 10 * MS, 800 * MS, BROWSER + ["NtCreateFile (ntoskrnl.exe)", QFT, WAITK], u_ui)
    # B,W0 contends for the file table too; the UI releases it later.
    u_b0 = unwait(UI, t0 + 815 * MS, BW0, BROWSER + [QFT, SETK])
    wait(BW0, t0 + 12 * MS, 803 * MS, WORKER + [QFT, WAITK], u_b0)
    u_w1 = unwait(CW0, t0 + 800 * MS, BW1, CFG + [MDU, SETK])
    wait(BW1, t0 + 15 * MS, 785 * MS, WORKER + [QFT, MDU, WAITK], u_w1)
    span(BW1, t0 + 800 * MS, 5 * MS, WORKER + [QFT])
    # A,W0 contends for the MDU; W1 releases it.
    u_a = unwait(BW1, t0 + 805 * MS, AW0, WORKER + [QFT, MDU, SETK])
    wait(AW0, t0 + 18 * MS, 787 * MS, AV + [MDU, WAITK], u_a)
    # C,W0 holds the MDU and reads; the system thread serves the read.
    u_c = unwait(SW0, t0 + 790 * MS, CW0, SYS + ["IopCompleteRequest (ntoskrnl.exe)", SETK])
    wait(CW0, t0 + 20 * MS, 770 * MS, CFG + [MDU, "IoCallDriver (ntoskrnl.exe)", WAITK], u_c)
    span(CW0, t0 + 790 * MS, 10 * MS, CFG + [MDU])
    span(SW0, t0 + 25 * MS, 60 * MS, SYS + ["ReadDecrypt (se.sys)"])
    hw = add(kind="hw-service", t=t0 + 785 * MS, tid=IDLE, target=SW0,
             stack=["KiInterruptDispatch (ntoskrnl.exe)", "DiskCompletion (disk)"])
    wait(SW0, t0 + 85 * MS, 700 * MS, SYS + ["ReadDecrypt (se.sys)", WAITK], hw)
    span(SW0, t0 + 785 * MS, 4 * MS, SYS + ["ReadDecrypt (se.sys)"])
    browser_end(t0, t0 + 810 * MS, t0 + 820 * MS)

def slow_compute(t0):
    browser_start(t0)
    u_ui = unwait(BW1, t0 + 600 * MS, UI, WORKER + [QFT, SETK])
    wait(UI, t0 + 10 * MS, 590 * MS, BROWSER + ["NtCreateFile (ntoskrnl.exe)", QFT, WAITK], u_ui)
    span(BW1, t0 + 15 * MS, 580 * MS, WORKER + [QFT, "HashEntries (fv.sys)"])
    browser_end(t0, t0 + 600 * MS, t0 + 610 * MS)

kinds = [fast, slow_disk, fast, slow_compute, fast, slow_disk, fast, fast, slow_compute, slow_disk, fast]
for i, make in enumerate(kinds):
    make((i + 1) * 1000 * MS)

trace = {
    "format": "waitscope-trace", "version": 1, "name": "paper-case",
    "processes": [{"pid": 100, "name": "browser"}, {"pid": 200, "name": "antivirus"},
                  {"pid": 300, "name": "cfgmgr"}, {"pid": 4, "name": "System"}, {"pid": 1, "name": "Idle"}],
    "threads": [{"tid": UI, "pid": 100, "name": "T_B,UI"}, {"tid": BW0, "pid": 100, "name": "T_B,W0"},
                {"tid": BW1, "pid": 100, "name": "T_B,W1"}, {"tid": AW0, "pid": 200, "name": "T_A,W0"},
                {"tid": CW0, "pid": 300, "name": "T_C,W0"}, {"tid": SW0, "pid": 4, "name": "T_S,W0"},
                {"tid": IDLE, "pid": 1, "name": "Idle"}],
    "events": events,
    "scenario_instances": instances,
}
out = sys.argv[1] if len(sys.argv) > 1 else "paper-case.json"
with open(out, "w") as f:
    json.dump(trace, f, indent=None, separators=(",", ":"))
    f.write("\n")
