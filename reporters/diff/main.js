// qprof diff page (qprof diff --html): the two runs side by side and one row per provider,
// drawn from the page's JSON, which is the document `qprof diff --json` writes (its shape is
// in src/cli/diff.hpp). Every provider found in the new run links to its statistics in the
// new run's report (the table's data-report, beside this page), and so does a click on its
// row. The columns sort on click.
// Tests read window.qprofDiff: {rows} once drawn, {error} when the payload cannot be read.
(() => {
  'use strict';

  const COLUMNS = [
    ['provider', 'provider'], ['base-self', 'base self'], ['new-self', 'new self'],
    ['change', 'change'], ['change-pct', 'change %'], ['bar', 'faster \u00b7 slower'],
    ['base-run', 'base per run'], ['new-run', 'new per run'], ['count', 'count'], ['hits', 'hits'],
  ];
  // With memory recorded in either run (doc.memory): self memory, as `qprof diff` prints it.
  const MEMORY_COLUMNS = [
    ['base-alloc', 'base self allocated'], ['new-alloc', 'new self allocated'], ['alloc-change', 'allocated change'],
    ['allocs-change', 'allocations change'], ['retained-change', 'retained change'],
  ];
  const ABSENT = '\u2014';

  const changeClass = (ns) => (ns < 0 ? 'faster' : ns > 0 ? 'slower' : '');

  // Changes, as `qprof diff` prints them (signed_count_text, signed_percent_text in
  // src/cli/diff.cpp): "+1.20 ms", "-3.0 %", "+1,234", "0"; no percent is "—".
  const sign = (v) => (v > 0 ? '+' : v < 0 ? '-' : '');
  const signedDurationText = (ns) => sign(ns) + qv.durationText(Math.abs(ns));
  const signedCountText = (v) => sign(v) + qv.thousands(Math.abs(v));
  const signedPercentText = (p) => (p == null ? ABSENT : sign(p) + qv.fixed(Math.abs(p), 1) + ' %');
  const signedBytesText = (bytes) => sign(bytes) + qv.bytesText(Math.abs(bytes));

  function cell(value, text, className = '') {
    const classes = className ? ' class="' + className + '"' : '';
    const data = value == null ? '' : ' data-value="' + qv.escape(value) + '"';
    return '<td' + classes + data + '>' + text + '</td>';
  }

  function runCard(role, run) {
    return '<div class="run"><h2>' + role + '</h2><p><code>' + qv.escape(run.file) + '</code></p><p>' +
      qv.durationText(run.wall_ns) + ' wall time \u00b7 ' + qv.thousands(run.events) +
      (run.events === 1 ? ' event' : ' events') + '</p></div>';
  }

  function runsHtml(doc) {
    const change = doc.wall_change_ns;
    const percent = doc.base.wall_ns > 0 ? (100 * change) / doc.base.wall_ns : null;
    return runCard('base', doc.base) + runCard('new', doc.new) +
      '<div class="run"><h2>wall time change</h2><p id="wall-change" class="' + changeClass(change) + '">' +
      signedDurationText(change) + ' (' + signedPercentText(percent) + ')</p></div>';
  }

  // The name links to the new run's report, unless the provider is not in it.
  function nameCell(row, report) {
    const name = qv.escape(row.provider);
    let h = row.status === 'only in base' ? name
      : '<a href="' + qv.escape(report + (row.activity ? '#pass=' : '#provider=') +
        encodeURIComponent(row.provider)) + '">' + name + '</a>';
    if (row.activity) h += ' <span class="mark">' + (row.region ? 'region' : 'activity') + '</span>';
    if (row.status !== 'both') h += ' <span class="mark">' + qv.escape(row.status) + '</span>';
    if (row.noise) h += ' <span class="mark">~ noise</span>';
    return cell(row.provider, h);
  }

  // A bar from the middle line: left and green when faster, right and red when slower, half
  // the cell for the largest change.
  function barCell(change, largest) {
    const width = largest > 0 ? (50 * Math.abs(change)) / largest : 0;
    return cell(Math.abs(change), '<span class="' + changeClass(change) + '" style="width:' +
      width.toFixed(2) + '%"></span>', 'bar');
  }

  const selfCell = (ns, present) => (present ? cell(ns, qv.durationText(ns)) : cell(0, ABSENT));
  const meanCell = (ns) => (ns == null ? cell(null, ABSENT) : cell(ns, qv.durationText(ns)));

  // null: the run did not record memory (and a change needs both runs): "—", as the table prints.
  const bytesCell = (bytes, present) =>
    (bytes == null || !present ? cell(null, ABSENT) : cell(bytes, qv.bytesText(bytes)));
  const changeCell = (value, text) => (value == null ? cell(null, ABSENT) : cell(value, text(value)));

  function memoryCells(row) {
    return bytesCell(row.base_self_allocated_bytes, row.status !== 'only in new') +
      bytesCell(row.new_self_allocated_bytes, row.status !== 'only in base') +
      changeCell(row.allocated_change_bytes, signedBytesText) +
      changeCell(row.allocations_change, signedCountText) +
      changeCell(row.retained_change_bytes, signedBytesText);
  }

  // The change's percent as `qprof diff` computes it, from the integers: the JSON's
  // change_percent keeps three decimals, which can turn 239.2501 into a tie printed 239.2.
  const exactPercent = (row) =>
    row.change_percent == null ? null : (100 * row.change_ns) / row.base_self_ns;

  function rowHtml(row, largest, report, memory) {
    const classes = (row.noise ? 'noise' : row.status !== 'both' ? 'only' : '') +
      (row.status !== 'only in base' ? ' linked' : '');
    return '<tr class="' + classes.trim() + '">' + nameCell(row, report) +
      selfCell(row.base_self_ns, row.status !== 'only in new') +
      selfCell(row.new_self_ns, row.status !== 'only in base') +
      cell(row.change_ns, signedDurationText(row.change_ns), row.noise ? '' : changeClass(row.change_ns)) +
      cell(row.change_percent, signedPercentText(exactPercent(row))) +
      barCell(row.change_ns, largest) + meanCell(row.base_mean_ns) + meanCell(row.new_mean_ns) +
      cell(row.count_change, signedCountText(row.count_change)) +
      cell(row.hits_change, signedCountText(row.hits_change)) + (memory ? memoryCells(row) : '') + '</tr>';
  }

  function drawTable(table, rows, memory) {
    const report = table.dataset.report;
    const largest = rows.reduce((most, row) => Math.max(most, Math.abs(row.change_ns)), 0);
    const columns = memory ? COLUMNS.concat(MEMORY_COLUMNS) : COLUMNS;
    table.tHead.innerHTML = '<tr>' + columns.map(([key, title]) => '<th data-sort="' + key + '">' + title + '</th>').join('') + '</tr>';
    table.tBodies[0].innerHTML = rows.map((row) => rowHtml(row, largest, report, memory)).join('');
    // The rows come in the order the command chose (--sort): no column is marked at first.
    qv.sortableTable(table, { key: null, textKeys: ['provider'] });
    table.tBodies[0].addEventListener('click', followRow);
  }

  // A click anywhere on a row follows its provider's link, as a click on the name does.
  function followRow(e) {
    const link = e.target.closest('tr')?.querySelector('a[href]');
    if (!link || e.target.closest('a') || String(window.getSelection()) !== '') return;
    window.location.href = link.href;
  }

  function load() {
    const doc = JSON.parse(document.getElementById('qprof-diff').textContent);
    if (!doc || !doc.base || !doc.new || !Array.isArray(doc.providers)) {
      throw new Error('the page holds no qprof diff');
    }
    document.getElementById('runs').innerHTML = runsHtml(doc);
    drawTable(document.getElementById('diff-table'), doc.providers, doc.memory === true);
    return { rows: doc.providers.length };
  }

  try {
    window.qprofDiff = load();
  } catch (error) {
    const message = 'This page could not be drawn: ' + error.message;
    document.getElementById('runs').innerHTML = '<p class="error">' + qv.escape(message) + '</p>';
    window.qprofDiff = { error: message };
  }
})();
