#!/usr/bin/env python3
"""profile_queries.pb.gz read by pprof itself (`go tool pprof`, Debian's golang-go).

Runs toyc with -Z profile-queries=pprof,raw, then checks that `go tool pprof -top` lists every
provider with the self time `qprof summarize --json` gives it (within the rounding of one
nanosecond per run: pprof adds per-run nanoseconds, qprof converts summed ticks once), the
same number of runs, and that `go tool pprof -traces` reads every sample.

Without Go it exits 77 (Meson's "skipped"), or 1 when CI=true.

    pprof_go_test.py --toyc build/examples/toyc --qprof build/qprof --out /tmp/pprof
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

ROW = re.compile(r"^\s*(\d+)(?:ns)?\s+[\d.]+%\s+[\d.]+%\s+(\d+)(?:ns)?\s+[\d.]+%\s+(.+?)\s*$")


def pprof_rows(go, path, sample_index):
    """Flat value by function name, from `go tool pprof -top`."""
    done = subprocess.run([go, "tool", "pprof", "-top", "-unit=ns", "-nodecount=100000",
                           "-nodefraction=0", "-edgefraction=0", "-sample_index=" + sample_index,
                           path], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        sys.exit(f"FAIL - go tool pprof -top exited {done.returncode}:\n{done.stderr}")
    rows = {}
    for line in done.stdout.splitlines():
        match = ROW.match(line)
        if match:
            rows[match.group(3)] = int(match.group(1))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--toyc", required=True)
    parser.add_argument("--qprof", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    go = shutil.which("go")
    if go is None:
        print("go not found: install Debian's golang-go to run this test")
        return 1 if os.environ.get("CI") == "true" else 77
    os.makedirs(args.out, exist_ok=True)
    for name in ("profile_queries.pb.gz", "profile_queries.qprof"):
        if os.path.exists(os.path.join(args.out, name)):
            os.remove(os.path.join(args.out, name))
    subprocess.run([args.toyc, "--items", "2000", "-Z", "profile-queries=pprof,raw",
                    "-Z", "profile-queries-dir=" + args.out], check=True, timeout=300,
                   stdout=subprocess.DEVNULL)
    profile = os.path.join(args.out, "profile_queries.pb.gz")
    summary = json.loads(subprocess.run(
        [args.qprof, "summarize", "--json", os.path.join(args.out, "profile_queries.qprof")],
        check=True, capture_output=True, text=True, timeout=300).stdout)

    failures = 0
    self_ns = pprof_rows(go, profile, "self_time")
    runs = pprof_rows(go, profile, "runs")
    for provider in summary["providers"]:
        name = provider["provider"]
        expected_runs = provider["count"] - provider["hits"]
        tolerance = expected_runs + 1000
        got = self_ns.get(name)
        if got is None or abs(got - provider["self_ns"]) > tolerance:
            print(f"FAIL - {name}: pprof flat self_time {got}, qprof summarize {provider['self_ns']}")
            failures += 1
        elif runs.get(name, 0) != expected_runs:
            print(f"FAIL - {name}: pprof flat runs {runs.get(name)}, qprof {expected_runs}")
            failures += 1
        else:
            print(f"ok - {name}: self {got} ns (qprof {provider['self_ns']}), {expected_runs} runs")

    traces = subprocess.run([go, "tool", "pprof", "-traces", profile], capture_output=True,
                            text=True, timeout=300)
    missing = [p["provider"] for p in summary["providers"] if p["provider"] not in traces.stdout]
    if traces.returncode != 0 or missing:
        print(f"FAIL - go tool pprof -traces: exit {traces.returncode}, missing {missing}")
        failures += 1
    else:
        print(f"ok - go tool pprof -traces lists every provider "
              f"({traces.stdout.count('-----------+')} samples)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
