"""The checks of the page as an analysis tool, run by html_report_test.py on toyc's page:
the first screen says where the time went, a provider's statistics lead to its slowest run,
whose duration is the one the Chrome trace of the same run has, and that run is revealed in
the tree with its path. Screenshots of each view go to --screenshots (README's images).

Each check returns a detail string or raises CheckFailed (harness.py).
"""

import json
import os
import re
import time
import urllib.parse

from harness import CheckFailed

MS_RE = re.compile(r"^[\d,]+\.\d ms$")


def _first_row(page, list_id):
    """The first row of a "where the time went" list: name, provider index, time text and
    whether all of it is inside the viewport."""
    return page.call("""(id) => {
        const li = document.querySelector('#' + id + ' li');
        if (!li) return null;
        const a = li.querySelector('a[data-provider]'), time = li.querySelector('.time');
        const r = li.getBoundingClientRect();
        return {name: a?.textContent, provider: Number(a?.dataset.provider),
                time: time?.textContent, onScreen: r.top >= 0 && r.bottom <= innerHeight &&
                r.left >= 0 && r.right <= innerWidth && r.width > 0};
    }""", list_id)


def _payload_best(page, key, activity):
    """The provider (pass when `activity`) with the largest stats[key], from the payload."""
    return page.call("""(key, activity) => {
        const p = JSON.parse(document.getElementById('qprof-trace').textContent);
        let best = null;
        for (const s of p.stats) {
            if (p.providers[s.provider].activity !== activity) continue;
            if (best === null || s[key] > best[key]) best = s;
        }
        return best && {name: p.providers[best.provider].name, ns: best[key]};
    }""", key, activity)


def check_first_screen(page):
    """At load, without scrolling: the most expensive pass and the provider with the most
    self time, each with a time in ms."""
    page.js("window.scrollTo(0, 0)")
    said = []
    for list_id, key, activity, what in (("hot-passes", "work_ns", True, "pass"),
                                         ("hot-providers", "self_ns", False, "provider")):
        row = _first_row(page, list_id)
        best = _payload_best(page, key, activity)
        if row is None or best is None:
            raise CheckFailed("no #%s list, or no %s in the payload's stats" % (list_id, what))
        if row["name"] != best["name"]:
            raise CheckFailed("#%s names %r first, the payload's costliest %s is %r"
                              % (list_id, row["name"], what, best["name"]))
        if not MS_RE.match(row["time"] or ""):
            raise CheckFailed("#%s gives %r for %r: not a time in ms" % (list_id, row["time"],
                                                                        row["name"]))
        if not row["onScreen"]:
            raise CheckFailed("#%s's first row (%r) is not on the first screen" % (list_id,
                                                                                  row["name"]))
        said.append("%s %s %s" % (what, row["name"], row["time"]))
    return "; ".join(said)


def chrome_max_duration_ns(chrome_path, name):
    """The longest complete event named `name` in a Chrome trace, in ns (the trace has µs
    with 3 decimals)."""
    with open(chrome_path, encoding="utf-8") as source:
        events = json.load(source)["traceEvents"]
    durations = [e["dur"] for e in events if e.get("ph") == "X" and e.get("name") == name]
    if not durations:
        raise CheckFailed("%s has no complete event named %r" % (chrome_path, name))
    return round(max(durations) * 1000)


def check_slowest_run(page, chrome_path):
    """A click on the provider with the most self time lists its slowest run first, as long
    as the longest event of that provider in the Chrome trace of the same run."""
    row = _first_row(page, "hot-providers")
    if row is None:
        raise CheckFailed("no #hot-providers list")
    page.browser.click("#hot-providers li:first-child a[data-provider]")
    page.browser.settle()
    runs = page.js("""[...document.querySelectorAll('#details #slowest-runs a[data-ns]')]
        .map(a => ({ns: Number(a.dataset.ns), text: a.textContent}))""")
    shown = page.js("document.querySelector('#details [data-field=provider]')?.textContent")
    if shown != row["name"]:
        raise CheckFailed("clicking %r shows the statistics of %r" % (row["name"], shown))
    if not runs:
        raise CheckFailed("the statistics of %r list no slowest run" % row["name"])
    if any(r["ns"] > runs[0]["ns"] for r in runs):
        raise CheckFailed("the first of the slowest runs is not the longest: %s" % runs)
    expected = chrome_max_duration_ns(chrome_path, row["name"])
    if abs(runs[0]["ns"] - expected) > 2:  # the trace may end an event 1-2 ns early
        raise CheckFailed("the slowest run of %r takes %d ns here, %d ns in the Chrome trace"
                          % (row["name"], runs[0]["ns"], expected))
    return "%r: %d runs listed, the first %s (%d ns, as in the Chrome trace)" % (
        row["name"], len(runs), runs[0]["text"], expected)


