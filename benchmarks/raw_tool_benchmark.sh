#!/usr/bin/env bash
# What the raw stream costs end to end, on built binaries: toyc writing a stream of at least
# 10 M events (-Z profile-queries=raw against =counts), `qprof summarize` reading it back
# (budget: under 2 s), and peak memory -- of the tool, and of toyc at two sizes, to show that
# `raw,counts` stays flat while `counts,html` grows with the trace.
#
#   meson setup build-rawbench -Dbenchmarks=enabled -Dexamples=enabled -Dtests=disabled --buildtype=release
#   ninja -C build-rawbench
#   benchmarks/raw_tool_benchmark.sh build-rawbench
#
# Timings are medians of several runs made here, one after the other; peak RSS is from one
# run (it hardly varies). Builds nothing; writes only into a temporary directory, removed at
# the end. Environment: QPROF_BENCH_ITEMS (toyc size, default 110000: about 10.2 M events),
# QPROF_BENCH_TOYC_RUNS (default 3), QPROF_BENCH_SUMMARIZE_RUNS (default 5).
set -euo pipefail

readonly MIN_EVENTS=10000000
readonly SUMMARIZE_BUDGET_S=2
readonly RSS_ITEMS=(10000 50000)
items=${QPROF_BENCH_ITEMS:-110000}
toyc_runs=${QPROF_BENCH_TOYC_RUNS:-3}
summarize_runs=${QPROF_BENCH_SUMMARIZE_RUNS:-5}

say() { printf '==> %s\n' "$*" >&2; }
die() {
    printf 'raw_tool_benchmark: error: %s\n' "$*" >&2
    exit 1
}

if [[ $# -ne 1 || $1 == -h || $1 == --help ]]; then
    printf 'usage: %s BUILD_DIR   (a build configured with -Dexamples=enabled, already built)\n' \
        "$0" >&2
    exit 2
fi
build=$1
toyc=$build/examples/toyc
qprof=$build/qprof
[[ -d $build ]] || die "no build directory '$build'"
[[ -x $toyc ]] || die "'$toyc' is missing: configure '$build' with -Dexamples=enabled, then ninja -C '$build'"
[[ -x $qprof ]] || die "'$qprof' is missing: run ninja -C '$build'"
[[ -x /usr/bin/time ]] || die "GNU time (/usr/bin/time) is needed for peak RSS: apt-get install time"
for n in "$items" "$toyc_runs" "$summarize_runs"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "'$n' is not a positive whole number"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/qprof-raw-bench.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
trap 'exit 130' INT TERM

# ---- helpers ---------------------------------------------------------------------------------

# The median of the numbers on stdin, one a line.
median() {
    sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) exit 1
        print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Runs "$@" under GNU time: stdout dropped, stderr kept in $work/stderr, wall seconds printed,
# peak RSS (kB) in $work/rss, user + system seconds (all threads) in $work/cpu. Stops the
# script, with the command's stderr, if it fails.
run_measured() {
    local start end
    start=$EPOCHREALTIME
    if ! /usr/bin/time -v -o "$work/time" "$@" >/dev/null 2>"$work/stderr"; then
        cat "$work/stderr" >&2
        die "failed: $*"
    fi
    end=$EPOCHREALTIME
    awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time" >"$work/rss"
    awk -F': ' '/(User|System) time \(seconds\)/ { s += $2 } END { print s }' "$work/time" \
        >"$work/cpu"
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'
}

# Median wall seconds of $1 runs of "${@:2}" (stdout dropped): hyperfine when installed, one
# warm-up run first; otherwise a plain loop after the same warm-up.
median_seconds() {
    local runs=$1
    shift
    if command -v hyperfine >/dev/null 2>&1; then
        local command
        command=$(printf '%q ' "$@")
        hyperfine -N --style basic --warmup 1 --runs "$runs" \
            --export-csv "$work/hyperfine.csv" -- "$command" >&2
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "median") c = i; next }
                 { print $c }' "$work/hyperfine.csv"
    else
        "$@" >/dev/null
        local i
        for ((i = 0; i < runs; i++)); do
            run_measured "$@"
        done | median
    fi
}

# "1,234,567" from toyc's stderr line "qprof: recorded 1,234,567 events on ...".
recorded_events() {
    sed -n 's/^qprof: recorded \([0-9,]*\) events.*/\1/p' "$work/stderr" | tr -d ,
}

mb() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }'; }  # kB -> MiB (RSS)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
percent() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f %%", (a / b - 1) * 100 }'; }

# ---- toyc writing the stream -----------------------------------------------------------------

# toyc at $items in both modes, runs alternating so that a change in the machine's load falls
# on both. Wall time, and CPU time (user + system, every thread): on a shared machine the
# CPU time is what resolves a few percent.
declare -A walls=()
declare -A cpus=()
declare -A last_rss=()
say "toyc --items $items, $toyc_runs runs each of -Z profile-queries=raw and =counts"
for ((run = 1; run <= toyc_runs; run++)); do
    for mode in raw counts; do
        mkdir -p "$work/$mode"
        wall=$(run_measured "$toyc" --items "$items" -Z "profile-queries=$mode" \
            -Z "profile-queries-dir=$work/$mode")
        walls[$mode]+="$wall "
        cpus[$mode]+="$(cat "$work/cpu") "
        last_rss[$mode]=$(cat "$work/rss")
        say "  run $run, $mode: $wall s wall, $(cat "$work/cpu") s CPU, peak RSS $(mb "${last_rss[$mode]}") MiB"
        if [[ $mode == raw ]]; then
            events=$(recorded_events)
        fi
    done
