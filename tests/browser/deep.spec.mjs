// The html report of one chain of queries 1,000 to 100,000 deep, in a real browser: the page
// becomes interactive at once, and what a user does to reach the deepest query -- the
// "Deepest nodes" link, a click on the chip of levels it skipped, the keys, a search -- each
// answers within a bounded time, the query drawn, selected, on screen, with its path. Nested
// boxes take a browser super-linear time to lay out (depth 300 used to hang it, depth 5,000
// took over 30 s to reveal), so from depth 32 a chain is drawn as one flat list of rows.
//
// One test per depth, each in a fresh page; every check's name starts with its depth.
// QPROF_TEST_DEPTHS (comma-separated, as DEPTHS below) checks other depths.
//
//   node tests/browser/run.mjs deep.spec.mjs --deep-chain build/tests/deep_chain --out /tmp/deep
//   QPROF_TEST_DEPTHS=1000,5000 node tests/browser/run.mjs deep.spec.mjs ...
import fs from 'node:fs';
import path from 'node:path';

import {CheckFailed, check, checkNoProblems, click, fileUrl, freshDir, inputs, js, runCommand, test,
  watchProblems} from './harness.mjs';
import {checkWholeRunStats} from './timeline_range_checks.mjs';
import {checkInitialViewTwin} from './tree_checks.mjs';

// Every user action within this, with the layout and the frame it causes; the page ready
// within READY_BUDGET_MS (parsing its ~4,000 initial elements, which a loaded machine slows
// most). On a 2-core machine shared with other builds they took 20-700 ms and 60-2,000 ms.
const ACTION_BUDGET_MS = 2000;
const READY_BUDGET_MS = 3000;
const DEPTHS = process.env.QPROF_TEST_DEPTHS || '1000,5000,5000s,20000,100000'; // "s": each level has side branches too
// A page that takes longer than this to answer has hung (as deep boxes once made it).
const ANSWER_TIMEOUT_MS = 30000;
const LOAD_TIMEOUT_MS = 60000;

test.use({viewport: {width: 1440, height: 900}});

/** The page is slower than ANSWER_TIMEOUT_MS to answer: the rest of its depth is not run. */
class PageHung extends Error {}

// Resolves, after the next frame is drawn, to the ms since window.__qpT0: an action's time
// including the layout and paint it causes.
const SINCE_MARK = `new Promise((r) => requestAnimationFrame(() => setTimeout(() =>
    r(performance.now() - window.__qpT0), 0)))`;

// The selected item of the tree in view: which node, how deep, whether it is on screen, and
// the path the details panel shows.
const SELECTION = `(() => {
    const el = document.querySelector('#trees .tree:not([hidden]) .selected');
    const r = el ? el.getBoundingClientRect() : null;
    const path = document.querySelector('#details [data-field=path]');
    const depth = document.querySelector('#details [data-field=depth]');
    return {n: el && el.dataset.n !== undefined ? Number(el.dataset.n) : null,
            depth: depth ? Number(depth.textContent) : null,
            focused: !!el && document.activeElement === el,
            expanded: el ? el.getAttribute('aria-expanded') : null,
            onScreen: !!r && r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight,
            path: path ? path.textContent : '',
            drawn: document.querySelectorAll('#trees .node').length,
            nesting: (() => { let most = 0;
                for (const x of document.querySelectorAll('#trees .node')) {
                    let k = 0; for (let p = x; p; p = p.parentElement.closest('.node')) k++;
                    if (k > most) most = k; if (most > 64) break; }
                return most; })()};
})()`;

// A hit whose parent a levels chip hides, well inside the chip's levels; or null.
const HIDDEN_HIT = `(() => {
    const chip = document.querySelector('#trees .levels');
    if (!chip) return null;
    const T = qp.threads[0], from = Number(chip.dataset.from), to = Number(chip.dataset.to);
    for (let n = from; n < to; n++) {
        if ((T.tag[n] & 7) === qp.HIT && T.depth[n] > T.depth[from] + 5) return n;
    }
    return null;
})()`;

// What breaks the flat lists' one rule, in pre-order: an item follows the row of its parent
// (inside that row's drawn subtree), or, for the bottom row of a levels chip, that chip.
const FLAT_LIST_PROBLEMS = `(() => {
    const T = qp.threads[0], problems = [];
    const holds = (h, s) => h.chip ? h.from <= s && s < h.from + T.size[h.from]
                                   : h.from < s && s < h.from + T.size[h.from];
    for (const box of document.querySelectorAll('#trees .node.depth-31')) {
        const open = [{from: Number(box.dataset.n), chip: false}];
        for (const el of box.children) {
            if (!qp.isItem(el)) continue;
            const s = qp.itemStart(el);
            while (open.length && !holds(open[open.length - 1], s)) open.pop();
            const h = open[open.length - 1];
            const ok = h && (h.chip ? s === h.from : T.parent[s] === h.from);
            if (!ok) problems.push('item ' + s + ' under ' + (h ? h.from : 'nothing'));
            if (qp.isNode(el)) open.push({from: s, chip: false});
            if (qp.isLevels(el)) open.push({from: Number(el.dataset.to), chip: true});
        }
    }
    return problems;
})()`;

