// The check of the html page's search, run by html.spec.mjs on toyc's page: searching a
// provider highlights its nodes only, shows them, and the status counts them. (What a search
// does on the timeline is in timeline_checks.mjs.)
//
// Each check takes the test's context `ctx` ({page, problems, ...}, see html.spec.mjs) and
// returns a detail string or throws CheckFailed (harness.mjs).
import {CheckFailed, call, click, js, settle} from './harness.mjs';
import {chooseThread} from './tree_checks.mjs';

const STATUS_RE = /([\d,]+) match(?:es)? in ([\d,]+) threads?/;
const SEARCH_TIMEOUT_MS = 30000;

// What the Python original's %r printed: a string quoted.
const say = JSON.stringify;

/** Waits `ms` milliseconds. */
function sleep(ms) {
  return new Promise((done) => setTimeout(done, ms));
}

/** Searching the rarest provider highlights its nodes only, shows them and counts them. */
export async function checkSearch(ctx) {
  const {page} = ctx;
  const name = await rarestProvider(page);
  await click(page, '#search');
  await page.keyboard.insertText(name);
  await settle(page);
  const found = await waitForMatches(page);
  const status = await js(page, "document.getElementById('search-status')?.textContent ?? null");
  if (status === null) throw new CheckFailed('there is no #search-status element');
  if (!status.trim()) throw new CheckFailed(`searching ${say(name)} left #search-status empty`);
  if (found.count === 0) {
    throw new CheckFailed(`searching ${say(name)}: no element has the class 'match' within ` +
                          `${SEARCH_TIMEOUT_MS / 1000} s (status ${say(status)})`);
  }
  if (found.wrong.length) {
    throw new CheckFailed(`searching ${say(name)}: .match elements of another provider: ` +
                          found.wrong.slice(0, 5).join('; '));
  }
  const visible = await matchesVisible(ctx, found);
  await expectedStatus(page, status, name);
  return `${say(name)}: ${found.count} .match elements, ${visible}; status ${say(status)}`;
}

/** The provider with the fewest queries above one, from the provider table. */
async function rarestProvider(page) {
  // The name comes from the payload by the row's data-provider: the cell's text may carry
  // more than the name (such as an "activity" badge).
  const rows = await js(page, `(() => {
      const heads = [...document.querySelectorAll('#provider-table thead th')];
      const count = heads.findIndex(th => th.dataset.sort === 'runs');
      const providers = __qprofTest.trace().providers;
      return [...document.querySelectorAll('#provider-table tbody tr')].map(r =>
          [providers[Number(r.dataset.provider)]?.name ?? null, Number(r.cells[count]?.dataset.value)]);
  })()`);
  const usable = rows.filter(([name, count]) => name && count > 1);
  if (!usable.length) {
    throw new CheckFailed('no row of #provider-table has a data-provider naming a provider of ' +
                          `the payload and a count above 1: ${say(rows.slice(0, 5))}`);
  }
  // The fewest queries; among equals, the first name in code-point order.
  usable.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return usable[0][0];
}

/**
 * Matches may be highlighted after a debounce: polls for up to 30 s (a loaded CI machine can
 * be slow to search a million nodes).
 */
async function waitForMatches(page) {
  const deadline = performance.now() + SEARCH_TIMEOUT_MS;
  for (;;) {
    const found = await call(page, `(text) => {
        const t = __qprofTest, wrong = [], matches = [...document.querySelectorAll('.match')];
        for (const e of matches) {
            const tree = e.closest('.tree');
            const has = e.classList.contains('node') && tree
                ? (t.providerOf(+tree.dataset.thread, +e.dataset.n) || '')
                : e.textContent;
            if (!has.toLowerCase().includes(text.toLowerCase()))
                wrong.push(t.describe(e) + ' is ' + JSON.stringify(has.slice(0, 60)));
        }
        const threads = [...new Set(matches.map(e => e.closest('.tree')?.id)
            .filter(Boolean))];
        return {count: matches.length, wrong, threads};
    }`, await js(page, "document.getElementById('search').value"));
    if (found.count || performance.now() > deadline) return found;
    await sleep(100);
  }
}

/**
 * Every match in the shown tree has a box; when all are in other threads' trees, the first
 * of those is shown and must then show them.
 */
async function matchesVisible(ctx, found) {
  const {page} = ctx;
  const countVisible = `() => {
      const tree = __qprofTest.selectedTree();
      const inTree = tree ? [...tree.querySelectorAll('.match')] : [];
      return {tree: tree?.id ?? null, all: inTree.length,
              visible: inTree.filter(e => __qprofTest.isVisibleIn(e, tree)).length,
              empty: inTree.filter(e => e.getClientRects().length === 0 ||
                  e.getBoundingClientRect().width === 0).map(__qprofTest.describe)};
  }`;
  let shown = await call(page, countVisible);
  let how = '';
  if (shown.all === 0 && found.threads.length) {
    const thread = await call(page, '(id) => document.getElementById(id).dataset.thread',
                              found.threads[0]);
    how = ` after choosing thread ${thread} ${await chooseThread(ctx, thread)}`;
    shown = await call(page, countVisible);
  }
  if (shown.all === 0) throw new CheckFailed('no .match element inside any tree (only elsewhere)');
  if (shown.empty.length) {
    throw new CheckFailed(`${shown.empty.length} .match elements in #${shown.tree} have no box: ` +
                          say(shown.empty.slice(0, 5)));
  }
  if (shown.visible === 0) {
    throw new CheckFailed(`none of the ${shown.all} matches in #${shown.tree} is inside the ` +
                          "tree's visible box");
  }
  return `${shown.all} of them in #${shown.tree}, all with a box${how}`;
}

/** The status says "K matches in T threads", K counting queries of that provider. */
async function expectedStatus(page, status, name) {
  const said = STATUS_RE.exec(status);
  if (!said) throw new CheckFailed(`#search-status ${say(status)} does not read 'K matches in T threads'`);
  const counts = await call(page, `(text) => {
      const p = __qprofTest.trace(), low = text.toLowerCase();
      let exact = 0, partial = 0;
      for (const t of p.threads) for (const tag of t.tag) {
          const name = p.providers[tag >>> qp.layout.PROVIDER_SHIFT].name;
          if (name === text) exact++;
          if (name.toLowerCase().includes(low)) partial++;
      }
      return [exact, partial];
  }`, name);
  const saidCount = Number(said[1].replaceAll(',', ''));
  if (!counts.includes(saidCount)) {
    throw new CheckFailed(`#search-status says ${saidCount} matches for ${say(name)}, the payload ` +
                          `has ${counts[0]} queries of it (${counts[1]} whose provider name ` +
                          'contains it)');
  }
}

/**
 * After the chips were clicked and the searches revealed their matches, the page read no chip's
 * members from the DOM twice: it keeps them per chip. A build scan's top-level chip holds
 * 400,000 runs, and a first search that revealed 20 matches in it read them 60 times over
 * (0.9 s of a 1.7 s search on a 2.8 M-event page).
 */
export async function checkChipReads(ctx) {
  const scans = await js(ctx.page, 'window.qprof.chipScans ? window.qprof.chipScans() : null');
  if (scans === null) throw new CheckFailed('window.qprof.chipScans() is missing');
  if (scans.total === 0) throw new CheckFailed('no chip was read: the checks before drew none');
  if (scans.most > 1) {
    throw new CheckFailed(`a chip's members were read ${scans.most} times (${scans.total} reads in all)`);
  }
  return `${scans.total} chips read, each once`;
}
