// Memory per query in the html report and the flame graph, in a real browser (headless
// Chromium).
//
// Runs toyc with -Z profile-queries-memory, writing its raw stream, html report and flame graph,
// and checks what a user looking for allocations meets: the provider table's memory columns give
// each provider's bytes exactly as `qprof summarize --json` of the same run; the viewer's own
// statistics of the whole run (statsOfRange) give the payload's memory; each thread's self memory,
// derived by the viewer, adds up to what its top-level scopes allocated; a provider's statistics
// and the details of a node, a fold and a chip show memory; the flame graph's switch weighs its
// frames by bytes. Nothing may be reported on the console.
//
//   node tests/browser/run.mjs memory.spec.mjs --toyc build/examples/toyc --qprof build/qprof --out /tmp/memory
import fs from 'node:fs';
import path from 'node:path';

import {CheckFailed, call, check, checkNoProblems, fileUrl, inputs, js, load, runCommand, settle,
  test, watchProblems} from './harness.mjs';

const LOAD_TIMEOUT_MS = 60000;
const MEMORY_FIELDS = ['alloc_bytes', 'allocs', 'retained_bytes',
  'self_alloc_bytes', 'self_allocs', 'self_retained_bytes'];

test.use({viewport: {width: 1440, height: 900}});

/** toyc's reports with memory, and `qprof summarize --json` of its raw stream. */
async function runToyc(outDir) {
  fs.mkdirSync(outDir, {recursive: true});
  for (const name of fs.readdirSync(outDir)) { // qprof never overwrites: a stale run would stay
    if (name.startsWith('profile_queries')) fs.rmSync(path.join(outDir, name));
  }
  await runCommand([inputs.toyc, '--items', '400', '-Z', 'profile-queries=raw,html,flamegraph',
    '-Z', 'profile-queries-memory'], 'toyc with memory', {cwd: outDir, timeoutMs: 120000});
  return JSON.parse(await runCommand([inputs.qprof, 'summarize', '--json', '-q',
    path.join(outDir, 'profile_queries.qprof')], 'qprof summarize', {timeoutMs: 120000}));
}

// ----- the html report -----

const TABLE_JS = `(() => {
    const heads = Array.from(document.querySelectorAll('#provider-table thead th'))
        .map((th) => th.dataset.sort || '');
    return Array.from(document.querySelectorAll('#provider-table tbody tr')).map((r) => {
        const p = qp.providers[Number(r.dataset.provider)];
        const cells = {};
        heads.forEach((h, i) => { if (h) cells[h] = r.cells[i].dataset.value; });
        return [p.name, p.activity, cells];
    });
})()`;

/** Each provider's memory in the table is its memory in `qprof summarize --json`. */
async function checkTable(page, summary) {
  const rows = await js(page, TABLE_JS);
  const wanted = new Map(summary.providers.map((p) => [`${p.provider}\0${p.activity}`, p]));
  const columns = {
    'alloc': 'allocated_bytes', 'allocs': 'allocations', 'retained': 'retained_bytes',
    'self-alloc': 'self_allocated_bytes', 'self-allocs': 'self_allocations',
    'self-retained': 'self_retained_bytes',
  };
  let allocating = 0;
  for (const [name, activity, cells] of rows) {
    const expected = wanted.get(`${name}\0${activity}`);
    if (expected === undefined) throw new CheckFailed(`the table has ${JSON.stringify(name)}, summarize has not`);
    for (const [column, field] of Object.entries(columns)) {
      if (!(column in cells)) throw new CheckFailed(`the table has no column ${JSON.stringify(column)}`);
      if (Number(cells[column]) !== expected[field]) {
        throw new CheckFailed(`${name}: ${column} ${cells[column]} in the table, ` +
                              `${field} ${expected[field]} in summarize`);
      }
    }
    allocating += expected.self_allocated_bytes > 0 ? 1 : 0;
  }
  if (allocating === 0) {
    throw new CheckFailed("no provider allocated anything: is toyc's allocation hook in?");
  }
  return `${rows.length} providers, ${allocating} of them allocating`;
}

