// What every browser test shares, on Playwright Test (the runner and the browser driver):
// the programs and folders Meson passes (through run.mjs, as environment variables), running a
// command that writes a page, each check as a step that prints what it found, every problem
// the page shows watched (harness.spec.mjs checks that none gets past), and the checks every
// page takes.
//
//   import {test, check, CheckFailed, inputs, runCommand, load, checkNoProblems} from './harness.mjs';
//   test('the flame graph', async ({page}) => {
//     const problems = watchProblems(page);
//     const path = await check('toyc writes the page', () => writePage(), {stop: true});
//     await check('the page becomes ready', () => load(page, fileUrl(path)), {stop: true});
//     await check('no console problems', () => checkNoProblems(page, problems, 'during load'));
//   });
//
// A check returns a detail string (or a value, and a detail when it returns {detail, value})
// or throws; check() prints "ok - NAME (detail)" or "FAIL - NAME: reason". A failed check
// fails the test but the next checks still run (a soft failure), unless {stop: true}: then
// the test ends there, since the later checks need what it made.
//
// Code that runs in the page is given as a string (js(), call()): ESLint checks this file as
// Node code, and a string says plainly which side of the wire it runs on.
import {execFile} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {promisify} from 'node:util';

import {expect, test} from '@playwright/test';

export {expect, test};

export const LOAD_TIMEOUT_MS = 30000;
export const READY_TIMEOUT_MS = 20000;

/** A check found the page other than it should be; the message says how. */
export class CheckFailed extends Error {}

/**
 * What run.mjs passed: the programs under test and the folders (absent ones are undefined).
 * toyc, qprof, deepChain, waitingThreads, keyedScan: executables; page: an existing page to check instead of writing one;
 * out: the test's folder in the build directory; screenshots: where to save the README's images.
 */
export const inputs = {
  toyc: process.env.QPROF_TEST_TOYC,
  qprof: process.env.QPROF_TEST_QPROF,
  deepChain: process.env.QPROF_TEST_DEEP_CHAIN,
  waitingThreads: process.env.QPROF_TEST_WAITING_THREADS,
  keyedScan: process.env.QPROF_TEST_KEYED_SCAN,
  page: process.env.QPROF_TEST_PAGE,
  out: process.env.QPROF_TEST_OUT,
  screenshots: process.env.QPROF_TEST_SCREENSHOTS,
  toycArgs: JSON.parse(process.env.QPROF_TEST_TOYC_ARGS || '[]'),
};

/** The file:// URL of a path on disk. */
export function fileUrl(file) {
  return pathToFileURL(path.resolve(file)).href;
}

function say(line) {
  process.stdout.write(line + '\n');
}

/** A comment line in the test's output ("# ..."), for what is neither a check nor a result. */
export function note(text) {
  say('# ' + text);
}

/**
 * Runs one check as a step of the test: `fn` returns a detail string, or {detail, value} to
 * hand a value to the checks after it, or throws. Returns the value (or the detail), or
 * undefined when the check failed. With {stop: true} a failure ends the test.
 */
export async function check(name, fn, {stop = false} = {}) {
  return test.step(name, async () => {
    let result;
    try {
      result = await fn();
    } catch (error) {
      const reason = error instanceof CheckFailed ? error.message : String(error?.stack ?? error);
      say(`FAIL - ${name}: ${reason}`);
      if (stop) throw new Error(`${name}: ${reason}`);
      expect.soft(reason, name).toBe('no failure');
      return undefined;
    }
    const detail = typeof result === 'object' && result !== null && 'detail' in result
      ? result.detail : result;
    say(`ok - ${name}${detail ? ` (${detail})` : ''}`);
    return typeof result === 'object' && result !== null && 'value' in result ? result.value : result;
  }, {box: true});
}

/**
 * Runs a command that writes a page or its inputs; returns its output, or throws CheckFailed
 * with the end of its stderr when it fails.
 */
export async function runCommand(command, what, {cwd, timeoutMs = 600000} = {}) {
  try {
    const {stdout} = await promisify(execFile)(command[0], command.slice(1), {
      cwd, timeout: timeoutMs, maxBuffer: 1 << 30, encoding: 'utf8',
    });
    return stdout;
  } catch (error) {
    const how = error.killed ? `was killed after ${timeoutMs} ms` : `exited with ${error.code}`;
    throw new CheckFailed(`${what}: ${command.join(' ')} ${how}; stderr:\n` +
                          String(error.stderr ?? '').slice(-2000));
  }
}

/** Empties a folder (made if missing): qprof never overwrites, so a stale file would stay. */
export function freshDir(dir) {
  fs.rmSync(dir, {recursive: true, force: true});
  fs.mkdirSync(dir, {recursive: true});
  return dir;
}

/**
 * Collects every problem the page shows from now on: console errors, warnings and failed
 * assertions (Chromium's own log entries, such as a resource that did not load or a blocked
 * script, reach Playwright as console messages too), uncaught exceptions and unhandled
 * rejections, requests that failed or were answered with an error status, dialogs (a viewer
 * opens none: each is dismissed and counted) and a crash of the page. Returns the (growing)
 * list of their texts.
 */
