// qprof viewer, part 8 of 18: everything around the trees -- the details panel, the provider
// table's sorting, the thread selector and the widest/deepest lists. The search: search.js.
(() => {
  'use strict';

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
    else if (qp.keyLeftOut(t, n)) h += row('key', 'Key', qp.layout.HIT_KEY_LEFT_OUT);
    h += row('outcome', 'Outcome', qp.OUTCOMES[outcome] || '?');
    const colour = qp.colourClassOf(T, n);
    if (colour) h += row('class', 'Colour class', colour.name);
    h += row('inclusive', 'Inclusive time', qp.durationText(T.dur[n]));
    h += row('self', 'Self time', qp.durationText(Math.max(0, qp.selfOf(T, n))));
    if (T.cpu && T.cpu.has(n)) h += row('cpu', 'CPU time', qp.durationText(T.cpu.get(n)) + ' of ' + qp.durationText(T.dur[n]) + ' wall');
    h += row('share', 'Share of busy time', qp.isWait(T, n) ? 'none: waiting is not work' : qp.percentText(qp.workOf(T, n)));
    h += qp.nodeMemoryRows(row, T, n);
    h += row('depth', 'Depth', String(T.depth[n]));
    const extent = qp.extentOf(T, n);
    h += row('extent', 'Extent', qp.thousands(extent) + (extent === 1 ? ' child' : ' children'));
    h += row('subtree', 'Subtree', qp.thousands(T.size[n]) + (T.size[n] === 1 ? ' node' : ' nodes'));
    h += row('unfinished', 'Unfinished', qp.isUnfinished(T, n) ? 'yes' : 'no');
    if (qp.threads.length > 1) h += row('thread', 'Thread', T.name);
    if (qp.isWait(T, n)) h += waitedForHtml(t, n);
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
    const link = (a) => '<a href="#" data-thread="' + t + '" data-n="' + a + '">' + qp.escape(qp.keyedName(t, a)) + '</a>';
    const half = PATH_SHOWN / 2;
    const shownPath = path.length <= PATH_SHOWN ? path.map(link)
      : path.slice(0, half).map(link).concat(['\u2026 ' + qp.thousands(path.length - PATH_SHOWN) + ' more \u2026'], path.slice(-half).map(link));
    return '<p class="path" data-field="path">Path from the root: ' + shownPath.join(' \u203a ') + '</p>';
  }

  // The run wait n waited for: a qprof::Query that found another thread computing its key
  // waits for that run. Of the runs of its provider and key on its process's other threads
  // that were going on when it began, the one that ended nearest its end (the wait ends when
  // the run does); null for a wait without a key (PROFILE_WAIT) or whose run was not
  // recorded. The starts ascend in pre-order, so only the nodes that started before the wait
  // are read.
  qp.awaitedRun = function awaitedRun(t, n) {
    const T = qp.threads[t];
    if (!T.key || T.key[n] <= 0) return null;
    const p = qp.providerOf(T, n);
    const key = T.key[n];
    const begin = T.start[n];
    const end = begin + T.dur[n];
    let best = null;
    qp.threads.forEach((U, u) => {
      // In a merged build, a process's threads wait for its own threads only.
      if (u === t || !U.key || qp.processOf(u) !== qp.processOf(t)) return;
      for (let m = 0; m < U.len && U.start[m] <= begin; m++) {
        if (U.key[m] !== key || qp.providerOf(U, m) !== p || qp.isHit(U, m) || qp.isWait(U, m)) continue;
        const runEnd = U.start[m] + U.dur[m];
        const gap = Math.abs(end - runEnd);
        if (runEnd >= begin && (best === null || gap < best.gap)) best = { t: u, n: m, gap };
      }
    });
    return best;
  };

  // What a wait waited for, a link to it, and a button that selects the wait's time on the
  // timeline: the statistics then say what every thread did meanwhile.
  function waitedForHtml(t, n) {
    const T = qp.threads[t];
    const run = qp.awaitedRun(t, n);
    let what = run === null
      ? qp.escape(T.key && T.key[n] !== 0 ? 'no run of its key on another thread was recorded' : 'other threads (no key says which run)')
      : '<a href="#" data-thread="' + run.t + '" data-n="' + run.n + '" data-awaited>' +
        qp.escape(qp.keyedName(run.t, run.n) + ' \u00b7 ' + qp.durationText(qp.threads[run.t].dur[run.n]) + ' \u00b7 ' +
          qp.threads[run.t].name) + '</a>';
    const end = T.start[n] + T.dur[n];
    // A waiter wakes when its thread is scheduled again: on a busy machine, well after the run.
    const late = run === null ? 0 : end - (qp.threads[run.t].start[run.n] + qp.threads[run.t].dur[run.n]);
    if (late > 0) what += ' <small>(it ended ' + qp.escape(qp.durationText(late)) + ' before the wait did)</small>';
    return '<dt>Waited for</dt><dd data-field="waited-for">' + what + '</dd><dt>Meanwhile</dt><dd>' +
      '<button type="button" class="range-of" data-from="' + T.start[n] + '" data-to="' + end + '">' +
      'Statistics of its time</button></dd>';
  }

  function backLink() {
    const p = qp.shownProvider;
    if (!(p >= 0) || !qp.providers[p]) return '';
    return '<p><a href="#" data-back="' + p + '">\u2039 statistics of ' + qp.escape(qp.providers[p].name) + '</a></p>';
  }

  // The memory of the top-level nodes `tops` of a fold or a chip, summed: inclusive and self,
  // three values each; hits and unfinished scopes carry none. Null without memory.
  function memoryOfNodes(T, tops) {
    const M = T.memory;
    if (!M) return null;
    const columns = [M.alloc, M.allocs, M.retained, M.selfAlloc, M.selfAllocs, M.selfRetained];
    const sums = columns.map(() => 0);
    for (const c of tops) {
      if (!qp.isHit(T, c) && !qp.isUnfinished(T, c)) columns.forEach((column, i) => { sums[i] += column[c]; });
    }
    return [sums.slice(0, 3), sums.slice(3)];
  }

  // A fold's details; a chip's (`members`, its top-level nodes) are of its members only.
  function foldDetails(t, from, to, pinned, members) {
    const T = qp.threads[t];
    const tops = members || [];
    if (!members) for (let c = from; c < to; c += T.size[c]) tops.push(c);
    let queries = 0;
    let runNs = 0;
    let work = 0;
    for (const c of tops) {
      queries += T.size[c];
      runNs += T.dur[c];
      work += qp.workOf(T, c);
    }
    let h = '<h2>' + (pinned ? 'Selected' : 'Preview') + (members ? ' chip' : ' fold') + '</h2><dl>';
    h += row('queries', 'Queries', qp.thousands(queries));
    h += row('top-level', 'Top-level', qp.thousands(tops.length));
    h += row('inclusive', 'Inclusive time', qp.durationText(runNs));
    h += row('share', 'Share of busy time', qp.percentText(work));
    const memory = memoryOfNodes(T, tops); // with -Z profile-queries-memory, as a node's
    if (memory) h += qp.memoryRows(row, ...memory);
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
      id = run ? t + run + el.getAttribute('data-from') + '-' + el.getAttribute('data-to') +
        (qp.isChip(el) ? el.getAttribute('data-provider') + el.textContent : '')
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
      box.innerHTML = foldDetails(t, Number(el.getAttribute('data-from')), Number(el.getAttribute('data-to')), pinned,
        qp.isChip(el) ? qp.chipMembers(t, el) : null);
    } else {
      box.innerHTML = nodeDetails(t, Number(el.getAttribute('data-n')), pinned);
    }
  };

  // ---- provider table ----

  // By self time, most first, as html_reporter.cpp writes the rows; names sort A to Z
  // (reporters/viewer_common/table.js). A time range rewrites the rows' numbers and sorts
  // them again (range.js).
  function initTable() {
    qp.resortProviderTable = qv.sortableTable(document.getElementById('provider-table'),
      { key: 'self', textKeys: ['provider'] });
  }

  // ---- thread selector and shape lists ----

  function threadOption(t) {
    const T = qp.threads[t];
    return new Option(T.name + ' \u00b7 ' + qp.thousands(T.len) + (T.len === 1 ? ' event' : ' events'), String(t));
  }

  // Lists thread t in the selector, in thread order, if the page left it out: it lists at most
  // layout.THREAD_OPTIONS threads (html_reporter.cpp), and a thread shown from the timeline
  // or a search may not be one of them.
  qp.listThread = function listThread(t) {
    const select = document.getElementById('thread-select');
    if (select) qp.listOption(select, t, threadOption);
  };

  // Adds option(i) to a selector that lists at most layout.THREAD_OPTIONS items by index (the
  // threads, a merged build's processes) if it has none for i: before the first option of a
  // greater index, or before the closing 'N more' option (its value empty).
  qp.listOption = function listOption(select, i, option) {
    const options = Array.from(select.options);
    if (options.some((o) => o.value === String(i))) return;
    select.add(option(i), options.find((o) => o.value === '' || Number(o.value) > i) || null);
  };

  function initThreads() {
    const select = document.getElementById('thread-select');
    if (!select) return;
    if (select.options.length === 0) {
      const listed = Math.min(qp.threads.length, qp.layout.THREAD_OPTIONS);
      for (let t = 0; t < listed; t++) select.add(threadOption(t));
    }
    select.value = String(qp.visible);
    select.addEventListener('change', () => qp.showThread(Number(select.value)));
    const order = document.getElementById('order-select');
    if (order) {
      order.value = qp.siblingOrder;
      order.addEventListener('change', () => {
        qp.siblingOrder = order.value === 'call' ? 'call' : 'heaviest';
        qp.redrawTrees();
        if (qp.matcher) qp.highlightMatches();
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

  qp.initPanels = function initPanels() {
    initTable();
    initThreads();
    initShapes();
    qp.initSearch();
  };
})();
