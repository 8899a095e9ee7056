// qprof flame graph, part 2 of 3: drawing on the canvas. The root is at the bottom; a frame is
// as wide as its inclusive time within the zoomed frame, whose ancestors span the whole width
// below it. Frames narrower than half a pixel are left out with all they hold, so a draw costs
// what is visible, not what is in the trace. What was drawn is kept for hit testing.
(() => {
  'use strict';

  const ROW = 18;          // px per level
  const MIN_WIDTH = 0.5;   // px; narrower frames are not drawn
  const LABEL_MIN = 24;    // px; narrower frames get no text
  const PAD = 4;           // px of text inset
  const HIT_STRIP = 3;     // px; the share of asked queries the cache answered
  const FONT = '12px system-ui, -apple-system, "Segoe UI", sans-serif';

  fg.view = { zoom: 0, match: null, hover: -1, outside: 0 };
  fg.drawn = { frame: [], left: [], width: [], canvasWidth: 0, maxDepth: 0 };

  let theme = null;
  let nameWidth = null;
  const colours = new Map();

  // FNV-1a: the same provider gets the same colour in every run and every page.
  function hash(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
  }

  // A frame takes the hue of its kind from the common palette (the outcome colours of
  // reporters/viewer_common/theme.css, as in the HTML report's tree and timeline), and a shade
  // of it from its provider's name: runs spread over the warm hues from --miss, the other kinds
  // stay close to theirs. Lightness stays in a band where the dark frame text reads.
  const SHADES = {
    miss: { variable: '--miss', hues: 30, saturation: [62, 84] },
    activity: { variable: '--activity', hues: 24, saturation: [40, 58] },
    blocked: { variable: '--blocked', hues: 8, saturation: [34, 46] },
    load: { variable: '--load', hues: 16, saturation: [42, 56] },
    thread: { variable: '--muted', hues: 0, saturation: [8, 8], lightness: 70 },
    all: { variable: '--muted', hues: 0, saturation: [8, 8], lightness: 58 },
  };

  // The hue (degrees) of a CSS colour written #rrggbb, as the palette writes them.
  function hueOf(colour) {
    const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
    if (!m) return 0;
    const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16) / 255);
    const max = Math.max(r, g, b);
    const range = max - Math.min(r, g, b);
    if (range === 0) return 0;
    const h = max === r ? (g - b) / range : max === g ? 2 + (b - r) / range : 4 + (r - g) / range;
    return (60 * h + 360) % 360;
  }

  // A colour class's frames (runs, loads and passes of its providers; waits keep theirs) take
  // its palette colour's hue, --class-N, shaded like the kinds'.
  const CLASS_SHADE = { hues: 12, saturation: [48, 66] };
  const CLASS_SLOTS = 6; // --class-0 ... --class-5 (reporters/html_payload_layout.hpp)

  function shadeOf(kind, h, colourClass) {
    const shade = colourClass ? CLASS_SHADE : SHADES[kind] || SHADES.thread;
    const [low, high] = shade.saturation;
    const base = colourClass ? theme.classHues[colourClass.colour] : theme.hues[kind];
    const hue = base + (shade.hues > 0 ? (h % shade.hues) - (kind === 'miss' && !colourClass ? 0 : shade.hues / 2) : 0);
    const saturation = low + ((h >>> 8) % (high - low + 1));
    const lightness = shade.lightness || 56 + ((h >>> 16) % 12);
    return `hsl(${hue.toFixed(0)}, ${saturation}%, ${lightness}%)`;
  }

  function colourOf(i) {
    const kind = fg.kindOf(i);
    const colourClass = kind === 'miss' || kind === 'load' || kind === 'activity' ? fg.classOf(i) : null;
    const key = kind + '\u0000' + fg.F.provider[i] + '\u0000' + fg.F.class[i];
    let colour = colours.get(key);
    if (colour === undefined) {
      colour = shadeOf(kind, hash(fg.providerOf(i)), colourClass); // a pass's units share its colour
      colours.set(key, colour);
    }
    return colour;
  }

  fg.colourOf = colourOf; // the fill a frame takes when no search dims it

  fg.readTheme = function readTheme() {
    const style = getComputedStyle(document.documentElement);
    const get = (name) => style.getPropertyValue(name).trim();
    const hues = {};
    for (const kind of Object.keys(SHADES)) hues[kind] = hueOf(get(SHADES[kind].variable));
    const classHues = [];
    for (let slot = 0; slot < CLASS_SLOTS; slot++) classHues.push(hueOf(get('--class-' + slot)));
    theme = {
      background: get('--bg'), text: get('--frame-text'), dim: get('--dim'), dimText: get('--dim-text'),
      match: get('--match'), hit: get('--hit'), outline: get('--outline'), hues, classHues,
    };
    colours.clear();
  };

  function fit(ctx, i, room) {
    const n = fg.F.name[i];
    const name = fg.names[n] || '';
    if (nameWidth[n] < 0) nameWidth[n] = ctx.measureText(name).width;
    if (nameWidth[n] <= room) return name;
    const chars = Math.floor((name.length * (room - nameWidth.ellipsis)) / nameWidth[n]);
    return chars >= 3 ? name.slice(0, chars) + '\u2026' : '';
  }

  function drawFrame(ctx, i, left, width, y) {
    const F = fg.F;
    const match = fg.view.match;
    const dimmed = match !== null && match.mask[i] === 0;
    ctx.fillStyle = dimmed ? theme.dim : match !== null ? theme.match : colourOf(i);
    ctx.fillRect(left, y, width > 2 ? width - 1 : width, ROW - 1);
    if (F.hits[i] > 0 && !dimmed) {
      const share = F.hits[i] / (F.hits[i] + F.asked[i]);
      ctx.fillStyle = theme.hit;
      ctx.fillRect(left, y, Math.max(1, (width > 2 ? width - 1 : width) * share), HIT_STRIP);
    }
    if (width >= LABEL_MIN) {
      const text = fit(ctx, i, width - 2 * PAD);
      if (text !== '') {
        ctx.fillStyle = dimmed ? theme.dimText : theme.text;
        ctx.fillText(text, left + PAD, y + ROW / 2 + 1);
      }
    }
  }

  // Sizes the canvas to its box at the device's pixel ratio, as tall as the levels drawn.
  function fitCanvas(canvas, ctx, width, height) {
    const ratio = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.width = width + 'px';
      canvas.style.height = height + 'px';
    }
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  }

  // Which frames are at least MIN_WIDTH wide in the zoomed view, and where; no drawing yet,
  // so that the canvas can first be made as tall as they need.
  function place(width) {
    const F = fg.F;
    const z = fg.view.zoom;
    const from = F.x[z];
    const scale = width / Math.max(1, F.width[z]);
    const drawn = fg.drawn;
    drawn.frame.length = drawn.left.length = drawn.width.length = 0;
    drawn.canvasWidth = width;
    drawn.maxDepth = 0;
    const stack = [0];
    while (stack.length > 0) {
      const i = stack.pop();
      const start = (F.x[i] - from) * scale;
      const left = Math.max(0, start);
      const right = Math.min(width, start + F.width[i] * scale);
      if (right - left < MIN_WIDTH) continue; // and so are its children, narrower still
      drawn.frame.push(i);
      drawn.left.push(left);
      drawn.width.push(right - left);
      if (F.depth[i] > drawn.maxDepth) drawn.maxDepth = F.depth[i];
      for (let c = F.childStart[i + 1] - 1; c >= F.childStart[i]; c--) stack.push(F.children[c]);
    }
  }

  fg.draw = function draw() {
    const ctx = fg.ctx;
    const width = Math.max(1, Math.floor(fg.canvas.parentElement.clientWidth));
    place(width);
    const drawn = fg.drawn;
    const height = (drawn.maxDepth + 1) * ROW;
    fitCanvas(fg.canvas, ctx, width, height);
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, width, height);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    if (nameWidth === null) {
      nameWidth = new Float64Array(fg.names.length).fill(-1);
      nameWidth.ellipsis = ctx.measureText('\u2026').width;
    }
    for (let k = 0; k < drawn.frame.length; k++) {
      drawFrame(ctx, drawn.frame[k], drawn.left[k], drawn.width[k], fg.rowTop(drawn.frame[k]));
    }
    const hover = fg.view.hover >= 0 ? fg.box(fg.view.hover) : null;
    if (hover !== null) {
      ctx.strokeStyle = theme.outline;
      ctx.lineWidth = 2;
      ctx.strokeRect(hover.left + 1, hover.top + 1, Math.max(1, hover.width - 2), ROW - 3);
    }
  };

  fg.rowTop = (i) => (fg.drawn.maxDepth - fg.F.depth[i]) * ROW;

  // The frame drawn at a point of the canvas (CSS px), or -1.
  fg.frameAt = function frameAt(x, y) {
    const depth = fg.drawn.maxDepth - Math.floor(y / ROW);
    const { frame, left, width } = fg.drawn;
    for (let k = 0; k < frame.length; k++) {
      if (fg.F.depth[frame[k]] === depth && x >= left[k] && x < left[k] + width[k]) return frame[k];
    }
    return -1;
  };

  // Where a frame was drawn (CSS px within the canvas), or null when it was not.
  fg.box = function box(i) {
    const k = fg.drawn.frame.indexOf(i);
    if (k < 0) return null;
    return { left: fg.drawn.left[k], top: fg.rowTop(i), width: fg.drawn.width[k], height: ROW - 1 };
  };
})();
