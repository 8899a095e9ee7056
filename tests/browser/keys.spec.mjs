// The key column of the html page (html_payload_layout.hpp, KeyCode), read by the viewer: a
// dependency scan (tests/keyed_scan.cpp) whose every key is known from its shape -- run i is
// keyed i, a hit of dirty names an earlier run, the file time after it that run's file -- so
// every node's key the viewer decodes is checked. Then the same scan with a page that leaves
// its hits' keys out (as a 10 M-event page past its budget does): it says so in its header, in a
// hit's details, in the search and in a range's most-asked keys, and its statistics of the
// whole run are the page's with every key.
//
//   node tests/browser/run.mjs keys.spec.mjs --keyed-scan build/tests/keyed_scan --out /tmp/keys
import fs from 'node:fs';
import path from 'node:path';

import {CheckFailed, check, checkNoProblems, freshDir, inputs, js, load, fileUrl, runCommand,
  settle, test, watchProblems} from './harness.mjs';
import {checkWholeRunStats} from './timeline_range_checks.mjs';
import {checkInitialViewTwin} from './tree_checks.mjs';

test.use({viewport: {width: 1440, height: 900}});

const say = JSON.stringify;

/** Runs keyed_scan with `args` into a fresh folder under `name`; returns the page's path. */
async function writePage(name, args) {
  const dir = freshDir(path.join(inputs.out, name));
  await runCommand([inputs.keyedScan, ...args, '-Z', 'profile-queries-and-keys=html',
    '-Z', 'profile-queries-dir=' + dir], 'keyed_scan');
  const page = path.join(dir, 'profile_queries.html');
  if (!fs.existsSync(page)) throw new CheckFailed(`keyed_scan wrote no ${page}`);
  return page;
}

/**
 * Every node's key as the viewer gives it, against what the scan asked: run i keyed "i", each
 * dirty hit an earlier run, each file time the file of the node its previous sibling named.
 * With `leftOut`, every hit's key is left out and every run's still checked.
 */
async function checkEveryKey(page, leftOut) {
  const found = await js(page, `(() => {
      const T = qp.threads[0], out = [];
      let roots = 0, hits = 0, runs = 0, previous = null;
      for (let n = 0; n < T.len; n++) {
        const name = qp.providerName(0, n), key = qp.keyText(0, n), hit = qp.isHit(T, n);
        if (T.parent[n] < 0) {
          if (key !== String(roots)) out.push(n + ': root ' + roots + ' keyed ' + key);
          roots++;
          continue;
        }
        if (hit) hits++; else runs++;
        if (hit && ${leftOut}) {
          if (key !== null || !qp.keyLeftOut(0, n)) out.push(n + ': a hit keyed ' + key);
          previous = null;
          continue;
        }
        if (name === 'dirty') {
          const parent = Number(qp.keyText(0, T.parent[n]));
          if (!(Number(key) < parent)) out.push(n + ': dirty ' + key + ' under ' + parent);
          previous = key;
        } else if (previous !== null && key !== 'src/file' + previous + '.cc') {
          out.push(n + ': ' + key + ' after dirty ' + previous);
        }
        if (qp.keyLeftOut(0, n)) out.push(n + ': left out');
      }
      return {out: out.slice(0, 5), count: out.length, roots, hits, runs};
  })()`);
  if (found.count) throw new CheckFailed(`${found.count} keys wrong, e.g. ${say(found.out)}`);
  if (found.roots < 100 || found.hits < 100) throw new CheckFailed(`too small a scan: ${say(found)}`);
  return `${found.roots} runs of dirty, ${found.runs} runs and ${found.hits} hits under them`;
}

/** A hit's details and its timeline tooltip say its key, or that the page left it out. */
async function checkHitDetails(page, leftOut) {
  const shown = await js(page, `(() => {
      const T = qp.threads[0];
      let n = 0;
      while (!(qp.isHit(T, n) && qp.providerName(0, n) === 'dirty')) n++;
      window.qprof.reveal(0, n);
      const field = document.querySelector('#details [data-field=key]');
      return {n, key: field ? field.textContent : null, text: qp.keyText(0, n)};
  })()`);
  const want = leftOut ? 'not in this page' : shown.text;
  if (shown.key !== want || (!leftOut && !/^\d+$/.test(shown.key ?? ''))) {
    throw new CheckFailed(`hit ${shown.n}'s details say key ${say(shown.key)}, not ${say(want)}`);
  }
  return `hit ${shown.n}: Key ${say(shown.key)}`;
}

