#!/usr/bin/env python3
"""The html reporter's page, checked in a real browser (headless Chromium).

Runs toyc at its default size with -Z profile-queries, opens the profile_queries.html it
writes, and checks the contract of docs/html-report.md as a user would meet it: the page
becomes interactive, the C++-written initial view agrees with the viewer's rules, folds
open on a click and with the keyboard, details, thread switching, table sorting and search
work, and nothing is ever reported on the console.

Each check prints "ok - ..." or "FAIL - ... reason"; the exit status is 1 when any failed.
Without Chromium it exits 77 (Meson's "skipped"), or 1 when CI=true.

    html_report_test.py --toyc build/examples/toyc --out /tmp/html
    html_report_test.py --page /tmp/some/profile_queries.html --out /tmp/html   # no toyc
"""

import os
import re
import sys
import time

# Imported from the source tree: leave no __pycache__ in it.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analysis_checks  # noqa: E402
import harness  # noqa: E402
import timeline_checks  # noqa: E402
from harness import CheckFailed, Results, check_markup_escaped, check_no_problems  # noqa: E402

LOAD_TIMEOUT_S = 90  # the 1M-query page is tens of MB
LABEL_RE = re.compile(r"^\S.* · \d+(\.\d+)? (ns|µs|ms|s) · ((\d+\.\d|<0\.1) %|waiting)$")
STATUS_RE = re.compile(r"([\d,]+) match(?:es)? in ([\d,]+) threads?")


class Page(harness.Page):
    """The browser, the page and what the checks learn about it on the way."""

    def __init__(self, browser, out_dir):
        super().__init__(browser, out_dir)
        self.first_tree = None  # id of the tree shown on load
        self.opened_fold = None  # (from, to) of the fold opened by a click


# ----- running toyc -----

def run_toyc(toyc, out_dir, extra_args):
    """Runs toyc with the html reporter into out_dir; returns the page's path."""
    os.makedirs(out_dir, exist_ok=True)
    page = os.path.join(out_dir, "profile_queries.html")
    # Stale reports must not pass for new ones, and qprof never overwrites a report: a run
    # finding profile_queries.* would write profile_queries-PID.* beside them.
    for name in os.listdir(out_dir):
        if name.startswith("profile_queries"):
            os.remove(os.path.join(out_dir, name))
    # The Chrome trace of the same run is what the slowest run's duration is checked against.
    command = [toyc, "-Z", "profile-queries=html,chrome", "-Z", "profile-queries-dir=" + out_dir]
    command += extra_args
    started = time.monotonic()
    harness.run_command(command, "toyc")
    seconds = time.monotonic() - started
    if not os.path.exists(page):
        raise CheckFailed("%s did not write %s (is html among the default reporters?)"
                          % (" ".join(command), page))
    size = os.path.getsize(page)
    print("# toyc took %.2f s and wrote %s (%.1f MB)" % (seconds, page, size / 1e6), flush=True)
    return page


# ----- checks on load -----

# How far down the page a kind of node may first appear: heaviest first, the first screen can
# be all one expensive pass whose queries are folded, depending on the times toyc measured.
SCREENS_TO_LOOK = 4


def check_visible_kind(page, kind):
    """Some nodes of `kind` (hit or miss) are visible in the tree shown on load, within its
    first few screens."""
    for screen in range(SCREENS_TO_LOOK):
        found = page.call("(sel) => __qprofTest.visible(sel, 3)", ".node." + kind)
        if "error" in found or found["visible"] > 0 or found["total"] == 0:
            break
        page.js("(() => { const tree = document.querySelector('#trees .tree:not([hidden])');"
                " if (tree) tree.scrollTop += tree.clientHeight;"
                " window.scrollBy(0, innerHeight); })()")
        page.browser.settle()
    page.js("(() => { document.querySelectorAll('#trees .tree').forEach(t => t.scrollTop = 0);"
            " window.scrollTo(0, 0); })()")
    page.browser.settle()
    if "error" in found:
        raise CheckFailed(found["error"])
    page.first_tree = found["tree"]
    if found["total"] == 0:
        raise CheckFailed("no .node.%s element in the shown tree #%s" % (kind, found["tree"]))
    if found["visible"] == 0:
        raise CheckFailed("#%s has %d .node.%s elements but none is on its first %d screens"
                          " (zero size, hidden, or outside the viewport or the tree)"
                          % (found["tree"], found["total"], kind, SCREENS_TO_LOOK))
    return "%d of %d on screen %d of #%s" % (found["visible"], found["total"], screen + 1,
                                             found["tree"])


def check_important_labels(page):
    labels = page.js("[...document.querySelectorAll('#trees .node.important > .label')]"
                     ".map(l => l.textContent)")
    if not labels:
        raise CheckFailed("no '.node.important > .label' element in any tree")
    bad = [text for text in labels if not LABEL_RE.match(text)]
    if bad:
        raise CheckFailed("%d of %d labels do not match %s, e.g. %s" % (
            len(bad), len(labels), LABEL_RE.pattern, ", ".join(repr(t) for t in bad[:3])))
    return "%d labels, e.g. %r" % (len(labels), labels[0])


