// Colour classes in the HTML report and the flame graph, checked in headless Chromium, in the
// light and the dark colour scheme.
//
// Runs toyc (whose code generation providers carry the class "codegen") with
// -Z profile-queries=html,flamegraph and -Z profile-queries-colour=^typeck$:checker, opens both
// pages and checks what a user sees: each legend names both classes beside a swatch in the
// class's palette colour (--class-N of viewer_common/theme.css, as the scheme defines it), the
// HTML provider table tags the classed providers in that colour, the viewer gives a classed
// node the class colour-N, and the flame graph fills a classed frame in its class's hue and an
// unclassed one in another. Nothing may be reported on the console.
//
//   node tests/browser/run.mjs colour.spec.mjs --toyc build/examples/toyc --out /tmp/colour
import fs from 'node:fs';
import path from 'node:path';

import {CheckFailed, call, check, checkNoProblems, fileUrl, inputs, js, runCommand, test,
  watchProblems} from './harness.mjs';

const CLASSES = ['checker', 'codegen']; // sorted: slots 0 and 1
const READY_TIMEOUT_MS = 20000;

test.use({viewport: {width: 1280, height: 900}});

// The computed colour of a palette variable, as an element styled with it reports it.
const RESOLVE_SRC = `(name) => {
  const probe = document.createElement('span');
  probe.style.color = 'var(' + name + ')';
  document.body.appendChild(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}`;

/** The computed colour of the palette's slot (--class-SLOT) in the current scheme. */
function palette(page, slot) {
  return call(page, RESOLVE_SRC, `--class-${slot}`);
}

/** Runs toyc with both reporters into the output folder; returns the two pages' paths. */
async function runToyc() {
  const out = inputs.out;
  fs.mkdirSync(out, {recursive: true});
  for (const name of fs.readdirSync(out)) { // qprof never overwrites a report
    if (name.startsWith('profile_queries')) fs.rmSync(path.join(out, name), {force: true});
  }
  await runCommand([inputs.toyc, '--items', '2000', '-Z', 'profile-queries=html,flamegraph',
    '-Z', 'profile-queries-dir=' + out, '-Z', 'profile-queries-colour=^typeck$:checker'], 'toyc');
  const pages = ['html', 'flamegraph.html'].map((suffix) => path.join(out, 'profile_queries.' + suffix));
  const missing = pages.filter((page) => !fs.existsSync(page));
  if (missing.length) {
    throw new CheckFailed(`toyc exited 0 but did not write ${missing.join(', ')}`);
  }
  return pages;
}

/** Loads the page; window[hook].ready resolves in time and window[hook].error is unset. */
async function loadReady(page, url, hook) {
  await page.goto(url, {waitUntil: 'load'});
  try {
    await js(page, `Promise.race([window.${hook}.ready, new Promise((_, reject) => setTimeout(
      () => reject(new Error('not ready in time')), ${READY_TIMEOUT_MS}))])`);
  } catch (error) {
    throw new CheckFailed(String(error.message).split('\n')[0]);
  }
  const error = await js(page, `window.${hook}.error ?? null`);
  if (error) throw new CheckFailed(`the viewer reports an error: ${error}`);
  return '';
}

/** Each class has a legend item: its name beside a swatch in its slot's colour. */
async function checkLegend(page, swatch) {
  const items = await call(page, String.raw`(swatch) =>
    [...document.querySelectorAll('#legend li')].map(li => {
      const sample = li.querySelector('[class*="colour-"]');
      return sample ? {name: li.querySelector('code').textContent,
                       slot: Number(/colour-(\d+)/.exec(sample.className)[1]),
                       colour: getComputedStyle(sample)[swatch]} : null;
    }).filter(Boolean)`, swatch);
  const names = items.map((item) => item.name);
  if (JSON.stringify(names) !== JSON.stringify(CLASSES)) {
    throw new CheckFailed(`the legend names the classes ${JSON.stringify(names)}, not ` +
                          JSON.stringify(CLASSES));
  }
  for (const [slot, item] of items.entries()) {
    if (item.slot !== slot) throw new CheckFailed(`${item.name} takes slot ${item.slot}, not ${slot}`);
    if (swatch === 'borderTopColor' && item.colour !== await palette(page, slot)) {
      throw new CheckFailed(`${item.name}'s swatch is ${item.colour}, not the palette's ` +
                            await palette(page, slot));
    }
    if (swatch === 'backgroundColor' && ['', 'rgba(0, 0, 0, 0)'].includes(item.colour)) {
      throw new CheckFailed(`${item.name}'s swatch has no colour`);
    }
  }
  return items.map((item) => `${item.name} ${item.colour}`).join(', ');
}

/**
 * The provider table tags codegen in its colour, the viewer gives a codegen run the class
 * colour-1, and its box, revealed, is drawn in --class-1.
 */
