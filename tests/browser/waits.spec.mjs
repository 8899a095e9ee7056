// Why a run was slow when its thread waited for another, in the html report of a program
// whose threads wait for each other (tests/waiting_threads.cpp): a worker checks "slow.cc" at
// its top level while the main thread, in its pass "analysis", asks for the same file and
// waits for the worker's run, then joins the worker in a PROFILE_WAIT scope. A user goes from
// the page's "Waiting" list to a provider's longest waits, from a wait to the run it waited
// for, and from a wait to what the threads did meanwhile; the callers of a provider include
// the calls the program made at a thread's top level; the provider table is in the order its
// title says.
//
//   node tests/browser/run.mjs waits.spec.mjs --waiting-threads build/tests/waiting_threads \
//       --out /tmp/waits
//   node tests/browser/run.mjs waits.spec.mjs --page /tmp/waits/profile_queries.html --out /tmp/waits
import fs from 'node:fs';
import path from 'node:path';

import {CheckFailed, check, checkNoProblems, click, fileUrl, freshDir, inputs, js, load, runCommand,
  settle, test, watchProblems} from './harness.mjs';
import {checkSortedAsSaid} from './table_checks.mjs';
import {checkWholeRunStats} from './timeline_range_checks.mjs';
import {checkInitialViewTwin} from './tree_checks.mjs';

test.use({viewport: {width: 1440, height: 900}});

const say = JSON.stringify;

// The node selected in the tree shown: [thread, n], or null.
const SELECTED = `(() => { const el = document.querySelector('#trees .tree:not([hidden]) .selected');
    return el ? [Number(el.closest('.tree').dataset.thread), Number(el.dataset.n)] : null; })()`;

// A node as the test speaks of it: provider, key, outcome, thread name, start and end in ns.
const DESCRIBE = `([t, n]) => { const T = qp.threads[t];
    return {provider: qp.providerName(t, n), key: qp.keyText(t, n), outcome: qp.OUTCOMES[qp.outcomeOf(T, n)],
            thread: T.name, start: T.start[n], end: T.start[n] + T.dur[n]}; }`;

async function describe(page, node) {
  return js(page, `(${DESCRIBE})(${say(node)})`);
}

/** The waits the provider table's row of `name` says it had ("1 wait, 61.22 ms"), or null. */
async function waitsInTable(page, name) {
  return js(page, `[...document.querySelectorAll('#provider-table tbody tr')]
      .find(r => !r.hidden && r.cells[0].querySelector('a')?.textContent === ${say(name)})
      ?.querySelector('small.waits')?.textContent ?? null`);
}

/** `name`'s row in the provider table says its one wait as "1 wait, ...", not "1 waits". */
async function checkOneWait(page, name, when) {
  const text = await waitsInTable(page, name);
  if (!text || !/^1 wait, /.test(text)) throw new CheckFailed(`${when}, ${name}'s row says its waits as ${say(text)}`);
  return text;
}

/** Opens the statistics of the provider named `name` from the page's lists at the top. */
async function openStatistics(page, list, name) {
  await js(page, 'window.scrollTo(0, 0)');
  await click(page, `#${list} a[data-provider]:text-is(${say(name)})`);
  await settle(page);
}

/**
 * Every provider's callers add up to every call of it: its runs, hits and waits, those the
 * program made at a thread's top level included ("(top level)"). They once left the top
 * level out, so that a provider the program's own loop asks seemed called only by the few
 * queries that hit it, in no time.
 */
