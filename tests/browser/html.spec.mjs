// The html reporter's page, checked in a real browser (headless Chromium).
//
// Runs toyc at its default size with -Z profile-queries, opens the profile_queries.html it
// writes, and checks the contract of docs/html-report.md as a user would meet it: the page
// becomes interactive, the C++-written initial view agrees with the viewer's rules, folds
// open on a click and with the keyboard, details, thread switching, table sorting and search
// work, and nothing is ever reported on the console.
//
// This file runs toyc, takes the screenshots and checks what the page does with a broken
// payload. The checks of each part of the page are in a module of their own, each taking
// `ctx` (below): tree_checks.mjs, chip_checks.mjs, table_checks.mjs, search_checks.mjs,
// analysis_checks.mjs and the timeline's timeline_checks.mjs, timeline_selection_checks.mjs,
// timeline_range_checks.mjs, timeline_search_checks.mjs; page_helpers.mjs is what the test
// installs in the page for them.
//
//   node tests/browser/run.mjs html.spec.mjs --toyc build/examples/toyc --out /tmp/html
//   node tests/browser/run.mjs html.spec.mjs --page /tmp/some/profile_queries.html --out /tmp/html
import fs from 'node:fs';
import path from 'node:path';

import * as analysis from './analysis_checks.mjs';
import * as chips from './chip_checks.mjs';
import {CheckFailed, call, check, checkMarkupEscaped, checkNoProblems, checkReady, click, fileUrl,
  inputs, js, navigate, note, runCommand, settle, test, watchProblems} from './harness.mjs';
import {HELPERS_JS} from './page_helpers.mjs';
import * as search from './search_checks.mjs';
import * as table from './table_checks.mjs';
import * as timeline from './timeline_checks.mjs';
import * as timelineRange from './timeline_range_checks.mjs';
import * as timelineSearch from './timeline_search_checks.mjs';
import * as timelineSelection from './timeline_selection_checks.mjs';
import * as tree from './tree_checks.mjs';

const LOAD_TIMEOUT_MS = 90000; // the 1M-query page is tens of MB

// The size of the first screen the issue and README speak of.
test.use({viewport: {width: 1440, height: 900}});

// What the Python original's %r printed: a string quoted.
const say = JSON.stringify;

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

// ----- screenshots and a broken payload -----

