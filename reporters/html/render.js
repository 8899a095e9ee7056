// qprof viewer, part 4 of 18: drawing. Which nodes a list of siblings shows open, folded or
// one by one (the rules html_pieces.cpp and html_tree.cpp follow for the initial view), and
// their markup as HTML strings (the same markup the C++ reporter writes). The operations that
// change what is drawn use them: expand.js.
(() => {
  'use strict';

  // The drawing rules shared with the C++ reporter (html_payload_layout.hpp): runs of at most
  // SMALL_RUN nodes are drawn, not folded; longer sibling lists than MAX_PIECES end in a fold,
  // so that one click stays cheap; a thread's initial view draws about INITIAL_BUDGET elements.
  const L = qp.layout;
  const INITIAL_BUDGET = L.INITIAL_ELEMENTS;
  const SMALL_RUN = L.SMALL_RUN;
  const MAX_PIECES = L.MAX_PIECES;
  const OPEN_BUDGET = 500; // elements one click may add by opening important nodes

  qp.INITIAL_BUDGET = INITIAL_BUDGET;
  qp.OPEN_BUDGET = OPEN_BUDGET;

  // ---- what to draw: pieces are nodes ({n}) or folds ({fold, from, to}) ----

  // The pieces of [from, to) where the nodes for which `alone(c)` holds are drawn on their own:
  // the twin of pieces_where in html_pieces.cpp.
  function piecesWhere(T, from, to, alone) {
    const out = [];
    let run = -1;
    const flush = (end) => {
      if (run < 0) return;
      if (end - run <= SMALL_RUN) {
        for (let c = run; c < end; c += T.size[c]) out.push({ n: c, loose: true });
      } else {
        out.push({ fold: true, from: run, to: end });
      }
      run = -1;
    };
    for (let c = from; c < to; c += T.size[c]) {
      const onItsOwn = alone(c);
      if (onItsOwn || run < 0) {
        flush(c);
        if (out.length >= MAX_PIECES) {
          out.push({ fold: true, from: c, to });
          return out;
        }
        if (onItsOwn) out.push({ n: c });
        else run = c;
      }
    }
    flush(to);
    return out;
  }

  // The important nodes on their own, the others in folds.
  const pieces = (T, from, to) => piecesWhere(T, from, to, (c) => qp.isImportant(T, c));
  // The nodes that are no hit and at least minNs long on their own, important or not.
  const longPieces = (T, from, to, minNs) =>
    piecesWhere(T, from, to, (c) => !qp.isHit(T, c) && T.dur[c] >= minNs);

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

  // A max-heap of values ordered by below(x, y): x comes out after y.
  function maxHeap(below) {
    const a = [];
    const less = (i, j) => below(a[i], a[j]);
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

  // Longest first; of two as long, the later one, as std::priority_queue orders html_tree.cpp's
  // pairs of duration and node.
  const longestFirst = (T) => maxHeap((m, n) => T.dur[m] < T.dur[n] || (T.dur[m] === T.dur[n] && m < n));

  // Queues the nodes of a list of pieces that are worth opening: important, and not small.
  function queueOpenable(T, heap, ps) {
    for (const p of ps) {
      if (!p.fold && qp.isImportant(T, p.n) && !isSmall(T, p.n)) heap.push(p.n);
    }
  }

  // Which important nodes to open within a budget: longest first, as the initial view does.
  function plan(T, ps, budget) {
    const opened = new Map();
    const heap = longestFirst(T);
    queueOpenable(T, heap, ps);
    while (heap.size() > 0 && budget > 0) {
      const n = heap.pop();
      const children = pieces(T, n + 1, n + T.size[n]);
      const extra = cost(T, children) - 1; // the children replace the node's one fold
      if (extra > budget) continue;
      budget -= extra;
      opened.set(n, children);
      queueOpenable(T, heap, children);
    }
    return opened;
  }

  // The initial view of a thread the page holds no tree for (a thread past the page's budget,
  // or any thread once the sibling order changed): the twin of InitialTree::plan in
  // html_tree.cpp, so that a tree looks the same whoever drew it. A trace of at most half the
  // budget is drawn whole; otherwise each root opens within its share of the budget, then
  // important nodes, longest first, each to its important children when they fit and are not
  // one fold again, else to its longest children that fit (LONGEST_CHILDREN at most). Returns
  // the pieces of the roots and the opened nodes' pieces by node (`get`, as plan's Map).
  const MIN_OPENING = L.MIN_OPENING;           // elements worth opening a node for
  const LONGEST_CHILDREN = L.LONGEST_CHILDREN; // children shown when a node opens to its longest ones

  function initialPlan(T, budget) {
    if (T.len * 2 <= budget) {
      const all = (from, to) => piecesWhere(T, from, to, () => true);
      return { roots: all(0, T.len), opened: { get: (n) => all(n + 1, n + T.size[n]) } };
    }
    const opened = new Map();
    const closed = longestFirst(T);
    let drawn = 0;
    const show = (shown) => {
      drawn += cost(T, shown);
      queueOpenable(T, closed, shown);
      return shown;
    };
    const fitting = (n, room) => {
      const end = n + T.size[n];
      const important = pieces(T, n + 1, end);
      if (cost(T, important) <= room && !(important.length === 1 && important[0].fold)) return important;
      const durations = [];
      for (let c = n + 1; c < end; c += T.size[c]) if (!qp.isHit(T, c)) durations.push(T.dur[c]);
      durations.sort((a, b) => b - a);
      for (let k = Math.min(durations.length, Math.floor(room / 3), LONGEST_CHILDREN); k > 0; k = Math.floor(k / 2)) {
        const longest = longPieces(T, n + 1, end, durations[k - 1]);
        if (cost(T, longest) <= room) return longest;
      }
      return null;
    };
    const open = (n, room) => {
      if (isSmall(T, n) || opened.has(n)) return;
      const children = fitting(n, room + 1);
      if (children === null) return;
      drawn -= 1; // the children replace the node's one fold
      opened.set(n, show(children));
    };
    const roots = show(pieces(T, 0, T.len));
    let rootsNs = 0;
    for (const p of roots) if (!p.fold) rootsNs += T.dur[p.n];
    for (const p of roots) {
      if (!p.fold && rootsNs > 0) open(p.n, Math.max(MIN_OPENING, Math.floor(T.dur[p.n] / rootsNs * budget)));
    }
    while (closed.size() > 0 && drawn + MIN_OPENING <= budget) open(closed.pop(), budget - drawn);
    return { roots, opened };
  }

  // ---- markup ----

  // The search, set by search.js: null, or which providers (`names`, by provider index) and
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
    out.push(qp.labelHtml(T, n));
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
  // their top-level nodes instead, and of the loose nodes between them (runs too small to
  // fold), spanning the first member's start to the last member's end. Not rows.
  function mergeFolds(T, ps) {
    let folds = 0;
    for (const p of ps) if (p.fold) folds++;
    if (folds < 2 || isRow(T, ps[0].fold ? ps[0].from : ps[0].n)) return ps;
    const out = [];
    const chips = new Map(); // by provider, in the order they first appear
    let from = Infinity;
    let to = 0;
    for (const p of ps) {
      if (!p.fold && !p.loose) { out.push(p); continue; }
      const start = p.fold ? p.from : p.n;
      const end = p.fold ? p.to : p.n + T.size[p.n];
      from = Math.min(from, start);
      to = Math.max(to, end);
      for (let c = start; c < end; c += T.size[c]) {
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

  // A thread's whole tree as the page first shows it (initialPlan).
  function initialTree(T, budget) {
    const out = [];
    const { roots, opened } = initialPlan(T, budget);
    piecesHtml(T, roots, opened, out);
    return out.join('');
  }

  qp.foldHtml = foldHtml;
  qp.initialTree = initialTree;
  qp.pieces = pieces;
  qp.render = render;
})();
