#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The application as a screen reader sees it, over the real accessibility
bus (AT-SPI): start the accessibility bus (at-spi-bus-launcher, which
brings the registry), run the real waitscope binary on a real perf trace
with GTK's AT-SPI backend, and walk its accessible tree from outside the
process.  Checks that the timeline, the graph views and the Mining
alignment expose the roles and names the application sets, that the
header bar's buttons have names, and that the keyboard focus (real key
presses through the X server) moves between widgets and into the analyses.

Usage: test-gui-atspi.py WAITSCOPE TRACE
Needs a display (Xvfb), a session bus (dbus-run-session) and the
python3-gi + gir1.2-atspi-2.0 packages; exits 77 (skip) only when one of
those is missing, saying which.
"""
import os
import re
import subprocess
import sys
import time

SKIP = 77


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(SKIP)


try:
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi  # noqa: E402
except (ImportError, ValueError) as e:
    skip(f"no AT-SPI bindings for Python (install python3-gi and gir1.2-atspi-2.0): {e}")

if len(sys.argv) != 3:
    print(__doc__)
    sys.exit(2)
APP, TRACE = sys.argv[1], sys.argv[2]
if not os.environ.get("DISPLAY"):
    skip("no X display (run under xvfb-run)")
if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
    skip("no session bus (run under dbus-run-session)")
LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
if not os.access(LAUNCHER, os.X_OK):
    skip(f"{LAUNCHER} is missing (install at-spi2-core)")

failures = []


def check(ok, what):
    print(("ok     " if ok else "FAILED ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


def wait_for(what, fn, timeout=90.0):
    """Polls fn() until it returns something true (never a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = fn()
        if value:
            return value
        time.sleep(0.1)
    print(f"FAILED waiting for {what} ({timeout:.0f} s)", flush=True)
    failures.append(f"timed out waiting for {what}")
    return None


def role(acc):
    try:
        return acc.get_role()
    except Exception:
        return None


def name(acc):
    try:
        return acc.get_name() or ""
    except Exception:
        return ""


def children(acc):
    try:
        n = acc.get_child_count()
    except Exception:
        return []
    out = []
    for i in range(n):
        try:
            c = acc.get_child_at_index(i)
        except Exception:
            c = None
        if c is not None:
            out.append(c)
    return out


def walk(root, limit=20000):
    """Every accessible under root, breadth first (bounded: a table of
    many rows must not make the walk endless)."""
    seen, queue = [], [root]
    while queue and len(seen) < limit:
        acc = queue.pop(0)
        seen.append(acc)
        queue.extend(children(acc))
    return seen


def find(root, pred):
    return [a for a in walk(root) if pred(a)]


def states(acc):
    try:
        return acc.get_state_set()
    except Exception:
        return None


def has_state(acc, state):
    st = states(acc)
    return st is not None and st.contains(state)


def focused_among(accs):
    for a in accs:
        if has_state(a, Atspi.StateType.FOCUSED):
            return a
    return None


def description(acc):
    try:
        return acc.get_description() or ""
    except Exception:
        return ""


def describe(acc):
    if acc is None:
        return "nothing"
    r = role(acc)
    return f"{Atspi.Role(r).value_nick if r is not None else '?'} “{name(acc)}”"


KEY_SYMS = {"Tab": 0xff09, "Menu": 0xff67, "Escape": 0xff1b, "Return": 0xff0d,
            "bracketright": 0x5d, "Alt_L": 0xffe9, "Control_L": 0xffe3, "Shift_L": 0xffe1,
            "5": 0x35, "r": 0x72}


MASKS = {"Shift_L": 1 << 0, "Control_L": 1 << 2, "Alt_L": 1 << 3}


def key(sym, mods=()):
    """A real key press through the X server (XTest); modifiers are locked
    around it (at-spi synthesises a keysym as a press and release)."""
    mask = sum(MASKS[m] for m in mods)
    if mask:
        Atspi.generate_keyboard_event(mask, None, Atspi.KeySynthType.LOCKMODIFIERS)
    Atspi.generate_keyboard_event(KEY_SYMS[sym], None, Atspi.KeySynthType.SYM)
    if mask:
        Atspi.generate_keyboard_event(mask, None, Atspi.KeySynthType.UNLOCKMODIFIERS)


def start_bus():
    """The accessibility bus, started now (as a session would at login)."""
    bus = subprocess.Popen([LAUNCHER, "--launch-immediately"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)

    def address():
        r = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus",
                            "org.a11y.Bus.GetAddress"], capture_output=True, text=True)
        return r.returncode == 0 and "unix:" in r.stdout
    if not wait_for("the accessibility bus", address, 60):
        bus.terminate()
        skip("at-spi-bus-launcher did not come up on the session bus")
    return bus


