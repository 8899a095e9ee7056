"""A small Chrome DevTools Protocol client for the browser tests and the page benchmark.

Chromium is started with --remote-debugging-pipe: it reads commands from its fd 3 and writes
replies and events to its fd 4, each message one JSON object followed by a NUL byte. A pipe
needs no port, so parallel test runs cannot collide and nothing listens on the network.

Usage:
    with Browser() as browser:
        browser.navigate("file:///tmp/page.html")
        title = browser.evaluate("document.title")
        browser.click("#button")
        if browser.problems: ...

Everything is synchronous and single-threaded: replies and events are read only while a
call waits, and every wait has a timeout whose error names what was awaited.
"""

import base64
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

# The flags the brief requires when running as root in a container; the rest keep the run
# free of network traffic and background work that would make timings noisy.
BASE_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",  # containers often give /dev/shm only 64 MB
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--mute-audio",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)

# key name -> (code, windowsVirtualKeyCode, text typed by the key or "")
KEYS = {
    "Enter": ("Enter", 13, "\r"),
    "Tab": ("Tab", 9, ""),
    "Escape": ("Escape", 27, ""),
    "ArrowLeft": ("ArrowLeft", 37, ""),
    "ArrowUp": ("ArrowUp", 38, ""),
    "ArrowRight": ("ArrowRight", 39, ""),
    "ArrowDown": ("ArrowDown", 40, ""),
    " ": ("Space", 32, " "),
    "+": ("Equal", 187, "+"),
    "-": ("Minus", 189, "-"),
    "[": ("BracketLeft", 219, "["),
    "]": ("BracketRight", 221, "]"),
}


class CdpError(RuntimeError):
    """A protocol error, a timeout, or Chromium going away."""


class ChromiumMissing(CdpError):
    """No Chromium executable was found."""


class JsError(CdpError):
    """An expression given to evaluate() threw or its promise rejected."""


def find_chromium():
    """Returns the path of a Chromium executable, $CHROMIUM first."""
    candidates = [os.environ.get("CHROMIUM", "")] + list(CHROMIUM_NAMES)
    for name in candidates:
        path = shutil.which(name) if name else None
        if path:
            return path
    raise ChromiumMissing(
        "Chromium was not found (looked for $CHROMIUM and " + ", ".join(CHROMIUM_NAMES) +
        "); install it with: apt-get install chromium")


SKIPPED = 77  # what Meson reports as a skipped test


def chromium_for_test():
    """Chromium's path for a browser test, or the exit status the test should end with:
    Meson's "skipped" where Chromium is missing, a failure when CI=true (CI installs it)."""
    try:
        return find_chromium()
    except ChromiumMissing as missing:
        print("# " + str(missing), flush=True)
        if os.environ.get("CI") == "true":
            print("FAIL - Chromium is required when CI=true", flush=True)
            return 1
        print("# skipping the browser test", flush=True)
        return SKIPPED


