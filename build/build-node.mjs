// Bundles the Node-side entry points (CLI, Electron main and preload, workers) with
// esbuild. Native and Electron modules stay external.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const external = ['electron', 'better-sqlite3', 'playwright-core'];
const pkg = JSON.parse(await import('node:fs').then((fs) => fs.promises.readFile(path.join(root, 'package.json'), 'utf8')));
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
  absWorkingDir: root,
  define: { WALKBENCH_VERSION: JSON.stringify(pkg.version) },
};

await Promise.all([
  build({
    ...common,
    entryPoints: { 'cli/walkbench': 'electron/cli/walkbench.ts' },
    outdir: 'dist',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    banner: { js: "import { createRequire as __wbCreateRequire } from 'node:module'; const require = __wbCreateRequire(import.meta.url);" },
  }),
  // The bake pool's worker (electron/services/bake-pool), found next to the CLI bundle at run time.
  build({
    ...common,
    entryPoints: { 'workers/bake-worker': 'electron/services/bake-pool/bake-worker.ts' },
    outdir: 'dist',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    banner: { js: "import { createRequire as __wbCreateRequire } from 'node:module'; const require = __wbCreateRequire(import.meta.url);" },
  }),
  // Electron main process: CommonJS (package.json "main" is dist/electron/main.cjs).
  build({
    ...common,
    entryPoints: { 'electron/main': 'electron/main.ts' },
    outdir: 'dist',
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
  }),
  // The preload runs sandboxed, where only CommonJS and require('electron') are available.
  build({
    ...common,
    entryPoints: { 'electron/preload': 'electron/preload.ts' },
    outdir: 'dist',
    format: 'cjs',
    target: 'chrome130',
    outExtension: { '.js': '.cjs' },
  }),
]);
