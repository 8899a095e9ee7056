"""The checks of the page's timeline, run by html_report_test.py on toyc's page: one track
per thread, slices where the Chrome trace of the same run has them, zoom by wheel, keys and
buttons, a click on a slice selects it in the tree, a run clicked in the statistics is shown
on the timeline, and a range selected on it limits the statistics, which over the whole run
are the payload's.

Each check returns a detail string or raises CheckFailed (harness.py).
"""

import json
import os
import re

from harness import CheckFailed

SHIFT = 8  # the DevTools protocol's modifier bit for Shift


def _state(page):
    state = page.js("window.qprof.timeline()")
    if state is None:
        raise CheckFailed("window.qprof.timeline() gives nothing: the page has no timeline")
    return state


def _canvas_box(page):
    """The canvas's box in the viewport, after scrolling the page to its top."""
    page.js("window.scrollTo(0, 0)")
    page.browser.settle()
    box = page.js("""(() => { const r = document.getElementById('timeline-canvas')
        ?.getBoundingClientRect(); return r && {left: r.left, top: r.top, width: r.width,
        height: r.height, bottom: r.bottom}; })()""")
    if not box or box["width"] <= 0 or box["height"] <= 0:
        raise CheckFailed("the timeline's canvas has no size: %s" % box)
    return box


def _row_y(state, thread, depth):
    """The y of the middle of a depth row of a thread's track, in canvas pixels."""
    track = state["tracks"][thread]
    return track["y"] - state["scroll"] + state["head"] + (depth + 0.5) * state["row"]


def _show_row(page, thread, depth):
    """Scrolls the timeline's tracks, as a user would before pointing there, so that a row of
    a thread's track is in view (an earlier check may have opened a track to a deep node and
    scrolled past the first rows); returns the timeline's state."""
    page.call("""(t, depth) => {
        const s = window.qprof.timeline(), view = document.getElementById('timeline-view');
        const top = s.tracks[t].y - s.scroll + s.head + depth * s.row;
        if (top < s.axis || top + s.row > s.height) {
            view.scrollTop = Math.max(0, s.tracks[t].y + depth * s.row - s.axis);
        }
    }""", thread, depth)
    page.browser.settle()
    return _state(page)


def check_tracks(page):
    """One track per thread, named like the thread, each with slices drawn in its first row,
    and the whole timeline on the first screen's width: the timeline as the page loads."""
    state = _state(page)
    box = _canvas_box(page)
    names = page.js("""JSON.parse(document.getElementById('qprof-trace').textContent)
        .threads.map(t => t.name)""")
    tracks = [t["name"] for t in state["tracks"]]
    if tracks != names:
        raise CheckFailed("tracks %s, threads %s: not one track per thread" % (tracks, names))
    if len(tracks) < 2:
        raise CheckFailed("toyc's report has %d thread(s); it should have its codegen workers"
                          % len(tracks))
    if box["width"] < 1000 or box["top"] > 900:
        raise CheckFailed("the timeline is %d px wide at y %d: not on the first screen at "
                          "1440x900" % (box["width"], box["top"]))
    # Pixels of each track's first row that are not the background: where the thread worked.
    inked = page.call("""(rows) => {
        const c = document.getElementById('timeline-canvas');
        const k = c.width / c.clientWidth;
        const all = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; // one readback
        const at = (x, y) => 4 * (y * c.width + x);
        const bg = all.slice(at(c.width - 1, 1), at(c.width - 1, 1) + 3);
        return rows.map((y) => {
            const row = Math.round(y * k);
            if (row >= c.height) return -1;
            let n = 0;
            for (let x = 0; x < c.width; x++) {
                const i = at(x, row);
                if (Math.abs(all[i] - bg[0]) + Math.abs(all[i + 1] - bg[1]) + Math.abs(all[i + 2] - bg[2]) > 30) n++;
            }
            return n / c.width;
        });
    }""", [_row_y(state, i, 0) for i in range(len(tracks))])
    for name, share in zip(tracks, inked):
        if share == -1:
            raise CheckFailed("the track of %r is below the timeline's view on load: not every "
                              "thread is in sight" % name)
        if share <= 0:
            raise CheckFailed("the track of %r has nothing drawn in its first row" % name)
    return "%d tracks: %s; first rows inked %s" % (
        len(tracks), ", ".join(tracks), ", ".join("%.0f %%" % (100 * s) for s in inked))


