#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Findings end to end through waitscope-cli: a session made with
`session new` and six `session pin`s on py-locks (timeline, wait graph,
ready tree, critical path, wait model, root-cause attribution, a Mining
cluster's alignment), and a second over the PostgreSQL pair (contrast
pattern, aggregated wait graph, coverage chart, alignment with the Mining
form's settings), each report as HTML
(parsed: every finding's figure is an inline SVG, nothing refers outside
the file, ids are unique, the note's markup and the facts are text) and as
PDF (pdfinfo page count, pdftotext finds the titles: text is selectable);
the session file and the committed v1 file against docs/session-format.schema.json;
damaged sessions and a different trace give exit 1 with the file's name.
Flame graph pins (zoomed and searched, one thread over a window,
differential) are drawn with captions that the CLI's own flame graph
confirms; a spoiled flame pin is refused naming the file and setting."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
cli = os.environ["WS_CLI"]
data = os.environ["WS_TEST_DATA"]
trace = os.path.join(data, "py-locks.perf.txt.gz")
failures = 0


def check(ok, what):
    global failures
    print(("ok " if ok else "FAIL ") + what)
    if not ok:
        failures += 1


def run(*args, expect=0):
    p = subprocess.run([cli, *args], capture_output=True, text=True)
    if p.returncode != expect:
        print(f"FAIL {' '.join(args)}: exit {p.returncode}, expected {expect}\n{p.stderr}")
        global failures
        failures += 1
    return p


PINS = [
    ("timeline", ["--tid", "11588", "--from", "1987.0", "--to", "+50ms"], "Workers take turns",
     "Each *worker* runs, then **waits** on the lock.\n\n- six workers\n- one `futex`"),
    ("wait-graph", ["--tid", "11588", "--from", "1987.0", "--to", "+20ms"], "Who w3 waits on", "w2 <readies> w3 & more"),
    ("ready-tree", ["--tid", "11588", "--from", "1987.0", "--to", "1988.0", "--chain-metric", "max"],
     "The chain behind w3's longest wait", "By **max**."),
    ("critical-path", ["--tid", "11588", "--from", "1987.0", "--to", "+50ms"], "Critical path of w3", ""),
]


class Html(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections = []   # per finding: data-view of its figure, svg count
        self.ids = []
        self.external = []
        self.tags = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "section" and a.get("class") == "finding":
            self.sections.append({"view": None, "svg": 0})
        if tag == "figure" and self.sections:
            self.sections[-1]["view"] = a.get("data-view")
        if tag == "svg" and self.sections:
            self.sections[-1]["svg"] += 1
        if "id" in a:
            self.ids.append(a["id"])
        for k in ("src", "href", "xlink:href", "action", "poster"):
            v = a.get(k)
            if v is not None and not v.startswith("#") and not v.startswith("data:"):
                self.external.append((tag, k, v))


def check_html(path):
    text = open(path, encoding="utf-8").read()
    p = Html()
    p.feed(text)
    check(len(p.sections) == len(PINS), f"HTML has {len(p.sections)} finding sections")
    for (view, _, title, _), s in zip(PINS, p.sections):
        check(s["view"] == view and s["svg"] == 1, f"finding “{title}”: an inline SVG of the {view}")
    check(not p.external, f"no reference outside the file {p.external[:3]}")
    check(not any(t in p.tags for t in ("script", "link", "iframe", "object", "embed")), "no script, link or embed")
    check(not re.search(r"url\((?!#)", text) and "@import" not in text, "no external url() in styles")
    check(len(p.ids) == len(set(p.ids)), f"{len(p.ids)} ids, all unique across figures")
    check("<strong>waits</strong>" in text and "<li>one <code>futex</code></li>" in text, "note markup as HTML")
    check("w2 &lt;readies&gt; w3 &amp; more" in text, "note text escaped")
    check("Stacks, caller first" in text and "__schedule" in text, "stacks listed")
    check("Wait signature" in text and "P(D ≥ d)" in text, "the wait model's facts")
    check("Cause 1" in text and "Time explained" in text, "the attribution's facts")
    check("Frames in common" in text, "the cluster's facts")
    check("2 of " in text and "Cost threshold λ" in text and "The costliest pattern, caller first" in text,
          "the pinned cluster (the second) redrawn, its λ and costliest pattern")
    check("Appendix" in text and "90523eb9f516d580e4902bd00f7041f3cc554194e14789dea7fa65dcd5ad04d9" in text,
          "appendix names the trace and its hash")


def check_pdf(path):
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True)
    pages = int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.M).group(1))
    check(pages >= 2 + 2 * len(PINS), f"PDF has {pages} pages (title, 2 per finding and any stacks going on, appendix)")
    txt = subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True).stdout
    for _, _, title, _ in PINS:
        check(title in txt, f"PDF text has “{title}”")
    check("the facts behind it" in txt and "Appendix" in txt, "PDF facts pages and appendix")


