#!/usr/bin/env node
// Page weight and time to interactive of profile_queries.html, in headless Chromium.
//
// Runs toyc once (at its default size about a million queries; `-- --items 110000` makes about
// ten million) with the html reporter, then reports the page's size (and how much of it is the
// payload: compressed columns and JSON; and how the columns split it, each column of every
// thread compressed alone as an estimate, and how many hits' keys a heavy page left out) and
// loads it --runs times, each time in a fresh
// Chromium so that no cache or warmed-up JIT helps: DOMContentLoaded, the load event,
// qprof.readyAt (time to interactive), the latency of a first click on a fold, the timeline's
// drawing and range statistics, and a search for the provider asked most (its time, and the
// timeline's frames with every match marked), per run and as medians. Ends with a verdict
// against issue 13's budgets: page <= 40 MB, and interactive (the median) within 1 s up to 2 M
// events, within 3 s above (10 M events). Exit status 0 when both hold, 1 otherwise.
//
// Chromium is driven by Playwright's library (the browser tests' npm package: npm ci --prefix
// tests/browser), the browser itself is Debian's (tests/browser/chromium.mjs finds it).
//
//   node benchmarks/html_page_benchmark.mjs --toyc build/examples/toyc [--runs 5] [-- TOYC ARGS...]
//   node benchmarks/html_page_benchmark.mjs --program build/benchmarks/shallow_queries -- --nodes 150000
//
// With keys, at ten million events (a hit's key a random earlier node's in shallow_queries, so
// that the page leaves hits' keys out; toyc's keep theirs):
//
//   node benchmarks/html_page_benchmark.mjs --program build/benchmarks/shallow_queries --runs 3 \
//       -- --nodes 1430000 -Z profile-queries-and-keys
//   node benchmarks/html_page_benchmark.mjs --toyc build/examples/toyc --runs 3 \
//       -- --items 110000 -Z profile-queries-and-keys
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import {createRequire} from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {parseArgs} from 'node:util';

import {findChromium} from '../tests/browser/chromium.mjs';
import {fixed, grouped, reportColumns, reportSize} from './html_page_weight.mjs';

const browserTests = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'tests',
                               'browser');
const PAGE_BUDGET_BYTES = 40 * 1000 * 1000; // 40 MB, decimal
// Time to interactive: 1 s at a million events; 3 s at ten million.
const SMALL_RUN_EVENTS = 2 * 1000 * 1000;
const SMALL_INTERACTIVE_BUDGET_MS = 1000;
const LARGE_INTERACTIVE_BUDGET_MS = 3000;
const READY_TIMEOUT_MS = 60000;
const BROWSER_TIMEOUT_MS = 120000; // starting Chromium, loading the page, a click
const USAGE = `usage: node benchmarks/html_page_benchmark.mjs (--toyc | --program) PROGRAM [--runs N]
                                        [--out DIR] [-- PROGRAM_ARGS...]

  --toyc, --program PROGRAM  the toyc executable, or any program that takes qprof's -Z flags
                             (build/benchmarks/shallow_queries: a shallow, hit-heavy workload)
  --runs N                   page loads, each in a fresh Chromium (default 5)
  --out DIR                  keep the profile in this folder (default: a temporary one,
                             removed at the end)
  PROGRAM_ARGS               more arguments for the program, after --
`;

/** Stops with the usage and what was wrong in the arguments (status 2). */
function usageError(problem) {
  process.stderr.write(`${USAGE.split('\n\n')[0]}\nhtml_page_benchmark.mjs: error: ${problem}\n`);
  process.exit(2);
}

/** What stops the benchmark, not the page's verdict: main() prints it and exits 1. */
class Stop extends Error {}

function fail(message) {
  throw new Stop(message);
}

function parseArguments() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        toyc: {type: 'string'}, program: {type: 'string'}, runs: {type: 'string', default: '5'},
        out: {type: 'string'}, help: {type: 'boolean', short: 'h'},
      },
      allowPositionals: true,
    });
  } catch (error) {
    usageError(error.message);
  }
  const {values, positionals} = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const toyc = values.program ?? values.toyc;
  if (!toyc) usageError('one of the arguments --toyc/--program is required');
  const runs = Number(values.runs);
  if (!Number.isInteger(runs)) usageError(`--runs: invalid int value: '${values.runs}'`);
  if (runs < 1) usageError('--runs must be at least 1');
  return {toyc, runs, out: values.out, toycArgs: positionals};
}

/**
 * Playwright's library from the browser tests' packages, and harness.mjs (the console watch
 * and a click as a user makes it); stops with how to install it when it is missing.
 */
