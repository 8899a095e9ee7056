// qprof viewer, part 6 of 18, drawing continued from render.js: deep chains as flat lists.
// From qp.DEEP_DEPTH on a node is a row: its element holds only its label and its children are the
// rows after it, so the boxes of a chain 100,000 deep are siblings in its ancestor at depth
// DEEP_DEPTH - 1 and lay out in linear time. Which row holds which is told by the node
// indices alone: an item after row n that starts inside n's subtree is drawn for that subtree.
//
// Revealing a node far below what is drawn would draw every level on its way; instead the
// levels between are one "levels" chip, <span class="levels" data-from="h" data-to="b">, that
// stands for h's subtree except b's (b, a descendant of h, is drawn right after the chip).
// Activating the chip draws its next LEVELS_STEP levels, so every action does bounded work.
(() => {
  'use strict';

  const REVEAL_LEVELS = 60; // levels a reveal draws at most; beyond, a chip hides the top ones
  const REVEAL_TAIL = 40;   // ancestors of the revealed node drawn under the chip
  const LEVELS_STEP = 250;  // levels one activation of a chip draws

  const { isItem, isNode, isLevels, numAttr, itemStart } = qp;

  // ---- rows ----

  function inRowSubtree(T, n, el) {
    if (!isItem(el)) return false;
    const s = itemStart(el);
    return s > n && s < n + T.size[n];
  }

  // The last element drawn for the subtree of a row (the row itself when nothing is).
  function rowEnd(T, row) {
    const n = numAttr(row, 'data-n');
    let last = row;
    while (inRowSubtree(T, n, last.nextElementSibling)) last = last.nextElementSibling;
    return last;
  }

  qp.clearRowChildren = function clearRowChildren(T, row) {
    const n = numAttr(row, 'data-n');
    while (inRowSubtree(T, n, row.nextElementSibling)) row.nextElementSibling.remove();
  };

  // The first item drawn as a child of node el, or null.
  qp.firstChild = function firstChild(t, el) {
    const T = qp.threads[t];
    const n = numAttr(el, 'data-n');
    if (qp.isRow(T, n)) return inRowSubtree(T, n, el.nextElementSibling) ? el.nextElementSibling : null;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (isItem(c)) return c;
    return null;
  };

  // A node is open when a child node of it is drawn, closed when its children are one fold.
  qp.isOpen = function isOpen(t, el) {
    const T = qp.threads[t];
    const n = numAttr(el, 'data-n');
    if (qp.isRow(T, n)) {
      for (let c = el.nextElementSibling; inRowSubtree(T, n, c); c = c.nextElementSibling) {
        if (!c.classList.contains('fold')) return true;
      }
      return false;
    }
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (isNode(c)) return true;
    return false;
  };

  // The item drawn as the parent of `el`: the closest item before it in a flat list that
  // holds it (a row, or the chip that hides its ancestors: its bottom's subtree follows it),
  // else the element around it.
  qp.parentItem = function parentItem(t, el, root) {
    const T = qp.threads[t];
    const s = itemStart(el);
    const holds = (c) => {
      if (isNode(c)) return inRowSubtree(T, numAttr(c, 'data-n'), el);
      const bottom = numAttr(c, 'data-to');
      return isLevels(c) && bottom <= s && s < bottom + T.size[bottom];
    };
    if (T.depth[s] > qp.DEEP_DEPTH || (isNode(el) && qp.isRow(T, s))) {
      for (let c = el.previousElementSibling; isItem(c); c = c.previousElementSibling) {
        if (holds(c)) return c;
      }
    }
    return el.parentElement !== root ? el.parentElement : null;
  };

  // ---- markup of a path ----

  qp.levelsText = (T, from, to) => '\u22ef ' + qp.thousands(T.depth[to] - T.depth[from]) + ' levels \u22ef';

  function levelsHtml(T, from, to) {
    return '<span class="levels" data-from="' + from + '" data-to="' + to + '">' +
      qp.escape(qp.levelsText(T, from, to)) + '</span>';
  }

  // The pieces of the run [from, to) with its top-level node c on its own: those drawn
  // before c and those after it, in the order siblings are drawn.
  function around(T, from, to, c) {
    const ps = qp.pieces(T, from, c).concat([{ n: c }], qp.pieces(T, c + T.size[c], to));
    const drawn = qp.siblingOrder === 'heaviest' ? qp.heaviestFirst(T, ps) : ps;
    const at = drawn.findIndex((p) => !p.fold && p.n === c);
    return [drawn.slice(0, at), drawn.slice(at + 1)];
  }

  // The rows of `chain` (a node, then a child of it, and so on), each followed by its other
  // children folded, the levels [skipFrom, skipTo) as one chip. Returns the markup before the
  // last node's subtree (without the last node when `stop`, as it is drawn already) and after.
  function pathHtml(T, chain, skipFrom, skipTo, stop) {
    const before = [];
    const after = [];
    const last = chain.length - 1;
    for (let i = 0; i < last; i++) {
      if (i === skipFrom && skipTo > skipFrom) {
        before.push(levelsHtml(T, chain[i], chain[skipTo]));
        i = skipTo - 1;
        continue;
      }
      const n = chain[i];
      const [pre, post] = around(T, n + 1, n + T.size[n], chain[i + 1]);
      before.push(qp.rowHtml(T, n), qp.render(T, pre, 0));
      after.push(qp.render(T, post, 0));
    }
    if (!stop) before.push(qp.render(T, [{ n: chain[last] }], 0));
    return [before.join(''), after.reverse().join('')];
  }

  // ---- revealing a row ----

  // The first item from `el` on, among those drawn for node `top`'s subtree, that is node
  // n's element, the fold holding n, or a chip hiding n.
  function find(T, el, top, n) {
    for (let c = el; c; c = c.nextElementSibling) {
      if (!isItem(c)) continue;
      const s = itemStart(c);
      if (!(s > top && s < top + T.size[top])) return null;
      if (c.classList.contains('fold') ? s <= n && n < numAttr(c, 'data-to') : s === n) return c;
    }
    return null;
  }

  // Draws `chain` (its first node is hidden by `el`, a fold or a chip) down to its last node,
  // whose element it returns. Past REVEAL_LEVELS levels, the upper ones are one chip.
  function drawChain(t, el, chain) {
    const T = qp.threads[t];
    const long = chain.length > REVEAL_LEVELS;
    const [before, after] = pathHtml(T, chain, long ? 0 : -1, long ? chain.length - 1 - REVEAL_TAIL : -1, false);
    const parent = el.parentElement;
    if (isLevels(el)) {
      // The chip hides the chain's top and the path goes elsewhere than the chip's bottom:
      // draw the top afresh in place of the chip and what was drawn under it.
      const bottom = el.nextElementSibling;
      el.insertAdjacentHTML('beforebegin', before + after);
      if (isNode(bottom) && numAttr(bottom, 'data-n') === numAttr(el, 'data-to')) {
        qp.clearRowChildren(T, bottom);
        bottom.remove();
      }
      el.remove();
    } else {
      const [pre, post] = around(T, numAttr(el, 'data-from'), numAttr(el, 'data-to'), chain[0]);
      el.insertAdjacentHTML('beforebegin', qp.render(T, pre, 0) + before + after + qp.render(T, post, 0));
      el.remove();
    }
    qp.forgetDetached(t);
    return parent.querySelector(':scope > [data-n="' + chain[chain.length - 1] + '"]');
  }

  // Draws the rows of `chain` inside `anchor` (the chain's first node's parent, drawn) down
  // to the chain's last node; returns its element. Walks what is drawn level by level, so
  // the work is linear in what is drawn and in the chain, never more.
  qp.ensureRowPath = function ensureRowPath(t, anchor, chain) {
    const T = qp.threads[t];
    let top = numAttr(anchor, 'data-n');
    let from = anchor.firstElementChild;
    let el = null;
    for (let k = 0; k < chain.length; k++) {
      el = find(T, from, top, chain[k]);
      if (!el) return null;
      if (isLevels(el)) {
        const bottom = numAttr(el, 'data-to');
        const j = k + T.depth[bottom] - T.depth[chain[k]];
        if (j >= chain.length || chain[j] !== bottom) return drawChain(t, el, chain.slice(k));
        k = j - 1; // the chip hides only ancestors: its bottom row follows it
        from = el.nextElementSibling;
        continue;
      }
      if (!isNode(el)) return drawChain(t, el, chain.slice(k));
      top = chain[k];
      from = el.nextElementSibling;
    }
    return el;
  };

  // Draws the next LEVELS_STEP levels a chip hides; returns the first element drawn.
  qp.expandLevels = function expandLevels(t, chip) {
    const T = qp.threads[t];
    const bottom = numAttr(chip, 'data-to');
    const chain = [];
    for (let a = bottom; a !== numAttr(chip, 'data-from'); a = T.parent[a]) chain.push(a);
    chain.push(numAttr(chip, 'data-from'));
    chain.reverse();
    const skip = chain.length - 1 > LEVELS_STEP ? LEVELS_STEP : -1;
    const [before, after] = pathHtml(T, chain, skip, chain.length - 1, true);
    const row = chip.nextElementSibling;
    const previous = chip.previousElementSibling;
    if (isNode(row) && numAttr(row, 'data-n') === bottom) rowEnd(T, row).insertAdjacentHTML('afterend', after);
    chip.insertAdjacentHTML('beforebegin', before);
    const parent = chip.parentElement;
    chip.remove();
    qp.forgetDetached(t);
    return previous ? previous.nextElementSibling : parent.firstElementChild;
  };

  qp.levelsDetails = function levelsDetails(t, chip, pinned) {
    const T = qp.threads[t];
    const from = numAttr(chip, 'data-from');
    const to = numAttr(chip, 'data-to');
    const levels = T.depth[to] - T.depth[from];
    return '<h2>' + (pinned ? 'Selected' : 'Preview') + ' levels</h2><dl>' +
      '<dt>Levels</dt><dd data-field="levels">' + qp.thousands(levels) + '</dd>' +
      '<dt>Depths</dt><dd data-field="depths">' + qp.thousands(T.depth[from]) + ' \u2013 ' +
      qp.thousands(T.depth[to] - 1) + '</dd></dl><p class="hint">Click, Enter or \u2192 draws the next ' +
      qp.thousands(Math.min(levels, LEVELS_STEP)) + ' of them.</p>';
  };
})();
