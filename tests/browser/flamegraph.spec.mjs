// The flamegraph reporter's page, checked in headless Chromium.
//
// Runs toyc at its default size with -Z profile-queries=flamegraph, opens the
// profile_queries.flamegraph.html it writes, and checks it as a user meets it: the page becomes
// ready, frames are drawn, hovering shows a tooltip, a real click zooms into a frame and the
// reset button and Escape undo it, a search highlights a provider and shows its share, and
// nothing is ever reported on the console. Saves flamegraph_initial.png, flamegraph_search.png
// and flamegraph.png (zoomed in, a tooltip shown) in the output folder.
//
//   node tests/browser/run.mjs flamegraph.spec.mjs --toyc build/examples/toyc --out /tmp/flamegraph
//   node tests/browser/run.mjs flamegraph.spec.mjs --page /tmp/x/profile_queries.flamegraph.html \
//       --out /tmp/flamegraph
import fs from 'node:fs';
import path from 'node:path';

import {CheckFailed, call, check, checkMarkupEscaped, checkNoProblems, checkReady, click, fileUrl,
  inputs, js, navigate, note, runCommand, settle, test, watchProblems} from './harness.mjs';

const PAGE_NAME = 'profile_queries.flamegraph.html';
const READY_TIMEOUT_MS = 10000;
const SEARCH_TIMEOUT_MS = 30000; // generous: a loaded CI machine can be slow
const PAINT_TIMEOUT_MS = 10000; // on a loaded machine, drawing can lag a frame or more
const PERCENT_RE = /(\d+\.\d|<0\.1) %/;
const STATUS_RE = /^([\d,]+) frames?, (\d+\.\d|<0\.1) % of busy time$/;
// Zoomed away from every match: how many the view leaves out, and how to see them.
const OUTSIDE_RE = /^([\d,]+) frames?, (\d+\.\d|<0\.1) % of busy time \u00b7 (all|[\d,]+) outside the zoomed frame: Reset zoom shows them$/;

/** The viewer's state: frames, drawn, zoom, hover, search, matches, share, canvasWidth. */
function state(page) {
  return js(page, 'window.qprofFlame.state()');
}

function sleep(ms) {
  return new Promise((done) => setTimeout(done, ms));
}

/** Runs toyc with the flamegraph reporter into the output folder; returns the page's path. */
async function runToyc() {
  const page = path.join(inputs.out, PAGE_NAME);
  fs.rmSync(page, {force: true}); // a stale page must not pass for a new one
  const command = [inputs.toyc, '-Z', 'profile-queries=flamegraph', '-Z',
    'profile-queries-dir=' + inputs.out];
  await runCommand([...command, ...inputs.toycArgs], 'toyc');
  if (!fs.existsSync(page)) throw new CheckFailed(`${command.join(' ')} wrote no ${page}`);
  note(`wrote ${page} (${(fs.statSync(page).size / 1e3).toFixed(1)} kB)`);
  return page;
}

// ----- checks -----

/** The canvas has pixels of many colours, and the state says which frames are drawn. */
async function checkDrawn(ctx) {
  const colours = await js(ctx.page, `(() => {
    const canvas = document.getElementById('flame-canvas');
    const copy = document.createElement('canvas');
    copy.width = canvas.width; copy.height = canvas.height;
    const ctx = copy.getContext('2d', {willReadFrequently: true});
    ctx.drawImage(canvas, 0, 0);
    const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4 * 97) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return {colours: seen.size, width: canvas.width, height: canvas.height};
  })()`);
  const now = await state(ctx.page);
  if (colours.colours < 8 || now.drawn < 10) {
    throw new CheckFailed(`the canvas (${colours.width}x${colours.height}) has ` +
                          `${colours.colours} colours and ${now.drawn} frames drawn`);
  }
  return `${now.drawn} of ${now.frames} frames drawn, ${colours.colours} colours on a ` +
         `${colours.width}x${colours.height} canvas`;
}

/**
 * A frame worth zooming into: of the visible provider and activity frames at least 6 px and
 * under 60 % of the width wide, the one whose zoomed view shows the most frames. Kept as
 * ctx.target for the checks after.
 */
async function pickTarget(ctx) {
  const target = await js(ctx.page, `(() => {
    const api = window.qprofFlame, s = api.state(), candidates = [];
    for (let i = 1; i < s.frames; i++) {
      const box = api.frameBox(i);
      if (box && api.frame(i).kind !== 'thread' && box.width >= 6 &&
          box.width < 0.6 * s.canvasWidth && box.y > 0 && box.y + box.height < innerHeight)
        candidates.push({frame: i, box});
    }
    let chosen = null;
    for (const candidate of candidates) {
      api.zoomTo(candidate.frame);
      candidate.drawn = api.state().drawn;
      if (!chosen || candidate.drawn > chosen.drawn) chosen = candidate;
    }
    api.zoomTo(0);
    return chosen;
  })()`);
  if (target === null) {
    throw new CheckFailed('no visible frame 6 px to 60 % of the width wide to zoom into');
  }
  ctx.target = target;
  return target;
}

