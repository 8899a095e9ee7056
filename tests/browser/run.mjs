#!/usr/bin/env node
// Runs one browser test (a *.spec.mjs file beside this one) with Playwright Test, the way
// Meson calls it:
//
//   node tests/browser/run.mjs diff.spec.mjs --toyc build/examples/toyc --qprof build/qprof \
//       --out build/tests/browser/diff [--screenshots docs/images] [--page FILE] [-- TOYC_ARGS]
//
// The programs and folders reach the test as QPROF_TEST_* environment variables (harness.mjs
// reads them). Exits with Playwright's status, or 77 (Meson's "skipped") when Chromium or
// the test's Node packages are missing, except with CI=true, where that is a failure.
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

import {findChromium} from './chromium.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SKIPPED = 77;
const FLAGS = {
  '--toyc': 'QPROF_TEST_TOYC',
  '--qprof': 'QPROF_TEST_QPROF',
  '--deep-chain': 'QPROF_TEST_DEEP_CHAIN',
  '--waiting-threads': 'QPROF_TEST_WAITING_THREADS',
  '--keyed-scan': 'QPROF_TEST_KEYED_SCAN',
  '--page': 'QPROF_TEST_PAGE',
  '--out': 'QPROF_TEST_OUT',
  '--screenshots': 'QPROF_TEST_SCREENSHOTS',
};

function usage(problem) {
  process.stderr.write(`run.mjs: ${problem}\nusage: node run.mjs SPEC --out DIR ` +
                       `[${Object.keys(FLAGS).filter((f) => f !== '--out').join(' PATH] [')} PATH]` +
                       ' [-- TOYC_ARGS]\n');
  process.exit(2);
}

function missing(what, fix) {
  process.stdout.write(`# ${what}; ${fix}\n`);
  if (process.env.CI === 'true') {
    process.stdout.write(`FAIL - ${what}: it is required when CI=true\n`);
    process.exit(1);
  }
  process.stdout.write('# skipping the browser test\n');
  process.exit(SKIPPED);
}

const argv = process.argv.slice(2);
const spec = argv.shift();
if (!spec || !spec.endsWith('.spec.mjs')) usage('the first argument names a *.spec.mjs test');
if (!fs.existsSync(path.join(here, spec))) usage(`no test ${spec} in ${here}`);
const env = {...process.env};
const toycArgs = [];
while (argv.length) {
  const flag = argv.shift();
  if (flag === '--') {
    toycArgs.push(...argv.splice(0));
  } else if (FLAGS[flag]) {
    const value = argv.shift();
    if (value === undefined) usage(`${flag} needs a value`);
    env[FLAGS[flag]] = path.resolve(value);
  } else {
    usage(`unknown argument ${flag}`);
  }
}
if (!env.QPROF_TEST_OUT) usage('--out DIR is required');
env.QPROF_TEST_TOYC_ARGS = JSON.stringify(toycArgs);
fs.mkdirSync(env.QPROF_TEST_OUT, {recursive: true});

const chromium = findChromium();
if (!chromium) {
  missing('Chromium was not found (looked for $CHROMIUM, chromium, chromium-browser, ' +
          'google-chrome)', 'install it with: apt-get install chromium');
}
env.QPROF_TEST_CHROMIUM = chromium;
const cli = path.join(here, 'node_modules', '@playwright', 'test', 'cli.js');
if (!fs.existsSync(cli)) {
  missing(`Playwright is not installed in ${here}/node_modules`,
          `install it with: npm ci --prefix ${here} (scripts/run-tests does)`);
}
env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
const run = spawnSync(process.execPath,
                      [cli, 'test', '--config', path.join(here, 'playwright.config.mjs'), spec],
                      {cwd: here, env, stdio: 'inherit'});
if (run.error) {
  process.stdout.write(`FAIL - running Playwright: ${run.error.message}\n`);
  process.exit(1);
}
process.exit(run.status ?? 1);