// html_tree.cpp writes the rows the viewer would write, to the byte.
const ROWS_AS_VIEWER = `(() => { let rows = 0; const differ = [];
    for (const el of document.querySelectorAll('#trees .node.depth-31 > .node')) {
        rows++;
        const want = qp.rowHtml(qp.threads[0], Number(el.dataset.n));
        if (el.outerHTML !== want && differ.length < 2) differ.push(el.outerHTML, want);
    }
    return [rows, differ]; })()`;

/** `promise`, or PageHung after ANSWER_TIMEOUT_MS naming what was awaited. */
async function within(promise, what) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new PageHung(
      `timed out after ${ANSWER_TIMEOUT_MS / 1000} s waiting for ${what}`)), ANSWER_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Evaluates an expression in the page, or throws PageHung when the page does not answer. */
function ask(page, expression) {
  return within(js(page, expression), 'the page to evaluate ' +
                JSON.stringify(expression.replace(/\s+/g, ' ').slice(0, 80)));
}

/** Runs act() (which drives the page) and returns the ms until its frame was drawn. */
async function timed(page, act, what) {
  await ask(page, 'window.__qpT0 = performance.now()');
  await within(act(), what);
  return ask(page, SINCE_MARK);
}

/**
 * The time of a user's click on `selector`: Playwright first checks, untimed, that the element
 * is visible, steady and not covered (scrolling it into view), so that the time is the page's
 * answer to the click, not the driver's checks (which wait for frames of their own).
 */
async function timedClick(page, selector) {
  await within(click(page, selector, {trial: true}), `${selector} to be clickable`);
  return timed(page, () => click(page, selector, {force: true}), `a click on ${selector}`);
}

/** deep_chain's page of a chain `depth` deep (with side branches when `siblings`). */
async function writePage(depth, siblings, outDir) {
  freshDir(outDir);
  await runCommand([inputs.deepChain, String(depth), ...(siblings ? ['siblings'] : []),
    '-Z', 'profile-queries=html', '-Z', 'profile-queries-dir=' + outDir],
  'deep_chain writes the page', {timeoutMs: 120000});
  return path.join(outDir, 'profile_queries.html');
}