class Stacks(HTMLParser):
    """The stacks the HTML report lists (the facts behind each finding):
    [(title, [frame, ...]), ...], frames as the trace names them."""
    def __init__(self):
        super().__init__()
        self.stacks = []
        self.where = None

    def handle_starttag(self, tag, attrs):
        if tag == "div" and dict(attrs).get("class") == "stack":
            self.stacks.append(["", []])
            self.where = None
        elif self.stacks and tag == "h4":
            self.where = "title"
        elif self.stacks and tag == "li":
            self.stacks[-1][1].append("")
            self.where = "frame"

    def handle_endtag(self, tag):
        if tag in ("h4", "li", "div"):
            self.where = None

    def handle_data(self, d):
        if self.where == "title":
            self.stacks[-1][0] += d
        elif self.where == "frame":
            self.stacks[-1][1][-1] += d


def short_frame(frame):
    """“function (module basename)”, as the PDF prints a frame."""
    m = re.match(r"^(.*) \((.*)\)$", frame)
    if not m:
        return frame
    return f"{m.group(1)} ({os.path.basename(m.group(2))})"


def check_pdf_stacks(html, pdf, what, must=()):
    """Every frame of every stack in the facts is in the PDF's text, none
    cut: the frame in full, the module by its basename.  Lines the PDF
    wrapped are joined again by comparing without whitespace."""
    p = Stacks()
    p.feed(open(html, encoding="utf-8").read())
    txt = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout
    flat = re.sub(r"\s+", "", txt)
    frames = [f for _, fs in p.stacks for f in fs]
    missing = [f for f in frames if re.sub(r"\s+", "", short_frame(f)) not in flat]
    check(p.stacks and frames and not missing,
          f"{what}: all {len(frames)} frames of {len(p.stacks)} stacks in the PDF text (missing {missing[:3]})")
    # A wait signature's own "…" (the frames between its caller and the
    # blocking point, "main;…;WaitLatch;epoll_wait|…") is not a cut.
    check("…" not in txt.replace(";…;", ";"), f"{what}: nothing in the PDF cut with “…”")
    check(not any("/" in short_frame(f).rsplit(" (", 1)[-1] for f in frames if " (" in f) and
          not re.search(r"\(/(usr|lib)", txt), f"{what}: modules by basename, no library paths")
    for word in must:
        check(word in flat, f"{what}: “{word}” in the PDF")


def check_deep_stacks(tmp):
    """The waits whose stacks were cut at the leaf: a pg_sleep on an
    advisory lock (WaitLatch, epoll_wait in the kernel) and an fsync's
    disk wait, each pinned as the timeline of its longest wait."""
    for name, must in (("pg-advisory", ("pg_sleep", "WaitLatch", "epoll_wait")),
                       ("fsync-writer", ("fsync",))):
        path = os.path.join(data, "causes", name + ".perf.txt.gz")
        info = json.loads(run("info", path, "--top", "100000", "--json").stdout)
        waits = info["traces"][0]["top_waits"] if "traces" in info else info["top_waits"]
        # The longest wait whose stack holds the frame that matters.
        top = next(w for w in waits if any(must[0] in f for f in w.get("waiting_stack") or []))
        session = os.path.join(tmp, name + ".waitscope")
        run("session", "new", session, path, "--title", name)
        run("session", "pin", session, "--view", "anomaly-model", "--tid", str(top["tid"]), "--event", str(top["event"]),
            "--title", "The longest wait")
        html = os.path.join(tmp, name + ".html")
        pdf = os.path.join(tmp, name + ".pdf")
        run("report", session, "-o", html)
        run("report", session, "-o", pdf)
        check_pdf_stacks(html, pdf, name, must)
        keep = os.environ.get("WS_SCREENSHOT_DIR")
        if keep:
            os.makedirs(keep, exist_ok=True)
            shutil.copy(pdf, os.path.join(keep, f"report-{name}.pdf"))


def check_schema(paths):
    try:
        import jsonschema
    except ImportError:
        print("jsonschema not installed: schema checks skipped")
        return
    schema = json.load(open(os.path.join(root, "docs", "session-format.schema.json")))
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    for p in paths:
        errors = list(v.iter_errors(json.load(open(p))))
        check(not errors, f"{os.path.basename(p)} valid against the schema {errors[:1]}")
    bad = json.load(open(paths[0]))
    bad["traces"][0]["sha256"] = "xyz"
    check(list(v.iter_errors(bad)), "a bad hash fails the schema")