async function checkCallersAddUp(page) {
  const found = await js(page, `(() => {
      const p = JSON.parse(document.getElementById('qprof-trace').textContent);
      const bad = [];
      for (const s of p.stats) {
          if (s.callers.length >= 10) continue; // only the 10 busiest are listed
          const calls = s.callers.reduce((sum, [, c]) => sum + c, 0);
          if (calls !== s.runs + s.hits + s.waits) bad.push([p.providers[s.provider].name, calls, s.runs + s.hits + s.waits]);
      }
      return {bad, providers: p.stats.length};
  })()`);
  if (found.bad.length) {
    throw new CheckFailed(`callers that do not add up to the calls [provider, callers' calls, calls]: ${say(found.bad)}`);
  }
  await openStatistics(page, 'hot-providers', 'check');
  const rows = await js(page, `[...document.querySelectorAll('#details #callers tbody tr')]
      .map(r => [...r.cells].map(c => c.textContent))`);
  const top = rows.find((r) => r[0] === '(top level)');
  if (!top || top[1] !== '2') {
    throw new CheckFailed(`check's callers ${say(rows)} do not say the worker's 2 calls at its top level`);
  }
  return `${found.providers} providers; check called by ${say(rows)}`;
}

/**
 * check's most-asked keys say what each key's runs took: slow.cc its one run, about 60 ms
 * (the worker's; the main thread's ask of it was a wait, not a run). The keys' texts come
 * out of the compressed stream whole, one beyond ASCII ("bé.cc": asked twice, a hit once).
 */
async function checkKeyTime(page) {
  await openStatistics(page, 'hot-providers', 'check');
  const rows = await js(page, `[...document.querySelectorAll('#details #top-keys tbody tr')]
      .map(r => [...r.cells].map(c => c.textContent))`);
  const slow = rows.find((r) => r[0] === 'slow.cc');
  // The slowest run of check is slow.cc's: its duration as the page writes durations.
  const run = await js(page, `(() => { const s = JSON.parse(document.getElementById('qprof-trace').textContent).stats
      .find(s => s.slowest.length && qp.keys.at(s.slowest[0][3] - 1) === 'slow.cc');
      return s ? qv.durationText(s.slowest[0][2]) : null; })()`);
  if (!slow || run === null || slow[3] !== run) {
    throw new CheckFailed(`check's keys ${say(rows)} do not give slow.cc the time of its run (${run})`);
  }
  const accented = rows.find((r) => r[0] === 'b\u00e9.cc');
  if (!accented || accented[1] !== '2' || accented[2] !== '1') {
    throw new CheckFailed(`check's keys ${say(rows)} have no bé.cc asked twice, a hit once`);
  }
  return say(rows);
}

/**
 * "join worker" (a PROFILE_WAIT) has no run, so its statistics lead to it through its longest
 * waits; its details say no key names what it waited for.
 */
async function checkJoinWait(page) {
  await openStatistics(page, 'hot-waits', 'join worker');
  const listed = await js(page, `[...document.querySelectorAll('#details #longest-waits a')].map(a => a.textContent)`);
  const numbers = await js(page, `[...document.querySelectorAll('#details dt')].map(d => d.textContent)`);
  if (listed.length !== 1) throw new CheckFailed(`join worker's statistics list the waits ${say(listed)}, not its one wait`);
  if (numbers.includes('Hit rate')) throw new CheckFailed(`a scope that only waits shows a hit rate: ${say(numbers)}`);
  await click(page, '#details #longest-waits a');
  await settle(page);
  const node = await js(page, SELECTED);
  const seen = node && await describe(page, node);
  if (!seen || seen.provider !== 'join worker' || seen.outcome !== 'blocked') {
    throw new CheckFailed(`the longest wait's link selected ${say(seen)}`);
  }
  const waited = await js(page, "document.querySelector('#details [data-field=waited-for]')?.textContent ?? null");
  if (!waited || !waited.startsWith('other threads')) {
    throw new CheckFailed(`the join's details say it waited for ${say(waited)}`);
  }
  return `${listed[0]} revealed; waited for ${say(waited)}`;
}

/**
 * check's statistics list the main thread's wait for "slow.cc"; its details link the run it
 * waited for, the worker's, which the link selects; its path names its callers with their keys.
 */
