// The `qprof diff --html` page, checked in headless Chromium, next to the report it links to.
//
// Runs toyc twice with -Z profile-queries=raw (a smaller base and a larger new run), writes the
// new run's report with `qprof report NEW -o DIR` and the diff page into the same DIR, opens the
// page from disk (file://) and checks it as a user meets it: the table has a row per provider
// of the --json document, with the per-run columns; a column title sorts it; and a click on
// the provider with the largest change opens profile_queries.html on that provider's
// statistics. Nothing may be reported on the console. With a screenshots folder it saves
// diff.png there (the README's image).
//
//   node tests/browser/run.mjs diff.spec.mjs --toyc build/examples/toyc --qprof build/qprof --out /tmp/diff
import fs from 'node:fs';
import path from 'node:path';

import {CheckFailed, check, checkMarkupEscaped, checkNoProblems, click, fileUrl, inputs, js,
  note, runCommand, screenshot, settle, test, watchProblems} from './harness.mjs';

// toyc's sizes for the two runs: different enough that most providers change beyond noise.
const BASE_ITEMS = '2000';
const NEW_ITEMS = '6000';
const REPORT_TIMEOUT_MS = 20000;

test.use({viewport: {width: 1440, height: 900}});

/**
 * The two raw runs, the new run's report and the diff page beside it; returns the diff page's
 * path and the --json document. The tool runs in the output folder, so that the page names
 * the runs as a user would (base/profile_queries.qprof).
 */
async function writePages() {
  const out = inputs.out;
  const streams = [];
  for (const [role, items] of [['base', BASE_ITEMS], ['new', NEW_ITEMS]]) {
    const folder = path.join(out, role);
    fs.rmSync(folder, {recursive: true, force: true}); // qprof never overwrites
    fs.mkdirSync(folder, {recursive: true});
    await runCommand([inputs.toyc, '--items', items, '-Z', 'profile-queries=raw', '-Z',
      'profile-queries-dir=' + folder], `toyc writes the ${role} run`);
    streams.push(path.join(role, 'profile_queries.qprof'));
  }
  const pages = path.join(out, 'pages');
  fs.rmSync(pages, {recursive: true, force: true});
  fs.mkdirSync(pages, {recursive: true});
  await runCommand([inputs.qprof, 'report', streams[1], '--reporters=html', '-o', pages],
                   "the new run's report", {cwd: out});
  const diffPage = path.join(pages, 'diff.html');
  fs.writeFileSync(diffPage, await runCommand([inputs.qprof, 'diff', '--html', ...streams],
                                              'qprof diff --html', {cwd: out}));
  const document = JSON.parse(await runCommand([inputs.qprof, 'diff', '--json', ...streams],
                                               'qprof diff --json', {cwd: out}));
  note(`wrote ${diffPage} and profile_queries.html beside it`);
  return {diffPage, document};
}

/** As signed_percent_text in src/cli/diff.cpp ("%+.1f %%", or "0.0 %" for no change). */
function signedPercentText(percent) {
  if (percent === null) return '\u2014';
  return (percent > 0 ? '+' : '') + percent.toFixed(1) + ' %';
}

function signedCountText(count) {
  return (count > 0 ? '+' : '') + count.toLocaleString('en-US');
}

/**
 * The viewer draws one row per provider of the --json document, in its order, with the mean
 * per run of both runs, and its change % and count change as the text table prints them.
 */
async function checkDrawn(page, url, document) {
  await page.goto(url);
  const state = await js(page, 'window.qprofDiff ?? null');
  if (!state || state.error) {
    throw new CheckFailed(`the viewer did not draw the page: ${JSON.stringify(state)}`);
  }
  const rows = await js(page, `[...document.querySelectorAll('#diff-table tbody tr')].map(tr => ({
      name: tr.cells[0].dataset.value,
      baseRun: tr.cells[6].textContent, newRun: tr.cells[7].textContent,
      percent: tr.cells[4].textContent, count: tr.cells[8].textContent}))`);
  const expected = document.providers.map((row) => row.provider);
  const names = rows.map((row) => row.name);
  if (JSON.stringify(names) !== JSON.stringify(expected)) {
    throw new CheckFailed(`the rows are ${JSON.stringify(names.slice(0, 6))}, not the --json ` +
                          `document's ${JSON.stringify(expected.slice(0, 6))}`);
  }
  rows.forEach((row, i) => {
    const data = document.providers[i];
    // The percent from the integers, as qprof diff computes it: the JSON's change_percent keeps
    // three decimals, and 17.1503 written 17.150 rounds to 17.1 where qprof diff prints 17.2.
    const percent = data.change_percent === null ? null : 100 * data.change_ns / data.base_self_ns;
    const texts = [signedPercentText(percent), signedCountText(data.count_change)];
    if (row.percent !== texts[0] || row.count !== texts[1]) {
      throw new CheckFailed(`${row.name} reads ${row.percent} and ${row.count}, not ` +
                            `${texts[0]} and ${texts[1]} as qprof diff prints them`);
    }
  });
  const runs = rows.filter((row) => row.baseRun !== '\u2014' && row.newRun !== '\u2014');
  if (!runs.length) throw new CheckFailed('no row has a mean per run in both runs');
  return `${rows.length} rows; first ${rows[0].name}, ${runs[0].baseRun} -> ${runs[0].newRun} per run`;
}

