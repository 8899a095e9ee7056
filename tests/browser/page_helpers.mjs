// The html page's in-page test helpers, installed by html.spec.mjs once as window.__qprofTest
// after qprof.ready, for the checks of every part of the page. They only read the page, its
// JSON payload and the columns the viewer decompressed; everything a user does goes through
// real input events. (A template literal: its backticks and ${ are escaped.)
export const HELPERS_JS = `
(() => {
    'use strict';
    let payload = null;

    // The trace the C++ reporter embedded, as the viewer decompressed it (its columns are
    // compressed; tests/tools/deflate_zlib_test.py checks the compressor against zlib).
    function trace() {
        if (!payload) {
            if (!document.getElementById('qprof-trace')) {
                throw new Error('no <script id="qprof-trace"> in the page');
            }
            payload = {providers: qp.providers, threads: qp.threads};
        }
        return payload;
    }

    function providerOf(thread, n) {
        const p = trace();
        const provider = p.providers[p.threads[thread].tag[n] >>> qp.layout.PROVIDER_SHIFT];
        return provider ? provider.name : null;
    }

    function describe(el) {
        if (!el) return 'nothing';
        if (el.classList.contains('fold')) return \`fold [\${el.dataset.from}, \${el.dataset.to})\`;
        if (el.classList.contains('node')) return \`node \${el.dataset.n}\`;
        return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
    }

    function isHidden(el) {
        return el.closest('[hidden]') !== null || el.getClientRects().length === 0;
    }

    // Visible: a box of non-zero size, not hidden, and a part of it on screen, that is
    // inside the viewport, its tree's box and every scrolling box around it.
    function isVisibleIn(el, tree) {
        if (isHidden(el) || getComputedStyle(el).visibility === 'hidden') return false;
        const r = el.getBoundingClientRect();
        if (r.width <= 0 || r.height <= 0) return false;
        const clips = [tree.getBoundingClientRect(),
                       {left: 0, top: 0, right: innerWidth, bottom: innerHeight}];
        for (let up = el.parentElement; up; up = up.parentElement) {
            if (getComputedStyle(up).overflow !== 'visible') clips.push(up.getBoundingClientRect());
        }
        return clips.every((c) => r.right > c.left && r.left < c.right &&
                                  r.bottom > c.top && r.top < c.bottom);
    }

    function trees() { return [...document.querySelectorAll('#trees .tree')]; }

    function selectedTree() {
        const shown = trees().filter((t) => !isHidden(t));
        return shown.length === 1 ? shown[0] : null;
    }

    function shownTreesText() {
        return trees().map((t) => \`#\${t.id} \${isHidden(t) ? 'hidden' : 'shown'}\`).join(', ');
    }

    function selectorOf(el) {
        const tree = el.closest('.tree');
        if (el.classList.contains('fold')) {
            return \`#\${tree.id} .fold[data-from="\${el.dataset.from}"][data-to="\${el.dataset.to}"]\`;
        }
        return \`#\${tree.id} .node[data-n="\${el.dataset.n}"]\`;
    }

    function labelOf(node) {
        const label = node.querySelector(':scope > .label');
        return label ? label.textContent : null;
    }

    // The boxes among \`nodes\` (the .node elements that are not hits) and their labels:
    // [data-n, text or null] each.
    function boxLabels(nodes) {
        return [...nodes].filter((el) => !el.classList.contains('hit'))
            .map((el) => [Number(el.dataset.n), labelOf(el)]);
    }

    // Every rendered node and fold against the viewer's rules and the spec's markup.
    function consistency(limit, stateClasses) {
        const q = window.qprof, problems = [], say = JSON.stringify;
        let nodes = 0, folds = 0;
        const note = (text) => { if (problems.length < limit) problems.push(text); };
        for (const tree of trees()) {
            const thread = Number(tree.dataset.thread);
            for (const el of tree.querySelectorAll('.node')) {
                nodes++;
                const n = Number(el.dataset.n), at = \`thread \${thread} node \${n}\`;
                if (el.dataset.n === undefined || !Number.isInteger(n)) {
                    note(\`thread \${thread}: .node without a valid data-n: \` +
                         el.outerHTML.slice(0, 100));
                    continue;
                }
                const cls = el.getAttribute('class').split(' ')
                    .filter((c) => !stateClasses.includes(c)).join(' ');
                const want = q.nodeClass(thread, n);
                if (cls !== want) note(\`\${at}: class "\${cls}", nodeClass gives "\${want}"\`);
                const label = labelOf(el), wantLabel = q.nodeLabel(thread, n);
                if (label !== wantLabel) {
                    note(\`\${at}: label \${say(label)}, nodeLabel gives \${say(wantLabel)}\`);
                }
                const tag = el.classList.contains('hit') ? 'i' : 'div';
                if (el.tagName.toLowerCase() !== tag) {
                    note(\`\${at}: <\${el.tagName.toLowerCase()}>, the spec says <\${tag}>\`);
                }
            }
            for (const el of tree.querySelectorAll('.fold')) {
                folds++;
                const from = Number(el.dataset.from), to = Number(el.dataset.to);
                if (!Number.isInteger(from) || !Number.isInteger(to) || from >= to) {
                    note(\`thread \${thread}: .fold with bad data-from/data-to: \` +
                         el.outerHTML.slice(0, 100));
                    continue;
                }
                const want = el.hasAttribute('data-provider') ? q.chipText(thread, el)
                    : q.foldText(thread, from, to);
                if (el.textContent !== want) {
                    note(\`thread \${thread} fold [\${from}, \${to}): text \` +
                         \`\${say(el.textContent)}, foldText gives \${say(want)}\`);
                }
            }
        }
        return {nodes, folds, problems};
    }

    // The visible elements of the shown tree matching \`selector\`, as unique selectors.
    function visible(selector, max) {
        const tree = selectedTree();
        if (!tree) return {error: 'not exactly one tree is shown: ' + shownTreesText()};
        const all = [...tree.querySelectorAll(selector)];
        const shown = all.filter((el) => isVisibleIn(el, tree));
        return {tree: tree.id, total: all.length, visible: shown.length,
                selectors: shown.slice(0, max).map(selectorOf)};
    }

    // The item the keyboard acts on: the selected one, the focused one (roving tabindex),
    // or the tree's aria-activedescendant.
    function current(tree) {
        const marked = tree.querySelector('.selected, [aria-selected="true"]');
        if (marked) return marked;
        const focused = document.activeElement;
        if (focused && focused !== tree && tree.contains(focused)) return focused;
        const id = tree.getAttribute('aria-activedescendant');
        return id ? document.getElementById(id) : null;
    }

    // A fold, or a node with children (extent-N, N > 0): something Enter can open or close.
    function openable(el) {
        if (!el) return false;
        return el.classList.contains('fold') ||
            [...el.classList].some((c) => /^extent-[1-9]/.test(c));
    }

    function treeState(id) {
        const tree = document.getElementById(id), item = current(tree);
        return {current: item ? describe(item) : null, openable: openable(item),
                nodes: tree.querySelectorAll('.node').length,
                folds: tree.querySelectorAll('.fold').length,
                focusInside: tree.contains(document.activeElement)};
    }

    window.__qprofTest = {trace, providerOf, describe, isHidden, isVisibleIn, selectedTree,
                          shownTreesText, selectorOf, labelOf, boxLabels, consistency, visible, treeState};
})()
`;