def main():
    bus = start_bus()
    Atspi.init()
    env = dict(os.environ)
    # The GUI tests' in-process backend would hide the app from the bus.
    env.pop("GTK_A11Y", None)
    env.pop("NO_AT_BRIDGE", None)
    env["GSETTINGS_BACKEND"] = "memory"
    env.setdefault("GSK_RENDERER", "cairo")
    app_proc = subprocess.Popen([APP, TRACE], env=env, stderr=subprocess.PIPE, text=True)
    try:
        run_checks(app_proc)
    finally:
        app_proc.terminate()
        try:
            _, err = app_proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            app_proc.kill()
            _, err = app_proc.communicate()
        bus.terminate()
        bus.wait(timeout=20)
    warnings = [l for l in (err or "").splitlines()
                if any(w in l for w in ("-WARNING", "-CRITICAL", "Gtk-", "Adwaita-"))]
    check(not warnings, "no GTK warning on the application's stderr" + ("".join("\n  " + w for w in warnings)))
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("all checks passed")


def find_app():
    desktop = Atspi.get_desktop(0)
    for a in children(desktop):
        if name(a).lower().startswith("waitscope"):
            return a
    return None


def first(accs, pred):
    return next((a for a in accs if pred(a)), None)


def bad_button_name(acc):
    """A name a screen reader should not read: none, a class name
    ("GtkImage"), a mnemonic underscore ("_Open"), or the same words twice."""
    n = name(acc).strip()
    words = n.split()
    half = len(words) // 2
    return (not n or re.match(r"^Gtk[A-Z]", n) is not None or re.search(r"(^|\s)_\w", n) is not None
            or (len(words) % 2 == 0 and half > 0 and words[:half] == words[half:]))


