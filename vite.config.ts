import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = process.env.TWOFOLD_API ?? 'http://localhost:8080';

/**
 * The portal host page (demo/portal) built to dist/portal, served by the server at /portal with
 * its assets at /assets. Element bundles are built separately by dist-config/build.mjs.
 * `npx vite` serves the portal in development and proxies the API and the dev mailbox.
 */
export default defineConfig({
  root: `${root}demo/portal`,
  base: '/',
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: `${root}dist/portal`,
    emptyOutDir: true,
    reportCompressedSize: false,
    target: 'es2022',
    // Every browser that runs es2022 knows <link rel="modulepreload">: no polyfill in the first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // As in the element bundles (dist-config/build.mjs): an unused contract module, or an unused
      // schema inside one, is left out; the first load parses with a few schemas, not every area's.
      treeshake: {
        moduleSideEffects: [{ test: /[\\/]src[\\/]contract[\\/]/, sideEffects: false }],
        manualPureFunctions: ['z'],
      },
      output: {
        // Libraries change less often than our code: a separate chunk stays cached across releases.
        // Only those the first page needs ($initial: the shell's); a screen's own libraries load
        // with that screen (demo/portal/screens.tsx).
        codeSplitting: { groups: [{ name: 'vendor', test: /node_modules/, tags: ['$initial'] }] },
      },
    },
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/dev': apiTarget,
      '/elements': apiTarget,
    },
  },
});
