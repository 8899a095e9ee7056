#!/usr/bin/env python3
"""Memory per query in the html report and the flame graph, in a real browser (headless
Chromium).

Runs toyc with -Z profile-queries-memory, writing its raw stream, html report and flame graph,
and checks what a user looking for allocations meets: the provider table's memory columns give
each provider's bytes exactly as `qprof summarize --json` of the same run; the viewer's own
statistics of the whole run (statsOfRange) give the payload's memory; each thread's self memory,
derived by the viewer, adds up to what its top-level scopes allocated; a provider's statistics
and a node's details show memory; the flame graph's switch weighs its frames by bytes. Nothing
may be reported on the console.

Each check prints "ok - ..." or "FAIL - ... reason"; the exit status is 1 when any failed.
Without Chromium it exits 77 (Meson's "skipped"), or 1 when CI=true.

    memory_test.py --toyc build/examples/toyc --qprof build/qprof --out /tmp/memory
"""

import json
import os
import sys

# Imported from the source tree: leave no __pycache__ in it.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import CheckFailed, Results, check_no_problems, run_command  # noqa: E402

READY_TIMEOUT_S = 60
MEMORY_FIELDS = ["alloc_bytes", "allocs", "retained_bytes",
                 "self_alloc_bytes", "self_allocs", "self_retained_bytes"]


def run_toyc(toyc, tool, out_dir):
    """toyc's reports with memory, and `qprof summarize --json` of its raw stream."""
    os.makedirs(out_dir, exist_ok=True)
    for name in os.listdir(out_dir):  # qprof never overwrites: a stale run would stay
        if name.startswith("profile_queries"):
            os.remove(os.path.join(out_dir, name))
    run_command([toyc, "--items", "400", "-Z", "profile-queries=raw,html,flamegraph",
                 "-Z", "profile-queries-memory"], "toyc with memory", out_dir, timeout=120)
    print("ok - toyc ran with -Z profile-queries-memory", flush=True)
    return json.loads(run_command([tool, "summarize", "--json", "-q",
                                   os.path.join(out_dir, "profile_queries.qprof")],
                                  "qprof summarize", timeout=120))


# ----- the html report -----

TABLE_JS = """(() => {
    const heads = Array.from(document.querySelectorAll('#provider-table thead th'))
        .map((th) => th.dataset.sort || '');
    return Array.from(document.querySelectorAll('#provider-table tbody tr')).map((r) => {
        const p = qp.providers[Number(r.dataset.provider)];
        const cells = {};
        heads.forEach((h, i) => { if (h) cells[h] = r.cells[i].dataset.value; });
        return [p.name, p.activity, cells];
    });
})()"""


def check_table(page, summary):
    """Each provider's memory in the table is its memory in `qprof summarize --json`."""
    rows = page.js(TABLE_JS)
    wanted = {(p["provider"], p["activity"]): p for p in summary["providers"]}
    columns = {"alloc": "allocated_bytes", "allocs": "allocations", "retained": "retained_bytes",
               "self-alloc": "self_allocated_bytes", "self-allocs": "self_allocations",
               "self-retained": "self_retained_bytes"}
    allocating = 0
    for name, activity, cells in rows:
        expected = wanted.get((name, activity))
        if expected is None:
            raise CheckFailed("the table has %r, summarize has not" % name)
        for column, field in columns.items():
            if column not in cells:
                raise CheckFailed("the table has no column %r" % column)
            if int(cells[column]) != expected[field]:
                raise CheckFailed("%s: %s %s in the table, %s %d in summarize"
                                  % (name, column, cells[column], field, expected[field]))
        allocating += expected["self_allocated_bytes"] > 0
    if allocating == 0:
        raise CheckFailed("no provider allocated anything: is toyc's allocation hook in?")
    return "%d providers, %d of them allocating" % (len(rows), allocating)