def run_checks(app_proc):
    app = wait_for("the application on the accessibility bus", find_app)
    if app is None:
        return
    print(f"application: {describe(app)}")
    # The trace loads, then the timeline shows it ("timeline of" in its
    # description, set once it has data).
    timeline = wait_for("the timeline (table “Thread timeline”)",
                        lambda: first(walk(app), lambda a: role(a) == Atspi.Role.TABLE and name(a) == "Thread timeline"))
    if timeline is None:
        return
    check(wait_for("the timeline to describe the trace", lambda: "timeline of" in description(timeline), 60) is not None,
          f"the timeline is {describe(timeline)}: {description(timeline)[:90]}…")

    everything = walk(app)
    print(f"{len(everything)} accessible objects in the window")
    graph = first(everything, lambda a: role(a) == Atspi.Role.TREE and name(a) in ("Wait graph", "Ready tree"))
    check(graph is not None, f"the graph view is a tree named “Wait graph”: {describe(graph)}")
    path = first(everything, lambda a: role(a) == Atspi.Role.LIST and name(a) == "Critical path")
    check(path is not None, f"the critical path is a list named “Critical path”: {describe(path)}")
    align = first(everything, lambda a: role(a) == Atspi.Role.TABLE and name(a) == "Alignment of the cluster's patterns")
    check(align is not None, f"the Mining alignment is a table with its name: {describe(align)}")
    threads = first(everything, lambda a: role(a) == Atspi.Role.TREE_TABLE and name(a).startswith("Threads"))
    check(threads is not None, f"the Threads table: {describe(threads)}")

    # Every button has a name a person would read.
    buttons = [a for a in everything if role(a) in (Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON)
               and role(a.get_parent()) != Atspi.Role.COMBO_BOX]
    bad = [describe(b) + " in " + describe(b.get_parent()) for b in buttons if bad_button_name(b)]
    check(len(buttons) >= 30 and not bad,
          f"{len(buttons)} buttons, each with a name" + ("; badly named: " + ", ".join(bad[:12]) if bad else ""))
    for wanted in ("Open", "Main Menu", "Show Open Traces (F9)", "Zoom In (+)", "Wait Graph", "Ready Tree"):
        check(any(name(b) == wanted for b in buttons), f"a button named “{wanted}”")

    # Focus moves with the keyboard: Tab walks the window until the
    # timeline has it (real key presses through the X server).
    focusable = [a for a in everything if has_state(a, Atspi.StateType.FOCUSABLE)]
    seen = []
    for _ in range(60):
        now = focused_among([timeline] + focusable)
        if now is not None and (not seen or seen[-1] != now):
            seen.append(now)
        if now == timeline:
            break
        key("Tab")
        wait_for("the focus to move", lambda: focused_among([timeline] + focusable) != now, 10)
    check(len(seen) >= 3, "Tab moves the focus: " + " → ".join(describe(a) for a in seen[:8]) + (" …" if len(seen) > 8 else ""))
    if not check(has_state(timeline, Atspi.StateType.FOCUSED), "Tab reaches the timeline"):
        return

    # ] selects a wait, Return makes it the window: the description says so.
    key("bracketright")
    check(wait_for("the description to name the selected wait", lambda: "Selected: " in description(timeline), 20)
          is not None, "] selects a wait and the timeline's description names it")
    key("Return")
    check(wait_for("the description to give the window", lambda: "Window: " in description(timeline), 20)
          is not None, "Return makes it the selected window")

    # The Menu key opens the wait's menu with its three analyses.
    key("Menu")
    menu = wait_for("the wait's menu", lambda: [name(a) for a in walk(app) if role(a) == Atspi.Role.MENU_ITEM], 30) or []
    check(all(i in menu for i in ("Ready Tree of This Wait", "Wait Graph…", "Critical Path…")),
          f"the Menu key opens the wait's menu: {menu}")
    key("Escape")
    wait_for("the menu to close", lambda: not [a for a in walk(app) if role(a) == Atspi.Role.MENU_ITEM], 30)
    print(f"after Escape: focus on the timeline {has_state(timeline, Atspi.StateType.FOCUSED)}; {description(timeline)[-80:]}")
    # Escape may also have cleared the selection: select the window again.
    key("bracketright")
    key("Return")
    wait_for("the window again", lambda: "Window: " in description(timeline), 20)

    # Ctrl+Shift+R: the ready tree of the window on the Graph page.
    key("r", ("Control_L", "Shift_L"))
    check(wait_for("the graph view to show the ready tree",
                   lambda: name(graph) == "Ready tree" and "Nothing to show" not in description(graph), 60) is not None,
          f"Ctrl+Shift+R: the graph view is {describe(graph)}: {description(graph)[:90]}…")

    # Alt+5 then Ctrl+Return: Mining runs on the open trace and the
    # alignment describes the top cluster.
    key("5", ("Alt_L",))
    key("Return", ("Control_L",))
    check(wait_for("the alignment to show a cluster",
                   lambda: description(align) != "" and "No cluster selected" not in description(align), 180) is not None,
          f"Ctrl+Return mines; the alignment: {description(align)[:90]}…")


if __name__ == "__main__":
    main()
