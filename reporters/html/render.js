// qprof viewer, part 4 of 18: drawing. Which nodes a list of siblings shows open, folded or
// one by one (the rules html_pieces.cpp and html_tree.cpp follow for the initial view), and
// their markup as HTML strings (the same markup the C++ reporter writes). The operations that
// change what is drawn use them: expand.js.
(() => {
  'use strict';

  const INITIAL_BUDGET = 4000; // elements per thread when the page had no initial view
  const OPEN_BUDGET = 500;     // elements one click may add by opening important nodes
  const SMALL_RUN = 4;         // runs of at most this many nodes are drawn, not folded
  const MAX_PIECES = 1000;     // longer sibling lists end in a fold, so one click stays cheap

  qp.INITIAL_BUDGET = INITIAL_BUDGET;
  qp.OPEN_BUDGET = OPEN_BUDGET;

  // ---- what to draw: pieces are nodes ({n}) or folds ({fold, from, to}) ----

  function pieces(T, from, to) {
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

  qp.foldHtml = foldHtml;
  qp.pieces = pieces;
  qp.render = render;
})();
