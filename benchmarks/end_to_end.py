#!/usr/bin/env python3
"""What qprof costs a whole program, run as a process: overhead as ratios measured in one run.

Runs each variant of a program in turn, interleaved (A B C ... A B C ...) so that a change in
the machine's load touches every variant alike, and prints the median wall time of each with
its overhead against the build whose macros are compiled out:

    not instrumented          shallow_queries_off
    ... one idle thread       shallow_queries_off --idle-thread   (what a second thread costs)
    ... two clock reads       shallow_queries_clock   (each provider run reads the clock at its
                              start and end, as a recording scope does, and nothing else: the
                              floor under =counts on this machine)
    compiled in, no flags     shallow_queries
    =counts                   shallow_queries -Z profile-queries=counts
    default reports           shallow_queries -Z profile-queries            (counts, html)
    keys                      shallow_queries -Z profile-queries-and-keys=counts

then how long each recording variant's end of the run took alone (shallow_queries times its
Session::finish: the trace's completion and the reports), per event; and, with --toyc, the
example compiler with every core busy (one codegen thread per core);
with --selection, toyc on one codegen thread recording less (-Z profile-queries-events): no
hits, and keys of one provider only, each against recording everything; with --memory, toyc on
one codegen thread recording what each query allocates (-Z profile-queries-memory, through the
allocation hook toyc includes), against recording without it.
It checks that every recording run of a program recorded the same number of events, whatever
its reports: a difference would be a lost event.

    meson setup build-bench --buildtype=release -Dtests=disabled && ninja -C build-bench
    benchmarks/end_to_end.py build-bench --runs 21
    benchmarks/end_to_end.py build-bench --quick        # one short run of each: does it work?
    benchmarks/end_to_end.py build-bench --cpu          # CPU time, for a machine others load
    benchmarks/end_to_end.py build-bench --cpu --before ../old/build-bench   # a change's effect
    benchmarks/end_to_end.py build-bench --cpu --selection --runs 11    # what leaving out saves
    benchmarks/end_to_end.py build-bench --cpu --memory --runs 11       # what memory costs

On a machine other programs keep busy, wall time mostly measures the wait for a core; --cpu
measures each process's CPU time instead (user and system, every thread, the collector's
included), which that wait does not change.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

EVENTS = re.compile(r"recorded ([\d,]+) events?")
# shallow_queries times the end of its run (Session::finish: completing the trace, writing the
# reports) and prints it: wall time of that part alone, steadier than the whole process's.
SESSION_END = re.compile(r"the session finished in ([\d.]+) ms")


def cpu_seconds_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(command, out_dir, cpu):
    """Seconds of one run (wall, or CPU with `cpu`), the events qprof says it recorded (None if
    it says none), and the seconds the program says its session took to finish (None if it
    does not say)."""
    env = dict(os.environ)
    env.pop("QPROF_FLAGS", None)
    clock = cpu_seconds_of_children if cpu else time.perf_counter
    start = clock()
    done = subprocess.run(command + [f"-Zprofile-queries-dir={out_dir}"]
                          if any(a.startswith("-Z") for a in command) else command,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    seconds = clock() - start
    for name in os.listdir(out_dir):  # qprof never overwrites a report: leave none behind
        os.remove(os.path.join(out_dir, name))
    if done.returncode != 0:
        sys.exit(f"end_to_end: {' '.join(command)} failed with exit {done.returncode}:\n"
                 f"{done.stderr}")
    match = EVENTS.search(done.stderr)
    end = SESSION_END.search(done.stdout)
    return (seconds, int(match.group(1).replace(",", "")) if match else None,
            float(end.group(1)) / 1e3 if end else None)


def measure(variants, runs, cpu):
    """Median seconds per variant name, the event counts each recording variant saw, and the
    median seconds its session took to finish, for each recording variant that says."""
    times = {name: [] for name, _ in variants}
    events = {}
    ends = {}
    with tempfile.TemporaryDirectory(prefix="qprof-e2e-") as out_dir:
        for _ in range(runs):
            for name, command in variants:
                seconds, count, end = run_once(command, out_dir, cpu)
                times[name].append(seconds)
                if count is not None:
                    events.setdefault(name, set()).add(count)
                    if end is not None:
                        ends.setdefault(name, []).append(end)
    medians = {name: statistics.median(values) for name, values in times.items()}
    return medians, events, {name: statistics.median(values) for name, values in ends.items()}


def check_events(program, events):
    counts = set().union(*events.values()) if events else set()
    if len(counts) != 1:
        sys.exit(f"end_to_end: {program}: the recording runs disagree on the number of events: "
                 f"{ {name: sorted(c) for name, c in events.items()} }")
    return counts.pop()


def print_table(title, medians, baseline, events, budgets, runs, cpu, ends=None):
    measure = "CPU time" if cpu else "wall time"
    print(f"\n{title}: median {measure} of {runs} interleaved runs, {events:,} events")
    print(f"{'run':<36}{'time':>10}{'overhead':>10}{'per event':>11}  budget")
    base = medians[baseline]
    for name, seconds in medians.items():
        overhead = (seconds - base) / base * 100
        per_event = (seconds - base) / events * 1e9
        budget = budgets.get(name, "")
        cells = "" if name == baseline else f"{overhead:>+9.1f}%{per_event:>8.1f} ns"
        print(f"{name:<36}{seconds * 1e3:>8.1f} ms{cells:>21}  {budget}")
    if ends:
        print(f"\nthe end of the run (Session::finish, wall time), median of {runs}")
        for name, seconds in ends.items():
            budget = budgets.get(f"end: {name}", "")
            print(f"{name:<36}{seconds * 1e3:>8.1f} ms{seconds / events * 1e9:>10.1f} ns an event"
                  f"  {budget}")


def print_selection_table(medians, events, runs, cpu, title="toyc --threads 1, recording less"):
    """Variants that record different events: each with its own count, against the first."""
    measure = "CPU time" if cpu else "wall time"
    print(f"\n{title}: median {measure} of {runs} interleaved runs")
    print(f"{'run':<44}{'time':>10}{'overhead':>10}{'events':>12}")
    base = medians["not instrumented"]
    for name, seconds in medians.items():
        overhead = "" if name == "not instrumented" else f"{(seconds - base) / base * 100:>+9.1f}%"
        counts = events.get(name, set())
        count = f"{counts.pop():,}" if len(counts) == 1 else ""
        print(f"{name:<44}{seconds * 1e3:>8.1f} ms{overhead:>10}{count:>12}")


def selection_variants(build_dir, quick):
    toyc = [os.path.join(build_dir, "examples", "toyc"), "--threads", "1"]
    toyc += ["--items", "1000"] if quick else []
    off = [os.path.join(build_dir, "examples", "toyc_off")] + toyc[1:]
    return [
        ("not instrumented", off),
        ("-Z profile-queries=counts", toyc + ["-Zprofile-queries=counts"]),
        ("  ... -Z profile-queries-events=-hits", toyc + ["-Zprofile-queries=counts",
                                                      "-Zprofile-queries-events=-hits"]),
        ("-Z profile-queries-and-keys=counts", toyc + ["-Zprofile-queries-and-keys=counts"]),
        ("  ... -Z profile-queries-events=keys=typeck",
         toyc + ["-Zprofile-queries-and-keys=counts", "-Zprofile-queries-events=keys=typeck"]),
    ]


def memory_variants(build_dir, quick):
    toyc = [os.path.join(build_dir, "examples", "toyc"), "--threads", "1"]
    toyc += ["--items", "1000"] if quick else []
    off = [os.path.join(build_dir, "examples", "toyc_off")] + toyc[1:]
    return [
        ("not instrumented", off),
        ("compiled in (with the hook), no flags", toyc),
        ("-Z profile-queries=counts", toyc + ["-Zprofile-queries=counts"]),
        ("  ... -Z profile-queries-memory", toyc + ["-Zprofile-queries=counts",
                                                "-Zprofile-queries-memory"]),
    ]


# Makes shallow_queries' paths 70 chars and more (--long-paths): kept in their records as
# 128 bytes of chars.
LONG_ROOT = "/home/build/checkouts/project/third_party/library/"
# Makes them 139 chars and more (--very-long-paths, a path in Bazel's output tree): kept in
# their records as a count of chars and the chars.
VERY_LONG_ROOT = ("/home/build/.cache/bazel/_bazel_build/4f0c1e2d9a8b7c6d5e4f3a2b1c0d9e8f/execroot/"
                  "__main__/bazel-out/k8-opt/bin/external/")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", help="a build directory with benchmarks and examples")
    parser.add_argument("--runs", type=int, default=21, help="runs of each variant (default 21)")
    parser.add_argument("--nodes", type=int, default=40_000, help="shallow_queries' size")
    paths = parser.add_mutually_exclusive_group()
    paths.add_argument("--long-paths", action="store_true",
                       help="shallow_queries' paths under a directory, 70 chars and more: keys "
                            "kept as 128 bytes of chars")
    paths.add_argument("--very-long-paths", action="store_true",
                       help="shallow_queries' paths 139 chars and more: keys kept as a count "
                            "of chars and the chars")
    parser.add_argument("--toyc", action="store_true", help="also measure toyc, every core busy")
    parser.add_argument("--quick", action="store_true", help="one small run of each variant")
    parser.add_argument("--cpu", action="store_true",
                        help="CPU time of each process (all threads) instead of wall time")
    parser.add_argument("--selection", action="store_true",
                        help="only toyc recording less (-Z profile-queries-events), against all")
    parser.add_argument("--before", metavar="BUILD_DIR",
                        help="also run the recording variants of this other build (the code "
                             "before a change), interleaved with the others")
    parser.add_argument("--memory", action="store_true",
                        help="only toyc recording memory (-Z profile-queries-memory), against not")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.nodes = 1, 2_000
    if args.selection:
        medians, events, _ = measure(selection_variants(args.build_dir, args.quick), args.runs,
                                  args.cpu)
        print_selection_table(medians, events, args.runs, args.cpu)
        return
    if args.memory:
        medians, events, _ = measure(memory_variants(args.build_dir, args.quick), args.runs, args.cpu)
        print_selection_table(medians, events, args.runs, args.cpu,
                              "toyc --threads 1, recording memory")
        return

    bench = os.path.join(args.build_dir, "benchmarks")
    root = LONG_ROOT if args.long_paths else VERY_LONG_ROOT if args.very_long_paths else None
    shape = ["--nodes", str(args.nodes)] + (["--root", root] if root else [])
    on = [os.path.join(bench, "shallow_queries")] + shape
    off = [os.path.join(bench, "shallow_queries_off")] + shape
    variants = [
        ("not instrumented", off),
        # What the collector's thread costs by being there: glibc's malloc leaves its
        # single-thread fast path once a process has had a second thread.
        ("not instrumented, an idle thread", off + ["--idle-thread"]),
        # Timing every provider run costs the program this much before any profiler's work:
        # the floor under =counts on this machine.
        ("not instrumented, clock reads", [os.path.join(bench, "shallow_queries_clock")] + shape),
        ("compiled in, no flags", on),
        ("-Z profile-queries=counts", on + ["-Zprofile-queries=counts"]),
        ("-Z profile-queries", on + ["-Zprofile-queries"]),
        ("keys, =counts", on + ["-Zprofile-queries-and-keys=counts"]),
    ]
    if args.before:
        before = [os.path.join(args.before, "benchmarks", "shallow_queries")] + shape
        variants += [(f"before: {name}", before + command[len(on):])
                     for name, command in variants[4:]]
    medians, events, ends = measure(variants, args.runs, args.cpu)
    budgets = {"-Z profile-queries=counts": "<= +4 %", "-Z profile-queries": "<= +8 %",
               "keys, =counts": "<= +15 %", "end: -Z profile-queries": "<= 40 ns an event"}
    print_table("shallow_queries (one thread, hit-heavy)", medians, "not instrumented",
                check_events("shallow_queries", events), budgets, args.runs, args.cpu, ends)

    if args.toyc:
        examples = os.path.join(args.build_dir, "examples")
        threads = ["--threads", str(os.cpu_count() or 2)]
        size = ["--items", "1000"] if args.quick else []
        toyc_variants = [
            ("not instrumented", [os.path.join(examples, "toyc_off")] + threads + size),
            ("-Z profile-queries=counts",
             [os.path.join(examples, "toyc")] + threads + size + ["-Zprofile-queries=counts"]),
        ]
        medians, events, _ = measure(toyc_variants, args.runs, args.cpu)
        print_table(f"toyc {' '.join(threads + size)} (every core busy)", medians,
                    "not instrumented", check_events("toyc", events),
                    {"-Z profile-queries=counts": "<= +3 %"}, args.runs, args.cpu)


if __name__ == "__main__":
    main()
