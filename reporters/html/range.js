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

  // The SLOWEST longest runs, longest first; earlier runs win ties (keep_if_slow).
  function keepIfSlow(slowest, run) {
    if (slowest.length === SLOWEST && run[2] <= slowest[SLOWEST - 1][2]) return;
    let at = slowest.length;
    while (at > 0 && slowest[at - 1][2] < run[2]) at--;
    slowest.splice(at, 0, run);
    if (slowest.length > SLOWEST) slowest.pop();
  }

  function top(list, count, before) {
    list.sort(before);
    return list.slice(0, count);
  }

  // ---- an index of each thread, made once, at the first range ----

  // `byProvider`: the thread's nodes grouped by provider, each group in pre-order, so by start
  // time (`first[p]` to `first[p + 1]`); `up[n]`: n's nearest ancestor of its own provider, or
  // -1; `waits`: its outermost waits. With it a range visits only the nodes that start in it,
  // one provider at a time, and finds by a comparison whether a provider is inside itself.
  function indexOf(T, providers) {
    if (T.rangeIndex && T.rangeIndex.first.length === providers + 1) return T.rangeIndex;
    const first = new Int32Array(providers + 1);
    for (let n = 0; n < T.len; n++) first[(T.tag[n] >>> 5) + 1]++;
    for (let p = 0; p < providers; p++) first[p + 1] += first[p];
    const fill = first.slice(0, providers);
    const byProvider = new Int32Array(T.len);
    for (let n = 0; n < T.len; n++) byProvider[fill[T.tag[n] >>> 5]++] = n;
    const up = new Int32Array(T.len);
    const open = new Int32Array(providers).fill(-1); // per provider, its innermost open node
    const stack = new Int32Array(T.len + 1);
    const waits = [];
    let top = 0;
    let inWait = -1; // the end of the outermost open wait's subtree
    for (let n = 0; n < T.len; n++) {
      while (top > 0 && stack[top - 1] + T.size[stack[top - 1]] <= n) {
        const m = stack[--top];
        open[T.tag[m] >>> 5] = up[m];
      }
      const p = T.tag[n] >>> 5;
      up[n] = open[p];
      if (T.size[n] > 1) {
        open[p] = n;
        stack[top++] = n;
      }
      if ((T.tag[n] & 7) === BLOCKED && n >= inWait) {
        waits.push(n);
        inWait = n + T.size[n];
      }
    }
    T.rangeIndex = { first, byProvider, up, waits: Int32Array.from(waits) };
    return T.rangeIndex;
  }

  // The first index in [lo, hi) whose value is at least v (`values` ascending there).
  function lowerBound(values, lo, hi, v) {
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (values[m] < v) lo = m + 1; else hi = m;
    }
    return lo;
  }
  // The first node starting after time v (starts ascend in pre-order).
  function startsAfter(T, v) {
    let lo = 0;
    let hi = T.len;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (T.start[m] <= v) lo = m + 1; else hi = m;
    }
    return lo;
  }

  // The k-th smallest of values (reordered), by selection: no full sort of a million runs.
  function select(values, k) {
    let lo = 0;
    let hi = values.length - 1;
    while (hi > lo) {
      const a = values[lo];
      const b = values[(lo + hi) >>> 1];
      const c = values[hi];
      const pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
      let i = lo;
      let j = hi;
      while (i <= j) {
        while (values[i] < pivot) i++;
        while (values[j] > pivot) j--;
        if (i <= j) {
          const x = values[i];
          values[i++] = values[j];
          values[j--] = x;
        }
      }
      if (k <= j) hi = j;
      else if (k >= i) lo = i;
      else return values[k];
    }
    return values[k];
  }

  // ---- the statistics of one provider over every thread ----

  function emptyStats(p) {
    return {
      provider: p, runs: 0, hits: 0, waits: 0, total_ns: 0, self_ns: 0, wait_ns: 0, work_ns: 0,
      mean_ns: 0, median_ns: 0, max_ns: 0, histogram: new Array(BUCKETS).fill(0),
      slowest: [], keys: [], callers: [], callees: [], events: 0,
    };
  }

  // Scratch space reused from provider to provider: run durations, asks per key, calls per
  // caller, and which entries of the last two were touched.
  function scratch() {
    const P = qp.providers.length;
    const K = qp.keys.length + 1;
    return {
      durations: new Float64Array(1024), asked: new Int32Array(K), hits: new Int32Array(K), keys: [],
      calls: new Float64Array(P), callNs: new Float64Array(P), callers: [],
    };
  }

  // Provider p's events inside [from, to] on thread t into s. The nodes of p that start in the
  // range are one stretch of its group; of those, the ones still running at `to` are not inside.
  function addThread(t, p, from, to, s, acc, runs) {
    const T = qp.threads[t];
    const index = indexOf(T, acc.providers);
    const a = lowerBound(T.start, 0, T.len, from);
    const b = startsAfter(T, to);
    const group = index.byProvider;
    const up = index.up;
    const lo = lowerBound(group, index.first[p], index.first[p + 1], a);
    const hi = lowerBound(group, lo, index.first[p + 1], b);
    const { tag, dur, start, parent, self } = T;
    const keys = T.key;
    const waitsIn = T.waits.size > 0 ? T.waits : null;
    let count = runs;
    for (let i = lo; i < hi; i++) {
      const n = group[i];
      const ns = dur[n];
      if (start[n] + ns > to) continue; // still running at the range's end
      const outcome = tag[n] & 7;
      s.events++;
      if (outcome === qp.HIT) {
        s.hits++;
      } else {
        if (outcome === BLOCKED) {
          s.waits++;
          s.wait_ns += ns;
        } else {
          if (count === acc.durations.length) {
            const more = new Float64Array(count * 2);
            more.set(acc.durations);
            acc.durations = more;
          }
          acc.durations[count++] = ns;
          s.histogram[bucket(ns)]++;
          if (s.slowest.length < SLOWEST || ns > s.slowest[SLOWEST - 1][2]) {
            keepIfSlow(s.slowest, [t, n, ns, keys ? keys[n] : 0]);
          }
        }
        s.self_ns += self[n];
        if (waitsIn !== null) s.work_ns -= waitsIn.get(n) || 0;
        const u = up[n]; // a provider inside itself counts once in its total: the outermost
        if (!(u >= a && start[u] + dur[u] <= to)) s.total_ns += ns;
      }
      const caller = parent[n] >= 0 ? tag[parent[n]] >>> 5 : -1;
      if (caller >= 0) {
        if (acc.calls[caller] === 0) acc.callers.push(caller);
        acc.calls[caller]++;
        acc.callNs[caller] += ns;
      }
      const key = keys ? keys[n] : 0;
      if (key !== 0 && outcome !== BLOCKED) {
        if (acc.asked[key] === 0) acc.keys.push(key);
        acc.asked[key]++;
        if (outcome === qp.HIT) acc.hits[key]++;
      }
    }
    return count;
  }

  function finishProvider(s, acc, runs) {
    s.runs = runs;
    s.self_ns = Math.max(0, s.self_ns - s.wait_ns); // work_self_ns: waits are not work
    s.work_ns = Math.max(0, s.total_ns + s.work_ns); // as provider_stats: total less waits inside
    if (runs > 0) {
      const values = acc.durations.subarray(0, runs);
      let sum = 0;
      for (let i = 0; i < runs; i++) sum += values[i];
      s.mean_ns = Math.trunc(sum / runs);
      s.max_ns = s.slowest[0][2];
      s.median_ns = select(values, (runs - 1) >> 1);
    }
    s.keys = top(acc.keys.map((k) => [k, acc.asked[k], acc.hits[k]]), TOP_KEYS, (x, y) => y[1] - x[1] || x[0] - y[0]);
    for (const k of acc.keys) {
      acc.asked[k] = 0;
      acc.hits[k] = 0;
    }
    acc.keys.length = 0;
    s.callers = acc.callers.map((c) => [c, acc.calls[c], acc.callNs[c]]);
    for (const c of acc.callers) {
      acc.calls[c] = 0;
      acc.callNs[c] = 0;
    }
    acc.callers.length = 0;
  }

  // Per provider (null where none of its events is inside), the statistics of [from, to].
  qp.statsOfRange = function statsOfRange(from, to) {
    const providers = qp.providers.length;
    const stats = new Array(providers).fill(null);
    const acc = scratch();
    acc.providers = providers;
    for (let p = 0; p < providers; p++) {
      const s = emptyStats(p);
      let runs = 0;
      for (let t = 0; t < qp.threads.length; t++) runs = addThread(t, p, from, to, s, acc, runs);
      finishProvider(s, acc, runs);
      if (s.events > 0) stats[p] = s;
    }
    const byTime = (a, b) => b[2] - a[2] || b[1] - a[1] || a[0] - b[0];
    for (const s of stats) {
      if (!s) continue;
      for (const [caller, calls, ns] of s.callers) if (stats[caller]) stats[caller].callees.push([s.provider, calls, ns]);
    }
    for (const s of stats) {
      if (!s) continue;
      s.callers = top(s.callers, TOP_CALLS, byTime);
      s.callees = top(s.callees, TOP_CALLS, byTime);
    }
    return stats;
  };

  // Per thread, the time of [from, to] it worked and waited: its top-level nodes and its
  // outermost waits, clipped to the range; the rest it was idle. The concurrency of a range
  // in numbers.
  qp.busyOfRange = function busyOfRange(from, to) {
    return qp.threads.map((T) => {
      const clip = (n) => Math.max(0, Math.min(T.start[n] + T.dur[n], to) - Math.max(T.start[n], from));
      let busy = 0;
      let wait = 0;
      for (let n = 0; n < T.len; n += T.size[n]) if ((T.tag[n] & 7) !== qp.HIT) busy += clip(n);
      for (const n of indexOf(T, qp.providers.length).waits) wait += clip(n);
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
    return cell(s.runs, qp.thousands(s.runs)) + cell(s.hits, qp.thousands(s.hits)) +
      cell(asked === 0 ? -1 : Math.floor((s.hits * 1e6) / asked),
        activity || asked === 0 ? none : (Math.round((1000 * s.hits) / asked) / 10).toFixed(1) + ' %') +
      cell(s.total_ns, qp.durationText(s.total_ns)) + cell(s.self_ns, qp.durationText(s.self_ns)) +
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