/**
 * The viewer's statistics of the whole run give the payload's memory exactly, and its
 * per-node self memory adds up to what each thread's top-level scopes allocated.
 */
async function checkWholeRun(page) {
  const found = await call(page, `(fields) => {
      const p = JSON.parse(document.getElementById('qprof-trace').textContent);
      const mine = window.qprof.statsOfRange(0, Infinity), out = [];
      for (const s of p.stats) {
          const m = mine[s.provider];
          for (const f of fields) {
              if ((m ? m[f] : 0) !== s[f]) out.push(p.providers[s.provider].name + '.' + f + ': ' + (m && m[f]) + ' vs ' + s[f]);
          }
      }
      qp.threads.forEach((T, t) => {
          if (!T.memory) { out.push('thread ' + t + ' has no memory'); return; }
          let self = 0, top = 0;
          for (let n = 0; n < T.len; n++) self += T.memory.selfAlloc[n];
          for (let n = 0; n < T.len; n += T.size[n]) top += T.memory.alloc[n];
          if (self !== top) out.push('thread ' + t + ': self memory sums to ' + self + ', its roots allocated ' + top);
      });
      return {problems: out.slice(0, 6), count: out.length, providers: p.stats.length};
  }`, MEMORY_FIELDS);
  if (found.count) {
    throw new CheckFailed(`${found.count} differences, e.g. ${JSON.stringify(found.problems)}`);
  }
  return `${found.providers} providers agree`;
}

/** A click on the provider that allocated most shows its memory, inclusive and self. */
async function checkProviderDetails(page) {
  const shown = await js(page, `(() => {
      const stats = qp.stats.filter((s) => s.alloc_bytes > 0);
      stats.sort((a, b) => b.self_alloc_bytes - a.self_alloc_bytes);
      const s = stats[0];
      document.querySelector('#provider-table tbody tr[data-provider="' + s.provider + '"] a').click();
      const dd = document.querySelector('#details dd[data-field="alloc"]');
      return {name: qp.providers[s.provider].name, text: dd ? dd.textContent : null,
              expected: qv.bytesText(s.alloc_bytes) + ' \\u00b7 self ' + qv.bytesText(s.self_alloc_bytes)};
  })()`);
  if (shown.text !== shown.expected) {
    throw new CheckFailed(`${shown.name}'s statistics read ${JSON.stringify(shown.text)}, ` +
                          `expected ${JSON.stringify(shown.expected)}`);
  }
  return `${shown.name}: Allocated ${shown.text}`;
}

/**
 * A click on the first drawn box shows what its node allocated. The click goes to the box's
 * label, brought to the middle of the view: a box taller than the view, centred, would have its
 * corner above it, and the click would miss.
 */
async function checkNodeDetails(page) {
  const box = await js(page, `(() => {
      const el = document.querySelector('#tree-0 .node:not(.hit)[data-n]');
      const label = el.querySelector(':scope > .label');
      label.scrollIntoView({block: 'center'});
      const r = label.getBoundingClientRect();
      return {n: Number(el.dataset.n), x: r.left + 4, y: r.top + r.height / 2};
  })()`);
  await page.mouse.click(box.x, box.y);
  await settle(page);
  const shown = await call(page, `(n) => {
      const dd = document.querySelector('#details dd[data-field="alloc"]');
      const M = qp.threads[0].memory;
      return {text: dd ? dd.textContent : null,
              expected: qv.bytesText(M.alloc[n]) + ' \\u00b7 self ' + qv.bytesText(M.selfAlloc[n])};
  }`, box.n);
  if (shown.text !== shown.expected) {
    throw new CheckFailed(`node ${box.n}'s details read ${JSON.stringify(shown.text)}, ` +
                          `expected ${JSON.stringify(shown.expected)}`);
  }
  return `node ${box.n}: ${shown.text}`;
}