def check_starts_match_chrome(page, chrome_path):
    """The slowest run of the top provider starts on the timeline where the Chrome trace of
    the same run starts it (both from integer ns: exactly)."""
    run = page.js("""(() => { const p = JSON.parse(document.getElementById('qprof-trace')
        .textContent); let best = null;
        for (const s of p.stats) if (s.slowest.length && (!best || s.self_ns > best.self_ns)) best = s;
        const [t, n, ns] = best.slowest[0];
        return {t, n, ns, name: p.providers[best.provider].name,
                start: window.qprof.start(t, n)}; })()""")
    with open(chrome_path, encoding="utf-8") as source:
        events = json.load(source)["traceEvents"]
    # The Chrome trace may end an event 1-2 ns early (chrome_reporter.cpp); it starts it exactly.
    starts = [round(e["ts"] * 1000) for e in events if e.get("ph") == "X"
              and e.get("name") == run["name"] and abs(round(e["dur"] * 1000) - run["ns"]) <= 2]
    if run["start"] not in starts:
        raise CheckFailed("the slowest %s run (%d ns) starts at %s ns on the timeline; the "
                          "Chrome trace has runs of that length at %s" % (
                              run["name"], run["ns"], run["start"], starts[:5]))
    return "%s, %d ns, starts at %d ns in both" % (run["name"], run["ns"], run["start"])


def _span(page):
    state = _state(page)
    return state["to"] - state["from"]


def check_zoom(page):
    """The wheel zooms in at the pointer, + and - zoom, "Whole run" shows everything again;
    a drag pans."""
    box = _canvas_box(page)
    page.browser.click("#timeline-reset")
    page.browser.settle()
    whole = _span(page)
    x, y = box["left"] + box["width"] / 2, box["top"] + 30
    page.browser.wheel(x, y, 0, -600)
    page.browser.settle()
    wheeled = _span(page)
    if not wheeled < whole:
        raise CheckFailed("the wheel did not zoom in: %d ns shown before, %d after"
                          % (whole, wheeled))
    page.js("document.getElementById('timeline-view').focus()")  # as Tab would
    page.browser.press("+")
    page.browser.settle()
    keyed = _span(page)
    if not keyed < wheeled:
        raise CheckFailed("'+' did not zoom in: %d ns shown before, %d after" % (wheeled, keyed))
    before = _state(page)["from"]
    page.browser.drag(x, y, x + 200, y)
    page.browser.settle()
    after = _state(page)
    if not after["from"] < before or abs((after["to"] - after["from"]) - keyed) > 1:
        raise CheckFailed("a drag to the right did not pan back in time keeping the zoom: "
                          "from %d to %d ns, %d ns shown" % (before, after["from"],
                                                             after["to"] - after["from"]))
    page.browser.click("#timeline-zoom-out")
    page.browser.settle()
    if not _span(page) > keyed:
        raise CheckFailed("the zoom-out button did not zoom out")
    page.browser.click("#timeline-reset")
    page.browser.settle()
    if abs(_span(page) - whole) > 1:
        raise CheckFailed("'Whole run' shows %d ns, the whole run is %d" % (_span(page), whole))
    return "whole %d ns; wheel %d ns; '+' %d ns; drag panned; whole run again" % (
        whole, wheeled, keyed)


