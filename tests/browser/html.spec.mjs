// The html reporter's page, checked in a real browser (headless Chromium).
//
// Runs toyc at its default size with -Z profile-queries, opens the profile_queries.html it
// writes, and checks the contract of docs/html-report.md as a user would meet it: the page
// becomes interactive, the C++-written initial view agrees with the viewer's rules, folds
// open on a click and with the keyboard, details, thread switching, table sorting and search
// work, and nothing is ever reported on the console. The analysis views' checks are in
// analysis_checks.mjs, the timeline's in timeline_checks.mjs; each takes `ctx` (below).
//
//   node tests/browser/run.mjs html.spec.mjs --toyc build/examples/toyc --out /tmp/html
//   node tests/browser/run.mjs html.spec.mjs --page /tmp/some/profile_queries.html --out /tmp/html
import fs from 'node:fs';
import path from 'node:path';

import * as analysis from './analysis_checks.mjs';
import {CheckFailed, call, check, checkMarkupEscaped, checkNoProblems, checkReady, click, fileUrl,
  inputs, js, navigate, note, runCommand, settle, test, watchProblems} from './harness.mjs';
import * as timeline from './timeline_checks.mjs';

const LOAD_TIMEOUT_MS = 90000; // the 1M-query page is tens of MB
const LABEL_RE = /^\S.* · \d+(\.\d+)? (ns|µs|ms|s) · ((\d+\.\d|<0\.1) %|waiting)$/;
const STATUS_RE = /([\d,]+) match(?:es)? in ([\d,]+) threads?/;
const SEARCH_TIMEOUT_MS = 30000;

// The size of the first screen the issue and README speak of.
test.use({viewport: {width: 1440, height: 900}});

// What the Python original's %r printed: a string quoted, a list of numbers as [1, 2, 3].
const say = JSON.stringify;
const listText = (numbers) => `[${numbers.join(', ')}]`;

/** Waits `ms` milliseconds. */
function sleep(ms) {
  return new Promise((done) => setTimeout(done, ms));
}

// ----- running toyc -----

/** Runs toyc with the html reporter into outDir; returns the page's path. */
async function runToyc(toyc, outDir, extraArgs) {
  fs.mkdirSync(outDir, {recursive: true});
  const page = path.join(outDir, 'profile_queries.html');
  // Stale reports must not pass for new ones, and qprof never overwrites a report: a run
  // finding profile_queries.* would write profile_queries-PID.* beside them.
  for (const name of fs.readdirSync(outDir)) {
    if (name.startsWith('profile_queries')) fs.rmSync(path.join(outDir, name), {recursive: true});
  }
  // The Chrome trace of the same run is what the slowest run's duration is checked against.
  const command = [toyc, '-Z', 'profile-queries=html,chrome', '-Z',
    'profile-queries-dir=' + outDir, ...extraArgs];
  const started = performance.now();
  await runCommand(command, 'toyc');
  const seconds = (performance.now() - started) / 1000;
  if (!fs.existsSync(page)) {
    throw new CheckFailed(`${command.join(' ')} did not write ${page} (is html among the ` +
                          'default reporters?)');
  }
  const size = fs.statSync(page).size;
  note(`toyc took ${seconds.toFixed(2)} s and wrote ${page} (${(size / 1e6).toFixed(1)} MB)`);
  return page;
}

// ----- checks on load -----

// How far down the page a kind of node may first appear: heaviest first, the first screen can
// be all one expensive pass whose queries are folded, depending on the times toyc measured.
const SCREENS_TO_LOOK = 4;

/**
 * Some nodes of `kind` (hit or miss) are visible in the tree shown on load, within its first
 * few screens. Sets ctx.firstTree.
 */
async function checkVisibleKind(ctx, kind) {
  const {page} = ctx;
  let found, screen;
  for (screen = 0; screen < SCREENS_TO_LOOK; ++screen) {
    found = await call(page, '(sel) => __qprofTest.visible(sel, 3)', '.node.' + kind);
    if ('error' in found || found.visible > 0 || found.total === 0) break;
    await js(page, `(() => { const tree = document.querySelector('#trees .tree:not([hidden])');
        if (tree) tree.scrollTop += tree.clientHeight; window.scrollBy(0, innerHeight); })()`);
    await settle(page);
  }
  screen = Math.min(screen, SCREENS_TO_LOOK - 1); // as Python's loop variable after the loop
  await js(page, `(() => { document.querySelectorAll('#trees .tree').forEach(t => t.scrollTop = 0);
      window.scrollTo(0, 0); })()`);
  await settle(page);
  if ('error' in found) throw new CheckFailed(found.error);
  ctx.firstTree = found.tree;
  if (found.total === 0) throw new CheckFailed(`no .node.${kind} element in the shown tree #${found.tree}`);
  if (found.visible === 0) {
    throw new CheckFailed(`#${found.tree} has ${found.total} .node.${kind} elements but none is ` +
                          `on its first ${SCREENS_TO_LOOK} screens (zero size, hidden, or ` +
                          'outside the viewport or the tree)');
  }
  return `${found.visible} of ${found.total} on screen ${screen + 1} of #${found.tree}`;
}

/** Every important node's label reads 'PROVIDER · T ms · P %' (or '· waiting'). */
async function checkImportantLabels(ctx) {
  const labels = await js(ctx.page, `[...document.querySelectorAll('#trees .node.important > .label')]
      .map(l => l.textContent)`);
  if (!labels.length) throw new CheckFailed("no '.node.important > .label' element in any tree");
  const bad = labels.filter((text) => !LABEL_RE.test(text));
  if (bad.length) {
    throw new CheckFailed(`${bad.length} of ${labels.length} labels do not match ` +
                          `${LABEL_RE.source}, e.g. ${bad.slice(0, 3).map(say).join(', ')}`);
  }
  return `${labels.length} labels, e.g. ${say(labels[0])}`;
}

