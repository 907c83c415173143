#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Converts a perf scheduler recording (`perf script` text, gzip or not)
into a Perfetto protobuf trace, field by field, the way Perfetto itself
would have recorded the same events (docs/importers.md, "Perfetto"):

  - sched_switch, sched_waking, sched_wakeup(_new), sched_process_fork and
    sched_process_exit as ftrace events, in bundles per CPU and per 100 ms
    read cycle (as traced_probes reads each CPU's ring buffer);
    --compact writes sched_switch and sched_waking in the compact sched
    encoding instead (no prev_pid, prev_comm or common pid: the reader
    finds them from the CPU's previous switch);
  - every thread's process and name in a ProcessTree packet first;
  - each event's call stack as a PerfSample whose sequence's timebase is
    that tracepoint, and CPU samples (cpu-clock…) as PerfSamples of a
    counter timebase; frames, mappings and call stacks interned per
    sequence, as traced_perf writes them.

The test suite uses it to check that the Perfetto importer makes, from
the converted trace, the timeline the perf importer makes from the text.
No Perfetto code is used; field numbers are those of Perfetto's public
.proto files.

    tools/perf-to-perfetto.py IN.perf.txt.gz OUT.pftrace [--compact] [--like-compact] [--distinct-times]

--like-compact writes in the plain encoding what the compact one says:
no first sched_switch on each CPU nor sched_waking before it, and each
switch's prev and each waking's waker the CPU's previous next_pid.  --distinct-times puts events that share a microsecond one
nanosecond apart, in file order (the compact encoding cannot keep the
order of a switch and a waking at the same time).  OUT ending in .gz is
gzip-compressed.
"""
import argparse
import gzip
import re
import sys

HEADER = re.compile(r'^(.*?)\s*(-?\d+)/(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(?:(\d+)\s+)?(\S+):(?:\s+(.*))?$')
TASK = re.compile(r'^(.*?)\s*(-?\d+)/(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(PERF_RECORD_\w+.*)$')
SWITCH = re.compile(r'prev_comm=(.*) prev_pid=(-?\d+) prev_prio=(-?\d+) prev_state=(\S+) ==> '
                    r'next_comm=(.*) next_pid=(-?\d+) next_prio=(-?\d+)')
WAKE = re.compile(r'comm=(.*) pid=(-?\d+) prio=(-?\d+)(?: success=\d+)?(?: target_cpu=(\d+))?')
FORK = re.compile(r'comm=(.*) pid=(-?\d+) child_comm=(.*) child_pid=(-?\d+)')
EXIT = re.compile(r'comm=(.*) pid=(-?\d+) prio=(-?\d+)')
COMM = re.compile(r'PERF_RECORD_COMM(?: exec)?: (.*):(-?\d+)/(-?\d+)$')
STATE_BITS = {'S': 1, 'D': 2, 'T': 4, 't': 8, 'X': 16, 'Z': 32, 'P': 64, 'I': 128, 'R': 0}
COUNTERS = {'cpu-clock': 1, 'page-faults': 2, 'task-clock': 3, 'context-switches': 4,
            'cpu-migrations': 5, 'cycles': 10, 'instructions': 11}
TRACEPOINTS = ('sched:sched_switch', 'sched:sched_waking', 'sched:sched_wakeup',
               'sched:sched_wakeup_new', 'sched:sched_process_fork', 'sched:sched_process_exit')
READ_CYCLE_NS = 100_000_000


# ---- the wire format ----------------------------------------------------

def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def f_varint(number, v):
    return varint(number << 3) + varint(v)


def f_bytes(number, data):
    if isinstance(data, str):
        data = data.encode('utf-8', 'surrogateescape')
    return varint(number << 3 | 2) + varint(len(data)) + data


def f_packed(number, values):
    return f_bytes(number, b''.join(varint(v) for v in values))


# ---- perf text ------------------------------------------------------------

def strip_offset(sym):
    m = re.search(r'\+0x[0-9a-fA-F]*$', sym)
    return sym[:m.start()] if m else sym


def parse_frame(line):
    s = line.strip()
    m = re.match(r'[0-9a-fA-F]+ ?', s)
    s = s[m.end():] if m else s
    module = None
    if s.endswith(')'):
        depth = 0
        for i in range(len(s) - 1, -1, -1):
            if s[i] == ')':
                depth += 1
            elif s[i] == '(':
                depth -= 1
                if depth == 0:
                    module = s[i + 1:-1]
                    s = s[:i].rstrip(' ')
                    break
    return strip_offset(s), module


def read_perf(path):
    opener = gzip.open if path.endswith('.gz') else open
    events, names, pids = [], {}, {}
    current = None
    with opener(path, 'rt', encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('#'):
                continue
            if current is not None and line.startswith(('\t', ' ')) and line.strip():
                current['stack'].append(parse_frame(line))
                continue
            current = None
            if not line.strip():
                continue
            m = TASK.match(line)
            if m:
                c = COMM.match(m.group(7))
                if c:
                    names[int(c.group(3))] = c.group(1)
                    pids[int(c.group(3))] = int(c.group(2))
                f = re.match(r'PERF_RECORD_FORK\((-?\d+):(-?\d+)\)', m.group(7))
                if f:
                    pids[int(f.group(2))] = int(f.group(1))
                continue
            m = HEADER.match(line)
            if not m:
                sys.exit(f'{path}: not a perf script line: {line[:80]}')
            comm, pid, tid, cpu, sec, frac, period, event, rest = m.groups()
            time = int(sec) * 1_000_000_000 + int(frac.ljust(9, '0')[:9])
            ev = dict(comm=comm, pid=int(pid), tid=int(tid), cpu=int(cpu), time=time,
                      period=int(period) if period else 1, event=event, rest=rest or '',
                      stack=[], order=len(events))
            if int(tid) < 0 and event == 'sched:sched_switch':
                # perf's "-1": a thread it no longer knew (exiting); the
                # kernel, and so Perfetto, gives the switch's prev_pid.
                ev['tid'] = int(SWITCH.search(ev['rest']).group(2))
            pids.setdefault(int(tid), int(pid))
            if comm and int(tid) not in names:
                names[int(tid)] = comm
            events.append(ev)
            current = ev
    return events, names, pids


# ---- Perfetto messages ---------------------------------------------------

class Interner:
    """A sequence's interned frames and call stacks (InternedData)."""

    def __init__(self):
        self.strings, self.paths, self.mappings, self.frames, self.stacks = {}, {}, {}, {}, {}

    def _id(self, table, key, out, field, make):
        if key not in table:
            table[key] = len(table) + 1
            out.append(f_bytes(field, make(table[key])))
        return table[key]

    def callstack(self, frames):
        """frames: leaf first, as perf prints them; Perfetto's are caller first."""
        out = []
        frame_ids = []
        for function, module in reversed(frames):
            name_id = self._id(self.strings, function, out, 5,
                               lambda i: f_varint(1, i) + f_bytes(2, function))
            mapping_id = 0
            if module is not None:
                parts = module[1:].split('/') if module.startswith('/') else [module]
                part_ids = [self._id(self.paths, p, out, 17, lambda i, p=p: f_varint(1, i) + f_bytes(2, p))
                            for p in parts]
                mapping_id = self._id(self.mappings, module, out, 19,
                                      lambda i: f_varint(1, i) + f_packed(7, part_ids))
            frame_ids.append(self._id(self.frames, (name_id, mapping_id), out, 6,
                                      lambda i: f_varint(1, i) + f_varint(2, name_id) +
                                      (f_varint(3, mapping_id) if mapping_id else b'')))
        stack_id = self._id(self.stacks, tuple(frame_ids), out, 7,
                            lambda i: f_varint(1, i) + f_packed(2, frame_ids))
        return stack_id, b''.join(out)


def packet(body):
    return f_bytes(1, body)


def switch_fields(m):
    state = STATE_BITS.get(m.group(4)[0], 0)
    if m.group(4).startswith('R+'):
        state = 256
    return m, state


def ftrace_event(ev):
    """A plain FtraceEvent, or None for events Perfetto's ftrace does not give."""
    rest = ev['rest']
    head = f_varint(1, ev['time']) + f_varint(2, ev['tid'])
    if ev['event'] == 'sched:sched_switch':
        m, state = switch_fields(SWITCH.search(rest))
        body = (f_bytes(1, m.group(1)) + f_varint(2, int(m.group(2))) + f_varint(3, int(m.group(3))) +
                f_varint(4, state) + f_bytes(5, m.group(5)) + f_varint(6, int(m.group(6))) +
                f_varint(7, int(m.group(7))))
        return head + f_bytes(4, body)
    if ev['event'] in ('sched:sched_waking', 'sched:sched_wakeup', 'sched:sched_wakeup_new'):
        m = WAKE.search(rest)
        body = f_bytes(1, m.group(1)) + f_varint(2, int(m.group(2))) + f_varint(3, int(m.group(3)))
        if m.group(4) is not None:
            body += f_varint(5, int(m.group(4)))
        number = {'sched:sched_waking': 20, 'sched:sched_wakeup': 17, 'sched:sched_wakeup_new': 114}[ev['event']]
        return head + f_bytes(number, body)
    if ev['event'] == 'sched:sched_process_fork':
        m = FORK.search(rest)
        body = (f_bytes(1, m.group(1)) + f_varint(2, int(m.group(2))) + f_bytes(3, m.group(3)) +
                f_varint(4, int(m.group(4))))
        return head + f_bytes(239, body)
    if ev['event'] == 'sched:sched_process_exit':
        m = EXIT.search(rest)
        return head + f_bytes(238, f_bytes(1, m.group(1)) + f_varint(2, int(m.group(2))))
    return None


def bundle(cpu, evs, compact):
    body = f_varint(1, cpu)
    if not compact:
        for ev in evs:
            e = ftrace_event(ev)
            if e is not None:
                body += f_bytes(2, e)
        return packet(f_varint(10, 1) + f_bytes(1, body))
    table, sw, wk = [], [], []

    def index(comm):
        if comm not in table:
            table.append(comm)
        return table.index(comm)
    for ev in evs:
        if ev['event'] == 'sched:sched_switch':
            m, state = switch_fields(SWITCH.search(ev['rest']))
            sw.append((ev['time'], state, int(m.group(6)), int(m.group(7)), index(m.group(5))))
        elif ev['event'] == 'sched:sched_waking':
            m = WAKE.search(ev['rest'])
            wk.append((ev['time'], int(m.group(2)), int(m.group(4) or 0), int(m.group(3)), index(m.group(1))))
        else:
            e = ftrace_event(ev)
            if e is not None:
                body += f_bytes(2, e)

    def deltas(times):
        return [t - (times[i - 1] if i else 0) for i, t in enumerate(times)]
    c = b''.join(f_bytes(5, s) for s in table)
    if sw:
        c += (f_packed(1, deltas([s[0] for s in sw])) + f_packed(2, [s[1] for s in sw]) +
              f_packed(3, [s[2] for s in sw]) + f_packed(4, [s[3] for s in sw]) +
              f_packed(6, [s[4] for s in sw]))
    if wk:
        c += (f_packed(7, deltas([w[0] for w in wk])) + f_packed(8, [w[1] for w in wk]) +
              f_packed(9, [w[2] for w in wk]) + f_packed(10, [w[3] for w in wk]) +
              f_packed(11, [w[4] for w in wk]) + f_packed(12, [0] * len(wk)))
    body += f_bytes(4, c)
    return packet(f_varint(10, 1) + f_bytes(1, body))


def timebase_packet(seq, event):
    if event in TRACEPOINTS:
        timebase = f_bytes(3, f_bytes(1, event)) + f_varint(1, 1)
    elif event in COUNTERS:
        timebase = f_varint(4, COUNTERS[event]) + f_varint(2, 499)
    else:
        timebase = f_bytes(10, event) + f_varint(2, 499)
    defaults = f_bytes(12, f_bytes(1, timebase))
    return packet(f_varint(10, seq) + f_varint(13, 1) + f_bytes(59, defaults))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('input')
    ap.add_argument('output')
    ap.add_argument('--compact', action='store_true')
    ap.add_argument('--like-compact', action='store_true')
    ap.add_argument('--distinct-times', action='store_true')
    args = ap.parse_args()

    events, names, pids = read_perf(args.input)
    if args.distinct_times:
        # perf prints microseconds, so events of one CPU often share a
        # time; the compact encoding keeps switches and wakings in separate
        # arrays, and their order at one time is lost.  Perfetto's
        # nanosecond times seldom tie: one nanosecond apart, in file order.
        last = None
        for ev in events:
            if last is not None and ev['time'] <= last:
                ev['time'] = last + 1
            last = ev['time']
    if args.like_compact:
        # What the compact encoding says, in the plain one: the thread a
        # switch or waking ran in is the CPU's last next_pid (named by its
        # next_comm), even where perf's own recording says otherwise (a
        # lost event); nothing before a CPU's first switch.
        running, kept = {}, []
        for ev in events:
            cpu = ev['cpu']
            if ev['event'] in ('sched:sched_switch', 'sched:sched_waking') and cpu not in running:
                if ev['event'] == 'sched:sched_switch':
                    m = SWITCH.search(ev['rest'])
                    running[cpu] = (int(m.group(6)), m.group(5))
                if args.compact:
                    kept.append(ev)   # written; the reader cannot use it
                continue
            if ev['event'] == 'sched:sched_switch':
                m = SWITCH.search(ev['rest'])
                tid, comm = running[cpu]
                ev['tid'] = tid
                ev['rest'] = (f'prev_comm={comm} prev_pid={tid} prev_prio={m.group(3)} '
                              f'prev_state={m.group(4)} ==> ' + ev['rest'][ev['rest'].index('next_comm='):])
                running[cpu] = (int(m.group(6)), m.group(5))
            elif ev['event'] == 'sched:sched_waking':
                ev['tid'] = running[cpu][0]
            kept.append(ev)
        events = kept
    out = bytearray()
    start = min((e['time'] for e in events), default=0)

    # ProcessTree: every process (its main thread's name) and thread.
    tree = b''
    for tid in sorted(pids):
        pid = pids[tid]
        if tid <= 0:
            continue
        if tid == pid:
            tree += f_bytes(1, f_varint(1, pid) + f_bytes(3, names.get(tid, '')) + f_varint(9, 1))
        else:
            tree += f_bytes(2, f_varint(1, tid) + f_varint(3, pid) + f_bytes(2, names.get(tid, '')))
    out += packet(f_varint(8, start) + f_varint(10, 1) + f_bytes(2, tree))

    # Ftrace bundles: per read cycle, each CPU's events of that cycle.
    cycles = {}
    for ev in events:
        if ev['event'] in TRACEPOINTS:
            cycles.setdefault((ev['time'] - start) // READ_CYCLE_NS, {}).setdefault(ev['cpu'], []).append(ev)
    for cycle in sorted(cycles):
        for cpu in sorted(cycles[cycle]):
            out += bundle(cpu, cycles[cycle][cpu], args.compact)

    # PerfSamples: one sequence per sampled event.
    sequences, counts = {}, {}
    for ev in events:
        is_tracepoint = ':' in ev['event']
        if is_tracepoint and (ev['event'] not in TRACEPOINTS or not ev['stack']):
            continue
        if ev['event'] not in sequences:
            seq = len(sequences) + 2
            sequences[ev['event']] = (seq, Interner())
            out += timebase_packet(seq, ev['event'])
        seq, interner = sequences[ev['event']]
        body = f_varint(1, ev['cpu']) + f_varint(2, ev['pid']) + f_varint(3, ev['tid'])
        interned = b''
        if ev['stack']:
            stack_id, interned = interner.callstack(ev['stack'])
            body += f_varint(4, stack_id)
        if not is_tracepoint:
            key = (seq, ev['cpu'])
            counts[key] = counts.get(key, 0) + ev['period']
            body += f_varint(6, counts[key])
        p = f_varint(8, ev['time']) + f_varint(10, seq) + f_varint(13, 2)
        if interned:
            p += f_bytes(12, interned)
        out += packet(p + f_bytes(66, body))

    opener = gzip.open if args.output.endswith('.gz') else open
    with opener(args.output, 'wb') as f:
        f.write(out)


if __name__ == '__main__':
    main()
