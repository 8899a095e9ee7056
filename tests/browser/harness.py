"""What every browser test shares: the page written by a command, Chromium found (or the test
skipped), the page loaded and ready, each check's result printed and counted, the console
watched, and the exit status.

    def write_page():                          # may raise CheckFailed or a timeout
        harness.run_command([toyc, "-Z", "profile-queries=html", ...], "toyc")
        return page_path

    def check_page(browser, page_path):
        results = harness.Results()
        page = harness.Page(browser)
        if results.run("the page becomes ready", harness.load, page, "file://" + page_path):
            results.run("no console problems", harness.check_no_problems, page, "during load")
        return results

    sys.exit(harness.main(write_page, check_page, "toyc writes the page", width=1440))

A check returns a detail string or raises CheckFailed; Results prints "ok - NAME (detail)"
or "FAIL - NAME: reason". The exit status is 1 when a check failed, 77 (Meson's "skipped")
without Chromium, or 1 then when CI=true.
"""

import argparse
import re
import subprocess
import time

import cdp

LOAD_TIMEOUT_S = 30
READY_TIMEOUT_MS = 20000


class CheckFailed(Exception):
    """A check found the page other than it should be; the message says how."""


class Results:
    """Prints one line per check and counts the failures."""

    def __init__(self):
        self.failures = 0

    def ok(self, name, detail=""):
        print("ok - %s%s" % (name, " (%s)" % detail if detail else ""), flush=True)

    def fail(self, name, reason):
        self.failures += 1
        print("FAIL - %s: %s" % (name, reason), flush=True)

    def record(self, name, passed, detail):
        """A check whose outcome is already known: passed or not, with what was found."""
        if passed:
            self.ok(name, detail)
        else:
            self.fail(name, detail)

    def run(self, name, check, *args):
        """Runs check(*args); it returns a detail string or raises CheckFailed."""
        try:
            detail = check(*args)
        except (CheckFailed, cdp.CdpError) as error:
            self.fail(name, str(error))
            return False
        self.ok(name, detail or "")
        return True

    def exit_status(self):
        print("# %d check(s) failed" % self.failures if self.failures
              else "# all checks passed", flush=True)
        return 1 if self.failures else 0


class Page:
    """The browser and the page; a test's subclass adds what its checks learn on the way."""

    def __init__(self, browser, out_dir=None):
        self.browser = browser
        self.out_dir = out_dir

    def js(self, expression):
        return self.browser.evaluate(expression)

    def call(self, function_source, *args):
        return self.browser.call(function_source, *args)


def run_command(command, what, cwd=None, timeout=600):
    """Runs a command that writes a page or its inputs; returns its output, or raises
    CheckFailed with the end of its stderr when it fails."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    if done.returncode != 0:
        raise CheckFailed("%s: %s exited with %d; stderr:\n%s" % (
            what, " ".join(command), done.returncode, done.stderr[-2000:]))
    return done.stdout


def toyc_page_args(description):
    """The arguments of a test of a page toyc writes: the toyc to run, or a page written
    before; the output directory; toyc's own arguments after --."""
    parser = argparse.ArgumentParser(description=description)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--toyc", help="the toyc executable; it writes the page")
    source.add_argument("--page", help="check this existing page instead of running toyc")
    parser.add_argument("--out", required=True, help="directory for the profile and PNGs")
    parser.add_argument("--screenshots", help="also save each view's screenshot here (the"
                        " README's images: docs/images)")
    parser.add_argument("toyc_args", nargs="*", help="more arguments for toyc (after --)")
    return parser.parse_args()


