// qprof viewer, part 6 of 9: statistics of a time range. A range selected on the timeline
// limits the provider table and a provider's statistics to the events that lie wholly inside
// it (a run from its start to its end, a hit at its place); the numbers follow the rules of
// provider_stats in reporters/html_stats.cpp, so that the whole run gives the payload's
// "stats" back (the browser test compares them).
(() => {
  'use strict';

  const SLOWEST = 10; // kSlowestRuns, kTopKeys, kTopCallers in html_stats.hpp
  const TOP_KEYS = 10;
  const TOP_CALLS = 10;
  const BUCKETS = 8;  // kHistogramBuckets
  const BLOCKED = 2;

  qp.range = null;      // {from, to} in ns from the session start, or null: the whole run
  qp.rangeStats = null; // per provider, the statistics of the range; null without a range

  function bucket(ns) {
    let b = 0;
    for (let limit = 1e3; ns >= limit && b + 1 < BUCKETS; limit *= 10) b++;
    return b;
  }

  function emptyStats(p) {
    return {
      provider: p, runs: 0, hits: 0, waits: 0, total_ns: 0, self_ns: 0, wait_ns: 0,
      mean_ns: 0, median_ns: 0, max_ns: 0, histogram: new Array(BUCKETS).fill(0),
      slowest: [], keys: [], callers: [], callees: [], events: 0, rawSelf: 0,
    };
  }

  // The SLOWEST longest runs, longest first; earlier runs win ties (keep_if_slow).
  function keepIfSlow(slowest, run) {
    if (slowest.length === SLOWEST && run[2] <= slowest[SLOWEST - 1][2]) return;
    let at = slowest.length;
    while (at > 0 && slowest[at - 1][2] < run[2]) at--;
    slowest.splice(at, 0, run);
    if (slowest.length > SLOWEST) slowest.pop();
  }

  function finishDurations(s, durations) {
    if (durations.length === 0) return;
    let sum = 0;
    for (const ns of durations) {
      sum += ns;
      if (ns > s.max_ns) s.max_ns = ns;
      s.histogram[bucket(ns)]++;
    }
    s.mean_ns = Math.trunc(sum / durations.length);
    const sorted = Float64Array.from(durations).sort(); // numeric, without a comparator call
    s.median_ns = sorted[(sorted.length - 1) >> 1];
  }

  function top(list, count, before) {
    list.sort(before);
    return list.slice(0, count);
  }

  // One thread's events inside [from, to] into `stats`. `open[p]` counts the open ancestors of
  // provider p inside the range, so that a provider inside itself counts once in its total.
  function addThread(t, from, to, stats, acc) {
    const T = qp.threads[t];
    const open = new Int32Array(qp.providers.length + 1);
    const stack = [];
    for (let n = 0; n < T.len;) {
      while (stack.length > 0 && stack[stack.length - 1] + T.size[stack[stack.length - 1]] <= n) {
        open[T.tag[stack.pop()] >>> 5]--;
      }
      const s = T.start[n];
      const e = s + T.dur[n];
      if (e < from || s > to) { n += T.size[n]; continue; } // nothing of it is inside
      if (s < from || e > to) { n++; continue; }             // only some of its subtree may be
      addNode(T, t, n, stats, acc, open[T.tag[n] >>> 5] === 0);
      open[T.tag[n] >>> 5]++;
      stack.push(n);
      n++;
    }
  }

  function addNode(T, t, n, stats, acc, outermost) {
    const p = T.tag[n] >>> 5;
    const s = stats[p] || (stats[p] = emptyStats(p));
    const outcome = T.tag[n] & 7;
    const ns = T.dur[n];
    const key = T.key ? T.key[n] : 0;
    s.events++;
    if (outcome === qp.HIT) {
      s.hits++;
    } else {
      if (outcome === BLOCKED) {
        s.waits++;
        s.wait_ns += ns;
      } else {
        s.runs++;
        (acc.durations[p] || (acc.durations[p] = [])).push(ns);
        keepIfSlow(s.slowest, [t, n, ns, key]);
      }
      s.rawSelf += T.self[n];
      if (outermost) s.total_ns += ns;
    }
    const parent = T.parent[n];
    if (parent >= 0) {
      const id = (T.tag[parent] >>> 5) * qp.providers.length + p; // a number: no string per node
      const edge = acc.edges.get(id);
      if (edge) {
        edge[1]++;
        edge[2] += ns;
      } else {
        acc.edges.set(id, [T.tag[parent] >>> 5, 1, ns]);
      }
    }
    if (key !== 0 && outcome !== BLOCKED) {
      const asks = acc.asks[p] || (acc.asks[p] = new Map());
      const k = asks.get(key) || [key, 0, 0];
      k[1]++;
      if (outcome === qp.HIT) k[2]++;
      asks.set(key, k);
    }
  }

  // Per provider (null where none of its events is inside), the statistics of [from, to].
  qp.statsOfRange = function statsOfRange(from, to) {
    const stats = new Array(qp.providers.length).fill(null);
    const acc = { durations: [], asks: [], edges: new Map() };
    qp.threads.forEach((T, t) => addThread(t, from, to, stats, acc));
    stats.forEach((s, p) => {
      if (!s) return;
      s.self_ns = Math.max(0, s.rawSelf - s.wait_ns); // work_self_ns: waits are not work
      finishDurations(s, acc.durations[p] || []);
      if (acc.asks[p]) s.keys = top([...acc.asks[p].values()], TOP_KEYS, (a, b) => b[1] - a[1] || a[0] - b[0]);
    });
    const byTime = (a, b) => b[2] - a[2] || b[1] - a[1] || a[0] - b[0];
    for (const [id, [caller, calls, ns]] of acc.edges) {
      const callee = id - caller * qp.providers.length;
      if (stats[callee]) stats[callee].callers.push([caller, calls, ns]);
      if (stats[caller]) stats[caller].callees.push([callee, calls, ns]);
    }
    for (const s of stats) {
      if (!s) continue;
      s.callers = top(s.callers, TOP_CALLS, byTime);
      s.callees = top(s.callees, TOP_CALLS, byTime);
    }
    return stats;
  };

  // Per thread, the time of [from, to] it worked and waited: its top-level nodes and its
  // waits, clipped to the range; the rest it was idle. The concurrency of a range in numbers.
  qp.busyOfRange = function busyOfRange(from, to) {
    return qp.threads.map((T) => {
      const clip = (n) => Math.max(0, Math.min(T.start[n] + T.dur[n], to) - Math.max(T.start[n], from));
      let busy = 0;
      let wait = 0;
      for (let n = 0; n < T.len;) {
        const s = T.start[n];
        const outcome = T.tag[n] & 7;
        if (outcome === qp.HIT || s + T.dur[n] <= from || s >= to) { n += T.size[n]; continue; }
        if (T.depth[n] === 0) busy += clip(n);
        if (outcome === BLOCKED) { wait += clip(n); n += T.size[n]; continue; }
        n++;
      }
      return { work: Math.max(0, busy - wait), wait };
    });
  };

  const THREADS_SAID = 6; // threads a range note names; more are counted

  // "main 3 % work, 97 % waiting; codegen worker 1 97 % work; ..." of the range.
  function threadsText() {
    const span = qp.range.to - qp.range.from;
    const share = (ns) => (Math.round((1000 * ns) / span) / 10).toFixed(1) + ' %';
    const said = qp.busyOfRange(qp.range.from, qp.range.to).slice(0, THREADS_SAID).map((b, t) =>
      qp.threads[t].name + ' ' + share(b.work) + ' work' + (b.wait > 0 ? ', ' + share(b.wait) + ' waiting' : ''));
    const more = qp.threads.length - said.length;
    return said.join('; ') + (more > 0 ? '; ' + more + ' more threads' : '');
  }

  // ---- the provider table and the notes that say a range is in force ----

  let savedRows = null; // the table's rows as the page wrote them, restored when cleared

  function cell(value, text) {
    return '<td data-value="' + value + '">' + qp.escape(text) + '</td>';
  }

  function histogramCell(s) {
    let h = '<td class="histogram" title="runs by duration in the range">';
    for (const count of s.histogram) {
      const height = s.runs > 0 && count > 0 ? 1 + Math.floor((count * 15) / s.runs) : 0;
      h += '<i style="height:' + height + 'px"></i>';
    }
    return h + '</td>';
  }

  // The numeric cells of a row, as html_reporter.cpp writes them, for the range's numbers.
  function rowCells(s, activity) {
    const asked = s.runs + s.hits;
    const none = '\u2013';
    if (!qp.hitsRecorded) {
      return cell(s.runs, qp.thousands(s.runs)) + cell(-1, none) + cell(-1, activity ? none : qp.layout.HITS_NOT_RECORDED) +
        timeCells(s, none);
    }
    return cell(s.runs, qp.thousands(s.runs)) + cell(s.hits, qp.thousands(s.hits)) +
      cell(asked === 0 ? -1 : Math.floor((s.hits * 1e6) / asked),
        activity || asked === 0 ? none : (Math.round((1000 * s.hits) / asked) / 10).toFixed(1) + ' %') +
      timeCells(s, none);
  }

  function timeCells(s, none) {
    return cell(s.total_ns, qp.durationText(s.total_ns)) + cell(s.self_ns, qp.durationText(s.self_ns)) +
      cell(s.mean_ns, s.runs > 0 ? qp.durationText(s.mean_ns) : none) +
      cell(s.median_ns, s.runs > 0 ? qp.durationText(s.median_ns) : none) +
      cell(s.max_ns, s.runs > 0 ? qp.durationText(s.max_ns) : none) + histogramCell(s);
  }

  function updateTable() {
    const body = document.querySelector('#provider-table tbody');
    if (!body) return;
    const rows = Array.from(body.rows);
    if (qp.rangeStats && savedRows === null) savedRows = new Map(rows.map((r) => [r, r.innerHTML]));
    for (const r of rows) {
      const p = Number(r.dataset.provider);
      if (!qp.rangeStats) {
        if (savedRows) r.innerHTML = savedRows.get(r);
        r.hidden = false;
        continue;
      }
      const s = qp.rangeStats[p];
      const first = savedRows.get(r).replace(/<\/td>[\s\S]*$/, '</td>'); // the provider's cell
      r.hidden = !s;
      if (s) r.innerHTML = first + rowCells(s, qp.providers[p] && qp.providers[p].activity);
    }
    if (!qp.rangeStats) savedRows = null;
  }

  function rangeText() {
    const r = qp.range;
    return qp.durationText(r.from) + ' \u2013 ' + qp.durationText(r.to) + ' (' + qp.durationText(r.to - r.from) + ')';
  }

  function events() {
    let count = 0;
    for (const s of qp.rangeStats) if (s) count += s.events;
    return count;
  }

  // Says, above the table and in the timeline's bar, which events the statistics count.
  function updateNotes() {
    for (const id of ['range-status', 'range-note']) {
      const el = document.getElementById(id);
      if (!el) continue;
      el.hidden = !qp.range;
      const text = el.querySelector('.range-text');
      if (qp.range && text) {
        text.textContent = 'Statistics of the ' + qp.thousands(events()) + ' events within ' + rangeText() +
          '. Threads: ' + threadsText() + '.';
      }
    }
  }

  function makeNote() {
    const providers = document.getElementById('providers');
    const table = document.getElementById('provider-table');
    if (!providers || !table || document.getElementById('range-note')) return;
    const note = document.createElement('p');
    note.id = 'range-note';
    note.className = 'range-note';
    note.hidden = true;
    note.innerHTML = '<span class="range-text"></span> <button type="button" class="range-clear">Clear range</button>';
    table.parentNode.insertBefore(note, table);
  }

  function refresh() {
    updateTable();
    updateNotes();
    if (qp.pinned === 'provider' && qp.shownProvider >= 0) {
      qp.forgetDetails();
      qp.showProvider(qp.shownProvider);
    }
    if (qp.onRangeChange) qp.onRangeChange();
  }

  // Limits the statistics to [from, to]; a range that holds no time clears it.
  qp.setRange = function setRange(from, to) {
    const a = Math.max(0, Math.min(from, to));
    const b = Math.max(from, to);
    if (!(b > a)) { qp.clearRange(); return; }
    qp.range = { from: a, to: b };
    qp.rangeStats = qp.statsOfRange(a, b);
    refresh();
  };

  qp.clearRange = function clearRange() {
    if (!qp.range) return;
    qp.range = null;
    qp.rangeStats = null;
    refresh();
  };

  qp.initRange = function initRange() {
    makeNote();
    document.addEventListener('click', (e) => {
      if (e.target instanceof Element && e.target.closest('.range-clear')) qp.clearRange();
    });
  };
})();
