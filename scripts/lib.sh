# Shared by the scripts in this directory: the repository root, messages, and the system
# packages qprof needs (installed with apt-get when missing). Source it, do not run it.
# shellcheck shell=bash

QPROF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Everything a build of qprof needs on Debian 12: the build tools, Boost (PFR),
# Catch2 v2 for the tests and Google Benchmark for the benchmarks (a default configure
# looks for all of them). g++ brings the ASan/TSan/UBSan runtimes.
# shellcheck disable=SC2034  # used by the scripts that source this file
QPROF_PACKAGES=(meson ninja-build g++ pkg-config libboost1.81-dev catch2 libbenchmark-dev)
# The tests also open the HTML report in a real browser (headless Chromium), which needs a
# font to lay text out: packages are installed without their recommendations, and Chromium
# only recommends one. CMake builds the consumer of qprof's CMake package; Go's toolchain
# brings `go tool pprof`, which reads the pprof report. Node.js, which runs the browser tests
# (Playwright Test) and ESLint, comes with ensure_node_packages.
# shellcheck disable=SC2034
QPROF_TEST_PACKAGES=(chromium fonts-dejavu-core cmake golang-go)
# clang builds the fuzzers (libclang-rt-14-dev holds libclang_rt.fuzzer, their runtime) and
# scripts/run-tests' ASan + UBSan build, which the fuzzers are built in: QPROF_FUZZ_OPTIONS.
# shellcheck disable=SC2034
QPROF_CLANG_PACKAGES=(clang libclang-rt-14-dev)
# shellcheck disable=SC2034
QPROF_FUZZ_OPTIONS=(-Dfuzzing=true "-Db_sanitize=address,undefined" -Db_lundef=false)

say() { printf '==> %s\n' "$*"; }
die() {
    printf 'error: %s\n' "$*" >&2
    exit 1
}

# read_cpu: sets cpu_now to the CPU time (user + system, whole seconds) of every child process
# the calling shell has waited for so far (and their own waited-for children), from bash's
# `times`, run here and not in a subshell (a subshell counts from zero). On 2 cores, CI's wall
# time is at best the total CPU time over 2, and load does not inflate CPU time much.
# shellcheck disable=SC2034  # cpu_now: read by the scripts that call read_cpu
cpu_now=0
# shellcheck disable=SC2034
read_cpu() {
    local times_file user system
    times_file="$(mktemp)"
    times >"$times_file"
    { read -r _ && read -r user system; } <"$times_file" # line 1: the shell, 2: its children
    rm -f "$times_file"
    cpu_now="$(awk -v user="$user" -v sys="$system" '
        function seconds(t, parts) {  # "1m2.345s"
            split(t, parts, "m")
            return parts[1] * 60 + parts[2]
        }
        BEGIN { printf "%d", seconds(user) + seconds(sys) }')"
}

# run_measured CPU_FILE COMMAND...: runs COMMAND, then writes the CPU-seconds it took (with its
# children's) into CPU_FILE; returns COMMAND's status. Call it in a shell of its own.
run_measured() {
    local cpu_file="$1" status=0
    shift
    "$@" || status=$?
    read_cpu
    echo "$cpu_now" >"$cpu_file"
    return "$status"
}

# at_lowest_priority COMMAND...: runs COMMAND at nice 19, its session's scheduler group too.
# Linux groups each session's processes (sched_autogroup, on by default on Debian) and shares the
# CPU between groups before it looks at nice, so `nice -n 19` alone in a session of its own (a
# job started by setsid) still took a whole core of CI's two from the builds beside it. A
# group's own nice is set through /proc/self/autogroup, where the kernel has one.
at_lowest_priority() {
    if [[ -w /proc/self/autogroup ]]; then
        echo 19 >/proc/self/autogroup 2>/dev/null || true
    fi
    nice -n 19 "$@"
}

# Prints the packages among "$@" that dpkg does not report as installed.
missing_packages() {
    local package status
    for package in "$@"; do
        status="$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)"
        if [[ "$status" != "install ok installed" ]]; then
            printf '%s\n' "$package"
        fi
    done
}

# Installs the packages among "$@" that are missing: as root with apt-get, otherwise
# through sudo when it exists; without either, stops with the list of what to install.
ensure_packages() {
    if ! command -v dpkg-query >/dev/null 2>&1; then
        say "not a Debian system: make sure these are installed: $*"
        return 0
    fi
    local missing=()
    mapfile -t missing < <(missing_packages "$@")
    if ((${#missing[@]} == 0)); then
        return 0
    fi
    local as_root=()
    if ((EUID != 0)); then
        if ! command -v sudo >/dev/null 2>&1; then
            die "missing packages: ${missing[*]}
as root, run: apt-get install ${missing[*]}"
        fi
        as_root=(sudo)
    fi
    say "installing missing packages: ${missing[*]}"
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q ||
        die "apt-get update failed"
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "${missing[@]}" ||
        die "could not install: ${missing[*]}"
}

# Installs the npm packages of a folder with a package-lock.json (the browser tests', the
# linters') into its node_modules, when missing or older than the lock file; and Node.js
# with npm first when there is no npm (only then: a Node.js from elsewhere, such as
# NodeSource's, brings its own npm and conflicts with Debian's package).
ensure_node_packages() {
    local dir="$1" lock
    if ! command -v npm >/dev/null 2>&1; then
        ensure_packages nodejs npm
    fi
    lock="$dir/node_modules/.package-lock.json"
    if [[ ! -f "$lock" || "$dir/package-lock.json" -nt "$lock" ]]; then
        say "npm: installing the packages of ${dir#"$QPROF_ROOT"/} (package-lock.json)"
        run_quietly npm ci --prefix "$dir" --no-audit --no-fund
    fi
}

# Runs "$@" with its output kept in a log; shows the log only if the command fails.
run_quietly() {
    local log status=0
    log="$(mktemp)"
    "$@" >"$log" 2>&1 || status=$?
    if ((status != 0)); then
        cat "$log" >&2
        printf 'error: command failed (exit %d): %s\n' "$status" "$*" >&2
    fi
    rm -f "$log"
    return "$status"
}

# Configures a Meson build directory: a fresh setup, or a reconfigure (with the given
# options) when it was configured before.
meson_configure() {
    local build_dir="$1"
    shift
    if [[ -f "$build_dir/meson-private/coredata.dat" ]]; then
        run_quietly meson setup --reconfigure "$build_dir" "$QPROF_ROOT" "$@" || return
        # Meson 1.0 leaves ninja's record of build.ninja stale after a reconfigure, so the
        # next ninja run would configure all over again, loudly.
        run_quietly ninja -C "$build_dir" -t restat build.ninja
    else
        run_quietly meson setup "$build_dir" "$QPROF_ROOT" "$@"
    fi
}
