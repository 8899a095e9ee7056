// qprof flame graph, part 3 of 3: the page around the canvas -- tooltip, zoom, search, keys --
// and the hooks the browser tests use (window.qprofFlame). The script sits at the end of
// <body>, so the page is parsed and laid out: everything runs at once, and `ready` resolves
// after the first draw.
(() => {
  'use strict';

  const SEARCH_DELAY = 120; // ms of quiet typing before searching
  const COUNT_LABEL = { miss: 'Runs', activity: 'Runs', blocked: 'Waits', load: 'Loads' };

  const $ = (id) => document.getElementById(id);
  let pending = 0;

  function requestDraw() {
    if (pending === 0) pending = requestAnimationFrame(() => { pending = 0; fg.draw(); });
  }

  function valid(i) {
    return fg.F != null && Number.isInteger(i) && i >= 0 && i < fg.F.len;
  }

  // ---- tooltip ----

  function line(box, term, value) {
    const row = document.createElement('div');
    const dt = document.createElement('dt');
    const dd = document.createElement('dd');
    dt.textContent = term;
    dd.textContent = value;
    row.append(dt, dd);
    box.appendChild(row);
  }

  function fillTooltip(tip, i) {
    const F = fg.F;
    const kind = fg.kindOf(i);
    const title = document.createElement('p');
    const name = document.createElement('strong');
    const tag = document.createElement('span');
    name.className = 'name';
    name.textContent = fg.nameOf(i);
    tag.className = 'kind ' + kind;
    tag.textContent = kind;
    title.append(name, ' ', tag);
    const colourClass = fg.classOf(i);
    if (colourClass) {
      const classTag = document.createElement('span');
      classTag.className = 'kind colour-' + colourClass.colour;
      classTag.textContent = colourClass.name;
      title.append(' ', classTag);
    }
    const list = document.createElement('dl');
    const z = fg.view.zoom;
    const { width, selfWidth } = F;
    const ofZoom = z > 0 && width[z] > 0
      ? ', ' + qv.rateText(width[i], width[z]) + ' of the zoomed frame\'s width' : '';
    // The width holds the waits; the share is of the work, as in profile_queries.html.
    const waited = fg.byBytes || kind === 'blocked' || F.wait_ns[i] <= 0 ? ''
      : ', ' + qv.durationText(F.wait_ns[i]) + ' of it waiting';
    line(list, 'Inclusive', fg.widthText(width[i]) + waited + ' \u00b7 ' + fg.shareOf(i) + ofZoom);
    // A blocked frame is a wait, not work: its own time is waiting.
    const self = Math.max(0, selfWidth[i]);
    if (kind === 'blocked' && !fg.byBytes) line(list, 'Waiting (not work)', fg.widthText(self));
    else line(list, 'Self', fg.widthText(self) + ' \u00b7 ' + fg.percentText(self));
    // The other weight, in a line of its own.
    if (fg.byBytes) line(list, 'Time', qv.durationText(F.total_ns[i]) + ', self ' + qv.durationText(Math.max(0, F.self_ns[i])));
    else if (fg.memory) line(list, 'Allocated', qv.bytesText(F.total_bytes[i]) + ', self ' + qv.bytesText(Math.max(0, F.self_bytes[i])));
    if (COUNT_LABEL[kind]) line(list, COUNT_LABEL[kind], qv.thousands(F.count[i]));
    if (F.hits[i] > 0) {
      line(list, 'Cache hits asked', qv.thousands(F.hits[i]) + ' \u00b7 ' +
        qv.rateText(F.hits[i], F.hits[i] + F.asked[i]) + ' of the queries it asked');
    }
    tip.replaceChildren(title, list);
  }

  function showTooltip(i, clientX, clientY) {
    const tip = $('tooltip');
    if (i < 0) { tip.hidden = true; return; }
    if (tip.hidden || Number(tip.dataset.frame) !== i) {
      fillTooltip(tip, i);
      tip.dataset.frame = String(i);
      tip.hidden = false;
    }
    const gap = 14;
    const w = tip.offsetWidth;
    const h = tip.offsetHeight;
    const x = clientX + gap + w > innerWidth ? Math.max(0, clientX - gap - w) : clientX + gap;
    const y = clientY + gap + h > innerHeight ? Math.max(0, clientY - gap - h) : clientY + gap;
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  }

  function pointerFrame(e) {
    const r = fg.canvas.getBoundingClientRect();
    return fg.frameAt(e.clientX - r.left, e.clientY - r.top);
  }

  // ---- zoom and search ----

  function zoomTo(i) {
    if (!valid(i)) return false;
    fg.view.zoom = i;
    const status = $('zoom-status');
    status.textContent = i === 0 ? ''
      : 'Zoomed to ' + fg.nameOf(i) + ' \u00b7 ' + fg.shareOf(i);
    if (i !== 0 && fg.isProvider(i)) {
      // The HTML report beside this page (-Z profile-queries=html,flamegraph) opens on that
      // provider's statistics: its slowest runs, keys, callers and callees.
      const link = document.createElement('a');
      link.href = 'profile_queries.html' + (fg.kindOf(i) === 'activity' ? '#pass=' : '#provider=') +
        encodeURIComponent(fg.providerOf(i));
      link.textContent = 'statistics in profile_queries.html';
      status.append(' \u00b7 ', link);
    }
    $('reset').disabled = i === 0;
    $('tooltip').hidden = true;
    searchStatus();
    fg.draw();
    return true;
  }

  // The matches and their share; zoomed, how many the view leaves out and how to see them.
  function searchStatus() {
    const match = fg.view.match;
    const status = $('search-status');
    fg.view.outside = match === null || fg.view.zoom === 0 ? 0 : fg.outsideZoom(match.mask, fg.view.zoom);
    if (match === null) status.textContent = '';
    else if (match.count === 0) status.textContent = 'No matches';
    else {
      const outside = fg.view.outside;
      status.textContent = qv.thousands(match.count) + (match.count === 1 ? ' frame, ' : ' frames, ') +
        fg.percentText(match.ns) + (outside === 0 ? ''
        : ' \u00b7 ' + (outside === match.count ? 'all' : qv.thousands(outside)) +
          ' outside the zoomed frame: Reset zoom shows them');
    }
  }

  function search(text) {
    fg.view.match = fg.find(text);
    searchStatus();
    fg.draw();
    const match = fg.view.match;
    return match === null ? null : { matches: match.count, share: fg.busy > 0 ? (100 * match.ns) / fg.busy : 0 };
  }

  function clearSearch(input) {
    input.value = '';
    search('');
  }

  // Frames as wide as their allocated bytes, or their time again; the zoom and search stay.
  function weigh(bytes) {
    fg.weigh(bytes);
    const box = $('weight-bytes');
    if (box) box.checked = fg.byBytes;
    search($('search').value);
    zoomTo(fg.view.zoom);
    return fg.byBytes;
  }

  // ---- events ----

  function initEvents() {
    const canvas = fg.canvas;
    const input = $('search');
    canvas.addEventListener('mousemove', (e) => {
      const i = pointerFrame(e);
      showTooltip(i, e.clientX, e.clientY);
      if (i !== fg.view.hover) { fg.view.hover = i; requestDraw(); }
    });
    canvas.addEventListener('mouseleave', () => {
      showTooltip(-1);
      if (fg.view.hover !== -1) { fg.view.hover = -1; requestDraw(); }
    });
    canvas.addEventListener('click', (e) => {
      const i = pointerFrame(e);
      if (i >= 0) zoomTo(i);
    });
    $('reset').addEventListener('click', () => zoomTo(0));
    const weight = $('weight-bytes');
    if (weight) weight.addEventListener('change', () => weigh(weight.checked));
    let timer = 0;
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => { timer = 0; search(input.value); }, SEARCH_DELAY);
    });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        clearTimeout(timer);
        if (e.target === input && input.value !== '') clearSearch(input);
        else if (fg.view.zoom !== 0) zoomTo(0);
        else if (input.value !== '') clearSearch(input);
        return;
      }
      const tag = e.target && e.target.tagName;
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || tag === 'INPUT' || tag === 'BUTTON') return;
      e.preventDefault();
      input.focus();
      input.select();
    });
    window.addEventListener('resize', requestDraw);
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => { fg.readTheme(); requestDraw(); });
  }

  // ---- start-up and hooks ----

  let resolveReady;
  const api = {
    ready: new Promise((resolve) => { resolveReady = resolve; }),
    readyAt: null,
    error: null,
    zoomTo: (i) => zoomTo(i),
    weigh: (bytes) => weigh(Boolean(bytes)),
    search: (text) => { $('search').value = String(text); return search(String(text)); },
    // Where frame i is on screen (viewport CSS px), or null when it is not drawn.
    frameBox: (i) => {
      const box = valid(i) ? fg.box(i) : null;
      if (box === null) return null;
      const r = fg.canvas.getBoundingClientRect();
      return { x: r.left + box.left, y: r.top + box.top, width: box.width, height: box.height };
    },
    frame: (i) => (valid(i) ? {
      name: fg.nameOf(i), kind: fg.kindOf(i), parent: fg.F.parent[i], count: fg.F.count[i],
      colourClass: fg.classOf(i) ? fg.classOf(i).name : null, colour: fg.colourOf(i),
      total_ns: fg.F.total_ns[i], self_ns: fg.F.self_ns[i], hits: fg.F.hits[i],
      total_bytes: fg.memory ? fg.F.total_bytes[i] : null, self_bytes: fg.memory ? fg.F.self_bytes[i] : null,
    } : null),
    state: () => ({
      frames: fg.F ? fg.F.len : 0,
      drawn: fg.drawn.frame.length,
      canvasWidth: fg.drawn.canvasWidth || 0,
      zoom: fg.view.zoom,
      weight: fg.byBytes ? 'bytes' : 'time',
      memory: Boolean(fg.memory),
      zoomName: fg.F ? fg.nameOf(fg.view.zoom) : '',
      hover: fg.view.hover,
      search: fg.view.match ? fg.view.match.query : '',
      matches: fg.view.match ? fg.view.match.count : 0,
      share: fg.view.match && fg.busy > 0 ? (100 * fg.view.match.ns) / fg.busy : 0,
      outside: fg.view.outside || 0,
    }),
  };
  window.qprofFlame = api;

  try {
    const source = $('qprof-flamegraph');
    if (!source) throw new Error('the page has no #qprof-flamegraph');
    fg.load(JSON.parse(source.textContent));
    fg.canvas = $('flame-canvas');
    fg.ctx = fg.canvas.getContext('2d');
    fg.readTheme();
    if (fg.total <= 0) {
      const empty = document.createElement('p');
      empty.className = 'empty';
      empty.textContent = 'No query was recorded.';
      fg.canvas.replaceWith(empty);
    } else {
      initEvents();
      zoomTo(0);
    }
  } catch (e) {
    // Not rethrown: the page says what went wrong, and `ready` still settles.
    api.error = e && e.message ? e.message : String(e);
    const p = document.createElement('p');
    p.className = 'error';
    p.textContent = 'The flame graph could not be drawn: ' + api.error;
    $('flame').replaceChildren(p);
  }
  api.readyAt = performance.now();
  resolveReady();
})();