def check_whole_run(page):
    """The viewer's statistics of the whole run give the payload's memory exactly, and its
    per-node self memory adds up to what each thread's top-level scopes allocated."""
    found = page.js("""((fields) => {
        const p = JSON.parse(document.getElementById('qprof-trace').textContent);
        const mine = window.qprof.statsOfRange(0, Infinity), out = [];
        for (const s of p.stats) {
            const m = mine[s.provider];
            for (const f of fields) {
                if ((m ? m[f] : 0) !== s[f]) out.push(p.providers[s.provider].name + '.' + f + ': ' + (m && m[f]) + ' vs ' + s[f]);
            }
        }
        qp.threads.forEach((T, t) => {
            if (!T.memory) { out.push('thread ' + t + ' has no memory'); return; }
            let self = 0, top = 0;
            for (let n = 0; n < T.len; n++) self += T.memory.selfAlloc[n];
            for (let n = 0; n < T.len; n += T.size[n]) top += T.memory.alloc[n];
            if (self !== top) out.push('thread ' + t + ': self memory sums to ' + self + ', its roots allocated ' + top);
        });
        return {problems: out.slice(0, 6), count: out.length, providers: p.stats.length};
    })""".replace("\n", " ") + "(%s)" % json.dumps(MEMORY_FIELDS))
    if found["count"]:
        raise CheckFailed("%d differences, e.g. %s" % (found["count"], found["problems"]))
    return "%d providers agree" % found["providers"]


def check_provider_details(page):
    """A click on the provider that allocated most shows its memory, inclusive and self."""
    shown = page.js("""(() => {
        const stats = qp.stats.filter((s) => s.alloc_bytes > 0);
        stats.sort((a, b) => b.self_alloc_bytes - a.self_alloc_bytes);
        const s = stats[0];
        document.querySelector('#provider-table tbody tr[data-provider="' + s.provider + '"] a').click();
        const dd = document.querySelector('#details dd[data-field="alloc"]');
        return {name: qp.providers[s.provider].name, text: dd ? dd.textContent : null,
                expected: qv.bytesText(s.alloc_bytes) + ' \\u00b7 self ' + qv.bytesText(s.self_alloc_bytes)};
    })()""")
    if shown["text"] != shown["expected"]:
        raise CheckFailed("%s's statistics read %r, expected %r" % (shown["name"], shown["text"],
                                                                     shown["expected"]))
    return "%s: Allocated %s" % (shown["name"], shown["text"])


def check_node_details(page):
    """A click on the first drawn box shows what its node allocated."""
    box = page.js("""(() => {
        const el = document.querySelector('#tree-0 .node:not(.hit)[data-n]');
        el.scrollIntoView({block: 'center'});
        const r = el.getBoundingClientRect();
        return {n: Number(el.dataset.n), x: r.left + 4, y: r.top + 4};
    })()""")
    page.browser.click_at(box["x"], box["y"])
    page.browser.settle()
    shown = page.js("""((n) => {
        const dd = document.querySelector('#details dd[data-field="alloc"]');
        const M = qp.threads[0].memory;
        return {text: dd ? dd.textContent : null,
                expected: qv.bytesText(M.alloc[n]) + ' \\u00b7 self ' + qv.bytesText(M.selfAlloc[n])};
    })""" + "(%d)" % box["n"])
    if shown["text"] != shown["expected"]:
        raise CheckFailed("node %d's details read %r, expected %r" % (box["n"], shown["text"],
                                                                     shown["expected"]))
    return "node %d: %s" % (box["n"], shown["text"])


def check_timeline_memory(page):
    """The timeline's tip over the slice that allocated most, and the details a click on it
    selects, give its memory as the tree's details do. (Kept apart: one check, one function.)"""
    target = page.js("""(() => {
        const T = qp.threads[0], M = T.memory;
        let n = -1;
        for (let m = 0; m < T.len; m++) if (!qp.isHit(T, m) && (n < 0 || M.alloc[m] > M.alloc[n])) n = m;
        qp.timelineShow(0, n);
        const s = window.qprof.timeline();
        const r = document.getElementById('timeline-canvas').getBoundingClientRect();
        return {n, x: r.left + window.qprof.timelineX(window.qprof.start(0, n) + T.dur[n] / 2),
                y: r.top + s.tracks[0].y - s.scroll + s.head + (T.depth[n] + 0.5) * s.row,
                expected: qv.bytesText(M.alloc[n]) + ' \\u00b7 self ' + qv.bytesText(M.selfAlloc[n])};
    })()""")
    page.browser.move_to(target["x"], target["y"])
    page.browser.settle()
    tip = page.js("document.querySelector('#timeline-tip:not([hidden]) dd[data-field=\"alloc\"]')"
                  "?.textContent ?? null")
    if tip != target["expected"]:
        raise CheckFailed("the tip over node %d reads %r, expected %r"
                          % (target["n"], tip, target["expected"]))
    page.browser.click_at(target["x"], target["y"])
    page.browser.settle()
    details = page.js("""(() => {
        const dd = document.querySelector('#details dd[data-field="alloc"]');
        return {text: dd ? dd.textContent : null, selected: window.qprof.timeline().selected};
    })()""")
    if details["selected"] != {"t": 0, "n": target["n"]} or details["text"] != target["expected"]:
        raise CheckFailed("after a click on node %d's slice: selected %s, details %r, expected %r"
                          % (target["n"], details["selected"], details["text"], target["expected"]))
    return "node %d: Allocated %s in the tip and the details" % (target["n"], tip)


