#!/usr/bin/env python3
"""The html report of a chain of queries about 1,000 deep, in a real browser: the page
becomes interactive at once, and the deepest query can be revealed, drawn and detailed.
Nested inline boxes take a browser super-linear time to lay out (depth 300 used to hang it),
and the HTML parser nests at most 512 elements, so deep chains are drawn flattened.

    deep_test.py --deep-chain build/tests/deep_chain --out /tmp/deep [--depth 1000]

Prints "ok - ..." or "FAIL - ..." per check; exit status 1 when any failed, 77 without
Chromium (1 under CI=true).
"""

import argparse
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

READY_BUDGET_MS = 3000  # generous for a loaded CI machine; it takes about 150 ms
REVEAL_BUDGET_MS = 3000


def write_page(deep_chain, depth, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    page = os.path.join(out_dir, "profile_queries.html")
    if os.path.exists(page):
        os.remove(page)
    subprocess.run([deep_chain, str(depth), "-Z", "profile-queries=html",
                    "-Z", "profile-queries-dir=" + out_dir], check=True, timeout=120,
                   capture_output=True)
    return page


def checks(browser, page, out_dir):
    failures = []

    def check(name, ok, detail):
        print("%s - %s (%s)" % ("ok" if ok else "FAIL", name, detail), flush=True)
        if not ok:
            failures.append(name)

    started = time.monotonic()
    browser.navigate("file://" + page, timeout=60)
    ready = browser.evaluate("window.qprof.ready.then(() => [window.qprof.readyAt, "
                             "window.qprof.error])")
    check("the page is interactive within %d ms" % READY_BUDGET_MS,
          ready[1] is None and ready[0] < READY_BUDGET_MS,
          "readyAt %.0f ms, error %r, load %.1f s" % (ready[0], ready[1],
                                                       time.monotonic() - started))
    last = browser.evaluate("qp.threads[0].len - 1")
    reveal = browser.evaluate("""(() => { const t = performance.now();
        const r = window.qprof.reveal(0, %d); return [r, performance.now() - t]; })()""" % last)
    check("the deepest query is revealed within %d ms" % REVEAL_BUDGET_MS,
          reveal[0] is True and reveal[1] < REVEAL_BUDGET_MS,
          "node %d, %.0f ms" % (last, reveal[1]))
    box = browser.evaluate("""(() => {
        const el = document.querySelector('#tree-0 .node[data-n="%d"]');
        const r = el ? el.getBoundingClientRect() : null;
        const path = document.querySelector('#details [data-field=path]');
        return {drawn: !!el, selected: !!el && el.classList.contains('selected'),
                width: r ? r.width : 0, height: r ? r.height : 0,
                onScreen: !!r && r.bottom > 0 && r.top < innerHeight,
                path: path ? path.textContent : ''};
    })()""" % last)
    check("it is drawn, selected, on screen, with its path", box["drawn"] and box["selected"]
          and box["width"] > 0 and box["height"] > 0 and box["onScreen"]
          and "more" in box["path"], "%s" % {k: v for k, v in box.items() if k != "path"})
    browser.settle()
    browser.screenshot(os.path.join(out_dir, "deep_chain.png"))
    check("no console problems", not browser.problems, "; ".join(browser.problems[:3]))
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deep-chain", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--depth", type=int, default=1000)
    args = parser.parse_args()
    chromium = cdp.chromium_for_test()
    if isinstance(chromium, int):
        return chromium
    out_dir = os.path.abspath(args.out)
    page = write_page(args.deep_chain, args.depth, out_dir)
    try:
        with cdp.Browser(chromium, width=1440, height=900) as browser:
            failures = checks(browser, page, out_dir)
    except cdp.CdpError as error:  # a hung page times out here
        print("FAIL - the page answers: %s" % error, flush=True)
        return 1
    print("# %d check(s) failed" % len(failures) if failures else "# all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
