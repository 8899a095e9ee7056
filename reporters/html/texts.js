// qprof viewer, part 2 of 18: the texts and classes of nodes and folds -- names, keys, labels,
// shares, chips -- from the trace that trace.js derived. Every rule here has a twin in
// reporters/html_format.cpp or html_pieces.cpp; the browser test compares what the two write, so
// a change to one is a change to both.

(() => {
  'use strict';

  const L = qp.layout;
  const { OUTCOMES, HIT, BLOCKED, ACTIVITY } = qp;

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
  // A key as a label shows it: in at most LABEL_KEY_CHARS characters, a longer key its first
  // LABEL_KEY_HEAD_CHARS, '…' and its last ones (where paths of one tree differ), as label_key
  // in C++.
  function labelKey(key) {
    const chars = Array.from(key);
    const most = qp.layout.LABEL_KEY_CHARS;
    const head = qp.layout.LABEL_KEY_HEAD_CHARS;
    if (chars.length <= most) return key;
    return chars.slice(0, head).join('') + '\u2026' + chars.slice(chars.length - (most - head - 1)).join('');
  }
  // An activity's argument is in its name already; a query's key follows it, shortened:
  // "type_of(fn_12)". What a label, a path or a link names a node by.
  function keyedName(T, n) {
    const key = qp.outcomeOf(T, n) === ACTIVITY ? null : keyOf(T, n);
    return nameOf(T, n) + (key ? '(' + labelKey(key) + ')' : '');
  }
  qp.keyedName = (t, n) => keyedName(qp.threads[t], n);
  // Every box is labelled, important or not (a hit, a dot, has no room): a box drawn because
  // it is long, or as a chip's member, is what a user hunting a slow query looks for. The twin
  // of write_node in html_tree.cpp.
  const labelNumbers = (T, n) => ' \u00b7 ' + qp.durationText(T.dur[n]) + ' \u00b7 ' + qp.shareText(T, n);
  qp.labelOf = (T, n) => (qp.isHit(T, n) ? null : keyedName(T, n) + labelNumbers(T, n));
  // The label as markup, the name in a span of its own, so that a narrow box cuts the name and
  // keeps the numbers; '' for a hit. The twin of label_html in html_format.cpp.
  qp.labelHtml = (T, n) => (qp.isHit(T, n) ? '' : '<span class="label"><span class="name">' +
    qp.escape(keyedName(T, n)) + '</span>' + qp.escape(labelNumbers(T, n)) + '</span>');

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