async function checkHtmlClasses(page) {
  const codegen = await palette(page, 1);
  const tag = await js(page, `(() => {
    const small = [...document.querySelectorAll('#provider-table small.colour-class')]
      .find(s => s.closest('tr').querySelector('a').textContent === 'codegen');
    return small ? {text: small.textContent, colour: getComputedStyle(small).color} : null;
  })()`);
  if (tag === null || tag.text !== 'codegen') {
    throw new CheckFailed('the provider table does not tag codegen with its class: ' +
                          JSON.stringify(tag));
  }
  if (tag.colour !== codegen) {
    throw new CheckFailed(`codegen's tag is ${tag.colour}, not --class-1's ${codegen}`);
  }
  // A codegen run: the viewer's class for it, and its box once revealed.
  const box = await js(page, `(() => {
    for (let t = 0; t < qp.threads.length; t++) {
      const T = qp.threads[t];
      for (let n = 0; n < T.len; n++) {
        if (qp.providers[qp.providerOf(T, n)].name !== 'codegen') continue;
        const classes = window.qprof.nodeClass(t, n);
        window.qprof.reveal(t, n);
        const el = document.querySelector('#tree-' + t + ' .node[data-n="' + n + '"]');
        return {classes, border: el ? getComputedStyle(el).borderTopColor : null};
      }
    }
    return null;
  })()`);
  if (box === null || !box.classes.split(/\s+/).includes('colour-1')) {
    throw new CheckFailed(`a codegen run has the classes ${JSON.stringify(box)}, without colour-1`);
  }
  if (box.border !== codegen) {
    throw new CheckFailed(`a revealed codegen box's border is ${box.border}, not --class-1's ` +
                          codegen);
  }
  const boxes = await js(page, "document.querySelectorAll('.node.colour-0, .node.colour-1').length");
  return `tag ${tag.colour}; ${boxes} classed boxes drawn so far`;
}

/** The hue of an "hsl(H, S%, L%)" text, or null. */
function hueOfHsl(text) {
  const match = /^hsl\((\d+)/.exec(text ?? '');
  return match ? Number(match[1]) % 360 : null;
}

/** The hue, in whole degrees, of an "rgb(R, G, B)" text. */
function hueOfRgb(text) {
  const [r, g, b] = text.match(/\d+/g).slice(0, 3).map((v) => Number(v) / 255);
  const high = Math.max(r, g, b), low = Math.min(r, g, b);
  if (high === low) return 0;
  const h = high === r ? (g - b) / (high - low)
    : high === g ? 2 + (b - r) / (high - low) : 4 + (r - g) / (high - low);
  return Math.round(60 * h + 360) % 360;
}

/**
 * A codegen frame is filled in --class-1's hue (within the shading's 6 degrees), a typeck
 * frame in --class-0's, a parsing frame in neither.
 */
async function checkFlameColours(page) {
  const frames = await js(page, `(() => {
    const api = window.qprofFlame;
    const found = {};
    for (let i = 0; i < api.state().frames; i++) {
      const f = api.frame(i);
      if (!(f.name in found)) found[f.name] = f;
    }
    return found;
  })()`);
  const hues = [hueOfRgb(await palette(page, 0)), hueOfRgb(await palette(page, 1))];
  for (const [name, slot] of [['typeck', 0], ['codegen', 1]]) {
    const frame = frames[name];
    if (frame === undefined || frame.colourClass !== CLASSES[slot]) {
      throw new CheckFailed(`the ${name} frame has class ${JSON.stringify(frame?.colourClass ?? null)}`);
    }
    const hue = hueOfHsl(frame.colour);
    if (hue === null || Math.min(Math.abs(hue - hues[slot]), 360 - Math.abs(hue - hues[slot])) > 7) {
      throw new CheckFailed(`the ${name} frame is ${frame.colour}, not near --class-${slot}'s ` +
                            `hue ${hues[slot]}`);
    }
  }
  const other = frames.parsing;
  if (other === undefined || other.colourClass != null) {
    throw new CheckFailed(`the parsing frame has class ${JSON.stringify(other?.colourClass ?? null)}`);
  }
  return `typeck ${frames.typeck.colour}, codegen ${frames.codegen.colour}, parsing ${other.colour}`;
}

test('colour classes in both viewers and both schemes', async ({page}) => {
  const problems = watchProblems(page);
  const [htmlPage, flamePage] = await check('toyc writes the pages',
                                            async () => ({detail: '', value: await runToyc()}),
                                            {stop: true});
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({colorScheme: scheme});
    await check(`the HTML report is ready (${scheme})`,
                () => loadReady(page, fileUrl(htmlPage), 'qprof'), {stop: true});
    await check(`the HTML legend names each class in its colour (${scheme})`,
                () => checkLegend(page, 'borderTopColor'));
    await check(`the provider table and the boxes take the class colours (${scheme})`,
                () => checkHtmlClasses(page));
    await check(`the flame graph is ready (${scheme})`,
                () => loadReady(page, fileUrl(flamePage), 'qprofFlame'), {stop: true});
    await check(`the flame graph legend names each class (${scheme})`,
                () => checkLegend(page, 'backgroundColor'));
    await check(`classed frames are drawn in their class's hue (${scheme})`,
                () => checkFlameColours(page));
  }
  await check('no console problems', () => checkNoProblems(page, problems, 'during the test'));
});