def check_run_on_timeline(page):
    """A click on a slowest run in a provider's statistics shows it on the timeline, selected
    and in view."""
    page.browser.click("#hot-providers li:first-child a[data-provider]")
    page.browser.settle()
    target = page.js("""(() => { const a = document.querySelector('#slowest-runs a[data-n]');
        return a && {t: Number(a.dataset.thread), n: Number(a.dataset.n)}; })()""")
    if target is None:
        raise CheckFailed("no run to click in #slowest-runs")
    page.browser.click("#slowest-runs a[data-n]")
    page.browser.settle()
    state = _state(page)
    start = page.call("(t, n) => window.qprof.start(t, n)", target["t"], target["n"])
    if state["selected"] != target:
        raise CheckFailed("the timeline selects %s, the run clicked is %s"
                          % (state["selected"], target))
    if not state["from"] <= start <= state["to"]:
        raise CheckFailed("the run starts at %d ns, the timeline shows %d-%d ns"
                          % (start, state["from"], state["to"]))
    page.selected_run = target
    return "node %d of thread %d selected, %d-%d ns shown" % (
        target["n"], target["t"], state["from"], state["to"])


def _click_slice(page, t, n):
    """Clicks the middle of the visible part of node n's slice; returns what the tree, the
    details and the timeline then select, and the node's depth."""
    node = page.call("""(t, n) => {
        const T = qp.threads[t]; // the viewer's decoded columns
        let depth = 0;
        for (let a = n - 1, m = n; a >= 0; a--) if (a + T.size[a] > m) { depth++; m = a; }
        return {depth, start: window.qprof.start(t, n), dur: T.dur[n]};
    }""", t, n)
    box = _canvas_box(page)
    state = _state(page)
    left = max(page.call("(ns) => window.qprof.timelineX(ns)", node["start"]), 0)
    right = min(page.call("(ns) => window.qprof.timelineX(ns)", node["start"] + node["dur"]),
                box["width"])
    y = _row_y(state, t, node["depth"])
    if y >= state["height"] or right - left < 1:
        raise CheckFailed("the slice of node %d is not in the canvas's view (x %d-%d, y %d)"
                          % (n, left, right, y))
    page.browser.click_at(box["left"] + (left + right) / 2, box["top"] + y)
    page.browser.settle()
    found = page.call("""(t, n) => {
        const el = document.querySelector('#tree-' + t + ' .node[data-n="' + n + '"]');
        const path = document.querySelector('#details [data-field=path]');
        return {selected: !!el && el.classList.contains('selected'),
                shown: !!el && !el.closest('[hidden]'), path: path ? path.textContent : null,
                timeline: window.qprof.timeline().selected};
    }""", t, n)
    if not (found["selected"] and found["shown"]):
        raise CheckFailed("after a click on node %d's slice the tree has it %s" % (
            n, "in a hidden tree" if found["selected"] else "not selected"))
    if found["timeline"] != {"t": t, "n": n}:
        raise CheckFailed("the timeline selects %s after a click on node %d"
                          % (found["timeline"], n))
    if node["depth"] > 0 and (not found["path"] or "Path from the root" not in found["path"]):
        raise CheckFailed("the details of node %d give no path: %r" % (n, found["path"]))
    return "node %d (depth %d): %s" % (n, node["depth"], (found["path"] or "a root")[:50])


def check_slice_click(page):
    """A click on a slice selects that node in the tree, with its path from the root: the
    parent of the run shown, then the run itself."""
    target = getattr(page, "selected_run", None)
    if target is None:
        raise CheckFailed("no run was shown on the timeline before")
    parent = page.call("""(t, n) => { const T = qp.threads[t]; for (let a = n - 1; a >= 0; a--)
        if (a + T.size[a] > n) return a; return -1; }""", target["t"], target["n"])
    said = []
    for n in ([parent] if parent >= 0 else []) + [target["n"]]:
        said.append(_click_slice(page, target["t"], n))
    return "; ".join(said) + ", in #tree-%d" % target["t"]


