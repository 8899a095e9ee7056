// The checks of the page as an analysis tool, run by html.spec.mjs on toyc's page: the first
// screen says where the time went, a provider's statistics lead to its slowest run, whose
// duration is the one the Chrome trace of the same run has, and that run is revealed in the
// tree with its path. Screenshots of each view go to the screenshots folder (README's images).
//
// Each check takes the test's context `ctx` ({page, problems, ...}, see html.spec.mjs) and
// returns a detail string or throws CheckFailed (harness.mjs).
import fs from 'node:fs';
import path from 'node:path';

import {CheckFailed, call, click, js, settle} from './harness.mjs';

const MS_RE = /^[\d,]+\.\d ms$/;
const REVEAL_TIMEOUT_MS = 10000;
const ANCHOR_TIMEOUT_MS = 5000;

/**
 * The first row of a "where the time went" list: name, provider index, time text and whether
 * all of it is inside the viewport.
 */
async function firstRow(page, listId) {
  return call(page, `(id) => {
      const li = document.querySelector('#' + id + ' li');
      if (!li) return null;
      const a = li.querySelector('a[data-provider]'), time = li.querySelector('.time');
      const r = li.getBoundingClientRect();
      return {name: a?.textContent, provider: Number(a?.dataset.provider),
              time: time?.textContent, onScreen: r.top >= 0 && r.bottom <= innerHeight &&
              r.left >= 0 && r.right <= innerWidth && r.width > 0};
  }`, listId);
}

/** The provider (pass when `activity`) with the largest stats[key], from the payload. */
async function payloadBest(page, key, activity) {
  return call(page, `(key, activity) => {
      const p = JSON.parse(document.getElementById('qprof-trace').textContent);
      let best = null;
      for (const s of p.stats) {
          if (p.providers[s.provider].activity !== activity) continue;
          if (best === null || s[key] > best[key]) best = s;
      }
      return best && {name: p.providers[best.provider].name, ns: best[key]};
  }`, key, activity);
}

/** The name of the provider whose statistics #details shows (undefined when none). */
async function shownProvider(page) {
  return js(page, "document.querySelector('#details [data-field=provider]')?.textContent");
}

