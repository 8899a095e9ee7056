// The html report of a merged build, in a real browser (headless Chromium).
//
// Runs toyc as 6 processes in three waves (one, then two at once, then three at once: the
// shell line of tests/many_processes_test.cpp), merges their raw streams with `qprof merge`,
// writes the html report of the merged file with `qprof report`, and checks what a user of a
// build profile needs: the timeline groups each process's thread tracks under a band naming
// the process, in order of start; the statistics can be limited to one process, and then give
// exactly the numbers of that process's own stream (`qprof summarize --json` of it); going back
// to all processes restores the page's table. With a screenshots folder it saves
// html-processes.png there (the README's image).
//
//   node tests/browser/run.mjs processes.spec.mjs --toyc build/examples/toyc --qprof build/qprof \
//       --out /tmp/processes [--screenshots docs/images]
import fs from 'node:fs';
import path from 'node:path';

import {CheckFailed, call, check, checkNoProblems, click, fileUrl, freshDir, inputs, js, load,
  runCommand, screenshot, settle, test, watchProblems} from './harness.mjs';
import {checkWholeRunStats} from './timeline_range_checks.mjs';
import {checkInitialViewTwin} from './tree_checks.mjs';

const LOAD_TIMEOUT_MS = 60000;
const WAVES = [['200'], ['600', '300'], ['100', '800', '400']]; // toyc --items, per wave

test.use({viewport: {width: 1440, height: 900}});

/** The 6 toyc runs, each writing a raw stream into outDir/profiles. */
async function runBuild(outDir) {
  const profiles = freshDir(path.join(outDir, 'profiles'));
  // A directory relative to outDir, as a build's command lines would give it.
  const flags = ['-Z', 'profile-queries=raw', '-Z', 'profile-queries-dir=profiles',
    '-Z', 'profile-queries-name=%n-%p'];
  for (const wave of WAVES) {
    await Promise.all(wave.map((items) => runCommand([inputs.toyc, '--items', items, ...flags],
                                                     'toyc', {cwd: outDir, timeoutMs: 120000})));
  }
  return fs.readdirSync(profiles).filter((name) => name.endsWith('.qprof')).sort()
    .map((name) => path.join(profiles, name));
}

function qprof(...args) {
  return runCommand([inputs.qprof, ...args], 'qprof ' + args[0], {timeoutMs: 120000});
}

/** The merged file's html page, and per pid the summary of that process's own stream. */
async function makeReport(streams, outDir) {
  const merged = path.join(outDir, 'build.qprof');
  await qprof('merge', ...streams, '-o', merged, '-q');
  const reportDir = path.join(outDir, 'report');
  fs.mkdirSync(reportDir, {recursive: true});
  await qprof('report', merged, '--reporters=html', '-o', reportDir, '-q');
  const own = new Map();
  for (const stream of streams) {
    const summary = JSON.parse(await qprof('summarize', '--json', stream, '-q'));
    own.set(summary.pid, summary);
  }
  const processes = JSON.parse(await qprof('summarize', '--by-process', '--json', merged, '-q'));
  return {pagePath: path.join(reportDir, 'profile_queries.html'), own,
    processes: processes.processes};
}

// ----- checks -----

/**
 * One band per process, in order of start, each above its own threads' tracks, which are
 * named after the process's program and pid.
 */
