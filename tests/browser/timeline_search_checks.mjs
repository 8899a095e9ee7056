// The checks of a search on the timeline, run by html.spec.mjs on toyc's page: what a search
// does not match is dimmed, and its matches are walked slowest first, each shown on the
// timeline.
//
// Each check takes the test's context `ctx` ({page, problems, ...}: what the checks learn on
// the way, see html.spec.mjs) and returns a detail string or throws CheckFailed (harness.mjs).
import {CheckFailed, call, click, js, settle} from './harness.mjs';
import {state} from './timeline_page.mjs';

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
