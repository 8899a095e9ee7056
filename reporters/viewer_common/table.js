// qprof viewers' common base, part 2 of 2: tables that sort by a click on a column title. A
// sortable column's <th> has data-sort=KEY; its cells hold their number in data-value (text
// columns, listed in `textKeys`, sort by data-value when they have one, else by their text). Each title becomes a button, so that the
// keyboard reaches it, and aria-sort says the order. Ties keep the order the rows came in.
(() => {
  'use strict';

  function addSortButtons(heads, key, descending) {
    for (const th of heads) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'sort';
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      if (th.dataset.sort === key) th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
    }
  }

  function sortRows(body, column, text, descending) {
    const value = (r) => {
      const cell = r.cells[column];
      if (!cell) return text ? '' : -Infinity;
      if (text) return cell.dataset.value ?? cell.textContent.trim();
      const v = parseFloat(cell.getAttribute('data-value'));
      return Number.isNaN(v) ? -Infinity : v;
    };
    const rows = Array.from(body.rows).map((r) => ({ r, v: value(r), o: Number(r.dataset.order) }));
    const sign = descending ? -1 : 1;
    rows.sort((a, b) => {
      const c = text ? a.v.localeCompare(b.v) : a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
      return c !== 0 ? sign * c : a.o - b.o;
    });
    const fragment = document.createDocumentFragment();
    for (const x of rows) fragment.appendChild(x.r);
    body.appendChild(fragment);
  }

  // `key` is the column the rows are already sorted by, `descending` its order. A click on
  // another column sorts text A to Z and numbers biggest first; a second click reverses.
  // Returns a function that sorts the rows again by the column shown as sorted, for a page
  // that rewrites their numbers (a time range): the order must stay the one aria-sort says.
  qv.sortableTable = function sortableTable(table, { key, descending = true, textKeys = [] }) {
    if (!table || !table.tHead || !table.tBodies[0]) return () => {};
    const heads = Array.from(table.tHead.querySelectorAll('th[data-sort]'));
    const body = table.tBodies[0];
    Array.from(body.rows).forEach((r, i) => { r.dataset.order = String(i); });
    addSortButtons(heads, key, descending);
    const sorted = () => heads.find((h) => h.dataset.sort === key);
    table.tHead.addEventListener('click', (e) => {
      const th = e.target.closest('th[data-sort]');
      if (!th) return;
      const text = textKeys.includes(th.dataset.sort);
      descending = th.dataset.sort === key ? !descending : !text;
      key = th.dataset.sort;
      sortRows(body, th.cellIndex, text, descending);
      for (const h of heads) {
        if (h === th) h.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
        else h.removeAttribute('aria-sort');
      }
    });
    return () => {
      const th = sorted();
      if (th) sortRows(body, th.cellIndex, textKeys.includes(key), descending);
    };
  };
})();