def check_keyboard_selection(page):
    """On the focused timeline, ArrowUp selects the parent of the selected slice, ArrowDown
    its first child, ] the next slice of that row; the tree follows each step."""
    start = _state(page)["selected"]
    if start is None:
        raise CheckFailed("nothing is selected on the timeline to move from")
    page.js("document.getElementById('timeline-view').focus()")  # as Tab would
    shape = page.call("""(t) => { const T = qp.threads[t]; const depth = [], parent = [], stack = [];
        for (let n = 0; n < T.size.length; n++) {
            while (stack.length && stack[stack.length - 1] + T.size[stack[stack.length - 1]] <= n) stack.pop();
            depth.push(stack.length); parent.push(stack.length ? stack[stack.length - 1] : -1);
            stack.push(n);
        }
        return {depth, parent}; }""", start["t"])
    steps = []
    for key in ("ArrowUp", "ArrowDown", "]", "ArrowUp"):  # the run may have no timed child
        before = _state(page)["selected"]
        page.browser.press(key)
        page.browser.settle()
        after = _state(page)["selected"]
        tree = page.call("""(t) => { const el = document.querySelector('#tree-' + t +
            ' .node.selected'); return el ? Number(el.dataset.n) : null; }""", after["t"])
        b, a = before["n"], after["n"]
        wanted = {"ArrowDown": shape["parent"][a] == b,
                  "]": a > b and shape["depth"][a] == shape["depth"][b],
                  "ArrowUp": shape["parent"][b] == a}[key]
        if not wanted:
            raise CheckFailed("%s moved the selection from node %d (depth %d) to node %d "
                              "(depth %d)" % (key, b, shape["depth"][b], a, shape["depth"][a]))
        if tree != a:
            raise CheckFailed("after %s the timeline selects node %d, the tree node %s"
                              % (key, a, tree))
        steps.append("%s %d->%d" % (key, b, a))
    return "; ".join(steps) + "; the tree followed"


def check_search_dims(page):
    """While a search is on, the timeline dims the slices it does not match and draws the
    matches as they are; cleared, nothing is dimmed."""
    query = page.js("document.getElementById('search').value")
    if not query:
        raise CheckFailed("no search is on (the search check runs first)")
    page.browser.click("#timeline-reset")
    page.browser.settle()
    on = _state(page)
    if not 0 < on["lit"] < on["drawn"]:
        raise CheckFailed("searching %r, %d of the %d slices drawn are lit: the search should "
                          "light some and dim the rest" % (query, on["lit"], on["drawn"]))
    page.browser.click("#search")
    page.browser.press("Escape")
    page.browser.settle()
    off = _state(page)
    if off["lit"] != off["drawn"]:
        raise CheckFailed("after Escape cleared the search, %d of %d slices are still dimmed"
                          % (off["drawn"] - off["lit"], off["drawn"]))
    return "%r: %d of %d slices lit; cleared: all %d lit" % (query, on["lit"], on["drawn"],
                                                            off["drawn"])


def _table(page):
    return page.js("""[...document.querySelectorAll('#provider-table tbody tr')]
        .filter(r => !r.hidden).map(r => [r.dataset.provider,
            [...r.cells].slice(1, 9).map(c => c.dataset.value).join(',')])""")


