// qprof viewer, part 7 of 18: the trees as a widget. Roving-focus keyboard model, selection,
// mouse and hover, the thread shown, and reveal; all listeners are delegated on #trees.
(() => {
  'use strict';

  const { isItem, isNode, numAttr, isOpen } = qp;

  // ---- moving through what is drawn, in pre-order ----

  function firstChildItem(el) {
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (isItem(c)) return c;
    return null;
  }
  function lastChildItem(el) {
    for (let c = el.lastElementChild; c; c = c.previousElementSibling) if (isItem(c)) return c;
    return null;
  }
  function nextSiblingItem(el) {
    for (let c = el.nextElementSibling; c; c = c.nextElementSibling) if (isItem(c)) return c;
    return null;
  }
  function prevSiblingItem(el) {
    for (let c = el.previousElementSibling; c; c = c.previousElementSibling) if (isItem(c)) return c;
    return null;
  }
  function lastDeep(el) {
    for (let c = lastChildItem(el); c; c = lastChildItem(el)) el = c;
    return el;
  }
  // Rows of a flat list (chain.js) hold no items: the next row is the next item anyway.
  function nextItem(el, root) {
    const child = isNode(el) ? firstChildItem(el) : null;
    if (child) return child;
    for (; el && el !== root; el = el.parentElement) {
      const s = nextSiblingItem(el);
      if (s) return s;
    }
    return null;
  }
  function prevItem(el, root) {
    const s = prevSiblingItem(el);
    if (s) return lastDeep(s);
    const p = el.parentElement;
    return p && p !== root ? p : null;
  }
  const hasChildren = (t, el) => isNode(el) && qp.threads[t].size[numAttr(el, 'data-n')] > 1;
  // A small subtree is always drawn whole: it has children but cannot be opened or closed.
  const canToggle = (t, el) => hasChildren(t, el) && !qp.isSmall(qp.threads[t], numAttr(el, 'data-n'));

  function toggle(t, el) {
    if (!canToggle(t, el)) return;
    if (isOpen(t, el)) qp.closeNode(t, el);
    else qp.openNode(t, el, qp.OPEN_BUDGET);
    select(t, el, { focus: true });
  }

  // A fold draws its queries; a levels chip its next levels.
  function activateFold(t, fold) {
    const first = qp.isLevels(fold) ? qp.expandLevels(t, fold) : qp.expandFold(t, fold, qp.OPEN_BUDGET);
    if (first) select(t, first, { focus: true });
  }

  // ---- selection and focus ----

  // What a screen reader announces for an item: provider, outcome and share, not all the
  // text of the boxes inside it.
  function itemLabel(t, el) {
    if (qp.isLevels(el)) return el.textContent.replace(/\u22ef/g, '').trim() + ' not drawn';
    if (!isNode(el)) return 'folded ' + el.textContent.replace(/^\+/, '').replace(' \u00b7 ', ', ');
    const T = qp.threads[t];
    const n = numAttr(el, 'data-n');
    const outcome = qp.OUTCOMES[qp.outcomeOf(T, n)] || 'miss';
    const share = qp.isHit(T, n) ? '' : qp.isWait(T, n) ? ', waiting' : ', ' + qp.shareText(T, n) + ' of busy time';
    return qp.nodeName(t, n) + ', ' + outcome + share;
  }

  // Only the selection, the tree's one tab stop, carries tree-item semantics; stamping every
  // node would cost a million attributes' worth of markup for nothing the eye can see.
  const ITEM_ATTRIBUTES = ['tabindex', 'role', 'aria-selected', 'aria-expanded', 'aria-level', 'aria-label'];
  function unmark(el) {
    el.classList.remove('selected');
    for (const name of ITEM_ATTRIBUTES) el.removeAttribute(name);
  }
  function mark(t, el) {
    el.classList.add('selected');
    el.tabIndex = 0;
    el.setAttribute('role', 'treeitem');
    el.setAttribute('aria-selected', 'true');
    el.setAttribute('aria-label', itemLabel(t, el));
    if (isNode(el)) el.setAttribute('aria-level', String(qp.threads[t].depth[numAttr(el, 'data-n')] + 1));
    if (!isNode(el)) el.setAttribute('aria-expanded', 'false');
    else if (hasChildren(t, el)) el.setAttribute('aria-expanded', String(isOpen(t, el)));
  }

  // Centred, unless the box is taller than the trees' view: then its top, where its label is.
  function scrollBlock(el, how) {
    if (how !== 'center') return 'nearest';
    const view = document.getElementById('trees');
    return view && el.offsetHeight > view.clientHeight ? 'start' : 'center';
  }

  // What the details panel shows when the pointer is not over a box: the selected node, or
  // the provider whose statistics were opened after it.
  qp.pinned = 'node';

  function select(t, el, opts) {
    const o = opts || {};
    qp.pinned = 'node';
    const prev = qp.current[t];
    if (prev && prev !== el) unmark(prev);
    qp.current[t] = el;
    mark(t, el);
    // The item is now the tree's tab stop; the container leaves the tab order so that
    // Shift+Tab from the item leaves the tree instead of bouncing back into it.
    qp.treeEls[t].tabIndex = -1;
    if (o.focus) el.focus({ preventScroll: true });
    if (o.scroll) el.scrollIntoView({ block: scrollBlock(el, o.scroll), inline: 'nearest' });
    qp.showDetails(t, el, true);
    if (isNode(el) && qp.timelineSelect) qp.timelineSelect(t, numAttr(el, 'data-n'));
  }

  qp.showThread = function showThread(t) {
    if (!(t >= 0 && t < qp.treeEls.length)) return;
    qp.ensureTree(t);
    qp.visible = t;
    qp.treeEls.forEach((tree, i) => { tree.hidden = i !== t; });
    const sel = document.getElementById('thread-select');
    qp.listThread(t);
    if (sel && sel.value !== String(t)) sel.value = String(t);
    const cur = qp.current[t];
    if (cur && cur.isConnected) qp.showDetails(t, cur, true);
    else qp.showDetails(-1, null, true);
  };

  qp.reveal = function reveal(t, n, opts) {
    const o = opts || {};
    const el = qp.ensurePath(t, n);
    if (!el) return false;
    if (qp.visible !== t) qp.showThread(t);
    select(t, el, { focus: o.focus !== false, scroll: 'center' });
    flash(el);
    return true;
  };

  // A revealed box may be 8 px wide: it pulses for a moment (viewer.css, [data-revealed]).
  // An attribute, not a class, so that the classes stay exactly what the contract says.
  const FLASH_MS = 2000;
  let flashed = null;
  let flashTimer = 0;
  function flash(el) {
    clearTimeout(flashTimer);
    if (flashed) flashed.removeAttribute('data-revealed');
    if (flashed === el) void el.offsetWidth; // restarts the animation on the same box
    flashed = el;
    el.setAttribute('data-revealed', '');
    flashTimer = setTimeout(() => {
      el.removeAttribute('data-revealed');
      flashed = null;
    }, FLASH_MS);
  }

  // ---- events, delegated on #trees ----

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const tree = e.target.closest('.tree');
    if (!tree) return;
    const t = Number(tree.getAttribute('data-thread'));
    let el = qp.current[t];
    if (!el || !el.isConnected) el = firstChildItem(tree);
    if (!el) return;
    const go = (to) => { if (to) select(t, to, { focus: true, scroll: true }); };
    switch (e.key) {
      case 'ArrowDown': go(nextItem(el, tree)); break;
      case 'ArrowUp': go(prevItem(el, tree)); break;
      case 'Home': go(firstChildItem(tree)); break;
      case 'End': { const last = lastChildItem(tree); go(last && lastDeep(last)); break; }
      case 'ArrowRight':
        if (!isNode(el)) activateFold(t, el);
        else if (canToggle(t, el) && !isOpen(t, el)) toggle(t, el);
        else go(qp.firstChild(t, el) || el);
        break;
      case 'ArrowLeft':
        if (canToggle(t, el) && isOpen(t, el)) toggle(t, el);
        else go(qp.parentItem(t, el, tree) || el);
        break;
      case 'Enter':
      case ' ':
        if (!isNode(el)) activateFold(t, el);
        else if (qp.current[t] === el) toggle(t, el);
        else go(el);
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  function onClick(e) {
    const item = e.target.closest('.node, .fold, .levels');
    if (!item) return;
    const t = qp.threadOf(item);
    if (t < 0) return;
    if (!isNode(item)) activateFold(t, item);
    else if (qp.current[t] === item) toggle(t, item);
    else select(t, item, { focus: true });
  }

  // Hover previews a box, but only when the pointer really moves: revealing, searching or
  // drawing a fold scrolls the page under a still pointer, and Chromium then reports the box
  // that came under it, which must not replace the details of what was just selected.
  let hovered = null;
  let pointerX = NaN;
  let pointerY = NaN;
  function onMove(e) {
    if (e.clientX === pointerX && e.clientY === pointerY) return; // the page moved, not the pointer
    pointerX = e.clientX;
    pointerY = e.clientY;
    const inTrees = e.target instanceof Element && e.target.closest('#trees') !== null;
    const item = inTrees ? e.target.closest('.node, .fold, .levels') : null;
    if (item === hovered) return;
    hovered = item;
    if (!item) { onLeave(); return; }
    const t = qp.threadOf(item);
    qp.showDetails(t, item, item === qp.current[t]);
  }
  // Back to the pinned selection.
  function onLeave() {
    hovered = null;
    if (qp.pinned === 'provider') { qp.showDetails(-1, null, true); return; }
    const cur = qp.current[qp.visible];
    qp.showDetails(qp.visible, cur && cur.isConnected ? cur : null, true);
  }

  // A tree container takes focus only when nothing in it is selected yet (or after its
  // selection disappeared): hand focus on to the selection, or to the first item.
  let pointing = false; // a mouse press focuses the container first; the click then selects
  function onFocusIn(e) {
    const tree = e.target;
    if (pointing) return;
    if (!tree.classList || !tree.classList.contains('tree')) return;
    const t = Number(tree.getAttribute('data-thread'));
    const cur = qp.current[t];
    const el = cur && cur.isConnected ? cur : firstChildItem(tree);
    if (el) select(t, el, { focus: true });
  }

  // The thread's tree container; made when the page was written without it.
  function treeEl(section, T, t) {
    const found = document.getElementById('tree-' + t);
    if (found) return found;
    const tree = document.createElement('div');
    tree.className = 'tree';
    tree.id = 'tree-' + t;
    tree.setAttribute('data-thread', String(t));
    tree.setAttribute('role', 'tree');
    tree.setAttribute('aria-label', 'thread ' + T.name);
    tree.tabIndex = 0;
    tree.hidden = t !== 0;
    section.appendChild(tree);
    return tree;
  }

  // Whether each thread's tree is drawn. The page holds the tree of the thread it shows first
  // (html_reporter.cpp); the viewer draws another thread's when something first shows it or
  // looks into it: a merged build of thousands of processes opens as fast as one process.
  const drawn = [];
  qp.ensureTree = function ensureTree(t) {
    if (drawn[t]) return;
    drawn[t] = true;
    const T = qp.threads[t];
    const tree = qp.treeEls[t];
    if (!firstChildItem(tree) && T.len > 0) {
      tree.insertAdjacentHTML('beforeend', qp.initialTree(T, qp.INITIAL_BUDGET));
    }
  };

  // Draws the shown tree afresh, and the others when they are next shown: after the sibling
  // order changed.
  qp.redrawTrees = function redrawTrees() {
    qp.threads.forEach((T, t) => {
      const tree = qp.treeEls[t];
      tree.textContent = '';
      qp.current[t] = null;
      tree.tabIndex = 0;
      drawn[t] = false;
    });
    qp.ensureTree(qp.visible);
    qp.showDetails(-1, null, true);
  };

  qp.initTrees = function initTrees() {
    const section = document.getElementById('trees');
    qp.threads.forEach((T, t) => {
      qp.treeEls[t] = treeEl(section, T, t);
      qp.current[t] = null;
    });
    const shown = qp.treeEls.findIndex((tree) => !tree.hidden);
    qp.visible = shown >= 0 ? shown : 0;
    if (qp.treeEls.length > 0) qp.ensureTree(qp.visible);
    section.addEventListener('keydown', onKey);
    section.addEventListener('click', onClick);
    document.addEventListener('mousemove', onMove, { passive: true });
    section.addEventListener('mouseleave', onLeave);
    section.addEventListener('focusin', onFocusIn);
    section.addEventListener('mousedown', () => { pointing = true; });
    document.addEventListener('mouseup', () => { pointing = false; });
  };
})();