def check_consistency(page, who="C++-written", state_classes=()):
    """Every .node and .fold agrees with nodeClass/nodeLabel/foldText; state_classes (such
    as 'selected') are what the viewer adds on interaction and are left out."""
    missing = page.js("['nodeClass', 'nodeLabel', 'foldText', 'chipText']"
                      ".filter(f => typeof window.qprof?.[f] !== 'function')")
    if missing:
        raise CheckFailed("cannot compare: window.qprof lacks the function(s) " +
                          ", ".join(missing))
    found = page.call("(classes) => __qprofTest.consistency(8, classes)", state_classes)
    if found["nodes"] == 0:
        raise CheckFailed("the page has no .node element at all")
    if found["problems"]:
        raise CheckFailed("the %s markup disagrees with the viewer's rules; first"
                          " mismatches:\n    " % who + "\n    ".join(found["problems"]))
    return "%d nodes and %d folds agree with nodeClass/nodeLabel/foldText" % (
        found["nodes"], found["folds"])


# ----- checks by interaction -----

def visible_selectors(page, selector, what):
    found = page.call("(sel) => __qprofTest.visible(sel, 50)", selector)
    if "error" in found:
        raise CheckFailed(found["error"])
    if not found["selectors"]:
        raise CheckFailed("no visible %s in #%s (%d in all)" % (what, found["tree"],
                                                                found["total"]))
    return found["selectors"]


def check_fold_click(page):
    fold = visible_selectors(page, ".fold:not([data-provider])", ".fold")[0]
    span = page.call("(s) => { const f = document.querySelector(s);"
                     " return [+f.dataset.from, +f.dataset.to, f.textContent]; }", fold)
    first, end, text = span
    page.browser.click(fold)
    page.browser.settle()
    after = page.call("""(s, from, to) => {
        const tree = document.querySelector(s.split(' ')[0]);
        const nodes = [...tree.querySelectorAll('.node')]
            .filter(e => +e.dataset.n >= from && +e.dataset.n < to);
        return {still: document.querySelector(s) !== null, nodes: nodes.length,
                first: nodes.some(e => +e.dataset.n === from)};
    }""", fold, first, end)
    if after["still"]:
        raise CheckFailed("clicked the fold %s (%r) but it is still there" % (fold, text))
    if after["nodes"] == 0 or not after["first"]:
        raise CheckFailed("the fold [%d, %d) is gone but no .node with data-n=%d (its first"
                          " node) appeared; %d nodes in the range"
                          % (first, end, first, after["nodes"]))
    page.opened_fold = (first, end)
    return "fold [%d, %d) %r became %d nodes" % (first, end, text, after["nodes"])


def check_chip_click(page):
    """A list of siblings with several folds shows one chip per provider instead (no wall of
    chips); a click draws its next page of members, heaviest first, and the chip says what is
    left. Which thread's tree holds a chip depends on toyc's timing, so when the shown tree
    has none, the thread of one that does is chosen first (and the first thread again after)."""
    hidden_thread = page.js("""(() => {
        const chips = [...document.querySelectorAll('#trees .fold[data-provider]')];
        if (chips.some(c => !c.closest('[hidden]')) || !chips.length) return null;
        return chips[0].closest('.tree')?.dataset.thread ?? null;
    })()""")
    first = page.js("document.getElementById('thread-select').value")
    if hidden_thread is not None:
        choose_thread(page, hidden_thread)
    try:
        return chip_click_on_shown_tree(page)
    finally:
        if hidden_thread is not None:
            choose_thread(page, first)


def chip_click_on_shown_tree(page):
    found = page.js("""(() => {
        const chips = [...document.querySelectorAll('#trees .fold[data-provider]')];
        const walls = [...document.querySelectorAll('#trees .node, #trees .tree')].filter(box =>
            [...box.children].filter(c => c.classList.contains('fold')).length > 1 &&
            [...box.children].some(c => c.matches('.fold:not([data-provider])')));
        const shown = chips.filter(c => !c.closest('[hidden]'));
        // The chip with the most work: its members' order matters.
        const work = (c) => qp.chipMembers(qp.threadOf(c), c)
            .reduce((sum, n) => sum + qp.workOf(qp.threads[qp.threadOf(c)], n), 0);
        const chip = shown.length ? shown.reduce((a, b) => work(b) > work(a) ? b : a) : null;
        if (!chip) return {chips: chips.length, walls: walls.length};
        const t = qp.threadOf(chip);
        chip.scrollIntoView({block: 'center', behavior: 'instant'});
        // The page a click should draw, by a full sort: most work first, waits last.
        const T = qp.threads[t], members = qp.chipMembers(t, chip);
        const key = (n) => [qp.isWait(T, n) ? 1 : 0, qp.isWait(T, n) ? -T.dur[n] : -qp.workOf(T, n), n];
        const sorted = members.map(key).sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
        const page = members.length - 250 <= 10 ? members.length : 250;
        window.__chipBefore = members;
        window.__chipExpected = sorted.slice(0, page).map(k => k[2]).sort((a, b) => a - b);
        return {chips: chips.length, walls: walls.length, t, text: chip.textContent,
                members: members.length,
                selector: __qprofTest.selectorOf(chip) + '[data-provider="' + chip.dataset.provider + '"]'};
    })()""")
    if found["walls"]:
        raise CheckFailed("%d lists of siblings hold several folds without merging them into "
                          "chips" % found["walls"])
    if not found.get("selector"):
        raise CheckFailed("toyc's page has no chip (%d in hidden trees): a wide pass's folds "
                          "should merge" % found["chips"])
    page.browser.click(found["selector"])
    page.browser.settle()
    after = page.call("""(selector, t) => {
        const chip = document.querySelector(selector);
        const left = new Set(chip ? qp.chipMembers(t, chip) : []);
        const drawn = window.__chipBefore.filter(n => !left.has(n));
        return {left: left.size, text: chip?.textContent ?? null,
                heaviest: JSON.stringify(drawn) === JSON.stringify(window.__chipExpected)};
    }""", found["selector"], found["t"])
    drawn = found["members"] - after["left"]
    if drawn <= 0 or drawn > 250 + 10:
        raise CheckFailed("clicking the chip %r (%d members) drew %d of them"
                          % (found["text"], found["members"], drawn))
    if not after["heaviest"]:
        raise CheckFailed("clicking the chip %r drew other members than its %d heaviest"
                          % (found["text"], drawn))
    if after["text"] == found["text"]:
        raise CheckFailed("after drawing %d members the chip still reads %r" % (drawn,
                                                                              found["text"]))
    return "%d chips; %r: a click drew %d, then %r" % (found["chips"], found["text"], drawn,
                                                     after["text"])