async function checkBands(page, processes) {
  const tracks = await js(page, 'window.qprof.timeline().tracks');
  const bands = tracks.filter((t) => t.band != null).map((t) => t.process);
  if (JSON.stringify(bands) !== JSON.stringify(processes.map((_, i) => i))) {
    throw new CheckFailed(`bands for processes ${JSON.stringify(bands)}, expected one for each ` +
                          `of 0..${processes.length - 1} in order`);
  }
  let seen = -1;
  for (const track of tracks) {
    const process = track.process;
    if (process < seen) {
      throw new CheckFailed(`track ${JSON.stringify(track.name)} of process ${process} comes ` +
                            `after process ${seen}'s`);
    }
    seen = process;
    const expected = `toyc[${processes[process].pid}] `;
    if (!track.name.startsWith(expected)) {
      throw new CheckFailed(`track ${JSON.stringify(track.name)} of process ${process} is not ` +
                            `named ${JSON.stringify(expected)}...`);
    }
    if (track.band != null && !(track.band < track.y)) {
      throw new CheckFailed(`the band of process ${process} is not above its first track`);
    }
  }
  const shown = await js(page, 'qp.processes.map((P) => [P.pid, P.start_ns])');
  const expected = processes.map((p) => [p.pid, p.start_offset_ns]);
  if (JSON.stringify(shown) !== JSON.stringify(expected)) {
    throw new CheckFailed(`the page's processes (pid, start) ${JSON.stringify(shown)}, ` +
                          `summarize says ${JSON.stringify(expected)}`);
  }
  return `${bands.length} bands over ${tracks.length} tracks`;
}

const SELECT_JS = `(value) => {
    const select = document.getElementById('process-select');
    select.value = String(value);
    select.dispatchEvent(new Event('change', {bubbles: true}));
    return select.options[select.selectedIndex].textContent;
}`;

const TABLE_JS = `(() => Array.from(document.querySelectorAll('#provider-table tbody tr'))
    .filter((r) => !r.hidden)
    .map((r) => [qp.providers[Number(r.dataset.provider)].name,
                 qp.providers[Number(r.dataset.provider)].activity,
                 Number(r.cells[1].dataset.value), Number(r.cells[2].dataset.value)]))()`;

// The provider table's rows as the page wrote them: hidden or not, and their markup.
const ROWS_JS = `Array.from(document.querySelectorAll('#provider-table tbody tr'))
    .map((r) => [r.hidden, r.innerHTML])`;

/**
 * Limited to each process in turn, the provider table holds exactly that process's providers
 * with the runs and hits of its own stream.
 */
async function checkProcessFilter(page, processes, own) {
  const options = await js(page, "document.getElementById('process-select').options.length");
  if (options !== processes.length + 1) {
    throw new CheckFailed(`${options} options in the process selector, expected ` +
                          `${processes.length + 1}`);
  }
  for (const [index, process] of processes.entries()) {
    const label = await call(page, SELECT_JS, index);
    await settle(page);
    if (!label.includes(`pid ${process.pid}`)) {
      throw new CheckFailed(`option ${index} reads ${JSON.stringify(label)}, not pid ${process.pid}`);
    }
    const key = (name, activity) => JSON.stringify([name, activity]);
    const rows = new Map((await js(page, TABLE_JS)).map(
      ([name, activity, runs, hits]) => [key(name, activity), [runs, hits]]));
    const expected = new Set();
    for (const p of own.get(process.pid).providers) {
      if (p.count === 0) continue; // registered, never asked: no row
      const name = key(p.provider, p.activity);
      expected.add(name);
      if (!rows.has(name)) {
        throw new CheckFailed(`process ${index}: provider ${name} is not in the table`);
      }
      const [runs, hits] = rows.get(name);
      const waitsPossible = p.blocked_ns > 0;
      if (hits !== p.hits || (runs !== p.count - p.hits && !waitsPossible) ||
          runs > p.count - p.hits) {
        throw new CheckFailed(`process ${index}, ${name}: table runs ${runs} hits ${hits}; its ` +
                              `stream: count ${p.count} hits ${p.hits}`);
      }
    }
    const extra = [...rows.keys()].filter((name) => !expected.has(name)).sort();
    if (extra.length) {
      throw new CheckFailed(`process ${index}: the table shows providers it never ran: ` +
                            extra.join(', '));
    }
    const events = await js(page, 'qp.rangeStats.reduce((sum, s) => sum + (s ? s.events : 0), 0)');
    if (events !== process.events) {
      throw new CheckFailed(`process ${index}: ${events} events counted, summarize says ` +
                            `${process.events}`);
    }
  }
  return `${processes.length} processes, each as its own stream`;
}

