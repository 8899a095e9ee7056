// What the timeline checks share (timeline_checks.mjs, timeline_selection_checks.mjs,
// timeline_range_checks.mjs, timeline_search_checks.mjs): the timeline's state and geometry as
// the page gives them, and the mouse and keyboard moves a user makes on it.
import {CheckFailed, call, js, settle} from './harness.mjs';

/** The timeline's state (window.qprof.timeline()); throws when the page has none. */
export async function state(page) {
  const found = await js(page, 'window.qprof.timeline()');
  if (found == null) {
    throw new CheckFailed('window.qprof.timeline() gives nothing: the page has no timeline');
  }
  return found;
}

/** The canvas's box in the viewport, after scrolling the page to its top. */
export async function canvasBox(page) {
  await js(page, 'window.scrollTo(0, 0)');
  await settle(page);
  const box = await js(page, `(() => { const r = document.getElementById('timeline-canvas')
      ?.getBoundingClientRect(); return r && {left: r.left, top: r.top, width: r.width,
      height: r.height, bottom: r.bottom}; })()`);
  if (!box || box.width <= 0 || box.height <= 0) {
    throw new CheckFailed(`the timeline's canvas has no size: ${JSON.stringify(box ?? null)}`);
  }
  return box;
}

/** The y of the middle of a depth row of a thread's track, in canvas pixels. */
export function rowY(timeline, thread, depth) {
  const track = timeline.tracks[thread];
  return track.y - timeline.scroll + timeline.head + (depth + 0.5) * timeline.row;
}

/**
 * Scrolls the timeline's tracks, as a user would before pointing there, so that a row of a
 * thread's track is in view (an earlier check may have opened a track to a deep node and
 * scrolled past the first rows); returns the timeline's state.
 */
export async function showRow(page, thread, depth) {
  await call(page, `(t, depth) => {
      const s = window.qprof.timeline(), view = document.getElementById('timeline-view');
      const top = s.tracks[t].y - s.scroll + s.head + depth * s.row;
      if (top < s.axis || top + s.row > s.height) {
        view.scrollTop = Math.max(0, s.tracks[t].y + depth * s.row - s.axis);
      }
  }`, thread, depth);
  await settle(page);
  return state(page);
}

/** Whether a selection ({t, n}) is exactly node n of thread t. */
export function isNode(selected, t, n) {
  return selected != null && Object.keys(selected).length === 2 &&
    selected.t === t && selected.n === n;
}

/** Focuses the timeline's scrolling view, as Tab would. */
export async function focusTimeline(page) {
  await js(page, "document.getElementById('timeline-view').focus()");
}

/** Turns the mouse wheel over (x, y); a negative dy scrolls up (zooms in). */
export async function wheel(page, x, y, dx, dy) {
  await page.mouse.move(x, y);
  await page.mouse.wheel(dx, dy);
}

/**
 * Presses the left button at (x0, y0), moves to (x1, y1) in steps and releases it, with
 * Shift held when `shift`.
 */
export async function drag(page, x0, y0, x1, y1, {shift = false, steps = 8} = {}) {
  if (shift) await page.keyboard.down('Shift');
  try {
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.mouse.move(x1, y1, {steps});
    await page.mouse.up();
  } finally {
    if (shift) await page.keyboard.up('Shift');
  }
}
