// The checks of the html page's call tree, run by html.spec.mjs on toyc's page: on load the
// tree shows hits and misses, every box is labelled as the report says, and the markup C++
// wrote agrees with the viewer's rules; a click or the keyboard opens a fold (chips:
// chip_checks.mjs), a click on a node shows its details, and the thread selector switches trees.
//
// Each check takes the test's context `ctx` ({page, problems, ...}, see html.spec.mjs) and
// returns a detail string or throws CheckFailed (harness.mjs).
import {CheckFailed, call, click, js, settle} from './harness.mjs';

const LABEL_RE = /^\S.* · \d+(\.\d+)? (ns|µs|ms|s) · ((\d+\.\d|<0\.1) %|waiting)$/;

// What the Python original's %r printed: a string quoted.
const say = JSON.stringify;

// How far down the page a kind of node may first appear: heaviest first, the first screen can
// be all one expensive pass whose queries are folded, depending on the times toyc measured.
const SCREENS_TO_LOOK = 4;

// A narrow width of the trees' pane, in which some of toyc's labels no longer fit.
const NARROW_PANE_PX = 240;

/**
 * Some nodes of `kind` (hit or miss) are visible in the tree shown on load, within its first
 * few screens. Sets ctx.firstTree.
 */
export async function checkVisibleKind(ctx, kind) {
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

/**
 * What is wrong with the labels of some boxes, `labels` ([n, text or null] each, from
 * __qprofTest.boxLabels): null when each box has one reading 'PROVIDER · T ms · P %' (or
 * '· waiting'), else a sentence saying which do not.
 */
export function labelProblem(labels, where) {
  const missing = labels.filter(([, text]) => text === null).map(([n]) => n);
  if (missing.length) {
    return `${missing.length} of ${labels.length} boxes ${where} have no label, e.g. the nodes ` +
      missing.slice(0, 5).join(', ');
  }
  const bad = labels.filter(([, text]) => !LABEL_RE.test(text)).map(([, text]) => text);
  if (bad.length) {
    return `${bad.length} of ${labels.length} labels ${where} do not match ${LABEL_RE.source}, ` +
      `e.g. ${bad.slice(0, 3).map(say).join(', ')}`;
  }
  return null;
}

/**
 * Every box on load is labelled 'PROVIDER · T ms · P %' (or '· waiting'), important or not: a
 * box drawn because it is long says what it is. A hit, a dot, has no label.
 */
export async function checkLabels(ctx) {
  const found = await js(ctx.page, `(() => {
      const all = document.querySelectorAll('#trees .node');
      return {labels: __qprofTest.boxLabels(all),
              minor: __qprofTest.boxLabels(document.querySelectorAll('#trees .node:not(.important)')),
              dots: [...all].filter((e) => e.matches('.hit') && e.querySelector('.label')).length};
  })()`);
  if (!found.labels.length) throw new CheckFailed('no box (a .node that is not a hit) in any tree');
  const problem = labelProblem(found.labels, 'in the trees');
  if (problem) throw new CheckFailed(problem);
  if (!found.minor.length) throw new CheckFailed("toyc's trees draw no box that is not important");
  if (found.dots) throw new CheckFailed(`${found.dots} hits (dots) have a label`);
  return `${found.labels.length} labels, ${found.minor.length} of boxes not important, e.g. ` +
    say(found.minor[0][1]);
}

/**
 * A box too narrow for its label cuts the name, with an ellipsis, and keeps the time and share:
 * with the trees' pane made narrow, and one name made 200 characters long (so that it is cut
 * whatever toyc measured), every label's numbers are wholly inside it and that name is cut.
 * (A box may still pass the pane: its chips do not shrink.)
 */
export async function checkNarrowLabels(ctx) {
  const found = await js(ctx.page, `(() => {
      const pane = document.getElementById('trees');
      pane.style.width = '${NARROW_PANE_PX}px';
      const labels = [...__qprofTest.selectedTree().querySelectorAll('.node > .label')]
          .filter((l) => l.getClientRects().length);
      const probe = labels[0]?.firstElementChild, name = probe?.textContent;
      if (probe) probe.textContent = name + 'x'.repeat(200);
      const rect = (node) => { const r = document.createRange(); r.selectNodeContents(node);
                               return r.getBoundingClientRect(); };
      const bad = labels.filter((l) => {
        const box = l.getBoundingClientRect(), numbers = rect(l.lastChild);
        return numbers.right > box.right + 1 || numbers.left < box.left;
      }).map((l) => l.textContent.slice(0, 80));
      const isCut = (l) => l.firstElementChild?.matches('.name') &&
          l.firstElementChild.scrollWidth > l.firstElementChild.clientWidth;
      const cut = labels.filter(isCut).length, probeCut = labels.length > 0 && isCut(labels[0]);
      if (probe) probe.textContent = name;
      pane.style.width = '';
      return {labels: labels.length, bad, cut, probeCut, probe: labels[0]?.textContent};
  })()`);
  if (!found.labels) throw new CheckFailed('no label in the shown tree');
  if (found.bad.length) {
    throw new CheckFailed(`in a pane ${NARROW_PANE_PX} px wide, ${found.bad.length} of ` +
                          `${found.labels} labels lose their time or share, e.g. ` +
                          found.bad.slice(0, 3).map(say).join(', '));
  }
  if (!found.probeCut) {
    throw new CheckFailed(`${say(found.probe)} with a name 200 characters longer: the name is not ` +
                          'cut in a span of its own (.label > .name)');
  }
  return `${NARROW_PANE_PX} px: ${found.cut} of ${found.labels} names cut (one made long), ` +
    'every time and share kept';
}

/**
 * Every .node and .fold agrees with nodeClass/nodeLabel/foldText; stateClasses (such as
 * 'selected') are what the viewer adds on interaction and are left out.
 */
export async function checkConsistency(ctx, who = 'C++-written', stateClasses = []) {
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

/**
 * Every tree the page holds is what the viewer draws for that thread when the page holds none
 * (qp.initialTree, for a thread past the page's budget or after a change of order), markup for
 * markup: the viewer's initial view is the twin of html_tree.cpp's. To run before any
 * interaction changes a tree. Returns how many trees and elements were compared.
 */
export async function checkInitialViewTwin(ctx) {
  const found = await js(ctx.page, `(() => {
      const trees = [...document.querySelectorAll('#trees .tree')].filter((t) => t.firstElementChild);
      const box = document.createElement('div');
      const problems = [];
      let elements = 0;
      for (const tree of trees) {
        box.innerHTML = qp.initialTree(qp.threads[+tree.dataset.thread], qp.INITIAL_BUDGET);
        elements += box.getElementsByTagName('*').length;
        const page = tree.innerHTML, viewer = box.innerHTML;
        if (page === viewer) continue;
        let i = 0;
        while (page[i] === viewer[i]) i++;
        const at = (text) => JSON.stringify(text.slice(Math.max(0, i - 100), i + 100));
        problems.push('thread ' + tree.dataset.thread + ', character ' + i + ' of ' + page.length +
                      ': the page has ' + at(page) + ', the viewer draws ' + at(viewer));
      }
      return {trees: trees.length, elements, problems};
  })()`);
  if (found.trees === 0) throw new CheckFailed('the page holds no tree to compare');
  if (found.problems.length) {
    throw new CheckFailed(`the viewer draws ${found.problems.length} of the page's ${found.trees} ` +
                          'trees otherwise than the page holds them:\n    ' +
                          found.problems.slice(0, 3).join('\n    '));
  }
  return `${found.trees} tree${found.trees === 1 ? "" : "s"}, ${found.elements} elements, drawn alike ` +
    "by the page and the viewer";
}

/** Unique selectors of the visible elements of the shown tree matching `selector`. */
async function visibleSelectors(ctx, selector, what) {
  const found = await call(ctx.page, '(sel) => __qprofTest.visible(sel, 50)', selector);
  if ('error' in found) throw new CheckFailed(found.error);
  if (!found.selectors.length) {
    throw new CheckFailed(`no visible ${what} in #${found.tree} (${found.total} in all)`);
  }
  return found.selectors;
}

/**
 * A click on a fold replaces it by its nodes, each box labelled. Sets ctx.openedFold. An earlier check (the
 * keyboard's) may have opened a fold into a thousand nodes that push every other fold off
 * screen, so when none is visible the shown tree's first fold is scrolled into view first.
 */
export async function checkFoldClick(ctx) {
  const {page} = ctx;
  const selector = '.fold:not([data-provider])';
  const shown = await call(page, '(sel) => __qprofTest.visible(sel, 1)', selector);
  if (!('error' in shown) && shown.visible === 0 && shown.total > 0) {
    await call(page, `(sel) => __qprofTest.selectedTree().querySelector(sel)
        .scrollIntoView({block: 'center', behavior: 'instant'})`, selector);
    await settle(page);
  }
  const fold = (await visibleSelectors(ctx, selector, '.fold'))[0];
  const [first, end, text] = await call(page, `(s) => { const f = document.querySelector(s);
      return [+f.dataset.from, +f.dataset.to, f.textContent]; }`, fold);
  await click(page, fold);
  await settle(page);
  const after = await call(page, `(s, from, to) => {
      const tree = document.querySelector(s.split(' ')[0]);
      const nodes = [...tree.querySelectorAll('.node')]
          .filter(e => +e.dataset.n >= from && +e.dataset.n < to);
      return {still: document.querySelector(s) !== null, nodes: nodes.length,
              first: nodes.some(e => +e.dataset.n === from), labels: __qprofTest.boxLabels(nodes)};
  }`, fold, first, end);
  if (after.still) throw new CheckFailed(`clicked the fold ${fold} (${say(text)}) but it is still there`);
  if (after.nodes === 0 || !after.first) {
    throw new CheckFailed(`the fold [${first}, ${end}) is gone but no .node with data-n=${first} ` +
                          `(its first node) appeared; ${after.nodes} nodes in the range`);
  }
  const problem = labelProblem(after.labels, `drawn by the fold ${say(text)}`);
  if (problem) throw new CheckFailed(problem);
  ctx.openedFold = [first, end];
  return `fold [${first}, ${end}) ${say(text)} became ${after.nodes} nodes, each box labelled`;
}

/** ArrowDown moves the selection; Enter (or ArrowRight) on a fold or node opens it. */
export async function checkKeyboard(ctx) {
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
export async function checkDetails(ctx) {
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

/**
 * Choosing another thread shows its tree, drawn (by the viewer when the page holds none, or
 * after a change of order cleared it), and hides the first; choosing the first again shows it.
 */
export async function checkThreadSelect(ctx) {
  const {page} = ctx;
  const options = await js(page, "[...document.querySelectorAll('#thread-select option')].map(o => o.value)");
  if (options.length < 2) {
    throw new CheckFailed(`#thread-select has ${options.length || 'no'} options; toyc runs 2 threads`);
  }
  const first = await js(page, "document.getElementById('thread-select').value");
  const other = options.find((value) => value !== first);
  const nodesOf = (v) => call(page, `(v) => document.querySelectorAll(
      \`#trees .tree[data-thread="\${v}"] .node\`).length`, v);
  const how = await chooseThread(ctx, other);
  const after = await nodesOf(other);
  if (after === 0) throw new CheckFailed(`thread ${other}'s tree is empty once shown (${how})`);
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
  return `thread ${other} shown (${after} nodes), #${ctx.firstTree} hidden, then back (${how})`;
}

/**
 * Chooses a thread the way a keyboard user does; falls back to setting the value and firing
 * 'change' (a native <select> popup cannot be driven headless).
 */
export async function chooseThread(ctx, value) {
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