def check_run_revealed(page):
    """A click on the slowest run shows it in the tree, selected, with its path."""
    target = page.js("""(() => { const a = document.querySelector('#slowest-runs a[data-n]');
        return a && {t: a.dataset.thread, n: a.dataset.n}; })()""")
    if target is None:
        raise CheckFailed("no run to click in #slowest-runs")
    page.browser.click("#slowest-runs a[data-n]")
    deadline = time.monotonic() + 10
    while True:
        page.browser.settle()
        found = page.call("""(t, n) => {
            const el = document.querySelector('#tree-' + t + ' .node[data-n="' + n + '"]');
            const path = document.querySelector('#details [data-field=path]');
            return {drawn: !!el, selected: !!el && el.classList.contains('selected'),
                    shown: !!el && !el.closest('[hidden]'), path: path?.textContent ?? null};
        }""", target["t"], target["n"])
        if found["selected"] or time.monotonic() > deadline:
            break
    if not (found["drawn"] and found["selected"] and found["shown"]):
        raise CheckFailed("after the click, node %s of thread %s is %s" % (
            target["n"], target["t"], "not drawn" if not found["drawn"] else
            "not selected" if not found["selected"] else "in a hidden tree"))
    if not found["path"] or "Path from the root" not in found["path"]:
        raise CheckFailed("the details of the revealed run give no path: %r" % found["path"])
    return "node %s of thread %s selected; %s" % (target["n"], target["t"], found["path"][:80])


def screenshot(page, directory, name):
    if not directory:
        return "no --screenshots directory"
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    page.browser.settle()
    page.browser.screenshot(path)
    return path


def _root_durations(page):
    """The drawn top-level nodes of the shown tree: (n, work, wait) in page order; work is the
    duration less the waits inside, and a wait (blocked) has none."""
    return page.js("""(() => {
        const tree = [...document.querySelectorAll('#trees .tree')].find(t => !t.hidden);
        const T = qp.threads[Number(tree.dataset.thread)];
        return [...tree.children].filter(e => e.classList.contains('node'))
            .map(e => Number(e.dataset.n))
            .map(n => [n, qp.workOf(T, n), qp.isWait(T, n)]);
    })()""")


def _choose_order(page, value):
    page.call("""(v) => { const s = document.getElementById('order-select'); s.value = v;
        s.dispatchEvent(new Event('change', {bubbles: true})); }""", value)
    page.browser.settle()


def _heaviest_first(nodes):
    """Whether (n, work, wait) nodes are heaviest first: work before waits, most work first."""
    return all((a[2], -a[1]) <= (b[2], -b[1]) for a, b in zip(nodes, nodes[1:]))


def check_order_switch(page):
    """Heaviest first (by work, waits after all work) on load; "call order" redraws the trees
    in call order, and back."""
    heaviest = _root_durations(page)
    if len(heaviest) < 2:
        raise CheckFailed("fewer than 2 top-level nodes drawn: %s" % heaviest)
    if not _heaviest_first(heaviest):
        raise CheckFailed("on load the top-level nodes are not heaviest first by work: %s"
                          % heaviest)
    _choose_order(page, "call")
    call = _root_durations(page)
    if [n for n, _, _ in call] != sorted(n for n, _, _ in call):
        raise CheckFailed("in call order the top-level nodes are not in call order: %s" % call)
    _choose_order(page, "heaviest")
    again = _root_durations(page)
    if [n for n, _, _ in again] != [n for n, _, _ in heaviest]:
        raise CheckFailed("back to heaviest first, the top-level nodes are %s, not %s"
                          % (again, heaviest))
    return "heaviest first %s, call order %s" % ([n for n, _, _ in heaviest][:5],
                                                 [n for n, _, _ in call][:5])