def check_range_filters_stats(page):
    """Shift+drag over a part of the timeline limits the provider table to that time range,
    says so, agrees with the range's own statistics, and Clear range restores the table."""
    page.browser.click("#timeline-reset")
    whole = _table(page)
    box = _canvas_box(page)
    state = _show_row(page, 0, 0)
    x0, x1 = box["left"] + box["width"] * 0.2, box["left"] + box["width"] * 0.45
    y = box["top"] + _row_y(state, 0, 0)
    page.browser.drag(x0, y, x1, y, modifiers=SHIFT)
    page.browser.settle()
    note = page.js("""(() => { const n = document.getElementById('range-note');
        return n && !n.hidden ? n.textContent : null; })()""")
    if not note or "within" not in note:
        raise CheckFailed("after a Shift+drag the table says nothing of a range: %r" % note)
    limited = _table(page)
    if limited == whole:
        raise CheckFailed("the provider table did not change for the range")
    expected = page.js("""(() => { const r = window.qprof.range();
        return window.qprof.statsOfRange(r.from, r.to)
            .map((s, p) => s && [String(p), s.runs]).filter(Boolean); })()""")
    shown = {p: int(values.split(",")[0]) for p, values in limited}
    wanted = dict(expected)
    if shown != wanted:
        raise CheckFailed("the table's runs in the range %s differ from the range's own "
                          "statistics %s" % (sorted(shown.items())[:5], sorted(wanted.items())[:5]))
    names = page.js("JSON.parse(document.getElementById('qprof-trace').textContent)"
                    ".threads.map(t => t.name)")
    missing = [name for name in names[:6] if name + " " not in note]
    if "% work" not in note or missing:
        raise CheckFailed("the range note does not give each thread's work: %r" % note)
    page.browser.click("#range-note .range-clear")
    page.browser.settle()
    if _table(page) != whole:
        raise CheckFailed("Clear range did not restore the table")
    return "%r; %d of %d providers in the range; cleared" % (note[:90], len(limited), len(whole))


def check_whole_run_stats(page):
    """The range statistics of the whole run are the payload's (C++) statistics: the two
    implementations of one rule agree, to the nanosecond. Both sum the nodes' durations as
    the page carries them (the trace's totals, summed in clock ticks, may differ by rounding:
    the C++ side does not use them)."""
    problems = page.js("""(() => {
        const p = JSON.parse(document.getElementById('qprof-trace').textContent);
        const mine = window.qprof.statsOfRange(0, Infinity), out = [];
        const exact = ['runs', 'hits', 'waits', 'mean_ns', 'median_ns', 'max_ns', 'histogram',
                       'slowest', 'keys', 'callers', 'callees', 'total_ns', 'self_ns', 'wait_ns',
                       'work_ns'];
        for (const s of p.stats) {
            const m = mine[s.provider];
            const name = p.providers[s.provider].name;
            if (!m) { if (s.runs + s.hits + s.waits > 0) out.push(name + ': none in range'); continue; }
            for (const k of exact) {
                if (JSON.stringify(m[k]) !== JSON.stringify(s[k])) {
                    out.push(name + '.' + k + ': ' + JSON.stringify(m[k]).slice(0, 80) + ' vs ' + JSON.stringify(s[k]).slice(0, 80));
                }
            }
        }
        return {problems: out.slice(0, 8), count: out.length, providers: p.stats.length};
    })()""")
    if problems["count"]:
        raise CheckFailed("%d differences, e.g. %s" % (problems["count"], problems["problems"]))
    return "%d providers agree" % problems["providers"]


def check_busy_whole_run(page):
    """Over the whole run, each thread's work and waiting add up to its top-level nodes'
    time, and the waits of all threads to the payload's wait time, exactly (toyc nests no
    wait inside another)."""
    found = page.js("""(() => {
        const p = JSON.parse(document.getElementById('qprof-trace').textContent);
        const busy = window.qprof.busyOfRange(0, Infinity), out = [];
        let waits = 0;
        qp.threads.forEach((T, t) => {
            let roots = 0;
            for (let n = 0; n < T.size.length; n += T.size[n]) roots += T.dur[n];
            waits += busy[t].wait;
            if (busy[t].work + busy[t].wait !== roots) {
                out.push(T.name + ': work ' + busy[t].work + ' + wait ' + busy[t].wait + ' != ' + roots);
            }
        });
        const payloadWaits = p.stats.reduce((sum, s) => sum + s.wait_ns, 0);
        return {out, waits, payloadWaits};
    })()""")
    if found["out"]:
        raise CheckFailed("; ".join(found["out"]))
    if found["waits"] != found["payloadWaits"]:
        raise CheckFailed("the threads wait %d ns, the payload's statistics %d ns"
                          % (found["waits"], found["payloadWaits"]))
    return "work + waiting = top-level time on every thread; waits %d ns (payload %d ns)" % (
        found["waits"], found["payloadWaits"])


