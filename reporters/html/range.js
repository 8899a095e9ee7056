// qprof viewer, part 13 of 18: the statistics of a time range, shown. A range selected on the
// timeline (or a process chosen, processes.js) limits the provider table and a provider's
// statistics to its events, counted by range_scan.js; notes above the table and in the
// timeline's bar say which events are counted, and clear the range.
(() => {
  'use strict';

  const MEMORY_FIELDS = qp.MEMORY_FIELDS;

  qp.range = null;      // {from, to} in ns from the session start, or null: the whole run
  qp.statsThreads = null; // the threads the statistics count (one process's), or null: all
  qp.rangeStats = null; // per provider, the statistics of the range and threads; null: the payload's

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
      ? ' <small class="waits">' + qv.countText(s.waits, 'wait', 'waits') + ', ' + qp.escape(qp.durationText(s.wait_ns)) + '</small>'
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
    if (qp.resortProviderTable) qp.resortProviderTable(); // the range's numbers, in the order shown
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
        text.textContent = 'Statistics of the ' + qv.countText(events(), 'event', 'events') + ' within ' + rangeText() +
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
    qp.indexRangesWhenIdle();
    document.addEventListener('click', (e) => {
      if (e.target instanceof Element && e.target.closest('.range-clear')) qp.clearRange();
    });
  };
})();