/**
 * The marks after a provider's name ("activity", "~ noise", "only in base") stay whole when the
 * name's column wraps: on a narrow window, each mark is still one box on one line.
 */
async function checkMarksWhole(page) {
  const size = page.viewportSize();
  await page.setViewportSize({width: 700, height: size.height});
  await settle(page);
  try {
    const marks = await js(page, `[...document.querySelectorAll('#diff-table .mark')].map(m =>
        ({text: m.textContent, boxes: m.getClientRects().length}))`);
    if (!marks.length) throw new CheckFailed('no mark after any provider name');
    const broken = marks.filter((mark) => mark.boxes !== 1);
    if (broken.length) {
      throw new CheckFailed(`${broken.length} of ${marks.length} marks are broken across ` +
                            `lines at 700 px, e.g. ${JSON.stringify(broken[0])}`);
    }
    return `${marks.length} marks, each on one line at 700 px`;
  } finally {
    await page.setViewportSize(size);
    await settle(page);
  }
}

/** A click on "change %" sorts the rows by it, largest first; a second click reverses. */
async function checkSorting(page) {
  const orders = [];
  for (let i = 0; i < 2; ++i) {
    await click(page, '#diff-table th[data-sort=change-pct] button');
    await settle(page);
    orders.push(await js(page, `[...document.querySelectorAll('#diff-table tbody tr')]
        .map(tr => tr.cells[4].dataset.value).filter(v => v !== undefined).map(Number)`));
  }
  const [descending, ascending] = orders;
  const sorted = (list, order) => list.every((v, i) => i === 0 || order * (v - list[i - 1]) >= 0);
  if (!sorted(descending, -1) || !sorted(ascending, 1)) {
    throw new CheckFailed(`change % sorted to ${descending.slice(0, 6)}, then ${ascending.slice(0, 6)}`);
  }
  return `${descending.length} percentages, largest ${descending[0].toFixed(1)} %`;
}

/**
 * The first row in the --json order whose provider is in the new run: a click on the row (its
 * change) opens profile_queries.html beside the page, on that provider's statistics.
 */
async function checkLinkOpensStatistics(page, url, document) {
  await page.goto(url); // back to the command's order
  const index = document.providers.findIndex((row) => row.status !== 'only in base');
  const name = document.providers[index].provider;
  await click(page, `#diff-table tbody tr:nth-child(${index + 1}) td:nth-child(4)`);
  const deadline = performance.now() + REPORT_TIMEOUT_MS;
  let shown = null, where = null;
  while (performance.now() < deadline) {
    await new Promise((done) => setTimeout(done, 200));
    try {
      where = await js(page, "location.pathname.split('/').pop() + location.hash");
      shown = await js(page, `window.qprof?.ready ? window.qprof.ready.then(() =>
          document.querySelector('#details [data-field=provider]')?.textContent ?? null) : null`);
    } catch {
      continue; // the old page was leaving
    }
    if (shown === name) break;
  }
  if (shown !== name) {
    throw new CheckFailed(`after clicking ${name} the browser shows ${where} with ` +
                          `${JSON.stringify(shown)} in its statistics`);
  }
  return `${name} opened ${where}`;
}

test('the diff page', async ({page}) => {
  const problems = watchProblems(page);
  const {diffPage, document} = await check(
    'the runs, the report and the diff page are written',
    async () => ({detail: '', value: await writePages()}), {stop: true});
  const url = fileUrl(diffPage);
  await check("the markup escapes '<'", () => checkMarkupEscaped(diffPage));
  await check('a row per provider, with the mean per run', () => checkDrawn(page, url, document),
              {stop: true});
  await check('no console problems during load', () => checkNoProblems(page, problems, 'during load'));
  await check('screenshot of the page', async () => {
    await js(page, 'window.scrollTo(0, 0)');
    await settle(page);
    return screenshot(page, 'diff.png');
  });
  await check('the marks after the names never break across lines', () => checkMarksWhole(page));
  await check('a column title sorts the rows', () => checkSorting(page));
  await check("a click on a row opens its provider's statistics in the new run's report",
              () => checkLinkOpensStatistics(page, url, document));
  await check('no console problems during the whole test',
              () => checkNoProblems(page, problems, 'during the test'));
});
