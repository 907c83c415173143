#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Converts a perf scheduler recording (`perf script` text, gzip or not)
into an LTTng-shaped kernel CTF trace, field by field, with libbabeltrace2's
Python bindings (Debian python3-bt2; hence /usr/bin/python3) and its
`sink.ctf.fs`, the way LTTng would have recorded the same events with

    lttng enable-event -k sched_switch,sched_waking,sched_wakeup,sched_wakeup_new,\\
        sched_process_fork,sched_process_exit,block_rq_issue,block_rq_complete
    lttng add-context -k -t tid -t pid -t callstack-kernel -t callstack-user

(docs/importers.md, "LTTng kernel traces"):

  - one stream per CPU, its packets' context naming the CPU (`cpu_id`);
  - LTTng's event and field names: sched_switch prev_tid/next_tid and an
    integer prev_state, sched_waking tid, block_rq_* dev (the kernel's
    dev_t, major << 20 | minor) and rwbs as LTTng's integer flags
    (lttng-modules include/instrumentation/events/block.h), not the text
    perf prints;
  - every event's call stack as the `callstack_kernel` and
    `callstack_user` contexts: sequences of 64-bit addresses, innermost
    first, with no symbols, as LTTng records them.  perf prints kernel
    addresses as they are and user addresses relative to their file, so
    each file gets a made-up load address (a user address in the trace is
    that base plus perf's address).

The trace is written as LTTng lays out a session: OUT/kernel/ (metadata,
channel0_N).  Beside it, OUT/kallsyms names every address ("ADDRESS t
SYMBOL", then "\\t[FILE]" for a user address), the form of /proc/kallsyms
that the CTF importer reads from a trace's session directory: the test
resolves addresses through it, or reads the trace without it and maps the
bare addresses back itself.  --no-kallsyms leaves it out.

    /usr/bin/python3 tools/perf-to-ctf.py IN.perf.txt.gz OUT_DIR [--no-kallsyms]
"""
import argparse
import importlib.util
import os
import re
import sys

import bt2

# The perf text's lines, read as the Perfetto converter reads them.
_spec = importlib.util.spec_from_file_location(
    'perf_to_perfetto', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'perf-to-perfetto.py'))
_p2p = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_p2p)
HEADER, TASK, COMM, SWITCH, WAKE, FORK, EXIT = (_p2p.HEADER, _p2p.TASK, _p2p.COMM, _p2p.SWITCH,
                                                _p2p.WAKE, _p2p.FORK, _p2p.EXIT)
STATE_BITS = _p2p.STATE_BITS
PREEMPTED = 0x100   # "R+": TASK_REPORT_MAX, the preemption bit above the states

BLOCK_ISSUE = re.compile(r'^(\d+),(\d+) (\S+) (\d+) \(.*?\) (\d+) \+ (\d+)')
BLOCK_COMPLETE = re.compile(r'^(\d+),(\d+) (\S+) \(.*?\) (\d+) \+ (\d+)(?: \S+)? \[(-?\d+)\]')

# lttng-modules' RWBS_FLAG_* (include/instrumentation/events/block.h)
RWBS_WRITE, RWBS_DISCARD, RWBS_READ, RWBS_RAHEAD = 1, 2, 4, 8
RWBS_SYNC, RWBS_META, RWBS_SECURE, RWBS_FLUSH, RWBS_FUA, RWBS_PREFLUSH = 32, 64, 128, 256, 512, 1024

KERNEL_MODULE = '[kernel.kallsyms]'
KERNEL_SPACE = 0xffff000000000000
USER_SPECIAL = ('[unknown]', '[vdso]', '[vsyscall]', '[heap]', '[stack]')
USER_BASE, USER_STEP = 0x500000000000, 0x100000000   # a made-up load address per file


def rwbs_flags(text):
    """perf's rwbs text ("FWS", "RA", "FF") as LTTng's integer flags."""
    flags, i = 0, 0
    if len(text) > 1 and text[0] == 'F' and text[1] in 'WDRFN':
        flags, i = RWBS_PREFLUSH, 1
    op = text[i] if i < len(text) else 'N'
    flags |= {'W': RWBS_WRITE, 'D': RWBS_DISCARD, 'R': RWBS_READ, 'F': RWBS_FLUSH}.get(op, 0)
    for c in text[i + 1:]:
        flags |= {'F': RWBS_FUA, 'A': RWBS_RAHEAD, 'S': RWBS_SYNC, 'M': RWBS_META, 'E': RWBS_SECURE}.get(c, 0)
    return flags


def parse_frame(line):
    """'\\tffffffff813b4986 try_to_wake_up ([kernel.kallsyms])' -> (address, symbol, module)."""
    s = line.strip()
    m = re.match(r'([0-9a-fA-F]+) ?', s)
    address = int(m.group(1), 16) if m else 0
    symbol, module = _p2p.parse_frame(line)
    return address, symbol, module


def read_perf(path):
    """The perf text's events, with their frames' addresses kept."""
    opener = _p2p.gzip.open if path.endswith('.gz') else open
    events, pids = [], {}
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
                time = int(m.group(5)) * 1_000_000_000 + int(m.group(6).ljust(9, '0')[:9])
                c = COMM.match(m.group(7))
                if c:
                    pids[int(c.group(3))] = int(c.group(2))
                    # perf's list of the threads alive at the start is
                    # LTTng's statedump; a later exec, sched_process_exec
                    events.append(dict(event='lttng:' + ('lttng_statedump_process_state' if time == 0
                                                         else 'sched_process_exec'),
                                       time=time, cpu=int(m.group(4)), pid=int(c.group(2)), tid=int(c.group(3)),
                                       comm=c.group(1), rest='', stack=[]))
                fk = re.match(r'PERF_RECORD_FORK\((-?\d+):(-?\d+)\)', m.group(7))
                if fk:
                    pids[int(fk.group(2))] = int(fk.group(1))
                continue
            m = HEADER.match(line)
            if not m:
                sys.exit(f'{path}: not a perf script line: {line[:80]}')
            comm, pid, tid, cpu, sec, frac, _period, event, rest = m.groups()
            ev = dict(comm=comm, pid=int(pid), tid=int(tid), cpu=int(cpu),
                      time=int(sec) * 1_000_000_000 + int(frac.ljust(9, '0')[:9]),
                      event=event, rest=rest or '', stack=[])
            if int(tid) < 0 and event == 'sched:sched_switch':
                ev['tid'] = int(SWITCH.search(ev['rest']).group(2))   # as the kernel gives prev_tid
            pids.setdefault(ev['tid'], ev['pid'])
            events.append(ev)
            current = ev
    return events, pids


class Addresses:
    """Each frame's address in the trace, and the symbol it stands for."""

    def __init__(self):
        self.bases, self.symbols = {}, {}

    def of(self, address, symbol, module, kernel):
        if not kernel:
            if module not in self.bases:
                self.bases[module] = USER_BASE + USER_STEP * len(self.bases)
            address = (address + self.bases[module]) % 2 ** 64
        known = self.symbols.setdefault(address, (symbol, module))
        if known != (symbol, module):
            sys.exit(f'address {address:#x} is both {known} and {(symbol, module)}')
        return address

    def write_kallsyms(self, path):
        with open(path, 'w', encoding='utf-8', errors='surrogateescape') as f:
            for address in sorted(self.symbols):
                symbol, module = self.symbols[address]
                if not symbol or '\t' in symbol or '\n' in symbol:
                    continue   # no name to give: the trace keeps the bare address
                if module is None or module == KERNEL_MODULE:
                    f.write(f'{address:016x} t {symbol}\n')
                elif module.startswith('[') and module.endswith(']'):
                    f.write(f'{address:016x} t {symbol}\t{module}\n')   # [vdso], [unknown]: kept
                else:
                    f.write(f'{address:016x} t {symbol}\t[{module}]\n')


FIELDS = {
    # LTTng's payload of each event (lttng-modules include/instrumentation/events/)
    'sched_switch': [('prev_comm', 's'), ('prev_tid', 'i32'), ('prev_prio', 'i32'), ('prev_state', 'i64'),
                     ('next_comm', 's'), ('next_tid', 'i32'), ('next_prio', 'i32')],
    'sched_waking': [('comm', 's'), ('tid', 'i32'), ('prio', 'i32'), ('target_cpu', 'i32')],
    'sched_process_fork': [('parent_comm', 's'), ('parent_tid', 'i32'), ('parent_pid', 'i32'),
                           ('child_comm', 's'), ('child_tid', 'i32'), ('child_pid', 'i32')],
    'sched_process_exit': [('comm', 's'), ('tid', 'i32'), ('prio', 'i32')],
    'sched_process_exec': [('filename', 's'), ('tid', 'i32'), ('old_tid', 'i32')],
    'lttng_statedump_process_state': [('tid', 'i32'), ('vtid', 'i32'), ('pid', 'i32'), ('vpid', 'i32'),
                                      ('ppid', 'i32'), ('vppid', 'i32'), ('name', 's'), ('type', 'i32'),
                                      ('mode', 'i32'), ('submode', 'i32'), ('status', 'i32'), ('cpu', 'u32')],
    'block_rq_issue': [('dev', 'u32'), ('sector', 'u64'), ('nr_sector', 'u32'), ('bytes', 'u32'),
                       ('tid', 'i32'), ('rwbs', 'u32'), ('comm', 's')],
    'block_rq_complete': [('dev', 'u32'), ('sector', 'u64'), ('nr_sector', 'u32'), ('error', 'i32'),
                          ('rwbs', 'u32')],
}
FIELDS['sched_wakeup'] = FIELDS['sched_wakeup_new'] = FIELDS['sched_waking']


def payload_of(ev, pids):
    """The LTTng payload of a perf event, or None for one LTTng would not record here."""
    name, rest = ev['event'].split(':', 1)[-1], ev['rest']
    if name == 'lttng_statedump_process_state':
        return name, dict(tid=ev['tid'], vtid=ev['tid'], pid=ev['pid'], vpid=ev['pid'], ppid=0, vppid=0,
                          name=ev['comm'], type=0, mode=0, submode=0, status=0, cpu=ev['cpu'])
    if name == 'sched_process_exec':
        return name, dict(filename=ev['comm'], tid=ev['tid'], old_tid=ev['tid'])
    if name == 'sched_switch':
        m = SWITCH.search(rest)
        state = m.group(4)
        bits = STATE_BITS.get(state[0], 0) | (PREEMPTED if state.endswith('+') else 0)
        return name, dict(prev_comm=m.group(1), prev_tid=int(m.group(2)), prev_prio=int(m.group(3)),
                          prev_state=bits, next_comm=m.group(5), next_tid=int(m.group(6)),
                          next_prio=int(m.group(7)))
    if name in ('sched_waking', 'sched_wakeup', 'sched_wakeup_new'):
        m = WAKE.search(rest)
        return name, dict(comm=m.group(1), tid=int(m.group(2)), prio=int(m.group(3)),
                          target_cpu=int(m.group(4) or ev['cpu']))
    if name == 'sched_process_fork':
        m = FORK.search(rest)
        child = int(m.group(4))
        return name, dict(parent_comm=m.group(1), parent_tid=int(m.group(2)), parent_pid=ev['pid'],
                          child_comm=m.group(3), child_tid=child, child_pid=pids.get(child, child))
    if name == 'sched_process_exit':
        m = EXIT.search(rest)
        return name, dict(comm=m.group(1), tid=int(m.group(2)), prio=int(m.group(3)))
    if name == 'block_rq_issue':
        m = BLOCK_ISSUE.match(rest)
        if not m:
            return None
        major, minor, rwbs, size, sector, n = m.groups()
        return name, dict(dev=int(major) << 20 | int(minor), sector=int(sector), nr_sector=int(n),
                          bytes=int(size), tid=ev['tid'], rwbs=rwbs_flags(rwbs), comm=ev['comm'])
    if name == 'block_rq_complete':
        m = BLOCK_COMPLETE.match(rest)
        if not m:
            return None
        major, minor, rwbs, sector, n, err = m.groups()
        # perf prints the sectors left as "18446744073709551615" for a
        # flush; LTTng's sector_t field holds the same bits.
        return name, dict(dev=int(major) << 20 | int(minor), sector=int(sector) & (2 ** 64 - 1),
                          nr_sector=int(n), error=int(err), rwbs=rwbs_flags(rwbs))
    return None


class Iterator(bt2._UserMessageIterator):
    def __init__(self, config, port):
        self._messages = port.user_data(self)

    def __next__(self):
        return next(self._messages)


@bt2.plugin_component_class
class Source(bt2._UserSourceComponent, message_iterator_class=Iterator):
    """The converted events as one trace, one stream per CPU."""

    def __init__(self, config, params, obj):
        self._events, self._pids, self._addresses = obj
        self._add_output_port('out', self._messages)

    def _field_class(self, tc, kind):
        if kind == 's':
            return tc.create_string_field_class()
        signed, bits = kind[0] == 'i', int(kind[1:])
        return (tc.create_signed_integer_field_class(bits) if signed
                else tc.create_unsigned_integer_field_class(bits))

    def _messages(self, it):
        tc = self._create_trace_class()
        clock = self._create_clock_class(frequency=1_000_000_000, name='monotonic',
                                         origin_is_unix_epoch=False)
        packet_context = tc.create_structure_field_class()
        packet_context.append_member('cpu_id', tc.create_unsigned_integer_field_class(32))
        context = tc.create_structure_field_class()
        context.append_member('tid', tc.create_signed_integer_field_class(32))
        context.append_member('pid', tc.create_signed_integer_field_class(32))
        for which in ('kernel', 'user'):
            length = tc.create_unsigned_integer_field_class(32)
            element = tc.create_unsigned_integer_field_class(
                64, preferred_display_base=bt2.IntegerDisplayBase.HEXADECIMAL)
            context.append_member(f'_callstack_{which}_length', length)
            context.append_member(f'callstack_{which}', tc.create_dynamic_array_field_class(element, length))
        sc = tc.create_stream_class(default_clock_class=clock, supports_packets=True,
                                    packets_have_beginning_default_clock_snapshot=True,
                                    packets_have_end_default_clock_snapshot=True,
                                    packet_context_field_class=packet_context,
                                    event_common_context_field_class=context)
        classes = {}
        for name, fields in FIELDS.items():
            payload = tc.create_structure_field_class()
            for field, kind in fields:
                payload.append_member(field, self._field_class(tc, kind))
            classes[name] = sc.create_event_class(name=name, payload_field_class=payload)

        trace = tc(environment={'domain': 'kernel', 'tracer_name': 'lttng-modules',
                                'tracer_major': 2, 'tracer_minor': 13})
        converted = [(ev, p) for ev in self._events for p in [payload_of(ev, self._pids)] if p]
        first, last = converted[0][0]['time'], converted[-1][0]['time']
        cpus = sorted({ev['cpu'] for ev, _ in converted})
        streams, packets = {}, {}
        for cpu in cpus:
            streams[cpu] = trace.create_stream(sc, name=f'channel0_{cpu}')
            packets[cpu] = streams[cpu].create_packet()
            packets[cpu].context_field['cpu_id'] = cpu
            yield it._create_stream_beginning_message(streams[cpu])
            yield it._create_packet_beginning_message(packets[cpu], first)
        for ev, (name, payload) in converted:
            msg = it._create_event_message(classes[name], packets[ev['cpu']], ev['time'])
            ctx = msg.event.common_context_field
            ctx['tid'], ctx['pid'] = ev['tid'], ev['pid']
            kernel, user = [], []
            for address, symbol, module in ev['stack']:
                # perf prints the kernel's frames first: the kernel and
                # its modules ("[ext4]"), at kernel addresses
                is_kernel = not user and (module == KERNEL_MODULE or (
                    module is not None and module.startswith('[') and module not in USER_SPECIAL and
                    address >= KERNEL_SPACE))
                (kernel if is_kernel else user).append(self._addresses.of(address, symbol, module, is_kernel))
            ctx['_callstack_kernel_length'], ctx['_callstack_user_length'] = len(kernel), len(user)
            ctx['callstack_kernel'].length, ctx['callstack_user'].length = len(kernel), len(user)
            for i, a in enumerate(kernel):
                ctx['callstack_kernel'][i] = a
            for i, a in enumerate(user):
                ctx['callstack_user'][i] = a
            for field, value in payload.items():
                msg.event.payload_field[field] = value
            yield msg
        for cpu in cpus:
            yield it._create_packet_end_message(packets[cpu], last)
            yield it._create_stream_end_message(streams[cpu])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('input')
    ap.add_argument('output', help='the session directory to write (must not exist): OUT/kernel, OUT/kallsyms')
    ap.add_argument('--no-kallsyms', action='store_true')
    args = ap.parse_args()
    if os.path.exists(args.output):
        sys.exit(f'{args.output}: exists')
    events, pids = read_perf(args.input)
    # Stable: file order within a time.  The statedump (perf's threads at
    # time 0) comes first, at the time of the first event.
    start = min((ev['time'] for ev in events if ev['time'] > 0), default=0)
    for ev in events:
        if ev['event'] == 'lttng:lttng_statedump_process_state':
            ev['time'] = start
    events.sort(key=lambda ev: ev['time'])
    addresses = Addresses()
    graph = bt2.Graph()
    source = graph.add_component(Source, 'perf', obj=(events, pids, addresses))
    sink = graph.add_component(bt2.find_plugin('ctf').sink_component_classes['fs'], 'ctf',
                               params={'path': os.path.join(args.output, 'kernel'),
                                       'assume-single-trace': True})
    graph.connect_ports(source.output_ports['out'], sink.input_ports['in'])
    graph.run()
    if not args.no_kallsyms:
        addresses.write_kallsyms(os.path.join(args.output, 'kallsyms'))


if __name__ == '__main__':
    main()