done
[[ -n ${events:-} ]] || die "toyc did not say how many events it recorded (expected 'qprof: recorded N events')"
((events >= MIN_EVENTS)) ||
    die "toyc --items $items recorded $events events, fewer than $MIN_EVENTS: raise QPROF_BENCH_ITEMS"
stream=$work/raw/profile_queries.qprof
[[ -s $stream ]] || die "toyc wrote no $stream"
stream_bytes=$(stat -c %s "$stream")
median_of() { tr ' ' '\n' <<<"$1" | grep . | median; }
raw_s=$(median_of "${walls[raw]}")
counts_s=$(median_of "${walls[counts]}")
raw_cpu_s=$(median_of "${cpus[raw]}")
counts_cpu_s=$(median_of "${cpus[counts]}")

# ---- reading it back -------------------------------------------------------------------------

say "qprof summarize, $summarize_runs runs"
summarize_s=$(median_seconds "$summarize_runs" "$qprof" summarize --no-progress "$stream")
run_measured "$qprof" summarize --no-progress "$stream" >/dev/null
summarize_rss=$(cat "$work/rss")
say "qprof report --reporters=counts, once (peak RSS)"
mkdir -p "$work/report"
report_s=$(run_measured "$qprof" report --no-progress --reporters=counts -o "$work/report" "$stream")
report_rss=$(cat "$work/rss")

# ---- toyc's memory: totals only against the whole trace -------------------------------------

# toyc's own tables grow with --items too, so each mode is set against a run that records
# nothing: the difference is the profiler's.
declare -A rss=()
declare -A events_at=()
for mode in none raw,counts counts,html; do
    for n in "${RSS_ITEMS[@]}"; do
        flags=()
        [[ $mode == none ]] || flags=(-Z "profile-queries=$mode" -Z "profile-queries-dir=$work/rss-$n")
        say "toyc --items $n, $([[ $mode == none ]] && echo 'not recording' || echo "-Z profile-queries=$mode"), once (peak RSS)"
        mkdir -p "$work/rss-$n"
        run_measured "$toyc" --items "$n" "${flags[@]}" >/dev/null
        rss[$mode,$n]=$(cat "$work/rss")
        [[ $mode == none ]] || events_at[$n]=$(recorded_events)
    done
done

# ---- the table -------------------------------------------------------------------------------

within=$(awk -v s="$summarize_s" -v b="$SUMMARIZE_BUDGET_S" 'BEGIN { print (s < b) ? "OK" : "OVER BUDGET" }')
small=${RSS_ITEMS[0]}
large=${RSS_ITEMS[1]}
{
    printf '\nqprof raw stream, %s: toyc --items %s, %s events\n' "$(date -u +%F)" "$items" "$events"
    printf '  (timings: medians of %s toyc runs and %s summarize runs; peak RSS: one run)\n' \
        "$toyc_runs" "$summarize_runs"
    row() { printf '  %-50s %s\n' "$1" "$2"; }
    row "toyc -Z profile-queries=counts, wall" "$(printf '%.2f s' "$counts_s")"
    row "toyc -Z profile-queries=raw, wall" \
        "$(printf '%.2f s, %s against counts' "$raw_s" "$(percent "$raw_s" "$counts_s")")"
    row "toyc -Z profile-queries=counts, CPU (all threads)" "$(printf '%.2f s' "$counts_cpu_s")"
    row "toyc -Z profile-queries=raw, CPU (all threads)" \
        "$(printf '%.2f s, %s against counts' "$raw_cpu_s" "$(percent "$raw_cpu_s" "$counts_cpu_s")")"
    row "stream" "$(awk -v b="$stream_bytes" -v e="$events" -v s="$raw_s" 'BEGIN {
        printf "%.1f MB, %.2f bytes/event, %.1f MB per second of the run", b / 1e6, b / e, b / 1e6 / s }')"
    row "qprof summarize" \
        "$(printf '%.3f s, budget < %s s: %s' "$summarize_s" "$SUMMARIZE_BUDGET_S" "$within")"
    row "qprof report --reporters=counts (one run)" "$(printf '%.3f s' "$report_s")"
    row "peak RSS, qprof summarize" "$(mb "$summarize_rss") MiB"
    row "peak RSS, qprof report --reporters=counts" "$(mb "$report_rss") MiB"
    row "peak RSS, toyc raw / counts, $items items" \
        "$(mb "${last_rss[raw]}") / $(mb "${last_rss[counts]}") MiB"
    row "peak RSS, toyc not recording, $small -> $large items" \
        "$(mb "${rss[none,$small]}") -> $(mb "${rss[none,$large]}") MiB"
    for mode in raw,counts counts,html; do
        row "peak RSS, toyc $mode, $small -> $large items" \
            "$(mb "${rss[$mode,$small]}") -> $(mb "${rss[$mode,$large]}") MiB; \
above not recording $(mb $((rss[$mode,$small] - rss[none,$small]))) -> \
$(mb $((rss[$mode,$large] - rss[none,$large]))) MiB \
(events x$(ratio "${events_at[$large]}" "${events_at[$small]}"))"
    done
}
