// qprof viewer, part 15 of 18: the timeline's geometry -- what is where. One track per thread
// on one time axis, under its header; its slices nested by depth, one row each, a track
// showing a few rows until it is opened; under them a graph per counter; in a merged build a
// band per process above its tracks. The view is a span of time scaled to the canvas's width;
// zoom and pan move it. Drawing: timeline_draw.js; pointing, keys and links: timeline.js.
(() => {
  'use strict';

  const ROW = 15;          // px per depth row
  const HEAD = 17;         // px of a track's header, the thread's name
  const BAND = 19;         // px of a process's band above its tracks (a merged build)
  const AXIS = 22;         // px of the time axis at the top
  const MAX_HEIGHT = 340;  // px of canvas at most; a taller timeline scrolls
  const BUILD_MAX_HEIGHT = 600; // the same in a merged build, whose timeline is its overview
  const COLLAPSED = 6;     // rows a track shows until it is expanded, so that all fit
  const BUILD_COLLAPSED = 2; // the same in a merged build: its processes' tracks, at a glance
  const MIN_SPAN = 1000;   // ns shown at the deepest zoom
  const GRAPH = 30;        // px of a counter's graph under its thread's slices

  // What the timeline's files share (this one places, timeline_draw.js draws, timeline.js
  // handles input).
  const tl = {
    view: { from: 0, to: 1 }, // ns from the session start
    wall: 1,
    collapsed: COLLAPSED, // rows a track shows until it is expanded
    maxHeight: MAX_HEIGHT, // px of canvas at most
    tracks: [],      // per thread: {t, y, depth, rows, busy, open, band, graphs, graphY}, y from
                     // the tracks' top; band: the y of its process's band when it is the
                     // process's first track; graphs: its counters, drawn from graphY on
    selected: null,  // {t, n}
    hovered: null,
    drag: null,      // {kind: 'pan' | 'range', x, from, to, view, moved}
    el: {},
    ctx: null,
    width: 0,
    height: 0,
    tracksHeight: 0, // px of all tracks, as layout() placed them
    paintMs: 0,      // how long the last frame took to draw, for html_page_benchmark.mjs
    drawn: 0,        // slices and pixel columns the last frame walked, and how many of
    lit: 0,          // them were not dimmed by a search
    marks: 0,        // search matches too narrow to see, marked MARK px wide
    drawnSamples: 0, // counter samples the last frame drew
  };
  qp.tl = tl;

  const scale = () => tl.width / (tl.view.to - tl.view.from); // px per ns
  const xOf = (ns) => (ns - tl.view.from) * scale();
  const nsOf = (x) => tl.view.from + x / scale();
  const scrollTop = () => (tl.el.scroll ? tl.el.scroll.scrollTop : 0);

  function setView(from, to) {
    const span = Math.min(Math.max(to - from, MIN_SPAN), tl.wall);
    let a = from + (to - from - span) / 2;
    a = Math.min(Math.max(a, 0), tl.wall - span);
    tl.view.from = a;
    tl.view.to = a + span;
    tl.draw();
  }

  function zoom(factor, atX) {
    const x = atX == null ? tl.width / 2 : atX;
    const at = nsOf(x);
    const span = (tl.view.to - tl.view.from) * factor;
    setView(at - (x / tl.width) * span, at - (x / tl.width) * span + span);
  }

  function pan(px) {
    const ns = px / scale();
    setView(tl.view.from + ns, tl.view.to + ns);
  }

  function measure() {
    const build = qp.processes.length > 1;
    tl.collapsed = build ? BUILD_COLLAPSED : COLLAPSED;
    tl.maxHeight = build ? BUILD_MAX_HEIGHT : MAX_HEIGHT;
    tl.tracks = qp.threads.map((T, t) => {
      const depth = Math.max(1, T.levels); // its depths, counted as trace.js derived them
      let busy = 0;
      for (let n = 0; n < T.len; n += T.size[n]) busy += qp.workOf(T, n); // waits are not busy
      return { t, y: 0, depth, rows: 0, busy, open: false, band: null, graphs: T.counters.length, graphY: 0 };
    });
  }

  // A track shows tl.collapsed rows until it is opened (a click on its header, or the button).
  // In a merged build, each process's tracks follow a band that names it.
  function layout() {
    let y = 0;
    let process = -1;
    for (const track of tl.tracks) {
      const p = qp.processOf(track.t);
      track.band = p >= 0 && p !== process ? y : null;
      if (track.band !== null) y += BAND;
      process = p;
      track.y = y;
      track.rows = track.open ? track.depth : Math.min(track.depth, tl.collapsed);
      track.graphY = y + HEAD + track.rows * ROW;
      y += HEAD + track.rows * ROW + track.graphs * GRAPH + 4;
    }
    tl.tracksHeight = y;
    if (tl.el.expand) {
      const deep = tl.tracks.some((tr) => tr.depth > tl.collapsed);
      tl.el.expand.hidden = !deep;
      tl.el.expand.textContent = tl.tracks.some((tr) => tr.depth > tl.collapsed && !tr.open) ? 'All rows' : 'Fewer rows';
    }
  }

  function openTrack(track, open) {
    if (track.open === open || track.depth <= tl.collapsed) return;
    track.open = open;
    layout();
    tl.resize();
  }

  // The index of the last sample of series C at or before `ns`, or -1.
  function sampleAt(C, ns) {
    let lo = 0;
    let hi = C.time.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (C.time[m] <= ns) lo = m + 1; else hi = m;
    }
    return lo - 1;
  }

  // The counter graph at canvas point (x, y): {t, c, i} (thread, series, sample), or null.
  function counterAt(x, y) {
    const inTracks = y - AXIS + scrollTop();
    if (y < AXIS) return null;
    const track = tl.tracks.find((tr) => inTracks >= tr.graphY && inTracks < tr.graphY + tr.graphs * GRAPH);
    if (!track) return null;
    const c = Math.floor((inTracks - track.graphY) / GRAPH);
    const C = qp.threads[track.t].counters[c];
    const i = sampleAt(C, nsOf(x));
    return i < 0 ? null : { t: track.t, c, i };
  }

  // What timeline_draw.js and timeline.js use.
  Object.assign(tl, {
    ROW, HEAD, BAND, AXIS, MIN_SPAN, GRAPH, MAX_HEIGHT,
    scale, xOf, nsOf, scrollTop, sampleAt, setView, zoom, pan, counterAt, measure, layout, openTrack,
  });
})();
