// qprof viewer, part 2 of 11: drawing. Which nodes a list of siblings shows open, folded or
// one by one (the rules html_pieces.cpp and html_tree.cpp follow for the initial view), their
// markup as HTML strings (the same markup the C++ reporter writes), and the operations that
// change what is drawn: expanding a fold, opening or closing a node, opening the path to a
// node. The DOM is the only record of what is open: a node is open when it has a rendered
// child node, closed when its children are one fold (a row's children follow it instead:
// chain.js).
(() => {
  'use strict';

  const INITIAL_BUDGET = 4000; // elements per thread when the page had no initial view
  const OPEN_BUDGET = 500;     // elements one click may add by opening important nodes
  const SMALL_RUN = 4;         // runs of at most this many nodes are drawn, not folded
  const MAX_PIECES = 1000;     // longer sibling lists end in a fold, so one click stays cheap
  const EXPAND_CHUNK = 250;    // top-level nodes one fold click draws
  const REVEAL_BEFORE = 10;    // siblings drawn around a revealed node
  const REVEAL_AFTER = 50;
  const SLACK = 10;            // never leave a fold of fewer siblings than this behind

  qp.INITIAL_BUDGET = INITIAL_BUDGET;
  qp.OPEN_BUDGET = OPEN_BUDGET;

  qp.treeEls = [];
  qp.current = []; // per thread: the selected item (the roving tab stop), or null
  qp.visible = 0;

  // ---- what to draw: pieces are nodes ({n}) or folds ({fold, from, to}) ----

  function pieces(T, from, to) {
    const out = [];
    let run = -1;
    const flush = (end) => {
      if (run < 0) return;
      if (end - run <= SMALL_RUN) {
        for (let c = run; c < end; c += T.size[c]) out.push({ n: c });
      } else {
        out.push({ fold: true, from: run, to: end });
      }
      run = -1;
    };
    for (let c = from; c < to; c += T.size[c]) {
      const important = qp.isImportant(T, c);
      if (important || run < 0) {
        flush(c);
        if (out.length >= MAX_PIECES) {
          out.push({ fold: true, from: c, to });
          return out;
        }
        if (important) out.push({ n: c });
        else run = c;
      }
    }
    flush(to);
    return out;
  }

  // A node whose subtree is this small is never folded: a fold chip would be wider than the
  // few boxes it hides. Its children are always drawn, so it cannot be closed either.
  const isSmall = (T, n) => T.size[n] - 1 <= SMALL_RUN;
  qp.isSmall = isSmall;

  // Elements drawn for a list of pieces when none of its nodes is opened.
  function cost(T, ps) {
    let c = 0;
    for (const p of ps) c += p.fold ? 1 : isSmall(T, p.n) ? T.size[p.n] : 2;
    return c;
  }

  // A max-heap of values ordered by key(value).
  function maxHeap(key) {
    const a = [];
    const less = (i, j) => key(a[i]) < key(a[j]);
    const swap = (i, j) => { const x = a[i]; a[i] = a[j]; a[j] = x; };
    function push(v) {
      a.push(v);
      for (let i = a.length - 1; i > 0;) {
        const p = (i - 1) >> 1;
        if (!less(p, i)) return;
        swap(p, i);
        i = p;
      }
    }
    function pop() {
      const top = a[0];
      const last = a.pop();
      if (a.length === 0) return top;
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        let m = i;
        if (l < a.length && less(m, l)) m = l;
        if (l + 1 < a.length && less(m, l + 1)) m = l + 1;
        if (m === i) return top;
        swap(i, m);
        i = m;
      }
    }
    return { push, pop, size: () => a.length };
  }

  // Which important nodes to open within a budget: longest first, as the initial view does.
  function plan(T, ps, budget) {
    const opened = new Map();
    const heap = maxHeap((n) => T.dur[n]);
    const seed = (list) => {
      for (const p of list) {
        if (!p.fold && qp.isImportant(T, p.n) && !isSmall(T, p.n)) heap.push(p.n);
      }
    };
    seed(ps);
    while (heap.size() > 0 && budget > 0) {
      const n = heap.pop();
      const children = pieces(T, n + 1, n + T.size[n]);
      const extra = cost(T, children) - 1; // the children replace the node's one fold
      if (extra > budget) continue;
      budget -= extra;
      opened.set(n, children);
      seed(children);
    }
    return opened;
  }

  // ---- markup ----

  // The search, set by panels.js: null, or which providers (`names`, by provider index) and
  // which keys (`keys`, by key index, or null) contain the searched text.
  qp.matcher = null;

  function isMatch(T, n) {
    const m = qp.matcher;
    if (m === null) return false;
    if (m.names[qp.providerOf(T, n)] === 1) return true;
    const k = m.keys !== null && T.key !== null ? T.key[n] : 0;
    return k > 0 && m.keys[k - 1] === 1;
  }
  qp.isMatch = isMatch;

  // A chip: the folded siblings of one provider in [from, to), merged from a list's folds
  // (mergeFolds). Its members are the nodes of its provider there that the list does not draw,
  // so the DOM tells them: chipMembers.
  function chipHtml(T, chip, out) {
    const match = qp.matcher !== null && chip.members.some((m) => qp.holdsMatch(T, m, m + T.size[m])) ? '" data-match="' : '';
    out.push('<span class="fold" data-from="', chip.from, '" data-to="', chip.to, '" data-provider="', chip.provider,
      match, '">', qp.escape(qp.chipText(T, chip.provider, chip.members)), '</span>');
  }

  function foldHtml(T, from, to, out) {
    const match = qp.matcher !== null && qp.holdsMatch(T, from, to) ? '" data-match="' : '';
    out.push('<span class="fold" data-from="', from, '" data-to="', to, match, '">',
      qp.escape(qp.foldText(T, from, to)), '</span>');
  }

  // From DEEP_DEPTH on a node is a row: its element holds only its label, and its children
  // are drawn after it, as siblings, so that the markup nests at most DEEP_DEPTH boxes deep
  // however deep the trace (docs/html-report.md, "Deep chains").
  const isRow = (T, n) => T.depth[n] >= qp.DEEP_DEPTH;
  qp.isRow = isRow;

  // A node's element up to its children: whole for a hit or a row, still open otherwise.
  function nodeStartHtml(T, n, out) {
    const cls = qp.classOf(T, n) + (isMatch(T, n) ? ' match' : '');
    if (qp.isHit(T, n)) {
      out.push('<i class="', cls, '" data-n="', n, '"></i>');
      return;
    }
    out.push('<div class="', cls, '" data-n="', n, isRow(T, n) ? '" data-depth="' + T.depth[n] : '', '">');
    const label = qp.labelOf(T, n);
    if (label !== null) out.push('<span class="label">', qp.escape(label), '</span>');
    if (isRow(T, n)) out.push('</div>');
  }
  qp.rowHtml = (T, n) => {
    const out = [];
    nodeStartHtml(T, n, out);
    return out.join('');
  };

  // Writes node n up to its children; returns them when they are drawn (inside the node, or
  // after it for a row), else writes the node whole and returns null.
  function nodeHtml(T, n, opened, out) {
    nodeStartHtml(T, n, out);
    if (qp.isHit(T, n)) return null;
    if (T.size[n] > 1) {
      const children = opened.get(n) || (isSmall(T, n) ? pieces(T, n + 1, n + T.size[n]) : null);
      if (children) return children;
      foldHtml(T, n + 1, n + T.size[n], out);
    }
    if (!isRow(T, n)) out.push('</div>');
    return null;
  }

  // The twin of merge_folds in html_pieces.cpp: a list with two folds or more (a wide pass
  // opened to its longest children has one between every two) gets one chip per provider of
  // their top-level nodes instead, spanning the first fold's start to the last fold's end. Not
  // rows.
  function mergeFolds(T, ps) {
    let folds = 0;
    for (const p of ps) if (p.fold) folds++;
    if (folds < 2 || isRow(T, ps[0].fold ? ps[0].from : ps[0].n)) return ps;
    const out = [];
    const chips = new Map(); // by provider, in the order they first appear
    let from = Infinity;
    let to = 0;
    for (const p of ps) {
      if (!p.fold) { out.push(p); continue; }
      from = Math.min(from, p.from);
      to = Math.max(to, p.to);
      for (let c = p.from; c < p.to; c += T.size[c]) {
        const provider = qp.providerOf(T, c);
        let chip = chips.get(provider);
        if (!chip) {
          chip = { fold: true, chip: true, provider, members: [] };
          chips.set(provider, chip);
        }
        chip.members.push(c);
      }
    }
    for (const chip of chips.values()) out.push(Object.assign(chip, { from, to }));
    return out;
  }

  // How siblings are drawn: 'heaviest' first (the default, as the page is written) or 'call'.
  qp.siblingOrder = 'heaviest';
  const ordered = (T, ps) => {
    const merged = mergeFolds(T, ps);
    return qp.siblingOrder === 'heaviest' ? qp.heaviestFirst(T, merged) : merged;
  };

  // Depth-first with an explicit stack of sibling lists: a plan may open thousands of levels.
  function piecesHtml(T, ps, opened, out) {
    const stack = [{ list: ordered(T, ps), next: 0, close: '' }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.next === top.list.length) {
        out.push(top.close);
        stack.pop();
        continue;
      }
      const p = top.list[top.next++];
      if (p.chip) {
        chipHtml(T, p, out);
        continue;
      }
      if (p.fold) {
        foldHtml(T, p.from, p.to, out);
        continue;
      }
      const children = nodeHtml(T, p.n, opened, out);
      if (children) stack.push({ list: ordered(T, children), next: 0, close: isRow(T, p.n) ? '' : '</div>' });
    }
  }

  function render(T, ps, budget) {
    const out = [];
    piecesHtml(T, ps, plan(T, ps, budget - cost(T, ps)), out);
    return out.join('');
  }

  qp.pieces = pieces;
  qp.render = render;

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
  // list does not draw (no element of theirs beside the chip).
  function chipMembers(t, chip) {
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
  qp.chipMembers = chipMembers;

  // The chip's text as it should read now, from what the DOM draws beside it.
  qp.chipTextOf = (t, chip) => qp.chipText(qp.threads[t], numAttr(chip, 'data-provider'), chipMembers(t, chip));

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
      chip.textContent = qp.chipText(T, numAttr(chip, 'data-provider'), members.filter((n) => !shown.has(n)));
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
    let container = qp.treeEls[t];
    for (let i = 0; i < path.length && container; i++) {
      if (isRow(T, path[i])) return qp.ensureRowPath(t, container, path.slice(i));
      container = drawChild(t, container, path[i]);
    }
    return container;
  };
})();