def screenshot_timeline(page, directory, name):
    """The timeline zoomed on the codegen workers' start, with a slice of a worker hovered."""
    if not directory:
        return "no --screenshots directory"
    box = _canvas_box(page)
    page.browser.click("#timeline-reset")
    for _ in range(2):
        page.browser.wheel(box["left"] + box["width"] * 0.62, box["top"] + 40, 0, -300)
    page.browser.settle()
    track = _state(page)["tracks"][min(1, len(_state(page)["tracks"]) - 1)]
    state = _show_row(page, track["thread"], 1)
    # The middle of the widest slice of that track's second row, in canvas pixels.
    x = page.call("""(t) => {
        const T = qp.threads[t]; // the viewer's decoded columns
        const s = window.qprof.timeline();
        let best = null;
        const stack = [];
        for (let n = 0; n < T.size.length; n++) {
            while (stack.length && stack[stack.length - 1] + T.size[stack[stack.length - 1]] <= n) stack.pop();
            const depth = stack.length;
            stack.push(n);
            if (depth !== 1) continue;
            const a = Math.max(window.qprof.timelineX(window.qprof.start(t, n)), 0);
            const b = Math.min(window.qprof.timelineX(window.qprof.start(t, n) + T.dur[n]), s.width);
            if (b - a > (best ? best.w : 20)) best = {x: (a + b) / 2, w: b - a};
        }
        return best && best.x;
    }""", track["thread"])
    if x is None:
        x = box["width"] * 0.62
    page.browser.move_to(box["left"] + x, box["top"] + _row_y(state, track["thread"], 1))
    page.browser.settle()
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    page.browser.screenshot(path)
    page.browser.click("#timeline-reset")
    return path


def _search_state(page):
    return page.js("""(() => {
        const sel = window.qprof.timeline().selected;
        return {status: document.getElementById('search-status').textContent,
                selected: sel, dur: sel ? qp.threads[sel.t].dur[sel.n] : null};
    })()""")


