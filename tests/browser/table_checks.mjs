// The checks of the html page's provider table, run by html.spec.mjs on toyc's page: the
// texts C++ wrote in it are the viewers' common formatting's, the columns the viewer
// decompressed agree with the payload's statistics, and a column's title sorts the table.
//
// Each check takes the test's context `ctx` ({page, problems, ...}, see html.spec.mjs) and
// returns a detail string or throws CheckFailed (harness.mjs).
import {CheckFailed, call, click, js, settle} from './harness.mjs';

// What the Python original's %r printed: a string quoted, a list of numbers as [1, 2, 3].
const say = JSON.stringify;
const listText = (numbers) => `[${numbers.join(', ')}]`;

/**
 * The provider table as C++ wrote it reads as the viewers' common formatting
 * (reporters/viewer_common/format.js) writes the same values: its hit rates, total and self
 * times. The statistics panel, the range table and the other pages format with it.
 */
export async function checkTableFormatting(ctx) {
  const found = await js(ctx.page, `(() => {
      const bad = [];
      let checked = 0;
      for (const tr of document.querySelectorAll('#provider-table tbody tr')) {
          const c = tr.cells, value = (k) => Number(c[k].dataset.value);
          const rate = tr.classList.contains('activity') ? '\\u2013'
              : qv.rateText(value(2), value(1) + value(2));
          for (const [k, text] of [[3, rate], [4, qv.durationText(value(4))],
                                   [5, qv.durationText(value(5))]]) {
              checked++;
              if (c[k].textContent !== text) bad.push([c[0].textContent, c[k].textContent, text]);
          }
      }
      return {checked, bad: bad.slice(0, 5)};
  })()`);
  if (found.checked === 0) throw new CheckFailed('the provider table has no rows');
  if (found.bad.length) throw new CheckFailed(`cells [provider, C++, viewer] that differ: ${say(found.bad)}`);
  return `${found.checked} cells`;
}

/**
 * The decompressed columns agree with the JSON the reporter wrote beside them: every slowest
 * run in `stats` has that duration (and key, when recorded) in qp.threads.
 */
export async function checkColumnsAgreeWithStats(ctx) {
  const found = await js(ctx.page, `(() => {
      const p = JSON.parse(document.getElementById('qprof-trace').textContent);
      let checked = 0;
      const bad = [];
      for (const s of p.stats) for (const [t, n, dur, key] of s.slowest) {
          checked++;
          const T = qp.threads[t];
          if (T.dur[n] !== dur || (T.key ? T.key[n] : 0) !== key) bad.push([t, n, dur, key]);
      }
      return {checked, bad: bad.slice(0, 5)};
  })()`);
  if (found.checked === 0) throw new CheckFailed("the payload's stats list no slowest run to compare");
  if (found.bad.length) {
    throw new CheckFailed(`slowest runs [thread, n, dur, key] whose columns differ: ${say(found.bad)}`);
  }
  return `${found.checked} runs`;
}

/** Two clicks on the Runs column's title sort the provider table one way, then the other. */
export async function checkSorting(ctx) {
  const {page} = ctx;
  const column = await js(page, `[...document.querySelectorAll('#provider-table thead th')]
      .findIndex(th => th.dataset.sort === 'runs')`);
  if (column < 0) throw new CheckFailed('no <th data-sort="runs"> in #provider-table');
  const header = '#provider-table thead th[data-sort="runs"]';
  const values = () => call(page, `(c) => [...document.querySelectorAll('#provider-table tbody tr')]
      .map(r => Number(r.cells[c]?.dataset.value))`, column);
  if ((await values()).length < 2) throw new CheckFailed('#provider-table has fewer than 2 rows');
  await click(page, header);
  await settle(page);
  const first = await values();
  const direction = sortDirection(first, 'after one click on Runs');
  await click(page, header);
  await settle(page);
  const second = await values();
  const again = sortDirection(second, 'after a second click on Runs');
  if (again === direction && first[0] !== first.at(-1)) {
    throw new CheckFailed(`a second click on Runs kept the ${direction} order ` +
                          `(${listText(second.slice(0, 6))})`);
  }
  return `${direction}, then ${again}: ${listText(second.slice(0, 3))} ... ${listText(second.slice(-3))}`;
}

/**
 * 'descending' or 'ascending', or throws naming where the order turns. (The Python original
 * failed to find the turn when it was next to equal values, and crashed there.)
 */
function sortDirection(values, when) {
  if (values.some((v) => Number.isNaN(v))) { // a cell without a numeric data-value
    throw new CheckFailed(`${when}, some Runs cells lack a numeric data-value: ` +
                          listText(values.slice(0, 10)));
  }
  const steps = values.slice(1).map((v, i) => Math.sign(v - values[i]));
  if (steps.every((s) => s <= 0)) return 'descending';
  if (steps.every((s) => s >= 0)) return 'ascending';
  const way = steps.find((s) => s !== 0);
  const at = steps.findIndex((s) => s === -way); // the step from values[at] to values[at + 1]
  throw new CheckFailed(`${when} the Runs column is not sorted: rows ${at}-${at + 2} have ` +
                        listText(values.slice(at - 1, at + 2)));
}

/**
 * The provider table's shown rows are in the order its title says (the column with aria-sort,
 * its direction): on load the rows C++ wrote, after a time range the rows the viewer rewrote.
 * The table once said "Total ▼" over rows sorted by self time, and kept the whole run's order
 * under a range's numbers.
 */
export async function checkSortedAsSaid(ctx, when) {
  const found = await js(ctx.page, `(() => {
      const th = document.querySelector('#provider-table thead th[aria-sort]');
      if (!th) return null;
      const rows = [...document.querySelectorAll('#provider-table tbody tr')].filter(r => !r.hidden);
      return {key: th.dataset.sort, direction: th.getAttribute('aria-sort'),
              rows: rows.map(r => [r.cells[0].textContent, Number(r.cells[th.cellIndex].dataset.value)])};
  })()`);
  if (found === null) throw new CheckFailed(`${when}, no column of #provider-table has aria-sort`);
  if (found.key === 'provider') throw new CheckFailed(`${when}, the table is sorted by name: check a numeric column`);
  if (found.rows.length < 3) throw new CheckFailed(`${when}, the table shows fewer than 3 rows`);
  const sign = found.direction === 'descending' ? -1 : 1;
  const at = found.rows.findIndex((row, i) => i > 0 && Math.sign(row[1] - found.rows[i - 1][1]) === -sign);
  if (at > 0) {
    throw new CheckFailed(`${when}, the table says it is sorted by ${found.key}, ${found.direction}, ` +
                          `but row ${at} ${say(found.rows[at - 1])} comes before row ${at + 1} ` +
                          say(found.rows[at]));
  }
  return `${found.rows.length} rows by ${found.key}, ${found.direction}`;
}
