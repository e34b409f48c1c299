// Code rules that `npm test` enforces (`npm run lint`). The layer boundaries (DESIGN §3, §9) are
// checked by dependency-cruiser (.dependency-cruiser.cjs); formatting by Prettier.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'web/dist/', '.data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Money is never a float: parseFloat belongs to no money path (use parseCents).
      'no-restricted-globals': [
        'error',
        { name: 'parseFloat', message: 'Money is integer cents: use parseCents from domain/contracts/money.' },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Database rows are untyped until a read model maps them to its view.
    files: ['projections/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/public/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      // postMessage: time-zone.js is a worker's script.
      globals: { window: 'readonly', document: 'readonly', localStorage: 'readonly', postMessage: 'readonly' },
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'ops/testing/**', 'ops/bench/**', 'web/e2e/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', __dirname: 'readonly', process: 'readonly' },
    },
  },
  prettier,
);
