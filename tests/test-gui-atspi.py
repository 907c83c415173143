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


def showing(acc):
    try:
        return acc.get_state_set().contains(Atspi.StateType.SHOWING)
    except Exception:
        return False


def focused_in(root):
    for a in walk(root):
        try:
            if a.get_state_set().contains(Atspi.StateType.FOCUSED):
                return a
        except Exception:
            pass
    return None


def describe(acc):
    if acc is None:
        return "nothing"
    return f"{Atspi.Role(role(acc)).value_nick if role(acc) is not None else '?'} “{name(acc)}”"


KEY_SYMS = {"Tab": 0xff09, "Menu": 0xff67, "Escape": 0xff1b, "Return": 0xff0d,
            "bracketright": 0x5d, "Alt_L": 0xffe9, "Control_L": 0xffe3, "Shift_L": 0xffe1,
            "F10": 0xffc7}


def key(sym, mods=()):
    """A real key press through the X server (XTest), modifiers held."""
    for m in mods:
        Atspi.generate_keyboard_event(KEY_SYMS[m], None, Atspi.KeySynthType.SYM | Atspi.KeySynthType.PRESS)
    code = KEY_SYMS.get(sym, sym if isinstance(sym, int) else None)
    if code is None:
        code = ord(sym)
    Atspi.generate_keyboard_event(code, None, Atspi.KeySynthType.SYM)
    for m in reversed(mods):
        Atspi.generate_keyboard_event(KEY_SYMS[m], None, Atspi.KeySynthType.SYM | Atspi.KeySynthType.RELEASE)


def start_bus():
    """The accessibility bus, started now (as a session would at login)."""
    bus = subprocess.Popen([LAUNCHER, "--launch-immediately"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    def address():
        r = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus",
                            "org.a11y.Bus.GetAddress"], capture_output=True, text=True)
        return r.returncode == 0 and "unix:" in r.stdout
    if not wait_for("the accessibility bus", address, 30):
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


def run_checks(app_proc):
    app = wait_for("the application on the accessibility bus", find_app)
    if app is None:
        return
    print(f"application: {describe(app)}, {len(children(app))} window(s)")
    # The trace loads, then the timeline shows it.
    timeline = wait_for("the timeline (table “Thread timeline”)",
                        lambda: next(iter(find(app, lambda a: role(a) == Atspi.Role.TABLE
                                               and name(a) == "Thread timeline" and showing(a))), None))
    if timeline is None:
        return
    check(True, f"the timeline is {describe(timeline)}")
    desc = timeline.get_description() or ""
    check("timeline of" in desc, f"the timeline's description says what it shows: {desc[:120]}")

    # Named buttons: every push or toggle button showing has a name.
    buttons = [a for a in find(app, lambda a: role(a) in (Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON))
               if showing(a)]
    unnamed = [b for b in buttons if not name(b).strip()]
    check(len(buttons) >= 5 and not unnamed,
          f"{len(buttons)} buttons showing, all named" + (f" (unnamed: {len(unnamed)})" if unnamed else ""))
    for wanted in ("Open", "Main Menu"):
        check(any(name(b).replace("_", "") == wanted for b in buttons), f"a button named “{wanted}”")

    # Focus: the timeline takes it; ] picks a wait (the description
    # follows); Alt+4 shows the Graph page and Ctrl+Shift+R builds the ready
    # tree of the selected wait's window.
    timeline.get_component_iface() and timeline.grab_focus()
    wait_for("the timeline to have the focus",
             lambda: timeline.get_state_set().contains(Atspi.StateType.FOCUSED), 20) or \
        print("(grab_focus over AT-SPI not honoured; clicking instead)")
    if not timeline.get_state_set().contains(Atspi.StateType.FOCUSED):
        ext = timeline.get_extents(Atspi.CoordType.SCREEN)
        Atspi.generate_mouse_event(ext.x + ext.width * 2 // 3, ext.y + 5, "b1c")
        wait_for("the timeline to have the focus after a click",
                 lambda: timeline.get_state_set().contains(Atspi.StateType.FOCUSED), 20)
    check(timeline.get_state_set().contains(Atspi.StateType.FOCUSED), "the timeline has the keyboard focus")
    key("bracketright")
    check(wait_for("the description to name the selected wait",
                   lambda: "Selected: " in (timeline.get_description() or ""), 20) is not None,
          "] selects a wait and the description says so")
    key("Return")
    key("r", ("Control_L", "Shift_L"))
    tree = wait_for("the graph view (tree)",
                    lambda: next(iter(find(app, lambda a: role(a) == Atspi.Role.TREE and showing(a))), None), 60)
    if tree is not None:
        check(name(tree) != "", f"the graph view is {describe(tree)}")
    # Tab moves the focus on from wherever it is.
    before = focused_in(app)
    key("Tab")
    after = wait_for("the focus to move with Tab",
                     lambda: (lambda f: f if f is not None and f != before else None)(focused_in(app)), 20)
    check(after is not None, f"Tab moves the focus from {describe(before)} to {describe(after)}")

    critical = find(app, lambda a: role(a) == Atspi.Role.LIST and name(a).startswith("Critical path"))
    check(bool(critical), "the critical-path view is a list named “Critical path”")

    # Mining: Alt+5, Ctrl+Return mines the open trace; the alignment of the
    # top cluster is a table with its name.
    key("5", ("Alt_L",))
    key("Return", ("Control_L",))
    align = wait_for("the Mining alignment (table)",
                     lambda: next(iter(find(app, lambda a: role(a) == Atspi.Role.TABLE
                                            and name(a).startswith("Alignment"))), None), 120)
    if align is not None:
        check(True, f"the alignment is {describe(align)}")


if __name__ == "__main__":
    main()
