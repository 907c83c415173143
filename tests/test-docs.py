#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The docs a newcomer reads stay true:
- README.md is at most 8 KB and keeps the two set-up commands
  (`tools/bootstrap.sh run`, `tools/bootstrap.sh test`) that CI relies on;
- every relative link (and #anchor) in README.md, HACKING.md and docs/*.md
  resolves to a file (and a heading) in the tree;
- no doc names an internal issue number;
- every command `waitscope-cli --help` lists has a section in docs/cli.md,
  and every example there (`    waitscope-cli …` lines) runs and exits 0,
  from a scratch directory where `tests/` is the source tree's
  (`record` only with `--print`: recording needs perf and root)."""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
cli = os.environ["WS_CLI"]
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)


def strip_code(text):
    return re.sub(r"```.*?```", "", text, flags=re.S)


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    out = set()
    for line in strip_code(open(path, encoding="utf-8").read()).split("\n"):
        m = re.match(r"#+\s+(.*)", line)
        if m:
            out.add(slug(m.group(1)))
    return out


docs = [os.path.join(root, "README.md"), os.path.join(root, "HACKING.md")] + \
    sorted(glob.glob(os.path.join(root, "docs", "*.md")))

# README: short, with exactly the two set-up commands.
readme = open(docs[0], encoding="utf-8").read()
size = len(readme.encode("utf-8"))
if size > 8192:
    fail(f"README.md is {size} bytes (at most 8192)")
for cmd in ("tools/bootstrap.sh run", "tools/bootstrap.sh test"):
    if not re.search(r"^    " + re.escape(cmd) + r"$", readme, re.M):
        fail(f"README.md lost the set-up command `{cmd}`")

# Links and anchors.
n_links = 0
for path in docs:
    if not os.path.exists(path):
        fail(f"{os.path.relpath(path, root)} is missing")
        continue
    text = strip_code(open(path, encoding="utf-8").read())
    for m in re.finditer(r"!?\[[^\]]*\]\(([^)\s]+)\)", text):
        link = m.group(1)
        if re.match(r"[a-z]+:", link):
            continue
        n_links += 1
        target, _, anchor = link.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(path), target)) if target else path
        where = os.path.relpath(path, root)
        if not os.path.exists(full):
            fail(f"{where}: link to {link}: no such file")
        elif anchor and anchor not in anchors(full):
            fail(f"{where}: link to {link}: no such heading")
    # Issue numbers are internal bookkeeping, not documentation.
    for m in re.finditer(r"\bissues?\s+#?\d+|(?<![\w&/])#\d+\b", text, re.I):
        fail(f"{os.path.relpath(path, root)}: names an issue: “{m.group(0)}”")
print(f"{len(docs)} docs, {n_links} relative links checked")

# Every command has a section in docs/cli.md.
cli_md_path = os.path.join(root, "docs", "cli.md")
if not os.path.exists(cli_md_path):
    fail("docs/cli.md is missing")
    sys.exit(1)
cli_md = open(cli_md_path, encoding="utf-8").read()
helptext = subprocess.run([cli, "--help"], capture_output=True, text=True).stdout
commands = re.findall(r"^  ([a-z][a-z-]+)\s", helptext.split("Commands:")[1], re.M)
if len(commands) < 20:
    fail(f"`waitscope-cli --help` lists only {len(commands)} commands")
for c in commands:
    if not re.search(r"^### " + re.escape(c) + r"$", cli_md, re.M):
        fail(f"docs/cli.md has no section for `{c}`")

# Every example runs.
examples = []
lines = cli_md.split("\n")
i = 0
while i < len(lines):
    if lines[i].startswith("    waitscope-cli "):
        cmd = re.sub(r"\s+# .*$", "", lines[i].strip())
        while cmd.endswith("\\"):
            i += 1
            cmd = cmd[:-1] + " " + re.sub(r"\s+# .*$", "", lines[i].strip())
        examples.append(cmd)
    i += 1
covered = {e.split()[1] for e in examples}
for c in commands:
    if c not in covered:
        fail(f"docs/cli.md has no example of `{c}`")

work = tempfile.mkdtemp(prefix="ws-docs-")
os.symlink(os.path.join(root, "tests"), os.path.join(work, "tests"))
env = dict(os.environ, WAITSCOPE_HISTORY=os.path.join(work, "history.sqlite"))
ran = 0
for e in examples:
    if e.split()[1] == "record" and "--print" not in e:
        print("skipped (records with perf):", e)
        continue
    r = subprocess.run(["bash", "-c", e.replace("waitscope-cli", shlex.quote(cli), 1)], cwd=work, env=env,
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    ran += 1
    if r.returncode != 0:
        fail(f"example exits {r.returncode}: {e}\n  {r.stderr.strip()[:300]}")
print(f"{ran} of {len(examples)} examples run")
shutil.rmtree(work)

print("failures:", failures)
sys.exit(1 if failures else 0)
