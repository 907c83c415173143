#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Mine a fleet of traces on a Dask cluster (docs/fleet.md).

The map: one task per trace, each running `waitscope-cli digest` on one
trace path, writing its digest under OUT/digests/ (OUT on storage every
worker sees).  The reduce, here: `digest-merge` of the digests into
OUT/fleet.wsdigest, then `mine` and `cluster` over it into OUT/mine.json and
OUT/cluster.json — the same JSON as `waitscope-cli mine --json` over the
traces in path order in one process.

A trace that cannot be read (exit 1 of `digest`) is listed on stderr and in
OUT/failed.txt, and the exit status is 1; a task that fails otherwise (a
worker lost, a crash) is retried (--retries) before it counts as failed.

    tools/fleet/fleet.py --local 2 -o OUT TRACE…
    tools/fleet/fleet.py --scheduler tcp://HOST:8786 -o /shared/OUT /shared/traces/*.perf.txt.gz
"""
import argparse
import os
import shutil
import subprocess
import sys
import time


class TraceFailed(Exception):
    """`digest` could not read the trace: retrying will not help."""


def digest_one(cli, trace, out_dir, digest_args=()):
    """The map task: one trace to one digest; (trace, digest path or None, error).
    digest_args: the scenario rules and programs the digest is made for."""
    os.makedirs(out_dir, exist_ok=True)
    p = subprocess.run([cli, "digest", *digest_args, "-o", out_dir, trace], capture_output=True, text=True)
    if p.returncode == 1:
        return trace, None, p.stderr.strip() or f"exit 1 reading {trace}"
    if p.returncode != 0:
        # A crash or a signal: worth another try on another worker.
        raise RuntimeError(f"waitscope-cli digest {trace}: exit {p.returncode}: {p.stderr.strip()}")
    return trace, p.stdout.strip().splitlines()[-1], None


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--local", type=int, metavar="N", default=None,
                       help="run a LocalCluster of N worker processes on this machine (the default, N = 2)")
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="a running dask-scheduler")
    ap.add_argument("-o", "--output", required=True, metavar="OUT",
                    help="output directory (on storage every worker sees)")
    ap.add_argument("--cli", default=os.environ.get("WS_CLI") or shutil.which("waitscope-cli") or "waitscope-cli",
                    help="waitscope-cli, at the same path on every worker")
    ap.add_argument("--retries", type=int, default=2, help="retries of a failed task (default 2)")
    ap.add_argument("--mine-arg", action="append", default=[], metavar="ARG",
                    help="an option passed to mine and cluster (repeatable), e.g. --mine-arg=--by-cause")
    ap.add_argument("--classes", metavar="FILE",
                    help="a classes file (trace,slow|fast or trace,latency): also the fleet contrast by class, "
                         "`contrast --classes FILE` over the merged digest, into OUT/contrast.json")
    ap.add_argument("--scenario", action="append", default=[], metavar="NAME=BEGIN,END",
                    help="a scenario rule (repeatable), as `digest` and `contrast` take it: the digests keep the "
                         "instances it finds and the fleet contrast applies it")
    ap.add_argument("--scenario-file", metavar="FILE",
                    help="scenario rules from a key file (on storage every worker sees), as --scenario")
    ap.add_argument("--program", action="append", default=[], metavar="NAME",
                    help="keep this program's thread spans in every digest (repeatable; `digest --program`), "
                         "for a fleet contrast about a program some traces rank below their first two")
    ap.add_argument("traces", nargs="+", metavar="TRACE")
    return ap.parse_args(argv)


def rule_args(args):
    """The scenario rules, as both `digest` and `contrast` take them."""
    out = [f"--scenario={rule}" for rule in args.scenario]
    if args.scenario_file:
        out.append(f"--scenario-file={os.path.abspath(args.scenario_file)}")
    return out


def run_reduce(cli, out, digests, mine_args, classes, rules=()):
    merged = os.path.join(out, "fleet.wsdigest")
    subprocess.run([cli, "digest-merge", "-o", merged, *digests], check=True)
    for command in ("mine", "cluster"):
        with open(os.path.join(out, f"{command}.json"), "wb") as f:
            subprocess.run([cli, command, "--json", "--no-history", *mine_args, merged], check=True, stdout=f)
    if classes:
        # The classes name the traces; the merged digest holds them.
        with open(os.path.join(out, "contrast.json"), "wb") as f:
            # The digests were made with these rules: contrast needs the same.
            subprocess.run([cli, "contrast", "--json", *rules, "--classes", os.path.abspath(classes), merged],
                           check=True, stdout=f)
    return merged


def main(argv):
    args = parse_args(argv)
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as e:
        print(f"fleet.py: cannot import dask.distributed ({e}); on Debian: apt-get install python3-distributed",
              file=sys.stderr)
        return 2
    cli = os.path.abspath(args.cli) if os.path.sep in args.cli else args.cli
    out = os.path.abspath(args.output)
    os.makedirs(out, exist_ok=True)
    # The merged digest's order is by path: given in that order, the one-process run agrees.
    traces = sorted(dict.fromkeys(args.traces))

    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.local or 2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    start = time.monotonic()
    digest_args = rule_args(args) + [f"--program={name}" for name in args.program]
    futures = [client.submit(digest_one, cli, t, os.path.join(out, "digests", f"{i:06d}"), digest_args,
                             key=f"digest-{i}", retries=args.retries, pure=False)
               for i, t in enumerate(traces)]
    digests, failed = {}, {}
    for done, future in enumerate(as_completed(futures), 1):
        try:
            trace, digest, error = future.result()
        except Exception as e:   # retries exhausted
            trace, digest, error = traces[futures.index(future)], None, str(e)
        if digest:
            digests[trace] = digest
        else:
            failed[trace] = error
        print(f"fleet: [{done}/{len(traces)}] {'ok' if digest else 'FAILED'} {trace}", file=sys.stderr, flush=True)
    client.close()
    if cluster is not None:
        cluster.close()
    mapped = time.monotonic() - start

    with open(os.path.join(out, "failed.txt"), "w") as f:
        for trace, error in sorted(failed.items()):
            f.write(f"{trace}\t{error}\n")
    if failed:
        print(f"fleet: {len(failed)} of {len(traces)} traces could not be read (listed in {out}/failed.txt):",
              file=sys.stderr)
        for trace, error in sorted(failed.items()):
            print(f"  {trace}: {error}", file=sys.stderr)
    if digests:
        run_reduce(cli, out, [digests[t] for t in traces if t in digests], args.mine_arg, args.classes,
                   rule_args(args))
    print(f"fleet: {len(digests)} traces digested in {mapped:.1f} s; results in {out}/mine.json, "
          f"{out}/cluster.json{' and ' + out + '/contrast.json' if args.classes else ''}", file=sys.stderr)
    return 1 if failed or not digests else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
