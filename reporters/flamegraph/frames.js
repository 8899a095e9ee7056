// qprof flame graph, part 1 of 3: the frames. Decodes the JSON payload into typed arrays once,
// lays every frame out (its start within the root and its depth), and answers searches. A
// frame's width (F.width) is its inclusive time, or with memory recorded and the switch on,
// the bytes allocated inside it. The payload is described in docs/flamegraph-report.md.
//
// The three files are concatenated (frames.js, draw.js, main.js) into one classic script,
// after the viewers' common base (reporters/viewer_common/: `qv`, formatting and the palette).
// This file declares the shared namespace `fg`; each file is an IIFE that adds to it.
const fg = {};

(() => {
  'use strict';

  const COLUMNS = ['parent', 'name', 'kind', 'count', 'total_ns', 'self_ns', 'hits'];
  const MEMORY_COLUMNS = ['total_bytes', 'self_bytes']; // with -Z profile-queries-memory

  function column(frames, name, Type, len) {
    const values = frames[name];
    if (!Array.isArray(values) || values.length !== len) {
      throw new Error('frames.' + name + ' is not an array of ' + len + ' numbers');
    }
    return Type.from(values);
  }

  fg.load = function load(payload) {
    if (!payload || payload.format !== 'qprof-flamegraph') throw new Error('not a qprof flame graph');
    const raw = payload.frames || {};
    const len = Array.isArray(raw.parent) ? raw.parent.length : 0;
    const F = { len };
    for (const name of COLUMNS) {
      F[name] = column(raw, name, name === 'parent' || name === 'name' || name === 'kind' ? Int32Array : Float64Array, len);
    }
    fg.memory = MEMORY_COLUMNS.every((name) => Array.isArray(raw[name]));
    if (fg.memory) for (const name of MEMORY_COLUMNS) F[name] = column(raw, name, Float64Array, len);
    // A colour class: its name and its palette slot, --class-N; frames.class is 1 + its index.
    fg.classes = Array.isArray(payload.classes)
      ? payload.classes.map((c) => ({ name: String(c.name), colour: Number(c.colour) | 0 })) : [];
    F.class = Array.isArray(raw.class) ? column(raw, 'class', Int32Array, len) : new Int32Array(len);
    // A frame whose name adds an activity's argument names its provider here; else its name.
    F.provider = Array.isArray(raw.provider) ? column(raw, 'provider', Int32Array, len) : F.name;
    fg.names = Array.isArray(payload.names) ? payload.names.map(String) : [];
    fg.kinds = Array.isArray(payload.kinds) ? payload.kinds.map(String) : [];
    layout(F);
    F.wait_ns = waits(F);
    fg.F = F;
    fg.weigh(false);
  };

  // The time each frame waited: its own if blocked, else its children's. A share is of work,
  // a frame's time less its waits, over the busy time, as in profile_queries.html.
  function waits(F) {
    const blocked = fg.kinds.indexOf('blocked');
    const wait = new Float64Array(F.len);
    for (let i = F.len - 1; i >= 0; i--) {
      if (F.kind[i] === blocked) wait[i] = Math.max(0, F.total_ns[i]);
      if (i > 0) wait[F.parent[i]] += wait[i];
    }
    return wait;
  }

  // Frames as wide as their bytes (with memory recorded) or as their time; lays them out again.
  fg.weigh = function weigh(bytes) {
    const F = fg.F;
    fg.byBytes = bytes && fg.memory;
    F.width = fg.byBytes ? F.total_bytes : F.total_ns;
    F.selfWidth = fg.byBytes ? F.self_bytes : F.self_ns;
    place(F);
    fg.total = F.len > 0 ? Math.max(0, F.width[0]) : 0;
    fg.busy = fg.byBytes ? fg.total : Math.max(0, fg.total - (F.len > 0 ? F.wait_ns[0] : 0));
  };

  // Each frame's start within the root, after its earlier siblings (children follow their parent).
  function place(F) {
    const { len, parent, width } = F;
    const x = F.x || (F.x = new Float64Array(len));
    const used = new Float64Array(len); // width already taken by children
    for (let i = 0; i < len; i++) {
      if (width[i] < 0 || !Number.isFinite(width[i])) width[i] = 0;
      if (i === 0) continue;
      x[i] = x[parent[i]] + used[parent[i]];
      used[parent[i]] += width[i];
    }
  }

  // Depth, queries asked and children, once; checks that parents come first.
  function layout(F) {
    const { len, parent, kind } = F;
    const depth = new Int32Array(len);
    const asked = new Float64Array(len); // queries asked that were not hits
    const childCount = new Int32Array(len + 1);
    const queryKind = fg.kinds.map((k) => k === 'miss' || k === 'blocked' || k === 'load');
    for (let i = 0; i < len; i++) {
      const p = parent[i];
      if (i === 0 ? p !== -1 : !(p >= 0 && p < i)) {
        throw new Error('frame ' + i + ' has parent ' + p + '; parents come first and frame 0 is the root');
      }
      if (i === 0) continue;
      depth[i] = depth[p] + 1;
      childCount[p]++;
      if (queryKind[kind[i]]) asked[p] += F.count[i];
    }
    // Children as one flat array (CSR), in frame order: first run first.
    const childStart = new Int32Array(len + 1);
    for (let i = 0; i < len; i++) childStart[i + 1] = childStart[i] + childCount[i];
    const children = new Int32Array(Math.max(0, len - 1));
    const fill = childStart.slice(0, len);
    for (let i = 1; i < len; i++) children[fill[parent[i]]++] = i;
    Object.assign(F, { depth, asked, childStart, children });
  }

  fg.kindOf = (i) => fg.kinds[fg.F.kind[i]] || '?';
  fg.nameOf = (i) => fg.names[fg.F.name[i]] || '';
  fg.providerOf = (i) => fg.names[fg.F.provider[i]] || '';
  fg.classOf = (i) => fg.classes[fg.F.class[i] - 1] || null; // {name, colour}, or null
  fg.isProvider = (i) => { const k = fg.kindOf(i); return k !== 'all' && k !== 'thread'; };

  // Frames whose provider name contains the text, ignoring case. `share` counts the time of a
  // match inside another match once.
  fg.find = function find(text) {
    const query = String(text).trim().toLowerCase();
    const F = fg.F;
    if (query === '' || !F) return null;
    const named = fg.names.map((n) => n.toLowerCase().includes(query));
    const mask = new Uint8Array(F.len);
    const covered = new Uint8Array(F.len);
    let count = 0;
    let ns = 0;
    for (let i = 0; i < F.len; i++) {
      const under = i > 0 && covered[F.parent[i]] === 1;
      if (named[F.name[i]] && fg.isProvider(i)) {
        mask[i] = 1;
        count++;
        if (!under) ns += fg.workOf(i);
      }
      covered[i] = mask[i] === 1 || under ? 1 : 0;
    }
    return { query, mask, count, ns };
  };

  // Shares are of work over the busy time (every thread's time less its waits), or of bytes
  // over all bytes allocated; each says which (reporters/viewer_common/format.js formats them).
  fg.workOf = (i) => (fg.byBytes ? fg.F.width[i] : Math.max(0, fg.F.width[i] - fg.F.wait_ns[i]));
  fg.shareBasis = () => (fg.byBytes ? 'of all bytes allocated' : 'of busy time');
  fg.percentText = (work) => qv.shareText(work, fg.busy) + ' ' + fg.shareBasis();
  // A frame's share; a wait does no work, so it has none.
  fg.shareOf = (i) => (!fg.byBytes && fg.kindOf(i) === 'blocked' ? 'waiting' : fg.percentText(fg.workOf(i)));
  // How many of the frames in `mask` the zoomed view leaves out: those neither inside the
  // zoomed frame z nor below it (its ancestors span the width).
  fg.outsideZoom = function outsideZoom(mask, z) {
    const F = fg.F;
    const shown = new Uint8Array(F.len);
    for (let a = z; a > 0; a = F.parent[a]) shown[a] = 1;
    shown[0] = 1;
    const inside = new Uint8Array(F.len);
    let outside = 0;
    for (let i = 0; i < F.len; i++) {
      inside[i] = i === z || (i > z && inside[F.parent[i]] === 1) ? 1 : 0;
      if (mask[i] === 1 && inside[i] === 0 && shown[i] === 0) outside++;
    }
    return outside;
  };
  // A width as time or bytes, as the frames are weighed.
  fg.widthText = (width) => (fg.byBytes ? qv.bytesText(width) : qv.durationText(width));
})();