def check_keyboard(page):
    """ArrowDown moves the selection; Enter (or ArrowRight) on a fold or node opens it."""
    tree = page.first_tree
    page.call("(id) => document.getElementById(id).focus()", tree)

    def state():
        return page.call("(id) => __qprofTest.treeState(id)", tree)

    before = state()
    if not before["focusInside"]:
        raise CheckFailed("#%s did not take the focus (tabindex?)" % tree)
    seen = []
    page.browser.press("ArrowDown")
    moved = state()
    if moved["current"] != before["current"]:
        seen.append("ArrowDown moved the selection from %s to %s"
                    % (before["current"] or "nothing", moved["current"]))
    opened = open_with_keys(page, state, seen)
    if not seen:
        raise CheckFailed("the keyboard did nothing in #%s: ArrowDown, ArrowRight and Enter"
                          " neither moved the selection (.selected, aria-selected or focus,"
                          " still %s) nor opened anything (%d nodes, %d folds)"
                          % (tree, before["current"] or "nothing", opened["nodes"],
                             opened["folds"]))
    return "; ".join(seen)


def open_with_keys(page, state, seen):
    """Walks down with ArrowDown to a fold or a node with children, then opens it with
    Enter (or ArrowRight). Appends what happened to `seen`."""
    now = state()
    for _ in range(500):
        if now["openable"]:
            break
        page.browser.press("ArrowDown")
        now = state()
    for key in ("Enter", "ArrowRight", "Enter"):
        was = now
        page.browser.press(key)
        page.browser.settle()
        now = state()
        if (now["nodes"], now["folds"]) != (was["nodes"], was["folds"]):
            seen.append("%s on %s changed the tree from %d nodes/%d folds to %d/%d"
                        % (key, was["current"], was["nodes"], was["folds"], now["nodes"],
                           now["folds"]))
            break
    return now


def check_details(page):
    # A leaf is best: a click on a box with children may land on one of them.
    candidates = []
    for selector in (".node.miss.extent-0", ".node.miss"):
        found = page.call("(sel) => __qprofTest.visible(sel, 50)", selector)
        candidates += found.get("selectors", [])
    if not candidates:
        raise CheckFailed("no visible .node.miss in the shown tree (%s)"
                          % page.js("__qprofTest.shownTreesText()"))
    target, point = clickable(page, candidates)
    thread, n = page.call("(s) => { const e = document.querySelector(s);"
                          " return [+e.closest('.tree').dataset.thread, +e.dataset.n]; }",
                          target)
    provider = page.call("(t, n) => __qprofTest.providerOf(t, n)", thread, n)
    page.browser.click_at(*point)
    page.browser.settle()
    text = page.js("document.getElementById('details')?.innerText ?? null")
    if text is None:
        raise CheckFailed("there is no #details element")
    missing = [w for w, pattern in (("the provider name %r" % provider, re.escape(provider)),
                                    ("'inclusive' (or 'total')", r"\b(inclusive|total)\b"),
                                    ("'self'", r"\bself\b"))
               if not re.search(pattern, text, re.IGNORECASE)]
    if missing:
        raise CheckFailed("after clicking %s, #details lacks %s; it reads %r"
                          % (target, " and ".join(missing), text[:300]))
    return "%s shows %r" % (target, " ".join(text.split())[:100])


def clickable(page, selectors):
    """The first selector whose element a click reaches itself (not a child node inside it,
    nor another element over it), and the point to click: its centre, or else the middle of
    its top edge (its own border and padding)."""
    for selector in selectors:
        point = page.call("""(s) => {
            const e = document.querySelector(s);
            e.scrollIntoView({block: 'center', behavior: 'instant'});
            const r = e.getBoundingClientRect();
            for (const [x, y] of [[r.left + r.width / 2, r.top + r.height / 2],
                                  [r.left + r.width / 2, r.top + 1.5]]) {
                const top = document.elementFromPoint(x, y);
                if (top !== null && top.closest('.node, .fold') === e) return [x, y];
            }
            return null;
        }""", selector)
        if point:
            return selector, point
    raise CheckFailed("none of %d visible miss nodes can be clicked on itself (its centre and"
                      " top edge are covered by children or other elements)" % len(selectors))


