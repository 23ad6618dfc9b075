// `npm run build`: the portal (dist/portal, shared chunks) and one self-contained minified ES
// module per element (dist/elements/twofold-*.js), then the CSS leak check. Two cores on CI:
// the builds run two at a time in this one process.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { checkShippedCss } from './check-css.mjs';
import { elementNames } from './elements.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();

function elementBuild(name) {
  return build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    plugins: [react()],
    // Library mode leaves process.env alone; React needs its production build chosen here.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: join(root, 'dist', 'elements'),
      emptyOutDir: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      target: 'es2022',
      minify: true,
      lib: { entry: join(root, 'elements', `${name}.ts`), formats: ['es'], fileName: () => `${name}.js` },
      // build.minify does not minify ES library output; the bundler's own option does.
      rolldownOptions: { output: { minify: true } },
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
  ...elementNames.map((name) => () => elementBuild(name)),
]);

const { files, failures } = checkShippedCss(root);
if (failures.length) {
  console.error(`CSS leak check failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
// scripts/start.mjs rebuilds when sources are newer than this stamp.
writeFileSync(join(root, 'dist', '.build-stamp'), new Date().toISOString());
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `Built dist/portal and ${elementNames.length} elements in dist/elements in ${seconds}s; CSS leak check passed (${files} stylesheets).`,
);