def check_errors(tmp, session):
    text = open(session).read()
    cut = os.path.join(tmp, "cut.waitscope")
    open(cut, "w").write(text[: len(text) // 2])
    p = run("report", cut, "-o", os.path.join(tmp, "x.html"), expect=1)
    check(cut in p.stderr and "truncated" in p.stderr, "truncated session: exit 1 naming the file")
    check(not os.path.exists(os.path.join(tmp, "x.html")), "no report written from it")
    run("report", session, expect=2)
    run("report", session, "-o", os.path.join(tmp, "x.txt"), expect=2)
    run("session", "pin", session, "--view", "nonsense", expect=2)
    run("session", "pin", session, "--view", "timeline", "--tid", "424242", expect=1)
    p = run("session", "pin", session, "--view", "alignment", "--cluster", "999", expect=1)
    check("no cluster 999" in p.stderr and "py-locks.perf.txt.gz" in p.stderr, "a cluster mining did not find: exit 1")
    # The trace replaced by a different file under the same name: refused.
    moved = os.path.join(tmp, "moved")
    os.mkdir(moved)
    shutil.copy(trace, os.path.join(moved, "py-locks.perf.txt.gz"))
    run("session", "new", os.path.join(moved, "s.waitscope"), os.path.join(moved, "py-locks.perf.txt.gz"))
    shutil.copy(os.path.join(data, "io-fsync.perf.txt.gz"), os.path.join(moved, "py-locks.perf.txt.gz"))
    p = run("session", "pin", os.path.join(moved, "s.waitscope"), "--view", "timeline", expect=1)
    check("content differs" in p.stderr and "py-locks.perf.txt.gz" in p.stderr, "a different trace is refused")


def add_model_and_attribution_pins():
    """The wait model of the trace's longest wait, and the Overview's
    root-cause attribution, redrawn from the trace like the others."""
    info = json.loads(run("info", trace, "--top", "1", "--json").stdout)
    top = info["traces"][0]["top_waits"][0] if "traces" in info else info["top_waits"][0]
    PINS.append(("anomaly-model", ["--tid", str(top["tid"]), "--event", str(top["event"])],
                 "The model of the longest wait", "Far out in the *tail*."))
    PINS.append(("attribution", [], "What the time went to", "Mostly **waiting**."))
    PINS.append(("alignment", ["--cluster", "1"], "The second cluster", "Its patterns *aligned*."))


PG_PINS = [
    ("contrast", ["--component", "postgres", "--t-fast", "40ms", "--t-slow", "120ms"],
     "The top contrast pattern", "The slow class waits on the **disk**."),
    ("awg", ["--component", "postgres", "--t-fast", "40ms", "--t-slow", "120ms", "--class", "slow"],
     "AWG slow", "What the slow transactions waited on."),
    ("coverage", ["--scope", "instances", "--signature", "heap_update,ProcSleep", "--signature", "XLogFlush"],
     "Coverage of two signatures", "Lock waits and WAL flushes."),
    ("alignment", ["--scope", "all", "--running", "--threads", "postgres", "--lambda", "5ms", "--cluster", "0"],
     "A cluster of running stacks", ""),
]


def check_pg_session(tmp):
    """The Contrast page's views and the coverage chart, over the two
    PostgreSQL recordings: pinned with their settings, redrawn in both
    report forms."""
    fast = os.path.join(data, "pg-contrast-fast.perf.txt.gz")
    slow = os.path.join(data, "pg-contrast-slow.perf.txt.gz")
    session = os.path.join(tmp, "pg.waitscope")
    run("session", "new", session, fast, slow, "--title", "pgbench contrast")
    for view, args, title, note in PG_PINS:
        run("session", "pin", session, "--view", view, "--trace", "0", "--trace", "1", *args,
            "--title", title, "--note", note)
    shown = json.loads(run("session", "show", session, "--json").stdout)["findings"]
    check([f["view"] for f in shown] == [p[0] for p in PG_PINS], "contrast, awg, coverage and alignment pinned")
    c = shown[0]["settings"]
    check(c.get("scenario") == "transaction" and c.get("t_fast_ns") == 40000000 and c.get("t_slow_ns") == 120000000
          and "DiskService" in c.get("pattern_tuple", ""), "the contrast pin keeps scenario, split and pattern")
    check(shown[1]["settings"].get("class") == "slow", "the AWG pin keeps its class")
    sigs = shown[2]["settings"].get("signatures", [])
    check(len(sigs) == 2 and sigs[0]["frames"][0]["function"] == "heap_update"
          and sigs[0]["frames"][0]["module"].endswith("postgres"), "the coverage pin keeps its signatures' frames")
    a = shown[3]["settings"]
    check(a.get("running") is True and a.get("threads") == "postgres" and a.get("scope") == 0
          and a.get("lambda") == 5000000, "the alignment pin keeps stack kind, threads, scope and λ given")
    html = os.path.join(tmp, "pg.html")
    pdf = os.path.join(tmp, "pg.pdf")
    run("report", session, "-o", html)
    run("report", session, "-o", pdf)
    p = Html()
    text = open(html, encoding="utf-8").read()
    p.feed(text)
    for (view, _, title, _), sec in zip(PG_PINS, p.sections):
        check(sec["view"] == view and sec["svg"] == 1, f"pg finding “{title}”: an inline SVG of the {view}")
    check(len(p.sections) == len(PG_PINS) and not p.external, "pg report: every figure, nothing outside the file")
    check(len(p.ids) == len(set(p.ids)), "pg report: ids unique across figures")
    check_pdf_stacks(html, pdf, "pg contrast")
    check("Call chains (waiting, waking it, running)" in text and "C (total cost)" in text and "DiskService" in text and "Lit in red" in text, "the contrast pattern's facts")
    check("slow (AWG_slow)" in text and "wait graphs merged" in text, "the AWG's facts")
    check("In the paper's terms" not in text and "C is their summed cost" not in text,
          "the contrast facts say each thing once, in the words the figure uses")
    check("All signatures together" in text and "S1 · heap_update,ProcSleep" in text, "the coverage's facts")
    check('class="error"' not in text and "cannot be drawn" not in text, "no finding failed to draw")
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    check(pages >= 2 + 2 * len(PG_PINS), f"pg PDF has {pages} pages")
    run("session", "pin", session, "--view", "contrast", "--trace", "0", "--trace", "1", expect=2)
    p = run("session", "pin", session, "--view", "contrast", "--trace", "0", "--component", "postgres",
            "--pattern", "999", expect=1)
    check("no contrast pattern 999" in p.stderr, "a pattern contrast did not find: exit 1")
    run("session", "pin", session, "--view", "coverage", "--trace", "1", expect=2)
    p = run("session", "pin", session, "--view", "coverage", "--trace", "1", "--signature", "no_such_function", expect=1)
    check("no_such_function" in p.stderr, "an unknown signature function: exit 1")
    run("session", "pin", session, "--view", "alignment", "--trace", "1", "--scope", "nonsense", expect=2)
    keep = os.environ.get("WS_SCREENSHOT_DIR")
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(pdf, os.path.join(keep, "report-contrast.pdf"))
        shutil.copy(html, os.path.join(keep, "report-contrast.html"))


def fmt_seconds(ns):
    """ws_format_duration() of a duration of a second or more."""
    return f"{ns / 1e9:.3g} s"


def check_flame_session(tmp):
    session = os.path.join(tmp, "flame.waitscope")
    fast = os.path.join(data, "pg-contrast-fast.perf.txt.gz")
    run("session", "new", session, trace, fast, "--title", "Flame graphs")
    zoom = ["pylk-w0", "__futex_abstimed_wait_common"]
    run("session", "pin", session, "--view", "flame-graph", "--mode", "off-cpu", "--zoom", ";".join(zoom),
        "--search", "futex", "--title", "Where pylk-w0 blocks")
    run("session", "pin", session, "--view", "flame-graph", "--mode", "off-wake", "--tid", "11585",
        "--from", "1987.0", "--to", "1988.5", "--icicle", "--title", "pylk-w0 off-wake")
    run("session", "pin", session, "--view", "flame-graph", "--trace", "0", "--trace", "1", "--mode", "off-cpu",
        "--title", "Against the PostgreSQL trace")
    shown = json.loads(run("session", "show", session, "--json").stdout)["findings"]
    check([f["view"] for f in shown] == ["flame-graph"] * 3, "three flame graph pins")
    check(shown[0]["settings"] == {"mode": "off-cpu", "scope": "trace", "zoom": zoom, "search": "futex",
                                   "icicle": False}, f"the flame pin's settings {shown[0]['settings']}")
    check(shown[1]["settings"]["scope"] == "thread" and shown[1]["tid"] == 11585 and shown[1]["settings"]["icicle"],
          "a --tid pin folds the thread's scope")
    check(shown[2]["traces"] == [0, 1], "the differential pin names its base as the second trace")
    # The oracle: the CLI's own flame graph of the same selection.
    tree = json.loads(run("flamegraph", "--off-cpu", "--json", trace).stdout)
    node = tree["root"]
    for name in zoom:
        node = next(c for c in node["children"] if c["name"] == name)
    share = re.search(r"([0-9.]+ %)", run("flamegraph", "--off-cpu", "--search", "futex", "-o",
                                           os.path.join(tmp, "f.svg"), trace).stdout).group(1)
    html = os.path.join(tmp, "flame.html")
    pdf = os.path.join(tmp, "flame.pdf")
    run("report", session, "-o", html)
    run("report", session, "-o", pdf)
    text = open(html, encoding="utf-8").read()
    check(text.count('data-view="flame-graph"') == 3 and "cannot be drawn" not in text,
          "three flame graph figures in the HTML")
    txt = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout
    caption = f"Off-CPU flame graph of py-locks: every thread over the whole trace, total {fmt_seconds(tree['total'])}"
    check(caption in txt, f"the PDF's caption “{caption}”")
    zoomed = f"Zoomed to {' → '.join(zoom)} ({fmt_seconds(node['total'])}) · Search “futex” matches {share}"
    check(zoomed in txt, f"the PDF's zoom and search line “{zoomed}”")
    check("Off-wake flame graph of py-locks: pylk-w0 (11585) over 1.50 s from 1987.000000000 s" in txt,
          "the thread scope's caption")
    check("against pg-contrast-fast (red: more, blue: less)" in txt, "the differential's caption")
    check_schema([session])
    # A spoiled flame pin: refused by every reader, naming file and setting.
    doc = json.load(open(session))
    doc["findings"][1]["settings"]["mode"] = "sideways"
    bad = os.path.join(tmp, "bad-flame.waitscope")
    json.dump(doc, open(bad, "w"))
    p = run("report", bad, "-o", os.path.join(tmp, "bad.html"), expect=1)
    check(bad in p.stderr and "finding 1" in p.stderr and "“mode” must be" in p.stderr,
          f"a flame pin with an unknown mode: exit 1 naming file, finding and setting ({p.stderr.strip()})")
    try:
        import jsonschema
        schema = json.load(open(os.path.join(root, "docs", "session-format.schema.json")))
        check(list(jsonschema.Draft202012Validator(schema).iter_errors(doc)), "the schema refuses the unknown mode")
    except ImportError:
        pass
    p = run("session", "show", bad, expect=1)
    check(bad in p.stderr and "“mode” must be" in p.stderr, "session show refuses it too")
    run("session", "pin", session, "--view", "flame-graph", "--zoom", "no;such;frame", expect=1)
    run("session", "pin", session, "--view", "flame-graph", "--mode", "sideways", expect=2)
    run("session", "pin", session, "--view", "flame-graph", "--scope", "thread", expect=2)
    keep = os.environ.get("WS_SCREENSHOT_DIR")
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(pdf, os.path.join(keep, "report-flame.pdf"))


def main():
    tmp = tempfile.mkdtemp(prefix="ws-report-")
    session = os.path.join(tmp, "review.waitscope")
    add_model_and_attribution_pins()
    run("session", "new", session, trace, "--title", "py-locks review")
    for view, args, title, note in PINS:
        run("session", "pin", session, "--view", view, *args, "--title", title, "--note", note)
    shown = json.loads(run("session", "show", session, "--json").stdout)
    check(len(shown["findings"]) == len(PINS), "session show --json lists every pin")
    check(shown["findings"][2]["settings"].get("chain_metric") == "max", "the chain metric is kept")
    html = os.path.join(tmp, "review.html")
    pdf = os.path.join(tmp, "review.pdf")
    run("report", session, "-o", html)
    run("report", session, "-o", pdf)
    check_html(html)
    check_pdf(pdf)
    check_pdf_stacks(html, pdf, "py-locks")
    check_deep_stacks(tmp)
    check_schema([session, os.path.join(data, "session-v1.waitscope")])
    check_errors(tmp, session)
    check_pg_session(tmp)
    check_flame_session(tmp)
    # The committed v1 session, its trace found again beside it.
    run("report", os.path.join(data, "session-v1.waitscope"), "-o", os.path.join(tmp, "v1.html"))
    keep = os.environ.get("WS_SCREENSHOT_DIR")
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(pdf, os.path.join(keep, "report.pdf"))
        shutil.copy(html, os.path.join(keep, "report.html"))
    shutil.rmtree(tmp)
    return 1 if failures else 0


if shutil.which("pdfinfo") is None:
    print("pdfinfo (poppler-utils) not installed: skipped")
    sys.exit(77)
sys.exit(main())
