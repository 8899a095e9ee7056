// qprof viewer, part 12 of 18: the statistics of a time range, counted. One pass per thread over
// the events that lie wholly inside the range (a run from its start to its end, a hit at its
// place) sums per provider what reporters/html_stats.cpp's provider_stats writes, by the same
// rules, so that the whole run gives the payload's "stats" back (the browser test compares
// them); a process's threads alone are counted the same way. Shown by range.js.
(() => {
  'use strict';

  const SLOWEST = 10; // kSlowestRuns, kTopKeys, kTopCallers in html_stats.hpp
  const TOP_KEYS = 10;
  const TOP_CALLS = 10;
  const BUCKETS = 8;  // kHistogramBuckets
  const L = qp.layout;
  const BLOCKED = qp.BLOCKED;

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

  const indexOf = qp.rangeIndexOf;

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
      topCalls: new Float64Array(P), topNs: new Float64Array(P), // calls from the top level
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

  // Whether wait n is inside a wait of its own provider in [from, to], whose time holds it.
  // Its provider's nodes around it are in the range up to the first that is not.
  function insideOwnWait(T, n, from, to) {
    const { up } = indexOf(T);
    const { tag, dur, start } = T;
    for (let u = up[n]; u >= 0 && start[u] >= from && start[u] + dur[u] <= to; u = up[u]) {
      if ((tag[u] & L.OUTCOME_MASK) === BLOCKED) return true;
    }
    return false;
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
          if (!insideOwnWait(T, n, from, to)) sums[p * 5] += ns; // as add_times: each wait once
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
      if (q < 0) { // a root: the thread's top level called it, as html_stats.cpp counts it
        acc.topCalls[p]++;
        acc.topNs[p] += ns;
      } else {
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
      const key = keys ? keys[n] : 0; // -1: a hit whose key the page left out
      if (key > 0 && outcome !== BLOCKED) {
        const id = p * (qp.keys.length + 1) + key;
        const k = acc.asks.get(id) || [key, 0, 0, 0];
        k[1]++;
        if (outcome === qp.HIT) k[2]++;
        else k[3] += ns; // its runs' time, as html_stats.cpp sums it
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
  qp.MEMORY_FIELDS = MEMORY_FIELDS;

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
    for (let p = 0; p < P; p++) {
      if (acc.topCalls[p] > 0 && stats[p]) stats[p].callers.push([L.TOP_LEVEL_CALLER, acc.topCalls[p], acc.topNs[p]]);
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
})();
