// The checks of the page's timeline as it is drawn, run by html.spec.mjs on toyc's page: one
// track per thread, slices where the Chrome trace of the same run has them, zoom by wheel, keys
// and buttons, each thread's counters drawn under its track, and a screenshot. What a
// selection, a range and a search do on it are in timeline_selection_checks.mjs,
// timeline_range_checks.mjs and timeline_search_checks.mjs.
//
// Each check takes the test's context `ctx` ({page, problems, ...}: what the checks learn on
// the way, see html.spec.mjs) and returns a detail string or throws CheckFailed (harness.mjs).
import fs from 'node:fs';

import {CHROME_END_SLACK_NS, screenshot} from './analysis_checks.mjs';
import {CheckFailed, call, click, js, settle} from './harness.mjs';
import {canvasBox, drag, focusTimeline, rowY, showRow, state, wheel} from './timeline_page.mjs';

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
  // The Chrome trace may end an event a few ns early (CHROME_END_SLACK_NS); it starts it exactly.
  const starts = events
    .filter((e) => e.ph === 'X' && e.name === run.name &&
                   run.ns - Math.round(e.dur * 1000) >= 0 &&
                   run.ns - Math.round(e.dur * 1000) <= CHROME_END_SLACK_NS)
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
