// ESLint for the viewers' scripts. Each viewer is a set of classic scripts concatenated into
// one <script> (see reporters/embed_viewer.py): the first file declares the viewer's namespace
// (`qp` for the HTML report, `fg` for the flame graph) and the others add to it.
import js from '@eslint/js';
import globals from 'globals';

const viewer = (files, namespace) => ({
  files,
  languageOptions: {
    ecmaVersion: 2022,
    sourceType: 'script',
    globals: {...globals.browser, [namespace]: 'writable'},
  },
  rules: {
    ...js.configs.recommended.rules,
    'no-unused-vars': ['error', {args: 'none', varsIgnorePattern: `^${namespace}$`}],
    'no-redeclare': ['error', {builtinGlobals: false}],
    'eqeqeq': ['error', 'always', {null: 'ignore'}],
    'no-var': 'error',
    'prefer-const': 'error',
  },
});

export default [
  viewer(['reporters/html/**/*.js'], 'qp'),
  viewer(['reporters/flamegraph/**/*.js'], 'fg'),
];