export function watchProblems(page) {
  const problems = [];
  page.on('console', (message) => {
    if (['error', 'warning', 'assert'].includes(message.type())) {
      const where = message.location();
      problems.push(`console.${message.type()}: ${message.text()}` +
                    (where?.url ? ` (${where.url}:${where.lineNumber + 1})` : ''));
    }
  });
  page.on('pageerror', (error) => problems.push('uncaught exception: ' + (error.stack ?? error)));
  page.on('requestfailed', (request) => problems.push(
    `request failed: ${request.url().slice(0, 200)} (${request.failure()?.errorText ?? 'no reason given'})`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url().slice(0, 200)}`);
  });
  page.on('dialog', (dialog) => {
    problems.push(`dialog (${dialog.type()}): ${dialog.message()}`);
    dialog.dismiss().catch(() => {}); // the page may be gone already
  });
  page.on('crash', () => problems.push('the page crashed'));
  return problems;
}

/** Waits until the page has rendered two frames: lets handlers and layout run. */
export async function settle(page) {
  await page.evaluate('new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))');
}

/** Evaluates a JavaScript expression (a string) in the page; awaits a promise it returns. */
export async function js(page, expression) {
  return page.evaluate(expression);
}

/** Calls the function whose source is `source` in the page with JSON arguments. */
export async function call(page, source, ...args) {
  return page.evaluate(`(${source})(...${JSON.stringify(args)})`);
}

/**
 * Clicks the first element matching `selector` at its centre, as a user would, after
 * scrolling it into view; fails with what covers it when something else would take the click.
 */
export async function click(page, selector, options = {}) {
  await page.locator(selector).first().click({timeout: 10000, ...options});
}

/** A screenshot of the viewport, saved as `name` in inputs.screenshots when that is given. */
export async function screenshot(page, name) {
  if (!inputs.screenshots) return 'no screenshots folder';
  fs.mkdirSync(inputs.screenshots, {recursive: true});
  const file = path.join(inputs.screenshots, name);
  await page.screenshot({path: file});
  return file;
}

// ----- checks every page takes -----

/**
 * A '<' that starts no tag (as in "<0.1 %") is an HTML parse error that browsers forgive; the
 * writer must escape it as &lt; outside <script> and <style>.
 */
export function checkMarkupEscaped(pagePath) {
  const text = fs.readFileSync(pagePath, 'utf8');
  const markup = text.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, '');
  const raw = [...markup.matchAll(/<(?![A-Za-z/!?])/g)].map((m) => m.index);
  if (raw.length) {
    const examples = raw.slice(0, 3).map((at) => JSON.stringify(
      '...' + markup.slice(Math.max(0, at - 40), at + 12) + '...'));
    throw new CheckFailed(`${raw.length} unescaped '<' in the markup (write &lt;), e.g. ` +
                          examples.join('; '));
  }
  return '';
}

/** Loads the page; returns how long its load event took. */
export async function navigate(page, url, timeoutMs = LOAD_TIMEOUT_MS) {
  const started = performance.now();
  await page.goto(url, {waitUntil: 'load', timeout: timeoutMs});
  return `load event after ${Math.round(performance.now() - started)} ms`;
}

/**
 * The viewer's window[api].ready resolves within timeoutMs, and window[api].error says it
 * read its payload; returns when it became ready (readyAt).
 */
export async function checkReady(page, api = 'qprof', timeoutMs = READY_TIMEOUT_MS) {
  const kind = await js(page, `typeof window.${api} === 'object' && window.${api} !== null` +
                              ` && typeof window.${api}.ready?.then`);
  if (kind !== 'function') {
    throw new CheckFailed(`window.${api}.ready is not a Promise (window.${api} is ` +
                          `${await js(page, 'typeof window.' + api)}); the viewer script did ` +
                          'not run, threw, or does not export it');
  }
  let readyAt;
  try {
    readyAt = await js(page, `Promise.race([
      window.${api}.ready.then(() => window.${api}.readyAt),
      new Promise((_, reject) => setTimeout(() => reject(new Error(
        'window.${api}.ready did not resolve within ${timeoutMs} ms')), ${timeoutMs}))])`);
  } catch (error) {
    throw new CheckFailed(String(error.message).split('\n')[0]);
  }
  if (typeof readyAt !== 'number') {
    throw new CheckFailed(`window.${api}.ready resolved but its readyAt is ` +
                          `${JSON.stringify(readyAt)}, not a number`);
  }
  const error = await js(page, `window.${api}.error`);
  if (error != null) throw new CheckFailed(`the viewer could not read the trace: ${error}`);
  return `readyAt ${Math.round(readyAt)} ms after navigation start`;
}

/** navigate() and checkReady() in one check; the load event within loadTimeoutMs. */
export async function load(page, url, api = 'qprof', loadTimeoutMs = LOAD_TIMEOUT_MS) {
  return `${await navigate(page, url, loadTimeoutMs)}, ${await checkReady(page, api)}`;
}

/** No problem of any kind watchProblems() collects since it was called. */
export async function checkNoProblems(page, problems, when) {
  await settle(page); // lets queued console messages arrive
  if (problems.length) {
    const shown = problems.slice(0, 5).map((p) => p.replace(/\n/g, ' | ').slice(0, 300));
    throw new CheckFailed(`${problems.length} page problem(s) (console errors and warnings, ` +
                          `exceptions, failed requests, dialogs, crashes) ${when}: ${shown.join('; ')}`);
  }
  return '';
}
