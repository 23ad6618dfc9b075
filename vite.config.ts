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
    rolldownOptions: {
      output: {
        // Libraries change less often than our code: a separate chunk stays cached across releases.
        codeSplitting: { groups: [{ name: 'vendor', test: /node_modules/ }] },
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