def check_thread_select(page):
    options = page.js("[...document.querySelectorAll('#thread-select option')]"
                      ".map(o => o.value)")
    if not options or len(options) < 2:
        raise CheckFailed("#thread-select has %s options; toyc runs 2 threads"
                          % (len(options) if options else "no"))
    first = page.js("document.getElementById('thread-select').value")
    other = next(value for value in options if value != first)
    how = choose_thread(page, other)
    shown = page.js("__qprofTest.shownTreesText()")
    visible = page.call("(v) => { const t = document.querySelector("
                        "`#trees .tree[data-thread=\"${v}\"]`);"
                        " return t ? !__qprofTest.isHidden(t) : null; }", other)
    first_hidden = page.call("(id) => __qprofTest.isHidden(document.getElementById(id))",
                             page.first_tree)
    if visible is None:
        raise CheckFailed("no .tree with data-thread=%s" % other)
    if not visible or not first_hidden:
        raise CheckFailed("after choosing thread %s (%s): %s" % (other, how, shown))
    choose_thread(page, first)
    back = page.call("(id) => !__qprofTest.isHidden(document.getElementById(id))",
                     page.first_tree)
    if not back:
        raise CheckFailed("choosing thread %s again does not show #%s: %s"
                          % (first, page.first_tree, page.js("__qprofTest.shownTreesText()")))
    return "thread %s shown, #%s hidden, then back (%s)" % (other, page.first_tree, how)


def choose_thread(page, value):
    """Chooses a thread the way a keyboard user does; falls back to setting the value and
    firing 'change' (a native <select> popup cannot be driven headless)."""
    page.call("() => document.getElementById('thread-select').focus()")
    for key in ("ArrowDown", "ArrowUp"):
        for _ in range(64):
            if page.js("document.getElementById('thread-select').value") == value:
                page.browser.settle()
                return "with the keyboard"
            before = page.js("document.getElementById('thread-select').value")
            page.browser.press(key)
            if page.js("document.getElementById('thread-select').value") == before:
                break
    page.call("""(v) => { const s = document.getElementById('thread-select'); s.value = v;
                 s.dispatchEvent(new Event('input', {bubbles: true}));
                 s.dispatchEvent(new Event('change', {bubbles: true})); }""", value)
    page.browser.settle()
    return "by setting the value and firing change"


def check_sorting(page):
    column = page.js("[...document.querySelectorAll('#provider-table thead th')]"
                     ".findIndex(th => th.dataset.sort === 'runs')")
    if column is None or column < 0:
        raise CheckFailed("no <th data-sort=\"runs\"> in #provider-table")
    header = '#provider-table thead th[data-sort="runs"]'

    def values():
        return page.call("(c) => [...document.querySelectorAll('#provider-table tbody tr')]"
                         ".map(r => Number(r.cells[c]?.dataset.value))", column)

    if len(values()) < 2:
        raise CheckFailed("#provider-table has fewer than 2 rows")
    page.browser.click(header)
    page.browser.settle()
    first = values()
    direction = sort_direction(first, "after one click on Runs")
    page.browser.click(header)
    page.browser.settle()
    second = values()
    again = sort_direction(second, "after a second click on Runs")
    if again == direction and first[0] != first[-1]:
        raise CheckFailed("a second click on Runs kept the %s order (%s)"
                          % (direction, second[:6]))
    return "%s, then %s: %s ... %s" % (direction, again, second[:3], second[-3:])


def sort_direction(values, when):
    if any(v != v for v in values):  # NaN: a cell without a numeric data-value
        raise CheckFailed("%s, some Runs cells lack a numeric data-value: %s"
                          % (when, values[:10]))
    if all(a >= b for a, b in zip(values, values[1:])):
        return "descending"
    if all(a <= b for a, b in zip(values, values[1:])):
        return "ascending"
    at = next(i for i in range(1, len(values) - 1)
              if (values[i - 1] - values[i]) * (values[i] - values[i + 1]) < 0)
    raise CheckFailed("%s the Runs column is not sorted: rows %d-%d have %s"
                      % (when, at, at + 2, values[at - 1:at + 2]))


def check_search(page):
    name = rarest_provider(page)
    page.browser.click("#search")
    page.browser.type_text(name)
    page.browser.settle()
    found = wait_for_matches(page)
    status = page.js("document.getElementById('search-status')?.textContent ?? null")
    if status is None:
        raise CheckFailed("there is no #search-status element")
    if not status.strip():
        raise CheckFailed("searching %r left #search-status empty" % name)
    if found["count"] == 0:
        raise CheckFailed("searching %r: no element has the class 'match' (status %r)"
                          % (name, status))
    if found["wrong"]:
        raise CheckFailed("searching %r: .match elements of another provider: %s"
                          % (name, "; ".join(found["wrong"][:5])))
    visible = matches_visible(page, found)
    expected_status(status, name, page)
    return "%r: %d .match elements, %s; status %r" % (name, found["count"], visible, status)


def rarest_provider(page):
    """The provider with the fewest queries above one, from the provider table."""
    # The name comes from the payload by the row's data-provider: the cell's text may
    # carry more than the name (such as an "activity" badge).
    rows = page.js("""(() => {
        const heads = [...document.querySelectorAll('#provider-table thead th')];
        const count = heads.findIndex(th => th.dataset.sort === 'runs');
        const providers = __qprofTest.trace().providers;
        return [...document.querySelectorAll('#provider-table tbody tr')].map(r =>
            [providers[Number(r.dataset.provider)]?.name, Number(r.cells[count]?.dataset.value)]);
    })()""")
    usable = [(count, name) for name, count in rows if name and count > 1]
    if not usable:
        raise CheckFailed("no row of #provider-table has a data-provider naming a provider of"
                          " the payload and a count above 1: %s" % rows[:5])
    return min(usable)[1]