/** The checks of one depth's page; `label` is its spec ("5000s"). */
async function checkDepth(page, problems, pagePath, depth, label, outDir) {
  const name = (what) => `depth ${label}: ${what}`;
  /** A check whose outcome is already known: passed or not, with what was found. */
  const record = (what, ok, detail) => check(name(what), () => {
    if (!ok) throw new CheckFailed(detail);
    return detail;
  });
  const quick = (what, ms, ok = true, detail = '', budget = ACTION_BUDGET_MS) =>
    record(`${what} within ${budget} ms`, ok && ms < budget,
           `${Math.round(ms)} ms${detail ? '; ' + detail : ''}`);

  const started = performance.now();
  await within(page.goto(fileUrl(pagePath), {waitUntil: 'load', timeout: LOAD_TIMEOUT_MS}),
               'the load event');
  const ready = await ask(page, 'window.qprof.ready.then(() => [window.qprof.readyAt, ' +
                                'window.qprof.error])');
  await quick('the page is interactive', ready[0], ready[1] === null,
              `error ${JSON.stringify(ready[1])}, load ` +
              `${((performance.now() - started) / 1000).toFixed(1)} s`, READY_BUDGET_MS);

  const rows = await ask(page, ROWS_AS_VIEWER);
  await record("the page's rows are written as the viewer writes them",
               rows[0] > 0 && !rows[1].length, `${rows[0]} rows; ${rows[1].join(' vs ')}`);
  await check(name("the viewer draws the thread's tree as the page holds it"),
              () => checkInitialViewTwin({page}));

  // The user's way down: the first "Deepest nodes" link.
  const deepest = await ask(page, "Number(document.querySelector('#deepest a').dataset.n)");
  let ms = await timedClick(page, '#deepest a');
  const sel = await ask(page, SELECTION);
  await quick('the deepest node is revealed from its link', ms, sel.n === deepest,
              `node ${sel.n} of ${deepest}`);
  await record('it is selected, focused, on screen, with its path',
               sel.focused && sel.onScreen && sel.depth >= depth &&
               (depth <= 12 || sel.path.includes('more')),
               `depth ${sel.depth}, ${sel.drawn} nodes drawn`);
  await record('boxes nest at most 33 deep', sel.nesting <= 33, String(sel.nesting));
  await within(page.screenshot({path: path.join(outDir, `deep_chain_${depth}.png`)}),
               'a screenshot');

  // The levels the reveal skipped: a click draws the next ones, and no more.
  const chips = await ask(page, "document.querySelectorAll('#trees .levels').length");
  if (depth > 1000) {
    const before = sel.drawn;
    ms = await timedClick(page, '#trees .levels');
    const added = (await ask(page, SELECTION)).drawn - before;
    await quick('a click on the chip of skipped levels draws the next ones', ms,
                chips === 1 && added > 0 && added <= 1000,
                `${chips} chip(s), ${added} nodes added`);
  }

  // A query the chip hides, on a branch of its own (a hit): revealing it redraws that part.
  const hidden = await ask(page, HIDDEN_HIT);
  if (hidden !== null) {
    ms = await timed(page, () => js(page, `window.qprof.reveal(0, ${hidden})`),
                     `window.qprof.reveal(0, ${hidden})`);
    const got = await ask(page, SELECTION);
    await quick('a query the chip hid is revealed', ms, got.n === hidden && got.onScreen,
                `node ${got.n} of ${hidden}`);
  }

  // A row halfway down, opened and closed (or closed and opened): its rows come and go.
  const middle = await ask(page, `(() => { const T = qp.threads[0]; let a = ${deepest};
      while (T.depth[a] > ${Math.floor(depth / 2)}) a = T.parent[a];
      return window.qprof.reveal(0, a) && a; })()`);
  const states = [await ask(page, SELECTION)];
  let slowest = 0;
  for (let i = 0; i < 2; ++i) {
    slowest = Math.max(slowest, await timed(page, () => page.keyboard.press('Enter'),
                                            'the Enter key'));
    states.push(await ask(page, SELECTION));
  }
  const flips = states.map((x) => x.expanded);
  const drawn = states.map((x) => x.drawn);
  const byState = Object.fromEntries(states.slice(1).map((x) => [x.expanded, x.drawn]));
  await quick('Enter toggles a row, twice', slowest,
              states.every((x) => x.n === middle) && flips[0] !== flips[1] &&
              flips[1] !== flips[2] && (byState.false ?? 0) < (byState.true ?? 0),
              `expanded ${JSON.stringify(flips)}, ${JSON.stringify(drawn)} nodes drawn`);
  const flatProblems = await ask(page, FLAT_LIST_PROBLEMS);
  await record('every drawn item follows what holds it', !flatProblems.length,
               flatProblems.slice(0, 3).join('; '));

  // Back to the deepest node, then the keys: up to its parent and down again.
  await within(click(page, '#deepest a'), 'a click on #deepest a');
  ms = await timed(page, () => page.keyboard.press('ArrowLeft'), 'the ArrowLeft key');
  const up = await ask(page, SELECTION);
  await quick('ArrowLeft selects the parent', ms, up.depth === sel.depth - 1,
              `depth ${up.depth}`);
  ms = await timed(page, () => page.keyboard.press('ArrowDown'), 'the ArrowDown key');
  const down = await ask(page, SELECTION);
  await quick('ArrowDown goes back down', ms, down.depth === sel.depth, `depth ${down.depth}`);

  // A search for every query of the chain: its first matches drawn, the first selected.
  ms = await timed(page, async () => {
    await js(page, "document.getElementById('search').focus()");
    await page.keyboard.insertText('chain');
    await page.keyboard.press('Enter');
  }, 'a search for "chain"');
  const status = await ask(page, "document.getElementById('search-status').textContent");
  // "match 1 of K, slowest first (D) · K matches in T threads"
  const said = /([\d,]+) match(?:es)? in /.exec(status);
  const matches = said ? Number(said[1].replace(/,/g, '')) : 0;
  await quick('a search matching every query answers', ms, matches > depth,
              `status ${JSON.stringify(status)}`);
  ms = await timed(page, () => page.keyboard.press('Enter'), 'the Enter key');
  await quick('Enter goes to the next match', ms);
  await check(name('no console problems'), () => within(checkNoProblems(page, problems, ''),
                                                        'the page to settle'));
}

for (const label of DEPTHS.split(',')) {
  test(`depth ${label}`, async ({page}) => {
    const problems = watchProblems(page);
    const depth = Number(label.replace(/s$/, ''));
    const outDir = path.join(inputs.out, label);
    const pagePath = await check(`depth ${label}: the page is written`, async () => {
      const started = performance.now();
      const written = await writePage(depth, label.endsWith('s'), outDir);
      return {detail: `in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
                      `${Math.floor(fs.statSync(written).size / 1024)} kB`, value: written};
    }, {stop: true});
    try {
      await checkDepth(page, problems, pagePath, depth, label, outDir);
    } catch (error) { // a hung page times out here; or the page lacks what the checks read
      await check(`depth ${label}: the page answers`, () => {
        throw new CheckFailed(error instanceof PageHung ? error.message
          : String(error?.message ?? error).split('\n')[0]);
      });
    }
    if (label.endsWith('s')) { // with a wait inside a wait of its own provider
      await check(`depth ${label}: the statistics of the whole run as a range are the payload's`,
                  () => checkWholeRunStats({page, problems, outDir}));
    }
  });
}