function centre(box) {
  return [box.x + box.width / 2, box.y + box.height / 2];
}

async function checkHover(ctx) {
  const target = await pickTarget(ctx);
  await ctx.page.mouse.move(...centre(target.box));
  await settle(ctx.page);
  const tip = await js(ctx.page, `(() => { const t = document.getElementById('tooltip');
    return {hidden: t.hidden, text: t.innerText,
            name: t.querySelector('.name')?.textContent ?? null}; })()`);
  if (tip.hidden || !tip.name) {
    throw new CheckFailed(`no tooltip with a name over frame ${target.frame}: ${JSON.stringify(tip)}`);
  }
  if (!PERCENT_RE.test(tip.text) || !tip.text.includes('Inclusive') || !tip.text.includes(' of busy time')) {
    throw new CheckFailed('the tooltip has no inclusive time and percentage: ' +
                          JSON.stringify(tip.text));
  }
  const hover = (await state(ctx.page)).hover;
  if (hover !== target.frame) {
    throw new CheckFailed(`hovering frame ${target.frame}, state() says ${hover}`);
  }
  const lines = tip.text.split('\n').filter((line) => line.trim());
  return `frame ${target.frame}: ${lines.slice(0, 3).join(' | ')}`;
}

async function checkZoomClick(ctx) {
  const target = ctx.target ?? await pickTarget(ctx);
  await ctx.page.mouse.click(...centre(target.box));
  await settle(ctx.page);
  const now = await state(ctx.page);
  if (now.zoom !== target.frame) {
    throw new CheckFailed(`clicked frame ${target.frame}, state() says zoom ${now.zoom}`);
  }
  const after = await js(ctx.page, `window.qprofFlame.frameBox(${target.frame})`);
  if (after === null || after.width < 0.98 * now.canvasWidth) {
    throw new CheckFailed(`the zoomed frame is ${after && after.width} wide, the canvas ` +
                          `${now.canvasWidth}`);
  }
  const status = await js(ctx.page, "document.getElementById('zoom-status').textContent");
  return `frame ${target.frame} (${now.zoomName}) now ${Math.round(after.width)} px of ` +
         `${now.canvasWidth}; ${JSON.stringify(status)}`;
}

/** Zoomed in (into the target, zoomed by the page's API when not yet), `how` goes back. */
async function checkReset(ctx, how) {
  if ((await state(ctx.page)).zoom === 0) {
    await js(ctx.page, `window.qprofFlame.zoomTo(${ctx.target ? ctx.target.frame : 1})`);
  }
  if (how === 'Escape') {
    await ctx.page.keyboard.press('Escape');
  } else {
    await click(ctx.page, '#reset');
  }
  await settle(ctx.page);
  const zoom = (await state(ctx.page)).zoom;
  if (zoom !== 0) throw new CheckFailed(`after ${how} the zoom is frame ${zoom}, not the root`);
  return '';
}

/**
 * Searches, by typing, the provider with the most frames drawn wide enough to sample their
 * colour (8 px) in the current view. Which providers those are depends on the times toyc
 * measured, so the choice is made on the page, not fixed.
 */
