#!/usr/bin/env python3
"""profile_queries.pb.gz read by pprof itself (`go tool pprof`, Debian's golang-go).

Runs toyc with -Z profile-queries=pprof,raw, then checks that `go tool pprof -top` lists every
provider with the self time `qprof summarize --json` gives it, its waits included (within the
rounding of one nanosecond per run: pprof adds per-run nanoseconds, qprof converts summed ticks
once), the same number of runs, and that `go tool pprof -traces` reads every sample. Then runs toyc again
with -Z profile-queries-memory and checks that `-sample_index=alloc_space` and `alloc_objects`
list every provider with exactly the self allocated bytes and allocations summarize gives it.

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

ROW = re.compile(r"^\s*(\d+)(?:ns|B)?\s+[\d.]+%\s+[\d.]+%\s+(\d+)(?:ns|B)?\s+[\d.]+%\s+(.+?)\s*$")


def pprof_rows(go, path, sample_index, unit="ns"):
    """Flat value by function name, from `go tool pprof -top`."""
    done = subprocess.run([go, "tool", "pprof", "-top", "-unit=" + unit, "-nodecount=100000",
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


def run_toyc(toyc, qprof, out, *flags):
    """The pprof file and the summary (`qprof summarize --json`) of one toyc run."""
    os.makedirs(out, exist_ok=True)
    for name in ("profile_queries.pb.gz", "profile_queries.qprof"):
        if os.path.exists(os.path.join(out, name)):
            os.remove(os.path.join(out, name))
    subprocess.run([toyc, "--items", "2000", "-Z", "profile-queries=pprof,raw",
                    "-Z", "profile-queries-dir=" + out, *flags], check=True, timeout=300,
                   stdout=subprocess.DEVNULL)
    summary = json.loads(subprocess.run(
        [qprof, "summarize", "--json", os.path.join(out, "profile_queries.qprof")],
        check=True, capture_output=True, text=True, timeout=300).stdout)
    return os.path.join(out, "profile_queries.pb.gz"), summary


def check_memory(go, toyc, qprof, out):
    """Self allocated bytes and allocations per provider, as summarize gives them: failures."""
    profile, summary = run_toyc(toyc, qprof, out, "-Z", "profile-queries-memory")
    failures = 0
    for sample_index, field, unit in (("alloc_space", "self_allocated_bytes", "B"),
                                      ("alloc_objects", "self_allocations", "ns")):
        flat = pprof_rows(go, profile, sample_index, unit)
        if not any(flat.values()):
            print(f"FAIL - {sample_index}: no provider allocated anything")
            failures += 1
        for provider in summary["providers"]:
            name = provider["provider"]
            if flat.get(name, 0) != provider[field]:
                print(f"FAIL - {name}: pprof flat {sample_index} {flat.get(name)}, "
                      f"qprof summarize {field} {provider[field]}")
                failures += 1
        print(f"ok - {sample_index}: every provider's flat value is its {field}")
    return failures


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
    profile, summary = run_toyc(args.toyc, args.qprof, args.out)
    failures = 0
    self_ns = pprof_rows(go, profile, "self_time")
    runs = pprof_rows(go, profile, "runs")
    for provider in summary["providers"]:
        name = provider["provider"]
        expected_runs = provider["count"] - provider["hits"]
        tolerance = expected_runs + 1000
        got = self_ns.get(name)
        # A wait is a frame of its provider, so pprof's flat time has its waits' self time;
        # summarize's self_ns is work only and shows the waits as blocked_ns. toyc's waits hold
        # nothing on their thread ("join workers" only joins; a query waiting for another
        # thread's run of it does nothing), so their self time is their whole time.
        expected = provider["self_ns"] + provider["blocked_ns"]
        if got is None or abs(got - expected) > tolerance:
            print(f"FAIL - {name}: pprof flat self_time {got}, qprof summarize self_ns "
                  f"{provider['self_ns']} + blocked_ns {provider['blocked_ns']}")
            failures += 1
        elif runs.get(name, 0) != expected_runs:
            print(f"FAIL - {name}: pprof flat runs {runs.get(name)}, qprof {expected_runs}")
            failures += 1
        else:
            print(f"ok - {name}: self {got} ns (qprof {expected}), {expected_runs} runs")

    traces = subprocess.run([go, "tool", "pprof", "-traces", profile], capture_output=True,
                            text=True, timeout=300)
    missing = [p["provider"] for p in summary["providers"] if p["provider"] not in traces.stdout]
    if traces.returncode != 0 or missing:
        print(f"FAIL - go tool pprof -traces: exit {traces.returncode}, missing {missing}")
        failures += 1
    else:
        print(f"ok - go tool pprof -traces lists every provider "
              f"({traces.stdout.count('-----------+')} samples)")
    failures += check_memory(go, args.toyc, args.qprof, os.path.join(args.out, "memory"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