async function checkWaitedFor(page) {
  await openStatistics(page, 'hot-waits', 'check');
  const waits = await js(page, `[...document.querySelectorAll('#details #longest-waits li')].map(li => li.textContent)`);
  if (waits.length !== 1 || !waits[0].includes('slow.cc')) {
    throw new CheckFailed(`check's statistics list the waits ${say(waits)}, not the wait for slow.cc`);
  }
  await click(page, '#details #longest-waits a');
  await settle(page);
  const waitNode = await js(page, SELECTED);
  const wait = waitNode && await describe(page, waitNode);
  if (!wait || wait.outcome !== 'blocked' || wait.key !== 'slow.cc' || wait.thread !== 'main') {
    throw new CheckFailed(`the wait's link selected ${say(wait)}`);
  }
  const path = await js(page, "document.querySelector('#details [data-field=path]')?.textContent ?? ''");
  if (!path.includes('analysis')) throw new CheckFailed(`the wait's path reads ${say(path)}`);
  const link = await js(page, "document.querySelector('#details [data-field=waited-for] a')?.textContent ?? null");
  if (!link || !link.startsWith('check(slow.cc)') || !link.includes('worker')) {
    throw new CheckFailed(`the wait's details link ${say(link)}, not the worker's run of check(slow.cc)`);
  }
  await click(page, '#details [data-field=waited-for] a');
  await settle(page);
  const runNode = await js(page, SELECTED);
  const run = runNode && await describe(page, runNode);
  if (!run || run.provider !== 'check' || run.key !== 'slow.cc' || run.outcome !== 'miss' ||
      run.thread !== 'worker' || !(run.start <= wait.start && run.end >= wait.start)) {
    throw new CheckFailed(`"Waited for" selected ${say(run)}, not the worker's run going on when the wait ` +
                          `began at ${wait.start} ns`);
  }
  // The run's child names its caller with its key: which file's check parsed it.
  const child = await js(page, `(([t, n]) => n + 1)(${say(runNode)})`);
  await js(page, `window.qprof.reveal(${runNode[0]}, ${child})`);
  await settle(page);
  const childPath = await js(page, "document.querySelector('#details [data-field=path]')?.textContent ?? ''");
  if (!childPath.includes('check(slow.cc)')) {
    throw new CheckFailed(`the path of check(slow.cc)'s child reads ${say(childPath)}, without the key`);
  }
  return `wait ${wait.start}-${wait.end} ns on main; run ${run.start}-${run.end} ns on worker; ${say(childPath)}`;
}

/** A wait's "Statistics of its time" selects the wait's time range: what each thread did. */
async function checkMeanwhile(page) {
  await openStatistics(page, 'hot-waits', 'check');
  await click(page, '#details #longest-waits a');
  await settle(page);
  const wait = await describe(page, await js(page, SELECTED));
  await click(page, '#details button.range-of');
  await settle(page);
  const range = await js(page, 'window.qprof.range()');
  if (!range || range.from !== wait.start || range.to !== wait.end) {
    throw new CheckFailed(`"Statistics of its time" selected ${say(range)}, not the wait's ${wait.start}-${wait.end}`);
  }
  const note = await js(page, "document.getElementById('range-note')?.textContent ?? ''");
  if (!note.includes('worker') || !note.includes('main')) throw new CheckFailed(`the range note reads ${say(note)}`);
  const events = await js(page, `window.qprof.statsOfRange(${range.from}, ${range.to})
      .reduce((sum, s) => sum + (s ? s.events : 0), 0)`);
  if (events === 1 ? !note.includes('of the 1 event within') : !note.includes(`events within`)) {
    throw new CheckFailed(`the range note counts its ${events} events as ${say(note.slice(0, 60))}`);
  }
  return `${say(note.slice(0, 160))}; check: ${await checkOneWait(page, 'check', 'in the range')}`;
}

/**
 * A program of more threads than the page's thread selector lists (waiting_threads
 * --extra-threads): the selector lists the busiest and says how many more there are; the least
 * busy thread has neither an option nor a tree until a search goes to its one query, which then
 * shows its tree, drawn by the viewer, and lists it.
 */