def wait_for_matches(page):
    """Matches may be highlighted after a debounce: polls for up to 30 s (a loaded CI machine
    can be slow to search a million nodes)."""
    deadline = time.monotonic() + 30
    while True:
        found = page.call("""(text) => {
            const t = __qprofTest, wrong = [], matches = [...document.querySelectorAll('.match')];
            for (const e of matches) {
                const tree = e.closest('.tree');
                const has = e.classList.contains('node') && tree
                    ? (t.providerOf(+tree.dataset.thread, +e.dataset.n) || '')
                    : e.textContent;
                if (!has.toLowerCase().includes(text.toLowerCase()))
                    wrong.push(t.describe(e) + ' is ' + JSON.stringify(has.slice(0, 60)));
            }
            const threads = [...new Set(matches.map(e => e.closest('.tree')?.id)
                .filter(Boolean))];
            return {count: matches.length, wrong, threads};
        }""", page.js("document.getElementById('search').value"))
        if found["count"] or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def matches_visible(page, found):
    """Every match in the shown tree has a box; when all are in other threads' trees, the
    first of those is shown and must then show them."""
    count_visible = """() => {
        const tree = __qprofTest.selectedTree();
        const inTree = tree ? [...tree.querySelectorAll('.match')] : [];
        return {tree: tree?.id, all: inTree.length,
                visible: inTree.filter(e => __qprofTest.isVisibleIn(e, tree)).length,
                empty: inTree.filter(e => e.getClientRects().length === 0 ||
                    e.getBoundingClientRect().width === 0).map(__qprofTest.describe)};
    }"""
    shown = page.call(count_visible)
    how = ""
    if shown["all"] == 0 and found["threads"]:
        thread = page.call("(id) => document.getElementById(id).dataset.thread",
                           found["threads"][0])
        how = " after choosing thread %s %s" % (thread, choose_thread(page, thread))
        shown = page.call(count_visible)
    if shown["all"] == 0:
        raise CheckFailed("no .match element inside any tree (only elsewhere)")
    if shown["empty"]:
        raise CheckFailed("%d .match elements in #%s have no box: %s"
                          % (len(shown["empty"]), shown["tree"], shown["empty"][:5]))
    if shown["visible"] == 0:
        raise CheckFailed("none of the %d matches in #%s is inside the tree's visible box"
                          % (shown["all"], shown["tree"]))
    return "%d of them in #%s, all with a box%s" % (shown["all"], shown["tree"], how)


def expected_status(status, name, page):
    """The status says "K matches in T threads", K counting queries of that provider."""
    said = STATUS_RE.search(status)
    if not said:
        raise CheckFailed("#search-status %r does not read 'K matches in T threads'" % status)
    counts = page.call("""(text) => {
        const p = __qprofTest.trace(), low = text.toLowerCase();
        let exact = 0, partial = 0;
        for (const t of p.threads) for (const tag of t.tag) {
            const name = p.providers[tag >>> qp.layout.PROVIDER_SHIFT].name;
            if (name === text) exact++;
            if (name.toLowerCase().includes(low)) partial++;
        }
        return [exact, partial];
    }""", name)
    said_count = int(said.group(1).replace(",", ""))
    if said_count not in counts:
        raise CheckFailed("#search-status says %d matches for %r, the payload has %d queries"
                          " of it (%d whose provider name contains it)"
                          % (said_count, name, counts[0], counts[1]))


def check_final_screenshot(page):
    choose_thread(page, page.js(
        "document.getElementById(%r).dataset.thread" % page.first_tree))
    page.browser.click("#search")  # the spec leaves clearing open: try Escape, then empty it
    page.browser.press("Escape")
    if page.js("document.getElementById('search').value"):
        page.call("() => { const s = document.getElementById('search'); s.value = '';"
                  " s.dispatchEvent(new Event('input', {bubbles: true})); }")
    first, end = page.opened_fold or (None, None)
    if first is not None:
        page.call("(id, n) => document.querySelector(`#${id} .node[data-n=\"${n}\"]`)"
                  "?.scrollIntoView({block: 'center', behavior: 'instant'})",
                  page.first_tree, first)
    page.browser.settle()
    path = os.path.join(page.out_dir, "profile_queries_html.png")
    page.browser.screenshot(path)
    opened = "fold [%d, %d) opened" % (first, end) if first is not None else "no fold opened"
    return "%s, #%s shown, %s" % (path, page.first_tree, opened)


def screenshot_initial(page):
    path = os.path.join(page.out_dir, "profile_queries_html_initial.png")
    page.browser.screenshot(path)
    return path


# ----- driver -----

