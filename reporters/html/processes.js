// qprof viewer, part 14 of 18: the processes of a merged build (`qprof merge`). The payload
// lists them in order of start and gives each thread its process; the timeline groups each
// process's tracks under a band of its own (timeline_geometry.js), and a selector above the
// provider table limits the statistics to one process's threads (range_scan.js counts them).
// A page of one run has no processes and shows none of this.
(() => {
  'use strict';

  // [{program, pid, start_ns, wall_ns, events, command, threads}], threads by index.
  qp.processes = [];
  qp.statsProcess = -1; // the process the statistics count, or -1: every one

  // The process of thread t, or -1 in a page of one run.
  qp.processOf = (t) => {
    const T = qp.threads[t];
    return T && T.process != null ? T.process : -1;
  };

  // "toyc (pid 23841)"
  qp.processName = (p) => {
    const P = qp.processes[p];
    return P ? (P.program || 'run ' + (p + 1)) + ' (pid ' + P.pid + ')' : '';
  };

  // "toyc (pid 23841) · from 93.6 ms · 360.8 ms · 54,681 events · --items 600 …"
  qp.processText = (p) => {
    const P = qp.processes[p];
    if (!P) return '';
    return qp.processName(p) + ' \u00b7 from ' + qp.durationText(P.start_ns) + ' \u00b7 ' +
      qp.durationText(P.wall_ns) + ' \u00b7 ' + qp.thousands(P.events) + ' events' +
      (P.command ? ' \u00b7 ' + P.command : '');
  };

  function readProcesses(payload) {
    const listed = Array.isArray(payload.processes) ? payload.processes : [];
    qp.processes = listed.map((P) => ({
      program: String(P.program == null ? '' : P.program),
      pid: Number(P.pid) || 0,
      start_ns: Number(P.start_ns) || 0,
      wall_ns: Number(P.wall_ns) || 0,
      events: Number(P.events) || 0,
      command: String(P.command == null ? '' : P.command),
      threads: [],
    }));
    (payload.threads || []).forEach((info, t) => {
      const p = Number(info.process);
      if (qp.threads[t] && Number.isInteger(p) && p >= 0 && p < qp.processes.length) {
        qp.threads[t].process = p;
        qp.processes[p].threads.push(t);
      }
    });
  }

  const processOption = (p) => '<option value="' + p + '">' + qp.escape(qp.processText(p)) + '</option>';

  // Limits the statistics to process p (-1: every process).
  qp.showProcess = function showProcess(p) {
    qp.statsProcess = p >= 0 && p < qp.processes.length ? p : -1;
    const select = document.getElementById('process-select');
    // One the selector left out, chosen on the timeline: listed in start order.
    if (select && qp.statsProcess >= 0) qp.listOption(select, p, (q) => new Option(qp.processText(q), String(q)));
    if (select && Number(select.value) !== qp.statsProcess) select.value = String(qp.statsProcess);
    qp.setStatsThreads(qp.statsProcess >= 0 ? qp.processes[qp.statsProcess].threads : null);
  };

  // The selector lists at most layout.THREAD_OPTIONS processes, those with the most events, in
  // start order: a build of thousands made a list that took seconds to draw and nobody could
  // pick from. The timeline chooses any (a click on a process's band).
  function makeSelector() {
    const table = document.getElementById('provider-table');
    if (!table) return;
    const line = document.createElement('p');
    line.id = 'process-filter';
    const count = qp.processes.length;
    let listed = qp.processes.map((P, p) => p);
    if (count > qp.layout.THREAD_OPTIONS) {
      listed.sort((a, b) => qp.processes[b].events - qp.processes[a].events || a - b);
      listed = listed.slice(0, qp.layout.THREAD_OPTIONS).sort((a, b) => a - b);
    }
    let options = '<option value="-1">all ' + qp.thousands(count) + ' processes</option>';
    for (const p of listed) options += processOption(p);
    if (listed.length < count) {
      options += '<option value="" disabled>' + qp.thousands(count - listed.length) +
        ' more (those with the most events are listed): click one on the timeline</option>';
    }
    line.innerHTML = '<label>Statistics of <select id="process-select">' + options + '</select></label>';
    table.parentNode.insertBefore(line, table);
    line.querySelector('select').addEventListener('change', (e) => qp.showProcess(Number(e.target.value)));
  }

  qp.initProcesses = function initProcesses(payload) {
    readProcesses(payload);
    if (qp.processes.length > 1) makeSelector();
  };
})();