/** A provider's statistics, opened while one process is chosen, say so. */
async function checkDetailsNote(page, processes) {
  await call(page, SELECT_JS, 1);
  await settle(page);
  await click(page, '#provider-table tbody tr:not([hidden]) a');
  await settle(page);
  const text = await js(page, "document.getElementById('details').textContent");
  const expected = `In toyc (pid ${processes[1].pid}) only.`;
  if (!text.includes(expected)) {
    throw new CheckFailed(`the details say ${JSON.stringify(text.slice(0, 200))}, without ` +
                          JSON.stringify(expected));
  }
  return expected;
}

/** A click on a process's band limits the statistics to it; a second, to all again. */
async function checkBandClick(page, processes) {
  const band = await js(page, `(() => {
      const state = window.qprof.timeline();
      const track = state.tracks.find((t) => t.process === 2);
      document.getElementById('timeline').scrollIntoView({block: 'start', behavior: 'instant'});
      document.getElementById('timeline-view').scrollTop = track.band - state.axis;
      const r = document.getElementById('timeline-canvas').getBoundingClientRect();
      return {x: r.left + 200, y: r.top + state.axis + 9};
  })()`);
  await settle(page);
  const chosen = [];
  for (let i = 0; i < 2; ++i) {
    await page.mouse.click(band.x, band.y);
    await settle(page);
    chosen.push(await js(page, "Number(document.getElementById('process-select').value)"));
  }
  if (JSON.stringify(chosen) !== '[2,-1]') {
    throw new CheckFailed(`after one and two clicks on process 2's band the selector shows ` +
                          `${JSON.stringify(chosen)}, expected [2, -1]`);
  }
  return `pid ${processes[2].pid}, then all`;
}

/** Back to all processes: the table the page wrote, every row shown. */
async function checkAllAgain(page, tableBefore) {
  await call(page, SELECT_JS, -1);
  await settle(page);
  const after = await js(page, ROWS_JS);
  if (JSON.stringify(after) !== JSON.stringify(tableBefore)) {
    throw new CheckFailed("the table differs from the page's after going back to all processes");
  }
  return `${after.length} rows`;
}

/**
 * docs/images/html-processes.png: the timeline of the build and the statistics of one
 * process, at 1440x900.
 */
async function screenshotBuild(page) {
  if (!inputs.screenshots) return 'not asked for';
  await call(page, SELECT_JS, 2); // its band outlined
  await js(page, "document.getElementById('timeline-view').scrollTop = 0");
  await js(page, "window.scrollTo(0, document.getElementById('timeline').offsetTop - 8)");
  await settle(page);
  return screenshot(page, 'html-processes.png');
}

test("a merged build's html report", async ({page}) => {
  const problems = watchProblems(page);
  const outDir = inputs.out;
  const {pagePath, own, processes} = await check(
    "a merged build, its html report written", async () => {
      const written = await makeReport(await runBuild(outDir), outDir);
      return {detail: `${written.processes.length} processes`, value: written};
    }, {stop: true});
  await check('the page loads', () => load(page, fileUrl(pagePath), 'qprof', LOAD_TIMEOUT_MS),
              {stop: true});
  const tableBefore = await js(page, ROWS_JS);
  await check("the viewer draws each listed thread's tree as the page holds it",
              () => checkInitialViewTwin({page}));
  await check("a band per process over its threads' tracks, in order of start",
              () => checkBands(page, processes));
  await check('the statistics of each process are those of its own stream',
              () => checkProcessFilter(page, processes, own));
  await check("a provider's statistics name the process they count",
              () => checkDetailsNote(page, processes));
  await check('a click on a band limits the statistics to its process',
              () => checkBandClick(page, processes));
  await check("all processes again: the page's own table", () => checkAllAgain(page, tableBefore));
  // A page of `qprof report`: its nodes' times come from ticks read back from the streams.
  await check("the statistics of the whole run as a range are the payload's, to the ns",
              () => checkWholeRunStats({page, problems, outDir}));
  await check('screenshot of the build', () => screenshotBuild(page));
  await check('no console problems', () => checkNoProblems(page, problems, 'during the test'));
});