def check_table_formatting(page):
    """The provider table as C++ wrote it reads as the viewers' common formatting
    (reporters/viewer_common/format.js) writes the same values: its hit rates, total and self
    times. The statistics panel, the range table and the other pages format with it."""
    found = page.js("""(() => {
        const bad = [];
        let checked = 0;
        for (const tr of document.querySelectorAll('#provider-table tbody tr')) {
            const c = tr.cells, value = (k) => Number(c[k].dataset.value);
            const rate = tr.classList.contains('activity') ? '\\u2013'
                : qv.rateText(value(2), value(1) + value(2));
            for (const [k, text] of [[3, rate], [4, qv.durationText(value(4))],
                                     [5, qv.durationText(value(5))]]) {
                checked++;
                if (c[k].textContent !== text) bad.push([c[0].textContent, c[k].textContent, text]);
            }
        }
        return {checked, bad: bad.slice(0, 5)};
    })()""")
    if found["checked"] == 0:
        raise CheckFailed("the provider table has no rows")
    if found["bad"]:
        raise CheckFailed("cells [provider, C++, viewer] that differ: %s" % found["bad"])
    return "%d cells" % found["checked"]


def check_columns_agree_with_stats(page):
    """The decompressed columns agree with the JSON the reporter wrote beside them: every
    slowest run in `stats` has that duration (and key, when recorded) in qp.threads."""
    found = page.js("""(() => {
        const p = JSON.parse(document.getElementById('qprof-trace').textContent);
        let checked = 0;
        const bad = [];
        for (const s of p.stats) for (const [t, n, dur, key] of s.slowest) {
            checked++;
            const T = qp.threads[t];
            if (T.dur[n] !== dur || (T.key ? T.key[n] : 0) !== key) bad.push([t, n, dur, key]);
        }
        return {checked, bad: bad.slice(0, 5)};
    })()""")
    if found["checked"] == 0:
        raise CheckFailed("the payload's stats list no slowest run to compare")
    if found["bad"]:
        raise CheckFailed("slowest runs [thread, n, dur, key] whose columns differ: %s"
                          % found["bad"])
    return "%d runs" % found["checked"]


def check_broken_columns(page, page_path):
    """Copies of the page with its compressed columns cut short or one character changed:
    each says in the page that the trace is corrupt or truncated, instead of going blank."""
    with open(page_path, encoding="utf-8") as source:
        text = source.read()
    start = text.index('id="qprof-columns">') + len('id="qprof-columns">')
    end = text.index("</script>", start)
    columns = text[start:end]
    middle = len(columns) // 2
    changed = "A" if columns[middle] != "A" else "B"
    said = []
    for name, broken in (("truncated", columns[:middle]),
                         ("corrupt", columns[:middle] + changed + columns[middle + 1:])):
        path = os.path.join(page.out_dir, "profile_queries.%s.html" % name)
        with open(path, "w", encoding="utf-8") as out:
            out.write(text[:start] + broken + text[end:])
        page.browser.navigate("file://" + path, timeout=LOAD_TIMEOUT_S)
        error = page.js("window.qprof.ready.then(() => window.qprof.error)")
        shown = page.js("document.querySelector('#details .error')?.textContent ?? null")
        if not error or "corrupt or truncated" not in error:
            raise CheckFailed("the %s page's qprof.error is %r, not about a corrupt or truncated"
                              " trace" % (name, error))
        if not shown or error not in shown:
            raise CheckFailed("the %s page shows %r in #details, not its error" % (name, shown))
        said.append(error)
    return said[-1]