/**
 * The details of a fold ("⋯ N runs") and of a chip show the memory of the queries they hold,
 * as a node's do: their top-level nodes' summed, inclusive and self (hits and unfinished
 * scopes carry none). Toyc's report folds queries in the first thread's tree.
 */
async function checkFoldDetails(page) {
  const found = await js(page, `(() => {
      const out = [];
      const span = (el) => Number(el.dataset.to) - Number(el.dataset.from);
      for (const kind of ['.fold:not([data-provider])', '.fold[data-provider]']) {
          // The widest of its kind: the likeliest to have allocated.
          const el = [...document.querySelectorAll('#trees ' + kind)]
              .reduce((a, b) => (a && span(a) >= span(b) ? a : b), null);
          if (!el) { out.push({kind, missing: true}); continue; }
          const t = Number(el.closest('.tree').dataset.thread), T = qp.threads[t], M = T.memory;
          let tops = [];
          if (el.dataset.provider !== undefined) {
              tops = qp.chipMembers(t, el);
          } else {
              for (let c = Number(el.dataset.from); c < Number(el.dataset.to); c += T.size[c]) tops.push(c);
          }
          let alloc = 0, self = 0;
          for (const c of tops) {
              if (qp.isHit(T, c) || qp.isUnfinished(T, c)) continue;
              alloc += M.alloc[c];
              self += M.selfAlloc[c];
          }
          qp.showDetails(t, el, false);
          const dd = document.querySelector('#details dd[data-field="alloc"]');
          out.push({kind, text: dd ? dd.textContent : null, tops: tops.length, alloc,
                    expected: qv.bytesText(alloc) + ' \u00b7 self ' + qv.bytesText(self)});
      }
      return out;
  })()`);
  const problems = found.filter((f) => f.missing || f.text !== f.expected);
  if (problems.length) throw new CheckFailed(JSON.stringify(problems));
  if (found.every((f) => f.alloc === 0)) throw new CheckFailed('no fold nor chip allocated: nothing checked');
  return found.map((f) => `${f.kind} of ${f.tops} top-level nodes: ${f.text}`).join('; ');
}

/**
 * The timeline's tip over the slice that allocated most, and the details a click on it
 * selects, give its memory as the tree's details do. (Kept apart: one check, one function.)
 */
async function checkTimelineMemory(page) {
  const target = await js(page, `(() => {
      const T = qp.threads[0], M = T.memory;
      let n = -1;
      for (let m = 0; m < T.len; m++) if (!qp.isHit(T, m) && (n < 0 || M.alloc[m] > M.alloc[n])) n = m;
      qp.timelineShow(0, n);
      const s = window.qprof.timeline();
      const canvas = document.getElementById('timeline-canvas');
      // The slice's row in the page, brought to the middle of the view: the timeline moves to
      // the node in place, and an earlier check may have scrolled the page past it.
      const row = s.tracks[0].y - s.scroll + s.head + (T.depth[n] + 0.5) * s.row;
      window.scrollTo(0, canvas.getBoundingClientRect().top + window.scrollY + row - innerHeight / 2);
      const r = canvas.getBoundingClientRect();
      return {n, x: r.left + window.qprof.timelineX(window.qprof.start(0, n) + T.dur[n] / 2),
              y: r.top + row,
              expected: qv.bytesText(M.alloc[n]) + ' \\u00b7 self ' + qv.bytesText(M.selfAlloc[n])};
  })()`);
  await page.mouse.move(target.x, target.y);
  await settle(page);
  const tip = await js(page, "document.querySelector('#timeline-tip:not([hidden]) " +
                             "dd[data-field=\"alloc\"]')?.textContent ?? null");
  if (tip !== target.expected) {
    throw new CheckFailed(`the tip over node ${target.n} reads ${JSON.stringify(tip)}, ` +
                          `expected ${JSON.stringify(target.expected)}`);
  }
  await page.mouse.click(target.x, target.y);
  await settle(page);
  const details = await js(page, `(() => {
      const dd = document.querySelector('#details dd[data-field="alloc"]');
      return {text: dd ? dd.textContent : null, selected: window.qprof.timeline().selected};
  })()`);
  const selected = details.selected;
  const isTarget = selected !== null && typeof selected === 'object' &&
    Object.keys(selected).length === 2 && selected.t === 0 && selected.n === target.n;
  if (!isTarget || details.text !== target.expected) {
    throw new CheckFailed(`after a click on node ${target.n}'s slice: selected ` +
                          `${JSON.stringify(details.selected)}, details ` +
                          `${JSON.stringify(details.text)}, expected ` +
                          JSON.stringify(target.expected));
  }
  return `node ${target.n}: Allocated ${tip} in the tip and the details`;
}

