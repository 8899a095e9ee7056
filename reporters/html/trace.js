// qprof viewer, part 1 of 6: the trace. Decodes the JSON payload into typed arrays once,
// derives depth, extent, parent and self time in one pass per thread, and makes the texts and
// classes of nodes and folds. Every rule here has a twin in reporters/html_format.cpp; the
// browser test compares what the two write, so a change to one is a change to both.
//
// The files are concatenated (trace.js, render.js, chain.js, tree.js, panels.js, stats.js, main.js) into one
// classic script. This file declares the shared namespace `qp`; each file is an IIFE that adds
// to it, so nothing else leaks into the page's global scope.
const qp = {};

(() => {
  'use strict';

  const OUTCOMES = ['miss', 'hit', 'blocked', 'load', 'activity'];
  // Deep chains are drawn flattened (kDeepDepth in html_parts.hpp): from DEEP_DEPTH on a node
  // is a row of a flat list, not a box inside its parent's (chain.js).
  qp.DEEP_DEPTH = 32;
  const HIT = 1;
  qp.OUTCOMES = OUTCOMES;
  qp.HIT = HIT;

  // Typed arrays turn the million-element JSON arrays into compact, monomorphic storage;
  // `dur` is Float64 because nanosecond durations overflow 32 bits after ~2 s.
  function decodeThread(raw) {
    const tag = new Int32Array(raw.tag || []);
    const len = tag.length;
    const size = new Int32Array(raw.size || []);
    const dur = new Float64Array(raw.dur || []);
    const key = Array.isArray(raw.key) ? new Int32Array(raw.key) : null;
    const depth = new Int32Array(len);
    const extent = new Int32Array(len);
    const parent = new Int32Array(len);
    const self = new Float64Array(dur);
    // A corrupt size could make every later walk loop forever or run off the end; clamp it
    // once here so that the rest of the viewer can trust [n, n + size[n]).
    for (let n = 0; n < len; n++) {
      const s = size[n];
      if (!(s >= 1) || n + s > len) size[n] = s >= 1 ? len - n : 1;
    }
    // Pre-order with subtree sizes: an explicit stack of open ancestors is all depth needs.
    const stack = new Int32Array(len + 1);
    let top = 0;
    for (let n = 0; n < len; n++) {
      while (top > 0 && stack[top - 1] + size[stack[top - 1]] <= n) top--;
      depth[n] = top;
      if (top > 0) {
        const p = stack[top - 1];
        parent[n] = p;
        extent[p]++;
        self[p] -= dur[n];
      } else {
        parent[n] = -1;
      }
      stack[top++] = n;
    }
    return {
      name: String(raw.name == null ? '' : raw.name),
      len, tag, size, dur, key, depth, extent, parent, self,
    };
  }

  qp.load = function load(payload) {
    if (!payload || payload.format !== 'qprof-html-trace') {
      throw new Error('not a qprof-html-trace payload');
    }
    // Every share is of the busy time of all threads together (`total_ns`), as in the header.
    qp.total = Number(payload.total_ns != null ? payload.total_ns : payload.wall_ns) || 0;
    qp.providers = (payload.providers || []).map((p) => ({
      name: String(p.name), activity: !!p.activity,
    }));
    qp.keys = payload.keys || [];
    qp.threads = (payload.threads || []).map(decodeThread);
  };

  qp.providerName = (t, n) => {
    const p = qp.providers[qp.threads[t].tag[n] >>> 5];
    return p ? p.name : '?';
  };
  qp.isUnfinished = (T, n) => (T.tag[n] & 8) !== 0;
  qp.keyText = (t, n) => {
    const T = qp.threads[t];
    if (!T.key || T.key[n] === 0) return null;
    const k = qp.keys[T.key[n] - 1];
    return k == null ? null : String(k);
  };

  // ---- numbers as the C++ side prints them ----

  qp.thousands = function thousands(v) {
    const s = String(Math.trunc(v));
    let out = '';
    for (let i = 0; i < s.length; i++) {
      if (i > 0 && (s.length - i) % 3 === 0 && s[i - 1] !== '-') out += ',';
      out += s[i];
    }
    return out;
  };

  // printf("%.Nf") rounds an exact tie to even; toFixed rounds it up. Ties are rare (the
  // value must be exactly representable, e.g. 12.25), but round numbers in tests hit them.
  function fixed(x, d) {
    const plain = x.toFixed(d);
    const wide = x.toFixed(d + 1);
    if (wide.charCodeAt(wide.length - 1) !== 53 /* '5' */ || x >= 1e15) return plain;
    const exact = x.toFixed(Math.min(100, d + 70));
    const dot = exact.indexOf('.');
    for (let i = dot + d + 2; i < exact.length; i++) {
      if (exact.charCodeAt(i) !== 48 /* '0' */) return plain;
    }
    const truncated = exact.slice(0, d === 0 ? dot : dot + 1 + d);
    const last = truncated.charCodeAt(truncated.length - 1) - 48;
    return last % 2 === 0 ? truncated : plain;
  }

  qp.percentOf = (ns) => (qp.total > 0 ? (100 * ns) / qp.total : 0);

  qp.percentText = function percentText(ns) {
    const p = qp.percentOf(ns);
    return p < 0.05 ? '<0.1 %' : fixed(p, 1) + ' %';
  };

  qp.durationText = function durationText(ns) {
    if (ns < 1e3) return String(Math.round(ns)) + ' ns';
    if (ns < 1e6) return fixed(ns / 1e3, 1) + ' \u00b5s';
    if (ns < 1e9) return fixed(ns / 1e6, 2) + ' ms';
    return fixed(ns / 1e9, 3) + ' s';
  };

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
    const tag = T.tag[n];
    const outcome = tag & 7;
    let c = 'node ' + (OUTCOMES[outcome] || 'miss') + ' depth-' + T.depth[n] + ' extent-' + T.extent[n];
    if (outcome === HIT) return c;
    const d = T.dur[n];
    c += ' ' + durBucket(d) + ' ' + shareGrade(d);
    if (tag & 16) c += ' important';
    if (tag & 8) c += ' unfinished';
    if (T.depth[n] >= qp.DEEP_DEPTH) c += ' deep';
    return c;
  };

  qp.labelOf = function labelOf(T, n) {
    if (!(T.tag[n] & 16) || (T.tag[n] & 7) === HIT) return null;
    const p = qp.providers[T.tag[n] >>> 5];
    return (p ? p.name : '?') + ' \u00b7 ' + qp.durationText(T.dur[n]) + ' \u00b7 ' +
      qp.percentText(T.dur[n]);
  };

  // The summed durations of the top-level nodes of the sibling run [from, to).
  qp.runDuration = function runDuration(T, from, to) {
    let sum = 0;
    for (let c = from; c < to; c += T.size[c]) sum += T.dur[c];
    return sum;
  };

  // ' · P' when every top-level node of the run is provider P, ' · mostly P' when P has at
  // least half of the run's time (of its count when it took none), else nothing. The twin of
  // run_provider_text in html_format.cpp, ties to the lower provider index as there.
  function runProviderText(T, from, to, runNs) {
    const timed = runNs > 0;
    const score = new Map();
    let total = 0;
    for (let c = from; c < to; c += T.size[c]) {
      const weight = timed ? T.dur[c] : 1;
      const p = T.tag[c] >>> 5;
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

  // Heaviest first: pieces by their time (a fold by its top-level nodes'), longest first,
  // ties in call order. The twin of sort_heaviest_first in html_tree.cpp.
  qp.heaviestFirst = function heaviestFirst(T, ps) {
    const timed = ps.map((p, i) => ({ p, i, ns: p.fold ? qp.runDuration(T, p.from, p.to) : (T.tag[p.n] & 7) === HIT ? 0 : T.dur[p.n] }));
    timed.sort((a, b) => b.ns - a.ns || a.i - b.i);
    return timed.map((x) => x.p);
  };

  qp.foldText = function foldText(T, from, to) {
    const count = to - from;
    const runNs = qp.runDuration(T, from, to);
    return '+' + qp.thousands(count) + (count === 1 ? ' query \u00b7 ' : ' queries \u00b7 ') +
      qp.percentText(runNs) + runProviderText(T, from, to, runNs);
  };

  const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  qp.escape = (s) => String(s).replace(/[&<>"']/g, (c) => ESCAPES[c]);
})();
