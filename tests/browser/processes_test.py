#!/usr/bin/env python3
"""The html report of a merged build, in a real browser (headless Chromium).

Runs toyc as 6 processes in three waves (one, then two at once, then three at once: the
shell line of tests/many_processes_test.cpp), merges their raw streams with `qprof merge`,
writes the html report of the merged file with `qprof report`, and checks what a user of a
build profile needs: the timeline groups each process's thread tracks under a band naming
the process, in order of start; the statistics can be limited to one process, and then give
exactly the numbers of that process's own stream (`qprof summarize --json` of it); going back
to all processes restores the page's table.

Each check prints "ok - ..." or "FAIL - ... reason"; the exit status is 1 when any failed.
Without Chromium it exits 77 (Meson's "skipped"), or 1 when CI=true.

    processes_test.py --toyc build/examples/toyc --qprof build/qprof --out /tmp/processes \\
        [--screenshots docs/images]
"""

import glob
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import timeline_checks  # noqa: E402
from harness import CheckFailed  # noqa: E402

READY_TIMEOUT_S = 60
WAVES = [["200"], ["600", "300"], ["100", "800", "400"]]  # toyc --items, per wave


def run_build(toyc, out_dir):
    """The 6 toyc runs, each writing a raw stream into out_dir/profiles."""
    profiles = os.path.join(out_dir, "profiles")
    shutil.rmtree(profiles, ignore_errors=True)
    os.makedirs(profiles)
    # A directory relative to out_dir, as a build's command lines would give it.
    flags = ["-Z", "profile-queries=raw", "-Z", "profile-queries-dir=profiles",
             "-Z", "profile-queries-name=%n-%p"]
    for wave in WAVES:
        runs = [subprocess.Popen([toyc, "--items", items] + flags, cwd=out_dir,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                for items in wave]
        for run in runs:
            _, err = run.communicate(timeout=120)
            if run.returncode != 0:
                raise CheckFailed("toyc exited with %d: %s" % (run.returncode, err.decode()))
    return sorted(glob.glob(os.path.join(profiles, "*.qprof")))


def qprof(tool, *args):
    return harness.run_command([tool] + list(args), "qprof " + args[0], timeout=120)


def make_report(tool, streams, out_dir):
    """The merged file's html page, and per pid the summary of that process's own stream."""
    merged = os.path.join(out_dir, "build.qprof")
    qprof(tool, "merge", *streams, "-o", merged, "-q")
    report_dir = os.path.join(out_dir, "report")
    os.makedirs(report_dir, exist_ok=True)
    qprof(tool, "report", merged, "--reporters=html", "-o", report_dir, "-q")
    own = {}
    for stream in streams:
        summary = json.loads(qprof(tool, "summarize", "--json", stream, "-q"))
        own[summary["pid"]] = summary
    processes = json.loads(qprof(tool, "summarize", "--by-process", "--json", merged, "-q"))
    return os.path.join(report_dir, "profile_queries.html"), own, processes["processes"]


# ----- checks -----

def check_bands(browser, processes):
    """One band per process, in order of start, each above its own threads' tracks, which
    are named after the process's program and pid."""
    tracks = browser.evaluate("window.qprof.timeline().tracks")
    bands = [t["process"] for t in tracks if t["band"] is not None]
    if bands != list(range(len(processes))):
        raise CheckFailed("bands for processes %s, expected one for each of 0..%d in order"
                          % (bands, len(processes) - 1))
    seen = -1
    for track in tracks:
        process = track["process"]
        if process < seen:
            raise CheckFailed("track %r of process %d comes after process %d's"
                              % (track["name"], process, seen))
        seen = process
        expected = "toyc[%d] " % processes[process]["pid"]
        if not track["name"].startswith(expected):
            raise CheckFailed("track %r of process %d is not named %r..." % (
                track["name"], process, expected))
        if track["band"] is not None and not track["band"] < track["y"]:
            raise CheckFailed("the band of process %d is not above its first track" % process)
    shown = browser.evaluate("qp.processes.map((P) => [P.pid, P.start_ns])")
    expected = [[p["pid"], p["start_offset_ns"]] for p in processes]
    if shown != expected:
        raise CheckFailed("the page's processes (pid, start) %s, summarize says %s"
                          % (shown, expected))
    return "%d bands over %d tracks" % (len(bands), len(tracks))


SELECT_JS = """(value) => {
    const select = document.getElementById('process-select');
    select.value = String(value);
    select.dispatchEvent(new Event('change', {bubbles: true}));
    return select.options[select.selectedIndex].textContent;
}"""

TABLE_JS = """(() => Array.from(document.querySelectorAll('#provider-table tbody tr'))
    .filter((r) => !r.hidden)
    .map((r) => [qp.providers[Number(r.dataset.provider)].name,
                 qp.providers[Number(r.dataset.provider)].activity,
                 Number(r.cells[1].dataset.value), Number(r.cells[2].dataset.value)]))()"""


def check_process_filter(browser, processes, own):
    """Limited to each process in turn, the provider table holds exactly that process's
    providers with the runs and hits of its own stream."""
    options = browser.evaluate("document.getElementById('process-select').options.length")
    if options != len(processes) + 1:
        raise CheckFailed("%d options in the process selector, expected %d"
                          % (options, len(processes) + 1))
    for index, process in enumerate(processes):
        label = browser.call(SELECT_JS, index)
        browser.settle()
        if "pid %d" % process["pid"] not in label:
            raise CheckFailed("option %d reads %r, not pid %d" % (index, label, process["pid"]))
        rows = {(name, activity): (runs, hits)
                for name, activity, runs, hits in browser.evaluate(TABLE_JS)}
        summary = own[process["pid"]]
        expected = {}
        for p in summary["providers"]:
            if p["count"] == 0:
                continue  # registered, never asked: no row
            name = (p["provider"], p["activity"])
            expected[name] = p
            if name not in rows:
                raise CheckFailed("process %d: provider %r is not in the table" % (index, name))
            runs, hits = rows[name]
            waits_possible = p["blocked_ns"] > 0
            if hits != p["hits"] or (runs != p["count"] - p["hits"] and not waits_possible) \
                    or runs > p["count"] - p["hits"]:
                raise CheckFailed("process %d, %s: table runs %d hits %d; its stream: count %d"
                                  " hits %d" % (index, name, runs, hits, p["count"], p["hits"]))
        extra = sorted(set(rows) - set(expected))
        if extra:
            raise CheckFailed("process %d: the table shows providers it never ran: %s"
                              % (index, extra))
        events = browser.evaluate(
            "qp.rangeStats.reduce((sum, s) => sum + (s ? s.events : 0), 0)")
        if events != process["events"]:
            raise CheckFailed("process %d: %d events counted, summarize says %d"
                              % (index, events, process["events"]))
    return "%d processes, each as its own stream" % len(processes)


def check_details_note(browser, processes):
    """A provider's statistics, opened while one process is chosen, say so."""
    browser.call(SELECT_JS, 1)
    browser.settle()
    browser.click("#provider-table tbody tr:not([hidden]) a")
    browser.settle()
    text = browser.evaluate("document.getElementById('details').textContent")
    expected = "In toyc (pid %d) only." % processes[1]["pid"]
    if expected not in text:
        raise CheckFailed("the details say %r, without %r" % (text[:200], expected))
    return expected


def check_band_click(browser, processes):
    """A click on a process's band limits the statistics to it; a second, to all again."""
    band = browser.evaluate("""(() => {
        const state = window.qprof.timeline();
        const track = state.tracks.find((t) => t.process === 2);
        document.getElementById('timeline').scrollIntoView({block: 'start', behavior: 'instant'});
        document.getElementById('timeline-view').scrollTop = track.band - state.axis;
        const r = document.getElementById('timeline-canvas').getBoundingClientRect();
        return {x: r.left + 200, y: r.top + state.axis + 9};
    })()""")
    browser.settle()
    chosen = []
    for _ in range(2):
        browser.click_at(band["x"], band["y"])
        browser.settle()
        chosen.append(browser.evaluate("Number(document.getElementById('process-select').value)"))
    if chosen != [2, -1]:
        raise CheckFailed("after one and two clicks on process 2's band the selector shows %s,"
                          " expected [2, -1]" % chosen)
    return "pid %d, then all" % processes[2]["pid"]


def check_all_again(browser, table_before):
    """Back to all processes: the table the page wrote, every row shown."""
    browser.call(SELECT_JS, -1)
    browser.settle()
    after = browser.evaluate(
        "Array.from(document.querySelectorAll('#provider-table tbody tr'))"
        ".map((r) => [r.hidden, r.innerHTML])")
    if after != table_before:
        raise CheckFailed("the table differs from the page's after going back to all processes")
    return "%d rows" % len(after)


def screenshot(browser, shots):
    """docs/images/html-processes.png: the timeline of the build and the statistics of one
    process, at 1440x900."""
    if not shots:
        return "not asked for"
    browser.call(SELECT_JS, 2)  # its band outlined
    browser.evaluate("document.getElementById('timeline-view').scrollTop = 0")
    browser.evaluate("window.scrollTo(0, document.getElementById('timeline').offsetTop - 8)")
    browser.settle()
    path = os.path.join(shots, "html-processes.png")
    browser.screenshot(path)
    return path


def run_checks(browser, page_path, processes, own, shots):
    results = harness.Results()
    page = harness.Page(browser)
    if not results.run("the page loads", harness.load, page, "file://" + page_path, "qprof",
                       READY_TIMEOUT_S):
        return results
    table_before = browser.evaluate(
        "Array.from(document.querySelectorAll('#provider-table tbody tr'))"
        ".map((r) => [r.hidden, r.innerHTML])")
    results.run("a band per process over its threads' tracks, in order of start", check_bands,
                browser, processes)
    results.run("the statistics of each process are those of its own stream",
                check_process_filter, browser, processes, own)
    results.run("a provider's statistics name the process they count", check_details_note,
                browser, processes)
    results.run("a click on a band limits the statistics to its process", check_band_click,
                browser, processes)
    results.run("all processes again: the page's own table", check_all_again, browser,
                table_before)
    # A page of `qprof report`: its nodes' times come from ticks read back from the streams.
    results.run("the statistics of the whole run as a range are the payload's, to the ns",
                timeline_checks.check_whole_run_stats, page)
    results.run("screenshot of the build", screenshot, browser, shots)
    results.run("no console problems", harness.check_no_problems, page, "during the test")
    return results


def main():
    args = harness.toyc_and_qprof_args(__doc__.split("\n\n")[0], "html-processes.png")
    out_dir = os.path.abspath(args.out)

    def write_page():
        os.makedirs(out_dir, exist_ok=True)
        streams = run_build(os.path.abspath(args.toyc), out_dir)
        page_path, own, processes = make_report(args.qprof, streams, out_dir)
        print("ok - a merged build of %d processes, its html report written" % len(processes),
              flush=True)
        return page_path, processes, own

    return harness.main(write_page,
                        lambda browser, written: run_checks(browser, *written, args.screenshots),
                        "a merged build's html report", width=1440, height=900)


if __name__ == "__main__":
    sys.exit(main())