async function loadPlaywright() {
  const require = createRequire(path.join(browserTests, 'package.json'));
  try {
    require.resolve('@playwright/test');
  } catch {
    fail(`Playwright is not installed in ${browserTests}/node_modules; install it with: ` +
         `npm ci --prefix ${path.relative(process.cwd(), browserTests) || '.'}`);
  }
  const {chromium} = require('@playwright/test');
  const harness = await import(pathToFileURL(path.join(browserTests, 'harness.mjs')).href);
  return {chromium, harness};
}

function seconds(since) {
  return (performance.now() - since) / 1000;
}

/**
 * Runs toyc once with the default reporters; returns the page's path and the number of events
 * it recorded (null when toyc does not say).
 */
function writePage(toyc, outDir, extraArgs) {
  const command = [toyc, '-Z', 'profile-queries', '-Z', 'profile-queries-dir=' + outDir,
    ...extraArgs];
  const started = performance.now();
  const done = spawnSync(command[0], command.slice(1), {encoding: 'utf8',
    maxBuffer: 1 << 30});
  const took = seconds(started);
  const page = path.join(outDir, 'profile_queries.html');
  if (done.status !== 0 || !fs.existsSync(page)) {
    fail(`${command.join(' ')} failed (status ${done.status ?? done.error?.message}) or wrote ` +
         `no profile_queries.html:\n${String(done.stderr ?? '').slice(-2000)}`);
  }
  const name = path.basename(toyc);
  console.log(`${name}: ${took.toFixed(2)} s for ${command.slice(1).join(' ')}`);
  const summary = /recorded ([\d,]+) \w+ on \d+ threads?/.exec(done.stderr);
  if (summary) console.log(`${name}: ${summary[0]}`);
  return {page, events: summary ? Number(summary[1].replace(/,/g, '')) : null};
}

/** A string quoted as Python's repr() quotes it (the Python benchmark's output). */
function quoted(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escaped = text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
}

