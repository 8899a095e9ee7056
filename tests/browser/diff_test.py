#!/usr/bin/env python3
"""The `qprof diff --html` page, checked in a real browser (headless Chromium), next to the
report it links to.

Runs toyc twice with -Z profile-queries=raw (a smaller base and a larger new run), writes the
new run's report with `qprof report NEW -o DIR` and the diff page into the same DIR, opens the
page from disk (file://) and checks it as a user meets it: the table has a row per provider of
the --json document, with the per-run columns; a column title sorts it; and a click on the
provider with the largest change opens profile_queries.html on that provider's statistics.
Nothing may be reported on the console. With --screenshots DIR it saves diff.png there (the
README's image).

Each check prints "ok - ..." or "FAIL - ... reason"; the exit status is 1 when any failed.
Without Chromium it exits 77 (Meson's "skipped"), or 1 when CI=true.

    diff_test.py --toyc build/examples/toyc --qprof build/qprof --out /tmp/diff
"""

import json
import os
import sys
import time

# Imported from the source tree: leave no __pycache__ in it.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402
import harness  # noqa: E402
from harness import (CheckFailed, Results, check_markup_escaped,  # noqa: E402
                     check_no_problems, run_command)

# toyc's sizes for the two runs: different enough that most providers change beyond noise.
BASE_ITEMS = "2000"
NEW_ITEMS = "6000"
REPORT_TIMEOUT_S = 20


class Page(harness.Page):
    def __init__(self, browser):
        super().__init__(browser)
        self.rows = None  # the --json document's providers


def write_pages(toyc, qprof, out_dir):
    """The two raw runs, the new run's report and the diff page beside it; returns the
    diff page's path and the --json document. The tool runs in out_dir, so that the page names
    the runs as a user would (base/profile_queries.qprof)."""
    streams = []
    for role, items in (("base", BASE_ITEMS), ("new", NEW_ITEMS)):
        folder = os.path.join(out_dir, role)
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):  # qprof never overwrites: a stale run would stay
            os.remove(os.path.join(folder, name))
        run_command([toyc, "--items", items, "-Z", "profile-queries=raw", "-Z",
                     "profile-queries-dir=" + folder], "toyc writes the %s run" % role)
        streams.append(os.path.join(role, "profile_queries.qprof"))
    pages = os.path.join(out_dir, "pages")
    os.makedirs(pages, exist_ok=True)
    for name in os.listdir(pages):
        os.remove(os.path.join(pages, name))
    qprof = os.path.abspath(qprof)
    run_command([qprof, "report", streams[1], "--reporters=html", "-o", pages],
                "the new run's report", out_dir)
    diff_page = os.path.join(pages, "diff.html")
    with open(diff_page, "w", encoding="utf-8") as out:
        out.write(run_command([qprof, "diff", "--html", streams[0], streams[1]],
                              "qprof diff --html", out_dir))
    document = json.loads(run_command([qprof, "diff", "--json", streams[0], streams[1]],
                                      "qprof diff --json", out_dir))
    print("# wrote %s and profile_queries.html beside it" % diff_page, flush=True)
    return diff_page, document


def signed_percent_text(percent):
    """As signed_percent_text in src/cli/diff.cpp (printf's rounding is Python's)."""
    if percent is None:
        return "\u2014"
    return ("%.1f %%" if percent == 0 else "%+.1f %%") % percent


def signed_count_text(count):
    return ("+" if count > 0 else "") + format(count, ",")


# ----- checks -----

