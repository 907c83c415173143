#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""docs/trace-format.schema.json against real documents: the example, the
hand-built test trace and waitscope-cli's conversions of real perf traces
must validate; documents the reader refuses must fail the schema too.
Exit 77 (skip) without the jsonschema module."""
import gzip
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("jsonschema not installed: skipped")
    sys.exit(77)

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
cli = os.environ["WS_CLI"]
data = os.environ["WS_TEST_DATA"]

schema = json.load(open(os.path.join(root, "docs", "trace-format.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failures = 0


def check(name, doc, valid):
    global failures
    errors = list(validator.iter_errors(doc))
    if bool(errors) == valid:
        failures += 1
        print(f"FAIL {name}: expected {'valid' if valid else 'invalid'}, got {errors[:1]}")
    else:
        print(f"ok {name}")


check("docs/example-trace.json", json.load(open(os.path.join(root, "docs", "example-trace.json"))), True)
check("tests/data/hand-built.json", json.load(open(os.path.join(data, "hand-built.json"))), True)

with tempfile.TemporaryDirectory() as tmp:
    for trace in ["py-locks", "build"]:
        out = os.path.join(tmp, trace + ".json.gz")
        subprocess.run([cli, "convert", os.path.join(data, trace + ".perf.txt.gz"), "-o", out], check=True)
        with gzip.open(out, "rt", encoding="utf-8") as f:
            check(f"convert {trace}", json.load(f), True)

    head = {"format": "waitscope-trace", "version": 1, "threads": [{"tid": 1}]}
    bad = {
        "missing kind": {"events": [{"t": 1, "tid": 1}]},
        "marker with target": {"events": [{"kind": "marker", "t": 1, "tid": 1, "target": 1}]},
        "wait with name": {"events": [{"kind": "wait", "t": 1, "tid": 1, "name": "x"}]},
        "fractional time": {"events": [{"kind": "wait", "t": 1.5, "tid": 1}]},
        "negative duration": {"events": [{"kind": "wait", "t": 1, "dur": -1, "tid": 1}]},
        "unknown flag": {"events": [{"kind": "wait", "t": 1, "tid": 1, "flags": ["fast"]}]},
        "two-letter state": {"events": [{"kind": "wait", "t": 1, "tid": 1, "state": "SD"}]},
        "stack 0 not empty": {"stacks": [[0]]},
        "frame without function": {"frames": [{"module": "m"}]},
        "instance without t1": {"scenario_instances": [{"scenario": "x", "tid": 1, "t0": 1}]},
        "version 2": {"version": 2},
        "other format": {"format": "chrome-trace"},
    }
    for name, extra in bad.items():
        doc = dict(head, **extra)
        check("schema refuses " + name, doc, False)
        path = os.path.join(tmp, "bad.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        r = subprocess.run([cli, "info", path], capture_output=True, text=True)
        if r.returncode != 1 or not r.stderr.startswith(f"waitscope-cli: {path}:"):
            failures += 1
            print(f"FAIL reader accepts {name}: {r.returncode} {r.stderr!r}")
        else:
            print(f"ok reader refuses {name}")

sys.exit(1 if failures else 0)
