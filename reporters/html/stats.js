// qprof viewer, part 10 of 18: a provider's statistics. A click on a provider (the header's
// lists, a row of the provider table) shows in the details panel its numbers, its slowest
// runs and its most-asked keys, all computed by the C++ reporter (payload "stats"); a click on
// a run reveals it in the tree, with its path from the root.
(() => {
  'use strict';

  const BUCKETS = ['<1 \u00b5s', '<10 \u00b5s', '<100 \u00b5s', '<1 ms', '<10 ms', '<100 ms', '<1 s', '\u22651 s'];

  qp.stats = [];
  qp.shownProvider = -1; // the provider whose statistics the details panel shows, or -1

  function row(field, name, value) {
    return '<dt>' + name + '</dt><dd data-field="' + field + '">' + qp.escape(value) + '</dd>';
  }

  function numbers(s, activity) {
    let h = '<dl>';
    h += row('runs', 'Runs', qp.thousands(s.runs));
    // A scope that only waits (PROFILE_WAIT) is never asked of a cache.
    if (!activity && !(s.runs === 0 && s.hits === 0 && s.waits > 0)) {
      h += row('hits', 'Hits', qp.hitsRecorded ? qp.thousands(s.hits) : qp.layout.HITS_NOT_RECORDED);
      h += row('hit-rate', 'Hit rate', qp.hitsRecorded ? qv.rateText(s.hits, s.runs + s.hits) : qp.layout.HITS_NOT_RECORDED);
    }
    if (s.waits > 0) h += row('waits', 'Waits', qp.thousands(s.waits) + ', ' + qp.durationText(s.wait_ns) + ' (not work)');
    // Shares are of work: a pass that only waited has almost none, however long it took.
    const work = s.work_ns != null ? s.work_ns : s.total_ns;
    h += row('total', 'Total', qp.durationText(s.total_ns) + (work === s.total_ns ? '' : ', ' +
      qp.durationText(work) + ' of it work') + ' \u00b7 ' + qp.percentText(work));
    h += row('self', 'Self', qp.durationText(s.self_ns) + ' \u00b7 ' + qp.percentText(s.self_ns));
    if (s.cpu_ns != null) h += row('cpu', 'CPU time', qp.durationText(s.cpu_ns) + ' of ' + qp.durationText(s.total_ns) + ' wall');
    // Inclusive, a provider inside itself counted once; self without its callees'.
    if (s.alloc_bytes != null) {
      h += qp.memoryRows(row, [s.alloc_bytes, s.allocs, s.retained_bytes], [s.self_alloc_bytes, s.self_allocs, s.self_retained_bytes]);
    }
    if (s.runs > 0) {
      h += row('mean', 'Mean run', qp.durationText(s.mean_ns));
      h += row('median', 'Median run', qp.durationText(s.median_ns));
      h += row('max', 'Longest run', qp.durationText(s.max_ns));
    }
    return h + '</dl>';
  }

  function histogram(s) {
    if (s.runs === 0) return '';
    const most = Math.max(...s.histogram);
    let h = '<div class="histogram-large" aria-label="runs by duration">';
    s.histogram.forEach((count, b) => {
      const height = count > 0 ? 2 + Math.round((count * 38) / most) : 0;
      h += '<div title="' + qp.thousands(count) + ' runs ' + BUCKETS[b] + '"><i style="height:' + height +
        'px"></i><span>' + BUCKETS[b].replace(' ', '\u00a0') + '</span></div>';
    });
    return h + '</div>';
  }

  // A list of nodes ([thread, n, ns, key text or null]), each a link that reveals it.
  function nodeList(id, title, nodes) {
    let h = '<h3>' + title + '</h3><ol id="' + id + '">';
    for (const [t, n, ns, keyText] of nodes) {
      const T = qp.threads[t];
      h += '<li><a href="#" data-thread="' + t + '" data-n="' + n + '" data-ns="' + ns + '">' +
        qp.escape(qp.durationText(ns)) + '</a>' + (keyText !== null ? ' <code>' + qp.escape(keyText) + '</code>' : '') +
        (qp.threads.length > 1 && T ? ' <small>' + qp.escape(T.name) + '</small>' : '') + '</li>';
    }
    return h + '</ol>';
  }

  function slowestRuns(s) {
    if (s.slowest.length === 0) return '';
    return nodeList('slowest-runs', 'Slowest runs', s.slowest.map(([t, n, ns, key]) =>
      [t, n, ns, key > 0 ? qp.keys.at(key - 1) ?? null : null]));
  }

  const LONGEST_WAITS = 10;

  // Provider p's longest waits in the statistics in force (a range, a process's threads):
  // [thread, n, ns], longest first, ties in thread and call order. Waits are few, and each
  // thread keeps them (T.waits, with their ancestors), so this reads no other node.
  function longestWaits(p) {
    const found = [];
    const threads = qp.statsThreads || [...qp.threads.keys()];
    for (const t of threads) {
      const T = qp.threads[t];
      for (const n of T.waits.keys()) {
        if (!qp.isWait(T, n) || qp.providerOf(T, n) !== p) continue;
        if (qp.range && (T.start[n] < qp.range.from || T.start[n] + T.dur[n] > qp.range.to)) continue;
        found.push([t, n, T.dur[n]]);
      }
    }
    found.sort((a, b) => b[2] - a[2] || a[0] - b[0] || a[1] - b[1]);
    return found.slice(0, LONGEST_WAITS);
  }

  // A wait is not a run, so the slowest runs never list it: its own list leads to it.
  function waitsList(s, p) {
    if (!(s.waits > 0)) return '';
    return nodeList('longest-waits', 'Longest waits', longestWaits(p).map(([t, n, ns]) => [t, n, ns, qp.keyText(t, n)]));
  }

  const keyCell = (key) => '<td><code>' + qp.escape(qp.keys.at(key - 1) ?? '?') + '</code></td>';

  const timeCell = (ns) => '<td>' + qp.escape(qp.durationText(ns || 0)) + '</td>';

  // An activity's keys are its arguments (PROFILE_ACTIVITY_ARG): its runs per argument. Each
  // key with the time its runs took: which requests, which files cost the most.
  function topKeys(s, activity) {
    if (activity) {
      if (s.keys.length === 0) return '';
      let h = '<h3>Most-run arguments</h3><table id="top-arguments"><thead><tr><th>Argument</th><th>Runs</th><th>Time</th></tr></thead><tbody>';
      for (const [key, runs, , ns] of s.keys) h += '<tr>' + keyCell(key) + '<td>' + qp.thousands(runs) + '</td>' + timeCell(ns) + '</tr>';
      return h + '</tbody></table>';
    }
    if (s.keys.length === 0) {
      return qp.keys.length === 0 ? '<p class="hint">Keys were not recorded: run with -Z profile-queries-and-keys to see the most-asked keys.</p>' : '';
    }
    // A range or a process counts what the page holds: with hits' keys left out, a key's runs.
    const runsOnly = qp.rangeStats !== null && qp.hitKeysLeftOut > 0;
    let h = '<h3>Most-asked keys</h3>';
    if (runsOnly) {
      h += '<p class="hint" id="top-keys-runs-only">Hits\' keys are ' + qp.layout.HIT_KEY_LEFT_OUT +
        ': these statistics, of a time range or a process, count a key\'s runs only (those of the whole run count every hit).</p>';
    }
    h += '<table id="top-keys"><thead><tr><th>Key</th><th>' + (runsOnly ? 'Runs' : 'Asked') + '</th><th>Hits</th><th>Time</th></tr></thead><tbody>';
    for (const [key, asked, hits, ns] of s.keys) {
      h += '<tr>' + keyCell(key) + '<td>' + qp.thousands(asked) + '</td><td>' +
        qp.escape(runsOnly ? qp.layout.HIT_KEY_LEFT_OUT : qp.thousands(hits)) + '</td>' + timeCell(ns) + '</tr>';
    }
    return h + '</tbody></table>';
  }

  // Callers and callees merged over the whole run; each name opens that provider. The calls
  // no query made, the program's own at a thread's top level, are a caller too.
  function calls(id, title, edges) {
    if (!Array.isArray(edges) || edges.length === 0) return '';
    let h = '<h3>' + title + '</h3><table id="' + id + '" class="calls"><thead><tr><th>Provider</th><th>Calls</th><th>Time</th></tr></thead><tbody>';
    for (const [p, count, ns] of edges) {
      const name = qp.providers[p] ? qp.providers[p].name : '?';
      const who = p === qp.layout.TOP_LEVEL_CALLER
        ? '<span class="top-level" title="no query: the program asked it at a thread\'s top level">(top level)</span>'
        : '<a href="#" data-provider="' + p + '">' + qp.escape(name) + '</a>';
      h += '<tr><td>' + who + '</td><td>' + qp.thousands(count) +
        '</td><td>' + qp.escape(qp.durationText(ns)) + '</td></tr>';
    }
    return h + '</tbody></table>';
  }

  // With a time range selected on the timeline, the statistics of that range (range.js).
  qp.providerHtml = function providerHtml(p) {
    const s = qp.rangeStats ? qp.rangeStats[p] : qp.stats[p];
    const provider = qp.providers[p];
    if (!provider) return '<p class="hint">No statistics for this provider.</p>';
    if (!s) return '<h2>' + qp.escape(provider.name) + '</h2><p class="hint">None of its events lies in the selected time range.</p>';
    const colour = provider.colourClass;
    const tag = colour ? ' <small class="colour-class colour-' + colour.colour + '">' + qp.escape(colour.name) + '</small>' : '';
    return '<h2>' + (provider.activity ? 'Pass ' : 'Provider ') + '<span data-field="provider">' + qp.escape(provider.name) +
      '</span>' + tag + '</h2>' + qp.statsScopeNote() + numbers(s, provider.activity) + histogram(s) + slowestRuns(s) + waitsList(s, p) + topKeys(s, provider.activity) +
      calls('callers', 'Called by', s.callers) + calls('callees', 'Calls', s.callees);
  };

  qp.showProvider = function showProvider(p) {
    if (!qp.stats[p]) return;
    qp.shownProvider = p;
    qp.pinned = 'provider';
    qp.showDetails(-1, null, true);
    for (const tr of document.querySelectorAll('#provider-table tbody tr')) {
      tr.classList.toggle('shown', Number(tr.dataset.provider) === p);
    }
    const box = document.getElementById('details');
    if (box) box.scrollTop = 0;
  };

  // From the lists at the top or the table far below, the panel is out of view: bring it in.
  function bringStatsIntoView() {
    const box = document.getElementById('details');
    if (box) box.scrollIntoView({ block: 'nearest' });
  }

  function onProviderClick(e) {
    const target = e.target.closest('a[data-provider], #provider-table tbody tr');
    if (!target) return;
    e.preventDefault();
    qp.showProvider(Number(target.dataset.provider));
    bringStatsIntoView();
  }

  function onDetailsClick(e) {
    const rangeOf = e.target.closest('button.range-of'); // a wait's "Statistics of its time"
    if (rangeOf) {
      qp.setRange(Number(rangeOf.dataset.from), Number(rangeOf.dataset.to));
      return;
    }
    const other = e.target.closest('a[data-provider]');
    if (other) {
      e.preventDefault();
      qp.showProvider(Number(other.dataset.provider));
      return;
    }
    const run = e.target.closest('a[data-thread][data-n]');
    const back = e.target.closest('a[data-back]');
    if (!run && !back) return;
    e.preventDefault();
    if (back) qp.showProvider(Number(back.dataset.back));
    else {
      qp.reveal(Number(run.dataset.thread), Number(run.dataset.n));
      if (qp.timelineShow) qp.timelineShow(Number(run.dataset.thread), Number(run.dataset.n));
    }
  }

  // profile_queries.html#provider=NAME (the flame graph and the diff page link so) opens the
  // statistics of the provider NAME, #pass=NAME those of the pass (activity) NAME: a pass and a
  // provider may share a name.
  function showProviderOfHash() {
    const match = /^#(provider|pass)=(.*)$/.exec(window.location.hash);
    if (!match) return;
    let name = '';
    try { name = decodeURIComponent(match[2]); } catch { return; }
    const activity = match[1] === 'pass';
    const p = qp.providers.findIndex((provider) => provider.name === name && provider.activity === activity);
    if (p < 0) return;
    qp.showProvider(p);
    bringStatsIntoView();
  }

  // The header says, beside what the run did not record, that the page left hits' keys out.
  function noteHitKeysLeftOut() {
    const list = document.querySelector('#summary dl');
    if (qp.hitKeysLeftOut === 0 || !list) return;
    const item = document.createElement('div');
    item.innerHTML = '<dt>Not in this page</dt><dd id="hit-keys-left-out">the keys of ' +
      qp.escape(qv.countText(qp.hitKeysLeftOut, 'hit', 'hits')) + ': a page leaves out hits\' keys ' +
      'when its trace would pass ' + qp.escape(qv.bytesText(qp.layout.COLUMNS_BUDGET_BYTES)) +
      ' with them. The statistics of the whole run, and keys.txt, count every hit of every key.</dd>';
    list.appendChild(item);
  }

  qp.initStats = function initStats(payload) {
    qp.stats = Array.isArray(payload.stats) ? payload.stats : [];
    noteHitKeysLeftOut();
    showProviderOfHash();
    window.addEventListener('hashchange', showProviderOfHash);
    for (const id of ['where-time-went', 'provider-table']) {
      const el = document.getElementById(id);
      if (el) el.addEventListener('click', onProviderClick);
    }
    const details = document.getElementById('details');
    if (details) details.addEventListener('click', onDetailsClick);
  };
})();
