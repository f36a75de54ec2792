import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vue from 'eslint-plugin-vue';
import globals from 'globals';

const platformImports = {
  patterns: [
    { group: ['node:*'], message: 'shared/ runs everywhere: inject platform needs through an interface.' },
    { group: ['electron', 'electron/*'], message: 'shared/ must not depend on Electron.' },
  ],
  paths: ['fs', 'path', 'os', 'zlib', 'worker_threads', 'child_process', 'crypto', 'url', 'util', 'better-sqlite3'].map(
    (name) => ({ name, message: 'shared/ runs everywhere: inject platform needs through an interface.' }),
  ),
};

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'renderer/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
      'vue/multi-word-component-names': 'off',
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', platformImports], 'no-console': 'error' },
  },
  {
    files: ['electron/services/**/*.ts', 'electron/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Services run in plain Node (tests, CLI): no Electron here.' }] },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,vue}'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'The renderer has no Node: go through the typed contract.' },
            { group: ['electron', '**/electron/**'], message: 'The renderer talks to the main process only through the contract.' },
          ],
        },
      ],
    },
  },
  {
    files: ['build/**/*.{js,mjs,cjs}', 'electron/**/*.mjs', '*.js'],
    languageOptions: { globals: globals.node },
  },
);
