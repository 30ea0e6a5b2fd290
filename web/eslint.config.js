// Lint rules of the web app: typescript-eslint's strict type-aware set, React hooks, no import
// cycles, and the boundaries between the app's parts (see `boundaries` below).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const folders = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const shopFeatures = folders('./src/features/').filter((name) => name !== 'admin');
const consoleFeatures = folders('./src/features/admin/').filter((name) => name !== 'shell');

/** Who may import whom (as bulletproof-react draws it): shared code (`api`, `components`,
 * `i18n`, `lib`, `test`) imports no feature and not the app; a feature imports shared code
 * and its own files, never another feature nor the app; `app` (the routes) imports them all.
 * The console (`features/admin`) is one feature of the shop made of its own: each console
 * feature imports the console's frame (`admin/shell`: layout, session, shared calls) and
 * nothing of the others; the frame imports none of them. */
const boundaries = [
  ...shopFeatures.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: 'A feature does not import another feature: move what both need to shared code',
  })),
  {
    target: './src/features/admin',
    from: './src/features',
    except: ['./admin'],
    message: 'The console does not import the shop\'s features: move what both need to shared code',
  },
  ...consoleFeatures.map((name) => ({
    target: `./src/features/admin/${name}`,
    from: './src/features/admin',
    except: [`./${name}`, './shell'],
    message: 'A console feature imports only the console\'s frame (`admin/shell`), never another console feature.',
  })),
  {
    target: './src/features/admin/shell',
    from: './src/features/admin',
    except: ['./shell'],
    message: 'The console\'s frame imports no console feature: the routes (`app/`) put them in it.',
  },
  { target: './src/features', from: './src/app', message: 'Features do not import the app' },
  {
    target: ['./src/api', './src/components', './src/i18n', './src/lib', './src/test'],
    from: ['./src/features', './src/app'],
    message: 'Shared code imports no feature and not the app',
  },
];

export default tseslint.config(
  { ignores: ['dist', 'e2e-artifacts', 'src/api/schema.d.ts'] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.strictTypeChecked],
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // `onClick={() => setOpen(false)}` is how React handlers are written.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // A number reads the same in a template as through `String()`.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // The DOM types describe a current browser; the code checks for what jsdom, older browsers
      // and newer servers lack (`dialog.close?.()`, `document.fonts?.load`, an unknown code).
      '@typescript-eslint/no-unnecessary-condition': 'off',
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: boundaries }],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**', 'src/test/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // It checks every feature's dictionary against the rules of the texts, so it loads them all.
    files: ['src/i18n/messages.test.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
);