/**
 * Every .node and .fold agrees with nodeClass/nodeLabel/foldText; stateClasses (such as
 * 'selected') are what the viewer adds on interaction and are left out.
 */
async function checkConsistency(ctx, who = 'C++-written', stateClasses = []) {
  const missing = await js(ctx.page, `['nodeClass', 'nodeLabel', 'foldText', 'chipText']
      .filter(f => typeof window.qprof?.[f] !== 'function')`);
  if (missing.length) {
    throw new CheckFailed('cannot compare: window.qprof lacks the function(s) ' + missing.join(', '));
  }
  const found = await call(ctx.page, '(classes) => __qprofTest.consistency(8, classes)',
                           stateClasses);
  if (found.nodes === 0) throw new CheckFailed('the page has no .node element at all');
  if (found.problems.length) {
    throw new CheckFailed(`the ${who} markup disagrees with the viewer's rules; first ` +
                          'mismatches:\n    ' + found.problems.join('\n    '));
  }
  return `${found.nodes} nodes and ${found.folds} folds agree with nodeClass/nodeLabel/foldText`;
}

// ----- checks by interaction -----

/** Unique selectors of the visible elements of the shown tree matching `selector`. */
async function visibleSelectors(ctx, selector, what) {
  const found = await call(ctx.page, '(sel) => __qprofTest.visible(sel, 50)', selector);
  if ('error' in found) throw new CheckFailed(found.error);
  if (!found.selectors.length) {
    throw new CheckFailed(`no visible ${what} in #${found.tree} (${found.total} in all)`);
  }
  return found.selectors;
}

/** A click on a fold replaces it by its nodes. Sets ctx.openedFold. */
async function checkFoldClick(ctx) {
  const {page} = ctx;
  const fold = (await visibleSelectors(ctx, '.fold:not([data-provider])', '.fold'))[0];
  const [first, end, text] = await call(page, `(s) => { const f = document.querySelector(s);
      return [+f.dataset.from, +f.dataset.to, f.textContent]; }`, fold);
  await click(page, fold);
  await settle(page);
  const after = await call(page, `(s, from, to) => {
      const tree = document.querySelector(s.split(' ')[0]);
      const nodes = [...tree.querySelectorAll('.node')]
          .filter(e => +e.dataset.n >= from && +e.dataset.n < to);
      return {still: document.querySelector(s) !== null, nodes: nodes.length,
              first: nodes.some(e => +e.dataset.n === from)};
  }`, fold, first, end);
  if (after.still) throw new CheckFailed(`clicked the fold ${fold} (${say(text)}) but it is still there`);
  if (after.nodes === 0 || !after.first) {
    throw new CheckFailed(`the fold [${first}, ${end}) is gone but no .node with data-n=${first} ` +
                          `(its first node) appeared; ${after.nodes} nodes in the range`);
  }
  ctx.openedFold = [first, end];
  return `fold [${first}, ${end}) ${say(text)} became ${after.nodes} nodes`;
}

/**
 * A list of siblings with several folds shows one chip per provider instead (no wall of
 * chips); a click draws its next page of members, heaviest first, and the chip says what is
 * left. Which thread's tree holds a chip depends on toyc's timing, so when the shown tree has
 * none, the thread of one that does is chosen first (and the first thread again after).
 */
async function checkChipClick(ctx) {
  const {page} = ctx;
  const hiddenThread = await js(page, `(() => {
      const chips = [...document.querySelectorAll('#trees .fold[data-provider]')];
      if (chips.some(c => !c.closest('[hidden]')) || !chips.length) return null;
      return chips[0].closest('.tree')?.dataset.thread ?? null;
  })()`);
  const first = await js(page, "document.getElementById('thread-select').value");
  if (hiddenThread !== null) await chooseThread(ctx, hiddenThread);
  try {
    return await chipClickOnShownTree(ctx);
  } finally {
    if (hiddenThread !== null) await chooseThread(ctx, first);
  }
}

async function chipClickOnShownTree(ctx) {
  const {page} = ctx;
  const found = await js(page, `(() => {
      const chips = [...document.querySelectorAll('#trees .fold[data-provider]')];
      const walls = [...document.querySelectorAll('#trees .node, #trees .tree')].filter(box =>
          [...box.children].filter(c => c.classList.contains('fold')).length > 1 &&
          [...box.children].some(c => c.matches('.fold:not([data-provider])')));
      const shown = chips.filter(c => !c.closest('[hidden]'));
      // The chip with the most work: its members' order matters.
      const work = (c) => qp.chipMembers(qp.threadOf(c), c)
          .reduce((sum, n) => sum + qp.workOf(qp.threads[qp.threadOf(c)], n), 0);
      const chip = shown.length ? shown.reduce((a, b) => work(b) > work(a) ? b : a) : null;
      if (!chip) return {chips: chips.length, walls: walls.length};
      const t = qp.threadOf(chip);
      chip.scrollIntoView({block: 'center', behavior: 'instant'});
      // The page a click should draw, by a full sort: most work first, waits last.
      const T = qp.threads[t], members = qp.chipMembers(t, chip);
      const key = (n) => [qp.isWait(T, n) ? 1 : 0, qp.isWait(T, n) ? -T.dur[n] : -qp.workOf(T, n), n];
      const sorted = members.map(key).sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
      const page = members.length - 250 <= 10 ? members.length : 250;
      window.__chipBefore = members;
      window.__chipExpected = sorted.slice(0, page).map(k => k[2]).sort((a, b) => a - b);
      return {chips: chips.length, walls: walls.length, t, text: chip.textContent,
              members: members.length,
              selector: __qprofTest.selectorOf(chip) + '[data-provider="' + chip.dataset.provider + '"]'};
  })()`);
  if (found.walls) {
    throw new CheckFailed(`${found.walls} lists of siblings hold several folds without merging ` +
                          'them into chips');
  }
  if (!found.selector) {
    throw new CheckFailed(`toyc's page has no chip (${found.chips} in hidden trees): a wide ` +
                          "pass's folds should merge");
  }
  await click(page, found.selector);
  await settle(page);
  const after = await call(page, `(selector, t) => {
      const chip = document.querySelector(selector);
      const left = new Set(chip ? qp.chipMembers(t, chip) : []);
      const drawn = window.__chipBefore.filter(n => !left.has(n));
      return {left: left.size, text: chip?.textContent ?? null,
              heaviest: JSON.stringify(drawn) === JSON.stringify(window.__chipExpected)};
  }`, found.selector, found.t);
  const drawn = found.members - after.left;
  if (drawn <= 0 || drawn > 250 + 10) {
    throw new CheckFailed(`clicking the chip ${say(found.text)} (${found.members} members) drew ` +
                          `${drawn} of them`);
  }
  if (!after.heaviest) {
    throw new CheckFailed(`clicking the chip ${say(found.text)} drew other members than its ` +
                          `${drawn} heaviest`);
  }
  if (after.text === found.text) {
    throw new CheckFailed(`after drawing ${drawn} members the chip still reads ${say(found.text)}`);
  }
  return `${found.chips} chips; ${say(found.text)}: a click drew ${drawn}, then ${say(after.text)}`;
}