async function checkManyThreads(page, outDir) {
  const manyPath = path.join(freshDir(path.join(outDir, 'many-threads')), 'profile_queries.html');
  await runCommand([inputs.waitingThreads, '--extra-threads', '250', '-Z', 'profile-queries=html',
    '-Z', 'profile-queries-dir=' + path.dirname(manyPath)], 'waiting_threads --extra-threads');
  await load(page, fileUrl(manyPath));
  const STATE = `(() => {
      const select = document.getElementById('thread-select');
      const t = qp.threads.findIndex((T) => T.name === 'extra 249');
      return {t, threads: qp.threads.length, options: select.options.length, value: select.value,
              more: select.options[select.options.length - 1].textContent,
              listed: Array.from(select.options).some((o) => o.value === String(t)),
              nodes: document.querySelectorAll('#tree-' + t + ' .node').length};
  })()`;
  const before = await js(page, STATE);
  if (before.threads !== 252 || before.t < 0) {
    throw new CheckFailed(`the page has ${before.threads} threads, expected 252 with "extra 249"`);
  }
  if (before.options !== 201 || !/^52 more threads/.test(before.more) || before.listed || before.nodes) {
    throw new CheckFailed(`on load: ${say(before)}; expected 200 threads listed, "52 more ` +
                          'threads", and "extra 249" neither listed nor drawn');
  }
  await click(page, '#search');
  await page.keyboard.insertText('last_extra');
  await settle(page);
  await page.keyboard.press('Enter');
  await settle(page);
  const after = await js(page, STATE);
  const selected = await js(page, SELECTED);
  if (!selected || selected[0] !== before.t || after.value !== String(before.t) || !after.listed ||
      after.nodes === 0) {
    throw new CheckFailed(`after searching last_extra and Enter: selected ${say(selected)}, ` +
                          `${say(after)}; expected thread ${before.t} shown, listed and drawn`);
  }
  return `${after.nodes} nodes drawn for thread ${before.t} once the search went to it; ` +
    `${after.options} options`;
}

test('what a wait waited for', async ({page}) => {
  const problems = watchProblems(page);
  const pagePath = inputs.page ?? path.join(freshDir(inputs.out), 'profile_queries.html');
  if (!inputs.page) {
    await check('waiting_threads writes profile_queries.html', async () => {
      await runCommand([inputs.waitingThreads, '-Z', 'profile-queries-and-keys=html',
        '-Z', 'profile-queries-dir=' + path.dirname(pagePath)], 'waiting_threads');
      if (!fs.existsSync(pagePath)) throw new CheckFailed(`no ${pagePath}`);
      return pagePath;
    }, {stop: true});
  }
  await check('the page becomes ready', () => load(page, fileUrl(pagePath)), {stop: true});
  await check("the viewer draws each thread's tree as the page holds it",
              () => checkInitialViewTwin({page}));
  await check('the provider table is in the order its title says',
              () => checkSortedAsSaid({page}, 'on load'));
  await check('a row says one wait as "1 wait"', () => checkOneWait(page, 'check', 'on load'));
  await check("a provider's callers add up to its calls, the top level's included",
              () => checkCallersAddUp(page));
  // Keys, waits and calls at the top level, each counted by html_stats.cpp and range_scan.js.
  await check("the statistics of the whole run as a range are the payload's",
              () => checkWholeRunStats({page}));
  await check("a key's time is its runs'", () => checkKeyTime(page));
  await check('a PROFILE_WAIT leads to its wait, which names no run', () => checkJoinWait(page));
  await check("a Query's wait links the run it waited for, on the other thread",
              () => checkWaitedFor(page));
  await check("a wait's time selected shows what the threads did meanwhile",
              () => checkMeanwhile(page));
  if (!inputs.page) {
    await check('a thread the selector does not list is listed and drawn when a search goes to it',
                () => checkManyThreads(page, path.dirname(pagePath)));
  }
  await check('no console problems', () => checkNoProblems(page, problems, 'during the test'));
});