def run_checks(browser, page_path, out_dir, shots=None):
    results = Results()
    page = Page(browser, out_dir)
    chrome_path = os.path.join(os.path.dirname(page_path), "profile_queries.trace.json")
    results.run("the markup escapes '<'", check_markup_escaped, page_path)
    if not results.run("the page loads", harness.navigate, page, "file://" + page_path,
                       LOAD_TIMEOUT_S):
        return results
    # The checks go on after a failure: each says precisely what it could not do.
    results.run("window.qprof.ready resolves", harness.check_ready, page)
    page.js(HELPERS_JS)
    results.run("no console problems during load", check_no_problems, page, "during load")
    results.run("screenshot of the initial view", screenshot_initial, page)
    results.run("the first screen names the costliest pass and provider, in ms",
                analysis_checks.check_first_screen, page)
    results.run("screenshot of the first screen", analysis_checks.screenshot, page, shots,
                "html-first-screen.png")
    # On load, before any check selects a node: a selection deeper than a track's collapsed
    # rows opens that track, which may then push the other threads' tracks out of view.
    results.run("the timeline has one track per thread", timeline_checks.check_tracks, page)
    results.run("visible hit nodes", check_visible_kind, page, "hit")
    results.run("visible miss nodes", check_visible_kind, page, "miss")
    results.run("important labels read 'PROVIDER · T ms · P %'", check_important_labels, page)
    results.run("C++ markup agrees with the viewer", check_consistency, page)
    results.run("the provider table's C++ texts are the common formatting's",
                check_table_formatting, page)
    results.run("the decompressed columns agree with the payload's stats",
                check_columns_agree_with_stats, page)
    if page.first_tree is None:
        page.first_tree = page.js("__qprofTest.selectedTree()?.id ?? 'tree-0'")
    results.run("the Order selector switches heaviest first and call order",
                analysis_checks.check_order_switch, page)
    results.run("heaviest first puts a pass's work before its wait, which has no share",
                analysis_checks.check_wait_after_work, page)
    # The keyboard goes first: on an untouched tree an openable item is a few keys away.
    results.run("the keyboard moves and opens", check_keyboard, page)
    results.run("a click opens a fold", check_fold_click, page)
    results.run("a wide pass's folds are one chip per provider, drawn page by page",
                check_chip_click, page)
    results.run("clicking a miss node shows its details", check_details, page)
    results.run("the thread selector switches trees", check_thread_select, page)
    results.run("Runs sorts the provider table", check_sorting, page)
    if os.path.exists(chrome_path):
        results.run("the top provider lists its slowest run first, as long as in the Chrome"
                    " trace", analysis_checks.check_slowest_run, page, chrome_path)
        results.run("screenshot of a provider's statistics", analysis_checks.screenshot, page,
                    shots, "html-provider.png")
        results.run("a slowest run is revealed in the tree with its path",
                    analysis_checks.check_run_revealed, page)
        results.run("screenshot of a revealed run", analysis_checks.screenshot, page, shots,
                    "html-run.png")
        results.run("a provider's callers and callees lead to their statistics",
                    analysis_checks.check_callers_callees, page)
        results.run("screenshot of a provider's callers and callees",
                    analysis_checks.screenshot_statistics, page, shots, "html-callers.png",
                    "callers")
        results.run("screenshot of a provider's most-asked keys",
                    analysis_checks.screenshot_statistics, page, shots, "html-keys.png",
                    "top-keys")
        results.run("#provider=NAME and #pass=NAME open their statistics",
                    analysis_checks.check_provider_anchor, page)
        results.run("the timeline starts the slowest run where the Chrome trace does",
                    timeline_checks.check_starts_match_chrome, page, chrome_path)
    results.run("the timeline zooms (wheel, keys, buttons) and pans (drag)",
                timeline_checks.check_zoom, page)
    results.run("a slowest run clicked in the statistics is shown on the timeline",
                timeline_checks.check_run_on_timeline, page)
    results.run("clicking a slice selects its node in the tree",
                timeline_checks.check_slice_click, page)
    results.run("the keyboard moves the timeline's selection, and the tree follows",
                timeline_checks.check_keyboard_selection, page)
    results.run("a time range selected on the timeline limits the statistics",
                timeline_checks.check_range_filters_stats, page)
    results.run("the statistics of the whole run as a range are the payload's",
                timeline_checks.check_whole_run_stats, page)
    results.run("each thread's work and waiting over the whole run add up",
                timeline_checks.check_busy_whole_run, page)
    results.run("each thread's counters are drawn under its track, with their values",
                timeline_checks.check_counter_graphs, page)
    results.run("screenshot of the timeline", timeline_checks.screenshot_timeline, page, shots,
                "html-timeline.png")
    results.run("search highlights a provider", check_search, page)
    results.run("a search dims what it does not match on the timeline",
                timeline_checks.check_search_dims, page)
    results.run("a search walks its matches slowest first, each visible on the timeline",
                timeline_checks.check_search_slowest_first, page)
    results.run("the markup agrees with the viewer after the interactions",
                check_consistency, page, "rendered", ["selected", "match"])
    results.run("screenshot after the checks", check_final_screenshot, page)
    results.run("no console problems during the whole test", check_no_problems, page,
                "during the test")
    # Last: it leaves the page.
    results.run("a corrupt or truncated payload is reported in the page",
                check_broken_columns, page, page_path)
    return results


def main():
    args = harness.toyc_page_args(__doc__.split("\n\n")[0])
    out_dir = os.path.abspath(args.out)

    def write_page():
        os.makedirs(out_dir, exist_ok=True)
        if args.page:
            return os.path.abspath(args.page)
        page_path = run_toyc(args.toyc, out_dir, args.toyc_args)
        print("ok - toyc writes profile_queries.html", flush=True)
        return page_path

    # The size of the first screen the issue and README speak of.
    return harness.main(write_page,
                        lambda browser, page_path: run_checks(browser, page_path, out_dir,
                                                              args.screenshots),
                        "toyc writes profile_queries.html", width=1440, height=900)