def check_search_slowest_first(page):
    """A search walks its matches slowest first ("match i of n"), and every match stays
    visible on the timeline at the whole run's zoom, however narrow: a marker where a slice
    is too thin to see or hidden in a merged pixel column."""
    name = page.js("""(() => {
        const stats = JSON.parse(document.getElementById('qprof-trace').textContent).stats;
        const names = qp.providers.map(p => p.name.toLowerCase());
        let best = null;
        for (const s of stats) {
            const name = names[s.provider];
            if (names.some((other, i) => i !== s.provider && other.includes(name))) continue;
            if (!best || s.runs > best.runs) best = s;
        }
        return best && qp.providers[best.provider].name;
    })()""")
    if not name:
        raise CheckFailed("no provider whose name is in no other's to search for")
    page.browser.click("#search")
    page.call("""(text) => { const s = document.getElementById('search'); s.value = text; }""",
              name)
    page.browser.press("Enter")
    page.browser.settle()
    first = _search_state(page)
    longest = page.call("""(text) => {
        const stats = JSON.parse(document.getElementById('qprof-trace').textContent).stats;
        const p = qp.providers.findIndex(x => x.name === text);
        return stats[p].max_ns;
    }""", name)
    if "match 1 of" not in first["status"]:
        raise CheckFailed("searching %r, the status reads %r, not 'match 1 of N'"
                          % (name, first["status"]))
    if first["dur"] != longest:
        raise CheckFailed("searching %r, the first match shown takes %s ns; its longest run "
                          "%s ns: not slowest first" % (name, first["dur"], longest))
    page.browser.press("Enter")
    page.browser.settle()
    second = _search_state(page)
    if "match 2 of" not in second["status"] or second["dur"] > first["dur"]:
        raise CheckFailed("Enter went to %r (%s ns) after the slowest (%s ns)"
                          % (second["status"], second["dur"], first["dur"]))
    # Back past the first: the last match, the shortest (past the ranked first 256, the rest
    # is ranked when the walk gets there).
    page.browser.press("Enter", modifiers=SHIFT)
    page.browser.press("Enter", modifiers=SHIFT)
    page.browser.settle()
    last = _search_state(page)
    total = int(re.search(r"of ([\d,]+),", first["status"]).group(1).replace(",", ""))
    if "match %s of" % format(total, ",") not in last["status"] or last["dur"] > second["dur"]:
        raise CheckFailed("Shift+Enter twice from match 2 went to %r (%s ns), not the last and "
                          "shortest match" % (last["status"], last["dur"]))
    page.browser.click("#timeline-reset")
    page.browser.settle()
    # The thinnest match in the rows shown at this zoom: its pixel is the match colour.
    seen = page.js("""(() => {
        const st = window.qprof.timeline(), c = document.getElementById('timeline-canvas');
        const k = c.width / c.clientWidth;
        let thin = null;
        st.tracks.forEach((track, t) => {
            const T = qp.threads[t];
            for (let n = 0; n < T.len; n++) {
                if (!qp.isMatch(T, n) || T.depth[n] >= track.rows) continue;
                const y = track.y - st.scroll + st.head + (T.depth[n] + 0.5) * st.row;
                if (y < st.axis || y > st.height) continue;
                if (!thin || T.dur[n] < qp.threads[thin.t].dur[thin.n]) thin = {t, n, y};
            }
        });
        if (!thin) return {none: true, marks: st.marks};
        const T = qp.threads[thin.t];
        const x = Math.floor(window.qprof.timelineX(T.start[thin.n]));
        // Read through a canvas of its own: a second readback of the timeline's canvas makes
        // Chromium warn on the console (check_tracks takes the one it may).
        const one = document.createElement('canvas');
        one.width = one.height = 1;
        one.getContext('2d').drawImage(c, Math.round(x * k), Math.round(thin.y * k), 1, 1, 0, 0, 1, 1);
        const px = one.getContext('2d').getImageData(0, 0, 1, 1).data;
        const hex = getComputedStyle(document.documentElement).getPropertyValue('--match').trim();
        const want = [1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16));
        return {n: thin.n, t: thin.t, width: T.dur[thin.n] * st.width / (st.to - st.from),
                marks: st.marks, px: [...px.slice(0, 3)], want};
    })()""")
    if seen.get("none"):
        raise CheckFailed("no match of %r in the timeline's rows in view" % name)
    else:
        distance = sum(abs(a - b) for a, b in zip(seen["px"], seen["want"]))
        if distance > 60:
            raise CheckFailed("the thinnest match (node %d of thread %d, %.4f px wide) shows "
                              "rgb%s on the timeline, not the match colour rgb%s" % (
                                  seen["n"], seen["t"], seen["width"], tuple(seen["px"]),
                                  tuple(seen["want"])))
        detail = "the thinnest match (%.4f px) is drawn in the match colour" % seen["width"]
    if seen["marks"] == 0:
        raise CheckFailed("no match is marked at the whole run's zoom")
    page.browser.click("#search")
    page.browser.press("Escape")
    page.browser.settle()
    return "%r: %s; then %s; back to %s; %d markers; %s" % (
        name, first["status"], second["status"], last["status"], seen["marks"], detail)