/** The first thread, the search cleared and the opened fold in view, saved in the output folder. */
async function checkFinalScreenshot(ctx) {
  const {page} = ctx;
  await tree.chooseThread(ctx, await call(page, '(id) => document.getElementById(id).dataset.thread',
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

/**
 * "Deepest nodes" has no two lines alike: chains of the same queries are one line with their
 * count (×N); a click on a counted line still reveals and selects its node in the tree.
 */
async function checkDeepestDistinct(ctx) {
  const {page} = ctx;
  const lines = await js(page, `[...document.querySelectorAll('#deepest li')].map((li) => {
      const a = li.querySelector('a[data-n]');
      return {text: li.textContent, t: Number(a.dataset.thread), n: Number(a.dataset.n),
              count: li.querySelector('.count')?.textContent ?? null}; })`);
  if (lines.length === 0) throw new CheckFailed('#deepest lists no node');
  const texts = lines.map((line) => line.text);
  const twice = texts.filter((text, i) => texts.indexOf(text) !== i);
  if (twice.length) throw new CheckFailed(`lines alike in #deepest: ${say(twice)}`);
  const line = lines.find((l) => l.count !== null) ?? lines[0];
  await call(page, `(n) => document.querySelector('#deepest a[data-n="' + n + '"]').click()`, line.n);
  await settle(page);
  const selected = await js(page, `(() => { const el = document.querySelector('#trees .tree:not([hidden]) .selected');
      return el ? [Number(el.closest('.tree').dataset.thread), Number(el.dataset.n)] : null; })()`);
  if (JSON.stringify(selected) !== JSON.stringify([line.t, line.n])) {
    throw new CheckFailed(`a click on ${say(line.text)} selected ${say(selected)}, not node ` +
                          `${line.n} of thread ${line.t}`);
  }
  return `${lines.length} lines, ${texts.join(' | ')}; ${say(line.text)} revealed`;
}

/**
 * A click on a provider in the lists at the top of the page brings its statistics into view:
 * the whole details panel is on screen, not starting 680 px down with its numbers below it.
 */
async function checkStatsInView(ctx) {
  const {page} = ctx;
  await js(page, 'window.scrollTo(0, 0)');
  await settle(page);
  const name = await js(page, "document.querySelector('#hot-providers a[data-provider]')?.textContent");
  if (!name) throw new CheckFailed('no provider in #hot-providers');
  await click(page, '#hot-providers a[data-provider]');
  await settle(page);
  const shown = await js(page, `(() => { const h = document.querySelector('#details h2');
      const r = document.getElementById('details').getBoundingClientRect();
      return {text: h ? h.textContent : null, top: r.top, bottom: r.bottom, height: innerHeight}; })()`);
  if (!shown.text || !shown.text.includes(name)) {
    throw new CheckFailed(`a click on ${say(name)} shows ${say(shown.text)}`);
  }
  if (shown.top < 0 || shown.bottom > shown.height + 1) {
    throw new CheckFailed(`the statistics of ${say(name)} are out of view: the panel spans ` +
                          `${Math.round(shown.top)} to ${Math.round(shown.bottom)} px of a ` +
                          `${shown.height} px window`);
  }
  return `${say(shown.text)} from ${Math.round(shown.top)} to ${Math.round(shown.bottom)} px`;
}

/** The view on load, saved in the output folder. */
async function screenshotInitial(ctx) {
  const file = path.join(ctx.outDir, 'profile_queries_html_initial.png');
  await ctx.page.screenshot({path: file});
  return file;
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
  // What every check is given (here and in the *_checks.mjs modules): the page, its console
  // problems, the output folder, and what checks learn for later ones: firstTree (the id of
  // the tree shown on load, from checkVisibleKind), openedFold ([from, to] of the fold
  // checkFoldClick opened) and selectedRun (set by checkRunOnTimeline).
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
  await check('visible hit nodes', () => tree.checkVisibleKind(ctx, 'hit'));
  await check('visible miss nodes', () => tree.checkVisibleKind(ctx, 'miss'));
  await check("every box, important or not, is labelled 'PROVIDER · T ms · P %'",
              () => tree.checkLabels(ctx));
  await check('a narrow box cuts its label\'s name, never its time and share',
              () => tree.checkNarrowLabels(ctx));
  await check('C++ markup agrees with the viewer', () => tree.checkConsistency(ctx));
  await check("the viewer draws each thread's tree as the page holds it",
              () => tree.checkInitialViewTwin(ctx));
  await check("the provider table's C++ texts are the common formatting's",
              () => table.checkTableFormatting(ctx));
  await check('the provider table is in the order its title says',
              () => table.checkSortedAsSaid(ctx, 'on load'));
  await check("the decompressed columns agree with the payload's stats",
              () => table.checkColumnsAgreeWithStats(ctx));
  ctx.firstTree ??= await js(page, "__qprofTest.selectedTree()?.id ?? 'tree-0'");
  await check('the Order selector switches heaviest first and call order',
              () => analysis.checkOrderSwitch(ctx));
  await check("the viewer draws the short runs between a list's folds into its chips",
              () => chips.checkShortRunsInChips(ctx));
  await check("heaviest first puts a pass's work before its wait, which has no share",
              () => analysis.checkWaitAfterWork(ctx));
  // The keyboard goes first: on an untouched tree an openable item is a few keys away.
  await check('the keyboard moves and opens', () => tree.checkKeyboard(ctx));
  await check('a click opens a fold', () => tree.checkFoldClick(ctx));
  await check("a wide pass's folds are one chip per provider, drawn page by page, labelled",
              () => chips.checkChipClick(ctx));
  await check('clicking a miss node shows its details', () => tree.checkDetails(ctx));
  await check('the thread selector switches trees', () => tree.checkThreadSelect(ctx));
  await check('Runs sorts the provider table', () => table.checkSorting(ctx));
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
              () => timelineSelection.checkRunOnTimeline(ctx));
  await check('clicking a slice selects its node in the tree', () => timelineSelection.checkSliceClick(ctx));
  await check("the keyboard moves the timeline's selection, and the tree follows",
              () => timelineSelection.checkKeyboardSelection(ctx));
  await check('a time range selected on the timeline limits the statistics',
              () => timelineRange.checkRangeFiltersStats(ctx));
  await check("the statistics of the whole run as a range are the payload's",
              () => timelineRange.checkWholeRunStats(ctx));
  await check("each thread's work and waiting over the whole run add up",
              () => timelineRange.checkBusyWholeRun(ctx));
  await check("each thread's counters are drawn under its track, with their values",
              () => timeline.checkCounterGraphs(ctx));
  await check('screenshot of the timeline',
              () => timeline.screenshotTimeline(ctx, shots, 'html-timeline.png'));
  await check('search highlights a provider', () => search.checkSearch(ctx));
  await check('a search dims what it does not match on the timeline',
              () => timelineSearch.checkSearchDims(ctx));
  await check('a search walks its matches slowest first, each visible on the timeline',
              () => timelineSearch.checkSearchSlowestFirst(ctx));
  await check("a chip's members are read from the page once", () => search.checkChipReads(ctx));
  // After the screenshots: both scroll the page, and the second reveals a deep chain.
  await check('a provider clicked at the top shows its statistics in view', () => checkStatsInView(ctx));
  await check("'Deepest nodes' has no two lines alike, and each reveals its node",
              () => checkDeepestDistinct(ctx));
  await check('the markup agrees with the viewer after the interactions',
              () => tree.checkConsistency(ctx, 'rendered', ['selected', 'match']));
  await check('screenshot after the checks', () => checkFinalScreenshot(ctx));
  await check('no console problems during the whole test',
              () => checkNoProblems(page, problems, 'during the test'));
  // Last: it leaves the page.
  await check('a corrupt or truncated payload is reported in the page',
              () => checkBrokenColumns(ctx, pagePath));
});
