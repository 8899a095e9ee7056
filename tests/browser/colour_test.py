#!/usr/bin/env python3
"""Colour classes in the HTML report and the flame graph, checked in a real browser (headless
Chromium), in the light and the dark colour scheme.

Runs toyc (whose code generation providers carry the class "codegen") with
-Z profile-queries=html,flamegraph and -Z profile-queries-colour=^typeck$:checker, opens both
pages and checks what a user sees: each legend names both classes beside a swatch in the
class's palette colour (--class-N of viewer_common/theme.css, as the scheme defines it), the
HTML provider table tags the classed providers in that colour, the viewer gives a classed
node the class colour-N, and the flame graph fills a classed frame in its class's hue and an
unclassed one in another. Nothing may be reported on the console.

Each check prints "ok - ..." or "FAIL - ... reason"; the exit status is 1 when any failed.
Without Chromium it exits 77 (Meson's "skipped"), or 1 when CI=true.

    colour_test.py --toyc build/examples/toyc --out /tmp/colour
"""

import argparse
import os
import re
import sys

# Imported from the source tree: leave no __pycache__ in it.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import CheckFailed, Results, check_no_problems  # noqa: E402

CLASSES = ("checker", "codegen")  # sorted: slots 0 and 1
READY_TIMEOUT_MS = 20000

# The computed colour of a palette variable, as an element styled with it reports it.
RESOLVE_JS = """(name) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(' + name + ')';
    document.body.appendChild(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
}"""


class Page(harness.Page):
    def palette(self, slot):
        return self.browser.call(RESOLVE_JS, "--class-%d" % slot)


