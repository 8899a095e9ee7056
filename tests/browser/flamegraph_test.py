#!/usr/bin/env python3
"""The flamegraph reporter's page, checked in a real browser (headless Chromium).

Runs toyc at its default size with -Z profile-queries=flamegraph, opens the
profile_queries.flamegraph.html it writes, and checks it as a user meets it: the page becomes
ready, frames are drawn, hovering shows a tooltip, a real click zooms into a frame and the
reset button and Escape undo it, a search highlights a provider and shows its share, and
nothing is ever reported on the console. Saves flamegraph_initial.png, flamegraph_search.png
and flamegraph.png (zoomed in, a tooltip shown) in the output directory.

Each check prints "ok - ..." or "FAIL - ... reason"; the exit status is 1 when any failed.
Without Chromium it exits 77 (Meson's "skipped"), or 1 when CI=true.

    flamegraph_test.py --toyc build/examples/toyc --out /tmp/flamegraph
    flamegraph_test.py --page /tmp/x/profile_queries.flamegraph.html --out /tmp/flamegraph
"""

import json
import os
import re
import sys
import time

# Imported from the source tree: leave no __pycache__ in it.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import CheckFailed, Results, check_markup_escaped, check_no_problems  # noqa: E402

PAGE_NAME = "profile_queries.flamegraph.html"
READY_TIMEOUT_MS = 10000
PERCENT_RE = re.compile(r"(\d+\.\d|<0\.1) %")
STATUS_RE = re.compile(r"^([\d,]+) frames?, (\d+\.\d|<0\.1) % of total$")


class Page(harness.Page):
    def __init__(self, browser, out_dir):
        super().__init__(browser, out_dir)
        self.target = None  # the frame the zoom check clicks

    def state(self):
        return self.js("window.qprofFlame.state()")


def run_toyc(toyc, out_dir, extra_args):
    """Runs toyc with the flamegraph reporter into out_dir; returns the page's path."""
    page = os.path.join(out_dir, PAGE_NAME)
    if os.path.exists(page):
        os.remove(page)  # a stale page must not pass for a new one
    command = [toyc, "-Z", "profile-queries=flamegraph", "-Z", "profile-queries-dir=" + out_dir]
    harness.run_command(command + extra_args, "toyc")
    if not os.path.exists(page):
        raise CheckFailed("%s wrote no %s" % (" ".join(command), page))
    print("# wrote %s (%.1f kB)" % (page, os.path.getsize(page) / 1e3), flush=True)
    return page


# ----- checks -----

def check_drawn(page):
    """The canvas has pixels of many colours, and the state says which frames are drawn."""
    colours = page.js("""(() => {
        const canvas = document.getElementById('flame-canvas');
        const copy = document.createElement('canvas');
        copy.width = canvas.width; copy.height = canvas.height;
        const ctx = copy.getContext('2d', {willReadFrequently: true});
        ctx.drawImage(canvas, 0, 0);
        const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
        const seen = new Set();
        for (let i = 0; i < data.length; i += 4 * 97) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        return {colours: seen.size, width: canvas.width, height: canvas.height};
    })()""")
    state = page.state()
    if colours["colours"] < 8 or state["drawn"] < 10:
        raise CheckFailed("the canvas (%dx%d) has %d colours and %d frames drawn"
                          % (colours["width"], colours["height"], colours["colours"],
                             state["drawn"]))
    return "%d of %d frames drawn, %d colours on a %dx%d canvas" % (
        state["drawn"], state["frames"], colours["colours"], colours["width"], colours["height"])


def pick_target(page):
    """A frame worth zooming into: of the visible provider and activity frames at least 6 px
    and under 60 % of the width wide, the one whose zoomed view shows the most frames."""
    target = page.js("""(() => {
        const api = window.qprofFlame, s = api.state(), candidates = [];
        for (let i = 1; i < s.frames; i++) {
            const box = api.frameBox(i);
            if (box && api.frame(i).kind !== 'thread' && box.width >= 6 &&
                box.width < 0.6 * s.canvasWidth && box.y > 0 && box.y + box.height < innerHeight)
                candidates.push({frame: i, box});
        }
        let chosen = null;
        for (const candidate of candidates) {
            api.zoomTo(candidate.frame);
            candidate.drawn = api.state().drawn;
            if (!chosen || candidate.drawn > chosen.drawn) chosen = candidate;
        }
        api.zoomTo(0);
        return chosen;
    })()""")
    if target is None:
        raise CheckFailed("no visible frame 6 px to 60 % of the width wide to zoom into")
    page.target = target
    return target