def check_drawn(page, url, document):
    """The viewer draws one row per provider of the --json document, in its order, with the
    mean per run of both runs, and its change % and count change as the text table prints
    them."""
    page.browser.navigate(url)
    state = page.js("window.qprofDiff ?? null")
    if not state or state.get("error"):
        raise CheckFailed("the viewer did not draw the page: %r" % (state,))
    rows = page.js("""[...document.querySelectorAll('#diff-table tbody tr')].map(tr => ({
        name: tr.cells[0].dataset.value, link: tr.cells[0].querySelector('a')?.getAttribute('href') ?? null,
        baseRun: tr.cells[6].textContent, newRun: tr.cells[7].textContent,
        percent: tr.cells[4].textContent, count: tr.cells[8].textContent}))""")
    expected = [row["provider"] for row in document["providers"]]
    if [row["name"] for row in rows] != expected:
        raise CheckFailed("the rows are %s, not the --json document's %s"
                          % ([row["name"] for row in rows][:6], expected[:6]))
    for row, data in zip(rows, document["providers"]):
        texts = (signed_percent_text(data["change_percent"]), signed_count_text(data["count_change"]))
        if (row["percent"], row["count"]) != texts:
            raise CheckFailed("%s reads %s and %s, not %s and %s as qprof diff prints them"
                              % (row["name"], row["percent"], row["count"], *texts))
    runs = [row for row in rows if row["baseRun"] != "\u2014" and row["newRun"] != "\u2014"]
    if not runs:
        raise CheckFailed("no row has a mean per run in both runs")
    page.rows = document["providers"]
    return "%d rows; first %s, %s -> %s per run" % (len(rows), rows[0]["name"],
                                                     runs[0]["baseRun"], runs[0]["newRun"])


def check_sorting(page):
    """A click on "change %" sorts the rows by it, largest first; a second click reverses."""
    orders = []
    for _ in range(2):
        page.browser.click("#diff-table th[data-sort=change-pct] button")
        page.browser.settle()
        orders.append(page.js("""[...document.querySelectorAll('#diff-table tbody tr')]
            .map(tr => tr.cells[4].dataset.value).filter(v => v !== undefined).map(Number)"""))
    descending, ascending = orders
    if descending != sorted(descending, reverse=True) or ascending != sorted(ascending):
        raise CheckFailed("change %% sorted to %s, then %s" % (descending[:6], ascending[:6]))
    return "%d percentages, largest %.1f %%" % (len(descending), descending[0])


def screenshot(page, directory):
    if not directory:
        return "no --screenshots directory"
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "diff.png")
    page.js("window.scrollTo(0, 0)")
    page.browser.settle()
    page.browser.screenshot(path)
    return path


def check_link_opens_statistics(page, url):
    """The first row in the --json order whose provider is in the new run: a click on the
    row (its change) opens profile_queries.html beside the page, on that provider's
    statistics."""
    page.browser.navigate(url)  # back to the command's order
    target = next(row for row in page.rows if row["status"] != "only in base")
    name = target["provider"]
    index = page.rows.index(target) + 1
    page.browser.click("#diff-table tbody tr:nth-child(%d) td:nth-child(4)" % index)
    deadline = time.monotonic() + REPORT_TIMEOUT_S
    shown, where = None, None
    while time.monotonic() < deadline:
        time.sleep(0.2)
        try:
            where = page.js("location.pathname.split('/').pop() + location.hash")
            shown = page.js("""window.qprof?.ready ? window.qprof.ready.then(() =>
                document.querySelector('#details [data-field=provider]')?.textContent ?? null)
                : null""")
        except cdp.JsError:
            continue  # the old page was leaving
        if shown == name:
            break
    if shown != name:
        raise CheckFailed("after clicking %r the browser shows %r with %r in its statistics"
                          % (name, where, shown))
    return "%s opened %s" % (name, where)


def run_checks(browser, page_path, document, shots):
    results = Results()
    page = Page(browser)
    url = "file://" + page_path
    results.run("the markup escapes '<'", check_markup_escaped, page_path)
    if not results.run("a row per provider, with the mean per run", check_drawn, page, url,
                       document):
        return results
    results.run("no console problems during load", check_no_problems, page, "during load")
    results.run("screenshot of the page", screenshot, page, shots)
    results.run("a column title sorts the rows", check_sorting, page)
    results.run("a click on a row opens its provider's statistics in the new run's report",
                check_link_opens_statistics, page, url)
    results.run("no console problems during the whole test", check_no_problems, page,
                "during the test")
    return results


def main():
    args = harness.toyc_and_qprof_args(__doc__.split("\n\n")[0], "diff.png")
    return harness.main(
        lambda: write_pages(args.toyc, args.qprof, os.path.abspath(args.out)),
        lambda browser, written: run_checks(browser, *written, args.screenshots),
        "the runs, the report and the diff page are written", width=1440, height=900)


if __name__ == "__main__":
    sys.exit(main())