# In-page helpers, installed once as window.__qprofTest after qprof.ready. They only read
# the page, its JSON payload and the columns the viewer decompressed; everything a user does
# goes through real input events.
HELPERS_JS = r"""
(() => {
    'use strict';
    let payload = null;

    // The trace the C++ reporter embedded, as the viewer decompressed it (its columns are
    // compressed; tests/tools/deflate_zlib_test.py checks the compressor against zlib).
    function trace() {
        if (!payload) {
            if (!document.getElementById('qprof-trace')) {
                throw new Error('no <script id="qprof-trace"> in the page');
            }
            payload = {providers: qp.providers, threads: qp.threads};
        }
        return payload;
    }

    function providerOf(thread, n) {
        const p = trace();
        const provider = p.providers[p.threads[thread].tag[n] >>> qp.layout.PROVIDER_SHIFT];
        return provider ? provider.name : null;
    }

    function describe(el) {
        if (!el) return 'nothing';
        if (el.classList.contains('fold')) return `fold [${el.dataset.from}, ${el.dataset.to})`;
        if (el.classList.contains('node')) return `node ${el.dataset.n}`;
        return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
    }

    function isHidden(el) {
        return el.closest('[hidden]') !== null || el.getClientRects().length === 0;
    }

    // Visible: a box of non-zero size, not hidden, and a part of it on screen, that is
    // inside the viewport, its tree's box and every scrolling box around it.
    function isVisibleIn(el, tree) {
        if (isHidden(el) || getComputedStyle(el).visibility === 'hidden') return false;
        const r = el.getBoundingClientRect();
        if (r.width <= 0 || r.height <= 0) return false;
        const clips = [tree.getBoundingClientRect(),
                       {left: 0, top: 0, right: innerWidth, bottom: innerHeight}];
        for (let up = el.parentElement; up; up = up.parentElement) {
            if (getComputedStyle(up).overflow !== 'visible') clips.push(up.getBoundingClientRect());
        }
        return clips.every((c) => r.right > c.left && r.left < c.right &&
                                  r.bottom > c.top && r.top < c.bottom);
    }

    function trees() { return [...document.querySelectorAll('#trees .tree')]; }

    function selectedTree() {
        const shown = trees().filter((t) => !isHidden(t));
        return shown.length === 1 ? shown[0] : null;
    }

    function shownTreesText() {
        return trees().map((t) => `#${t.id} ${isHidden(t) ? 'hidden' : 'shown'}`).join(', ');
    }

    function selectorOf(el) {
        const tree = el.closest('.tree');
        if (el.classList.contains('fold')) {
            return `#${tree.id} .fold[data-from="${el.dataset.from}"][data-to="${el.dataset.to}"]`;
        }
        return `#${tree.id} .node[data-n="${el.dataset.n}"]`;
    }

    function labelOf(node) {
        const label = node.querySelector(':scope > .label');
        return label ? label.textContent : null;
    }

    // Every rendered node and fold against the viewer's rules and the spec's markup.
    function consistency(limit, stateClasses) {
        const q = window.qprof, problems = [], say = JSON.stringify;
        let nodes = 0, folds = 0;
        const note = (text) => { if (problems.length < limit) problems.push(text); };
        for (const tree of trees()) {
            const thread = Number(tree.dataset.thread);
            for (const el of tree.querySelectorAll('.node')) {
                nodes++;
                const n = Number(el.dataset.n), at = `thread ${thread} node ${n}`;
                if (el.dataset.n === undefined || !Number.isInteger(n)) {
                    note(`thread ${thread}: .node without a valid data-n: ` +
                         el.outerHTML.slice(0, 100));
                    continue;
                }
                const cls = el.getAttribute('class').split(' ')
                    .filter((c) => !stateClasses.includes(c)).join(' ');
                const want = q.nodeClass(thread, n);
                if (cls !== want) note(`${at}: class "${cls}", nodeClass gives "${want}"`);
                const label = labelOf(el), wantLabel = q.nodeLabel(thread, n);
                if (label !== wantLabel) {
                    note(`${at}: label ${say(label)}, nodeLabel gives ${say(wantLabel)}`);
                }
                const tag = el.classList.contains('hit') ? 'i' : 'div';
                if (el.tagName.toLowerCase() !== tag) {
                    note(`${at}: <${el.tagName.toLowerCase()}>, the spec says <${tag}>`);
                }
            }
            for (const el of tree.querySelectorAll('.fold')) {
                folds++;
                const from = Number(el.dataset.from), to = Number(el.dataset.to);
                if (!Number.isInteger(from) || !Number.isInteger(to) || from >= to) {
                    note(`thread ${thread}: .fold with bad data-from/data-to: ` +
                         el.outerHTML.slice(0, 100));
                    continue;
                }
                const want = el.hasAttribute('data-provider') ? q.chipText(thread, el)
                    : q.foldText(thread, from, to);
                if (el.textContent !== want) {
                    note(`thread ${thread} fold [${from}, ${to}): text ` +
                         `${say(el.textContent)}, foldText gives ${say(want)}`);
                }
            }
        }
        return {nodes, folds, problems};
    }

    // The visible elements of the shown tree matching `selector`, as unique selectors.
    function visible(selector, max) {
        const tree = selectedTree();
        if (!tree) return {error: 'not exactly one tree is shown: ' + shownTreesText()};
        const all = [...tree.querySelectorAll(selector)];
        const shown = all.filter((el) => isVisibleIn(el, tree));
        return {tree: tree.id, total: all.length, visible: shown.length,
                selectors: shown.slice(0, max).map(selectorOf)};
    }

    // The item the keyboard acts on: the selected one, the focused one (roving tabindex),
    // or the tree's aria-activedescendant.
    function current(tree) {
        const marked = tree.querySelector('.selected, [aria-selected="true"]');
        if (marked) return marked;
        const focused = document.activeElement;
        if (focused && focused !== tree && tree.contains(focused)) return focused;
        const id = tree.getAttribute('aria-activedescendant');
        return id ? document.getElementById(id) : null;
    }

    // A fold, or a node with children (extent-N, N > 0): something Enter can open or close.
    function openable(el) {
        if (!el) return false;
        return el.classList.contains('fold') ||
            [...el.classList].some((c) => /^extent-[1-9]/.test(c));
    }

    function treeState(id) {
        const tree = document.getElementById(id), item = current(tree);
        return {current: item ? describe(item) : null, openable: openable(item),
                nodes: tree.querySelectorAll('.node').length,
                folds: tree.querySelectorAll('.fold').length,
                focusInside: tree.contains(document.activeElement)};
    }

    window.__qprofTest = {trace, providerOf, describe, isHidden, isVisibleIn, selectedTree,
                          shownTreesText, selectorOf, labelOf, consistency, visible, treeState};
})()
"""

if __name__ == "__main__":
    sys.exit(main())
