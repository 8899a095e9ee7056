// qprof viewer, part 16 of 18: the timeline, drawn on a <canvas> where timeline_geometry.js
// places it: the query slices coloured by outcome as in the tree. Only what is in view is
// walked: a subtree outside the shown time is skipped whole, and a slice narrower than a pixel
// is drawn as one pixel column per row, its subtree left out, so that a frame costs about the
// number of pixels, not of events. Start times come from the payload's gaps (trace.js). Under
// a thread's slices, a small graph per counter it recorded (qprof::counter): its values as
// steps, each held until the next. Pointing, keys and the links to other views: timeline.js.
(() => {
  'use strict';

  const MIN_LABEL = 28;    // px a slice needs for a label
  const DIM = 0.22;        // opacity of what a search does not match
  const MARK = 3;          // px: a search match narrower than this is marked this wide
  const GRAPH_TOP = 12;    // px of it above the plot: the counter's name and range

  const tl = qp.tl;
  const { ROW, HEAD, BAND, AXIS, GRAPH, MAX_HEIGHT } = tl;
  const { scale, xOf, scrollTop, sampleAt } = tl;

  let pending = 0;      // a requested frame
  let colours = {};
  let charWidth = 6;

  // A slice's colour: its provider's colour class for a run, a load or a pass, else its outcome's.
  function fillOf(T, n, outcome) {
    const colour = outcome === qp.HIT || outcome === qp.BLOCKED ? null : qp.colourClassOf(T, n);
    if (colour) return colours.classes[colour.index];
    return colours.outcome[outcome] || colours.outcome[0];
  }

  function readColours() {
    const style = getComputedStyle(document.documentElement);
    const v = (name) => style.getPropertyValue(name).trim() || '#888';
    colours = {
      outcome: qp.OUTCOMES.map((name) => v('--' + name)), // the palette's outcome colours
      classes: qp.colourClasses.map((c) => v('--class-' + c.colour)), // by colour class index
      bg: v('--bg'), fg: v('--fg'), muted: v('--muted'), panel: v('--panel'), rule: v('--rule'),
      focus: v('--focus'), range: v('--focus'), match: v('--match'), counter: v('--load'),
    };
  }

  function resize() {
    if (!tl.el.canvas) return;
    const ratio = window.devicePixelRatio || 1;
    tl.width = Math.max(100, tl.el.scroll.clientWidth);
    if (tl.maxHeight !== MAX_HEIGHT) tl.el.scroll.style.maxHeight = tl.maxHeight + 'px'; // viewer.css: 340px
    tl.height = Math.min(tl.maxHeight, AXIS + tl.tracksHeight);
    tl.el.canvas.width = Math.round(tl.width * ratio);
    tl.el.canvas.height = Math.round(tl.height * ratio);
    tl.el.canvas.style.width = tl.width + 'px';
    tl.el.canvas.style.height = tl.height + 'px';
    tl.el.spacer.style.height = Math.max(0, AXIS + tl.tracksHeight - tl.height) + 'px';
    tl.ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    tl.ctx.font = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
    charWidth = tl.ctx.measureText('abcdefghijklmnopqrstuvwxyz').width / 26;
    draw();
  }

  function draw() {
    if (!pending && tl.ctx) pending = requestAnimationFrame(paint);
  }

  function paint() {
    pending = 0;
    const began = performance.now();
    tl.ctx.fillStyle = colours.bg;
    tl.ctx.fillRect(0, 0, tl.width, tl.height);
    tl.ctx.font = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
    tl.ctx.textBaseline = 'middle';
    const top = AXIS - scrollTop();
    tl.drawn = 0;
    tl.lit = 0;
    tl.marks = 0;
    tl.drawnSamples = 0;
    for (const track of tl.tracks) {
      const y = top + track.y;
      if (track.band !== null && top + track.band <= tl.height && top + track.band + BAND >= AXIS) {
        paintBand(track, top + track.band);
      }
      if (y > tl.height || y + HEAD + track.rows * ROW + track.graphs * GRAPH < AXIS) continue;
      paintSlices(track, y + HEAD);
      paintMatchMarks(track, y + HEAD);
      paintCounters(track, top + track.graphY);
      paintHeader(track, y);
    }
    paintRange();
    paintMark(tl.selected, colours.focus, 2);
    paintMark(tl.hovered, colours.fg, 1);
    paintAxis();
    paintRangeLabel();
    updateSpan();
    tl.paintMs = performance.now() - began;
  }

  function paintHeader(track, y) {
    const T = qp.threads[track.t];
    tl.ctx.fillStyle = colours.panel;
    tl.ctx.fillRect(0, y, tl.width, HEAD - 2);
    tl.ctx.fillStyle = colours.fg;
    tl.ctx.font = '600 11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
    let text = T.name + ' \u00b7 ' + qp.durationText(track.busy) + ' busy \u00b7 ' +
      qp.percentText(track.busy) + ' \u00b7 ' + qp.thousands(T.len) + ' events';
    if (track.depth > tl.collapsed) {
      text += track.open ? ' \u00b7 ' + track.depth + ' rows (click to show ' + tl.collapsed + ')'
        : ' \u00b7 ' + track.rows + ' of ' + track.depth + ' rows (click for all)';
    }
    tl.ctx.fillText(text, 6, y + (HEAD - 2) / 2);
    tl.ctx.font = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  }

  // A process's band: a bar from its start to its end on the time axis, and its name, when it
  // started, how long it ran, its events and its command line; outlined while the statistics
  // count it alone (a click on it, timeline.js).
  function paintBand(track, y) {
    const p = qp.processOf(track.t);
    const P = qp.processes[p];
    tl.ctx.fillStyle = colours.rule;
    tl.ctx.fillRect(0, y + 1, tl.width, BAND - 3);
    const a = Math.max(xOf(P.start_ns), 0);
    const b = Math.min(xOf(P.start_ns + P.wall_ns), tl.width);
    if (b > a) {
      tl.ctx.fillStyle = colours.focus;
      tl.ctx.globalAlpha = 0.35;
      tl.ctx.fillRect(a, y + 1, Math.max(1, b - a), BAND - 3);
      tl.ctx.globalAlpha = 1;
    }
    if (qp.statsProcess === p) { // the statistics count this process only
      tl.ctx.strokeStyle = colours.focus;
      tl.ctx.lineWidth = 2;
      tl.ctx.strokeRect(1, y + 1, tl.width - 2, BAND - 3);
      tl.ctx.lineWidth = 1;
    }
    tl.ctx.fillStyle = colours.fg;
    tl.ctx.font = '700 11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
    tl.ctx.fillText(qp.processText(p), 6, y + (BAND - 2) / 2);
    tl.ctx.font = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  }

  // One thread's slices. lastX[row] is the pixel column a sub-pixel slice last took on that
  // row, lastRank[row] what took it: a search match over the rest, a run over a hit. While a
  // search is on, what it does not match is dimmed.
  function paintSlices(track, y0) {
    const T = qp.threads[track.t];
    const k = scale();
    const lastX = new Float64Array(track.rows).fill(-1);
    const lastRank = new Uint8Array(track.rows);
    const bottom = tl.height;
    const searching = qp.matcher != null;
    for (let n = 0; n < T.len;) {
      const s = T.start[n];
      const e = s + T.dur[n];
      const row = T.depth[n];
      const y = y0 + row * ROW;
      if (e < tl.view.from || s > tl.view.to || y > bottom || row >= track.rows) { n += T.size[n]; continue; }
      const outcome = qp.outcomeOf(T, n);
      const x = (s - tl.view.from) * k;
      const w = (e - s) * k;
      const lit = !searching || qp.isMatch(T, n);
      tl.drawn++;
      if (lit) tl.lit++;
      if (w < 1) {
        const column = Math.floor(x);
        const hit = outcome === qp.HIT;
        const rank = (lit ? 2 : 0) + (hit ? 0 : 1);
        if (lastX[row] !== column || rank > lastRank[row]) {
          lastX[row] = column;
          lastRank[row] = rank;
          tl.ctx.fillStyle = fillOf(T, n, outcome);
          tl.ctx.globalAlpha = (hit ? 0.9 : 0.75) * (lit ? 1 : DIM);
          if (hit) tl.ctx.fillRect(column, y + 4, 1, ROW - 8);
          else tl.ctx.fillRect(column, y + 1, 1, ROW - 2);
          tl.ctx.globalAlpha = 1;
        }
        n += T.size[n];
        continue;
      }
      if (y + ROW >= AXIS) paintSlice(track.t, n, x, w, y, lit && searching ? 'match' : lit ? 'lit' : 'dim');
      n++;
    }
  }

  // Each counter of a thread as steps from sample to sample, the last held to the end of the
  // run, scaled to its own range (0 included) with its name and range above it.
  function paintCounters(track, y0) {
    const T = qp.threads[track.t];
    const k = scale();
    for (let c = 0; c < T.counters.length; c++) {
      const C = T.counters[c];
      const y = y0 + c * GRAPH;
      if (y > tl.height || y + GRAPH < AXIS || C.time.length === 0) continue;
      const lo = Math.min(0, C.min);
      const hi = Math.max(C.max, lo + 1);
      const bottom = y + GRAPH - 2;
      const yOf = (v) => bottom - ((v - lo) / (hi - lo)) * (GRAPH - GRAPH_TOP - 2);
      tl.ctx.fillStyle = colours.panel;
      tl.ctx.fillRect(0, y, tl.width, GRAPH - 1);
      const first = Math.max(0, sampleAt(C, tl.view.from));
      tl.ctx.beginPath();
      let x = Math.max(-1, (C.time[first] - tl.view.from) * k);
      tl.ctx.moveTo(x, bottom);
      let i = first;
      for (; i < C.time.length && C.time[i] <= tl.view.to; i++) {
        const next = i + 1 < C.time.length ? C.time[i + 1] : tl.wall;
        x = Math.max(-1, (C.time[i] - tl.view.from) * k);
        tl.ctx.lineTo(x, yOf(C.value[i]));
        x = Math.min(tl.width + 1, (Math.min(next, tl.view.to) - tl.view.from) * k);
        tl.ctx.lineTo(x, yOf(C.value[i]));
      }
      tl.ctx.lineTo(x, bottom);
      tl.ctx.closePath();
      tl.ctx.fillStyle = colours.counter;
      tl.ctx.globalAlpha = 0.3;
      tl.ctx.fill();
      tl.ctx.globalAlpha = 1;
      tl.ctx.strokeStyle = colours.counter;
      tl.ctx.stroke();
      tl.drawnSamples += i - first;
      tl.ctx.fillStyle = colours.muted;
      tl.ctx.font = '10px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
      tl.ctx.fillText(qp.counterName(C.counter) + ' \u00b7 ' + qp.thousands(C.min) + ' \u2013 ' +
        qp.thousands(C.max), 6, y + GRAPH_TOP / 2);
      tl.ctx.font = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
    }
  }

  // The first index i in [lo, hi) of list whose node starts at `ns` or later (hi if none).
  function firstFrom(T, list, lo, hi, ns) {
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (T.start[list[m]] < ns) lo = m + 1; else hi = m;
    }
    return lo;
  }

  // Every search match narrower than MARK px gets a marker MARK px wide on its row (the last
  // row shown when its own is folded away), so that no match hides in a merged pixel column
  // or a subtree too small to walk, at any zoom. The matches come by depth, each depth's in
  // order of start and disjoint in time: after a marker, a binary search skips the matches it
  // covers, and wide ones (drawn as themselves, outlined) are at most one per MARK px, so a
  // frame costs the markers drawn, not the matches -- a search may match millions.
  function paintMatchMarks(track, y0) {
    const byDepth = qp.matchesByDepth ? qp.matchesByDepth(track.t) : null;
    if (!byDepth) return;
    const { list, at } = byDepth;
    const T = qp.threads[track.t];
    const k = scale();
    const last = track.rows - 1;
    // The last row takes every deeper depth's markers: the columns taken there, from -MARK.
    const taken = new Uint8Array(Math.ceil(tl.width) + 3 * MARK);
    tl.ctx.fillStyle = colours.match;
    for (let d = 0; d + 1 < at.length; d++) {
      const row = Math.min(d, last);
      const y = y0 + row * ROW;
      if (at[d] === at[d + 1] || y + ROW < AXIS || y > tl.height) continue;
      const end = at[d + 1];
      for (let i = firstFrom(T, list, at[d], end, tl.view.from - MARK / k); i < end;) {
        const n = list[i];
        if (T.start[n] > tl.view.to) break;
        if (d <= last && T.dur[n] * k >= MARK) { i++; continue; }
        const x = Math.floor((T.start[n] - tl.view.from) * k);
        // The marker covers the columns x - 1 .. x + MARK - 2: the matches in them need none.
        if (d < last || taken[x + MARK] === 0) {
          tl.ctx.fillRect(x - 1, y, MARK, ROW);
          tl.marks++;
          if (d >= last) taken.fill(1, x + MARK, x + 2 * MARK - 1);
        }
        i = firstFrom(T, list, i + 1, end, tl.view.from + (x + MARK - 1) / k);
      }
    }
  }

  // `look`: 'lit', 'dim' (a search does not match it) or 'match' (it does: outlined).
  function paintSlice(t, n, x, w, y, look) {
    const T = qp.threads[t];
    const row = T.depth[n];
    const left = Math.max(x, -1);
    const right = Math.min(x + w, tl.width + 1);
    tl.ctx.fillStyle = fillOf(T, n, qp.outcomeOf(T, n));
    tl.ctx.globalAlpha = (row % 2 === 0 ? 0.9 : 0.72) * (look === 'dim' ? DIM : 1);
    tl.ctx.fillRect(left, y + 1, Math.max(1, right - left - (w > 4 ? 1 : 0)), ROW - 2);
    tl.ctx.globalAlpha = 1;
    if (look === 'match') {
      tl.ctx.strokeStyle = colours.match;
      tl.ctx.lineWidth = 2;
      tl.ctx.strokeRect(left + 1, y + 1, Math.max(1, right - left - 2), ROW - 2);
      tl.ctx.lineWidth = 1;
    }
    if (qp.isUnfinished(T, n)) {
      tl.ctx.strokeStyle = colours.fg;
      tl.ctx.setLineDash([3, 2]);
      tl.ctx.strokeRect(left + 0.5, y + 1.5, right - left - 1, ROW - 3);
      tl.ctx.setLineDash([]);
    }
    if (right - left < MIN_LABEL) return;
    const room = Math.floor((right - left - 6) / charWidth);
    let text = qp.nodeName(t, n);
    const full = text + ' ' + qp.durationText(T.dur[n]);
    if (full.length <= room) text = full;
    else if (text.length > room) text = text.slice(0, Math.max(1, room - 1)) + '\u2026';
    tl.ctx.fillStyle = colours.bg;
    tl.ctx.fillText(text, left + 3, y + ROW / 2);
  }

  // An outline around the slice of `at` ({t, n}), widened to be seen when it is narrow.
  function paintMark(at, colour, lineWidth) {
    if (!at) return;
    const T = qp.threads[at.t];
    const track = tl.tracks[at.t];
    if (!T || !track || at.n >= T.len) return;
    const y = AXIS - scrollTop() + track.y + HEAD + T.depth[at.n] * ROW;
    const x = xOf(T.start[at.n]);
    const w = Math.max(3, T.dur[at.n] * scale());
    if (x > tl.width || x + w < 0 || y + ROW < AXIS || y > tl.height) return;
    tl.ctx.strokeStyle = colour;
    tl.ctx.lineWidth = lineWidth;
    tl.ctx.strokeRect(Math.max(-1, x - 1) + 0.5, y + 0.5, Math.min(w + 1, tl.width + 2), ROW - 1);
    tl.ctx.lineWidth = 1;
  }

  function paintRange() {
    const r = tl.drag && tl.drag.kind === 'range' ? tl.drag : qp.range;
    if (!r) return;
    const a = xOf(Math.min(r.from, r.to));
    const b = xOf(Math.max(r.from, r.to));
    tl.ctx.fillStyle = colours.range;
    tl.ctx.globalAlpha = 0.14;
    tl.ctx.fillRect(a, 0, b - a, tl.height);
    tl.ctx.globalAlpha = 1;
    tl.ctx.strokeStyle = colours.range;
    tl.ctx.beginPath();
    tl.ctx.moveTo(Math.round(a) + 0.5, 0);
    tl.ctx.lineTo(Math.round(a) + 0.5, tl.height);
    tl.ctx.moveTo(Math.round(b) + 0.5, 0);
    tl.ctx.lineTo(Math.round(b) + 0.5, tl.height);
    tl.ctx.stroke();
  }

  // The range's length on the axis, over its middle (while it is dragged, too).
  function paintRangeLabel() {
    const r = tl.drag && tl.drag.kind === 'range' ? tl.drag : qp.range;
    if (!r) return;
    const text = qp.durationText(Math.abs(r.to - r.from));
    const w = tl.ctx.measureText(text).width + 10;
    const middle = (xOf(r.from) + xOf(r.to)) / 2;
    const x = Math.min(Math.max(middle - w / 2, 0), tl.width - w);
    tl.ctx.fillStyle = colours.range;
    tl.ctx.fillRect(x, 2, w, AXIS - 5);
    tl.ctx.fillStyle = colours.bg;
    tl.ctx.fillText(text, x + 5, AXIS / 2);
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
    const [size, name] = units.find(([u]) => tl.view.to >= u) || units[3];
    const digits = Math.min(6, Math.max(0, Math.ceil(Math.log10(size / step) - 1e-9)));
    return (ns / size).toFixed(digits) + name;
  }

  function paintAxis() {
    tl.ctx.fillStyle = colours.bg;
    tl.ctx.fillRect(0, 0, tl.width, AXIS);
    tl.ctx.strokeStyle = colours.rule;
    tl.ctx.fillStyle = colours.muted;
    const step = tickStep();
    tl.ctx.beginPath();
    for (let ns = Math.ceil(tl.view.from / step) * step; ns <= tl.view.to; ns += step) {
      const x = Math.round(xOf(ns)) + 0.5;
      tl.ctx.moveTo(x, AXIS - 6);
      tl.ctx.lineTo(x, tl.height);
      tl.ctx.fillText(tickText(ns, step), x + 3, AXIS / 2 - 2);
    }
    tl.ctx.moveTo(0, AXIS - 0.5);
    tl.ctx.lineTo(tl.width, AXIS - 0.5);
    tl.ctx.globalAlpha = 0.5;
    tl.ctx.stroke();
    tl.ctx.globalAlpha = 1;
  }

  function updateSpan() {
    if (!tl.el.span) return;
    const text = qp.durationText(tl.view.from) + ' \u2013 ' + qp.durationText(tl.view.to) +
      ' \u00b7 ' + qp.durationText(tl.view.to - tl.view.from) + ' shown';
    if (tl.el.span.textContent !== text) tl.el.span.textContent = text;
  }

  // What timeline_geometry.js and timeline.js use.
  Object.assign(tl, { readColours, resize, draw });
})();