// The navigation's own timings, in ms since navigation start (as performance.now()).
const TIMINGS_JS = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return {dcl: nav.domContentLoadedEventEnd, load: nav.loadEventStart};
})()`;

const READY_JS = `Promise.race([
  window.qprof.ready.then(() => window.qprof.readyAt),
  new Promise((_, reject) => setTimeout(() => reject(new Error(
    'window.qprof.ready did not resolve within ${READY_TIMEOUT_MS} ms')), ${READY_TIMEOUT_MS}))])`;

// Arms an in-page stopwatch for a first click on a fold: t0 is taken by capturing listeners on
// window, which run before any handler of the page; t1 when the tree's DOM changes. The viewer
// may act on mousedown or on click, so t0 is the last of the two before the change. Returns a
// selector for the fold to click, or an error.
const ARM_JS = `(() => {
  const tree = [...document.querySelectorAll('#trees .tree')].find(t => !t.hidden);
  if (!tree) return {error: 'no tree is shown'};
  const box = tree.getBoundingClientRect();
  const fold = [...tree.querySelectorAll('.fold')].find(f => {
    const r = f.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.bottom > box.top && r.top < box.bottom;
  });
  if (!fold) return {error: 'no visible .fold in #' + tree.id};
  const times = {down: null, click: null};
  addEventListener('mousedown', () => { times.down ??= performance.now(); }, true);
  addEventListener('click', () => { times.click ??= performance.now(); }, true);
  window.__firstInteraction = new Promise((resolve) => {
    new MutationObserver((records, observer) => {
      const changed = performance.now();
      observer.disconnect();
      const start = times.click !== null && times.click <= changed ? times.click : times.down;
      // Also wait for the frame that shows the change.
      requestAnimationFrame(() => setTimeout(() => resolve({
        dom: changed - start, painted: performance.now() - start}), 0));
    }).observe(tree, {childList: true, subtree: true});
  });
  return {selector: '#' + tree.id + ' .fold[data-from="' + fold.dataset.from + '"]' +
                    '[data-to="' + fold.dataset.to + '"]',
          text: fold.textContent};
})()`;

const FIRST_INTERACTION_JS = `Promise.race([window.__firstInteraction,
  new Promise((_, reject) => setTimeout(() => reject(new Error(
    'the tree did not change within 10 s of clicking the fold')), 10000))])`;

// The timeline: the time to draw the whole run, then the longest and median of 8 frames zooming
// in at the middle (by 1.6 each, the + button), and the statistics of a time range spanning
// the whole run (what a Shift+drag over everything computes).
const TIMELINE_JS = `(async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const paint = () => window.qprof.timeline().paintMs;
  document.getElementById('timeline-reset').click();
  await frame();
  const whole = paint(), zooms = [];
  for (let i = 0; i < 8; i++) {
    document.getElementById('timeline-zoom-in').click();
    await frame();
    zooms.push(paint());
  }
  document.getElementById('timeline-reset').click();
  const timed = (f) => { const t0 = performance.now(); f(); return performance.now() - t0; };
  const wall = window.qprof.timeline().to;
  // The first range builds what idle time has not yet built of the per-thread index.
  const range = timed(() => window.qprof.statsOfRange(0, Infinity));
  const again = timed(() => window.qprof.statsOfRange(0, Infinity));
  const half = timed(() => window.qprof.statsOfRange(wall / 4, wall * 3 / 4));
  zooms.sort((a, b) => a - b);
  return {whole, zoomMax: zooms[7], zoomMedian: (zooms[3] + zooms[4]) / 2, range, again, half};
})()`;

// A search for the provider asked most (millions of matches at ten million events): the time
// the search takes, then the timeline's frames with every match marked -- the whole run, and
// the longest of 4 zooming in -- which must not grow with the matches.
const SEARCH_JS = String.raw`(async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const stats = JSON.parse(document.getElementById('qprof-trace').textContent).stats;
  const best = stats.reduce((a, b) => (b.runs + b.hits > a.runs + a.hits ? b : a));
  const name = qp.providers[best.provider].name;
  const input = document.getElementById('search');
  input.value = name;
  const key = (k) => input.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}));
  const t0 = performance.now();
  key('Enter');
  const search = performance.now() - t0;
  const status = document.getElementById('search-status').textContent;
  document.getElementById('timeline-reset').click();
  await frame();
  const whole = window.qprof.timeline().paintMs, marks = window.qprof.timeline().marks;
  let zoomMax = 0;
  for (let i = 0; i < 4; i++) {
    document.getElementById('timeline-zoom-in').click();
    await frame();
    zoomMax = Math.max(zoomMax, window.qprof.timeline().paintMs);
  }
  key('Escape');
  document.getElementById('timeline-reset').click();
  await frame();
  const matches = Number((/of ([\d,]+),/.exec(status) || [0, '0'])[1].replace(/,/g, ''));
  return {name, matches, search, whole, zoomMax, marks};
})()`;

/** One load in a fresh Chromium: returns the timings in ms, and the console problems. */
async function measureOnce({chromium, harness}, executablePath, pageUrl) {
  const browser = await chromium.launch({executablePath, timeout: BROWSER_TIMEOUT_MS,
    args: ['--disable-gpu', '--disable-quic']});
  try {
    const page = await browser.newPage({viewport: {width: 1400, height: 1000},
      deviceScaleFactor: 1});
    const problems = harness.watchProblems(page);
    await page.goto(pageUrl, {waitUntil: 'load', timeout: BROWSER_TIMEOUT_MS});
    const ready = await page.evaluate(READY_JS);
    const timings = await page.evaluate(TIMINGS_JS);
    const armed = await page.evaluate(ARM_JS);
    if (armed.error) throw new Error('first interaction: ' + armed.error);
    await harness.click(page, armed.selector, {timeout: BROWSER_TIMEOUT_MS});
    const latency = await page.evaluate(FIRST_INTERACTION_JS);
    const timeline = await page.evaluate(TIMELINE_JS);
    const search = await page.evaluate(SEARCH_JS);
    return {dcl: timings.dcl, load: timings.load, ready, click: latency.dom,
      painted: latency.painted, fold: armed.text, timeline, search, problems: [...problems]};
  } finally {
    await browser.close();
  }
}

function printRun(index, run) {
  console.log(`run ${index}: DOMContentLoaded ${fixed(run.dcl, 0, 7)} ms  load ` +
              `${fixed(run.load, 0, 7)} ms  interactive ${fixed(run.ready, 0, 7)} ms  first click ` +
              `${fixed(run.click, 1, 6)} ms (painted ${fixed(run.painted, 1, 6)} ms, fold ` +
              `${quoted(run.fold)})`);
  const t = run.timeline;
  console.log(`  timeline: whole run drawn in ${fixed(t.whole, 1)} ms; zooming in, frames of ` +
              `${fixed(t.zoomMedian, 1)} ms (median) to ${fixed(t.zoomMax, 1)} ms; statistics of ` +
              `a whole-run range ${fixed(t.range, 0)} ms (first: with what idle time has not ` +
              `made of the index), ${fixed(t.again, 0)} ms again, ${fixed(t.half, 0)} ms for ` +
              'the middle half');
  const q = run.search;
  console.log(`  search ${quoted(q.name)}: ${grouped(q.matches)} matches in ${fixed(q.search, 0)}` +
              ` ms; timeline with them marked: whole run ${fixed(q.whole, 1)} ms (${q.marks} ` +
              `markers), zooming in up to ${fixed(q.zoomMax, 1)} ms`);
  for (const problem of run.problems.slice(0, 3)) {
    console.log('  console: ' + problem.replace(/\n/g, ' | ').slice(0, 200));
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The median over the runs of each of `keys` of what pick(run) gives. */
function medians(runs, keys, pick = (run) => run) {
  return Object.fromEntries(keys.map((key) => [key, median(runs.map((run) => pick(run)[key]))]));
}

function printMedians(runs) {
  const m = medians(runs, ['dcl', 'load', 'ready', 'click', 'painted']);
  const n = runs.length;
  console.log(`median of ${n}: DOMContentLoaded ${fixed(m.dcl, 0)} ms  load ${fixed(m.load, 0)}` +
              ` ms  interactive ${fixed(m.ready, 0)} ms  first click ${fixed(m.click, 1)} ms ` +
              `(painted ${fixed(m.painted, 1)} ms)`);
  const t = medians(runs, ['whole', 'zoomMedian', 'zoomMax', 'range', 'again', 'half'],
                    (run) => run.timeline);
  console.log(`median of ${n}, timeline: whole run ${fixed(t.whole, 1)} ms, zoom frames ` +
              `${fixed(t.zoomMedian, 1)} ms (median) / ${fixed(t.zoomMax, 1)} ms (longest), ` +
              `whole-run range statistics ${fixed(t.range, 0)} ms (first) / ${fixed(t.again, 0)}` +
              ` ms (again), middle half ${fixed(t.half, 0)} ms`);
  const s = medians(runs, ['search', 'whole', 'zoomMax'], (run) => run.search);
  console.log(`median of ${n}, search of ${grouped(runs[0].search.matches)} matches: ` +
              `${fixed(s.search, 0)} ms; frames with them marked ${fixed(s.whole, 1)} ms (whole ` +
              `run) / ${fixed(s.zoomMax, 1)} ms (longest zooming in)`);
  return m;
}

function verdict(size, readyMs, events) {
  const budgetMs = events !== null && events <= SMALL_RUN_EVENTS ? SMALL_INTERACTIVE_BUDGET_MS
    : LARGE_INTERACTIVE_BUDGET_MS;
  const sizeOk = size <= PAGE_BUDGET_BYTES;
  const readyOk = readyMs <= budgetMs;
  console.log(`verdict: ${sizeOk && readyOk ? 'PASS' : 'FAIL'} - page ${fixed(size / 1e6, 2)} MB ` +
              `${sizeOk ? '<=' : '>'} 40 MB, interactive ${fixed(readyMs, 0)} ms ` +
              `${readyOk ? '<=' : '>'} ${grouped(budgetMs)} ms (median, ` +
              `${events === null ? 'unknown' : grouped(events)} events)`);
  return sizeOk && readyOk;
}

async function main() {
  const args = parseArguments();
  const executablePath = findChromium();
  if (!executablePath) {
    fail('Chromium was not found (looked for $CHROMIUM, chromium, chromium-browser, ' +
         'google-chrome); install it with: apt-get install chromium');
  }
  const playwright = await loadPlaywright();
  const outDir = path.resolve(args.out ?? fs.mkdtempSync(path.join(os.tmpdir(),
                                                                    'qprof-html-bench-')));
  fs.mkdirSync(outDir, {recursive: true});
  try {
    const {page, events} = writePage(path.resolve(args.toyc), outDir, args.toycArgs);
    const size = reportSize(page);
    reportColumns(page);
    const runs = [];
    for (let index = 1; index <= args.runs; ++index) {
      const run = await measureOnce(playwright, executablePath, pathToFileURL(page).href);
      printRun(index, run);
      runs.push(run);
    }
    const m = printMedians(runs);
    return verdict(size, m.ready, events) ? 0 : 1;
  } catch (error) {
    if (error instanceof Stop) throw error;
    fail(`benchmark failed: ${String(error.message ?? error).split('\n')[0]}`);
  } finally {
    if (!args.out) fs.rmSync(outDir, {recursive: true, force: true});
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!(error instanceof Stop)) throw error;
  process.stderr.write(error.message + '\n');
  process.exitCode = 1;
}