/** ArrowDown moves the selection; Enter (or ArrowRight) on a fold or node opens it. */
async function checkKeyboard(ctx) {
  const {page} = ctx;
  const tree = ctx.firstTree;
  await call(page, '(id) => document.getElementById(id).focus()', tree);
  const state = () => call(page, '(id) => __qprofTest.treeState(id)', tree);
  const before = await state();
  if (!before.focusInside) throw new CheckFailed(`#${tree} did not take the focus (tabindex?)`);
  const seen = [];
  await page.keyboard.press('ArrowDown');
  const moved = await state();
  if (moved.current !== before.current) {
    seen.push(`ArrowDown moved the selection from ${before.current || 'nothing'} to ${moved.current}`);
  }
  const opened = await openWithKeys(page, state, seen);
  if (!seen.length) {
    throw new CheckFailed(`the keyboard did nothing in #${tree}: ArrowDown, ArrowRight and Enter ` +
                          'neither moved the selection (.selected, aria-selected or focus, ' +
                          `still ${before.current || 'nothing'}) nor opened anything ` +
                          `(${opened.nodes} nodes, ${opened.folds} folds)`);
  }
  return seen.join('; ');
}

/**
 * Walks down with ArrowDown to a fold or a node with children, then opens it with Enter (or
 * ArrowRight). Appends what happened to `seen`.
 */
async function openWithKeys(page, state, seen) {
  let now = await state();
  for (let i = 0; i < 500 && !now.openable; ++i) {
    await page.keyboard.press('ArrowDown');
    now = await state();
  }
  for (const key of ['Enter', 'ArrowRight', 'Enter']) {
    const was = now;
    await page.keyboard.press(key);
    await settle(page);
    now = await state();
    if (now.nodes !== was.nodes || now.folds !== was.folds) {
      seen.push(`${key} on ${was.current} changed the tree from ${was.nodes} nodes/${was.folds} ` +
                `folds to ${now.nodes}/${now.folds}`);
      break;
    }
  }
  return now;
}

/** A click on a miss node shows its provider, inclusive and self time in #details. */
async function checkDetails(ctx) {
  const {page} = ctx;
  // A leaf is best: a click on a box with children may land on one of them.
  const candidates = [];
  for (const selector of ['.node.miss.extent-0', '.node.miss']) {
    const found = await call(page, '(sel) => __qprofTest.visible(sel, 50)', selector);
    candidates.push(...(found.selectors ?? []));
  }
  if (!candidates.length) {
    throw new CheckFailed('no visible .node.miss in the shown tree ' +
                          `(${await js(page, '__qprofTest.shownTreesText()')})`);
  }
  const [target, point] = await clickable(page, candidates);
  const [thread, n] = await call(page, `(s) => { const e = document.querySelector(s);
      return [+e.closest('.tree').dataset.thread, +e.dataset.n]; }`, target);
  const provider = await call(page, '(t, n) => __qprofTest.providerOf(t, n)', thread, n);
  await page.mouse.click(point[0], point[1]);
  await settle(page);
  const text = await js(page, "document.getElementById('details')?.innerText ?? null");
  if (text === null) throw new CheckFailed('there is no #details element');
  const missing = [
    [`the provider name ${say(provider)}`, text.toLowerCase().includes(provider.toLowerCase())],
    ["'inclusive' (or 'total')", /\b(inclusive|total)\b/i.test(text)],
    ["'self'", /\bself\b/i.test(text)],
  ].filter(([, present]) => !present).map(([what]) => what);
  if (missing.length) {
    throw new CheckFailed(`after clicking ${target}, #details lacks ${missing.join(' and ')}; ` +
                          `it reads ${say(text.slice(0, 300))}`);
  }
  return `${target} shows ${say(text.split(/\s+/).filter(Boolean).join(' ').slice(0, 100))}`;
}

/**
 * The first selector whose element a click reaches itself (not a child node inside it, nor
 * another element over it), and the point to click: its centre, or else the middle of its
 * top edge (its own border and padding).
 */
async function clickable(page, selectors) {
  for (const selector of selectors) {
    const point = await call(page, `(s) => {
        const e = document.querySelector(s);
        e.scrollIntoView({block: 'center', behavior: 'instant'});
        const r = e.getBoundingClientRect();
        for (const [x, y] of [[r.left + r.width / 2, r.top + r.height / 2],
                              [r.left + r.width / 2, r.top + 1.5]]) {
            const top = document.elementFromPoint(x, y);
            if (top !== null && top.closest('.node, .fold') === e) return [x, y];
        }
        return null;
    }`, selector);
    if (point) return [selector, point];
  }
  throw new CheckFailed(`none of ${selectors.length} visible miss nodes can be clicked on itself ` +
                        '(its centre and top edge are covered by children or other elements)');
}