def run_toyc(toyc, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for name in os.listdir(out_dir):  # qprof never overwrites a report
        if name.startswith("profile_queries"):
            os.remove(os.path.join(out_dir, name))
    command = [toyc, "--items", "2000", "-Z", "profile-queries=html,flamegraph",
               "-Z", "profile-queries-dir=" + out_dir,
               "-Z", "profile-queries-colour=^typeck$:checker"]
    harness.run_command(command, "toyc")
    pages = [os.path.join(out_dir, "profile_queries." + suffix)
             for suffix in ("html", "flamegraph.html")]
    missing = [page for page in pages if not os.path.exists(page)]
    if missing:
        raise CheckFailed("toyc exited 0 but did not write %s" % ", ".join(missing))
    return pages


def wait_ready(page, hook):
    page.js("""Promise.race([window.%s.ready, new Promise((_, reject) => setTimeout(
        () => reject(new Error('not ready in time')), %d))])""" % (hook, READY_TIMEOUT_MS))
    error = page.js("window.%s.error ?? null" % hook)
    if error:
        raise CheckFailed("the viewer reports an error: %s" % error)


def check_legend(page, swatch):
    """Each class has a legend item: its name beside a swatch in its slot's colour."""
    items = page.js("""[...document.querySelectorAll('#legend li')].map(li => {
        const sample = li.querySelector('[class*="colour-"]');
        return sample ? {name: li.querySelector('code').textContent,
                         slot: Number(/colour-(\\d+)/.exec(sample.className)[1]),
                         colour: getComputedStyle(sample)[%r]} : null;
    }).filter(Boolean)""" % swatch)
    names = [item["name"] for item in items]
    if names != list(CLASSES):
        raise CheckFailed("the legend names the classes %s, not %s" % (names, list(CLASSES)))
    for slot, item in enumerate(items):
        if item["slot"] != slot:
            raise CheckFailed("%s takes slot %d, not %d" % (item["name"], item["slot"], slot))
        if swatch == "borderTopColor" and item["colour"] != page.palette(slot):
            raise CheckFailed("%s's swatch is %s, not the palette's %s"
                              % (item["name"], item["colour"], page.palette(slot)))
        if swatch == "backgroundColor" and item["colour"] in ("", "rgba(0, 0, 0, 0)"):
            raise CheckFailed("%s's swatch has no colour" % item["name"])
    return ", ".join("%s %s" % (item["name"], item["colour"]) for item in items)


def check_html_classes(page):
    """The provider table tags codegen in its colour, the viewer gives a codegen run the class
    colour-1, and its box, revealed, is drawn in --class-1."""
    tag = page.js("""(() => {
        const small = [...document.querySelectorAll('#provider-table small.colour-class')]
            .find(s => s.closest('tr').querySelector('a').textContent === 'codegen');
        return small ? {text: small.textContent, colour: getComputedStyle(small).color} : null;
    })()""")
    if tag is None or tag["text"] != "codegen":
        raise CheckFailed("the provider table does not tag codegen with its class: %r" % (tag,))
    if tag["colour"] != page.palette(1):
        raise CheckFailed("codegen's tag is %s, not --class-1's %s" % (tag["colour"], page.palette(1)))
    # A codegen run: the viewer's class for it, and its box once revealed.
    box = page.js("""(() => {
        for (let t = 0; t < qp.threads.length; t++) {
            const T = qp.threads[t];
            for (let n = 0; n < T.len; n++) {
                if (qp.providers[qp.providerOf(T, n)].name !== 'codegen') continue;
                const classes = window.qprof.nodeClass(t, n);
                window.qprof.reveal(t, n);
                const el = document.querySelector('#tree-' + t + ' .node[data-n="' + n + '"]');
                return {classes, border: el ? getComputedStyle(el).borderTopColor : null};
            }
        }
        return null;
    })()""")
    if box is None or "colour-1" not in box["classes"].split():
        raise CheckFailed("a codegen run has the classes %r, without colour-1" % (box,))
    if box["border"] != page.palette(1):
        raise CheckFailed("a revealed codegen box's border is %s, not --class-1's %s"
                          % (box["border"], page.palette(1)))
    boxes = page.js("document.querySelectorAll('.node.colour-0, .node.colour-1').length")
    return "tag %s; %d classed boxes drawn so far" % (tag["colour"], boxes)


def hue_of_hsl(text):
    match = re.match(r"hsl\((\d+)", text or "")
    return int(match.group(1)) % 360 if match else None


def hue_of_rgb(text):
    values = [int(v) / 255 for v in re.findall(r"\d+", text)[:3]]
    high, low = max(values), min(values)
    if high == low:
        return 0
    r, g, b = values
    h = (g - b) / (high - low) if high == r else 2 + (b - r) / (high - low) if high == g \
        else 4 + (r - g) / (high - low)
    return round(60 * h + 360) % 360


def check_flame_colours(page):
    """A codegen frame is filled in --class-1's hue (within the shading's 6 degrees), a typeck
    frame in --class-0's, a parsing frame in neither."""
    frames = page.js("""(() => {
        const api = window.qprofFlame;
        const found = {};
        for (let i = 0; i < api.state().frames; i++) {
            const f = api.frame(i);
            if (!(f.name in found)) found[f.name] = f;
        }
        return found;
    })()""")
    hues = [hue_of_rgb(page.palette(slot)) for slot in (0, 1)]
    for name, slot in (("typeck", 0), ("codegen", 1)):
        frame = frames.get(name)
        if frame is None or frame.get("colourClass") != CLASSES[slot]:
            raise CheckFailed("the %s frame has class %r" % (name, frame and frame.get("colourClass")))
        hue = hue_of_hsl(frame["colour"])
        if hue is None or min(abs(hue - hues[slot]), 360 - abs(hue - hues[slot])) > 7:
            raise CheckFailed("the %s frame is %s, not near --class-%d's hue %d"
                              % (name, frame["colour"], slot, hues[slot]))
    other = frames.get("parsing")
    if other is None or other.get("colourClass") is not None:
        raise CheckFailed("the parsing frame has class %r" % (other and other.get("colourClass")))
    return "typeck %s, codegen %s, parsing %s" % (
        frames["typeck"]["colour"], frames["codegen"]["colour"], other["colour"])


def set_scheme(browser, scheme):
    browser.send("Emulation.setEmulatedMedia",
                 {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    return scheme


def run_checks(browser, html_page, flame_page):
    results = Results()
    page = Page(browser)
    for scheme in ("light", "dark"):
        set_scheme(browser, scheme)
        browser.navigate("file://" + html_page)
        if not results.run("the HTML report is ready (%s)" % scheme, wait_ready, page, "qprof"):
            return results
        results.run("the HTML legend names each class in its colour (%s)" % scheme,
                    check_legend, page, "borderTopColor")
        results.run("the provider table and the boxes take the class colours (%s)" % scheme,
                    check_html_classes, page)
        browser.navigate("file://" + flame_page)
        if not results.run("the flame graph is ready (%s)" % scheme, wait_ready, page,
                           "qprofFlame"):
            return results
        results.run("the flame graph legend names each class (%s)" % scheme, check_legend,
                    page, "backgroundColor")
        results.run("classed frames are drawn in their class's hue (%s)" % scheme,
                    check_flame_colours, page)
    results.run("no console problems", check_no_problems, page, "during the test")
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--toyc", required=True, help="the toyc executable")
    parser.add_argument("--out", required=True, help="directory for the pages")
    args = parser.parse_args()
    return harness.main(lambda: run_toyc(args.toyc, os.path.abspath(args.out)),
                        lambda browser, pages: run_checks(browser, *pages),
                        "toyc writes the pages", width=1280, height=900)


if __name__ == "__main__":
    sys.exit(main())
