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
]);
