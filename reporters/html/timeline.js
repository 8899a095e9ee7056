// qprof viewer, part 7 of 8: the timeline. One track per thread on one time axis, the query
// slices of each thread nested by depth and drawn on a <canvas>, coloured by outcome as in the
// tree. Only what is in view is walked: a subtree outside the shown time is skipped whole, and
// a slice narrower than a pixel is drawn as one pixel column per row, its subtree left out, so
// that a frame costs about the number of pixels, not of events. Start times come from the
// payload's gaps (trace.js).
(() => {
  'use strict';

  const ROW = 15;          // px per depth row
  const HEAD = 17;         // px of a track's header, the thread's name
  const AXIS = 22;         // px of the time axis at the top
  const MAX_HEIGHT = 340;  // px of canvas at most; a taller timeline scrolls
  const COLLAPSED = 6;     // rows a track shows until it is expanded, so that all fit
  const MIN_SPAN = 1000;   // ns shown at the deepest zoom
  const ZOOM_STEP = 1.6;   // per button press or key
  const PAN_STEP = 0.15;   // share of the view an arrow key moves it
  const SLOP = 3;          // px around a slice that still points at it
  const CLICK_MOVE = 3;    // px a press may move and still be a click
  const MIN_LABEL = 28;    // px a slice needs for a label

  const view = { from: 0, to: 1 }; // ns from the session start
  let wall = 1;
  let tracks = [];      // per thread: {t, y, depth, rows, busy, open}, y from the tracks' top
  let tracksHeight = 0;
  let selected = null;  // {t, n}
  let hovered = null;
  let drag = null;      // {kind: 'pan' | 'range', x, y, from, to, moved}
  let pending = 0;      // a requested frame
  let el = {};
  let ctx = null;
  let width = 0;
  let height = 0;
  let colours = {};
  let charWidth = 6;
  let paintMs = 0;      // how long the last frame took to draw, for html_page_benchmark.py

  // ---- geometry ----

  const scale = () => width / (view.to - view.from); // px per ns
  const xOf = (ns) => (ns - view.from) * scale();
  const nsOf = (x) => view.from + x / scale();
  const scrollTop = () => (el.scroll ? el.scroll.scrollTop : 0);

  function setView(from, to) {
    const span = Math.min(Math.max(to - from, MIN_SPAN), wall);
    let a = from + (to - from - span) / 2;
    a = Math.min(Math.max(a, 0), wall - span);
    view.from = a;
    view.to = a + span;
    draw();
  }

  function zoom(factor, atX) {
    const x = atX == null ? width / 2 : atX;
    const at = nsOf(x);
    const span = (view.to - view.from) * factor;
    setView(at - (x / width) * span, at - (x / width) * span + span);
  }

  function pan(px) {
    const ns = px / scale();
    setView(view.from + ns, view.to + ns);
  }

  // ---- drawing ----

  function readColours() {
    const style = getComputedStyle(document.documentElement);
    const v = (name) => style.getPropertyValue(name).trim() || '#888';
    colours = {
      outcome: [v('--miss'), v('--hit'), v('--blocked'), v('--load'), v('--activity')],
      bg: v('--bg'), fg: v('--fg'), muted: v('--muted'), panel: v('--panel'), rule: v('--rule'),
      focus: v('--focus'), range: v('--focus'),
    };
  }

  function measure() {
    tracks = qp.threads.map((T, t) => {
      let depth = 1;
      let busy = 0;
      for (let n = 0; n < T.len; n++) if (T.depth[n] + 1 > depth) depth = T.depth[n] + 1;
      for (let n = 0; n < T.len; n += T.size[n]) busy += T.dur[n];
      return { t, y: 0, depth, rows: 0, busy, open: false };
    });
  }

  // A track shows COLLAPSED rows until it is opened (a click on its header, or the button).
  function layout() {
    let y = 0;
    for (const track of tracks) {
      track.y = y;
      track.rows = track.open ? track.depth : Math.min(track.depth, COLLAPSED);
      y += HEAD + track.rows * ROW + 4;
    }
    tracksHeight = y;
    if (el.expand) {
      const deep = tracks.some((tr) => tr.depth > COLLAPSED);
      el.expand.hidden = !deep;
      el.expand.textContent = tracks.some((tr) => tr.depth > COLLAPSED && !tr.open) ? 'All rows' : 'Fewer rows';
    }
  }

  function openTrack(track, open) {
    if (track.open === open || track.depth <= COLLAPSED) return;
    track.open = open;
    layout();
    resize();
  }

  function resize() {
    if (!el.canvas) return;
    const ratio = window.devicePixelRatio || 1;
    width = Math.max(100, el.scroll.clientWidth);
    height = Math.min(MAX_HEIGHT, AXIS + tracksHeight);
    el.canvas.width = Math.round(width * ratio);
    el.canvas.height = Math.round(height * ratio);
    el.canvas.style.width = width + 'px';
    el.canvas.style.height = height + 'px';
    el.spacer.style.height = Math.max(0, AXIS + tracksHeight - height) + 'px';
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.font = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
    charWidth = ctx.measureText('abcdefghijklmnopqrstuvwxyz').width / 26;
    draw();
  }

  function draw() {
    if (!pending && ctx) pending = requestAnimationFrame(paint);
  }

  function paint() {
    pending = 0;
    const began = performance.now();
    ctx.fillStyle = colours.bg;
    ctx.fillRect(0, 0, width, height);
    ctx.font = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
    ctx.textBaseline = 'middle';
    const top = AXIS - scrollTop();
    for (const track of tracks) {
      const y = top + track.y;
      if (y > height || y + HEAD + track.rows * ROW < AXIS) continue;
      paintSlices(track, y + HEAD);
      paintHeader(track, y);
    }
    paintRange();
    paintMark(selected, colours.focus, 2);
    paintMark(hovered, colours.fg, 1);
    paintAxis();
    updateSpan();
    paintMs = performance.now() - began;
  }

  function paintHeader(track, y) {
    const T = qp.threads[track.t];
    ctx.fillStyle = colours.panel;
    ctx.fillRect(0, y, width, HEAD - 2);
    ctx.fillStyle = colours.fg;
    ctx.font = '600 11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
    let text = T.name + ' \u00b7 ' + qp.durationText(track.busy) + ' busy \u00b7 ' +
      qp.percentText(track.busy) + ' \u00b7 ' + qp.thousands(T.len) + ' events';
    if (track.depth > COLLAPSED) {
      text += track.open ? ' \u00b7 ' + track.depth + ' rows (click to show ' + COLLAPSED + ')'
        : ' \u00b7 ' + track.rows + ' of ' + track.depth + ' rows (click for all)';
    }
    ctx.fillText(text, 6, y + (HEAD - 2) / 2);
    ctx.font = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  }

  // One thread's slices. lastX[row] is the pixel column a sub-pixel slice last took on that
  // row, lastHit[row] whether a hit took it (a run drawn over it wins).
  function paintSlices(track, y0) {
    const T = qp.threads[track.t];
    const k = scale();
    const lastX = new Float64Array(track.rows).fill(-1);
    const lastHit = new Uint8Array(track.rows);
    const bottom = height;
    for (let n = 0; n < T.len;) {
      const s = T.start[n];
      const e = s + T.dur[n];
      const row = T.depth[n];
      const y = y0 + row * ROW;
      if (e < view.from || s > view.to || y > bottom || row >= track.rows) { n += T.size[n]; continue; }
      const outcome = T.tag[n] & 7;
      const x = (s - view.from) * k;
      const w = (e - s) * k;
      if (w < 1) {
        const column = Math.floor(x);
        const hit = outcome === qp.HIT;
        if (lastX[row] !== column || (lastHit[row] && !hit)) {
          lastX[row] = column;
          lastHit[row] = hit ? 1 : 0;
          ctx.fillStyle = colours.outcome[outcome] || colours.outcome[0];
          ctx.globalAlpha = hit ? 0.9 : 0.75;
          if (hit) ctx.fillRect(column, y + 4, 1, ROW - 8);
          else ctx.fillRect(column, y + 1, 1, ROW - 2);
          ctx.globalAlpha = 1;
        }
        n += T.size[n];
        continue;
      }
      if (y + ROW >= AXIS) paintSlice(track.t, n, x, w, y, outcome);
      n++;
    }
  }

  function paintSlice(t, n, x, w, y, outcome) {
    const T = qp.threads[t];
    const row = T.depth[n];
    const left = Math.max(x, -1);
    const right = Math.min(x + w, width + 1);
    ctx.fillStyle = colours.outcome[outcome] || colours.outcome[0];
    ctx.globalAlpha = row % 2 === 0 ? 0.9 : 0.72;
    ctx.fillRect(left, y + 1, Math.max(1, right - left - (w > 4 ? 1 : 0)), ROW - 2);
    ctx.globalAlpha = 1;
    if (qp.isUnfinished(T, n)) {
      ctx.strokeStyle = colours.fg;
      ctx.setLineDash([3, 2]);
      ctx.strokeRect(left + 0.5, y + 1.5, right - left - 1, ROW - 3);
      ctx.setLineDash([]);
    }
    if (right - left < MIN_LABEL) return;
    const room = Math.floor((right - left - 6) / charWidth);
    let text = qp.providerName(t, n);
    const full = text + ' ' + qp.durationText(T.dur[n]);
    if (full.length <= room) text = full;
    else if (text.length > room) text = text.slice(0, Math.max(1, room - 1)) + '\u2026';
    ctx.fillStyle = colours.bg;
    ctx.fillText(text, left + 3, y + ROW / 2);
  }

  // An outline around the slice of `at` ({t, n}), widened to be seen when it is narrow.
  function paintMark(at, colour, lineWidth) {
    if (!at) return;
    const T = qp.threads[at.t];
    const track = tracks[at.t];
    if (!T || !track || at.n >= T.len) return;
    const y = AXIS - scrollTop() + track.y + HEAD + T.depth[at.n] * ROW;
    const x = xOf(T.start[at.n]);
    const w = Math.max(3, T.dur[at.n] * scale());
    if (x > width || x + w < 0 || y + ROW < AXIS || y > height) return;
    ctx.strokeStyle = colour;
    ctx.lineWidth = lineWidth;
    ctx.strokeRect(Math.max(-1, x - 1) + 0.5, y + 0.5, Math.min(w + 1, width + 2), ROW - 1);
    ctx.lineWidth = 1;
  }

  function paintRange() {
    const r = drag && drag.kind === 'range' ? drag : qp.range;
    if (!r) return;
    const a = xOf(Math.min(r.from, r.to));
    const b = xOf(Math.max(r.from, r.to));
    ctx.fillStyle = colours.range;
    ctx.globalAlpha = 0.14;
    ctx.fillRect(a, 0, b - a, height);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = colours.range;
    ctx.beginPath();
    ctx.moveTo(Math.round(a) + 0.5, 0);
    ctx.lineTo(Math.round(a) + 0.5, height);
    ctx.moveTo(Math.round(b) + 0.5, 0);
    ctx.lineTo(Math.round(b) + 0.5, height);
    ctx.stroke();
  }

  // A tick about every 100 px, on a 1-2-5 step, labelled in the unit of the step.
  function tickStep() {
    const raw = 100 / scale();
    const decade = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5, 10]) if (m * decade >= raw) return m * decade;
    return 10 * decade;
  }

  // In the unit of the whole view's end, with the decimals the step needs: "523.401 ms".
  function tickText(ns, step) {
    const units = [[1e9, ' s'], [1e6, ' ms'], [1e3, ' \u00b5s'], [1, ' ns']];
    const [size, name] = units.find(([u]) => view.to >= u) || units[3];
    const digits = Math.min(6, Math.max(0, Math.ceil(Math.log10(size / step) - 1e-9)));
    return (ns / size).toFixed(digits) + name;
  }

  function paintAxis() {
    ctx.fillStyle = colours.bg;
    ctx.fillRect(0, 0, width, AXIS);
    ctx.strokeStyle = colours.rule;
    ctx.fillStyle = colours.muted;
    const step = tickStep();
    ctx.beginPath();
    for (let ns = Math.ceil(view.from / step) * step; ns <= view.to; ns += step) {
      const x = Math.round(xOf(ns)) + 0.5;
      ctx.moveTo(x, AXIS - 6);
      ctx.lineTo(x, height);
      ctx.fillText(tickText(ns, step), x + 3, AXIS / 2 - 2);
    }
    ctx.moveTo(0, AXIS - 0.5);
    ctx.lineTo(width, AXIS - 0.5);
    ctx.globalAlpha = 0.5;
    ctx.stroke();
    ctx.globalAlpha = 1;
  }

  function updateSpan() {
    if (!el.span) return;
    const text = qp.durationText(view.from) + ' \u2013 ' + qp.durationText(view.to) +
      ' \u00b7 ' + qp.durationText(view.to - view.from) + ' shown';
    if (el.span.textContent !== text) el.span.textContent = text;
  }

  // ---- pointing ----

  // The node of track `track` drawn at depth `row` closest to time `ns`, within `slop` ns:
  // down the nodes that hold `ns`, one level at a time.
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
    return tracks.find((tr) => inTracks >= tr.y && inTracks < tr.y + HEAD) || null;
  }

  function pointAt(x, y) {
    const inTracks = y - AXIS + scrollTop();
    const track = tracks.find((tr) => inTracks >= tr.y + HEAD && inTracks < tr.y + HEAD + tr.rows * ROW);
    if (!track || y < AXIS) return null;
    const T = qp.threads[track.t];
    const row = Math.floor((inTracks - track.y - HEAD) / ROW);
    const n = nodeAt(T, row, nsOf(x), SLOP / scale());
    return n < 0 ? null : { t: track.t, n };
  }

  function localPoint(e) {
    const r = el.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  function tipHtml(at) {
    const T = qp.threads[at.t];
    const n = at.n;
    const outcome = T.tag[n] & 7;
    const key = qp.keyText(at.t, n);
    const line = (name, value) => '<dt>' + name + '</dt><dd>' + qp.escape(value) + '</dd>';
    let h = '<strong>' + qp.escape(qp.providerName(at.t, n)) + '</strong><dl>';
    h += line('Outcome', qp.OUTCOMES[outcome] || '?');
    if (outcome !== qp.HIT) {
      h += line('Duration', qp.durationText(T.dur[n]) + ' \u00b7 ' + qp.percentText(T.dur[n]));
      h += line('Self', qp.durationText(Math.max(0, T.self[n])));
    }
    if (key !== null) h += line('Key', key);
    h += line('Starts at', qp.durationText(T.start[n]));
    if (qp.threads.length > 1) h += line('Thread', T.name);
    return h + '</dl>';
  }

  function showTip(at, p) {
    if (!at) { el.tip.hidden = true; return; }
    el.tip.innerHTML = tipHtml(at);
    el.tip.hidden = false;
    const box = el.section.getBoundingClientRect();
    const canvasBox = el.canvas.getBoundingClientRect();
    let left = canvasBox.left - box.left + p.x + 14;
    const top = canvasBox.top - box.top + p.y + 16;
    if (left + el.tip.offsetWidth > box.width) left = Math.max(0, left - el.tip.offsetWidth - 28);
    el.tip.style.left = left + 'px';
    el.tip.style.top = top + 'px';
  }

  function hover(at, p) {
    const same = at && hovered && at.t === hovered.t && at.n === hovered.n;
    if (!same && (at || hovered)) {
      hovered = at;
      draw();
    }
    showTip(at, p);
    el.canvas.style.cursor = at ? 'pointer' : drag ? 'grabbing' : 'default';
  }

  function onDown(e) {
    if (e.button !== 0) return;
    const p = localPoint(e);
    const brush = e.shiftKey || p.y < AXIS;
    drag = { kind: brush ? 'range' : 'pan', x: p.x, from: nsOf(p.x), to: nsOf(p.x), view: view.from, moved: false };
    el.scroll.focus({ preventScroll: true });
    e.preventDefault();
  }

  function onMove(e) {
    const p = localPoint(e);
    if (drag) {
      if (Math.abs(p.x - drag.x) >= CLICK_MOVE) drag.moved = true;
      if (drag.kind === 'pan' && drag.moved) {
        const span = view.to - view.from;
        const from = drag.view - (p.x - drag.x) / scale();
        setView(from, from + span);
      } else if (drag.kind === 'range') {
        drag.to = Math.min(Math.max(nsOf(p.x), 0), wall);
        draw();
      }
      showTip(null);
      return;
    }
    if (e.target !== el.canvas) return;
    const at = pointAt(p.x, p.y);
    hover(at, p);
    if (!at && headerAt(p.y)) el.canvas.style.cursor = 'pointer';
  }

  function onUp(e) {
    if (!drag) return;
    const done = drag;
    drag = null;
    const p = localPoint(e);
    if (done.kind === 'range' && done.moved) {
      qp.setRange(done.from, done.to);
    } else if (!done.moved && e.target === el.canvas) {
      const header = headerAt(p.y);
      const at = pointAt(p.x, p.y);
      if (header) openTrack(header, !header.open);
      else if (at) choose(at, false);
    }
    draw();
  }

  // Selects a slice: in the tree, with its details and path, and here. The page stays where
  // it is, so that the timeline stays in view (a double click goes to the tree).
  function choose(at, jump) {
    const x = window.scrollX;
    const y = window.scrollY;
    selected = at;
    qp.reveal(at.t, at.n, { focus: false });
    if (!jump) window.scrollTo(x, y);
    for (const tr of document.querySelectorAll('#provider-table tbody tr')) {
      tr.classList.toggle('shown', Number(tr.dataset.provider) === qp.threads[at.t].tag[at.n] >>> 5);
    }
    draw();
  }

  function onDoubleClick(e) {
    const p = localPoint(e);
    const at = pointAt(p.x, p.y);
    if (at) choose(at, true);
  }

  function onWheel(e) {
    const unit = e.deltaMode === 1 ? 30 : e.deltaMode === 2 ? height : 1;
    const dx = e.deltaX * unit;
    const dy = e.deltaY * unit;
    e.preventDefault();
    if (e.shiftKey || Math.abs(dx) > Math.abs(dy)) pan(e.shiftKey ? dy || dx : dx);
    else zoom(Math.exp(dy * 0.0025), localPoint(e).x);
  }

  // ---- the keyboard: zoom and pan, and a selection that moves through the slices ----

  const timed = (T, n) => (T.tag[n] & 7) !== qp.HIT;

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
    for (const track of tracks) {
      const T = qp.threads[track.t];
      for (let n = 0; n < T.len; n += T.size[n]) {
        if (timed(T, n) && T.start[n] + T.dur[n] >= view.from && T.start[n] <= view.to) return { t: track.t, n };
      }
    }
    return null;
  }

  // [ ] move to the slice before or after on the same row, ↑ to the parent, ↓ to the first
  // child; the tree follows.
  function moveSelection(key) {
    if (!selected) {
      const first = firstInView();
      if (first) choose(first, false);
      return;
    }
    const T = qp.threads[selected.t];
    const n = selected.n;
    const to = key === '[' ? besideOf(T, n, -1) : key === ']' ? besideOf(T, n, 1)
      : key === 'ArrowUp' ? T.parent[n] : firstChild(T, n);
    if (to >= 0) choose({ t: selected.t, n: to }, false);
  }

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const step = width * PAN_STEP * (e.shiftKey ? 3 : 1);
    switch (e.key) {
      case '+': case '=': zoom(1 / ZOOM_STEP); break;
      case '-': case '_': zoom(ZOOM_STEP); break;
      case 'ArrowLeft': pan(-step); break;
      case 'ArrowRight': pan(step); break;
      case 'ArrowUp': case 'ArrowDown': case '[': case ']': moveSelection(e.key); break;
      case 'PageUp': el.scroll.scrollTop -= height / 2; break;
      case 'PageDown': el.scroll.scrollTop += height / 2; break;
      case '0': case 'Home': setView(0, wall); break;
      case 'Enter': if (selected) choose(selected, true); break;
      case 'Escape': if (!qp.range) return; qp.clearRange(); break;
      default: return;
    }
    e.preventDefault();
  }

  // ---- what the other views ask ----

  // Brings a node into view, zoomed so that it takes about a third of the width, and selects it.
  qp.timelineShow = function timelineShow(t, n) {
    const T = qp.threads[t];
    if (!T || !(n >= 0 && n < T.len) || !el.canvas) return;
    selected = { t, n };
    if (T.depth[n] >= tracks[t].rows) openTrack(tracks[t], true);
    const span = Math.max(T.dur[n] * 3, MIN_SPAN * 20);
    setView(T.start[n] + T.dur[n] / 2 - span / 2, T.start[n] + T.dur[n] / 2 + span / 2);
    scrollToRow(t, n);
  };

  // Scrolls the tracks so that the row of node n is in sight.
  function scrollToRow(t, n) {
    const y = AXIS + tracks[t].y + HEAD + qp.threads[t].depth[n] * ROW;
    if (y < el.scroll.scrollTop + AXIS || y + ROW > el.scroll.scrollTop + height) {
      el.scroll.scrollTop = Math.max(0, y - height / 2);
    }
  }

  // The tree selected a node: mark it, and move the view to it when it is out of sight.
  qp.timelineSelect = function timelineSelect(t, n) {
    const T = qp.threads[t];
    if (!T || !el.canvas) return;
    selected = { t, n };
    if (T.depth[n] >= tracks[t].rows) openTrack(tracks[t], true);
    const s = T.start[n];
    const e = s + T.dur[n];
    if (e < view.from || s > view.to) {
      const span = Math.max(view.to - view.from, T.dur[n] * 1.5);
      setView((s + e) / 2 - span / 2, (s + e) / 2 + span / 2);
    }
    scrollToRow(t, n);
    draw();
  };

  qp.onRangeChange = draw;

  // The hooks the browser test uses.
  qp.timelineState = () => ({
    from: view.from, to: view.to, width, height,
    tracks: tracks.map((tr) => ({ thread: tr.t, name: qp.threads[tr.t].name, y: AXIS + tr.y, rows: tr.rows, depth: tr.depth })),
    selected, row: ROW, head: HEAD, axis: AXIS, scroll: scrollTop(), paintMs,
  });
  qp.timelineXOf = (ns) => xOf(ns);

  qp.initTimeline = function initTimeline() {
    const section = document.getElementById('timeline');
    const canvas = document.getElementById('timeline-canvas');
    if (!section || !canvas || !canvas.getContext || qp.threads.length === 0) {
      if (section) section.hidden = true;
      return;
    }
    el = {
      section, canvas,
      scroll: document.getElementById('timeline-view'),
      spacer: document.getElementById('timeline-spacer'),
      tip: document.getElementById('timeline-tip'),
      span: document.getElementById('timeline-span'),
      expand: document.getElementById('timeline-rows'),
    };
    ctx = canvas.getContext('2d');
    wall = Math.max(qp.wall, 1);
    for (const T of qp.threads) {
      for (let n = 0; n < T.len; n += T.size[n]) wall = Math.max(wall, T.start[n] + T.dur[n]);
    }
    view.from = 0;
    view.to = wall;
    readColours();
    measure();
    layout();
    resize();
    canvas.addEventListener('mousedown', onDown);
    document.addEventListener('mousemove', onMove, { passive: true });
    document.addEventListener('mouseup', onUp);
    canvas.addEventListener('mouseleave', () => { if (!drag) hover(null); });
    canvas.addEventListener('dblclick', onDoubleClick);
    canvas.addEventListener('wheel', onWheel, { passive: false });
    el.scroll.addEventListener('keydown', onKey);
    el.scroll.addEventListener('scroll', draw, { passive: true });
    window.addEventListener('resize', resize);
    const scheme = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)');
    if (scheme && scheme.addEventListener) scheme.addEventListener('change', () => { readColours(); draw(); });
    const expandAll = () => {
      const open = tracks.some((tr) => tr.depth > COLLAPSED && !tr.open);
      for (const tr of tracks) tr.open = open;
      layout();
      resize();
    };
    const buttons = { 'timeline-rows': expandAll, 'timeline-zoom-in': () => zoom(1 / ZOOM_STEP), 'timeline-zoom-out': () => zoom(ZOOM_STEP), 'timeline-reset': () => setView(0, wall) };
    for (const [id, action] of Object.entries(buttons)) {
      const button = document.getElementById(id);
      if (button) button.addEventListener('click', action);
    }
  };
})();
