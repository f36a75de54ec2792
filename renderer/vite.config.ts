// The renderer's build: Vue single-file components into dist/renderer with relative asset
// paths, so the same files load from the browser-mode server and Electron's app protocol.
import vue from '@vitejs/plugin-vue';
// eslint-disable-next-line no-restricted-imports -- the build configuration runs in Node, not in the renderer
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: './',
  plugins: [vue()],
  build: {
    outDir: here('../dist/renderer'),
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: true,
    // Babylon.js is one large chunk by nature; the app loads from disk, not a network.
    chunkSizeWarningLimit: 6000,
    // Chromium supports modulepreload natively; the polyfill would only add code.
    modulePreload: { polyfill: false },
  },
});
