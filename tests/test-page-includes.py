#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Pages never include the window or the application.

A page (src/gui/ws-page.[ch], ws-*-page*.[ch] but the window's own
ws-window-*.c files) gets everything it shares through its WsSession and
talks to the window by signals: including ws-window*.h or
ws-application.h would let it reach up the widget tree, and would make
adding a page touch the window.  Values both sides name (which analysis a
row opens) live in a small header of their own (ws-analysis-kind.h).
Prints each such include with its file and line and exits 1 if any."""
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
gui = os.path.join(os.path.dirname(here), "src", "gui")
INCLUDE = re.compile(r'^\s*#\s*include\s+"(ws-window[^"]*|ws-application[^"]*)"')


def is_page(name):
    stem, ext = os.path.splitext(name)
    if ext not in (".c", ".h") or name.startswith("ws-window"):
        return False
    return stem == "ws-page" or re.match(r"ws-.+-page(-.+)?$", stem) is not None


pages = sorted(n for n in os.listdir(gui) if is_page(n))
if len(pages) < 6:
    print("FAIL: found only %d page files in %s" % (len(pages), gui))
    sys.exit(1)
bad = 0
for name in pages:
    with open(os.path.join(gui, name), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                bad += 1
                print("FAIL: src/gui/%s:%d includes %s: a page must not include the window"
                      % (name, number, m.group(1)))
print("%d page files checked, %d include the window" % (len(pages), bad))
sys.exit(1 if bad else 0)
