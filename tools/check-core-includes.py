#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fails if the core library's modules include each other in a circle.

A module is a .c file and its .h (ws-trace.c, ws-trace.h).  A header named
*-private.h is shared by the files of one part (the perf importer's, the
JSON importer's): it is not a module of its own, and what it includes
counts as included by each file that includes it.  Prints every circle
(a strongly connected set of modules, with the includes that close it)
and exits 1 if there is one.

    tools/check-core-includes.py [SRC_CORE_DIR]
    tools/check-core-includes.py --self-test   (the checker on made-up trees)
"""
import collections
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)\.h"', re.M)


def read_includes(root):
    files = {}
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(('.c', '.h')):
                stem = name.rsplit('.', 1)[0]
                with open(os.path.join(folder, name), encoding='utf-8') as f:
                    files.setdefault(stem, []).append(
                        [os.path.basename(i) for i in INCLUDE.findall(f.read())])
    return files


def module_graph(files):
    private = {stem for stem in files if stem.endswith('-private')}

    def expand(includes, seen):
        for inc in includes:
            if inc in private:
                if inc not in seen:
                    seen.add(inc)
                    for inner in files[inc]:
                        yield from expand(inner, seen)
            elif inc in files:
                yield inc

    graph = collections.defaultdict(set)
    for stem, lists in files.items():
        if stem in private:
            continue
        for includes in lists:
            for inc in expand(includes, set()):
                if inc != stem:
                    graph[stem].add(inc)
    return graph


def circles(graph):
    """Tarjan's strongly connected components of more than one module."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(100000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def self_test():
    import tempfile

    def tree(files):
        d = tempfile.mkdtemp()
        for name, includes in files.items():
            with open(os.path.join(d, name), 'w', encoding='utf-8') as f:
                f.write(''.join(f'#include "{i}"\n' for i in includes))
        return circles(module_graph(read_includes(d)))

    # a.c → b.h, b.c → a.h: a circle.
    assert tree({'a.c': ['b.h'], 'a.h': [], 'b.c': ['a.h'], 'b.h': []}) == [['a', 'b']]
    # Through a private header: a.c → p-private.h → b.h, b.c → a.h.
    assert tree({'a.c': ['p-private.h'], 'p-private.h': ['b.h'], 'b.c': ['a.h'], 'a.h': [], 'b.h': []}) == [['a', 'b']]
    # A private header naming its own module's header is no circle.
    assert tree({'x.c': ['x-private.h', 'x.h'], 'x-private.h': ['x.h'], 'x.h': [], 'y.c': ['x-private.h']}) == []
    # A longer one: a → b → c → a.
    assert tree({'a.c': ['b.h'], 'b.c': ['c.h'], 'c.c': ['a.h'], 'a.h': [], 'b.h': [], 'c.h': []}) == [['a', 'b', 'c']]
    print('self-test passed')
    return 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', 'src', 'core')
    graph = module_graph(read_includes(root))
    found = circles(graph)
    for component in found:
        members = set(component)
        edges = [f'{a} → {b}' for a in component for b in sorted(graph[a]) if b in members]
        print('include circle: ' + ', '.join(component) + ' (' + '; '.join(edges) + ')')
    n_edges = sum(len(v) for v in graph.values())
    print(f'{len(graph)} modules, {n_edges} includes between them, {len(found)} circles')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
