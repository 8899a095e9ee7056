// The checks of the html page's chips, run by html.spec.mjs on toyc's page: a list of
// siblings with several folds shows one chip per provider, a click draws its next page of
// members, heaviest first and each labelled, and the viewer merges short runs into chips as
// the C++ reporter does.
//
// Each check takes the test's context `ctx` ({page, problems, ...}, see html.spec.mjs) and
// returns a detail string or throws CheckFailed (harness.mjs).
import {CheckFailed, call, click, js, settle} from './harness.mjs';
import {chooseThread, labelProblem} from './tree_checks.mjs';

// What the Python original's %r printed: a string quoted.
const say = JSON.stringify;

/**
 * A list of siblings with several folds shows one chip per provider instead (no wall of
 * chips); a click draws its next page of members, heaviest first, each box labelled as any
 * box is, and the chip says what is left. Which thread's tree holds a chip depends on toyc's timing, so when the shown tree has
 * none, the thread of one that does is chosen first (and the first thread again after).
 */
export async function checkChipClick(ctx) {
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
      const tree = document.querySelector('#trees .tree[data-thread="' + t + '"]');
      return {left: left.size, text: chip?.textContent ?? null,
              heaviest: JSON.stringify(drawn) === JSON.stringify(window.__chipExpected),
              labels: __qprofTest.boxLabels(drawn.map((n) => tree.querySelector('.node[data-n="' + n + '"]')))};
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
  const problem = labelProblem(after.labels, `drawn by the chip ${say(found.text)}`);
  if (problem) throw new CheckFailed(problem);
  if (after.text === found.text) {
    throw new CheckFailed(`after drawing ${drawn} members the chip still reads ${say(found.text)}`);
  }
  return `${found.chips} chips; ${say(found.text)}: a click drew ${drawn}, e.g. ` +
    `${say(after.labels[0]?.[1])}, then ${say(after.text)}`;
}

/**
 * The viewer's twin of the C++ test "the short runs between a list's folds go into its chips":
 * a list of siblings made up in the page -- important leaves (I), with one unimportant run (s)
 * between two of them and six (f, folded) between others -- drawn by the viewer shows the
 * important ones and one chip of all fourteen others, no box of those beside it.
 */
export async function checkShortRunsInChips(ctx) {
  const found = await js(ctx.page, `(() => {
      const L = qp.layout, miss = L.OUTCOMES.indexOf('miss');
      const kids = 'IsIffffffIsIffffffI';
      const len = kids.length + 1;
      const T = {len, size: new Int32Array(len).fill(1), tag: new Int32Array(len),
                 dur: new Float64Array(len).fill(1000), depth: new Int32Array(len).fill(1),
                 parent: new Int32Array(len), start: new Float64Array(len), key: null,
                 waits: new Map(), memory: null};
      T.size[0] = len; T.depth[0] = 0; T.parent[0] = -1; T.dur[0] = len * 1000;
      [...kids].forEach((k, i) => {
        T.tag[i + 1] = miss | (k === 'I' ? L.IMPORTANT : 0);
        T.start[i + 1] = i * 1000;
      });
      const box = document.createElement('div');
      box.innerHTML = qp.render(T, qp.pieces(T, 1, len), 0);
      const top = [...box.children];
      return {important: top.filter(e => e.matches('.node.important')).length,
              others: top.filter(e => e.matches('.node:not(.important)')).length,
              chips: top.filter(e => e.matches('.fold[data-provider]')).map(e => e.textContent),
              folds: top.filter(e => e.matches('.fold:not([data-provider])')).length};
  })()`);
  const want = {important: 5, others: 0, chips: 1, folds: 0};
  if (found.important !== want.important || found.others !== 0 || found.chips.length !== 1 ||
      found.folds !== 0 || !/^\u22ef 14 \S+ runs /.test(found.chips[0])) {
    throw new CheckFailed(`drawn: ${JSON.stringify(found)}; wanted 5 important nodes and one chip ` +
                          'of 14 runs, nothing else');
  }
  return `5 important nodes and ${JSON.stringify(found.chips[0])}`;
}
