// ESLint for the viewers' scripts. Each viewer is a set of classic scripts concatenated into
// one <script> (see reporters/embed_viewer.py), after the viewers' common base
// (reporters/viewer_common/), which declares `qv`. A viewer's first file declares its own
// namespace (`qp` for the HTML report, `fg` for the flame graph; the diff page has one file
// and none) and the others add to it.
import js from '@eslint/js';
import globals from 'globals';

const viewer = (files, namespace) => ({
  files,
  languageOptions: {
    ecmaVersion: 2022,
    sourceType: 'script',
    globals: {
      ...globals.browser,
      qv: namespace === 'qv' ? 'writable' : 'readonly',
      ...(namespace && namespace !== 'qv' ? {[namespace]: 'writable'} : {}),
    },
  },
  rules: {
    ...js.configs.recommended.rules,
    'no-unused-vars': ['error', {args: 'none', varsIgnorePattern: namespace ? `^${namespace}$` : '^$'}],
    'no-redeclare': ['error', {builtinGlobals: false}],
    'eqeqeq': ['error', 'always', {null: 'ignore'}],
    'no-var': 'error',
    'prefer-const': 'error',
  },
});

export default [
  viewer(['reporters/viewer_common/**/*.js'], 'qv'),
  viewer(['reporters/html/**/*.js'], 'qp'),
  viewer(['reporters/flamegraph/**/*.js'], 'fg'),
  viewer(['reporters/diff/**/*.js'], null),
  // The browser tests and the page benchmark: ES modules run by Node (Playwright); the
  // strings they evaluate in the page are not linted.
  {
    files: ['tests/browser/**/*.mjs', 'benchmarks/**/*.mjs'],
    languageOptions: {ecmaVersion: 2022, sourceType: 'module', globals: {...globals.node}},
    rules: {
      ...js.configs.recommended.rules,
      'eqeqeq': ['error', 'always', {null: 'ignore'}],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
];