# ----- the flame graph -----

def check_flame_weight(page):
    """The switch makes frames as wide as their bytes: each drawn frame's width is its share
    of the root's bytes, and off again, of its time."""
    result = page.js("""(() => {
        const api = window.qprofFlame;
        const box = document.getElementById('weight-bytes');
        if (!box || !api.state().memory) return {error: 'no switch, or no bytes in the payload'};
        box.click();
        const state = api.state();
        const root = api.frame(0);
        const out = [];
        for (let i = 1; i < state.frames; i++) {
            const f = api.frame(i), b = api.frameBox(i);
            if (b === null) continue;
            const expected = state.canvasWidth * f.total_bytes / root.total_bytes;
            if (Math.abs(b.width - expected) > 1.5) out.push(f.name + ': ' + b.width.toFixed(1) + ' px, expected ' + expected.toFixed(1));
        }
        const header = document.getElementById('total-allocated').textContent;
        box.click();
        return {weight: state.weight, after: api.state().weight, drawn: state.drawn, problems: out.slice(0, 5),
                header, expected: qv.bytesText(root.total_bytes)};
    })()""")
    if result.get("error"):
        raise CheckFailed(result["error"])
    if result["weight"] != "bytes" or result["after"] != "time":
        raise CheckFailed("the switch gave weights %s then %s" % (result["weight"],
                                                                  result["after"]))
    if result["problems"]:
        raise CheckFailed("frames not as wide as their bytes: %s" % result["problems"])
    if result["header"] != result["expected"]:
        raise CheckFailed("the header says %r allocated, the root frame %r"
                          % (result["header"], result["expected"]))
    return "%d frames drawn by bytes; %s allocated" % (result["drawn"], result["header"])


def run_checks(browser, out_dir, summary):
    results = Results()
    page = harness.Page(browser, out_dir)
    report = "file://" + os.path.join(out_dir, "profile_queries.html")
    if results.run("the report becomes ready", harness.load, page, report, "qprof",
                   READY_TIMEOUT_S):
        results.run("the table's memory is summarize's", check_table, page, summary)
        results.run("the viewer's memory of the whole run is the payload's", check_whole_run,
                    page)
        results.run("a provider's statistics show its memory", check_provider_details, page)
        results.run("a node's details show its memory", check_node_details, page)
        results.run("the timeline's tip and selection show a slice's memory",
                    check_timeline_memory, page)
    flame = "file://" + os.path.join(out_dir, "profile_queries.flamegraph.html")
    if results.run("the flame graph becomes ready", harness.load, page, flame, "qprofFlame",
                   READY_TIMEOUT_S):
        results.run("the flame graph weighs its frames by bytes at the switch",
                    check_flame_weight, page)
    results.run("no console problems", check_no_problems, page, "during the test")
    return results


def main():
    args = harness.toyc_and_qprof_args(__doc__.split("\n\n")[0], "nothing (no screenshots)")
    out_dir = os.path.abspath(args.out)
    return harness.main(lambda: run_toyc(os.path.abspath(args.toyc), args.qprof, out_dir),
                        lambda browser, summary: run_checks(browser, out_dir, summary),
                        "toyc with memory", width=1440, height=900)


if __name__ == "__main__":
    sys.exit(main())
