// The checks of a time range on the timeline, run by html.spec.mjs on toyc's page (and the
// whole run's by processes.spec.mjs): a range selected on the timeline limits the statistics,
// which over the whole run are the payload's, and each thread's work and waiting add up.
//
// Each check takes the test's context `ctx` ({page, problems, ...}: what the checks learn on
// the way, see html.spec.mjs) and returns a detail string or throws CheckFailed (harness.mjs).
import {CheckFailed, click, js, settle} from './harness.mjs';
import {checkSortedAsSaid} from './table_checks.mjs';
import {canvasBox, drag, rowY, showRow} from './timeline_page.mjs';

/** The provider table's shown rows: [provider, its cells' values joined by commas]. */
async function table(page) {
  return js(page, `[...document.querySelectorAll('#provider-table tbody tr')]
      .filter(r => !r.hidden).map(r => [r.dataset.provider,
          [...r.cells].slice(1, 9).map(c => c.dataset.value).join(',')])`);
}

/**
 * Shift+drag over a part of the timeline limits the provider table to that time range, says
 * so, agrees with the range's own statistics, and Clear range restores the table.
 */
export async function checkRangeFiltersStats(ctx) {
  const {page} = ctx;
  await click(page, '#timeline-reset');
  const whole = await table(page);
  const box = await canvasBox(page);
  const timeline = await showRow(page, 0, 0);
  const x0 = box.left + box.width * 0.2, x1 = box.left + box.width * 0.45;
  const y = box.top + rowY(timeline, 0, 0);
  await drag(page, x0, y, x1, y, {shift: true});
  await settle(page);
  const note = await js(page, `(() => { const n = document.getElementById('range-note');
      return n && !n.hidden ? n.textContent : null; })()`);
  if (!note || !note.includes('within')) {
    throw new CheckFailed('after a Shift+drag the table says nothing of a range: ' +
                          JSON.stringify(note));
  }
  const limited = await table(page);
  if (JSON.stringify(limited) === JSON.stringify(whole)) {
    throw new CheckFailed('the provider table did not change for the range');
  }
  const expected = await js(page, `(() => { const r = window.qprof.range();
      return window.qprof.statsOfRange(r.from, r.to)
          .map((s, p) => s && [String(p), s.runs]).filter(Boolean); })()`);
  // As dictionaries, provider -> runs, listed by provider.
  const sorted = (runs) => Object.entries(runs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const shown = sorted(Object.fromEntries(
    limited.map(([p, values]) => [p, parseInt(values.split(',')[0], 10)])));
  const wanted = sorted(Object.fromEntries(expected));
  if (JSON.stringify(shown) !== JSON.stringify(wanted)) {
    throw new CheckFailed(`the table's runs in the range ${JSON.stringify(shown.slice(0, 5))} ` +
                          `differ from the range's own statistics ` +
                          JSON.stringify(wanted.slice(0, 5)));
  }
  await checkSortedAsSaid(ctx, 'in the range');
  const names = await js(page, "JSON.parse(document.getElementById('qprof-trace').textContent)" +
                               '.threads.map(t => t.name)');
  const missing = names.slice(0, 6).filter((name) => !note.includes(name + ' '));
  if (!note.includes('% work') || missing.length) {
    throw new CheckFailed("the range note does not give each thread's work: " +
                          JSON.stringify(note));
  }
  await click(page, '#range-note .range-clear');
  await settle(page);
  if (JSON.stringify(await table(page)) !== JSON.stringify(whole)) {
    throw new CheckFailed('Clear range did not restore the table');
  }
  return `${JSON.stringify(note.slice(0, 90))}; ${limited.length} of ${whole.length} providers ` +
    'in the range; cleared';
}

/**
 * The range statistics of the whole run are the payload's (C++) statistics: the two
 * implementations of one rule agree, to the nanosecond. Both sum the nodes' durations as the
 * page carries them (the trace's totals, summed in clock ticks, may differ by rounding: the
 * C++ side does not use them).
 */
export async function checkWholeRunStats(ctx) {
  const problems = await js(ctx.page, `(() => {
      const p = JSON.parse(document.getElementById('qprof-trace').textContent);
      const mine = window.qprof.statsOfRange(0, Infinity), out = [];
      const exact = ['runs', 'hits', 'waits', 'mean_ns', 'median_ns', 'max_ns', 'histogram',
                     'slowest', 'keys', 'callers', 'callees', 'total_ns', 'self_ns', 'wait_ns',
                     'work_ns'];
      for (const s of p.stats) {
          const m = mine[s.provider];
          const name = p.providers[s.provider].name;
          if (!m) { if (s.runs + s.hits + s.waits > 0) out.push(name + ': none in range'); continue; }
          for (const k of exact) {
              if (JSON.stringify(m[k]) !== JSON.stringify(s[k])) {
                  out.push(name + '.' + k + ': ' + JSON.stringify(m[k]).slice(0, 80) + ' vs ' + JSON.stringify(s[k]).slice(0, 80));
              }
          }
      }
      return {problems: out.slice(0, 8), count: out.length, providers: p.stats.length};
  })()`);
  if (problems.count) {
    throw new CheckFailed(`${problems.count} differences, e.g. ` +
                          JSON.stringify(problems.problems));
  }
  return `${problems.providers} providers agree`;
}

/**
 * Over the whole run, each thread's work and waiting add up to its top-level nodes' time, and
 * the waits of all threads to the payload's wait time, exactly (toyc nests no wait inside
 * another).
 */
export async function checkBusyWholeRun(ctx) {
  const found = await js(ctx.page, `(() => {
      const p = JSON.parse(document.getElementById('qprof-trace').textContent);
      const busy = window.qprof.busyOfRange(0, Infinity), out = [];
      let waits = 0;
      qp.threads.forEach((T, t) => {
          let roots = 0;
          for (let n = 0; n < T.size.length; n += T.size[n]) roots += T.dur[n];
          waits += busy[t].wait;
          if (busy[t].work + busy[t].wait !== roots) {
              out.push(T.name + ': work ' + busy[t].work + ' + wait ' + busy[t].wait + ' != ' + roots);
          }
      });
      const payloadWaits = p.stats.reduce((sum, s) => sum + s.wait_ns, 0);
      return {out, waits, payloadWaits};
  })()`);
  if (found.out.length) throw new CheckFailed(found.out.join('; '));
  if (found.waits !== found.payloadWaits) {
    throw new CheckFailed(`the threads wait ${found.waits} ns, the payload's statistics ` +
                          `${found.payloadWaits} ns`);
  }
  return `work + waiting = top-level time on every thread; waits ${found.waits} ns (payload ` +
    `${found.payloadWaits} ns)`;
}