/** Choosing another thread shows its tree and hides the first; choosing the first again shows it. */
async function checkThreadSelect(ctx) {
  const {page} = ctx;
  const options = await js(page, "[...document.querySelectorAll('#thread-select option')].map(o => o.value)");
  if (options.length < 2) {
    throw new CheckFailed(`#thread-select has ${options.length || 'no'} options; toyc runs 2 threads`);
  }
  const first = await js(page, "document.getElementById('thread-select').value");
  const other = options.find((value) => value !== first);
  const how = await chooseThread(ctx, other);
  const shown = await js(page, '__qprofTest.shownTreesText()');
  const visible = await call(page, `(v) => { const t = document.querySelector(
      \`#trees .tree[data-thread="\${v}"]\`); return t ? !__qprofTest.isHidden(t) : null; }`, other);
  const firstHidden = await call(page, '(id) => __qprofTest.isHidden(document.getElementById(id))',
                                 ctx.firstTree);
  if (visible === null) throw new CheckFailed(`no .tree with data-thread=${other}`);
  if (!visible || !firstHidden) throw new CheckFailed(`after choosing thread ${other} (${how}): ${shown}`);
  await chooseThread(ctx, first);
  const back = await call(page, '(id) => !__qprofTest.isHidden(document.getElementById(id))',
                          ctx.firstTree);
  if (!back) {
    throw new CheckFailed(`choosing thread ${first} again does not show #${ctx.firstTree}: ` +
                          await js(page, '__qprofTest.shownTreesText()'));
  }
  return `thread ${other} shown, #${ctx.firstTree} hidden, then back (${how})`;
}

/**
 * Chooses a thread the way a keyboard user does; falls back to setting the value and firing
 * 'change' (a native <select> popup cannot be driven headless).
 */
async function chooseThread(ctx, value) {
  const {page} = ctx;
  const current = () => js(page, "document.getElementById('thread-select').value");
  await js(page, "document.getElementById('thread-select').focus()");
  for (const key of ['ArrowDown', 'ArrowUp']) {
    for (let i = 0; i < 64; ++i) {
      const before = await current();
      if (before === value) {
        await settle(page);
        return 'with the keyboard';
      }
      await page.keyboard.press(key);
      if (await current() === before) break;
    }
  }
  await call(page, `(v) => { const s = document.getElementById('thread-select'); s.value = v;
      s.dispatchEvent(new Event('input', {bubbles: true}));
      s.dispatchEvent(new Event('change', {bubbles: true})); }`, value);
  await settle(page);
  return 'by setting the value and firing change';
}

/** Two clicks on the Runs column's title sort the provider table one way, then the other. */
async function checkSorting(ctx) {
  const {page} = ctx;
  const column = await js(page, `[...document.querySelectorAll('#provider-table thead th')]
      .findIndex(th => th.dataset.sort === 'runs')`);
  if (column < 0) throw new CheckFailed('no <th data-sort="runs"> in #provider-table');
  const header = '#provider-table thead th[data-sort="runs"]';
  const values = () => call(page, `(c) => [...document.querySelectorAll('#provider-table tbody tr')]
      .map(r => Number(r.cells[c]?.dataset.value))`, column);
  if ((await values()).length < 2) throw new CheckFailed('#provider-table has fewer than 2 rows');
  await click(page, header);
  await settle(page);
  const first = await values();
  const direction = sortDirection(first, 'after one click on Runs');
  await click(page, header);
  await settle(page);
  const second = await values();
  const again = sortDirection(second, 'after a second click on Runs');
  if (again === direction && first[0] !== first.at(-1)) {
    throw new CheckFailed(`a second click on Runs kept the ${direction} order ` +
                          `(${listText(second.slice(0, 6))})`);
  }
  return `${direction}, then ${again}: ${listText(second.slice(0, 3))} ... ${listText(second.slice(-3))}`;
}

/**
 * 'descending' or 'ascending', or throws naming where the order turns. (The Python original
 * failed to find the turn when it was next to equal values, and crashed there.)
 */
function sortDirection(values, when) {
  if (values.some((v) => Number.isNaN(v))) { // a cell without a numeric data-value
    throw new CheckFailed(`${when}, some Runs cells lack a numeric data-value: ` +
                          listText(values.slice(0, 10)));
  }
  const steps = values.slice(1).map((v, i) => Math.sign(v - values[i]));
  if (steps.every((s) => s <= 0)) return 'descending';
  if (steps.every((s) => s >= 0)) return 'ascending';
  const way = steps.find((s) => s !== 0);
  const at = steps.findIndex((s) => s === -way); // the step from values[at] to values[at + 1]
  throw new CheckFailed(`${when} the Runs column is not sorted: rows ${at}-${at + 2} have ` +
                        listText(values.slice(at - 1, at + 2)));
}

/** Searching the rarest provider highlights its nodes only, shows them and counts them. */
async function checkSearch(ctx) {
  const {page} = ctx;
  const name = await rarestProvider(page);
  await click(page, '#search');
  await page.keyboard.insertText(name);
  await settle(page);
  const found = await waitForMatches(page);
  const status = await js(page, "document.getElementById('search-status')?.textContent ?? null");
  if (status === null) throw new CheckFailed('there is no #search-status element');
  if (!status.trim()) throw new CheckFailed(`searching ${say(name)} left #search-status empty`);
  if (found.count === 0) {
    throw new CheckFailed(`searching ${say(name)}: no element has the class 'match' within ` +
                          `${SEARCH_TIMEOUT_MS / 1000} s (status ${say(status)})`);
  }
  if (found.wrong.length) {
    throw new CheckFailed(`searching ${say(name)}: .match elements of another provider: ` +
                          found.wrong.slice(0, 5).join('; '));
  }
  const visible = await matchesVisible(ctx, found);
  await expectedStatus(page, status, name);
  return `${say(name)}: ${found.count} .match elements, ${visible}; status ${say(status)}`;
}

