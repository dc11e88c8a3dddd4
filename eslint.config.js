// ESLint for every workspace: typescript-eslint's type-checked rules, the layers of
// infra/src/deps/layers.json, React's hooks and accessibility rules in the web workspaces.
// Run it with `npm run lint`; docs/testing.md#lint-and-dead-code says how to add an exception.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import layers from './infra/src/deps/layers.json' with { type: 'json' };

const WEB = ['forum-web', 'admin-web', 'web-ui', 'web-auth'];

/** Each workspace's forbidden neighbours: every workspace not in a layer below its own, in the stacks it is in. */
function layerZones() {
  const all = [...new Set(Object.values(layers).flat(2))];
  const below = new Map(all.map((name) => [name, new Set()]));
  for (const stack of Object.values(layers)) {
    stack.forEach((layer, level) => {
      for (const name of layer) for (const lower of stack.slice(0, level).flat()) below.get(name).add(lower);
    });
  }
  return all.flatMap((name) => {
    const forbidden = all.filter((other) => other !== name && !below.get(name).has(other));
    return forbidden.length === 0
      ? []
      : [
          {
            target: `./${name}`,
            from: forbidden.map((other) => `./${other}`),
            message: `@forum/${name} may import only workspaces in a layer below its own (infra/src/deps/layers.json).`,
          },
        ];
  });
}

export default defineConfig(
  {
    name: 'forum/ignored',
    ignores: ['**/node_modules/', '**/dist/', '**/dist-server/', '.data/', 'coverage/'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    name: 'forum/typescript',
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error', reportUnusedInlineConfigs: 'error' },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.json', '*/tsconfig.json'] })],
    },
    rules: {
      // `({ total: _, ...row }) => row` drops a column a query returns beside each row: JavaScript's own way to omit keys
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: layerZones() }],
    },
  },
  {
    name: 'forum/web',
    files: WEB.map((name) => `${name}/**/*.{ts,tsx}`),
    ...reactHooks.configs.flat.recommended,
  },
  {
    name: 'forum/web-a11y',
    files: WEB.map((name) => `${name}/**/*.tsx`),
    ...jsxA11y.configs.recommended,
  },
  {
    name: 'forum/tests',
    files: ['**/*.test.{ts,tsx}', '**/testing/**/*.{ts,tsx}'],
    rules: {
      // `expect(spy.method).toHaveBeenCalled()` hands a method over uncalled on purpose: vitest only inspects it.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    name: 'forum/plain-javascript',
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    rules: { 'import-x/no-cycle': 'off', 'import-x/no-restricted-paths': 'off' },
  },
  {
    name: 'forum/k6',
    files: ['deploy/k6/**/*.js'],
    languageOptions: { globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', console: 'readonly' } },
  },
  {
    name: 'forum/config',
    files: ['eslint.config.js'],
    languageOptions: { globals: { URL: 'readonly' } },
  },
);