def check_wait_after_work(page):
    """In the pass that waits for its workers (toyc's code generation), heaviest first puts
    the work before the wait, which is labelled as waiting and has no share of busy time."""
    found = page.js("""(() => {
        const T = qp.threads[0];
        let wait = -1;
        for (let n = 0; n < T.len; n++) if (qp.isWait(T, n) && T.parent[n] >= 0) { wait = n; break; }
        if (wait < 0) return null;
        const el = qp.ensurePath(0, wait);
        const siblings = el ? [...el.parentElement.children].filter(e => e.matches('.node, .fold')) : [];
        return {label: qp.labelOf(T, wait), at: siblings.indexOf(el), count: siblings.length,
                before: siblings.slice(0, Math.max(0, siblings.indexOf(el))).map(e =>
                    e.classList.contains('fold') ? 'fold' : e.className.split(' ')[1]),
                share: qp.shareText(T, wait)};
    })()""")
    if found is None:
        raise CheckFailed("thread 0 has no wait inside a pass (toyc waits for its workers)")
    if found["at"] < 0:
        raise CheckFailed("the wait is not drawn among its siblings: %s" % found)
    if found["at"] != found["count"] - 1 and found["count"] > 1:
        raise CheckFailed("the wait is drawn at %d of %d siblings: waits go after all work"
                          % (found["at"], found["count"]))
    if found["share"] != "waiting" or (found["label"] and not found["label"].endswith("waiting")):
        raise CheckFailed("the wait's share reads %r and its label %r: a wait is not work"
                          % (found["share"], found["label"]))
    return "the wait comes last of %d siblings, after %s; label %r" % (
        found["count"], found["before"][:4], found["label"])


def check_callers_callees(page):
    """The top provider's statistics name its callers and callees, merged over the run; a
    click on a caller opens that provider's statistics."""
    page.browser.click("#hot-providers li:first-child a[data-provider]")
    page.browser.settle()
    found = page.js("""(() => {
        const names = (id) => [...document.querySelectorAll('#details #' + id + ' a')]
            .map(a => a.textContent);
        return {callers: names('callers'), callees: names('callees')};
    })()""")
    if not found["callers"]:
        raise CheckFailed("the top provider's statistics list no caller: %s" % found)
    page.browser.click("#details #callers a[data-provider]")
    page.browser.settle()
    shown = page.js("document.querySelector('#details [data-field=provider]')?.textContent")
    if shown != found["callers"][0]:
        raise CheckFailed("clicking the caller %r shows %r" % (found["callers"][0], shown))
    return "called by %s; calls %s" % (found["callers"][:3], found["callees"][:3])


def check_provider_anchor(page):
    """profile_queries.html#provider=NAME, as the flame graph links, opens NAME's statistics;
    #pass=NAME those of the pass NAME."""
    said = []
    for anchor, list_id, heading in (("provider", "hot-providers", "Provider "),
                                      ("pass", "hot-passes", "Pass ")):
        name = page.js("document.querySelector('#%s li:nth-child(2) a')?.textContent" % list_id)
        if not name:
            raise CheckFailed("no second entry in #%s" % list_id)
        page.call("(h) => { window.location.hash = h; }",
                  "%s=%s" % (anchor, urllib.parse.quote(name)))
        deadline = time.monotonic() + 5
        shown = None
        while time.monotonic() < deadline and shown != [heading + name, name]:
            page.browser.settle()
            shown = page.js("""(() => {
                const h = document.querySelector('#details h2');
                const f = document.querySelector('#details [data-field=provider]');
                return h && f ? [h.textContent, f.textContent] : null; })()""")
        if shown != [heading + name, name]:
            raise CheckFailed("#%s=%s shows %r" % (anchor, name, shown))
        said.append("#%s=%s" % (anchor, name))
    return " and ".join(said) + " show their statistics"


def screenshot_statistics(page, directory, name, section):
    """A screenshot of one section of a provider's statistics (`section`: the id of its table
    in #details; callers with the callees below them), scrolled into view: for the most-asked keys, the provider with the most hits
    among those with keys; for callers and callees, the provider with the most self time."""
    if not directory:
        return "no --screenshots directory"
    shown = page.call("""(section) => {
        let p = Number(document.querySelector('#hot-providers li a[data-provider]')?.dataset.provider);
        if (section === 'top-keys') {
            const keyed = qp.stats.map((s, i) => [s ? s.hits : -1, s && s.keys.length > 0, i])
                .filter(([, keys]) => keys).sort((a, b) => b[0] - a[0]);
            if (keyed.length === 0) return null;
            p = keyed[0][2];
        }
        qp.showProvider(p);
        const box = document.getElementById('details');
        const table = box.querySelector('#' + section);
        if (!table) return null;
        // The panel sticks below the controls: bring the trees' top into view, then scroll
        // the panel only as far as the section needs, so that its heading stays in view.
        document.getElementById('trees').scrollIntoView({block: 'start'});
        const last = section === 'callers' ? box.querySelector('#callees') || table : table;
        const below = last.getBoundingClientRect().bottom - box.getBoundingClientRect().bottom;
        if (below > 0) box.scrollTop += below + 12;
        return qp.providers[p].name;
    }""", section)
    if shown is None:
        return "no #%s to show (keys recorded only with -Z profile-queries-and-keys)" % section
    return "%s: %s" % (shown, screenshot(page, directory, name))
