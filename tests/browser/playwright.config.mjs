// Playwright Test's configuration for the browser tests (run.mjs starts it; see harness.mjs).
// One worker, one test per file: each test writes its page once and then checks it step by
// step in one page, as a user meets it. The browser is Debian's Chromium (run.mjs finds it).
import path from 'node:path';

import {defineConfig} from '@playwright/test';

import {findChromium} from './chromium.mjs';

const out = process.env.QPROF_TEST_OUT ?? path.resolve('test-results');

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.mjs',
  outputDir: path.join(out, 'playwright'),
  workers: 1,
  retries: 0,
  timeout: 280000, // Meson's own limit is 300 s
  reporter: [['list', {printSteps: false}]],
  use: {
    viewport: {width: 1400, height: 1000},
    deviceScaleFactor: 1,
    actionTimeout: 10000,
    launchOptions: {
      executablePath: process.env.QPROF_TEST_CHROMIUM ?? findChromium() ?? undefined,
      // Containers often give /dev/shm only 64 MB; and no network or background work.
      args: ['--disable-dev-shm-usage', '--no-sandbox', '--disable-gpu',
        '--disable-background-networking', '--disable-component-update', '--hide-scrollbars'],
    },
  },
});