async function checkSearch(ctx) {
  const page = ctx.page;
  const name = await js(page, `(() => {
    const api = window.qprofFlame, s = api.state(), frames = new Map();
    for (let i = 1; i < s.frames; i++) {
      const frame = api.frame(i), box = api.frameBox(i);
      if (frame.kind === 'miss' && box && box.width >= 8)
        frames.set(frame.name, (frames.get(frame.name) || 0) + 1);
    }
    let best = null;
    for (const [name, count] of frames) if (!best || count > best.count) best = {name, count};
    return best && best.name;
  })()`);
  if (!name) throw new CheckFailed('no query frame is drawn 8 px wide or more');
  await click(page, '#search');
  await page.keyboard.insertText(name);
  const searchDeadline = performance.now() + SEARCH_TIMEOUT_MS;
  while ((await state(page)).search !== name.toLowerCase() && performance.now() < searchDeadline) {
    await sleep(50);
  }
  await settle(page);
  const now = await state(page);
  const status = await js(page, "document.getElementById('search-status').textContent");
  const said = STATUS_RE.exec(status);
  if (now.matches < 1 || !said) {
    throw new CheckFailed(`searching ${JSON.stringify(name)}: ${now.matches} matches, status ` +
                          JSON.stringify(status));
  }
  if (Number(said[1].replace(/,/g, '')) !== now.matches || !(now.share > 0 && now.share <= 100)) {
    throw new CheckFailed(`status ${JSON.stringify(status)}, state() says ${now.matches} ` +
                          `matches and ${now.share.toFixed(2)} %`);
  }
  await page.mouse.move(1, 1);
  await settle(page); // no hover outline on the pixel sampled below
  let painted = await call(page, MATCH_PAINTED_SRC, name);
  const paintDeadline = performance.now() + PAINT_TIMEOUT_MS;
  while (!painted.ok && performance.now() < paintDeadline) {
    await sleep(100);
    await settle(page);
    painted = await call(page, MATCH_PAINTED_SRC, name);
  }
  if (!painted.ok) {
    throw new CheckFailed(`a drawn frame of ${JSON.stringify(name)} is not in the match ` +
                          `colour: ${JSON.stringify(painted)}`);
  }
  return `${JSON.stringify(name)}: ${status}; frame ${painted.frame} painted ` +
         JSON.stringify(painted.pixel);
}

// Whether the first drawn frame named NAME is painted in the CSS variable --match, sampled
// near its bottom-right corner, away from its label and its hit strip.
const MATCH_PAINTED_SRC = `(name) => {
  const api = window.qprofFlame, s = api.state();
  const rgb = (canvas, x, y) => {
    const copy = document.createElement('canvas');
    copy.width = copy.height = 1;
    const ctx = copy.getContext('2d', {willReadFrequently: true});
    ctx.drawImage(canvas, x, y, 1, 1, 0, 0, 1, 1);
    return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  };
  const swatch = document.createElement('canvas');
  swatch.width = swatch.height = 1;
  const sctx = swatch.getContext('2d');
  sctx.fillStyle = getComputedStyle(document.documentElement).getPropertyValue('--match');
  sctx.fillRect(0, 0, 1, 1);
  const want = rgb(swatch, 0, 0);
  for (let i = 1; i < s.frames; i++) {
    const box = api.frameBox(i);
    if (!box || box.width < 8 || api.frame(i).name !== name) continue;
    const canvas = document.getElementById('flame-canvas'), r = canvas.getBoundingClientRect();
    const ratio = canvas.width / r.width;
    const pixel = rgb(canvas, Math.floor((box.x - r.left + box.width - 3) * ratio),
                      Math.floor((box.y - r.top + 15) * ratio));
    return {ok: pixel.every((v, k) => Math.abs(v - want[k]) <= 2), frame: i, pixel, want};
  }
  return {ok: false, frame: -1, pixel: null, want};
}`;

/**
 * With the search of checkSearch on, zoomed into a frame that holds none of its matches (the
 * thread frame of a thread without them, or a leaf elsewhere): the status says that all of
 * them are outside the zoomed frame and that Reset zoom shows them; reset, it says no more.
 */
async function checkSearchZoomed(ctx) {
  const page = ctx.page;
  const zoomed = await js(page, `(() => {
    const api = window.qprofFlame, s = api.state();
    const matched = (i) => api.frame(i).name.toLowerCase().includes(s.search);
    const holds = new Uint8Array(s.frames);
    for (let i = s.frames - 1; i > 0; i--) {
      if (matched(i)) holds[i] = 1;
      if (holds[i]) holds[api.frame(i).parent] = 1;
    }
    for (let i = 1; i < s.frames; i++) {
      let above = false;  // a match below i would stay in view
      for (let a = api.frame(i).parent; a > 0; a = api.frame(a).parent) above ||= matched(a);
      if (!holds[i] && !above) { api.zoomTo(i); return i; }
    }
    return -1;
  })()`);
  if (zoomed < 0) throw new CheckFailed('every frame holds a match: none to zoom away from them');
  const now = await state(page);
  const status = await js(page, "document.getElementById('search-status').textContent");
  const said = OUTSIDE_RE.exec(status);
  if (!said || said[3] !== 'all' || now.outside !== now.matches) {
    throw new CheckFailed(`zoomed into frame ${zoomed}, away from all ${now.matches} matches ` +
                          `(state() says ${now.outside} outside): ${JSON.stringify(status)}`);
  }
  await click(page, '#reset');
  await settle(page);
  const reset = await js(page, "document.getElementById('search-status').textContent");
  if (!STATUS_RE.test(reset) || (await state(page)).outside !== 0) {
    throw new CheckFailed(`after Reset zoom the status says ${JSON.stringify(reset)}`);
  }
  return `frame ${zoomed}: ${status}`;
}