/** A name percent-encoded for a URL's fragment, '/' kept (as Python's urllib.parse.quote). */
function quote(text) {
  return encodeURIComponent(text).replace(/%2F/g, '/')
    .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/**
 * At load, without scrolling: the most expensive pass and the provider with the most self
 * time, each with a time in ms.
 */
export async function checkFirstScreen(ctx) {
  const {page} = ctx;
  await js(page, 'window.scrollTo(0, 0)');
  const said = [];
  for (const [listId, key, activity, what] of [['hot-passes', 'work_ns', true, 'pass'],
    ['hot-providers', 'self_ns', false, 'provider']]) {
    const row = await firstRow(page, listId);
    const best = await payloadBest(page, key, activity);
    if (row == null || best == null) {
      throw new CheckFailed(`no #${listId} list, or no ${what} in the payload's stats`);
    }
    if (row.name !== best.name) {
      throw new CheckFailed(`#${listId} names ${JSON.stringify(row.name)} first, the payload's ` +
                            `costliest ${what} is ${JSON.stringify(best.name)}`);
    }
    if (!MS_RE.test(row.time ?? '')) {
      throw new CheckFailed(`#${listId} gives ${JSON.stringify(row.time ?? null)} for ` +
                            `${JSON.stringify(row.name)}: not a time in ms`);
    }
    if (!row.onScreen) {
      throw new CheckFailed(`#${listId}'s first row (${JSON.stringify(row.name)}) is not on the ` +
                            'first screen');
    }
    said.push(`${what} ${row.name} ${row.time}`);
  }
  return said.join('; ');
}

/**
 * The longest complete event named `name` in a Chrome trace, in ns (the trace has µs with 3
 * decimals).
 */
// How much earlier the Chrome trace may end an event than the page (chrome_reporter.cpp's
// written_end): a nanosecond or two so that ts + dur added in floating point stays within the
// exact end, and as much again for each ancestor ending at the same instant, whose shortened
// end the event is kept within. toyc's codegen runs sit two or three levels deep.
export const CHROME_END_SLACK_NS = 6;

export function chromeMaxDurationNs(chromePath, name) {
  const events = JSON.parse(fs.readFileSync(chromePath, 'utf8')).traceEvents;
  const durations = events.filter((e) => e.ph === 'X' && e.name === name).map((e) => e.dur);
  if (!durations.length) {
    throw new CheckFailed(`${chromePath} has no complete event named ${JSON.stringify(name)}`);
  }
  return Math.round(Math.max(...durations) * 1000);
}

/**
 * A click on the provider with the most self time lists its slowest run first, as long as the
 * longest event of that provider in the Chrome trace of the same run.
 */
export async function checkSlowestRun(ctx, chromePath) {
  const {page} = ctx;
  const row = await firstRow(page, 'hot-providers');
  if (row == null) throw new CheckFailed('no #hot-providers list');
  await click(page, '#hot-providers li:first-child a[data-provider]');
  await settle(page);
  const runs = await js(page, `[...document.querySelectorAll('#details #slowest-runs a[data-ns]')]
      .map(a => ({ns: Number(a.dataset.ns), text: a.textContent}))`);
  const shown = await shownProvider(page);
  if (shown !== row.name) {
    throw new CheckFailed(`clicking ${JSON.stringify(row.name)} shows the statistics of ` +
                          JSON.stringify(shown ?? null));
  }
  if (!runs.length) {
    throw new CheckFailed(`the statistics of ${JSON.stringify(row.name)} list no slowest run`);
  }
  if (runs.some((run) => run.ns > runs[0].ns)) {
    throw new CheckFailed('the first of the slowest runs is not the longest: ' +
                          JSON.stringify(runs));
  }
  const expected = chromeMaxDurationNs(chromePath, row.name);
  if (runs[0].ns - expected < 0 || runs[0].ns - expected > CHROME_END_SLACK_NS) {
    throw new CheckFailed(`the slowest run of ${JSON.stringify(row.name)} takes ${runs[0].ns} ns ` +
                          `here, ${expected} ns in the Chrome trace`);
  }
  return `${JSON.stringify(row.name)}: ${runs.length} runs listed, the first ${runs[0].text} ` +
    `(${expected} ns, as in the Chrome trace)`;
}

/** A click on the slowest run shows it in the tree, selected, with its path. */
export async function checkRunRevealed(ctx) {
  const {page} = ctx;
  const target = await js(page, `(() => { const a = document.querySelector('#slowest-runs a[data-n]');
      return a && {t: a.dataset.thread, n: a.dataset.n}; })()`);
  if (target == null) throw new CheckFailed('no run to click in #slowest-runs');
  await click(page, '#slowest-runs a[data-n]');
  // The tree draws the path to the run as it reveals it: wait until the run is selected.
  const deadline = performance.now() + REVEAL_TIMEOUT_MS;
  let found;
  for (;;) {
    await settle(page);
    found = await call(page, `(t, n) => {
        const el = document.querySelector('#tree-' + t + ' .node[data-n="' + n + '"]');
        const path = document.querySelector('#details [data-field=path]');
        return {drawn: !!el, selected: !!el && el.classList.contains('selected'),
                shown: !!el && !el.closest('[hidden]'), path: path?.textContent ?? null};
    }`, target.t, target.n);
    if (found.selected || performance.now() > deadline) break;
  }
  if (!(found.drawn && found.selected && found.shown)) {
    const state = !found.drawn ? 'not drawn' : !found.selected ? 'not selected'
      : 'in a hidden tree';
    throw new CheckFailed(`after the click, node ${target.n} of thread ${target.t} is ${state}` +
                          (found.selected ? '' : ` (waited ${REVEAL_TIMEOUT_MS} ms for it to ` +
                           'be selected)'));
  }
  if (!found.path || !found.path.includes('Path from the root')) {
    throw new CheckFailed('the details of the revealed run give no path: ' +
                          JSON.stringify(found.path));
  }
  return `node ${target.n} of thread ${target.t} selected; ${found.path.slice(0, 80)}`;
}

/** A screenshot of the viewport, saved as `name` in `directory`; nothing without one. */
export async function screenshot(ctx, directory, name) {
  if (!directory) return 'no --screenshots directory';
  fs.mkdirSync(directory, {recursive: true});
  const file = path.join(directory, name);
  await settle(ctx.page);
  await ctx.page.screenshot({path: file});
  return file;
}

/**
 * The drawn top-level nodes of the shown tree: [n, work, wait] in page order; work is the
 * duration less the waits inside, and a wait (blocked) has none.
 */
async function rootDurations(page) {
  return js(page, `(() => {
      const tree = [...document.querySelectorAll('#trees .tree')].find(t => !t.hidden);
      const T = qp.threads[Number(tree.dataset.thread)];
      return [...tree.children].filter(e => e.classList.contains('node'))
          .map(e => Number(e.dataset.n))
          .map(n => [n, qp.workOf(T, n), qp.isWait(T, n)]);
  })()`);
}

/** Chooses an order in the Order selector, as a user would (a change event). */
async function chooseOrder(page, value) {
  await call(page, `(v) => { const s = document.getElementById('order-select'); s.value = v;
      s.dispatchEvent(new Event('change', {bubbles: true})); }`, value);
  await settle(page);
}

/** Whether [n, work, wait] nodes are heaviest first: work before waits, most work first. */
function heaviestFirst(nodes) {
  return nodes.every((a, i) => {
    const b = nodes[i + 1];
    if (b === undefined) return true;
    // (a.wait, -a.work) <= (b.wait, -b.work), as tuples: false before true.
    return a[2] !== b[2] ? !a[2] : -a[1] <= -b[1];
  });
}

/**
 * Heaviest first (by work, waits after all work) on load; "call order" redraws the trees in
 * call order, and back.
 */
export async function checkOrderSwitch(ctx) {
  const {page} = ctx;
  const numbers = (nodes) => nodes.map(([n]) => n);
  const heaviest = await rootDurations(page);
  if (heaviest.length < 2) {
    throw new CheckFailed(`fewer than 2 top-level nodes drawn: ${JSON.stringify(heaviest)}`);
  }
  if (!heaviestFirst(heaviest)) {
    throw new CheckFailed('on load the top-level nodes are not heaviest first by work: ' +
                          JSON.stringify(heaviest));
  }
  await chooseOrder(page, 'call');
  const callOrder = await rootDurations(page);
  const ascending = numbers(callOrder).slice().sort((a, b) => a - b);
  if (JSON.stringify(numbers(callOrder)) !== JSON.stringify(ascending)) {
    throw new CheckFailed('in call order the top-level nodes are not in call order: ' +
                          JSON.stringify(callOrder));
  }
  await chooseOrder(page, 'heaviest');
  const again = await rootDurations(page);
  if (JSON.stringify(numbers(again)) !== JSON.stringify(numbers(heaviest))) {
    throw new CheckFailed('back to heaviest first, the top-level nodes are ' +
                          `${JSON.stringify(again)}, not ${JSON.stringify(heaviest)}`);
  }
  return `heaviest first ${JSON.stringify(numbers(heaviest).slice(0, 5))}, call order ` +
    JSON.stringify(numbers(callOrder).slice(0, 5));
}

/**
 * In the pass that waits for its workers (toyc's code generation), heaviest first puts the
 * work before the wait, which is labelled as waiting and has no share of busy time.
 */
export async function checkWaitAfterWork(ctx) {
  const found = await js(ctx.page, `(() => {
      const T = qp.threads[0];
      let wait = -1;
      for (let n = 0; n < T.len; n++) if (qp.isWait(T, n) && T.parent[n] >= 0) { wait = n; break; }
      if (wait < 0) return null;
      const el = qp.ensurePath(0, wait);
      const siblings = el ? [...el.parentElement.children].filter(e => e.matches('.node, .fold')) : [];
      return {label: qp.labelOf(T, wait), at: siblings.indexOf(el), count: siblings.length,
              before: siblings.slice(0, Math.max(0, siblings.indexOf(el))).map(e =>
                  e.classList.contains('fold') ? 'fold' : e.className.split(' ')[1]),
              share: qp.shareText(T, wait)};
  })()`);
  if (found == null) {
    throw new CheckFailed('thread 0 has no wait inside a pass (toyc waits for its workers)');
  }
  if (found.at < 0) {
    throw new CheckFailed(`the wait is not drawn among its siblings: ${JSON.stringify(found)}`);
  }
  if (found.at !== found.count - 1 && found.count > 1) {
    throw new CheckFailed(`the wait is drawn at ${found.at} of ${found.count} siblings: waits go ` +
                          'after all work');
  }
  if (found.share !== 'waiting' || (found.label && !found.label.endsWith('waiting'))) {
    throw new CheckFailed(`the wait's share reads ${JSON.stringify(found.share)} and its label ` +
                          `${JSON.stringify(found.label)}: a wait is not work`);
  }
  return `the wait comes last of ${found.count} siblings, after ` +
    `${JSON.stringify(found.before.slice(0, 4))}; label ${JSON.stringify(found.label)}`;
}

/**
 * The top provider's statistics name its callers and callees, merged over the run; a click on
 * a caller opens that provider's statistics.
 */
export async function checkCallersCallees(ctx) {
  const {page} = ctx;
  await click(page, '#hot-providers li:first-child a[data-provider]');
  await settle(page);
  const found = await js(page, `(() => {
      const names = (id) => [...document.querySelectorAll('#details #' + id + ' a')]
          .map(a => a.textContent);
      return {callers: names('callers'), callees: names('callees')};
  })()`);
  if (!found.callers.length) {
    throw new CheckFailed(`the top provider's statistics list no caller: ${JSON.stringify(found)}`);
  }
  await click(page, '#details #callers a[data-provider]');
  await settle(page);
  const shown = await shownProvider(page);
  if (shown !== found.callers[0]) {
    throw new CheckFailed(`clicking the caller ${JSON.stringify(found.callers[0])} shows ` +
                          JSON.stringify(shown ?? null));
  }
  return `called by ${JSON.stringify(found.callers.slice(0, 3))}; calls ` +
    JSON.stringify(found.callees.slice(0, 3));
}

/**
 * profile_queries.html#provider=NAME, as the flame graph links, opens NAME's statistics;
 * #pass=NAME those of the pass NAME.
 */
export async function checkProviderAnchor(ctx) {
  const {page} = ctx;
  const said = [];
  for (const [anchor, listId, heading] of [['provider', 'hot-providers', 'Provider '],
    ['pass', 'hot-passes', 'Pass ']]) {
    const name = await js(page,
                          `document.querySelector('#${listId} li:nth-child(2) a')?.textContent`);
    if (!name) throw new CheckFailed(`no second entry in #${listId}`);
    await call(page, '(h) => { window.location.hash = h; }',
               `${anchor}=${quote(name)}`);
    const wanted = JSON.stringify([heading + name, name]);
    const deadline = performance.now() + ANCHOR_TIMEOUT_MS;
    let shown = null;
    while (performance.now() < deadline && JSON.stringify(shown) !== wanted) {
      await settle(page);
      shown = await js(page, `(() => {
          const h = document.querySelector('#details h2');
          const f = document.querySelector('#details [data-field=provider]');
          return h && f ? [h.textContent, f.textContent] : null; })()`);
    }
    if (JSON.stringify(shown) !== wanted) {
      throw new CheckFailed(`#${anchor}=${name} shows ${JSON.stringify(shown)} (waited ` +
                            `${ANCHOR_TIMEOUT_MS} ms)`);
    }
    said.push(`#${anchor}=${name}`);
  }
  return `${said.join(' and ')} show their statistics`;
}

/**
 * A screenshot of one section of a provider's statistics (`section`: the id of its table in
 * #details; callers with the callees below them), scrolled into view: for the most-asked keys,
 * the provider with the most hits among those with keys; for callers and callees, the provider
 * with the most self time.
 */
export async function screenshotStatistics(ctx, directory, name, section) {
  if (!directory) return 'no --screenshots directory';
  const shown = await call(ctx.page, `(section) => {
      let p = Number(document.querySelector('#hot-providers li a[data-provider]')?.dataset.provider);
      if (section === 'top-keys') {
          const keyed = qp.stats.map((s, i) => [s ? s.hits : -1, s && s.keys.length > 0, i])
              .filter(([, keys]) => keys).sort((a, b) => b[0] - a[0]);
          if (keyed.length === 0) return null;
          p = keyed[0][2];
      }
      qp.showProvider(p);
      const box = document.getElementById('details');
      const table = box.querySelector('#' + section);
      if (!table) return null;
      // The panel sticks below the controls: bring the trees' top into view, then scroll the
      // panel only as far as the section needs, so that its heading stays in view.
      document.getElementById('trees').scrollIntoView({block: 'start'});
      const last = section === 'callers' ? box.querySelector('#callees') || table : table;
      const below = last.getBoundingClientRect().bottom - box.getBoundingClientRect().bottom;
      if (below > 0) box.scrollTop += below + 12;
      return qp.providers[p].name;
  }`, section);
  if (shown == null) {
    return `no #${section} to show (keys recorded only with -Z profile-queries-and-keys)`;
  }
  return `${shown}: ${await screenshot(ctx, directory, name)}`;
}