/** The provider with the fewest queries above one, from the provider table. */
async function rarestProvider(page) {
  // The name comes from the payload by the row's data-provider: the cell's text may carry
  // more than the name (such as an "activity" badge).
  const rows = await js(page, `(() => {
      const heads = [...document.querySelectorAll('#provider-table thead th')];
      const count = heads.findIndex(th => th.dataset.sort === 'runs');
      const providers = __qprofTest.trace().providers;
      return [...document.querySelectorAll('#provider-table tbody tr')].map(r =>
          [providers[Number(r.dataset.provider)]?.name ?? null, Number(r.cells[count]?.dataset.value)]);
  })()`);
  const usable = rows.filter(([name, count]) => name && count > 1);
  if (!usable.length) {
    throw new CheckFailed('no row of #provider-table has a data-provider naming a provider of ' +
                          `the payload and a count above 1: ${say(rows.slice(0, 5))}`);
  }
  // The fewest queries; among equals, the first name in code-point order.
  usable.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return usable[0][0];
}

/**
 * Matches may be highlighted after a debounce: polls for up to 30 s (a loaded CI machine can
 * be slow to search a million nodes).
 */
async function waitForMatches(page) {
  const deadline = performance.now() + SEARCH_TIMEOUT_MS;
  for (;;) {
    const found = await call(page, `(text) => {
        const t = __qprofTest, wrong = [], matches = [...document.querySelectorAll('.match')];
        for (const e of matches) {
            const tree = e.closest('.tree');
            const has = e.classList.contains('node') && tree
                ? (t.providerOf(+tree.dataset.thread, +e.dataset.n) || '')
                : e.textContent;
            if (!has.toLowerCase().includes(text.toLowerCase()))
                wrong.push(t.describe(e) + ' is ' + JSON.stringify(has.slice(0, 60)));
        }
        const threads = [...new Set(matches.map(e => e.closest('.tree')?.id)
            .filter(Boolean))];
        return {count: matches.length, wrong, threads};
    }`, await js(page, "document.getElementById('search').value"));
    if (found.count || performance.now() > deadline) return found;
    await sleep(100);
  }
}

/**
 * Every match in the shown tree has a box; when all are in other threads' trees, the first
 * of those is shown and must then show them.
 */
async function matchesVisible(ctx, found) {
  const {page} = ctx;
  const countVisible = `() => {
      const tree = __qprofTest.selectedTree();
      const inTree = tree ? [...tree.querySelectorAll('.match')] : [];
      return {tree: tree?.id ?? null, all: inTree.length,
              visible: inTree.filter(e => __qprofTest.isVisibleIn(e, tree)).length,
              empty: inTree.filter(e => e.getClientRects().length === 0 ||
                  e.getBoundingClientRect().width === 0).map(__qprofTest.describe)};
  }`;
  let shown = await call(page, countVisible);
  let how = '';
  if (shown.all === 0 && found.threads.length) {
    const thread = await call(page, '(id) => document.getElementById(id).dataset.thread',
                              found.threads[0]);
    how = ` after choosing thread ${thread} ${await chooseThread(ctx, thread)}`;
    shown = await call(page, countVisible);
  }
  if (shown.all === 0) throw new CheckFailed('no .match element inside any tree (only elsewhere)');
  if (shown.empty.length) {
    throw new CheckFailed(`${shown.empty.length} .match elements in #${shown.tree} have no box: ` +
                          say(shown.empty.slice(0, 5)));
  }
  if (shown.visible === 0) {
    throw new CheckFailed(`none of the ${shown.all} matches in #${shown.tree} is inside the ` +
                          "tree's visible box");
  }
  return `${shown.all} of them in #${shown.tree}, all with a box${how}`;
}

/** The status says "K matches in T threads", K counting queries of that provider. */
async function expectedStatus(page, status, name) {
  const said = STATUS_RE.exec(status);
  if (!said) throw new CheckFailed(`#search-status ${say(status)} does not read 'K matches in T threads'`);
  const counts = await call(page, `(text) => {
      const p = __qprofTest.trace(), low = text.toLowerCase();
      let exact = 0, partial = 0;
      for (const t of p.threads) for (const tag of t.tag) {
          const name = p.providers[tag >>> qp.layout.PROVIDER_SHIFT].name;
          if (name === text) exact++;
          if (name.toLowerCase().includes(low)) partial++;
      }
      return [exact, partial];
  }`, name);
  const saidCount = Number(said[1].replaceAll(',', ''));
  if (!counts.includes(saidCount)) {
    throw new CheckFailed(`#search-status says ${saidCount} matches for ${say(name)}, the payload ` +
                          `has ${counts[0]} queries of it (${counts[1]} whose provider name ` +
                          'contains it)');
  }
}

/** The first thread, the search cleared and the opened fold in view, saved in the output folder. */
async function checkFinalScreenshot(ctx) {
  const {page} = ctx;
  await chooseThread(ctx, await call(page, '(id) => document.getElementById(id).dataset.thread',
                                     ctx.firstTree));
  await click(page, '#search'); // the spec leaves clearing open: try Escape, then empty it
  await page.keyboard.press('Escape');
  if (await js(page, "document.getElementById('search').value")) {
    await js(page, `(() => { const s = document.getElementById('search'); s.value = '';
        s.dispatchEvent(new Event('input', {bubbles: true})); })()`);
  }
  const [first, end] = ctx.openedFold ?? [null, null];
  if (first !== null) {
    await call(page, `(id, n) => document.querySelector(\`#\${id} .node[data-n="\${n}"]\`)
        ?.scrollIntoView({block: 'center', behavior: 'instant'})`, ctx.firstTree, first);
  }
  await settle(page);
  const file = path.join(ctx.outDir, 'profile_queries_html.png');
  await page.screenshot({path: file});
  const opened = first !== null ? `fold [${first}, ${end}) opened` : 'no fold opened';
  return `${file}, #${ctx.firstTree} shown, ${opened}`;
}