// ----- the flame graph -----

/**
 * The switch makes frames as wide as their bytes: each drawn frame's width is its share
 * of the root's bytes, and off again, of its time.
 */
async function checkFlameWeight(page) {
  const result = await js(page, `(() => {
      const api = window.qprofFlame;
      const box = document.getElementById('weight-bytes');
      if (!box || !api.state().memory) return {error: 'no switch, or no bytes in the payload'};
      box.click();
      const state = api.state();
      const root = api.frame(0);
      const out = [];
      for (let i = 1; i < state.frames; i++) {
          const f = api.frame(i), b = api.frameBox(i);
          if (b === null) continue;
          const expected = state.canvasWidth * f.total_bytes / root.total_bytes;
          if (Math.abs(b.width - expected) > 1.5) out.push(f.name + ': ' + b.width.toFixed(1) + ' px, expected ' + expected.toFixed(1));
      }
      const header = document.getElementById('total-allocated').textContent;
      box.click();
      return {weight: state.weight, after: api.state().weight, drawn: state.drawn, problems: out.slice(0, 5),
              header, expected: qv.bytesText(root.total_bytes)};
  })()`);
  if (result.error) throw new CheckFailed(result.error);
  if (result.weight !== 'bytes' || result.after !== 'time') {
    throw new CheckFailed(`the switch gave weights ${result.weight} then ${result.after}`);
  }
  if (result.problems.length) {
    throw new CheckFailed(`frames not as wide as their bytes: ${JSON.stringify(result.problems)}`);
  }
  if (result.header !== result.expected) {
    throw new CheckFailed(`the header says ${JSON.stringify(result.header)} allocated, ` +
                          `the root frame ${JSON.stringify(result.expected)}`);
  }
  return `${result.drawn} frames drawn by bytes; ${result.header} allocated`;
}

test('memory per query', async ({page}) => {
  const problems = watchProblems(page);
  const outDir = inputs.out;
  const summary = await check('toyc ran with -Z profile-queries-memory',
                              async () => ({detail: '', value: await runToyc(outDir)}),
                              {stop: true});
  const report = fileUrl(path.join(outDir, 'profile_queries.html'));
  if (await check('the report becomes ready',
                  () => load(page, report, 'qprof', LOAD_TIMEOUT_MS))) {
    await check("the table's memory is summarize's", () => checkTable(page, summary));
    await check("the viewer's memory of the whole run is the payload's",
                () => checkWholeRun(page));
    await check("a provider's statistics show its memory", () => checkProviderDetails(page));
    await check("a node's details show its memory", () => checkNodeDetails(page));
    await check("a fold's and a chip's details show their queries' memory",
                () => checkFoldDetails(page));
    await check("the timeline's tip and selection show a slice's memory",
                () => checkTimelineMemory(page));
  }
  const flame = fileUrl(path.join(outDir, 'profile_queries.flamegraph.html'));
  if (await check('the flame graph becomes ready',
                  () => load(page, flame, 'qprofFlame', LOAD_TIMEOUT_MS))) {
    await check('the flame graph weighs its frames by bytes at the switch',
                () => checkFlameWeight(page));
  }
  await check('no console problems', () => checkNoProblems(page, problems, 'during the test'));
});
