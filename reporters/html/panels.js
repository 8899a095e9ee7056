// qprof viewer, part 4 of 5: everything around the trees -- the details panel, the provider
// table's sorting, the thread selector, the widest/deepest lists and the search.
(() => {
  'use strict';

  const SEARCH_OPEN = 200;   // matches whose folds a search opens; more would flood the DOM
  const SEARCH_DELAY = 250;  // ms of quiet typing before searching
  const PATH_SHOWN = 12;     // ancestors listed in the details panel

  // ---- details ----

  const HINT = '<p class="hint">Hover or click a box for its details.</p>';
  let shown = '';

  function row(field, name, value) {
    return '<dt>' + name + '</dt><dd data-field="' + field + '">' + qp.escape(value) + '</dd>';
  }

  function nodeDetails(t, n, pinned) {
    const T = qp.threads[t];
    const outcome = T.tag[n] & 7;
    const key = qp.keyText(t, n);
    let h = '<h2>' + (pinned ? 'Selected' : 'Preview') + '</h2><dl>';
    h += row('provider', 'Provider', qp.providerName(t, n));
    if (key !== null) h += row('key', 'Key', key);
    h += row('outcome', 'Outcome', qp.OUTCOMES[outcome] || '?');
    h += row('inclusive', 'Inclusive time', qp.durationText(T.dur[n]));
    h += row('self', 'Self time', qp.durationText(Math.max(0, T.self[n])));
    h += row('share', 'Share of wall time', qp.percentText(T.dur[n]));
    h += row('depth', 'Depth', String(T.depth[n]));
    h += row('extent', 'Extent', qp.thousands(T.extent[n]) + (T.extent[n] === 1 ? ' child' : ' children'));
    h += row('subtree', 'Subtree', qp.thousands(T.size[n]) + (T.size[n] === 1 ? ' node' : ' nodes'));
    h += row('unfinished', 'Unfinished', qp.isUnfinished(T, n) ? 'yes' : 'no');
    if (qp.threads.length > 1) h += row('thread', 'Thread', T.name);
    h += '</dl>';
    const path = [];
    for (let a = T.parent[n]; a >= 0; a = T.parent[a]) path.push(a);
    if (path.length > 0) {
      const names = path.slice(0, PATH_SHOWN).reverse().map((a) => qp.escape(qp.providerName(t, a)));
      h += '<p class="path" data-field="path">' + (path.length > PATH_SHOWN ? '\u2026 \u203a ' : '') +
        names.join(' \u203a ') + '</p>';
    }
    if (pinned && T.size[n] > 1) h += '<p class="hint">Enter or a second click opens or closes it; \u2190 goes to the parent.</p>';
    return h;
  }

  function foldDetails(t, from, to, pinned) {
    const T = qp.threads[t];
    let tops = 0;
    for (let c = from; c < to; c += T.size[c]) tops++;
    let h = '<h2>' + (pinned ? 'Selected' : 'Preview') + ' fold</h2><dl>';
    h += row('queries', 'Queries', qp.thousands(to - from));
    h += row('top-level', 'Top-level', qp.thousands(tops));
    h += row('inclusive', 'Inclusive time', qp.durationText(qp.runDuration(T, from, to)));
    h += row('share', 'Share of wall time', qp.percentText(qp.runDuration(T, from, to)));
    h += '</dl><p class="hint">Click, Enter or \u2192 draws these queries.</p>';
    return h;
  }

  qp.showDetails = function showDetails(t, el, pinned) {
    const box = document.getElementById('details');
    if (!box) return;
    let id = 'none';
    if (el && t >= 0) {
      id = el.classList.contains('fold')
        ? t + 'f' + el.getAttribute('data-from') + '-' + el.getAttribute('data-to')
        : t + 'n' + el.getAttribute('data-n');
      id += pinned ? 'p' : 'h';
    }
    if (id === shown) return; // hovering inside one box fires many events; skip the rewrite
    shown = id;
    if (id === 'none') {
      box.innerHTML = HINT;
    } else if (el.classList.contains('fold')) {
      box.innerHTML = foldDetails(t, Number(el.getAttribute('data-from')), Number(el.getAttribute('data-to')), pinned);
    } else {
      box.innerHTML = nodeDetails(t, Number(el.getAttribute('data-n')), pinned);
    }
  };

  // ---- provider table ----

  function initTable() {
    const table = document.getElementById('provider-table');
    if (!table || !table.tHead || !table.tBodies[0]) return;
    const heads = Array.from(table.tHead.querySelectorAll('th[data-sort]'));
    const body = table.tBodies[0];
    Array.from(body.rows).forEach((r, i) => { r.dataset.order = String(i); });
    let key = 'total';
    let descending = true;
    for (const th of heads) {
      // A button makes each header reachable and operable from the keyboard.
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'sort';
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      if (th.dataset.sort === key) th.setAttribute('aria-sort', 'descending');
    }
    table.tHead.addEventListener('click', (e) => {
      const th = e.target.closest('th[data-sort]');
      if (!th) return;
      const column = heads.indexOf(th);
      if (th.dataset.sort === key) {
        descending = !descending;
      } else {
        key = th.dataset.sort;
        descending = key !== 'provider'; // names read best A-Z; numbers biggest first
      }
      const text = key === 'provider';
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
        select.add(new Option(T.name + ' \u00b7 ' + qp.thousands(T.len) + ' nodes', String(t)));
      });
    }
    select.value = String(qp.visible);
    select.addEventListener('change', () => qp.showThread(Number(select.value)));
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

  const search = { query: '', hits: [], next: 0 };

  function highlight() {
    for (const el of Array.from(document.querySelectorAll('#trees .match'))) el.classList.remove('match');
    const mask = qp.searchMask;
    if (!mask) return;
    qp.treeEls.forEach((tree, t) => {
      const tag = qp.threads[t].tag;
      const nodes = tree.getElementsByClassName('node');
      for (let i = 0; i < nodes.length; i++) {
        const el = nodes[i];
        if (mask[tag[Number(el.getAttribute('data-n'))] >>> 5] === 1) el.classList.add('match');
      }
    });
  }

  function clearSearch() {
    search.query = '';
    search.hits = [];
    qp.searchMask = null;
    highlight();
    const status = document.getElementById('search-status');
    if (status) status.textContent = '';
  }

  function runSearch(raw) {
    const query = raw.trim().toLowerCase();
    if (query === '') { clearSearch(); return; }
    search.query = query;
    const mask = new Uint8Array(qp.providers.length);
    qp.providers.forEach((p, i) => { if (p.name.toLowerCase().includes(query)) mask[i] = 1; });
    qp.searchMask = mask;
    let count = 0;
    let threads = 0;
    const hits = [];
    qp.threads.forEach((T, t) => {
      const tag = T.tag;
      let here = 0;
      for (let n = 0; n < T.len; n++) {
        if (mask[tag[n] >>> 5] === 1) {
          if (hits.length < SEARCH_OPEN) hits.push([t, n]);
          here++;
        }
      }
      count += here;
      if (here > 0) threads++;
    });
    for (const [t, n] of hits) qp.ensurePath(t, n);
    highlight();
    search.hits = hits;
    const status = document.getElementById('search-status');
    if (status) {
      status.textContent = count === 0 ? 'No matches'
        : qp.thousands(count) + (count === 1 ? ' match in ' : ' matches in ') + threads +
          (threads === 1 ? ' thread' : ' threads') +
          (count > hits.length ? ' (first ' + qp.thousands(hits.length) + ' shown)' : '');
    }
    // Show the first match of the thread in view, else of the first thread that has one.
    let first = hits.findIndex(([t]) => t === qp.visible);
    if (first < 0) first = hits.length > 0 ? 0 : -1;
    search.next = first;
    if (first >= 0) showHit(first);
  }

  function showHit(i) {
    const [t, n] = search.hits[i];
    qp.reveal(t, n, { focus: false }); // typing goes on in the search box
    search.next = (i + 1) % search.hits.length;
  }

  function initSearch() {
    const input = document.getElementById('search');
    if (!input) return;
    let timer = 0;
    const now = () => { clearTimeout(timer); timer = 0; runSearch(input.value); };
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(now, SEARCH_DELAY);
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        const same = timer === 0 && input.value.trim().toLowerCase() === search.query;
        if (same && search.hits.length > 0) showHit(search.next); // Enter again: next match
        else now();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        clearTimeout(timer);
        timer = 0;
        input.value = '';
        clearSearch();
      }
    });
    // "/" jumps to the search box from anywhere but a text field, and Escape clears the
    // search from anywhere, as the legend says.
    document.addEventListener('keydown', (e) => {
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
    });
  }

  qp.initPanels = function initPanels() {
    initTable();
    initThreads();
    initShapes();
    initSearch();
  };
  qp.search = (text) => runSearch(String(text));
  qp.clearSearch = clearSearch;
})();