/** The view on load, saved in the output folder. */
async function screenshotInitial(ctx) {
  const file = path.join(ctx.outDir, 'profile_queries_html_initial.png');
  await ctx.page.screenshot({path: file});
  return file;
}

/**
 * The provider table as C++ wrote it reads as the viewers' common formatting
 * (reporters/viewer_common/format.js) writes the same values: its hit rates, total and self
 * times. The statistics panel, the range table and the other pages format with it.
 */
async function checkTableFormatting(ctx) {
  const found = await js(ctx.page, `(() => {
      const bad = [];
      let checked = 0;
      for (const tr of document.querySelectorAll('#provider-table tbody tr')) {
          const c = tr.cells, value = (k) => Number(c[k].dataset.value);
          const rate = tr.classList.contains('activity') ? '\\u2013'
              : qv.rateText(value(2), value(1) + value(2));
          for (const [k, text] of [[3, rate], [4, qv.durationText(value(4))],
                                   [5, qv.durationText(value(5))]]) {
              checked++;
              if (c[k].textContent !== text) bad.push([c[0].textContent, c[k].textContent, text]);
          }
      }
      return {checked, bad: bad.slice(0, 5)};
  })()`);
  if (found.checked === 0) throw new CheckFailed('the provider table has no rows');
  if (found.bad.length) throw new CheckFailed(`cells [provider, C++, viewer] that differ: ${say(found.bad)}`);
  return `${found.checked} cells`;
}

/**
 * The decompressed columns agree with the JSON the reporter wrote beside them: every slowest
 * run in `stats` has that duration (and key, when recorded) in qp.threads.
 */
async function checkColumnsAgreeWithStats(ctx) {
  const found = await js(ctx.page, `(() => {
      const p = JSON.parse(document.getElementById('qprof-trace').textContent);
      let checked = 0;
      const bad = [];
      for (const s of p.stats) for (const [t, n, dur, key] of s.slowest) {
          checked++;
          const T = qp.threads[t];
          if (T.dur[n] !== dur || (T.key ? T.key[n] : 0) !== key) bad.push([t, n, dur, key]);
      }
      return {checked, bad: bad.slice(0, 5)};
  })()`);
  if (found.checked === 0) throw new CheckFailed("the payload's stats list no slowest run to compare");
  if (found.bad.length) {
    throw new CheckFailed(`slowest runs [thread, n, dur, key] whose columns differ: ${say(found.bad)}`);
  }
  return `${found.checked} runs`;
}

/**
 * Copies of the page with its compressed columns cut short or one character changed: each
 * says in the page that the trace is corrupt or truncated, instead of going blank.
 */
async function checkBrokenColumns(ctx, pagePath) {
  const {page} = ctx;
  const text = fs.readFileSync(pagePath, 'utf8');
  const marker = 'id="qprof-columns">';
  const start = text.indexOf(marker) + marker.length;
  const end = text.indexOf('</script>', start);
  if (start < marker.length || end < 0) throw new CheckFailed(`${pagePath} has no <script id="qprof-columns">`);
  const columns = text.slice(start, end);
  const middle = Math.floor(columns.length / 2);
  const changed = columns[middle] !== 'A' ? 'A' : 'B';
  const said = [];
  for (const [name, broken] of [['truncated', columns.slice(0, middle)],
    ['corrupt', columns.slice(0, middle) + changed + columns.slice(middle + 1)]]) {
    const file = path.join(ctx.outDir, `profile_queries.${name}.html`);
    fs.writeFileSync(file, text.slice(0, start) + broken + text.slice(end));
    await navigate(page, fileUrl(file), LOAD_TIMEOUT_MS);
    const error = await js(page, 'window.qprof.ready.then(() => window.qprof.error)');
    const shown = await js(page, "document.querySelector('#details .error')?.textContent ?? null");
    if (!error || !error.includes('corrupt or truncated')) {
      throw new CheckFailed(`the ${name} page's qprof.error is ${say(error)}, not about a corrupt ` +
                            'or truncated trace');
    }
    if (!shown || !shown.includes(error)) {
      throw new CheckFailed(`the ${name} page shows ${say(shown)} in #details, not its error`);
    }
    said.push(error);
  }
  return said.at(-1);
}

// ----- the test -----

