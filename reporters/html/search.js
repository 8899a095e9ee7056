// qprof viewer, part 9 of 18: the search, from the box above the trees. Its matches are
// marked in the trees (and so are the folds and chips that hold one), the slowest are drawn
// and walked with Enter, and on the timeline what does not match is dimmed (timeline_draw.js).
(() => {
  'use strict';

  const SEARCH_OPEN = 20;    // the slowest matches a search draws at once; Enter draws the rest
  const SEARCH_DELAY = 250;  // ms of quiet typing before searching

  // A query matches when its provider's name or its key's text contains the searched text.
  // `at` is the rank of the match shown last (0: the slowest), where Enter goes on from;
  // `timer` a search not yet run; `found` what scan() found.
  const search = { query: '', at: null, timer: 0, found: null };

  const hasKeys = () => qp.keys.length > 0 && qp.threads.some((T) => T.key !== null);

  function matcherFor(query) {
    const names = new Uint8Array(qp.providers.length);
    qp.providers.forEach((p, i) => { if (p.name.toLowerCase().includes(query)) names[i] = 1; });
    if (!hasKeys()) return { names, keys: null };
    return { names, keys: qp.keys.matching(query) };
  }

  // Whether the sorted list holds a value in [from, to).
  function holdsBetween(list, from, to) {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (list[m] < from) lo = m + 1; else hi = m;
    }
    return lo < list.length && list[lo] < to;
  }

  // Whether the run [from, to) of thread T holds a match of the search (render.js marks its fold).
  qp.holdsMatch = (T, from, to) => search.found !== null &&
    holdsBetween(search.found.byThread[qp.threads.indexOf(T)], from, to);

  // A fold holding a match says so (an attribute, so that the classes stay the contract's):
  // a match is never hidden in a chip without a trace.
  function markFolds() {
    for (const el of Array.from(document.querySelectorAll('#trees [data-match]'))) el.removeAttribute('data-match');
    if (!search.found) return;
    qp.treeEls.forEach((tree, t) => {
      const list = search.found.byThread[t];
      if (list.length === 0) return;
      for (const fold of tree.querySelectorAll('.fold')) {
        if (qp.isChip(fold)) { qp.markChip(t, fold); continue; }
        const from = Number(fold.getAttribute('data-from'));
        if (holdsBetween(list, from, Number(fold.getAttribute('data-to')))) fold.setAttribute('data-match', '');
      }
    });
  }

  // A chip holds a match when one of its members' subtrees does.
  qp.markChip = function markChip(t, chip) {
    const T = qp.threads[t];
    const list = search.found ? search.found.byThread[t] : null;
    const holds = list !== null && qp.chipMembers(t, chip).some((m) => holdsBetween(list, m, m + T.size[m]));
    if (holds) chip.setAttribute('data-match', '');
    else chip.removeAttribute('data-match');
  };

  function highlight() {
    if (qp.onSearchChange) qp.onSearchChange(); // the timeline dims what does not match
    for (const el of Array.from(document.querySelectorAll('#trees .match'))) el.classList.remove('match');
    markFolds();
    if (!qp.matcher) return;
    qp.treeEls.forEach((tree, t) => {
      const T = qp.threads[t];
      // A static list: adding a class to the elements of a live class list makes every
      // later index into it walk the tree again, quadratic in the nodes drawn.
      const nodes = tree.querySelectorAll('.node');
      for (let i = 0; i < nodes.length; i++) {
        if (qp.isMatch(T, Number(nodes[i].getAttribute('data-n')))) nodes[i].classList.add('match');
      }
    });
  }

  function setStatus(text) {
    const status = document.getElementById('search-status');
    if (status) status.textContent = text;
  }

  function clearSearch() {
    search.query = '';
    search.at = null;
    search.found = null;
    qp.matcher = null;
    highlight();
    setStatus('');
  }

  // Every match, found once per search: per thread the matching nodes in pre-order
  // (`byThread`, for the folds that hold a match) and by depth (`byDepth`, for the timeline's
  // markers). Match g of the
  // search is node byThread[t][g - first[t]]; `dur[g]` its duration. Enter walks them slowest
  // first, ties in thread and pre-order: `ranked` holds that order's first matches, sorted
  // once the walk needs them (a search of 8 million matches sorts 256 of them, not all).
  function scan() {
    const names = qp.matcher.names;
    const found = { count: 0, byName: 0, threads: 0, byThread: [], byDepth: [], first: [], dur: null, ranked: null };
    qp.threads.forEach((T) => {
      const mine = new Int32Array(T.len);
      const perDepth = new Int32Array(T.levels);
      let count = 0;
      for (let m = 0; m < T.len; m++) {
        const byName = names[qp.providerOf(T, m)] === 1;
        if (!byName && !qp.isMatch(T, m)) continue;
        mine[count++] = m;
        perDepth[T.depth[m]]++;
        if (byName) found.byName++;
      }
      found.first.push(found.count);
      found.byThread.push(mine.slice(0, count));
      found.byDepth.push(byDepth(T, found.byThread[found.byThread.length - 1], perDepth));
      found.count += count;
      if (count > 0) found.threads++;
    });
    found.dur = new Float64Array(found.count);
    found.byThread.forEach((list, t) => {
      const dur = qp.threads[t].dur;
      for (let i = 0; i < list.length; i++) found.dur[found.first[t] + i] = dur[list[i]];
    });
    rankUpTo(found, 0);
    return found;
  }

  const RANKED_FIRST = 256; // matches sorted at once; the rest when the walk gets there

  // Makes found.ranked cover rank i: the RANKED_FIRST slowest, chosen by selection, or all.
  function rankUpTo(found, i) {
    if (found.ranked !== null && (i < found.ranked.length || found.ranked.length === found.count)) return;
    const { dur, count } = found;
    const before = (a, b) => dur[b] - dur[a] || a - b;
    if (found.ranked === null && count > 2 * RANKED_FIRST) {
      const floor = qp.kthSmallest(Float64Array.from(dur), count - RANKED_FIRST);
      const chosen = [];
      for (let g = 0; g < count; g++) if (dur[g] > floor) chosen.push(g);
      for (let g = 0; g < count && chosen.length < RANKED_FIRST; g++) if (dur[g] === floor) chosen.push(g);
      found.ranked = Uint32Array.from(chosen).sort(before);
      return;
    }
    const all = new Uint32Array(count);
    for (let g = 0; g < count; g++) all[g] = g;
    found.ranked = all.sort(before);
  }

  // Match of rank i: [thread, node].
  function matchAt(found, i) {
    rankUpTo(found, i);
    const g = found.ranked[i];
    let t = found.first.length - 1;
    while (found.first[t] > g) t--;
    return [t, found.byThread[t][g - found.first[t]]];
  }

  function statusText(found) {
    const { count, byName, threads } = found;
    // A hit whose key the page left out matches by its provider's name only: say so.
    const leftOut = hasKeys() && qp.hitKeysLeftOut > 0 ? " (hits' keys " + qp.layout.HIT_KEY_LEFT_OUT + ')' : '';
    if (count === 0) return 'No matches' + leftOut;
    const where = !hasKeys() ? '' : byName === count ? ', in provider names'
      : byName === 0 ? ', in keys' : ', in provider names and keys';
    const [t, n] = matchAt(found, search.at);
    return 'match ' + qp.thousands(search.at + 1) + ' of ' + qp.thousands(count) + ', slowest first (' +
      qp.durationText(qp.threads[t].dur[n]) + ') \u00b7 ' + qp.thousands(count) +
      (count === 1 ? ' match in ' : ' matches in ') + threads + (threads === 1 ? ' thread' : ' threads') + where + leftOut;
  }

  // The nodes of thread t that match, grouped by depth, or null without a search: `list`
  // holds depth d's in [at[d], at[d + 1]), in pre-order, so by start time. The timeline marks
  // them at any zoom (timeline_draw.js).
  qp.matchesByDepth = (t) => (search.found ? search.found.byDepth[t] : null);

  // A thread's matches (in pre-order) grouped by depth, a counting sort by the matches per
  // depth (`counts`) the scan counted.
  function byDepth(T, matches, counts) {
    const at = new Int32Array(counts.length + 1);
    for (let d = 0; d < counts.length; d++) at[d + 1] = at[d] + counts[d];
    const fill = at.slice(0, counts.length);
    const list = new Int32Array(matches.length);
    for (let i = 0; i < matches.length; i++) list[fill[T.depth[matches[i]]]++] = matches[i];
    return { list, at };
  }

  function runSearch(raw) {
    const query = raw.trim().toLowerCase();
    if (query === '') { clearSearch(); return; }
    search.query = query;
    qp.matcher = matcherFor(query);
    const found = scan();
    search.found = found;
    const opened = Math.min(SEARCH_OPEN, found.count);
    for (let i = 0; i < opened; i++) qp.ensurePath(...matchAt(found, i));
    highlight();
    showMatch(found.count > 0 ? 0 : null);
  }

  // Shows the match of rank i (0 is the slowest) in the tree and on the timeline.
  function showMatch(i) {
    const found = search.found;
    search.at = i;
    setStatus(found ? statusText(found) : '');
    if (i === null) return;
    const [t, n] = matchAt(found, i);
    qp.reveal(t, n, { focus: false }); // typing goes on in the search box
    if (qp.timelineShow) qp.timelineShow(t, n);
  }

  function searchNow(input) {
    clearTimeout(search.timer);
    search.timer = 0;
    runSearch(input.value);
  }

  // Enter searches, or goes to the next match (Shift+Enter: the previous one); Escape clears.
  function onSearchKey(input, e) {
    if (e.key === 'Enter') {
      e.preventDefault();
      const same = search.timer === 0 && input.value.trim().toLowerCase() === search.query;
      const count = search.found ? search.found.count : 0;
      if (same && search.at !== null && count > 0) showMatch((search.at + (e.shiftKey ? count - 1 : 1)) % count);
      else searchNow(input);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      clearTimeout(search.timer);
      search.timer = 0;
      input.value = '';
      clearSearch();
    }
  }

  // "/" jumps to the search box from anywhere but a text field, and Escape clears the search
  // from anywhere, as the legend says.
  function onPageKey(input, e) {
    if (e.key === 'Escape' && e.target !== input && search.query !== '') {
      input.value = '';
      clearSearch();
      return;
    }
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (e.target && e.target.isContentEditable)) return;
    e.preventDefault();
    input.focus();
    input.select();
  }

  function initSearch() {
    const input = document.getElementById('search');
    if (!input) return;
    if (hasKeys()) input.placeholder = 'Search providers and keys';
    input.addEventListener('input', () => {
      clearTimeout(search.timer);
      search.timer = setTimeout(() => searchNow(input), SEARCH_DELAY);
    });
    input.addEventListener('keydown', (e) => onSearchKey(input, e));
    document.addEventListener('keydown', (e) => onPageKey(input, e));
  }

  qp.highlightMatches = highlight;
  qp.initSearch = initSearch;
})();
