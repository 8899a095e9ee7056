// Where Chromium is: $CHROMIUM first, then the names Debian and Google give it on $PATH.
// Playwright drives this browser (Debian's package) instead of downloading its own.
import fs from 'node:fs';
import path from 'node:path';

export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome',
  'google-chrome-stable'];

function onPath(name) {
  if (name.includes('/')) return fs.existsSync(name) ? name : null;
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const candidate = path.join(dir || '.', name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** The path of a Chromium executable, or null. */
export function findChromium() {
  for (const name of [process.env.CHROMIUM, ...CHROMIUM_NAMES]) {
    const found = name ? onPath(name) : null;
    if (found) return found;
  }
  return null;
}
