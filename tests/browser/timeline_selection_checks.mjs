// The checks of the timeline's selection, run by html.spec.mjs on toyc's page: a run clicked in
// the statistics is shown on the timeline, a click on a slice selects it in the tree, and the
// keyboard moves the timeline's selection with the tree following.
//
// Each check takes the test's context `ctx` ({page, problems, ...}: what the checks learn on
// the way, see html.spec.mjs) and returns a detail string or throws CheckFailed (harness.mjs).
import {CheckFailed, call, click, js, settle} from './harness.mjs';
import {canvasBox, focusTimeline, isNode, rowY, state} from './timeline_page.mjs';

/**
 * A click on a slowest run in a provider's statistics shows it on the timeline, selected and
 * in view. Sets ctx.selectedRun ({t, n}) for checkSliceClick.
 */
export async function checkRunOnTimeline(ctx) {
  const {page} = ctx;
  await click(page, '#hot-providers li:first-child a[data-provider]');
  await settle(page);
  const target = await js(page, `(() => { const a = document.querySelector('#slowest-runs a[data-n]');
      return a && {t: Number(a.dataset.thread), n: Number(a.dataset.n)}; })()`);
  if (target == null) throw new CheckFailed('no run to click in #slowest-runs');
  await click(page, '#slowest-runs a[data-n]');
  await settle(page);
  const timeline = await state(page);
  const start = await call(page, '(t, n) => window.qprof.start(t, n)', target.t, target.n);
  if (!isNode(timeline.selected, target.t, target.n)) {
    throw new CheckFailed(`the timeline selects ${JSON.stringify(timeline.selected)}, the run ` +
                          `clicked is ${JSON.stringify(target)}`);
  }
  if (!(timeline.from <= start && start <= timeline.to)) {
    throw new CheckFailed(`the run starts at ${Math.trunc(start)} ns, the timeline shows ` +
                          `${Math.trunc(timeline.from)}-${Math.trunc(timeline.to)} ns`);
  }
  ctx.selectedRun = target;
  return `node ${target.n} of thread ${target.t} selected, ${Math.trunc(timeline.from)}-` +
    `${Math.trunc(timeline.to)} ns shown`;
}

/**
 * Clicks the middle of the visible part of node n's slice; checks what the tree, the details
 * and the timeline then select; returns what it found.
 */
async function clickSlice(page, t, n) {
  const node = await call(page, `(t, n) => {
      const T = qp.threads[t]; // the viewer's decoded columns
      let depth = 0;
      for (let a = n - 1, m = n; a >= 0; a--) if (a + T.size[a] > m) { depth++; m = a; }
      return {depth, start: window.qprof.start(t, n), dur: T.dur[n]};
  }`, t, n);
  const box = await canvasBox(page);
  const timeline = await state(page);
  const left = Math.max(await call(page, '(ns) => window.qprof.timelineX(ns)', node.start), 0);
  const right = Math.min(await call(page, '(ns) => window.qprof.timelineX(ns)',
                                    node.start + node.dur), box.width);
  const y = rowY(timeline, t, node.depth);
  if (y >= timeline.height || right - left < 1) {
    throw new CheckFailed(`the slice of node ${n} is not in the canvas's view (x ` +
                          `${Math.trunc(left)}-${Math.trunc(right)}, y ${Math.trunc(y)})`);
  }
  await page.mouse.click(box.left + (left + right) / 2, box.top + y);
  await settle(page);
  const found = await call(page, `(t, n) => {
      const el = document.querySelector('#tree-' + t + ' .node[data-n="' + n + '"]');
      const path = document.querySelector('#details [data-field=path]');
      return {selected: !!el && el.classList.contains('selected'),
              shown: !!el && !el.closest('[hidden]'), path: path ? path.textContent : null,
              timeline: window.qprof.timeline().selected};
  }`, t, n);
  if (!(found.selected && found.shown)) {
    throw new CheckFailed(`after a click on node ${n}'s slice the tree has it ` +
                          (found.selected ? 'in a hidden tree' : 'not selected'));
  }
  if (!isNode(found.timeline, t, n)) {
    throw new CheckFailed(`the timeline selects ${JSON.stringify(found.timeline)} after a ` +
                          `click on node ${n}`);
  }
  if (node.depth > 0 && (!found.path || !found.path.includes('Path from the root'))) {
    throw new CheckFailed(`the details of node ${n} give no path: ${JSON.stringify(found.path)}`);
  }
  return `node ${n} (depth ${node.depth}): ${(found.path || 'a root').slice(0, 50)}`;
}

/**
 * A click on a slice selects that node in the tree, with its path from the root: the parent
 * of the run shown (ctx.selectedRun, from checkRunOnTimeline), then the run itself.
 */
export async function checkSliceClick(ctx) {
  const {page} = ctx;
  const target = ctx.selectedRun;
  if (target == null) throw new CheckFailed('no run was shown on the timeline before');
  const parent = await call(page, `(t, n) => { const T = qp.threads[t];
      for (let a = n - 1; a >= 0; a--) if (a + T.size[a] > n) return a; return -1; }`,
  target.t, target.n);
  const said = [];
  for (const n of [...(parent >= 0 ? [parent] : []), target.n]) {
    said.push(await clickSlice(page, target.t, n));
  }
  return `${said.join('; ')}, in #tree-${target.t}`;
}

/**
 * On the focused timeline, ArrowUp selects the parent of the selected slice, ArrowDown its
 * first child, ] the next slice of that row; the tree follows each step.
 */
export async function checkKeyboardSelection(ctx) {
  const {page} = ctx;
  const start = (await state(page)).selected;
  if (start == null) throw new CheckFailed('nothing is selected on the timeline to move from');
  await focusTimeline(page);
  const shape = await call(page, `(t) => { const T = qp.threads[t]; const depth = [], parent = [], stack = [];
      for (let n = 0; n < T.size.length; n++) {
          while (stack.length && stack[stack.length - 1] + T.size[stack[stack.length - 1]] <= n) stack.pop();
          depth.push(stack.length); parent.push(stack.length ? stack[stack.length - 1] : -1);
          stack.push(n);
      }
      return {depth, parent}; }`, start.t);
  const steps = [];
  for (const key of ['ArrowUp', 'ArrowDown', ']', 'ArrowUp']) { // the run may have no timed child
    const before = (await state(page)).selected;
    await page.keyboard.press(key);
    await settle(page);
    const after = (await state(page)).selected;
    const tree = await call(page, `(t) => { const el = document.querySelector('#tree-' + t +
        ' .node.selected'); return el ? Number(el.dataset.n) : null; }`, after.t);
    const b = before.n, a = after.n;
    const wanted = {
      'ArrowDown': shape.parent[a] === b,
      ']': a > b && shape.depth[a] === shape.depth[b],
      'ArrowUp': shape.parent[b] === a,
    }[key];
    if (!wanted) {
      throw new CheckFailed(`${key} moved the selection from node ${b} (depth ` +
                            `${shape.depth[b]}) to node ${a} (depth ${shape.depth[a]})`);
    }
    if (tree !== a) {
      throw new CheckFailed(`after ${key} the timeline selects node ${a}, the tree node ${tree}`);
    }
    steps.push(`${key} ${b}->${a}`);
  }
  return `${steps.join('; ')}; the tree followed`;
}
