import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.standalone/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        AbortController: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        Buffer: 'readonly',
        structuredClone: 'readonly',
        AbortSignal: 'readonly',
        ReadableStream: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // CommonJS files: the standalone executable's main script (Node runs one CommonJS script
    // there), tool configurations (.dependency-cruiser.cjs) and bin/ (bin/package.json).
    files: ['**/*.cjs', 'bin/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Rooms stay small: a file over 400 lines or a function over 80 has found a second concept.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': [
        'error',
        { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true },
      ],
    },
  },
  {
    // The core, the integration check, the contract and text helpers are pure: no I/O, no
    // transports, no timers, no wall clock, no ambient randomness.
    files: ['src/core/**/*.ts', 'src/check/**/*.ts', 'src/text/**/*.ts', 'src/contract/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'src/core must not do I/O: inject what it needs.' },
            {
              group: ['msw', 'msw/*', 'react', 'ink', 'commander', 'chalk', 'express'],
              message: 'src/core knows no transport or terminal.',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use the injected Clock.' },
        { object: 'Math', property: 'random', message: 'Use the injected RandomSource.' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'src/core has no timers.' },
        { name: 'setInterval', message: 'src/core has no timers.' },
        { name: 'process', message: 'src/core does not read the process.' },
      ],
    },
  },
);
