// qprof viewer, part 5 of 18, drawing continued from render.js: the operations that change
// what is drawn -- expanding a fold or a chip, opening or closing a node, opening the path to
// a node -- and the DOM helpers the trees' scripts share. The DOM is the only record of what
// is open: a node is open when it has a rendered child node, closed when its children are one
// fold (a row's children follow it instead: chain.js).
(() => {
  'use strict';

  const { pieces, render, foldHtml, isRow, isSmall } = qp;

  const EXPAND_CHUNK = 250;    // top-level nodes one fold click draws
  const REVEAL_BEFORE = 10;    // siblings drawn around a revealed node
  const REVEAL_AFTER = 50;
  const SLACK = 10;            // never leave a fold of fewer siblings than this behind

  qp.treeEls = [];
  qp.current = []; // per thread: the selected item (the roving tab stop), or null
  qp.visible = 0;

  // ---- DOM helpers ----

  const isLevels = (el) => el != null && el.classList.contains('levels');
  const isItem = (el) => el != null && (el.classList.contains('node') || el.classList.contains('fold') || isLevels(el));
  const isNode = (el) => el != null && el.classList.contains('node');
  const numAttr = (el, name) => Number(el.getAttribute(name));
  qp.isItem = isItem;
  qp.isNode = isNode;
  qp.isLevels = isLevels;
  qp.numAttr = numAttr;

  // The first node an item stands for: a node's own, a fold's first, a levels chip's top.
  const itemStart = (el) => numAttr(el, isNode(el) ? 'data-n' : 'data-from');
  qp.itemStart = itemStart;

  function clearChildren(el) {
    for (let c = el.lastChild; c && !(c.nodeType === 1 && c.classList.contains('label')); c = el.lastChild) {
      c.remove();
    }
  }

  qp.threadOf = (el) => {
    const tree = el.closest('.tree');
    return tree ? Number(tree.getAttribute('data-thread')) : -1;
  };

  // The selection may have been inside markup that was just replaced.
  function forgetDetached(t) {
    const cur = qp.current[t];
    if (cur && !cur.isConnected) {
      qp.current[t] = null;
      qp.treeEls[t].tabIndex = 0;
    }
  }
  qp.forgetDetached = forgetDetached;

  // ---- opening and closing ----

  // The index in `tops` (ascending) of the last top-level node starting at or before n.
  function topAt(tops, n) {
    let a = 0;
    let b = tops.length - 1;
    while (a < b) {
      const m = (a + b + 1) >> 1;
      if (tops[m] <= n) a = m; else b = m - 1;
    }
    return a;
  }

  // Which of a run's `count` top-level nodes to draw, [lo, hi): the first chunk, or a narrow
  // window around index `at`; never leaving behind a fold of only a few siblings.
  function drawnRange(count, at) {
    let lo = at >= 0 ? Math.max(0, at - REVEAL_BEFORE) : 0;
    let hi = Math.min(count, at >= 0 ? at + REVEAL_AFTER : EXPAND_CHUNK);
    if (lo <= SLACK) lo = 0;
    if (count - hi <= SLACK) hi = count;
    return [lo, hi];
  }

  // The element drawn for node n from `el` on, up to (not including) `stop`; or `el` itself.
  function drawnNode(el, stop, n) {
    for (let c = el; c && c !== stop; c = c.nextElementSibling) {
      if (isNode(c) && numAttr(c, 'data-n') === n) return c;
    }
    return el;
  }

  // Replaces a fold by its run's top-level nodes; `focus` (a node index inside the run) asks
  // for a narrow window of siblings around that node instead of the run's beginning.
  // Returns the element drawn for `focus`, or the first element drawn.
  qp.expandFold = function expandFold(t, fold, budget, focus) {
    if (isChip(fold)) return expandChip(t, fold, budget, focus);
    const T = qp.threads[t];
    const from = numAttr(fold, 'data-from');
    const to = numAttr(fold, 'data-to');
    const tops = [];
    for (let c = from; c < to; c += T.size[c]) tops.push(c);
    const at = focus != null ? topAt(tops, focus) : -1;
    const [lo, hi] = drawnRange(tops.length, at);
    const ps = [];
    if (lo > 0) ps.push({ fold: true, from, to: tops[lo] });
    for (let i = lo; i < hi; i++) ps.push({ n: tops[i] });
    if (hi < tops.length) ps.push({ fold: true, from: tops[hi], to });
    const stop = fold.nextElementSibling;
    fold.insertAdjacentHTML('afterend', render(T, ps, budget));
    const first = fold.nextElementSibling;
    fold.remove();
    forgetDetached(t);
    return at >= 0 ? drawnNode(first, stop, tops[at]) : first;
  };

  // ---- chips ----

  const isChip = (el) => el.hasAttribute('data-provider');
  qp.isChip = isChip;

  // The nodes a chip stands for: its provider's siblings in [data-from, data-to) that the
  // list does not draw (no element of theirs beside the chip), read from the DOM. `scans`
  // counts the reads the page makes (not the tests' hook's): of each chip, and the most of one.
  const scans = { total: 0, most: 0, of: new WeakMap() };
  function readMembers(t, chip, counted = true) {
    if (counted) {
      const times = (scans.of.get(chip) || 0) + 1;
      scans.of.set(chip, times);
      scans.total++;
      scans.most = Math.max(scans.most, times);
    }
    const T = qp.threads[t];
    const provider = numAttr(chip, 'data-provider');
    const drawn = new Set();
    for (let c = chip.parentElement.firstElementChild; c; c = c.nextElementSibling) {
      if (isNode(c)) drawn.add(numAttr(c, 'data-n'));
    }
    const members = [];
    for (let c = numAttr(chip, 'data-from'), to = numAttr(chip, 'data-to'); c < to; c += T.size[c]) {
      if (qp.providerOf(T, c) === provider && !drawn.has(c)) members.push(c);
    }
    return members;
  }

  // A chip's members, read once per chip element: only expandChip draws a member beside its
  // chip (a redraw makes new chips), and it keeps the rest. A build scan's top-level chip
  // holds 400,000 runs, and a search revealing its 20 slowest matches read them 60 times over.
  const kept = new WeakMap();
  function chipMembers(t, chip) {
    let members = kept.get(chip);
    if (members === undefined) {
      members = readMembers(t, chip);
      kept.set(chip, members);
    }
    return members;
  }
  qp.chipMembers = chipMembers;
  qp.chipScans = () => ({ total: scans.total, most: scans.most });

  // The chip's text as it should read now, from what the DOM draws beside it (not what is
  // kept: the tests compare the two).
  qp.chipTextOf = (t, chip) => qp.chipText(qp.threads[t], numAttr(chip, 'data-provider'), readMembers(t, chip, false));

  // Draws a chip's members page by page: the next EXPAND_CHUNK (heaviest first, or in call
  // order), or with `focus` the member holding that node; the chip stays after them for the
  // rest. Returns the element drawn for `focus`, or the first element drawn.
  function expandChip(t, chip, budget, focus) {
    const T = qp.threads[t];
    const members = chipMembers(t, chip);
    if (members.length === 0) return null;
    const count = members.length - EXPAND_CHUNK <= SLACK ? members.length : EXPAND_CHUNK;
    const drawn = focus != null ? [members[topAt(members, focus)]]
      : qp.siblingOrder === 'heaviest' ? qp.heaviestNodes(T, members, count) : members.slice(0, count);
    const before = chip.previousElementSibling;
    const parent = chip.parentElement;
    chip.insertAdjacentHTML('beforebegin', render(T, drawn.map((n) => ({ n })), budget));
    const first = before ? before.nextElementSibling : parent.firstElementChild;
    if (drawn.length === members.length) chip.remove();
    else {
      const shown = new Set(drawn);
      const rest = members.filter((n) => !shown.has(n));
      kept.set(chip, rest);
      chip.textContent = qp.chipText(T, numAttr(chip, 'data-provider'), rest);
      if (qp.markChip) qp.markChip(t, chip);
    }
    forgetDetached(t);
    return focus != null ? drawnNode(first, chip, drawn[0]) : first;
  }

  // Replaces what is drawn of node el's children: inside it, or after it for a row.
  function replaceChildren(T, el, html) {
    if (isRow(T, numAttr(el, 'data-n'))) {
      qp.clearRowChildren(T, el);
      el.insertAdjacentHTML('afterend', html);
      return el.nextElementSibling;
    }
    clearChildren(el);
    el.insertAdjacentHTML('beforeend', html);
    return el.lastElementChild;
  }

  qp.openNode = function openNode(t, el, budget) {
    const T = qp.threads[t];
    const n = numAttr(el, 'data-n');
    if (T.size[n] <= 1 || qp.isHit(T, n)) return;
    const ps = pieces(T, n + 1, n + T.size[n]);
    if (ps.length === 1 && ps[0].fold) {
      // All children would be one fold again, which is what "closed" looks like: open means
      // showing them, so expand that fold at once.
      const out = [];
      foldHtml(T, n + 1, n + T.size[n], out);
      qp.expandFold(t, replaceChildren(T, el, out.join('')), budget);
    } else {
      replaceChildren(T, el, render(T, ps, budget));
    }
    forgetDetached(t);
  };

  qp.closeNode = function closeNode(t, el) {
    const T = qp.threads[t];
    const n = numAttr(el, 'data-n');
    if (isSmall(T, n)) return; // nothing to hide, or too little to be worth a fold
    const out = [];
    foldHtml(T, n + 1, n + T.size[n], out);
    replaceChildren(T, el, out.join(''));
    forgetDetached(t);
  };

  // Among the items directly in `container`: the element of node `target` (a child of the
  // container's node), or the fold or chip that holds it, or neither.
  function findChild(T, container, target) {
    for (let c = container.firstElementChild; c; c = c.nextElementSibling) {
      if (isNode(c) && numAttr(c, 'data-n') === target) return { node: c };
    }
    for (let c = container.firstElementChild; c; c = c.nextElementSibling) {
      if (!c.classList.contains('fold')) continue;
      if (!(numAttr(c, 'data-from') <= target && target < numAttr(c, 'data-to'))) continue;
      if (!isChip(c) || qp.providerOf(T, target) === numAttr(c, 'data-provider')) return { fold: c };
    }
    return {};
  }

  // Draws node `target` directly inside `container` (a tree or the target's parent, drawn):
  // expands the fold holding it, or opens the closed parent. Returns its element or null.
  function drawChild(t, container, target) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const { node, fold } = findChild(qp.threads[t], container, target);
      if (node) return node;
      let found = null;
      if (fold) found = qp.expandFold(t, fold, 0, target);
      else if (isNode(container)) qp.openNode(t, container, 0);
      else return null;
      if (found && numAttr(found, 'data-n') === target) return found;
    }
    return null;
  }

  // Opens every fold and closed node on the path from a root to n; returns n's element. The
  // rows of the path are drawn by qp.ensureRowPath (chain.js).
  qp.ensurePath = function ensurePath(t, n) {
    const T = qp.threads[t];
    if (!T || !(n >= 0 && n < T.len)) return null;
    const path = [];
    for (let a = n; a >= 0; a = T.parent[a]) path.push(a);
    path.reverse();
    qp.ensureTree(t);
    let container = qp.treeEls[t];
    for (let i = 0; i < path.length && container; i++) {
      if (isRow(T, path[i])) return qp.ensureRowPath(t, container, path.slice(i));
      container = drawChild(t, container, path[i]);
    }
    return container;
  };
})();
