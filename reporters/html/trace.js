// qprof viewer, part 1 of 17: the trace. Derives depth, parent and start times from the
// payload's columns (decoded by payload.js) in one pass per thread, and makes the texts and
// classes of nodes and folds. Every rule here has a twin in reporters/html_format.cpp; the
// browser test compares what the two write, so a change to one is a change to both.
//
// The files are concatenated (trace.js, payload.js, render.js, expand.js, chain.js, tree.js,
// panels.js, search.js, stats.js, range_index.js, range_scan.js, range.js, processes.js,
// timeline_geometry.js, timeline_draw.js, timeline.js, main.js; the order of meson.build's
// viewer list) into one classic script, after the viewers' common base
// (reporters/viewer_common/: `qv`, formatting and sortable tables) and payload_layout.js,
// which is generated from the C++ description of the payload and declares the shared
// namespace `qp`; each file is an IIFE that adds to it, so nothing else leaks into the page's
// global scope.

(() => {
  'use strict';

  const L = qp.layout;
  const OUTCOMES = L.OUTCOMES; // indexed by the tag's outcome code
  // Deep chains are drawn flattened (kDeepDepth in html_parts.hpp): from DEEP_DEPTH on a node
  // is a row of a flat list, not a box inside its parent's (chain.js).
  qp.DEEP_DEPTH = 32;
  const HIT = OUTCOMES.indexOf('hit');
  const BLOCKED = OUTCOMES.indexOf('blocked');
  const ACTIVITY = OUTCOMES.indexOf('activity');
  qp.OUTCOMES = OUTCOMES;
  qp.HIT = HIT;
  qp.BLOCKED = BLOCKED;
  qp.ACTIVITY = ACTIVITY;

  qp.outcomeOf = (T, n) => T.tag[n] & L.OUTCOME_MASK;
  qp.providerOf = (T, n) => T.tag[n] >>> L.PROVIDER_SHIFT;
  qp.isImportant = (T, n) => (T.tag[n] & L.IMPORTANT) !== 0;
  qp.isUnfinished = (T, n) => (T.tag[n] & L.UNFINISHED) !== 0;
  qp.isHit = (T, n) => (T.tag[n] & L.OUTCOME_MASK) === HIT;

  // Per node, the time of the waits (blocked nodes) in its subtree, its own included: the twin
  // of Work in html_pieces.cpp. Kept only where it is not 0 (the waits and their ancestors),
  // found up from each wait (`blocked`, in pre-order): waits are few.
  function waitsInside(blocked, tag, dur, parent) {
    const waits = new Map();
    for (const n of blocked) {
      // Up to the next wait above, if any: a wait is all waiting, whatever waits inside it.
      for (let a = n; a >= 0 && (a === n || (tag[a] & L.OUTCOME_MASK) !== BLOCKED); a = parent[a]) {
        waits.set(a, (waits.get(a) || 0) + dur[n]);
      }
    }
    return waits;
  }

  // Depth, parent and start times from the columns tag, size, dur and gap, in one pass with a
  // stack of open ancestors. `gap` becomes `start` in place (html_payload_layout.hpp): a node
  // starts `gap` after its cursor -- its parent's start, or the end of its last timed sibling;
  // at[d] holds the cursor of depth d -- and a hit sits at the cursor without moving it.
  // Self time and extent are counted from a node's children when asked (selfOf, extentOf):
  // at ten million events every array is 40 to 80 MB to fill.
  function deriveThread(name, columns) {
    const { tag, size, dur } = columns;
    const len = tag.length;
    const depth = new Int32Array(len);
    const parent = new Int32Array(len);
    const start = columns.gap || new Float64Array(len);
    let stack = new Int32Array(64);
    let at = new Float64Array(stack.length + 1);
    let top = 0;
    let levels = 0;
    const blocked = [];
    for (let n = 0; n < len; n++) {
      // A corrupt size could make every later walk loop forever or run off the end; clamp it
      // here so that the rest of the viewer can trust [n, n + size[n]).
      const s = size[n];
      if (!(s >= 1) || n + s > len) size[n] = s >= 1 ? len - n : 1;
      while (top > 0 && stack[top - 1] + size[stack[top - 1]] <= n) top--;
      depth[n] = top;
      parent[n] = top > 0 ? stack[top - 1] : -1;
      if ((tag[n] & L.OUTCOME_MASK) === HIT) {
        start[n] = at[top];
      } else {
        start[n] = at[top] + (Number(start[n]) || 0);
        at[top] = start[n] + dur[n];
        if ((tag[n] & L.OUTCOME_MASK) === BLOCKED) blocked.push(n);
      }
      if (top + 1 === stack.length) {
        stack = grown(stack, Int32Array);
        at = grown(at, Float64Array);
      }
      at[top + 1] = start[n];
      stack[top++] = n;
      if (top > levels) levels = top;
    }
    return {
      name: String(name == null ? '' : name),
      len, tag, size, dur, key: columns.key || null, depth, parent, start, levels,
      waits: waitsInside(blocked, tag, dur, parent),
      memory: columns.alloc ? memoryOf(columns, tag, parent) : null,
    };
  }
  qp.deriveThread = deriveThread; // payload.js, per thread it reads

  // With -Z profile-queries-memory: per node, inclusive (the columns) and self memory. Hits and
  // unfinished scopes carry none, so a node's self is its memory less that of its nearest
  // descendants that carry some, as the C++ totals count it (InclusiveSums in src/totals.hpp).
  function memoryOf(columns, tag, parent) {
    const inclusive = [columns.alloc, columns.allocs, columns.retained];
    const self = inclusive.map((values) => new Float64Array(values));
    const carries = (n) => (tag[n] & L.OUTCOME_MASK) !== HIT && (tag[n] & L.UNFINISHED) === 0;
    const above = new Int32Array(tag.length); // the nearest ancestor that carries memory, or -1
    for (let n = 0; n < tag.length; n++) {
      const p = parent[n];
      above[n] = p < 0 ? -1 : carries(p) ? p : above[p];
      if (above[n] < 0 || !carries(n)) continue;
      for (let i = 0; i < 3; i++) self[i][above[n]] -= inclusive[i][n];
    }
    return { alloc: inclusive[0], allocs: inclusive[1], retained: inclusive[2],
      selfAlloc: self[0], selfAllocs: self[1], selfRetained: self[2] };
  }

  function grown(array, Type) {
    const bigger = new Type(array.length * 2);
    bigger.set(array);
    return bigger;
  }

  // One node's self time and extent, from its children when asked (details, tooltips, the
  // classes of nodes drawn): no array of either is made for the whole thread.
  qp.selfOf = function selfOf(T, n) {
    let self = T.dur[n];
    for (let c = n + 1; c < n + T.size[n]; c += T.size[c]) self -= T.dur[c];
    return self;
  };
  qp.extentOf = function extentOf(T, n) {
    let extent = 0;
    for (let c = n + 1; c < n + T.size[n]; c += T.size[c]) extent++;
    return extent;
  };

  // ---- what waits for idle time ----

  // Work the first screen does not need, done in the browser's idle periods once the page is
  // ready, a slice at a time: a job is a function that does about IDLE_SLICE nodes of work and
  // says whether it is done. A use that comes before the job finishes does the rest at once.
  const IDLE_SLICE = 100000;
  const idleJobs = [];
  qp.IDLE_SLICE = IDLE_SLICE;
  qp.addIdleJob = (job) => { idleJobs.push(job); };
  qp.runIdleJobs = function runIdleJobs() {
    const later = window.requestIdleCallback || ((f) => setTimeout(() => f({ timeRemaining: () => 10 }), 1));
    const run = (deadline) => {
      while (idleJobs.length > 0 && deadline.timeRemaining() > 1) {
        if (idleJobs[0]()) idleJobs.shift();
      }
      if (idleJobs.length > 0) later(run);
    };
    if (idleJobs.length > 0) later(run);
  };

  // `payload`: the JSON of #qprof-trace; `columnsText`: the base64 of #qprof-columns.
  qp.load = async function load(payload, columnsText) {
    if (!payload || payload.format !== L.FORMAT) {
      throw new Error('not a ' + L.FORMAT + ' payload');
    }
    if (payload.version !== L.VERSION) {
      throw new Error('a payload of version ' + payload.version + '; this viewer reads version ' +
        L.VERSION + ': write the report again with this qprof');
    }
    // Every share is of the busy time of all threads together (`total_ns`), as in the header.
    qp.total = Number(payload.total_ns != null ? payload.total_ns : payload.wall_ns) || 0;
    qp.wall = Number(payload.wall_ns) || 0; // the session, start to end: the timeline's extent
    // A colour class: its name and its palette slot, --class-N (html_payload_layout.hpp).
    qp.colourClasses = (payload.classes || []).map((c, index) => ({ name: String(c.name), colour: Number(c.colour) | 0, index }));
    qp.providers = (payload.providers || []).map((p) => ({
      name: String(p.name), activity: !!p.activity, region: !!p.region,
      colourClass: qp.colourClasses[(Number(p.class) || 0) - 1] || null,
    }));
    qp.counterNames = (payload.counters || []).map(String);
    qp.hitsRecorded = payload.hits_recorded !== false; // -Z profile-queries-events=-hits: false
    qp.memoryRecorded = payload.memory_recorded === true; // -Z profile-queries-memory
    // Hits whose key a heavy page left out (html_payload_layout.hpp, kColumnsBudgetBytes).
    qp.hitKeysLeftOut = Number((payload.keys || {})[L.HITS_LEFT_OUT]) || 0;
    qp.keys = { length: 0, at: () => undefined }; // the keys' texts travel compressed after the columns
    const bytes = await qp.inflate(columnsText, payload.compression || L.COMPRESSION);
    ({ threads: qp.threads, keys: qp.keys } = qp.readPayload(bytes, payload));
  };

  qp.counterName = (c) => (c < qp.counterNames.length ? qp.counterNames[c] : '?');

  qp.providerName = (t, n) => {
    const p = qp.providers[qp.providerOf(qp.threads[t], n)];
    return p ? p.name : '?';
  };
  function keyOf(T, n) {
    if (!T.key || T.key[n] <= 0) return null;
    const k = qp.keys.at(T.key[n] - 1);
    return k == null ? null : String(k);
  }
  qp.keyText = (t, n) => keyOf(qp.threads[t], n);
  // Whether node n is a hit whose key the page left out: the details and the timeline say so.
  qp.keyLeftOut = (t, n) => {
    const T = qp.threads[t];
    return T.key !== null && T.key[n] === -1;
  };
  // The name a node is shown by: an activity's argument follows its name, as in C++'s
  // Trace::name_of: "codegen unit(math)".
  function nameOf(T, n) {
    const p = qp.providers[qp.providerOf(T, n)];
    const name = p ? p.name : '?';
    const argument = qp.outcomeOf(T, n) === ACTIVITY ? keyOf(T, n) : null;
    return argument === null ? name : name + '(' + argument + ')';
  }
  qp.nodeName = (t, n) => nameOf(qp.threads[t], n);
  // The colour class of a node's provider ({name, colour}), or null.
  qp.colourClassOf = (T, n) => {
    const p = qp.providers[qp.providerOf(T, n)];
    return p ? p.colourClass : null;
  };

  // ---- numbers as the C++ side prints them (reporters/viewer_common/format.js) ----

  qp.thousands = qv.thousands;
  qp.durationText = qv.durationText;
  qp.bytesText = qv.bytesText;
  // The rows of a details list for memory, `row(field, name, text)` making each: bytes
  // allocated, allocations and bytes retained, inclusive and self (three values each).
  qp.memoryRows = function memoryRows(row, inclusive, self) {
    const pair = (text, i) => text(inclusive[i]) + ' \u00b7 self ' + text(self[i]);
    return row('alloc', 'Allocated', pair(qp.bytesText, 0)) + row('allocs', 'Allocations', pair(qp.thousands, 1)) +
      row('retained', 'Retained', pair(qp.bytesText, 2));
  };
  // Node n's memory rows, for its details and the timeline's tip: none without memory nor for a
  // hit, which allocates nothing; an unfinished scope's memory was never counted.
  qp.nodeMemoryRows = function nodeMemoryRows(row, T, n) {
    const M = T.memory;
    if (!M || qp.isHit(T, n)) return '';
    if (qp.isUnfinished(T, n)) return row('alloc', 'Allocated', 'not counted: the scope was still open');
    return qp.memoryRows(row, [M.alloc[n], M.allocs[n], M.retained[n]], [M.selfAlloc[n], M.selfAllocs[n], M.selfRetained[n]]);
  };
  qp.percentOf = (ns) => (qp.total > 0 ? (100 * ns) / qp.total : 0);
  qp.percentText = (ns) => qv.shareText(ns, qp.total); // every share on the page is of qp.total

  function durBucket(ns) {
    if (ns < 1e3) return 'dur-lt-1us';
    if (ns < 1e4) return 'dur-lt-10us';
    if (ns < 1e5) return 'dur-lt-100us';
    if (ns < 1e6) return 'dur-lt-1ms';
    if (ns < 1e7) return 'dur-lt-10ms';
    if (ns < 1e8) return 'dur-lt-100ms';
    if (ns < 1e9) return 'dur-lt-1s';
    if (ns < 1e10) return 'dur-lt-10s';
    return 'dur-ge-10s';
  }

  function shareGrade(ns) {
    const p = qp.percentOf(ns);
    return p < 0.1 ? 'share-0' : p < 1 ? 'share-1' : p < 5 ? 'share-2' : p < 20 ? 'share-3' : 'share-4';
  }

  // ---- classes and texts (the rules shared with html_format.cpp) ----

  qp.classOf = function classOf(T, n) {
    const outcome = qp.outcomeOf(T, n);
    let c = 'node ' + (OUTCOMES[outcome] || 'miss') + ' depth-' + T.depth[n] + ' extent-' + qp.extentOf(T, n);
    if (outcome === HIT) return c;
    const colour = outcome === BLOCKED ? null : qp.colourClassOf(T, n);
    if (colour) c += ' colour-' + colour.colour;
    c += ' ' + durBucket(T.dur[n]) + ' ' + shareGrade(qp.workOf(T, n));
    if (qp.isImportant(T, n)) c += ' important';
    if (qp.isUnfinished(T, n)) c += ' unfinished';
    if (T.depth[n] >= qp.DEEP_DEPTH) c += ' deep';
    return c;
  };

  // A node's share is of its work; a wait has none (shareText).
  // A key as a label shows it: cut to LABEL_KEY_CHARS characters, the last '…' when cut, as
  // label_key in C++.
  function labelKey(key) {
    const chars = Array.from(key);
    const most = qp.layout.LABEL_KEY_CHARS;
    return chars.length > most ? chars.slice(0, most - 1).join('') + '\u2026' : key;
  }
  // An activity's argument is in its name already; a query's key follows it, shortened:
  // "type_of(fn_12)". What a label, a path or a link names a node by.
  function keyedName(T, n) {
    const key = qp.outcomeOf(T, n) === ACTIVITY ? null : keyOf(T, n);
    return nameOf(T, n) + (key ? '(' + labelKey(key) + ')' : '');
  }
  qp.keyedName = (t, n) => keyedName(qp.threads[t], n);
  qp.labelOf = function labelOf(T, n) {
    if (!qp.isImportant(T, n) || qp.isHit(T, n)) return null;
    return keyedName(T, n) + ' \u00b7 ' + qp.durationText(T.dur[n]) + ' \u00b7 ' + qp.shareText(T, n);
  };

  // ' · P' when every top-level node of the run is provider P, ' · mostly P' when P has at
  // least half of the run's work (of its count when it did none), else nothing. The twin of
  // run_provider_text in html_format.cpp, ties to the lower provider index as there.
  function runProviderText(T, from, to, runNs) {
    const timed = runNs > 0;
    const score = new Map();
    let total = 0;
    for (let c = from; c < to; c += T.size[c]) {
      const weight = timed ? qp.workOf(T, c) : 1;
      const p = qp.providerOf(T, c);
      score.set(p, (score.get(p) || 0) + weight);
      total += weight;
    }
    let best = -1;
    let bestScore = -1;
    for (const [p, value] of score) {
      if (value > bestScore || (value === bestScore && p < best)) { best = p; bestScore = value; }
    }
    if (best < 0 || bestScore * 2 < total) return '';
    const name = qp.providers[best] ? qp.providers[best].name : '?';
    return (score.size === 1 ? ' \u00b7 ' : ' \u00b7 mostly ') + name;
  }

  // The work of node n: its duration less the waits inside it (a hit's is 0).
  qp.workOf = (T, n) => ((T.tag[n] & L.OUTCOME_MASK) === HIT ? 0 : T.dur[n] - (T.waits.get(n) || 0));
  qp.isWait = (T, n) => (T.tag[n] & L.OUTCOME_MASK) === BLOCKED;
  // The summed work of the top-level nodes of the sibling run [from, to).
  qp.runWork = function runWork(T, from, to) {
    let sum = 0;
    for (let c = from; c < to; c += T.size[c]) sum += qp.workOf(T, c);
    return sum;
  };
  // A node's share of the busy time: of its work, as every share on the page; a wait is not work.
  qp.shareText = (T, n) => (qp.isWait(T, n) ? 'waiting' : qp.percentText(qp.workOf(T, n)));

  // Heaviest first: pieces by their work (a fold by its top-level nodes'), most first, then
  // the waits, longest first; ties in call order. A wait is not work, so it never leads.
  // The twin of sort_heaviest_first in html_pieces.cpp.
  qp.heaviestFirst = function heaviestFirst(T, ps) {
    const ranked = ps.map((p, i) => {
      const wait = !p.fold && qp.isWait(T, p.n);
      let ns = wait ? T.dur[p.n] : p.chip ? 0 : p.fold ? qp.runWork(T, p.from, p.to) : qp.workOf(T, p.n);
      if (p.chip) for (const m of p.members) ns += qp.workOf(T, m);
      return { p, i, wait, ns };
    });
    ranked.sort((a, b) => a.wait - b.wait || b.ns - a.ns || a.i - b.i);
    return ranked.map((x) => x.p);
  };

  // The k-th smallest of values (reordered), by selection: no full sort of a million values.
  qp.kthSmallest = function kthSmallest(values, k) {
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
  };

  // The first `count` of nodes as heaviestFirst orders them, without sorting all of them: a
  // chip may stand for a hundred thousand runs and draws 250.
  qp.heaviestNodes = function heaviestNodes(T, nodes, count) {
    // One number per node, larger first: its work, or for a wait -1 / (1 + duration), below
    // any work and longest first.
    const rank = Float64Array.from(nodes, (n) => (qp.isWait(T, n) ? -1 / (1 + T.dur[n]) : qp.workOf(T, n)));
    let chosen = nodes.map((n, i) => i);
    if (nodes.length > count) {
      const floor = qp.kthSmallest(Float64Array.from(rank), nodes.length - count);
      const above = chosen.filter((i) => rank[i] > floor);
      const at = chosen.filter((i) => rank[i] === floor).slice(0, count - above.length);
      chosen = above.concat(at);
    }
    chosen.sort((a, b) => rank[b] - rank[a] || a - b);
    return chosen.map((i) => nodes[i]);
  };

  // '⋯ 3,000 typeck runs, 412 hits · 2.10 ms': a chip's members by outcome, and their time.
  // The twin of chip_text in html_pieces.cpp.
  const KINDS = [[' run', ' runs'], [' hit', ' hits'], [' wait', ' waits']];
  qp.chipText = function chipText(T, provider, members) {
    const counts = [0, 0, 0];
    let ns = 0;
    for (const n of members) {
      const outcome = T.tag[n] & L.OUTCOME_MASK;
      counts[outcome === HIT ? 1 : outcome === BLOCKED ? 2 : 0]++;
      ns += outcome === HIT ? 0 : T.dur[n];
    }
    let text = '\u22ef ';
    let named = false;
    counts.forEach((count, kind) => {
      if (count === 0) return;
      text += (named ? ', ' : '') + qp.thousands(count);
      if (!named) text += ' ' + (qp.providers[provider] ? qp.providers[provider].name : '?');
      named = true;
      text += KINDS[kind][count === 1 ? 0 : 1];
    });
    return ns > 0 ? text + ' \u00b7 ' + qp.durationText(ns) : text;
  };

  qp.foldText = function foldText(T, from, to) {
    const count = to - from;
    const runNs = qp.runWork(T, from, to);
    return '+' + qp.thousands(count) + (count === 1 ? ' query \u00b7 ' : ' queries \u00b7 ') +
      qp.percentText(runNs) + runProviderText(T, from, to, runNs);
  };

  qp.escape = qv.escape;
})();
