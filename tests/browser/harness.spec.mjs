// The harness's own check: watchProblems() and checkNoProblems() catch every kind of problem a
// page can show, so that a viewer test that passes them has truly seen none. Each case is a
// small page on disk planted with one problem (an exception, at load or later in a timer; an
// unhandled rejection; a console error, warning or failed assertion; a resource that does not
// load; a dialog); checkNoProblems() must fail on it and name the problem. A clean page must
// pass, so that the check is not simply failing everything.
//
//   node tests/browser/run.mjs harness.spec.mjs --out /tmp/harness
import fs from 'node:fs';
import path from 'node:path';

import {CheckFailed, check, checkNoProblems, fileUrl, inputs, test, watchProblems} from './harness.mjs';

// Each: its name, the <body> that plants it, what the report must say.
const PLANTED = [
  ['exception', '<script>throw new Error("planted exception")</script>',
   /uncaught exception: Error: planted exception/],
  ['exception-later', '<script>setTimeout(() => { throw new Error("planted later"); }, 0)</script>',
   /uncaught exception: Error: planted later/],
  ['rejection', '<script>Promise.reject(new Error("planted rejection"))</script>',
   /planted rejection/],
  ['console-error', '<script>console.error("planted error")</script>', /console\.error: planted error/],
  ['console-warning', '<script>console.warn("planted warning")</script>', /console\.warning: planted warning/],
  ['console-assert', '<script>console.assert(false, "planted assertion")</script>',
   /console\.assert: .*planted assertion/],
  ['missing-resource', '<img src="planted-missing.png" alt="">', /planted-missing\.png/],
  ['dialog', '<script>alert("planted dialog")</script>', /dialog \(alert\): planted dialog/],
];

function writePage(name, body) {
  const file = path.join(inputs.out, `${name}.html`);
  fs.writeFileSync(file, '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
                   `<title>${name}</title><link rel="icon" href="data:,"></head><body>${body}</body></html>`);
  return file;
}

// Opens the page in a page of its own, watched from before it loads; returns what
// checkNoProblems() threw (a CheckFailed), or null when it passed.
async function problemsOf(context, name, body) {
  const page = await context.newPage();
  try {
    const problems = watchProblems(page);
    await page.goto(fileUrl(writePage(name, body)), {waitUntil: 'load'});
    await checkNoProblems(page, problems, 'on the planted page');
    return null;
  } catch (error) {
    if (error instanceof CheckFailed) return error;
    throw error;
  } finally {
    await page.close();
  }
}

test('the harness catches every kind of page problem', async ({context}) => {
  await check('a clean page passes', async () => {
    const failure = await problemsOf(context, 'clean', '<p>nothing wrong</p><script>console.log("fine")</script>');
    if (failure) throw new CheckFailed(`checkNoProblems failed a clean page: ${failure.message}`);
    return '';
  });
  for (const [name, body, expected] of PLANTED) {
    await check(`a page with a planted ${name} fails`, async () => {
      const failure = await problemsOf(context, name, body);
      if (!failure) throw new CheckFailed(`checkNoProblems passed a page with a planted ${name}`);
      if (!expected.test(failure.message)) {
        throw new CheckFailed(`the report does not match ${expected}: ${failure.message}`);
      }
      return failure.message.split('on the planted page: ')[1].slice(0, 120);
    });
  }
});