def toyc_and_qprof_args(description, screenshots):
    """The arguments of a test of a page the qprof tool writes from toyc's runs: both
    programs, the output directory, and where to save `screenshots` too (docs/images)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--toyc", required=True, help="the toyc executable")
    parser.add_argument("--qprof", required=True, help="the qprof tool")
    parser.add_argument("--out", required=True, help="directory for the runs and the pages")
    parser.add_argument("--screenshots", help="also save %s here (docs/images)" % screenshots)
    return parser.parse_args()


# ----- checks every page takes -----

def check_markup_escaped(page_path):
    """A '<' that starts no tag (as in "<0.1 %") is an HTML parse error that browsers
    forgive; the writer must escape it as &lt; outside <script> and <style>."""
    with open(page_path, encoding="utf-8") as source:
        text = source.read()
    markup = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", text, flags=re.S)
    raw = [m.start() for m in re.finditer(r"<(?![A-Za-z/!?])", markup)]
    if raw:
        examples = ["...%s..." % markup[max(0, at - 40):at + 12] for at in raw[:3]]
        raise CheckFailed("%d unescaped '<' in the markup (write &lt;), e.g. %s"
                          % (len(raw), "; ".join(repr(e) for e in examples)))
    return ""


def navigate(page, url, timeout_s=LOAD_TIMEOUT_S):
    """Loads the page; returns how long its load event took."""
    started = time.monotonic()
    page.browser.navigate(url, timeout=timeout_s)
    return "load event after %.0f ms" % ((time.monotonic() - started) * 1000)


def check_ready(page, api="qprof", timeout_ms=READY_TIMEOUT_MS):
    """The viewer's window[api].ready resolves within timeout_ms, and window[api].error says
    it read its payload; returns when it became ready (readyAt)."""
    kind = page.js("typeof window.%s === 'object' && window.%s !== null"
                   " && typeof window.%s.ready?.then" % (api, api, api))
    if kind != "function":
        raise CheckFailed("window.%s.ready is not a Promise (window.%s is %s); the viewer"
                          " script did not run, threw, or does not export it"
                          % (api, api, page.js("typeof window." + api)))
    try:
        ready_at = page.js("""Promise.race([
            window.%s.ready.then(() => window.%s.readyAt),
            new Promise((_, reject) => setTimeout(() => reject(new Error(
                'window.%s.ready did not resolve within %d ms')), %d))])"""
                           % (api, api, api, timeout_ms, timeout_ms))
    except cdp.JsError as error:
        raise CheckFailed(str(error).split(": ", 1)[-1].split("\n")[0]) from None
    if not isinstance(ready_at, (int, float)):
        raise CheckFailed("window.%s.ready resolved but its readyAt is %r, not a number"
                          % (api, ready_at))
    error = page.js("window.%s.error" % api)
    if error is not None:
        raise CheckFailed("the viewer could not read the trace: %s" % error)
    return "readyAt %.0f ms after navigation start" % ready_at


def load(page, url, api="qprof", timeout_s=LOAD_TIMEOUT_S, ready_timeout_ms=READY_TIMEOUT_MS):
    """navigate() and check_ready() in one check."""
    return "%s, %s" % (navigate(page, url, timeout_s), check_ready(page, api, ready_timeout_ms))


def check_no_problems(page, when):
    """Nothing on the console: no error, warning or uncaught exception since the start."""
    page.browser.settle()  # lets queued console messages arrive
    problems = page.browser.problems
    if problems:
        shown = "; ".join(p.replace("\n", " | ")[:300] for p in problems[:5])
        raise CheckFailed("%d console error(s)/warning(s)/exception(s) %s: %s"
                          % (len(problems), when, shown))
    return ""


# ----- the test's run -----

def main(write_page, check_page, what, **browser_options):
    """A browser test from start to end: with Chromium found, write_page() makes the page(s)
    and returns what check_page needs (CheckFailed or a timeout there fails `what`), then
    check_page(browser, written) checks them in one Chromium (cdp.Browser(**browser_options))
    and returns its Results. Returns the test's exit status."""
    chromium = cdp.chromium_for_test()
    if isinstance(chromium, int):
        return chromium  # no Chromium: skipped, or failed under CI
    try:
        written = write_page()
    except (CheckFailed, subprocess.TimeoutExpired) as error:
        print("FAIL - %s: %s" % (what, error), flush=True)
        return 1
    try:
        with cdp.Browser(chromium, **browser_options) as browser:
            results = check_page(browser, written)
    except cdp.CdpError as error:  # Chromium itself failed: not a check of the page
        print("FAIL - driving Chromium: %s" % error, flush=True)
        return 1
    return results.exit_status()