def _high_fd(fd):
    """Moves fd to a number >= 10, so that putting the pipes on fds 3 and 4 in the child
    cannot overwrite one of them with the other."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


def _describe_exception(details):
    """The most useful text of a Runtime ExceptionDetails object."""
    exception = details.get("exception") or {}
    text = exception.get("description") or exception.get("value") or details.get("text", "")
    where = ""
    if details.get("url") and "\n    at " not in text:
        where = " at %s:%s:%s" % (details["url"], details.get("lineNumber", 0) + 1,
                                  details.get("columnNumber", 0) + 1)
    return "%s%s" % (text, where)


def _console_args_text(args):
    """Joins console.* arguments the way DevTools shows them, roughly."""
    parts = []
    for arg in args:
        if "value" in arg:
            parts.append(str(arg["value"]))
        else:
            parts.append(arg.get("description") or arg.get("type", "?"))
    return " ".join(parts)


class Browser:
    """One headless Chromium with one page attached; a context manager that always kills
    Chromium and removes its temporary profile directory."""

    def __init__(self, executable=None, width=1400, height=1000, timeout=30.0,
                 extra_flags=()):
        self.executable = executable or find_chromium()
        self.width = width
        self.height = height
        self.timeout = timeout  # default for every wait, in seconds
        self.extra_flags = tuple(extra_flags)
        self.problems = []  # console errors/warnings and uncaught exceptions, as text
        self.process = None
        self.profile_dir = None
        self.session_id = None
        self._to_chromium = None
        self._from_chromium = None
        self._buffer = b""
        self._next_id = 0
        self._events = []  # events not yet consumed by a wait_event()

    # ----- lifetime -----

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def start(self):
        self.profile_dir = tempfile.mkdtemp(prefix="qprof-chromium-")
        self._launch()
        self._attach_page()

    def _launch(self):
        command_read, command_write = (_high_fd(fd) for fd in os.pipe())
        reply_read, reply_write = (_high_fd(fd) for fd in os.pipe())

        # pass_fds cannot renumber descriptors, and Chromium insists on 3 and 4, so the
        # child moves them itself; dup2 leaves the copies inheritable, and close_fds=False
        # is safe because Python creates every other descriptor non-inheritable.
        def in_child():
            os.dup2(command_read, 3)
            os.dup2(reply_write, 4)

        flags = BASE_FLAGS + (
            "--user-data-dir=" + self.profile_dir,
            "--window-size=%d,%d" % (self.width, self.height),
        ) + self.extra_flags
        self._stderr = open(os.path.join(self.profile_dir, "chromium.log"), "wb")
        try:
            self.process = subprocess.Popen(
                [self.executable, *flags, "about:blank"],
                stdin=subprocess.DEVNULL, stdout=self._stderr, stderr=self._stderr,
                close_fds=False, preexec_fn=in_child, start_new_session=True)
        finally:
            os.close(command_read)
            os.close(reply_write)
        self._to_chromium = command_write
        self._from_chromium = reply_read

    def _attach_page(self):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.send("Target.attachToTarget",
                             {"targetId": target["targetId"], "flatten": True}, session=False)
        self.session_id = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(domain + ".enable")
        # The window size flag does not reach targets made by createTarget in every
        # version; the override makes screenshots and layout the same on every machine.
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": 1,
                   "mobile": False})

    def close(self):
        """Asks Chromium to quit, then kills its process group; removes the profile."""
        if self.process is not None:
            if self.process.poll() is None and self._to_chromium is not None:
                try:
                    self._write({"id": self._new_id(), "method": "Browser.close"})
                    self.process.wait(timeout=5)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            self._kill_group()
            self.process = None
        for fd in (self._to_chromium, self._from_chromium):
            if fd is not None:
                os.close(fd)
        self._to_chromium = self._from_chromium = None
        if getattr(self, "_stderr", None):
            self._stderr.close()
            self._stderr = None
        if self.profile_dir:
            shutil.rmtree(self.profile_dir, ignore_errors=True)
            self.profile_dir = None

    def _kill_group(self):
        # Chromium's helpers (zygote, renderers) share the group start_new_session made,
        # whose id is the browser's pid: killing it ends exactly what we started.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def log_tail(self, lines=20):
        """The last lines Chromium wrote to stdout/stderr, for error messages."""
        if not self.profile_dir:
            return ""
        try:
            with open(os.path.join(self.profile_dir, "chromium.log"), "rb") as log:
                text = log.read().decode("utf-8", "replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    # ----- protocol -----

    def _new_id(self):
        self._next_id += 1
        return self._next_id

    def _write(self, message):
        data = json.dumps(message).encode() + b"\0"
        while data:
            written = os.write(self._to_chromium, data)
            data = data[written:]

    def send(self, method, params=None, session=True, timeout=None):
        """Sends one command and returns its result; raises CdpError on a protocol error."""
        message = {"id": self._new_id(), "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session_id
        self._write(message)
        what = "the reply to " + method
        reply = self._read_until(lambda m: m.get("id") == message["id"], what, timeout)
        if "error" in reply:
            error = reply["error"]
            raise CdpError("%s failed: %s %s" % (method, error.get("message"),
                                                 error.get("data", "")))
        return reply.get("result", {})

    def wait_event(self, method, predicate=lambda params: True, timeout=None):
        """Returns the params of the first event `method` (already received or coming)
        for which predicate(params) holds, and consumes it."""
        for index, event in enumerate(self._events):
            if event["method"] == method and predicate(event.get("params", {})):
                del self._events[index]
                return event.get("params", {})

        def wanted(message):
            return message.get("method") == method and predicate(message.get("params", {}))

        found = self._read_until(wanted, "the event " + method, timeout)
        self._events.remove(found)
        return found.get("params", {})

    def _read_until(self, wanted, what, timeout):
        """Reads messages until wanted(message); events are recorded on the way."""
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "method" in message:
                    self._record_event(message)
                if wanted(message):
                    return message
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CdpError("timed out after %.1f s waiting for %s" % (timeout, what))
            self._fill_buffer(remaining, what)

    def _fill_buffer(self, remaining, what):
        ready, _, _ = select.select([self._from_chromium], [], [], remaining)
        if not ready:
            return
        chunk = os.read(self._from_chromium, 1 << 20)
        if not chunk:
            code = self.process.poll() if self.process else None
            raise CdpError("Chromium closed the pipe (exit status %s) while waiting for %s;"
                           " its last output:\n%s" % (code, what, self.log_tail()))
        self._buffer += chunk

    def _record_event(self, message):
        self._note_problem(message["method"], message.get("params", {}))
        self._events.append(message)
        del self._events[:-2000]  # nobody waits for very old events; bound the memory

    def _note_problem(self, method, params):
        """Keeps console errors/warnings and uncaught exceptions in self.problems."""
        if method == "Runtime.consoleAPICalled":
            if params.get("type") in ("error", "warning", "assert"):
                self.problems.append("console.%s: %s" % (
                    params["type"], _console_args_text(params.get("args", []))))
        elif method == "Runtime.exceptionThrown":
            self.problems.append(
                "uncaught exception: " + _describe_exception(params["exceptionDetails"]))
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            if entry.get("level") in ("error", "warning"):
                self.problems.append("log %s (%s): %s %s" % (
                    entry["level"], entry.get("source"), entry.get("text"),
                    entry.get("url", "")))

    # ----- page actions -----

    def navigate(self, url, timeout=None):
        """Loads url and waits for its load event."""
        self._events = [e for e in self._events if e["method"] != "Page.loadEventFired"]
        result = self.send("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise CdpError("navigating to %s failed: %s" % (url, result["errorText"]))
        self.wait_event("Page.loadEventFired", timeout=timeout)

    def evaluate(self, expression, await_promise=True, timeout=None):
        """Evaluates expression in the page and returns its value (JSON-like); raises
        JsError with the exception's text when it throws or its promise rejects."""
        result = self.send("Runtime.evaluate", {
            "expression": expression,
            "awaitPromise": await_promise,
            "returnByValue": True,
            "userGesture": True,
        }, timeout=timeout)
        if "exceptionDetails" in result:
            raise JsError("JavaScript error in %s: %s" % (
                _shorten(expression), _describe_exception(result["exceptionDetails"])))
        return result.get("result", {}).get("value")

    def call(self, function_source, *args, timeout=None):
        """Calls the JS function `function_source` with JSON-serialisable args."""
        expression = "(%s)(...%s)" % (function_source, json.dumps(list(args)))
        return self.evaluate(expression, timeout=timeout)

    def element_box(self, selector):
        """Scrolls the first element matching selector into view and returns its centre
        and size in viewport coordinates; raises when it is missing or has no size."""
        box = self.call(_BOX_JS, selector)
        if box is None:
            raise CdpError("no element matches the selector %r" % selector)
        if box["width"] <= 0 or box["height"] <= 0:
            raise CdpError("the element %r has zero size (%sx%s); it is hidden or empty"
                           % (selector, box["width"], box["height"]))
        if not box["hit"]:
            raise CdpError("the element %r is covered at its centre (%.0f, %.0f) by %s"
                           % (selector, box["x"], box["y"], box["topmost"]))
        return box

    def click(self, selector):
        """Clicks the centre of the element with real mouse events, as a user would."""
        box = self.element_box(selector)
        self.click_at(box["x"], box["y"])

    def click_at(self, x, y):
        base = {"x": x, "y": y, "button": "left", "clickCount": 1}
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        self.send("Input.dispatchMouseEvent", dict(base, type="mousePressed", buttons=1))
        self.send("Input.dispatchMouseEvent", dict(base, type="mouseReleased", buttons=0))

    def move_to(self, x, y):
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})

    def drag(self, x0, y0, x1, y1, modifiers=0, steps=8):
        """Presses the left button at (x0, y0), moves to (x1, y1) in steps and releases it;
        modifiers as the protocol's bits (8: Shift)."""
        base = {"button": "left", "clickCount": 1, "modifiers": modifiers}
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0, "y": y0,
                                               "modifiers": modifiers})
        self.send("Input.dispatchMouseEvent", dict(base, type="mousePressed", x=x0, y=y0,
                                                   buttons=1))
        for i in range(1, steps + 1):
            x = x0 + (x1 - x0) * i / steps
            y = y0 + (y1 - y0) * i / steps
            self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y,
                                                   "buttons": 1, "button": "left",
                                                   "modifiers": modifiers})
        self.send("Input.dispatchMouseEvent", dict(base, type="mouseReleased", x=x1, y=y1,
                                                   buttons=0))

    def wheel(self, x, y, delta_x, delta_y):
        """Turns the mouse wheel over (x, y); a negative delta_y scrolls up (zooms in)."""
        self.send("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y,
                                               "deltaX": delta_x, "deltaY": delta_y})

    def type_text(self, text):
        """Types text into the focused element, as an input method would commit it."""
        self.send("Input.insertText", {"text": text})

    def press(self, key, modifiers=0):
        """Presses and releases one key by its DOM key name (see KEYS); `modifiers` as in the
        DevTools protocol (8: Shift)."""
        if key not in KEYS:
            raise CdpError("press(): unknown key %r; known: %s" % (key, ", ".join(KEYS)))
        code, virtual_code, text = KEYS[key]
        common = {"key": key, "code": code, "windowsVirtualKeyCode": virtual_code,
                  "nativeVirtualKeyCode": virtual_code, "modifiers": modifiers}
        # A key that types text is a "keyDown" (it also makes a keypress/input); the others
        # are "rawKeyDown", which is what Chromium itself sends for them.
        if text:
            self.send("Input.dispatchKeyEvent",
                      dict(common, type="keyDown", text=text, unmodifiedText=text))
        else:
            self.send("Input.dispatchKeyEvent", dict(common, type="rawKeyDown"))
        self.send("Input.dispatchKeyEvent", dict(common, type="keyUp"))

    def screenshot(self, path):
        """Writes a PNG of the viewport to path."""
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))

    def settle(self):
        """Waits until the page has rendered two frames: lets handlers and layout run."""
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


# Scrolls an element into view and reports its centre, size, and whether a click there
# would reach it (or one of its descendants) rather than something on top of it.
_BOX_JS = """(selector) => {
    const el = document.querySelector(selector);
    if (!el) return null;
    el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const top = document.elementFromPoint(x, y);
    const describe = (e) => !e ? 'nothing (outside the viewport)'
        : e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
          (typeof e.className === 'string' && e.className
              ? '.' + e.className.trim().split(/\s+/).join('.') : '');
    return {x, y, width: r.width, height: r.height,
            hit: !!top && (top === el || el.contains(top)), topmost: describe(top)};
}"""


def _shorten(text, limit=120):
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."
