// The checks of the page's timeline, run by html.spec.mjs on toyc's page: one track per
// thread, slices where the Chrome trace of the same run has them, zoom by wheel, keys and
// buttons, a click on a slice selects it in the tree, a run clicked in the statistics is shown
// on the timeline, and a range selected on it limits the statistics, which over the whole run
// are the payload's.
//
// Each check takes the test's context `ctx` ({page, problems, ...}: what the checks learn on
// the way, see html.spec.mjs) and returns a detail string or throws CheckFailed (harness.mjs).
import fs from 'node:fs';

import {screenshot} from './analysis_checks.mjs';
import {CheckFailed, call, click, js, settle} from './harness.mjs';

/** The timeline's state (window.qprof.timeline()); throws when the page has none. */
async function state(page) {
  const found = await js(page, 'window.qprof.timeline()');
  if (found == null) {
    throw new CheckFailed('window.qprof.timeline() gives nothing: the page has no timeline');
  }
  return found;
}

/** The canvas's box in the viewport, after scrolling the page to its top. */
async function canvasBox(page) {
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
function rowY(timeline, thread, depth) {
  const track = timeline.tracks[thread];
  return track.y - timeline.scroll + timeline.head + (depth + 0.5) * timeline.row;
}

/**
 * Scrolls the timeline's tracks, as a user would before pointing there, so that a row of a
 * thread's track is in view (an earlier check may have opened a track to a deep node and
 * scrolled past the first rows); returns the timeline's state.
 */
async function showRow(page, thread, depth) {
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
function isNode(selected, t, n) {
  return selected != null && Object.keys(selected).length === 2 &&
    selected.t === t && selected.n === n;
}

/** Focuses the timeline's scrolling view, as Tab would. */
async function focusTimeline(page) {
  await js(page, "document.getElementById('timeline-view').focus()");
}

/** Turns the mouse wheel over (x, y); a negative dy scrolls up (zooms in). */
async function wheel(page, x, y, dx, dy) {
  await page.mouse.move(x, y);
  await page.mouse.wheel(dx, dy);
}

/**
 * Presses the left button at (x0, y0), moves to (x1, y1) in steps and releases it, with
 * Shift held when `shift`.
 */
async function drag(page, x0, y0, x1, y1, {shift = false, steps = 8} = {}) {
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

/**
 * One track per thread, named like the thread, each with slices drawn in its first row, and
 * the whole timeline on the first screen's width: the timeline as the page loads.
 */
export async function checkTracks(ctx) {
  const {page} = ctx;
  const timeline = await state(page);
  const box = await canvasBox(page);
  const names = await js(page, `JSON.parse(document.getElementById('qprof-trace').textContent)
      .threads.map(t => t.name)`);
  const tracks = timeline.tracks.map((t) => t.name);
  if (JSON.stringify(tracks) !== JSON.stringify(names)) {
    throw new CheckFailed(`tracks ${JSON.stringify(tracks)}, threads ${JSON.stringify(names)}: ` +
                          'not one track per thread');
  }
  if (tracks.length < 2) {
    throw new CheckFailed(`toyc's report has ${tracks.length} thread(s); it should have its ` +
                          'codegen workers');
  }
  if (box.width < 1000 || box.top > 900) {
    throw new CheckFailed(`the timeline is ${Math.trunc(box.width)} px wide at y ` +
                          `${Math.trunc(box.top)}: not on the first screen at 1440x900`);
  }
  // Pixels of each track's first row that are not the background: where the thread worked.
  const inked = await call(page, `(rows) => {
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
  }`, tracks.map((_, i) => rowY(timeline, i, 0)));
  tracks.forEach((name, i) => {
    if (inked[i] === -1) {
      throw new CheckFailed(`the track of ${JSON.stringify(name)} is below the timeline's view ` +
                            'on load: not every thread is in sight');
    }
    if (inked[i] <= 0) {
      throw new CheckFailed(`the track of ${JSON.stringify(name)} has nothing drawn in its ` +
                            'first row');
    }
  });
  return `${tracks.length} tracks: ${tracks.join(', ')}; first rows inked ` +
    inked.map((share) => `${(100 * share).toFixed(0)} %`).join(', ');
}

/**
 * The slowest run of the top provider starts on the timeline where the Chrome trace of the
 * same run starts it (both from integer ns: exactly).
 */
export async function checkStartsMatchChrome(ctx, chromePath) {
  const run = await js(ctx.page, `(() => { const p = JSON.parse(document.getElementById('qprof-trace')
      .textContent); let best = null;
      for (const s of p.stats) if (s.slowest.length && (!best || s.self_ns > best.self_ns)) best = s;
      const [t, n, ns] = best.slowest[0];
      return {t, n, ns, name: p.providers[best.provider].name,
              start: window.qprof.start(t, n)}; })()`);
  const events = JSON.parse(fs.readFileSync(chromePath, 'utf8')).traceEvents;
  // The Chrome trace may end an event 1-2 ns early (chrome_reporter.cpp); it starts it exactly.
  const starts = events
    .filter((e) => e.ph === 'X' && e.name === run.name &&
                   Math.abs(Math.round(e.dur * 1000) - run.ns) <= 2)
    .map((e) => Math.round(e.ts * 1000));
  if (!starts.includes(run.start)) {
    throw new CheckFailed(`the slowest ${run.name} run (${run.ns} ns) starts at ${run.start} ns ` +
                          `on the timeline; the Chrome trace has runs of that length at ` +
                          JSON.stringify(starts.slice(0, 5)));
  }
  return `${run.name}, ${run.ns} ns, starts at ${run.start} ns in both`;
}

/** How many ns the timeline shows. */
async function span(page) {
  const timeline = await state(page);
  return timeline.to - timeline.from;
}

/**
 * The wheel zooms in at the pointer, + and - zoom, "Whole run" shows everything again; a drag
 * pans.
 */
export async function checkZoom(ctx) {
  const {page} = ctx;
  const box = await canvasBox(page);
  await click(page, '#timeline-reset');
  await settle(page);
  const whole = await span(page);
  const x = box.left + box.width / 2, y = box.top + 30;
  await wheel(page, x, y, 0, -600);
  await settle(page);
  const wheeled = await span(page);
  if (!(wheeled < whole)) {
    throw new CheckFailed(`the wheel did not zoom in: ${Math.trunc(whole)} ns shown before, ` +
                          `${Math.trunc(wheeled)} after`);
  }
  await focusTimeline(page);
  await page.keyboard.press('+');
  await settle(page);
  const keyed = await span(page);
  if (!(keyed < wheeled)) {
    throw new CheckFailed(`'+' did not zoom in: ${Math.trunc(wheeled)} ns shown before, ` +
                          `${Math.trunc(keyed)} after`);
  }
  const before = (await state(page)).from;
  await drag(page, x, y, x + 200, y);
  await settle(page);
  const after = await state(page);
  if (!(after.from < before) || Math.abs((after.to - after.from) - keyed) > 1) {
    throw new CheckFailed('a drag to the right did not pan back in time keeping the zoom: ' +
                          `from ${Math.trunc(before)} to ${Math.trunc(after.from)} ns, ` +
                          `${Math.trunc(after.to - after.from)} ns shown`);
  }
  await click(page, '#timeline-zoom-out');
  await settle(page);
  if (!(await span(page) > keyed)) throw new CheckFailed('the zoom-out button did not zoom out');
  await click(page, '#timeline-reset');
  await settle(page);
  const again = await span(page);
  if (Math.abs(again - whole) > 1) {
    throw new CheckFailed(`'Whole run' shows ${Math.trunc(again)} ns, the whole run is ` +
                          `${Math.trunc(whole)}`);
  }
  return `whole ${Math.trunc(whole)} ns; wheel ${Math.trunc(wheeled)} ns; '+' ` +
    `${Math.trunc(keyed)} ns; drag panned; whole run again`;
}

/**
 * A click on a slowest run in a provider's statistics shows it on the timeline, selected and
 * in view. Sets ctx.selectedRun ({t, n}) for checkSliceClick.
 */
export async function checkRunOnTimeline(ctx) {
  const {page} = ctx;
  await click(page, '#hot-providers li:first-child a[data-provider]');
  await settle(page);
  const target = await js(page, `(() => { const a = document.querySelector('#slowest-runs a[data-n]');
      return a && {t: Number(a.dataset.thread), n: Number(a.dataset.n)}; })()`);
  if (target == null) throw new CheckFailed('no run to click in #slowest-runs');
  await click(page, '#slowest-runs a[data-n]');
  await settle(page);
  const timeline = await state(page);
  const start = await call(page, '(t, n) => window.qprof.start(t, n)', target.t, target.n);
  if (!isNode(timeline.selected, target.t, target.n)) {
    throw new CheckFailed(`the timeline selects ${JSON.stringify(timeline.selected)}, the run ` +
                          `clicked is ${JSON.stringify(target)}`);
  }
  if (!(timeline.from <= start && start <= timeline.to)) {
    throw new CheckFailed(`the run starts at ${Math.trunc(start)} ns, the timeline shows ` +
                          `${Math.trunc(timeline.from)}-${Math.trunc(timeline.to)} ns`);
  }
  ctx.selectedRun = target;
  return `node ${target.n} of thread ${target.t} selected, ${Math.trunc(timeline.from)}-` +
    `${Math.trunc(timeline.to)} ns shown`;
}

/**
 * Clicks the middle of the visible part of node n's slice; checks what the tree, the details
 * and the timeline then select; returns what it found.
 */
async function clickSlice(page, t, n) {
  const node = await call(page, `(t, n) => {
      const T = qp.threads[t]; // the viewer's decoded columns
      let depth = 0;
      for (let a = n - 1, m = n; a >= 0; a--) if (a + T.size[a] > m) { depth++; m = a; }
      return {depth, start: window.qprof.start(t, n), dur: T.dur[n]};
  }`, t, n);
  const box = await canvasBox(page);
  const timeline = await state(page);
  const left = Math.max(await call(page, '(ns) => window.qprof.timelineX(ns)', node.start), 0);
  const right = Math.min(await call(page, '(ns) => window.qprof.timelineX(ns)',
                                    node.start + node.dur), box.width);
  const y = rowY(timeline, t, node.depth);
  if (y >= timeline.height || right - left < 1) {
    throw new CheckFailed(`the slice of node ${n} is not in the canvas's view (x ` +
                          `${Math.trunc(left)}-${Math.trunc(right)}, y ${Math.trunc(y)})`);
  }
  await page.mouse.click(box.left + (left + right) / 2, box.top + y);
  await settle(page);
  const found = await call(page, `(t, n) => {
      const el = document.querySelector('#tree-' + t + ' .node[data-n="' + n + '"]');
      const path = document.querySelector('#details [data-field=path]');
      return {selected: !!el && el.classList.contains('selected'),
              shown: !!el && !el.closest('[hidden]'), path: path ? path.textContent : null,
              timeline: window.qprof.timeline().selected};
  }`, t, n);
  if (!(found.selected && found.shown)) {
    throw new CheckFailed(`after a click on node ${n}'s slice the tree has it ` +
                          (found.selected ? 'in a hidden tree' : 'not selected'));
  }
  if (!isNode(found.timeline, t, n)) {
    throw new CheckFailed(`the timeline selects ${JSON.stringify(found.timeline)} after a ` +
                          `click on node ${n}`);
  }
  if (node.depth > 0 && (!found.path || !found.path.includes('Path from the root'))) {
    throw new CheckFailed(`the details of node ${n} give no path: ${JSON.stringify(found.path)}`);
  }
  return `node ${n} (depth ${node.depth}): ${(found.path || 'a root').slice(0, 50)}`;
}

/**
 * A click on a slice selects that node in the tree, with its path from the root: the parent
 * of the run shown (ctx.selectedRun, from checkRunOnTimeline), then the run itself.
 */
export async function checkSliceClick(ctx) {
  const {page} = ctx;
  const target = ctx.selectedRun;
  if (target == null) throw new CheckFailed('no run was shown on the timeline before');
  const parent = await call(page, `(t, n) => { const T = qp.threads[t];
      for (let a = n - 1; a >= 0; a--) if (a + T.size[a] > n) return a; return -1; }`,
  target.t, target.n);
  const said = [];
  for (const n of [...(parent >= 0 ? [parent] : []), target.n]) {
    said.push(await clickSlice(page, target.t, n));
  }
  return `${said.join('; ')}, in #tree-${target.t}`;
}

/**
 * On the focused timeline, ArrowUp selects the parent of the selected slice, ArrowDown its
 * first child, ] the next slice of that row; the tree follows each step.
 */
export async function checkKeyboardSelection(ctx) {
  const {page} = ctx;
  const start = (await state(page)).selected;
  if (start == null) throw new CheckFailed('nothing is selected on the timeline to move from');
  await focusTimeline(page);
  const shape = await call(page, `(t) => { const T = qp.threads[t]; const depth = [], parent = [], stack = [];
      for (let n = 0; n < T.size.length; n++) {
          while (stack.length && stack[stack.length - 1] + T.size[stack[stack.length - 1]] <= n) stack.pop();
          depth.push(stack.length); parent.push(stack.length ? stack[stack.length - 1] : -1);
          stack.push(n);
      }
      return {depth, parent}; }`, start.t);
  const steps = [];
  for (const key of ['ArrowUp', 'ArrowDown', ']', 'ArrowUp']) { // the run may have no timed child
    const before = (await state(page)).selected;
    await page.keyboard.press(key);
    await settle(page);
    const after = (await state(page)).selected;
    const tree = await call(page, `(t) => { const el = document.querySelector('#tree-' + t +
        ' .node.selected'); return el ? Number(el.dataset.n) : null; }`, after.t);
    const b = before.n, a = after.n;
    const wanted = {
      'ArrowDown': shape.parent[a] === b,
      ']': a > b && shape.depth[a] === shape.depth[b],
      'ArrowUp': shape.parent[b] === a,
    }[key];
    if (!wanted) {
      throw new CheckFailed(`${key} moved the selection from node ${b} (depth ` +
                            `${shape.depth[b]}) to node ${a} (depth ${shape.depth[a]})`);
    }
    if (tree !== a) {
      throw new CheckFailed(`after ${key} the timeline selects node ${a}, the tree node ${tree}`);
    }
    steps.push(`${key} ${b}->${a}`);
  }
  return `${steps.join('; ')}; the tree followed`;
}

/**
 * While a search is on, the timeline dims the slices it does not match and draws the matches
 * as they are; cleared, nothing is dimmed.
 */
export async function checkSearchDims(ctx) {
  const {page} = ctx;
  const query = await js(page, "document.getElementById('search').value");
  if (!query) throw new CheckFailed('no search is on (the search check runs first)');
  await click(page, '#timeline-reset');
  await settle(page);
  const on = await state(page);
  if (!(on.lit > 0 && on.lit < on.drawn)) {
    throw new CheckFailed(`searching ${JSON.stringify(query)}, ${on.lit} of the ${on.drawn} ` +
                          'slices drawn are lit: the search should light some and dim the rest');
  }
  await click(page, '#search');
  await page.keyboard.press('Escape');
  await settle(page);
  const off = await state(page);
  if (off.lit !== off.drawn) {
    throw new CheckFailed(`after Escape cleared the search, ${off.drawn - off.lit} of ` +
                          `${off.drawn} slices are still dimmed`);
  }
  return `${JSON.stringify(query)}: ${on.lit} of ${on.drawn} slices lit; cleared: all ` +
    `${off.drawn} lit`;
}

/** The provider table's shown rows: [provider, its cells' values joined by commas]. */
async function table(page) {
  return js(page, `[...document.querySelectorAll('#provider-table tbody tr')]
      .filter(r => !r.hidden).map(r => [r.dataset.provider,
          [...r.cells].slice(1, 9).map(c => c.dataset.value).join(',')])`);
}

/**
 * Shift+drag over a part of the timeline limits the provider table to that time range, says
 * so, agrees with the range's own statistics, and Clear range restores the table.
 */
export async function checkRangeFiltersStats(ctx) {
  const {page} = ctx;
  await click(page, '#timeline-reset');
  const whole = await table(page);
  const box = await canvasBox(page);
  const timeline = await showRow(page, 0, 0);
  const x0 = box.left + box.width * 0.2, x1 = box.left + box.width * 0.45;
  const y = box.top + rowY(timeline, 0, 0);
  await drag(page, x0, y, x1, y, {shift: true});
  await settle(page);
  const note = await js(page, `(() => { const n = document.getElementById('range-note');
      return n && !n.hidden ? n.textContent : null; })()`);
  if (!note || !note.includes('within')) {
    throw new CheckFailed('after a Shift+drag the table says nothing of a range: ' +
                          JSON.stringify(note));
  }
  const limited = await table(page);
  if (JSON.stringify(limited) === JSON.stringify(whole)) {
    throw new CheckFailed('the provider table did not change for the range');
  }
  const expected = await js(page, `(() => { const r = window.qprof.range();
      return window.qprof.statsOfRange(r.from, r.to)
          .map((s, p) => s && [String(p), s.runs]).filter(Boolean); })()`);
  // As dictionaries, provider -> runs, listed by provider.
  const sorted = (runs) => Object.entries(runs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const shown = sorted(Object.fromEntries(
    limited.map(([p, values]) => [p, parseInt(values.split(',')[0], 10)])));
  const wanted = sorted(Object.fromEntries(expected));
  if (JSON.stringify(shown) !== JSON.stringify(wanted)) {
    throw new CheckFailed(`the table's runs in the range ${JSON.stringify(shown.slice(0, 5))} ` +
                          `differ from the range's own statistics ` +
                          JSON.stringify(wanted.slice(0, 5)));
  }
  const names = await js(page, "JSON.parse(document.getElementById('qprof-trace').textContent)" +
                               '.threads.map(t => t.name)');
  const missing = names.slice(0, 6).filter((name) => !note.includes(name + ' '));
  if (!note.includes('% work') || missing.length) {
    throw new CheckFailed("the range note does not give each thread's work: " +
                          JSON.stringify(note));
  }
  await click(page, '#range-note .range-clear');
  await settle(page);
  if (JSON.stringify(await table(page)) !== JSON.stringify(whole)) {
    throw new CheckFailed('Clear range did not restore the table');
  }
  return `${JSON.stringify(note.slice(0, 90))}; ${limited.length} of ${whole.length} providers ` +
    'in the range; cleared';
}

/**
 * The range statistics of the whole run are the payload's (C++) statistics: the two
 * implementations of one rule agree, to the nanosecond. Both sum the nodes' durations as the
 * page carries them (the trace's totals, summed in clock ticks, may differ by rounding: the
 * C++ side does not use them).
 */
export async function checkWholeRunStats(ctx) {
  const problems = await js(ctx.page, `(() => {
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
  })()`);
  if (problems.count) {
    throw new CheckFailed(`${problems.count} differences, e.g. ` +
                          JSON.stringify(problems.problems));
  }
  return `${problems.providers} providers agree`;
}

/**
 * Over the whole run, each thread's work and waiting add up to its top-level nodes' time, and
 * the waits of all threads to the payload's wait time, exactly (toyc nests no wait inside
 * another).
 */
export async function checkBusyWholeRun(ctx) {
  const found = await js(ctx.page, `(() => {
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
  })()`);
  if (found.out.length) throw new CheckFailed(found.out.join('; '));
  if (found.waits !== found.payloadWaits) {
    throw new CheckFailed(`the threads wait ${found.waits} ns, the payload's statistics ` +
                          `${found.payloadWaits} ns`);
  }
  return `work + waiting = top-level time on every thread; waits ${found.waits} ns (payload ` +
    `${found.payloadWaits} ns)`;
}

/**
 * The timeline zoomed on the codegen workers' start, with a slice of a worker hovered, saved
 * as `name` in `directory` (the README's image); nothing without a directory.
 */
export async function screenshotTimeline(ctx, directory, name) {
  if (!directory) return 'no --screenshots directory';
  const {page} = ctx;
  const box = await canvasBox(page);
  await click(page, '#timeline-reset');
  for (let i = 0; i < 2; ++i) {
    await wheel(page, box.left + box.width * 0.62, box.top + 40, 0, -300);
  }
  await settle(page);
  const tracks = (await state(page)).tracks;
  const track = tracks[Math.min(1, tracks.length - 1)];
  const timeline = await showRow(page, track.thread, 1);
  // The middle of the widest slice of that track's second row, in canvas pixels.
  let x = await call(page, `(t) => {
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
  }`, track.thread);
  if (x == null) x = box.width * 0.62;
  await page.mouse.move(box.left + x, box.top + rowY(timeline, track.thread, 1));
  const file = await screenshot(ctx, directory, name);
  await click(page, '#timeline-reset');
  return file;
}

/** The search's status line and the timeline's selection, with its duration. */
async function searchState(page) {
  return js(page, `(() => {
      const sel = window.qprof.timeline().selected;
      return {status: document.getElementById('search-status').textContent,
              selected: sel, dur: sel ? qp.threads[sel.t].dur[sel.n] : null};
  })()`);
}

/**
 * A search walks its matches slowest first ("match i of n"), and every match stays visible on
 * the timeline at the whole run's zoom, however narrow: a marker where a slice is too thin to
 * see or hidden in a merged pixel column. (The Python original looked at the thinnest match
 * only, and failed now and then where the axis's tick line crossed it.)
 */
export async function checkSearchSlowestFirst(ctx) {
  const {page} = ctx;
  const name = await js(page, `(() => {
      const stats = JSON.parse(document.getElementById('qprof-trace').textContent).stats;
      const names = qp.providers.map(p => p.name.toLowerCase());
      let best = null;
      for (const s of stats) {
          const name = names[s.provider];
          if (names.some((other, i) => i !== s.provider && other.includes(name))) continue;
          if (!best || s.runs > best.runs) best = s;
      }
      return best && qp.providers[best.provider].name;
  })()`);
  if (!name) throw new CheckFailed("no provider whose name is in no other's to search for");
  await click(page, '#search');
  await call(page, "(text) => { const s = document.getElementById('search'); s.value = text; }",
             name);
  await page.keyboard.press('Enter');
  await settle(page);
  const first = await searchState(page);
  const longest = await call(page, `(text) => {
      const stats = JSON.parse(document.getElementById('qprof-trace').textContent).stats;
      const p = qp.providers.findIndex(x => x.name === text);
      return stats[p].max_ns;
  }`, name);
  if (!first.status.includes('match 1 of')) {
    throw new CheckFailed(`searching ${JSON.stringify(name)}, the status reads ` +
                          `${JSON.stringify(first.status)}, not 'match 1 of N'`);
  }
  if (first.dur !== longest) {
    throw new CheckFailed(`searching ${JSON.stringify(name)}, the first match shown takes ` +
                          `${first.dur} ns; its longest run ${longest} ns: not slowest first`);
  }
  await page.keyboard.press('Enter');
  await settle(page);
  const second = await searchState(page);
  if (!second.status.includes('match 2 of') || second.dur > first.dur) {
    throw new CheckFailed(`Enter went to ${JSON.stringify(second.status)} (${second.dur} ns) ` +
                          `after the slowest (${first.dur} ns)`);
  }
  // Back past the first: the last match, the shortest (past the ranked first 256, the rest is
  // ranked when the walk gets there).
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.press('Shift+Enter');
  await settle(page);
  const last = await searchState(page);
  const count = /of ([\d,]+),/.exec(first.status);
  if (!count) {
    throw new CheckFailed(`the status ${JSON.stringify(first.status)} gives no match count`);
  }
  const total = Number(count[1].replace(/,/g, ''));
  if (!last.status.includes(`match ${total.toLocaleString('en-US')} of`) ||
      last.dur > second.dur) {
    throw new CheckFailed(`Shift+Enter twice from match 2 went to ${JSON.stringify(last.status)} ` +
                          `(${last.dur} ns), not the last and shortest match`);
  }
  await click(page, '#timeline-reset');
  await settle(page);
  // Every match in the rows shown at this zoom has the match colour in its column (the
  // column of its start, which its marker covers; or, for a wider one, one of its first
  // columns), however thin; but not where the page draws over it on purpose: the time axis's
  // tick lines (across every row, half opaque) and the edges of the selection's outline (the
  // last match, on its row).
  const seen = await js(page, `(() => {
      const st = window.qprof.timeline(), c = document.getElementById('timeline-canvas');
      const k = c.width / c.clientWidth;
      // Read through a copy: a second readback of the timeline's canvas makes Chromium warn
      // on the console (checkTracks takes the one it may).
      const copy = document.createElement('canvas');
      copy.width = c.width;
      copy.height = c.height;
      const ctx = copy.getContext('2d', {willReadFrequently: true});
      ctx.drawImage(c, 0, 0);
      const data = ctx.getImageData(0, 0, c.width, c.height).data;
      const pixel = (x, y) => {
          const i = 4 * (Math.round(y * k) * c.width + Math.round(x * k));
          return [data[i], data[i + 1], data[i + 2]];
      };
      // The axis's rows just above the tracks hold only its background and the tick lines.
      const counts = {};
      for (let x = 0; x < st.width; x++) {
          const key = pixel(x, st.axis - 3).join(',');
          counts[key] = (counts[key] || 0) + 1;
      }
      const background = Object.keys(counts).reduce((a, b) => (counts[a] >= counts[b] ? a : b));
      const onTick = (x) => pixel(x, st.axis - 3).join(',') !== background;
      const sel = st.selected, S = sel && qp.threads[sel.t], edges = [];
      if (sel) {
          const a = window.qprof.timelineX(window.qprof.start(sel.t, sel.n));
          const b = a + Math.max(3, S.dur[sel.n] * st.width / (st.to - st.from));
          edges.push([Math.floor(a) - 2, Math.floor(a) + 1], [Math.floor(b) - 1, Math.floor(b) + 2]);
      }
      const underOutline = (t, T, n, x) => sel && t === sel.t && T.depth[n] === S.depth[sel.n] &&
          edges.some(([from, to]) => from <= x && x <= to);
      const hex = getComputedStyle(document.documentElement).getPropertyValue('--match').trim();
      const want = [1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16));
      const widthOf = (T, n) => T.dur[n] * st.width / (st.to - st.from);
      let count = 0, thin = null, wrong = 0, first = null;
      st.tracks.forEach((track, t) => {
          const T = qp.threads[t];
          for (let n = 0; n < T.len; n++) {
              if (!qp.isMatch(T, n) || T.depth[n] >= track.rows) continue;
              const y = track.y - st.scroll + st.head + (T.depth[n] + 0.5) * st.row;
              if (y < st.axis || y > st.height) continue;
              const x = Math.floor(window.qprof.timelineX(T.start[n]));
              if (x < 0 || x >= st.width) continue;
              // The columns it covers, up to 8: a wide slice's first column may be its border
              // or under a neighbour's label, so one column in the match colour shows it.
              const columns = [];
              for (let c = x; c <= Math.min(x + Math.floor(widthOf(T, n)), x + 8, st.width - 1); c++) {
                  if (!onTick(c) && !underOutline(t, T, n, c)) columns.push(c);
              }
              if (!columns.length) continue;
              count++;
              if (!thin || widthOf(T, n) < thin.width) thin = {t, n, width: widthOf(T, n)};
              const near = (px) => px.reduce((sum, v, i) => sum + Math.abs(v - want[i]), 0) <= 60;
              if (!columns.some(c => near(pixel(c, y)))) {
                  if (!first) first = {t, n, x: columns[0], width: widthOf(T, n), px: pixel(columns[0], y)};
                  wrong++;
              }
          }
      });
      return {count, thin, wrong, first, want, marks: st.marks};
  })()`);
  if (!seen.count) {
    throw new CheckFailed(`no match of ${JSON.stringify(name)} in the timeline's rows in view`);
  }
  if (seen.wrong) {
    const {t, n, x, width, px} = seen.first;
    throw new CheckFailed(`${seen.wrong} of the ${seen.count} matches in view are not drawn in ` +
                          `the match colour rgb(${seen.want.join(', ')}), e.g. node ${n} of ` +
                          `thread ${t} (${width.toFixed(4)} px wide): rgb(${px.join(', ')}) at ` +
                          `x ${x}`);
  }
  const detail = `all ${seen.count} matches in view are drawn in the match colour, the ` +
    `thinnest ${seen.thin.width.toFixed(4)} px wide`;
  if (seen.marks === 0) throw new CheckFailed("no match is marked at the whole run's zoom");
  await click(page, '#search');
  await page.keyboard.press('Escape');
  await settle(page);
  return `${JSON.stringify(name)}: ${first.status}; then ${second.status}; back to ` +
    `${last.status}; ${seen.marks} markers; ${detail}`;
}

/**
 * Each thread that recorded a counter (toyc's codegen workers: "cached symbols") has a graph
 * of it under its track: filled from its first value on and empty before it, and the tooltip
 * at its end gives the last value of the thread's series in the payload.
 */
export async function checkCounterGraphs(ctx) {
  const {page} = ctx;
  await click(page, '#timeline-reset');
  await settle(page);
  const box = await canvasBox(page);
  const payload = await js(page, `(() => { const p = JSON.parse(document.getElementById('qprof-trace')
      .textContent); return {names: p.counters || [], threads: p.threads.map(t =>
      (t.counters || []).map(c => ({counter: c.counter, time: c.time, value: c.value})))}; })()`);
  const tracks = (await state(page)).tracks.filter((track) => track.graphs > 0);
  if (!tracks.length) {
    throw new CheckFailed("no track has a counter graph; toyc records 'cached symbols' on each " +
                          'codegen worker');
  }
  const said = [];
  for (const track of tracks) {
    const series = payload.threads[track.thread];
    if (track.graphs !== series.length) {
      throw new CheckFailed(`the track of ${JSON.stringify(track.name)} draws ${track.graphs} ` +
                            `graphs for ${series.length} counters`);
    }
    await js(page, "document.getElementById('timeline-view').scrollTop = " +
                   Math.trunc(Math.max(0, track.graphY - 120)));
    await settle(page);
    const timeline = await state(page);
    const graph = timeline.tracks.find((t) => t.thread === track.thread);
    const y = graph.graphY - timeline.scroll; // canvas pixels
    const firstX = await call(page, '(ns) => window.qprof.timelineX(ns)', series[0].time[0]);
    const inked = await call(page, `(y, from) => {
        const c = document.getElementById('timeline-canvas');
        const k = c.width / c.clientWidth;
        const row = Math.round(y * k);
        // Read through a copy: the page's own canvas is read back once, by checkTracks (more
        // readbacks of it make Chromium warn on the console).
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
    }`, y + graph.graph - 4, firstX);
    if (firstX < 10 || inked.after < 0.9 || inked.before > 0.05) {
      throw new CheckFailed(`the graph of ${JSON.stringify(track.name)} is inked over ` +
                            `${(100 * inked.after).toFixed(0)} % of its width after its first ` +
                            `value (x ${firstX.toFixed(0)}) and ` +
                            `${(100 * inked.before).toFixed(0)} % before it`);
    }
    await page.mouse.move(box.left + timeline.width - 3, box.top + y + graph.graph - 6);
    await settle(page);
    const tip = await js(page, "(() => { const t = document.getElementById('timeline-tip');" +
                               " return t.hidden ? '' : t.textContent; })()");
    const counter = payload.names[series[0].counter];
    const lastValue = series[0].value.at(-1).toLocaleString('en-US');
    if (!tip.includes(counter) || !tip.includes('Value' + lastValue)) {
      throw new CheckFailed(`the tooltip at the end of ${JSON.stringify(track.name)}'s graph ` +
                            `says ${JSON.stringify(tip)}, not ${counter} = ${lastValue}`);
    }
    said.push(`${track.name}: ${counter} up to ${lastValue}`);
  }
  await page.mouse.move(box.left - 5, box.top - 5);
  return said.join('; ');
}
