// qprof viewer, part 17 of 18: the timeline, pointed at and linked. Hover details, a click
// or the keyboard selects a slice (and the tree follows), wheel, keys and drags zoom and pan,
// Shift+drag selects a time range for the statistics (range.js); the tree and the statistics
// show their selections here. Geometry: timeline_geometry.js; drawing: timeline_draw.js.
(() => {
  'use strict';

  const ZOOM_STEP = 1.6;   // per button press or key
  const PAN_STEP = 0.15;   // share of the view an arrow key moves it
  const SLOP = 3;          // px around a slice that still points at it
  const CLICK_MOVE = 3;    // px a press may move and still be a click

  const tl = qp.tl;
  const { ROW, HEAD, AXIS, MIN_SPAN } = tl;
  const { scale, xOf, nsOf, scrollTop, setView, zoom, pan, counterAt } = tl;
  const { readColours, measure, layout, openTrack, resize, draw } = tl;

  // ---- pointing ----

  // The node of thread T drawn at depth `row` closest to time `ns`, within `slop` ns, found
  // down the nodes that hold `ns`, one level at a time; -1 when there is none.
  function nodeAt(T, row, ns, slop) {
    let from = 0;
    let to = T.len;
    for (let d = 0; d <= row; d++) {
      let best = -1;
      let bestDistance = slop;
      for (let c = from; c < to; c += T.size[c]) {
        const s = T.start[c];
        if (s > ns + bestDistance) break; // siblings start in order
        const e = s + T.dur[c];
        const distance = ns < s ? s - ns : ns > e ? ns - e : 0;
        if (best < 0 ? distance <= slop : distance < bestDistance) {
          best = c;
          bestDistance = distance;
        }
      }
      if (best < 0) return -1;
      if (d === row) return best;
      from = best + 1;
      to = best + T.size[best];
    }
    return -1;
  }

  // The track whose header is at y, or null.
  function headerAt(y) {
    const inTracks = y - AXIS + scrollTop();
    if (y < AXIS) return null;
    return tl.tracks.find((tr) => inTracks >= tr.y && inTracks < tr.y + HEAD) || null;
  }

  // The first track of the process whose band is at y (a merged build), or null.
  function bandAt(y) {
    const inTracks = y - AXIS + scrollTop();
    if (y < AXIS) return null;
    return tl.tracks.find((tr) => tr.band !== null && inTracks >= tr.band && inTracks < tr.band + tl.BAND) || null;
  }

  function pointAt(x, y) {
    const inTracks = y - AXIS + scrollTop();
    const track = tl.tracks.find((tr) => inTracks >= tr.y + HEAD && inTracks < tr.y + HEAD + tr.rows * ROW);
    if (!track || y < AXIS) return null;
    const T = qp.threads[track.t];
    const row = Math.floor((inTracks - track.y - HEAD) / ROW);
    const n = nodeAt(T, row, nsOf(x), SLOP / scale());
    return n < 0 ? null : { t: track.t, n };
  }

  function localPoint(e) {
    const r = tl.el.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  function tipHtml(at) {
    const T = qp.threads[at.t];
    const n = at.n;
    const outcome = qp.outcomeOf(T, n);
    const key = qp.keyText(at.t, n);
    const line = (name, value) => '<dt>' + name + '</dt><dd>' + qp.escape(value) + '</dd>';
    const field = (key, name, value) => '<dt>' + name + '</dt><dd data-field="' + key + '">' + qp.escape(value) + '</dd>';
    let h = '<strong>' + qp.escape(qp.nodeName(at.t, n)) + '</strong><dl>';
    h += line('Outcome', qp.OUTCOMES[outcome] || '?');
    const colour = qp.colourClassOf(T, n);
    if (colour) h += line('Colour class', colour.name);
    if (outcome !== qp.HIT) {
      h += line('Duration', qp.durationText(T.dur[n]) + ' \u00b7 ' + qp.shareText(T, n));
      h += line('Self', qp.durationText(Math.max(0, qp.selfOf(T, n))));
    }
    h += qp.nodeMemoryRows(field, T, n); // with -Z profile-queries-memory
    if (key !== null) h += line(outcome === qp.ACTIVITY ? 'Argument' : 'Key', key);
    else if (qp.keyLeftOut(at.t, n)) h += line('Key', qp.layout.HIT_KEY_LEFT_OUT);
    h += line('Starts at', qp.durationText(T.start[n]));
    if (qp.threads.length > 1) h += line('Thread', T.name);
    return h + '</dl>';
  }

  // A counter's value at the pointer: the sample that holds there.
  function counterTipHtml(at) {
    const T = qp.threads[at.t];
    const C = T.counters[at.c];
    const line = (name, value) => '<dt>' + name + '</dt><dd>' + qp.escape(value) + '</dd>';
    let h = '<strong>' + qp.escape(qp.counterName(C.counter)) + '</strong><dl>';
    h += line('Value', qp.thousands(C.value[at.i]));
    h += line('Since', qp.durationText(C.time[at.i]));
    h += line('Range', qp.thousands(C.min) + ' \u2013 ' + qp.thousands(C.max) + ' (' + qp.thousands(C.samples) + ' samples)');
    if (qp.threads.length > 1) h += line('Thread', T.name);
    return h + '</dl>';
  }

  // `html`: the tip's content, or null to hide it.
  function showTip(at, p, html) {
    if (!at) { tl.el.tip.hidden = true; return; }
    tl.el.tip.innerHTML = html || tipHtml(at);
    tl.el.tip.hidden = false;
    const box = tl.el.section.getBoundingClientRect();
    const canvasBox = tl.el.canvas.getBoundingClientRect();
    let left = canvasBox.left - box.left + p.x + 14;
    const top = canvasBox.top - box.top + p.y + 16;
    if (left + tl.el.tip.offsetWidth > box.width) left = Math.max(0, left - tl.el.tip.offsetWidth - 28);
    tl.el.tip.style.left = left + 'px';
    tl.el.tip.style.top = top + 'px';
  }

  function hover(at, p) {
    const same = at && tl.hovered && at.t === tl.hovered.t && at.n === tl.hovered.n;
    if (!same && (at || tl.hovered)) {
      tl.hovered = at;
      draw();
    }
    showTip(at, p);
    tl.el.canvas.style.cursor = at ? 'pointer' : tl.drag ? 'grabbing' : 'default';
  }

  function onDown(e) {
    if (e.button !== 0) return;
    const p = localPoint(e);
    const brush = e.shiftKey || p.y < AXIS;
    tl.drag = { kind: brush ? 'range' : 'pan', x: p.x, from: nsOf(p.x), to: nsOf(p.x), view: tl.view.from, moved: false };
    tl.el.scroll.focus({ preventScroll: true });
    e.preventDefault();
  }

  function onMove(e) {
    const p = localPoint(e);
    if (tl.drag) {
      if (Math.abs(p.x - tl.drag.x) >= CLICK_MOVE) tl.drag.moved = true;
      if (tl.drag.kind === 'pan' && tl.drag.moved) {
        const span = tl.view.to - tl.view.from;
        const from = tl.drag.view - (p.x - tl.drag.x) / scale();
        setView(from, from + span);
      } else if (tl.drag.kind === 'range') {
        tl.drag.to = Math.min(Math.max(nsOf(p.x), 0), tl.wall);
        draw();
      }
      showTip(null);
      return;
    }
    if (e.target !== tl.el.canvas) return;
    const at = pointAt(p.x, p.y);
    hover(at, p);
    if (!at && (headerAt(p.y) || bandAt(p.y))) tl.el.canvas.style.cursor = 'pointer';
    const counter = at ? null : counterAt(p.x, p.y);
    if (counter) showTip(counter, p, counterTipHtml(counter));
  }

  function onUp(e) {
    if (!tl.drag) return;
    const done = tl.drag;
    tl.drag = null;
    const p = localPoint(e);
    if (done.kind === 'range' && done.moved) {
      qp.setRange(done.from, done.to);
    } else if (!done.moved && e.target === tl.el.canvas) {
      const header = headerAt(p.y);
      const band = bandAt(p.y);
      const at = pointAt(p.x, p.y);
      if (header) openTrack(header, !header.open);
      else if (band) toggleProcess(qp.processOf(band.t));
      else if (at) choose(at, false);
    }
    draw();
  }

  // A click on a process's band limits the statistics to it; a second one, to all processes.
  function toggleProcess(p) {
    qp.showProcess(qp.statsProcess === p ? -1 : p);
  }

  // Selects a slice: in the tree, with its details and path, and here. The page stays where
  // it is, so that the timeline stays in view (a double click goes to the tree).
  function choose(at, jump) {
    const x = window.scrollX;
    const y = window.scrollY;
    tl.selected = at;
    qp.reveal(at.t, at.n, { focus: false });
    if (!jump) window.scrollTo(x, y);
    for (const tr of document.querySelectorAll('#provider-table tbody tr')) {
      tr.classList.toggle('shown', Number(tr.dataset.provider) === qp.providerOf(qp.threads[at.t], at.n));
    }
    draw();
  }

  function onDoubleClick(e) {
    const p = localPoint(e);
    const at = pointAt(p.x, p.y);
    if (at) choose(at, true);
  }

  function onWheel(e) {
    const unit = e.deltaMode === 1 ? 30 : e.deltaMode === 2 ? tl.height : 1;
    const dx = e.deltaX * unit;
    const dy = e.deltaY * unit;
    e.preventDefault();
    if (e.shiftKey || Math.abs(dx) > Math.abs(dy)) pan(e.shiftKey ? dy || dx : dx);
    else zoom(Math.exp(dy * 0.0025), localPoint(e).x);
  }

  // ---- the keyboard: zoom and pan, and a selection that moves through the slices ----

  const timed = (T, n) => !qp.isHit(T, n);

  // The next (step 1) or previous (-1) timed node at the depth of n, in its thread's order.
  function besideOf(T, n, step) {
    for (let m = n + step; m >= 0 && m < T.len; m += step) {
      if (T.depth[m] === T.depth[n] && timed(T, m)) return m;
    }
    return -1;
  }

  function firstChild(T, n) {
    for (let c = n + 1; c < n + T.size[n]; c += T.size[c]) if (timed(T, c)) return c;
    return -1;
  }

  // The first timed root in view of the first track that has one.
  function firstInView() {
    for (const track of tl.tracks) {
      const T = qp.threads[track.t];
      for (let n = 0; n < T.len; n += T.size[n]) {
        if (timed(T, n) && T.start[n] + T.dur[n] >= tl.view.from && T.start[n] <= tl.view.to) return { t: track.t, n };
      }
    }
    return null;
  }

  // [ ] move to the slice before or after on the same row, ↑ to the parent, ↓ to the first
  // child; the tree follows.
  function moveSelection(key) {
    if (!tl.selected) {
      const first = firstInView();
      if (first) choose(first, false);
      return;
    }
    const T = qp.threads[tl.selected.t];
    const n = tl.selected.n;
    const to = key === '[' ? besideOf(T, n, -1) : key === ']' ? besideOf(T, n, 1)
      : key === 'ArrowUp' ? T.parent[n] : firstChild(T, n);
    if (to >= 0) choose({ t: tl.selected.t, n: to }, false);
  }

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const step = tl.width * PAN_STEP * (e.shiftKey ? 3 : 1);
    switch (e.key) {
      case '+': case '=': zoom(1 / ZOOM_STEP); break;
      case '-': case '_': zoom(ZOOM_STEP); break;
      case 'ArrowLeft': pan(-step); break;
      case 'ArrowRight': pan(step); break;
      case 'ArrowUp': case 'ArrowDown': case '[': case ']': moveSelection(e.key); break;
      case 'PageUp': tl.el.scroll.scrollTop -= tl.height / 2; break;
      case 'PageDown': tl.el.scroll.scrollTop += tl.height / 2; break;
      case '0': case 'Home': setView(0, tl.wall); break;
      case 'Enter': if (tl.selected) choose(tl.selected, true); break;
      case 'Escape': if (!qp.range) return; qp.clearRange(); break;
      default: return;
    }
    e.preventDefault();
  }

  // ---- what the other views ask ----

  // Brings a node into view, zoomed so that it takes about a third of the width, and selects it.
  qp.timelineShow = function timelineShow(t, n) {
    const T = qp.threads[t];
    if (!T || !(n >= 0 && n < T.len) || !tl.el.canvas) return;
    tl.selected = { t, n };
    if (T.depth[n] >= tl.tracks[t].rows) openTrack(tl.tracks[t], true);
    const span = Math.max(T.dur[n] * 3, MIN_SPAN * 20);
    setView(T.start[n] + T.dur[n] / 2 - span / 2, T.start[n] + T.dur[n] / 2 + span / 2);
    scrollToRow(t, n);
  };

  // Scrolls the tracks so that the row of node n is in sight.
  function scrollToRow(t, n) {
    const y = AXIS + tl.tracks[t].y + HEAD + qp.threads[t].depth[n] * ROW;
    if (y < tl.el.scroll.scrollTop + AXIS || y + ROW > tl.el.scroll.scrollTop + tl.height) {
      tl.el.scroll.scrollTop = Math.max(0, y - tl.height / 2);
    }
  }

  // The tree selected a node: mark it, and move the view to it when it is out of sight.
  qp.timelineSelect = function timelineSelect(t, n) {
    const T = qp.threads[t];
    if (!T || !tl.el.canvas) return;
    tl.selected = { t, n };
    if (T.depth[n] >= tl.tracks[t].rows) openTrack(tl.tracks[t], true);
    const s = T.start[n];
    const e = s + T.dur[n];
    if (e < tl.view.from || s > tl.view.to) {
      const span = Math.max(tl.view.to - tl.view.from, T.dur[n] * 1.5);
      setView((s + e) / 2 - span / 2, (s + e) / 2 + span / 2);
    }
    scrollToRow(t, n);
    draw();
  };

  qp.onRangeChange = draw;
  qp.onSearchChange = draw;

  // The hooks the browser test uses.
  qp.timelineState = () => ({
    from: tl.view.from, to: tl.view.to, width: tl.width, height: tl.height,
    tracks: tl.tracks.map((tr) => ({
      thread: tr.t, name: qp.threads[tr.t].name, y: AXIS + tr.y, rows: tr.rows, depth: tr.depth,
      process: qp.processOf(tr.t), band: tr.band === null ? null : AXIS + tr.band,
      graphs: tr.graphs, graphY: AXIS + tr.graphY, graph: tl.GRAPH,
    })),
    selected: tl.selected, row: ROW, head: HEAD, axis: AXIS, scroll: scrollTop(), paintMs: tl.paintMs,
    drawn: tl.drawn, lit: tl.lit, marks: tl.marks, drawnSamples: tl.drawnSamples,
  });
  qp.timelineXOf = (ns) => xOf(ns);

  qp.initTimeline = function initTimeline() {
    const section = document.getElementById('timeline');
    const canvas = document.getElementById('timeline-canvas');
    if (!section || !canvas || !canvas.getContext || qp.threads.length === 0) {
      if (section) section.hidden = true;
      return;
    }
    tl.el = {
      section, canvas,
      scroll: document.getElementById('timeline-view'),
      spacer: document.getElementById('timeline-spacer'),
      tip: document.getElementById('timeline-tip'),
      span: document.getElementById('timeline-span'),
      expand: document.getElementById('timeline-rows'),
    };
    tl.ctx = canvas.getContext('2d');
    tl.wall = Math.max(qp.wall, 1);
    for (const T of qp.threads) {
      for (let n = 0; n < T.len; n += T.size[n]) tl.wall = Math.max(tl.wall, T.start[n] + T.dur[n]);
    }
    tl.view.from = 0;
    tl.view.to = tl.wall;
    readColours();
    measure();
    layout();
    resize();
    canvas.addEventListener('mousedown', onDown);
    document.addEventListener('mousemove', onMove, { passive: true });
    document.addEventListener('mouseup', onUp);
    canvas.addEventListener('mouseleave', () => { if (!tl.drag) hover(null); });
    canvas.addEventListener('dblclick', onDoubleClick);
    canvas.addEventListener('wheel', onWheel, { passive: false });
    tl.el.scroll.addEventListener('keydown', onKey);
    tl.el.scroll.addEventListener('scroll', draw, { passive: true });
    window.addEventListener('resize', resize);
    const scheme = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)');
    if (scheme && scheme.addEventListener) scheme.addEventListener('change', () => { readColours(); draw(); });
    const expandAll = () => {
      const open = tl.tracks.some((tr) => tr.depth > tl.collapsed && !tr.open);
      for (const tr of tl.tracks) tr.open = open;
      layout();
      resize();
    };
    const buttons = { 'timeline-rows': expandAll, 'timeline-zoom-in': () => zoom(1 / ZOOM_STEP), 'timeline-zoom-out': () => zoom(ZOOM_STEP), 'timeline-reset': () => setView(0, tl.wall) };
    for (const [id, action] of Object.entries(buttons)) {
      const button = document.getElementById(id);
      if (button) button.addEventListener('click', action);
    }
  };
})();
