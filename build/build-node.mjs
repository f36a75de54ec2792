// Bundles the Node-side entry points (CLI, Electron main and preload, workers) with
// esbuild. Native and Electron modules stay external.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';

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

/**
 * Chunks of earlier builds (their names hold a content hash, so each build adds new ones)
 * are removed once the new ones are written; the entry itself is rewritten in place.
 */
function removeStaleChunks(result) {
  const dir = path.join(root, 'dist', 'cli');
  const written = new Set(Object.keys(result.metafile.outputs).map((f) => path.resolve(root, f)));
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (/^chunk-[A-Z0-9]+\.mjs(\.map)?$/.test(name) || /-[A-Z0-9]{8}\.mjs(\.map)?$/.test(name)) {
      if (!written.has(file) && !written.has(file.replace(/\.map$/, ''))) fs.rmSync(file, { force: true });
    }
  }
}

await Promise.all([
  // The CLI splits at each command's dynamic import (electron/cli/walkbench.ts), so a call
  // parses only the chunks its command needs. The chunks sit beside the entry in dist/cli,
  // so `import.meta.url`-relative paths (the bake worker, the renderer) are the same from any.
  build({
    ...common,
    entryPoints: { 'cli/walkbench': 'electron/cli/walkbench.ts' },
    outdir: 'dist',
    format: 'esm',
    splitting: true,
    chunkNames: 'cli/[name]-[hash]',
    metafile: true,
    outExtension: { '.js': '.mjs' },
    banner: { js: "import { createRequire as __wbCreateRequire } from 'node:module'; const require = __wbCreateRequire(import.meta.url);" },
  }).then(removeStaleChunks),
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
