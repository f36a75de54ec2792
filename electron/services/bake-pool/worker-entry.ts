import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** How to start a bake worker: a built file, or code evaluated as an ES module. */
export type WorkerEntry = { file: URL } | { evalModule: string };

/**
 * Where the bake worker lives. In the product this module is bundled into
 * dist/cli/walkbench.mjs and the worker is its own bundle, dist/workers/bake-worker.mjs
 * (build/build-node.mjs), found next to it. Run from source (tests, `node --import tsx`)
 * this module is a .ts file; a worker does not inherit the tsx loader (Node 20 resolves a
 * worker's entry before an `--import` in its execArgv registers), so the worker starts
 * from a small evaluated module that registers tsx first and then imports bake-worker.ts —
 * the approach of test/fuzz/fuzz-run.ts.
 */
export function defaultWorkerEntry(): WorkerEntry {
  const here = import.meta.url as string | undefined;
  // A CommonJS bundle (the Electron main process) has no import.meta: it must pass an entry.
  if (typeof here !== 'string') throw new Error('the bake pool cannot locate its worker from a CommonJS bundle; pass BakePoolOptions.entry');
  if (here.endsWith('.ts')) {
    const tsxApi = tsxEsmApi(here);
    const entry = new URL('./bake-worker.ts', here).href;
    return { evalModule: `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });` };
  }
  const built = new URL('../workers/bake-worker.mjs', here);
  if (!existsSync(fileURLToPath(built))) throw new Error(`the bake worker is missing: expected ${fileURLToPath(built)} next to the bundle (run node build/build-node.mjs)`);
  return { file: built };
}

/**
 * The URL of tsx's ES module API. Found through tsx's package.json because a CommonJS
 * resolve picks the `require` condition and vitest does not provide import.meta.resolve.
 */
function tsxEsmApi(from: string): string {
  const require = createRequire(from);
  const pkgFile = require.resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports?: Record<string, { import?: { default?: string } }> };
  const rel = pkg.exports?.['./esm/api']?.import?.default;
  if (typeof rel !== 'string') throw new Error(`cannot find tsx's ESM API in ${pkgFile}`);
  return new URL(rel, pathToFileURL(pkgFile)).href;
}
