// qprof viewer, part 18 of 18: start-up and the hooks the browser tests use (window.qprof). The
// script sits at the end of <body>, so the whole page is parsed by now; the payload's columns
// decompress in the browser's own DecompressionStream, after which every handler is attached
// at once and `ready` resolves. Until then the page shows its initial view.
(() => {
  'use strict';

  let resolveReady;
  const api = {
    ready: new Promise((resolve) => { resolveReady = resolve; }),
    readyAt: null,
    error: null,
    nodeClass: (t, n) => (valid(t, n) ? qp.classOf(qp.threads[t], n) : null),
    nodeLabel: (t, n) => (valid(t, n) ? qp.labelOf(qp.threads[t], n) : null),
    foldText: (t, from, to) => {
      const T = qp.threads && qp.threads[t];
      return T && from >= 0 && from < to && to <= T.len ? qp.foldText(T, from, to) : null;
    },
    // The text a chip (a fold with data-provider) should read, from what is drawn beside it.
    chipText: (t, chip) => (qp.threads && qp.threads[t] ? qp.chipTextOf(t, chip) : null),
    // How often the viewer read a chip's members from the DOM: in all, and of one chip at most.
    chipScans: () => qp.chipScans(),
    reveal: (t, n) => (valid(t, n) ? qp.reveal(t, n) : false),
    // The timeline: its view, tracks and selection; the x of a time; the statistics of a
    // time range as range_scan.js computes them (the whole run: 0 to Infinity).
    timeline: () => (qp.timelineState ? qp.timelineState() : null),
    timelineX: (ns) => qp.timelineXOf(ns),
    start: (t, n) => (valid(t, n) ? qp.threads[t].start[n] : null),
    statsOfRange: (from, to) => qp.statsOfRange(from, to),
    busyOfRange: (from, to) => qp.busyOfRange(from, to),
    range: () => qp.range,
  };
  window.qprof = api;

  function valid(t, n) {
    const T = qp.threads && qp.threads[t];
    return T != null && Number.isInteger(n) && n >= 0 && n < T.len;
  }

  function fail(message) {
    api.error = message;
    const box = document.getElementById('details');
    if (box) {
      box.innerHTML = '';
      const p = document.createElement('p');
      p.className = 'error';
      p.textContent = 'The trace could not be read: ' + message;
      box.appendChild(p);
    }
  }

  async function start() {
    const source = document.getElementById('qprof-trace');
    const columns = document.getElementById('qprof-columns');
    if (!source || !columns) throw new Error('the page has no #qprof-trace or #qprof-columns');
    const payload = JSON.parse(source.textContent);
    await qp.load(payload, columns.textContent);
    qp.initTrees();
    qp.initPanels();
    qp.initStats(payload);
    qp.initRange();
    qp.initProcesses(payload);
    qp.initTimeline();
  }

  // What the first screen does not need (the range index) fills idle time after.
  start().then(() => qp.runIdleJobs()).catch((e) => {
    // Not rethrown: a broken page should say so in the page, and `ready` must still settle
    // so that whoever waits on it learns about `error` instead of timing out.
    qp.threads = qp.threads || [];
    fail(e && e.message ? e.message : String(e));
  }).finally(() => {
    api.readyAt = performance.now();
    resolveReady();
  });
})();