test('the html report', async ({page}) => {
  const problems = watchProblems(page);
  const outDir = inputs.out;
  let pagePath;
  if (inputs.page) {
    pagePath = inputs.page;
  } else {
    pagePath = await check('toyc writes profile_queries.html', async () => (
      {detail: '', value: await runToyc(inputs.toyc, outDir, inputs.toycArgs)}), {stop: true});
  }
  // What every check is given (here and in analysis_checks.mjs, timeline_checks.mjs): the
  // page, its console problems, the output folder, and what checks learn for later ones:
  // firstTree (the id of the tree shown on load, from checkVisibleKind), openedFold ([from,
  // to] of the fold checkFoldClick opened) and selectedRun (set by checkRunOnTimeline).
  const ctx = {page, problems, outDir, firstTree: null, openedFold: null};
  const shots = inputs.screenshots;
  const chromePath = path.join(path.dirname(pagePath), 'profile_queries.trace.json');
  await check("the markup escapes '<'", () => checkMarkupEscaped(pagePath));
  await check('the page loads', () => navigate(page, fileUrl(pagePath), LOAD_TIMEOUT_MS),
              {stop: true});
  // The checks go on after a failure: each says precisely what it could not do.
  await check('window.qprof.ready resolves', () => checkReady(page));
  await js(page, HELPERS_JS);
  await check('no console problems during load', () => checkNoProblems(page, problems, 'during load'));
  await check('screenshot of the initial view', () => screenshotInitial(ctx));
  await check('the first screen names the costliest pass and provider, in ms',
              () => analysis.checkFirstScreen(ctx));
  await check('screenshot of the first screen',
              () => analysis.screenshot(ctx, shots, 'html-first-screen.png'));
  // On load, before any check selects a node: a selection deeper than a track's collapsed
  // rows opens that track, which may then push the other threads' tracks out of view.
  await check('the timeline has one track per thread', () => timeline.checkTracks(ctx));
  await check('visible hit nodes', () => checkVisibleKind(ctx, 'hit'));
  await check('visible miss nodes', () => checkVisibleKind(ctx, 'miss'));
  await check("important labels read 'PROVIDER · T ms · P %'", () => checkImportantLabels(ctx));
  await check('C++ markup agrees with the viewer', () => checkConsistency(ctx));
  await check("the provider table's C++ texts are the common formatting's",
              () => checkTableFormatting(ctx));
  await check("the decompressed columns agree with the payload's stats",
              () => checkColumnsAgreeWithStats(ctx));
  ctx.firstTree ??= await js(page, "__qprofTest.selectedTree()?.id ?? 'tree-0'");
  await check('the Order selector switches heaviest first and call order',
              () => analysis.checkOrderSwitch(ctx));
  await check("heaviest first puts a pass's work before its wait, which has no share",
              () => analysis.checkWaitAfterWork(ctx));
  // The keyboard goes first: on an untouched tree an openable item is a few keys away.
  await check('the keyboard moves and opens', () => checkKeyboard(ctx));
  await check('a click opens a fold', () => checkFoldClick(ctx));
  await check("a wide pass's folds are one chip per provider, drawn page by page",
              () => checkChipClick(ctx));
  await check('clicking a miss node shows its details', () => checkDetails(ctx));
  await check('the thread selector switches trees', () => checkThreadSelect(ctx));
  await check('Runs sorts the provider table', () => checkSorting(ctx));
  if (fs.existsSync(chromePath)) {
    await check('the top provider lists its slowest run first, as long as in the Chrome trace',
                () => analysis.checkSlowestRun(ctx, chromePath));
    await check("screenshot of a provider's statistics",
                () => analysis.screenshot(ctx, shots, 'html-provider.png'));
    await check('a slowest run is revealed in the tree with its path',
                () => analysis.checkRunRevealed(ctx));
    await check('screenshot of a revealed run', () => analysis.screenshot(ctx, shots, 'html-run.png'));
    await check("a provider's callers and callees lead to their statistics",
                () => analysis.checkCallersCallees(ctx));
    await check("screenshot of a provider's callers and callees",
                () => analysis.screenshotStatistics(ctx, shots, 'html-callers.png', 'callers'));
    await check("screenshot of a provider's most-asked keys",
                () => analysis.screenshotStatistics(ctx, shots, 'html-keys.png', 'top-keys'));
    await check('#provider=NAME and #pass=NAME open their statistics',
                () => analysis.checkProviderAnchor(ctx));
    await check('the timeline starts the slowest run where the Chrome trace does',
                () => timeline.checkStartsMatchChrome(ctx, chromePath));
  }
  await check('the timeline zooms (wheel, keys, buttons) and pans (drag)',
              () => timeline.checkZoom(ctx));
  await check('a slowest run clicked in the statistics is shown on the timeline',
              () => timeline.checkRunOnTimeline(ctx));
  await check('clicking a slice selects its node in the tree', () => timeline.checkSliceClick(ctx));
  await check("the keyboard moves the timeline's selection, and the tree follows",
              () => timeline.checkKeyboardSelection(ctx));
  await check('a time range selected on the timeline limits the statistics',
              () => timeline.checkRangeFiltersStats(ctx));
  await check("the statistics of the whole run as a range are the payload's",
              () => timeline.checkWholeRunStats(ctx));
  await check("each thread's work and waiting over the whole run add up",
              () => timeline.checkBusyWholeRun(ctx));
  await check("each thread's counters are drawn under its track, with their values",
              () => timeline.checkCounterGraphs(ctx));
  await check('screenshot of the timeline',
              () => timeline.screenshotTimeline(ctx, shots, 'html-timeline.png'));
  await check('search highlights a provider', () => checkSearch(ctx));
  await check('a search dims what it does not match on the timeline',
              () => timeline.checkSearchDims(ctx));
  await check('a search walks its matches slowest first, each visible on the timeline',
              () => timeline.checkSearchSlowestFirst(ctx));
  await check('the markup agrees with the viewer after the interactions',
              () => checkConsistency(ctx, 'rendered', ['selected', 'match']));
  await check('screenshot after the checks', () => checkFinalScreenshot(ctx));
  await check('no console problems during the whole test',
              () => checkNoProblems(page, problems, 'during the test'));
  // Last: it leaves the page.
  await check('a corrupt or truncated payload is reported in the page',
              () => checkBrokenColumns(ctx, pagePath));
});

