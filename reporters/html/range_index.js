// qprof viewer, part 11 of 18: the index the statistics of a time range read (range_scan.js),
// one per thread, made in the browser's idle time once the page is ready; a range asked for
// before its thread's index is done finishes it at once.
(() => {
  'use strict';

  const BLOCKED = qp.BLOCKED;

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
  qp.rangeIndexOf = indexOf;

  // Makes the index of each thread in idle time (trace.js runs the jobs once the page is ready).
  qp.indexRangesWhenIdle = function indexRangesWhenIdle() {
    for (const T of qp.threads) {
      qp.addIdleJob(() => {
        if (T.rangeIndex) return true;
        const index = T.indexer || (T.indexer = indexer(T));
        return index.step(index.at() + qp.IDLE_SLICE);
      });
    }
  };
})();