/**
 * Shares are of work over the busy time (the header's "Busy time (work)"), as in
 * profile_queries.html: a wait's tooltip says "waiting", a frame that holds waits says how
 * long it waited, and the root, all the work, is 100 %.
 */
async function checkShares(ctx) {
  const page = ctx.page;
  const found = await js(page, `(() => {
    const api = window.qprofFlame, s = api.state();
    let wait = -1;  // the longest
    for (let i = 1; i < s.frames; i++) {
      if (api.frame(i).kind === 'blocked' && (wait < 0 || api.frame(i).total_ns > api.frame(wait).total_ns)) wait = i;
    }
    return {wait, root: api.frame(0)};
  })()`);
  if (found.wait < 0) throw new CheckFailed('toyc drew no wait (blocked frame)');
  const tooltipOf = async (i) => {
    const box = await js(page, `window.qprofFlame.frameBox(${i})`);
    if (!box) throw new CheckFailed(`frame ${i} is not drawn`);
    await page.mouse.move(box.x + Math.min(box.width / 2, 30), box.y + box.height / 2);
    await settle(page);
    return js(page, "document.getElementById('tooltip').innerText");
  };
  const wait = await tooltipOf(found.wait);
  if (!/Inclusive\s*[^\n]* · waiting/.test(wait)) {
    throw new CheckFailed(`the tooltip of a wait gives it a share: ${JSON.stringify(wait)}`);
  }
  const root = await tooltipOf(0);
  if (!/of it waiting · 100\.0 % of busy time/.test(root)) {
    throw new CheckFailed(`the root's tooltip: ${JSON.stringify(root)}`);
  }
  await page.mouse.move(1, 1);
  return `${wait.split('\n').find((l) => l.includes('waiting'))} | ` +
         root.split('\n').find((l) => l.includes('busy'));
}

/** A screenshot of the viewport, saved as `name` in the output folder. */
async function screenshot(page, name) {
  const file = path.join(inputs.out, name);
  await settle(page);
  await page.screenshot({path: file});
  return file;
}

/**
 * Zoomed into the parent of the frame clicked before, the search cleared with Escape, the
 * pointer on that frame: colours, labels and a tooltip.
 */
async function finalScreenshot(ctx) {
  const page = ctx.page;
  await click(page, '#search');
  await page.keyboard.press('Escape');
  const search = (await state(page)).search;
  if (search) {
    throw new CheckFailed(`Escape in the search box left the search ${JSON.stringify(search)}`);
  }
  if (ctx.target) {
    const frame = ctx.target.frame;
    await js(page, `window.qprofFlame.zoomTo(window.qprofFlame.frame(${frame}).parent)`);
    const box = await js(page, `window.qprofFlame.frameBox(${frame})`);
    if (box) await page.mouse.move(box.x + Math.min(box.width / 2, 60), box.y + box.height / 2);
  }
  return screenshot(page, 'flamegraph.png');
}

test('the flame graph', async ({page}) => {
  const problems = watchProblems(page);
  const ctx = {page, problems, target: null};
  const pagePath = await check('toyc writes ' + PAGE_NAME, async () => ({
    detail: '', value: inputs.page ?? await runToyc(),
  }), {stop: true});
  await check("the markup escapes '<'", () => checkMarkupEscaped(pagePath));
  await check('the page becomes ready', async () =>
    `${await navigate(page, fileUrl(pagePath))}, ${await checkReady(page, 'qprofFlame', READY_TIMEOUT_MS)}`,
  {stop: true});
  await check('no console problems during load', () => checkNoProblems(page, problems, 'during load'));
  await check('frames are drawn', () => checkDrawn(ctx));
  await check('screenshot of the initial view', () => screenshot(page, 'flamegraph_initial.png'));
  await check('hovering a frame shows its name, time and share', () => checkHover(ctx));
  await check('shares are of the busy time; a wait has none', () => checkShares(ctx));
  await check('a click zooms into a frame', () => checkZoomClick(ctx));
  await check('Reset zoom goes back to the root', () => checkReset(ctx, 'the button'));
  await check('Escape goes back to the root', () => checkReset(ctx, 'Escape'));
  await check('search highlights a provider and shows its share', () => checkSearch(ctx));
  await check('screenshot of the search', () => screenshot(page, 'flamegraph_search.png'));
  await check('zoomed away from the matches, the status says so', () => checkSearchZoomed(ctx));
  await check('Escape clears the search; screenshot zoomed in', () => finalScreenshot(ctx));
  await check('no console problems during the whole test',
              () => checkNoProblems(page, problems, 'during the test'));
});