/** The header says how many hits' keys the page left out, as the payload counts them. */
async function checkHeaderNote(page) {
  const found = await js(page, `(() => {
      const p = JSON.parse(document.getElementById('qprof-trace').textContent);
      const note = document.getElementById('hit-keys-left-out');
      let hits = 0;
      for (const T of qp.threads) for (let n = 0; n < T.len; n++) if (T.key[n] === -1) hits++;
      return {note: note ? note.textContent : null, count: p.keys[qp.layout.HITS_LEFT_OUT], hits};
  })()`);
  if (!(found.count > 0) || found.count !== found.hits) {
    throw new CheckFailed(`the payload says ${found.count} hits' keys left out, the column ${found.hits}`);
  }
  const count = found.count.toLocaleString('en-US');
  if (!found.note || !found.note.startsWith(`the keys of ${count} hits`)) {
    throw new CheckFailed(`#hit-keys-left-out says ${say(found.note)}`);
  }
  return say(found.note);
}

/** A search that matches keys says that hits' keys are not searched. */
async function checkSearchNote(page) {
  const status = await js(page, `(async () => {
      const input = document.getElementById('search');
      input.value = 'src/file1';
      input.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
      const text = document.getElementById('search-status').textContent;
      input.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));
      return text;
  })()`);
  if (!status.includes("(hits' keys not in this page)") || !status.includes('in keys')) {
    throw new CheckFailed(`the search says ${say(status)}`);
  }
  return say(status);
}

/**
 * With hits' keys left out, a range's most-asked keys count their runs (none of a hit), and
 * a provider's statistics under a range say so.
 */
async function checkRangeKeys(page) {
  const found = await js(page, `(() => {
      const p = qp.providers.findIndex((x) => x.name === 'mtime');
      const s = window.qprof.statsOfRange(0, Infinity)[p];
      qp.setRange(0, qp.wall);
      qp.showProvider(p);
      const note = document.getElementById('top-keys-runs-only');
      const head = [...document.querySelectorAll('#top-keys th')].map((th) => th.textContent);
      qp.clearRange();
      return {keys: s.keys, note: note ? note.textContent : null, head};
  })()`);
  const wrong = found.keys.filter(([, asked, hits]) => hits !== 0 || asked !== 1);
  if (found.keys.length === 0 || wrong.length) {
    throw new CheckFailed(`a range's keys of mtime: ${say(found.keys.slice(0, 5))}`);
  }
  if (!found.note || found.head[1] !== 'Runs') {
    throw new CheckFailed(`under a range: note ${say(found.note)}, columns ${say(found.head)}`);
  }
  return say(found.note);
}

test('the key column, and a page that leaves hits\' keys out', async ({page}) => {
  const problems = watchProblems(page);
  const pages = {};
  await check('keyed_scan writes a page with every key, and one without its hits\'', async () => {
    pages.whole = await writePage('whole', []);
    pages.light = await writePage('light', ['--columns-budget', '1']);
    return `${pages.whole}, ${pages.light}`;
  }, {stop: true});
  await check('the page with every key becomes ready', () => load(page, fileUrl(pages.whole)),
              {stop: true});
  await check('every node has its key', () => checkEveryKey(page, false));
  await check("the viewer draws each thread's tree as the page holds it",
              () => checkInitialViewTwin({page}));
  await check("a hit's details name its key", () => checkHitDetails(page, false));
  await check("the statistics of the whole run as a range are the payload's",
              () => checkWholeRunStats({page}));
  // What the scan asked, which two runs of it do alike (not how long each took).
  const ASKED = `JSON.parse(document.getElementById('qprof-trace').textContent).stats.map((s) =>
      ({provider: s.provider, runs: s.runs, hits: s.hits, keys: s.keys.map((k) => k.slice(0, 3))}))`;
  const stats = await js(page, ASKED);
  await check('the page without hits\' keys becomes ready', () => load(page, fileUrl(pages.light)),
              {stop: true});
  await check('every run has its key, no hit has one', () => checkEveryKey(page, true));
  await check('the header says how many hits\' keys are left out', () => checkHeaderNote(page));
  await check("a hit's details say its key is not in the page", () => checkHitDetails(page, true));
  await check('the search says hits\' keys are not searched', () => checkSearchNote(page));
  await check('a range\'s most-asked keys count runs, and say so', () => checkRangeKeys(page));
  await check("its statistics of the whole run count every hit's key, as the other page's", async () => {
    const light = await js(page, ASKED);
    if (JSON.stringify(light) !== JSON.stringify(stats)) {
      throw new CheckFailed(`${JSON.stringify(light).slice(0, 200)} vs ${JSON.stringify(stats).slice(0, 200)}`);
    }
    return stats.map((s) => `${s.keys.length} keys, ${s.hits} hits`).join('; ');
  });
  await settle(page);
  await check('no console problems', () => checkNoProblems(page, problems, 'during the test'));
});
