// qprof viewer, part 1 of 18: the trace. Derives depth, parent and start times from the
// payload's columns (decoded by payload.js) in one pass per thread, loads the payload, and
// runs the work the first screen does not need in idle time. The texts and classes of nodes
// are texts.js's.
//
// The files are concatenated (trace.js, texts.js, payload.js, render.js, expand.js, chain.js,
// tree.js, panels.js, search.js, stats.js, range_index.js, range_scan.js, range.js,
// processes.js, timeline_geometry.js, timeline_draw.js, timeline.js, main.js; the order of
// meson.build's viewer list) into one classic script, after the viewers' common base
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
  qp.DEEP_DEPTH = L.DEEP_DEPTH;
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
})();
