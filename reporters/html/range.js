// qprof viewer, part 7 of 11: statistics of a time range. A range selected on the timeline
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
  const L = qp.layout;
  const BLOCKED = qp.BLOCKED;

  qp.range = null;      // {from, to} in ns from the session start, or null: the whole run
  qp.statsThreads = null; // the threads the statistics count (one process's), or null: all
  qp.rangeStats = null; // per provider, the statistics of the range and threads; null: the payload's

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

  // ---- an index of each thread, made in idle time once the page is ready ----

  // `up[n]`: n's nearest ancestor of its own provider, or -1, so that whether a provider is
  // inside itself within a range is one comparison; `waits`: the thread's outermost waits.
  // Made a slice at a time (`step`), so that it fills idle time instead of making a first
  // range at ten million events wait about a second for it.
  function indexer(T) {
    const up = new Int32Array(T.len);
    const open = new Int32Array(qp.providers.length + 1).fill(-1); // per provider, its innermost open node
    const stack = new Int32Array(T.levels + 1); // the open nodes with children
    const waits = [];
    let top = 0;
    let inWait = -1; // the end of the outermost open wait's subtree
    let n = 0;
    // Indexes the nodes before `until`; true when the thread is done.
    function step(until) {
      const end = Math.min(until, T.len);
      for (; n < end; n++) {
        while (top > 0 && stack[top - 1] + T.size[stack[top - 1]] <= n) {
          const m = stack[--top];
          open[qp.providerOf(T, m)] = up[m];
        }
        const p = qp.providerOf(T, n);
        up[n] = open[p];
        if (T.size[n] > 1) {
          open[p] = n;
          stack[top++] = n;
        }
        if (qp.outcomeOf(T, n) === BLOCKED && n >= inWait) {
          waits.push(n);
          inWait = n + T.size[n];
        }
      }
      if (n < T.len) return false;
      T.rangeIndex = { up, waits: Int32Array.from(waits) };
      return true;
    }
    return { step, at: () => n };
  }

  function indexOf(T) {
    if (!T.rangeIndex) (T.indexer || (T.indexer = indexer(T))).step(Infinity);
    return T.rangeIndex;
  }

  // The first node starting at `v` or later (`after`: later than v); starts ascend in pre-order.
  function firstStart(T, v, after) {
    let lo = 0;
    let hi = T.len;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (T.start[m] < v || (after && T.start[m] === v)) lo = m + 1; else hi = m;
    }
    return lo;
  }

  // ---- one pass over the nodes that start in the range, in pre-order ----

  // Sums per provider in typed arrays (`c`: events, hits, waits, runs; `ns`: wait, self of
  // its runs, waits inside its outermost nodes, outermost total, run time), so that a node
  // costs a few additions.
  function accumulators(P) {
    const dense = P * P <= 1 << 20; // calls per (caller, callee): an array, or a map
    return {
      P, c: new Float64Array(P * 4), ns: new Float64Array(P * 5), histogram: new Int32Array(P * BUCKETS),
      memory: new Float64Array(P * 6), // inclusive and self: bytes, allocations, retained bytes
      slowest: new Array(P).fill(null), floor: new Float64Array(P).fill(-1),
      calls: dense ? new Float64Array(P * P) : null, callNs: dense ? new Float64Array(P * P) : null,
      edges: dense ? null : new Map(), asks: new Map(),
      runP: runs.p, runNs: runs.ns, runCount: 0,
    };
  }

  // The run times of the last pass, kept for the next one: at ten million events they are
  // the pass's largest arrays.
  const runs = { p: new Int32Array(1024), ns: new Float64Array(1024), grouped: new Float64Array(1024) };

  function addRun(acc, p, ns) {
    if (acc.runCount === acc.runP.length) {
      const runP = new Int32Array(acc.runCount * 2);
      const runNs = new Float64Array(acc.runCount * 2);
      runP.set(acc.runP);
      runNs.set(acc.runNs);
      acc.runP = runP;
      acc.runNs = runNs;
    }
    runs.p = acc.runP;
    runs.ns = acc.runNs;
    acc.runP[acc.runCount] = p;
    acc.runNs[acc.runCount++] = ns;
  }

  // Thread t's events inside [from, to]: the nodes that start in it, but for those still
  // running at its end (one chain: the ancestors of the last node to start in it).
  function addThread(t, from, to, acc) {
    const T = qp.threads[t];
    const { up } = indexOf(T);
    const { tag, dur, start, parent } = T;
    const keys = T.key;
    const waitsIn = T.waits.size > 0 ? T.waits : null;
    const M = T.memory;
    const { P, c, histogram, slowest, floor, calls, callNs } = acc;
    const sums = acc.ns;
    const b = firstStart(T, to, true);
    for (let n = firstStart(T, from, false); n < b; n++) {
      const ns = dur[n];
      if (start[n] + ns > to) continue; // still running at the range's end
      const p = tag[n] >>> L.PROVIDER_SHIFT;
      const outcome = tag[n] & L.OUTCOME_MASK;
      c[p * 4]++;
      if (outcome === qp.HIT) {
        c[p * 4 + 1]++;
      } else {
        if (outcome === BLOCKED) {
          c[p * 4 + 2]++;
          sums[p * 5] += ns;
        } else {
          c[p * 4 + 3]++;
          sums[p * 5 + 1] += ns; // less its children's, below; a wait's self is waiting, not work
          sums[p * 5 + 4] += ns;
          histogram[p * BUCKETS + bucket(ns)]++;
          addRun(acc, p, ns);
          if (ns > floor[p]) {
            const list = slowest[p] || (slowest[p] = []);
            keepIfSlow(list, [t, n, ns, keys ? keys[n] : 0]);
            if (list.length === SLOWEST) floor[p] = list[SLOWEST - 1][2];
          }
        }
        // A provider inside itself counts once in its total and its work: the outermost
        // node in the range holds the inner ones' time, and their waits.
        const u = up[n];
        const outermost = !(u >= 0 && start[u] >= from && start[u] + dur[u] <= to);
        if (outermost) {
          sums[p * 5 + 3] += ns;
          if (waitsIn !== null) sums[p * 5 + 2] += waitsIn.get(n) || 0;
        }
        if (M !== null) addMemory(acc.memory, p * 6, M, n, outermost);
      }
      const q = parent[n];
      if (q >= 0) {
        const caller = tag[q] >>> L.PROVIDER_SHIFT;
        const id = caller * P + p;
        // Self time: a run's children come off its time, when the run is in the range (then
        // so are they all). A parent is never a hit.
        if (ns > 0 && (tag[q] & L.OUTCOME_MASK) !== BLOCKED && start[q] >= from && start[q] + dur[q] <= to) {
          sums[caller * 5 + 1] -= ns;
        }
        if (calls !== null) {
          calls[id]++;
          callNs[id] += ns;
        } else {
          const edge = acc.edges.get(id) || [0, 0];
          edge[0]++;
          edge[1] += ns;
          acc.edges.set(id, edge);
        }
      }
      const key = keys ? keys[n] : 0;
      if (key !== 0 && outcome !== BLOCKED) {
        const id = p * (qp.keys.length + 1) + key;
        const k = acc.asks.get(id) || [key, 0, 0];
        k[1]++;
        if (outcome === qp.HIT) k[2]++;
        acc.asks.set(id, k);
      }
    }
  }

  // Node n's memory: its self always, its inclusive when it is its provider's outermost node.
  function addMemory(memory, at, M, n, outermost) {
    if (outermost) {
      memory[at] += M.alloc[n];
      memory[at + 1] += M.allocs[n];
      memory[at + 2] += M.retained[n];
    }
    memory[at + 3] += M.selfAlloc[n];
    memory[at + 4] += M.selfAllocs[n];
    memory[at + 5] += M.selfRetained[n];
  }

  const MEMORY_FIELDS = ['alloc_bytes', 'allocs', 'retained_bytes', 'self_alloc_bytes', 'self_allocs', 'self_retained_bytes'];

  function emptyStats(p) {
    return {
      provider: p, runs: 0, hits: 0, waits: 0, total_ns: 0, self_ns: 0, wait_ns: 0, work_ns: 0,
      mean_ns: 0, median_ns: 0, max_ns: 0, histogram: new Array(BUCKETS).fill(0),
      slowest: [], keys: [], callers: [], callees: [], events: 0,
    };
  }

  // The accumulators as provider_stats writes them; medians from the run times grouped by
  // provider (a counting sort of the pass's runs).
  function finish(acc) {
    const { P, c, histogram } = acc;
    const sums = acc.ns;
    const stats = new Array(P).fill(null);
    const at = new Int32Array(P + 1);
    for (let i = 0; i < acc.runCount; i++) at[acc.runP[i] + 1]++;
    for (let p = 0; p < P; p++) at[p + 1] += at[p];
    if (runs.grouped.length < acc.runCount) runs.grouped = new Float64Array(acc.runP.length);
    const grouped = runs.grouped;
    const fill = at.slice(0, P);
    for (let i = 0; i < acc.runCount; i++) grouped[fill[acc.runP[i]]++] = acc.runNs[i];
    for (let p = 0; p < P; p++) {
      if (c[p * 4] === 0) continue;
      const s = emptyStats(p);
      s.events = c[p * 4];
      s.hits = c[p * 4 + 1];
      s.waits = c[p * 4 + 2];
      s.runs = c[p * 4 + 3];
      s.wait_ns = sums[p * 5];
      s.self_ns = Math.max(0, sums[p * 5 + 1]);
      s.total_ns = sums[p * 5 + 3];
      s.work_ns = Math.max(0, s.total_ns - sums[p * 5 + 2]); // as add_times: less the waits inside
      s.histogram = Array.from(histogram.subarray(p * BUCKETS, (p + 1) * BUCKETS));
      if (qp.memoryRecorded) MEMORY_FIELDS.forEach((field, i) => { s[field] = acc.memory[p * 6 + i]; });
      if (s.runs > 0) {
        s.mean_ns = Math.trunc(sums[p * 5 + 4] / s.runs);
        s.slowest = acc.slowest[p];
        s.max_ns = s.slowest[0][2];
        s.median_ns = qp.kthSmallest(grouped.subarray(at[p], at[p + 1]), (s.runs - 1) >> 1);
      }
      stats[p] = s;
    }
    return stats;
  }

  // Callers and callees, and the most-asked keys, from the pass's edges and asks.
  function finishCalls(acc, stats) {
    const { P } = acc;
    const edge = (id, calls, ns) => {
      const caller = Math.floor(id / P);
      const callee = id - caller * P;
      if (stats[callee]) stats[callee].callers.push([caller, calls, ns]);
      if (stats[caller]) stats[caller].callees.push([callee, calls, ns]);
    };
    if (acc.calls !== null) {
      for (let id = 0; id < acc.calls.length; id++) if (acc.calls[id] > 0) edge(id, acc.calls[id], acc.callNs[id]);
    } else {
      for (const [id, [calls, ns]] of acc.edges) edge(id, calls, ns);
    }
    const asks = new Array(P).fill(null);
    for (const [id, k] of acc.asks) {
      const p = Math.floor(id / (qp.keys.length + 1));
      (asks[p] || (asks[p] = [])).push(k);
    }
    const byTime = (a, b) => b[2] - a[2] || b[1] - a[1] || a[0] - b[0];
    stats.forEach((s, p) => {
      if (!s) return;
      s.callers = top(s.callers, TOP_CALLS, byTime);
      s.callees = top(s.callees, TOP_CALLS, byTime);
      if (asks[p]) s.keys = top(asks[p], TOP_KEYS, (a, b) => b[1] - a[1] || a[0] - b[0]);
    });
  }

  // Per provider (null where none of its events is inside), the statistics of [from, to], of
  // the given threads (every thread when none are given).
  qp.statsOfRange = function statsOfRange(from, to, threads) {
    const acc = accumulators(qp.providers.length);
    for (const t of threads || qp.threads.keys()) addThread(t, from, to, acc);
    const stats = finish(acc);
    finishCalls(acc, stats);
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
      for (let n = 0; n < T.len; n += T.size[n]) if (qp.outcomeOf(T, n) !== qp.HIT) busy += clip(n);
      for (const n of indexOf(T).waits) wait += clip(n);
      return { work: Math.max(0, busy - wait), wait };
    });
  };

  const THREADS_SAID = 6; // threads a range note names; more are counted

  // "main 3 % work, 97 % waiting; codegen worker 1 97 % work; ..." of the range.
  function threadsText() {
    const span = qp.range.to - qp.range.from;
    const share = (ns) => qv.rateText(ns, span);
    const busy = qp.busyOfRange(qp.range.from, qp.range.to);
    const threads = qp.statsThreads || [...qp.threads.keys()];
    const said = threads.slice(0, THREADS_SAID).map((t) => qp.threads[t].name + ' ' + share(busy[t].work) +
      ' work' + (busy[t].wait > 0 ? ', ' + share(busy[t].wait) + ' waiting' : ''));
    const more = threads.length - said.length;
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
        activity ? none : qv.rateText(s.hits, asked)) +
      timeCells(s, none);
  }

  function timeCells(s, none) {
    return cell(s.total_ns, qp.durationText(s.total_ns)) + cell(s.self_ns, qp.durationText(s.self_ns)) +
      cell(s.mean_ns, s.runs > 0 ? qp.durationText(s.mean_ns) : none) +
      cell(s.median_ns, s.runs > 0 ? qp.durationText(s.median_ns) : none) +
      cell(s.max_ns, s.runs > 0 ? qp.durationText(s.max_ns) : none) + histogramCell(s) + memoryCells(s);
  }

  // With memory, as write_memory_cells in html_reporter.cpp: inclusive, then self.
  function memoryCells(s) {
    if (!qp.memoryRecorded) return '';
    const text = [qp.bytesText, qp.thousands, qp.bytesText];
    return MEMORY_FIELDS.map((field, i) => cell(s[field] || 0, text[i % 3](s[field] || 0))).join('');
  }

  // The provider's cell as the page wrote it, with the waits of the statistics in force.
  function providerCell(row, s) {
    const name = row.replace(/<\/td>[\s\S]*$/, '').replace(/ <small class="waits">[\s\S]*?<\/small>/, '');
    const waits = s && s.waits > 0
      ? ' <small class="waits">' + qp.thousands(s.waits) + ' waits, ' + qp.escape(qp.durationText(s.wait_ns)) + '</small>'
      : '';
    return name + waits + '</td>';
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
      const first = providerCell(savedRows.get(r), s);
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
          (qp.statsProcess >= 0 ? ' in ' + qp.processName(qp.statsProcess) : '') +
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

  // The statistics of the range and threads in force, or null: the payload's.
  function recount() {
    const filtered = qp.range || qp.statsThreads;
    qp.rangeStats = filtered
      ? qp.statsOfRange(qp.range ? qp.range.from : 0, qp.range ? qp.range.to : Infinity, qp.statsThreads)
      : null;
    refresh();
  }

  // Limits the statistics to [from, to]; a range that holds no time clears it.
  qp.setRange = function setRange(from, to) {
    const a = Math.max(0, Math.min(from, to));
    const b = Math.max(from, to);
    if (!(b > a)) { qp.clearRange(); return; }
    qp.range = { from: a, to: b };
    recount();
  };

  qp.clearRange = function clearRange() {
    if (!qp.range) return;
    qp.range = null;
    recount();
  };

  // Limits the statistics to some threads (a process's), or every thread with null.
  qp.setStatsThreads = function setStatsThreads(threads) {
    qp.statsThreads = threads;
    recount();
  };

  // Above a provider's statistics: what they count, when not the whole run.
  qp.statsScopeNote = function statsScopeNote() {
    let h = '';
    if (qp.statsThreads && qp.statsProcess >= 0) {
      h += '<p class="range-note">In ' + qp.escape(qp.processName(qp.statsProcess)) + ' only.</p>';
    }
    if (qp.range) {
      h += '<p class="range-note">In the selected time range only. <button type="button" class="range-clear">Clear range</button></p>';
    }
    return h;
  };

  qp.initRange = function initRange() {
    makeNote();
    // The index of each thread, in idle time (trace.js runs the jobs once the page is ready).
    for (const T of qp.threads) {
      qp.addIdleJob(() => {
        if (T.rangeIndex) return true;
        const index = T.indexer || (T.indexer = indexer(T));
        return index.step(index.at() + qp.IDLE_SLICE);
      });
    }
    document.addEventListener('click', (e) => {
      if (e.target instanceof Element && e.target.closest('.range-clear')) qp.clearRange();
    });
  };
})();
