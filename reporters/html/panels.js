// qprof viewer, part 4 of 9: everything around the trees -- the details panel, the provider
// table's sorting, the thread selector, the widest/deepest lists and the search.
(() => {
  'use strict';

  const SEARCH_OPEN = 200;   // matches whose folds a search opens; more would flood the DOM
  const SEARCH_DELAY = 250;  // ms of quiet typing before searching
  const PATH_SHOWN = 12;     // ancestors listed in the details panel (even)

  // ---- details ----

  const HINT = '<p class="hint">Hover or click a box for its details.</p>';
  let shown = '';

  function row(field, name, value) {
    return '<dt>' + name + '</dt><dd data-field="' + field + '">' + qp.escape(value) + '</dd>';
  }

  function nodeDetails(t, n, pinned) {
    const T = qp.threads[t];
    const outcome = qp.outcomeOf(T, n);
    const key = qp.keyText(t, n);
    let h = '<h2>' + (pinned ? 'Selected' : 'Preview') + '</h2><dl>';
    h += row('provider', 'Provider', qp.providerName(t, n));
    if (key !== null) h += row('key', outcome === qp.ACTIVITY ? 'Argument' : 'Key', key);
    h += row('outcome', 'Outcome', qp.OUTCOMES[outcome] || '?');
    h += row('inclusive', 'Inclusive time', qp.durationText(T.dur[n]));
    h += row('self', 'Self time', qp.durationText(Math.max(0, T.self[n])));
    if (T.cpu && T.cpu.has(n)) h += row('cpu', 'CPU time', qp.durationText(T.cpu.get(n)) + ' of ' + qp.durationText(T.dur[n]) + ' wall');
    h += row('share', 'Share of busy time', qp.percentText(T.dur[n]));
    h += row('depth', 'Depth', String(T.depth[n]));
    h += row('extent', 'Extent', qp.thousands(T.extent[n]) + (T.extent[n] === 1 ? ' child' : ' children'));
    h += row('subtree', 'Subtree', qp.thousands(T.size[n]) + (T.size[n] === 1 ? ' node' : ' nodes'));
    h += row('unfinished', 'Unfinished', qp.isUnfinished(T, n) ? 'yes' : 'no');
    if (qp.threads.length > 1) h += row('thread', 'Thread', T.name);
    h += '</dl>';
    h += pathHtml(t, n);
    if (pinned && T.size[n] > 1 && !qp.isSmall(T, n)) h += '<p class="hint">Enter or a second click opens or closes it; \u2190 goes to the parent.</p>';
    return h + backLink();
  }

  // The path from the root to n, each ancestor a link that reveals it; a long path keeps its
  // first and last PATH_SHOWN / 2 steps.
  function pathHtml(t, n) {
    const T = qp.threads[t];
    const path = [];
    for (let a = T.parent[n]; a >= 0; a = T.parent[a]) path.push(a);
    if (path.length === 0) return '';
    path.reverse();
    const link = (a) => '<a href="#" data-thread="' + t + '" data-n="' + a + '">' + qp.escape(qp.providerName(t, a)) + '</a>';
    const half = PATH_SHOWN / 2;
    const shownPath = path.length <= PATH_SHOWN ? path.map(link)
      : path.slice(0, half).map(link).concat(['\u2026 ' + qp.thousands(path.length - PATH_SHOWN) + ' more \u2026'], path.slice(-half).map(link));
    return '<p class="path" data-field="path">Path from the root: ' + shownPath.join(' \u203a ') + '</p>';
  }

  function backLink() {
    const p = qp.shownProvider;
    if (!(p >= 0) || !qp.providers[p]) return '';
    return '<p><a href="#" data-back="' + p + '">\u2039 statistics of ' + qp.escape(qp.providers[p].name) + '</a></p>';
  }

  function foldDetails(t, from, to, pinned) {
    const T = qp.threads[t];
    let tops = 0;
    let runNs = 0;
    for (let c = from; c < to; c += T.size[c]) {
      tops++;
      runNs += T.dur[c];
    }
    let h = '<h2>' + (pinned ? 'Selected' : 'Preview') + ' fold</h2><dl>';
    h += row('queries', 'Queries', qp.thousands(to - from));
    h += row('top-level', 'Top-level', qp.thousands(tops));
    h += row('inclusive', 'Inclusive time', qp.durationText(runNs));
    h += row('share', 'Share of busy time', qp.percentText(runNs));
    h += '</dl><p class="hint">Click, Enter or \u2192 draws these queries.</p>';
    return h;
  }

  // What is shown changed without a new selection (a time range): draw it again.
  qp.forgetDetails = () => { shown = ''; };

  qp.showDetails = function showDetails(t, el, pinned) {
    const box = document.getElementById('details');
    if (!box) return;
    let id = qp.shownProvider >= 0 ? 'provider' + qp.shownProvider : 'none';
    if (el && t >= 0) {
      const run = el.classList.contains('fold') ? 'f' : qp.isLevels(el) ? 'l' : '';
      id = run ? t + run + el.getAttribute('data-from') + '-' + el.getAttribute('data-to')
        : t + 'n' + el.getAttribute('data-n');
      id += pinned ? 'p' : 'h';
    }
    if (id === shown) return; // hovering inside one box fires many events; skip the rewrite
    shown = id;
    if (id === 'none') {
      box.innerHTML = HINT;
    } else if (!el) {
      box.innerHTML = qp.providerHtml(qp.shownProvider);
    } else if (qp.isLevels(el)) {
      box.innerHTML = qp.levelsDetails(t, el, pinned);
    } else if (el.classList.contains('fold')) {
      box.innerHTML = foldDetails(t, Number(el.getAttribute('data-from')), Number(el.getAttribute('data-to')), pinned);
    } else {
      box.innerHTML = nodeDetails(t, Number(el.getAttribute('data-n')), pinned);
    }
  };

  // ---- provider table ----

  // A button makes each header reachable and operable from the keyboard.
  function addSortButtons(heads, key) {
    for (const th of heads) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'sort';
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      if (th.dataset.sort === key) th.setAttribute('aria-sort', 'descending');
    }
  }

  // Sorts the rows by one column: text (the provider name) or the cells' data-value; ties
  // keep the order the page was written in.
  function sortRows(body, column, text, descending) {
    const value = (r) => {
      const cell = r.cells[column];
      if (!cell) return text ? '' : -Infinity;
      if (text) return cell.textContent.trim();
      const v = parseFloat(cell.getAttribute('data-value'));
      return Number.isNaN(v) ? -Infinity : v;
    };
    const rows = Array.from(body.rows).map((r) => ({ r, v: value(r), o: Number(r.dataset.order) }));
    const sign = descending ? -1 : 1;
    rows.sort((a, b) => {
      const c = text ? a.v.localeCompare(b.v) : a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
      return c !== 0 ? sign * c : a.o - b.o;
    });
    const fragment = document.createDocumentFragment();
    for (const x of rows) fragment.appendChild(x.r);
    body.appendChild(fragment);
  }

  function initTable() {
    const table = document.getElementById('provider-table');
    if (!table || !table.tHead || !table.tBodies[0]) return;
    const heads = Array.from(table.tHead.querySelectorAll('th[data-sort]'));
    const body = table.tBodies[0];
    Array.from(body.rows).forEach((r, i) => { r.dataset.order = String(i); });
    let key = 'total';
    let descending = true;
    addSortButtons(heads, key);
    table.tHead.addEventListener('click', (e) => {
      const th = e.target.closest('th[data-sort]');
      if (!th) return;
      descending = th.dataset.sort === key ? !descending : th.dataset.sort !== 'provider'; // names A-Z; numbers biggest first
      key = th.dataset.sort;
      sortRows(body, heads.indexOf(th), key === 'provider', descending);
      for (const h of heads) {
        if (h === th) h.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
        else h.removeAttribute('aria-sort');
      }
    });
  }

  // ---- thread selector and shape lists ----

  function initThreads() {
    const select = document.getElementById('thread-select');
    if (!select) return;
    if (select.options.length === 0) {
      qp.threads.forEach((T, t) => {
        select.add(new Option(T.name + ' \u00b7 ' + qp.thousands(T.len) + (T.len === 1 ? ' event' : ' events'), String(t)));
      });
    }
    select.value = String(qp.visible);
    select.addEventListener('change', () => qp.showThread(Number(select.value)));
    const order = document.getElementById('order-select');
    if (order) {
      order.value = qp.siblingOrder;
      order.addEventListener('change', () => {
        qp.siblingOrder = order.value === 'call' ? 'call' : 'heaviest';
        qp.redrawTrees();
        if (qp.matcher) highlight();
      });
    }
  }

  function initShapes() {
    const shapes = document.getElementById('shapes');
    if (!shapes) return;
    shapes.addEventListener('click', (e) => {
      const a = e.target.closest('a[data-thread][data-n]');
      if (!a) return;
      e.preventDefault();
      qp.reveal(Number(a.getAttribute('data-thread')), Number(a.getAttribute('data-n')));
    });
  }

  // ---- search ----

  // A query matches when its provider's name or its key's text contains the searched text.
  // `at` is the match shown last, where Enter goes on from; `timer` a search not yet run.
  const search = { query: '', at: null, timer: 0 };
  let lowerKeys = null; // the keys' texts in lower case, made at the first search

  const hasKeys = () => qp.keys.length > 0 && qp.threads.some((T) => T.key !== null);

  function matcherFor(query) {
    const names = new Uint8Array(qp.providers.length);
    qp.providers.forEach((p, i) => { if (p.name.toLowerCase().includes(query)) names[i] = 1; });
    if (!hasKeys()) return { names, keys: null };
    if (lowerKeys === null) lowerKeys = qp.keys.map((k) => String(k).toLowerCase());
    const keys = new Uint8Array(lowerKeys.length);
    lowerKeys.forEach((k, i) => { if (k.includes(query)) keys[i] = 1; });
    return { names, keys };
  }

  function highlight() {
    if (qp.onSearchChange) qp.onSearchChange(); // the timeline dims what does not match
    for (const el of Array.from(document.querySelectorAll('#trees .match'))) el.classList.remove('match');
    if (!qp.matcher) return;
    qp.treeEls.forEach((tree, t) => {
      const T = qp.threads[t];
      // A static list: adding a class to the elements of a live class list makes every
      // later index into it walk the tree again, quadratic in the nodes drawn.
      const nodes = tree.querySelectorAll('.node');
      for (let i = 0; i < nodes.length; i++) {
        if (qp.isMatch(T, Number(nodes[i].getAttribute('data-n')))) nodes[i].classList.add('match');
      }
    });
  }

  function setStatus(text) {
    const status = document.getElementById('search-status');
    if (status) status.textContent = text;
  }

  function clearSearch() {
    search.query = '';
    search.at = null;
    qp.matcher = null;
    highlight();
    setStatus('');
  }

  // Counts the matches (`byName`: those whose provider name matches) and the threads that
  // have any, and lists the first `limit` of them.
  function scan(limit) {
    const names = qp.matcher.names;
    const found = { count: 0, byName: 0, threads: 0, first: [] };
    qp.threads.forEach((T, t) => {
      let here = 0;
      for (let n = 0; n < T.len; n++) {
        const byName = names[qp.providerOf(T, n)] === 1;
        if (!byName && !qp.isMatch(T, n)) continue;
        if (found.first.length < limit) found.first.push([t, n]);
        if (byName) found.byName++;
        here++;
      }
      found.count += here;
      if (here > 0) found.threads++;
    });
    return found;
  }

  function statusText(found) {
    const { count, byName, threads } = found;
    if (count === 0) return 'No matches';
    const where = !hasKeys() ? '' : byName === count ? ', in provider names'
      : byName === 0 ? ', in keys' : ', in provider names and keys';
    return qp.thousands(count) + (count === 1 ? ' match in ' : ' matches in ') + threads +
      (threads === 1 ? ' thread' : ' threads') + where;
  }

  function runSearch(raw) {
    const query = raw.trim().toLowerCase();
    if (query === '') { clearSearch(); return; }
    search.query = query;
    qp.matcher = matcherFor(query);
    const found = scan(SEARCH_OPEN);
    for (const [t, n] of found.first) qp.ensurePath(t, n);
    highlight();
    setStatus(statusText(found));
    // The first match of the thread in view, else of the next thread that has one.
    showMatch(matchFrom(qp.visible, -1, 1));
  }

  // The first match after (t, n) in pre-order, going by `step` (1 or -1) across the threads
  // and around; null when nothing matches.
  function matchFrom(t, n, step) {
    const count = qp.threads.length;
    if (count === 0 || !(t >= 0)) return null;
    for (let i = 0; i <= count; i++) {
      const u = (((t + step * i) % count) + count) % count;
      const T = qp.threads[u];
      for (let m = i === 0 ? n + step : step > 0 ? 0 : T.len - 1; m >= 0 && m < T.len; m += step) {
        if (qp.isMatch(T, m)) return [u, m];
      }
    }
    return null;
  }

  function showMatch(at) {
    search.at = at;
    if (at) qp.reveal(at[0], at[1], { focus: false }); // typing goes on in the search box
  }

  function searchNow(input) {
    clearTimeout(search.timer);
    search.timer = 0;
    runSearch(input.value);
  }

  // Enter searches, or goes to the next match (Shift+Enter: the previous one); Escape clears.
  function onSearchKey(input, e) {
    if (e.key === 'Enter') {
      e.preventDefault();
      const same = search.timer === 0 && input.value.trim().toLowerCase() === search.query;
      if (same && search.at) showMatch(matchFrom(search.at[0], search.at[1], e.shiftKey ? -1 : 1));
      else searchNow(input);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      clearTimeout(search.timer);
      search.timer = 0;
      input.value = '';
      clearSearch();
    }
  }

  // "/" jumps to the search box from anywhere but a text field, and Escape clears the search
  // from anywhere, as the legend says.
  function onPageKey(input, e) {
    if (e.key === 'Escape' && e.target !== input && search.query !== '') {
      input.value = '';
      clearSearch();
      return;
    }
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (e.target && e.target.isContentEditable)) return;
    e.preventDefault();
    input.focus();
    input.select();
  }

  function initSearch() {
    const input = document.getElementById('search');
    if (!input) return;
    if (hasKeys()) input.placeholder = 'Search providers and keys';
    input.addEventListener('input', () => {
      clearTimeout(search.timer);
      search.timer = setTimeout(() => searchNow(input), SEARCH_DELAY);
    });
    input.addEventListener('keydown', (e) => onSearchKey(input, e));
    document.addEventListener('keydown', (e) => onPageKey(input, e));
  }

  qp.initPanels = function initPanels() {
    initTable();
    initThreads();
    initShapes();
    initSearch();
  };
})();