def check_hover(page):
    target = pick_target(page)
    box = target["box"]
    page.browser.send("Input.dispatchMouseEvent", {
        "type": "mouseMoved", "x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2})
    page.browser.settle()
    tip = page.js("""(() => { const t = document.getElementById('tooltip');
        return {hidden: t.hidden, text: t.innerText,
                name: t.querySelector('.name')?.textContent ?? null}; })()""")
    if tip["hidden"] or not tip["name"]:
        raise CheckFailed("no tooltip with a name over frame %d: %r" % (target["frame"], tip))
    if not PERCENT_RE.search(tip["text"]) or "Inclusive" not in tip["text"]:
        raise CheckFailed("the tooltip has no inclusive time and percentage: %r" % tip["text"])
    if page.state()["hover"] != target["frame"]:
        raise CheckFailed("hovering frame %d, state() says %d" % (target["frame"],
                                                                   page.state()["hover"]))
    lines = [line for line in tip["text"].split("\n") if line.strip()]
    return "frame %d: %s" % (target["frame"], " | ".join(lines[:3]))


def check_zoom_click(page):
    target = page.target or pick_target(page)
    box = target["box"]
    page.browser.click_at(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.browser.settle()
    state = page.state()
    if state["zoom"] != target["frame"]:
        raise CheckFailed("clicked frame %d, state() says zoom %d" % (target["frame"],
                                                                     state["zoom"]))
    after = page.js("window.qprofFlame.frameBox(%d)" % target["frame"])
    if after is None or after["width"] < 0.98 * state["canvasWidth"]:
        raise CheckFailed("the zoomed frame is %r wide, the canvas %d"
                          % (after and after["width"], state["canvasWidth"]))
    status = page.js("document.getElementById('zoom-status').textContent")
    return "frame %d (%s) now %.0f px of %d; %r" % (
        target["frame"], state["zoomName"], after["width"], state["canvasWidth"], status)


def check_reset(page, how):
    if page.state()["zoom"] == 0:
        page.js("window.qprofFlame.zoomTo(%d)" % (page.target["frame"] if page.target else 1))
    if how == "Escape":
        page.browser.press("Escape")
    else:
        page.browser.click("#reset")
    page.browser.settle()
    state = page.state()
    if state["zoom"] != 0:
        raise CheckFailed("after %s the zoom is frame %d, not the root" % (how, state["zoom"]))
    return ""


def check_search(page):
    """Searches, by typing, the provider with the most frames drawn wide enough to sample
    their colour (8 px) in the current view. Which providers those are depends on the times
    toyc measured, so the choice is made on the page, not fixed."""
    name = page.js("""(() => {
        const api = window.qprofFlame, s = api.state(), frames = new Map();
        for (let i = 1; i < s.frames; i++) {
            const frame = api.frame(i), box = api.frameBox(i);
            if (frame.kind === 'miss' && box && box.width >= 8)
                frames.set(frame.name, (frames.get(frame.name) || 0) + 1);
        }
        let best = null;
        for (const [name, count] of frames) if (!best || count > best.count) best = {name, count};
        return best && best.name;
    })()""")
    if not name:
        raise CheckFailed("no query frame is drawn 8 px wide or more")
    page.browser.click("#search")
    page.browser.type_text(name)
    deadline = time.monotonic() + 30  # generous: a loaded CI machine can be slow
    while page.state()["search"] != name.lower() and time.monotonic() < deadline:
        time.sleep(0.05)
    page.browser.settle()
    state = page.state()
    status = page.js("document.getElementById('search-status').textContent")
    said = STATUS_RE.match(status)
    if state["matches"] < 1 or not said:
        raise CheckFailed("searching %r: %d matches, status %r" % (name, state["matches"], status))
    if int(said.group(1).replace(",", "")) != state["matches"] or not 0 < state["share"] <= 100:
        raise CheckFailed("status %r, state() says %d matches and %.2f %%"
                          % (status, state["matches"], state["share"]))
    page.browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 1, "y": 1})
    page.browser.settle()  # no hover outline on the pixel sampled below
    painted = page.js(MATCH_PAINTED_JS % json.dumps(name))
    deadline = time.monotonic() + 10  # on a loaded machine, drawing can lag a frame or more
    while not painted["ok"] and time.monotonic() < deadline:
        time.sleep(0.1)
        page.browser.settle()
        painted = page.js(MATCH_PAINTED_JS % json.dumps(name))
    if not painted["ok"]:
        raise CheckFailed("a drawn frame of %r is not in the match colour: %r" % (name, painted))
    return "%r: %s; frame %d painted %s" % (name, status, painted["frame"], painted["pixel"])


# Whether the first drawn frame named NAME is painted in the CSS variable --match, sampled
# near its bottom-right corner, away from its label and its hit strip.
MATCH_PAINTED_JS = """((name) => {
    const api = window.qprofFlame, s = api.state();
    const rgb = (canvas, x, y) => {
        const copy = document.createElement('canvas');
        copy.width = copy.height = 1;
        const ctx = copy.getContext('2d', {willReadFrequently: true});
        ctx.drawImage(canvas, x, y, 1, 1, 0, 0, 1, 1);
        return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const swatch = document.createElement('canvas');
    swatch.width = swatch.height = 1;
    const sctx = swatch.getContext('2d');
    sctx.fillStyle = getComputedStyle(document.documentElement).getPropertyValue('--match');
    sctx.fillRect(0, 0, 1, 1);
    const want = rgb(swatch, 0, 0);
    for (let i = 1; i < s.frames; i++) {
        const box = api.frameBox(i);
        if (!box || box.width < 8 || api.frame(i).name !== name) continue;
        const canvas = document.getElementById('flame-canvas'), r = canvas.getBoundingClientRect();
        const ratio = canvas.width / r.width;
        const pixel = rgb(canvas, Math.floor((box.x - r.left + box.width - 3) * ratio),
                          Math.floor((box.y - r.top + 15) * ratio));
        return {ok: pixel.every((v, k) => Math.abs(v - want[k]) <= 2), frame: i, pixel, want};
    }
    return {ok: false, frame: -1, pixel: null, want};
})(%s)"""


def screenshot(page, name):
    path = os.path.join(page.out_dir, name)
    page.browser.settle()
    page.browser.screenshot(path)
    return path


def final_screenshot(page):
    """Zoomed into the parent of the frame clicked before, the search cleared with Escape,
    the pointer on that frame: colours, labels and a tooltip."""
    page.browser.click("#search")
    page.browser.press("Escape")
    if page.state()["search"]:
        raise CheckFailed("Escape in the search box left the search %r" % page.state()["search"])
    if page.target:
        frame = page.target["frame"]
        page.js("window.qprofFlame.zoomTo(window.qprofFlame.frame(%d).parent)" % frame)
        box = page.js("window.qprofFlame.frameBox(%d)" % frame)
        if box:
            page.browser.send("Input.dispatchMouseEvent", {
                "type": "mouseMoved", "x": box["x"] + min(box["width"] / 2, 60),
                "y": box["y"] + box["height"] / 2})
    return screenshot(page, "flamegraph.png")


def run_checks(browser, page_path, out_dir):
    results = Results()
    page = Page(browser, out_dir)
    results.run("the markup escapes '<'", check_markup_escaped, page_path)
    if not results.run("the page becomes ready", harness.load, page, "file://" + page_path,
                       "qprofFlame", harness.LOAD_TIMEOUT_S, READY_TIMEOUT_MS):
        return results
    results.run("no console problems during load", check_no_problems, page, "during load")
    results.run("frames are drawn", check_drawn, page)
    results.run("screenshot of the initial view", screenshot, page, "flamegraph_initial.png")
    results.run("hovering a frame shows its name, time and share", check_hover, page)
    results.run("a click zooms into a frame", check_zoom_click, page)
    results.run("Reset zoom goes back to the root", check_reset, page, "the button")
    results.run("Escape goes back to the root", check_reset, page, "Escape")
    results.run("search highlights a provider and shows its share", check_search, page)
    results.run("screenshot of the search", screenshot, page, "flamegraph_search.png")
    results.run("Escape clears the search; screenshot zoomed in", final_screenshot, page)
    results.run("no console problems during the whole test", check_no_problems, page,
                "during the test")
    return results


def main():
    args = harness.toyc_page_args(__doc__.split("\n\n")[0])  # the same as the html page's test
    out_dir = os.path.abspath(args.out)

    def write_page():
        os.makedirs(out_dir, exist_ok=True)
        if args.page:
            return os.path.abspath(args.page)
        return run_toyc(args.toyc, out_dir, args.toyc_args)

    return harness.main(write_page, lambda browser, page_path: run_checks(browser, page_path,
                                                                          out_dir),
                        "toyc writes " + PAGE_NAME)


if __name__ == "__main__":
    sys.exit(main())