// In-page helpers, installed once as window.__qprofTest after qprof.ready. They only read the
// page, its JSON payload and the columns the viewer decompressed; everything a user does goes
// through real input events. (A template literal: its backticks and ${ are escaped.)
const HELPERS_JS = `
(() => {
    'use strict';
    let payload = null;

    // The trace the C++ reporter embedded, as the viewer decompressed it (its columns are
    // compressed; tests/tools/deflate_zlib_test.py checks the compressor against zlib).
    function trace() {
        if (!payload) {
            if (!document.getElementById('qprof-trace')) {
                throw new Error('no <script id="qprof-trace"> in the page');
            }
            payload = {providers: qp.providers, threads: qp.threads};
        }
        return payload;
    }

    function providerOf(thread, n) {
        const p = trace();
        const provider = p.providers[p.threads[thread].tag[n] >>> qp.layout.PROVIDER_SHIFT];
        return provider ? provider.name : null;
    }

    function describe(el) {
        if (!el) return 'nothing';
        if (el.classList.contains('fold')) return \`fold [\${el.dataset.from}, \${el.dataset.to})\`;
        if (el.classList.contains('node')) return \`node \${el.dataset.n}\`;
        return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
    }

    function isHidden(el) {
        return el.closest('[hidden]') !== null || el.getClientRects().length === 0;
    }

    // Visible: a box of non-zero size, not hidden, and a part of it on screen, that is
    // inside the viewport, its tree's box and every scrolling box around it.
    function isVisibleIn(el, tree) {
        if (isHidden(el) || getComputedStyle(el).visibility === 'hidden') return false;
        const r = el.getBoundingClientRect();
        if (r.width <= 0 || r.height <= 0) return false;
        const clips = [tree.getBoundingClientRect(),
                       {left: 0, top: 0, right: innerWidth, bottom: innerHeight}];
        for (let up = el.parentElement; up; up = up.parentElement) {
            if (getComputedStyle(up).overflow !== 'visible') clips.push(up.getBoundingClientRect());
        }
        return clips.every((c) => r.right > c.left && r.left < c.right &&
                                  r.bottom > c.top && r.top < c.bottom);
    }

    function trees() { return [...document.querySelectorAll('#trees .tree')]; }

    function selectedTree() {
        const shown = trees().filter((t) => !isHidden(t));
        return shown.length === 1 ? shown[0] : null;
    }

    function shownTreesText() {
        return trees().map((t) => \`#\${t.id} \${isHidden(t) ? 'hidden' : 'shown'}\`).join(', ');
    }

    function selectorOf(el) {
        const tree = el.closest('.tree');
        if (el.classList.contains('fold')) {
            return \`#\${tree.id} .fold[data-from="\${el.dataset.from}"][data-to="\${el.dataset.to}"]\`;
        }
        return \`#\${tree.id} .node[data-n="\${el.dataset.n}"]\`;
    }

    function labelOf(node) {
        const label = node.querySelector(':scope > .label');
        return label ? label.textContent : null;
    }

    // Every rendered node and fold against the viewer's rules and the spec's markup.
    function consistency(limit, stateClasses) {
        const q = window.qprof, problems = [], say = JSON.stringify;
        let nodes = 0, folds = 0;
        const note = (text) => { if (problems.length < limit) problems.push(text); };
        for (const tree of trees()) {
            const thread = Number(tree.dataset.thread);
            for (const el of tree.querySelectorAll('.node')) {
                nodes++;
                const n = Number(el.dataset.n), at = \`thread \${thread} node \${n}\`;
                if (el.dataset.n === undefined || !Number.isInteger(n)) {
                    note(\`thread \${thread}: .node without a valid data-n: \` +
                         el.outerHTML.slice(0, 100));
                    continue;
                }
                const cls = el.getAttribute('class').split(' ')
                    .filter((c) => !stateClasses.includes(c)).join(' ');
                const want = q.nodeClass(thread, n);
                if (cls !== want) note(\`\${at}: class "\${cls}", nodeClass gives "\${want}"\`);
                const label = labelOf(el), wantLabel = q.nodeLabel(thread, n);
                if (label !== wantLabel) {
                    note(\`\${at}: label \${say(label)}, nodeLabel gives \${say(wantLabel)}\`);
                }
                const tag = el.classList.contains('hit') ? 'i' : 'div';
                if (el.tagName.toLowerCase() !== tag) {
                    note(\`\${at}: <\${el.tagName.toLowerCase()}>, the spec says <\${tag}>\`);
                }
            }
            for (const el of tree.querySelectorAll('.fold')) {
                folds++;
                const from = Number(el.dataset.from), to = Number(el.dataset.to);
                if (!Number.isInteger(from) || !Number.isInteger(to) || from >= to) {
                    note(\`thread \${thread}: .fold with bad data-from/data-to: \` +
                         el.outerHTML.slice(0, 100));
                    continue;
                }
                const want = el.hasAttribute('data-provider') ? q.chipText(thread, el)
                    : q.foldText(thread, from, to);
                if (el.textContent !== want) {
                    note(\`thread \${thread} fold [\${from}, \${to}): text \` +
                         \`\${say(el.textContent)}, foldText gives \${say(want)}\`);
                }
            }
        }
        return {nodes, folds, problems};
    }

    // The visible elements of the shown tree matching \`selector\`, as unique selectors.
    function visible(selector, max) {
        const tree = selectedTree();
        if (!tree) return {error: 'not exactly one tree is shown: ' + shownTreesText()};
        const all = [...tree.querySelectorAll(selector)];
        const shown = all.filter((el) => isVisibleIn(el, tree));
        return {tree: tree.id, total: all.length, visible: shown.length,
                selectors: shown.slice(0, max).map(selectorOf)};
    }

    // The item the keyboard acts on: the selected one, the focused one (roving tabindex),
    // or the tree's aria-activedescendant.
    function current(tree) {
        const marked = tree.querySelector('.selected, [aria-selected="true"]');
        if (marked) return marked;
        const focused = document.activeElement;
        if (focused && focused !== tree && tree.contains(focused)) return focused;
        const id = tree.getAttribute('aria-activedescendant');
        return id ? document.getElementById(id) : null;
    }

    // A fold, or a node with children (extent-N, N > 0): something Enter can open or close.
    function openable(el) {
        if (!el) return false;
        return el.classList.contains('fold') ||
            [...el.classList].some((c) => /^extent-[1-9]/.test(c));
    }

    function treeState(id) {
        const tree = document.getElementById(id), item = current(tree);
        return {current: item ? describe(item) : null, openable: openable(item),
                nodes: tree.querySelectorAll('.node').length,
                folds: tree.querySelectorAll('.fold').length,
                focusInside: tree.contains(document.activeElement)};
    }

    window.__qprofTest = {trace, providerOf, describe, isHidden, isVisibleIn, selectedTree,
                          shownTreesText, selectorOf, labelOf, consistency, visible, treeState};
})()
`;