def check_counter_graphs(page):
    """Each thread that recorded a counter (toyc's codegen workers: "cached symbols") has a
    graph of it under its track: filled from its first value on and empty before it, and the
    tooltip at its end gives the last value of the thread's series in the payload."""
    page.browser.click("#timeline-reset")
    page.browser.settle()
    box = _canvas_box(page)
    payload = page.js("""(() => { const p = JSON.parse(document.getElementById('qprof-trace')
        .textContent); return {names: p.counters || [], threads: p.threads.map(t =>
        (t.counters || []).map(c => ({counter: c.counter, time: c.time, value: c.value})))}; })()""")
    tracks = [tr for tr in _state(page)["tracks"] if tr["graphs"] > 0]
    if not tracks:
        raise CheckFailed("no track has a counter graph; toyc records 'cached symbols' on each "
                          "codegen worker")
    said = []
    for track in tracks:
        series = payload["threads"][track["thread"]]
        if track["graphs"] != len(series):
            raise CheckFailed("the track of %r draws %d graphs for %d counters"
                              % (track["name"], track["graphs"], len(series)))
        page.js("document.getElementById('timeline-view').scrollTop = %d"
                % max(0, track["graphY"] - 120))
        page.browser.settle()
        state = _state(page)
        graph = next(tr for tr in state["tracks"] if tr["thread"] == track["thread"])
        y = graph["graphY"] - state["scroll"]  # canvas pixels
        first_x = page.call("(ns) => window.qprof.timelineX(ns)", series[0]["time"][0])
        inked = page.call("""(y, from) => {
            const c = document.getElementById('timeline-canvas');
            const k = c.width / c.clientWidth;
            const row = Math.round(y * k);
            // Read through a copy: the page's own canvas is read back once, by check_tracks
            // (more readbacks of it make Chromium warn on the console).
            const copy = document.createElement('canvas');
            copy.width = c.width;
            copy.height = 1;
            const ctx = copy.getContext('2d', {willReadFrequently: true});
            ctx.drawImage(c, 0, row, c.width, 1, 0, 0, c.width, 1);
            const data = ctx.getImageData(0, 0, c.width, 1).data;
            // Left of the first value, past the tick line of time 0: the graph's background.
            const panel = data.slice(4 * 3, 4 * 3 + 3);
            let before = 0, after = 0;
            const start = Math.round(from * k);
            for (let x = 0; x < c.width; x++) {
                const i = 4 * x;
                const ink = Math.abs(data[i] - panel[0]) + Math.abs(data[i + 1] - panel[1]) +
                    Math.abs(data[i + 2] - panel[2]) > 30;
                if (x < start - 2) before += ink; else if (x > start + 2) after += ink;
            }
            return {before: before / Math.max(1, start - 2), after: after / Math.max(1, c.width - start - 3)};
        }""", y + graph["graph"] - 4, first_x)
        if first_x < 10 or inked["after"] < 0.9 or inked["before"] > 0.05:
            raise CheckFailed("the graph of %r is inked over %.0f %% of its width after its "
                              "first value (x %.0f) and %.0f %% before it"
                              % (track["name"], 100 * inked["after"], first_x,
                                 100 * inked["before"]))
        page.browser.move_to(box["left"] + state["width"] - 3, box["top"] + y + graph["graph"] - 6)
        page.browser.settle()
        tip = page.js("(() => { const t = document.getElementById('timeline-tip');"
                      " return t.hidden ? '' : t.textContent; })()")
        name = payload["names"][series[0]["counter"]]
        last = "{:,}".format(series[0]["value"][-1])
        if name not in tip or "Value" + last not in tip:
            raise CheckFailed("the tooltip at the end of %r's graph says %r, not %s = %s"
                              % (track["name"], tip, name, last))
        said.append("%s: %s up to %s" % (track["name"], name, last))
    page.browser.move_to(box["left"] - 5, box["top"] - 5)
    return "; ".join(said)
