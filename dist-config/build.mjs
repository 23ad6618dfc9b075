// `npm run build`: the portal (dist/portal, shared chunks), one self-contained minified ES module
// per staff element (dist/elements/twofold-*.js, React), the public elements together against
// preact/compat (a small module each plus the runtime they share,
// dist/elements/twofold-public-runtime.js), then the CSS leak check. Two cores on CI: the builds
// run two at a time in this one process.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { checkShippedCss } from './check-css.mjs';
import { publicElementNames, publicRuntimeName, staffElementNames } from './elements.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const syncStoreShim = fileURLToPath(new URL('./use-sync-external-store-shim.js', import.meta.url));
const preactClient = fileURLToPath(new URL('./preact-client.js', import.meta.url));
const started = performance.now();

/**
 * The bundler options every element build shares: minified ES output with the licence banner, and
 * the contract's schemas tree-shaken.
 */
const elementRolldownOptions = {
  // build.minify does not minify ES library output; the bundler's own option does.
  // The licence notices go to dist/elements/LICENSES.txt (written below, linked from each
  // file's first line) rather than repeated inside every element.
  output: { minify: true, comments: false, postBanner: '/*! Licences: ./LICENSES.txt */' },
  // The contract is schema declarations only: a module nothing is used from (the barrel
  // re-exports every area) is left out instead of shipping every area's schemas.
  // Schema factories (`z.object(...)`, `z.string().check(...)`) have no side effects: a schema
  // the element never uses is dropped even when its module is in (the browser code never calls z.config).
  treeshake: {
    moduleSideEffects: [{ test: /[\\/]src[\\/]contract[\\/]/, sideEffects: false }],
    manualPureFunctions: ['z'],
  },
};

/** A staff element (and the toaster): React, one self-contained module. */
function elementBuild(name) {
  return build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    plugins: [react()],
    // Library mode leaves process.env alone; React needs its production build chosen here.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    // The signals runtime asks for React 18's useSyncExternalStore shim, which on React 19 hands
    // back React's own hook: take it from React directly and ship none of the fallback.
    resolve: {
      alias: [{ find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: syncStoreShim }],
    },
    build: {
      outDir: join(root, 'dist', 'elements'),
      emptyOutDir: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      target: 'es2022',
      minify: true,
      lib: { entry: join(root, 'elements', `${name}.ts`), formats: ['es'], fileName: () => `${name}.js` },
      rolldownOptions: elementRolldownOptions,
    },
  });
}

/** Where React's modules lead in the public build: Preact's compatibility layer (preact/compat). */
const preactAliases = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  // Preact's createRoot, rendering an event's updates before the next event as React does.
  { find: /^react-dom\/client$/, replacement: preactClient },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  // Should a public element use signals: their store hook from preact/compat, not the fallback.
  { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: syncStoreShim },
];

/**
 * The public elements, built together against preact/compat (React's API in about a tenth of its
 * size; r2wc takes it as React). Each element is a small ES module of its own
 * (dist/elements/twofold-faq.js...) that imports what two or more public elements share from
 * ./twofold-public-runtime.js: Preact, r2wc, the element runtime, the form primitives and the API
 * client. A relative import resolves against the element's own URL, so one script tag per element
 * still works from any site (the server sends /elements/* with CORS), and a page with two public
 * elements loads the runtime once (the browser's module map keys it by URL).
 */
function publicElementsBuild() {
  return build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    plugins: [react()],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    resolve: { alias: preactAliases },
    build: {
      outDir: join(root, 'dist', 'elements'),
      emptyOutDir: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      target: 'es2022',
      minify: true,
      lib: {
        entry: Object.fromEntries(
          publicElementNames.map((name) => [name, join(root, 'elements', `${name}.ts`)]),
        ),
        formats: ['es'],
        fileName: (_format, name) => `${name}.js`,
      },
      rolldownOptions: {
        ...elementRolldownOptions,
        // Preact ships minified, with a function of its own named `z` (its diff): naming `z` pure
        // would drop Preact's rendering. The contract's modules are still left out when unused.
        treeshake: { moduleSideEffects: elementRolldownOptions.treeshake.moduleSideEffects },
        output: {
          ...elementRolldownOptions.output,
          // Stable names: a partner's page names the element's file, and the element names the runtime.
          chunkFileNames: '[name].js',
          codeSplitting: { groups: [{ name: publicRuntimeName, minShareCount: 2 }] },
        },
      },
    },
  });
}

async function inPairs(tasks) {
  const queue = [...tasks];
  const worker = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) await task();
  };
  await Promise.all([worker(), worker()]);
}

rmSync(join(root, 'dist', 'elements'), { recursive: true, force: true });
mkdirSync(join(root, 'dist', 'elements'), { recursive: true });

await inPairs([
  () => build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' }),
  () => publicElementsBuild(),
  ...staffElementNames.map((name) => () => elementBuild(name)),
]);

// The third-party code inside every element, and its licence (all MIT); @r2wc ships no licence
// file, so its package.json's licence field stands for it.
const bundled = [
  'preact',
  'react',
  'react-dom',
  'scheduler',
  '@r2wc/core',
  '@r2wc/react-to-web-component',
  'zod',
  'ky',
  '@preact/signals-core',
  '@preact/signals-react',
];
const licences = bundled.map((name) => {
  const dir = join(root, 'node_modules', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const file = ['LICENSE', 'license', 'LICENSE.md'].map((f) => join(dir, f)).find((f) => existsSync(f));
  const text = file
    ? readFileSync(file, 'utf8').trim()
    : `Licence: ${pkg.license} (see https://www.npmjs.com/package/${name})`;
  return `${name} ${pkg.version}\n\n${text}`;
});
writeFileSync(
  join(root, 'dist', 'elements', 'LICENSES.txt'),
  `${licences.join(`\n\n${'-'.repeat(72)}\n\n`)}\n`,
);

// custom-elements.json beside the bundles (served at /elements/custom-elements.json), from the
// elements' JSDoc: see custom-elements-manifest.config.mjs.
execFileSync(
  process.execPath,
  [
    join(root, 'node_modules', '@custom-elements-manifest', 'analyzer', 'cem.js'),
    'analyze',
    '--config',
    join(root, 'custom-elements-manifest.config.mjs'),
    '--quiet',
  ],
  { cwd: root, stdio: 'inherit' },
);

const { files, failures } = checkShippedCss(root);
if (failures.length) {
  console.error(`CSS leak check failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
// scripts/start.mjs rebuilds when sources are newer than this stamp.
writeFileSync(join(root, 'dist', '.build-stamp'), new Date().toISOString());
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `Built dist/portal, ${staffElementNames.length} staff elements and ${publicElementNames.length} public ones (sharing ${publicRuntimeName}.js) in dist/elements in ${seconds}s; CSS leak check passed (${files} stylesheets).`,
);
