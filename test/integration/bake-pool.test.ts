import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeBwm, bakeInputOf } from '../../shared/bakers/kotor/bwm-bake';
import { rebakeTrx } from '../../shared/bakers/nwn2/trx-rebake';
import { readBwm } from '../../shared/formats/kotor/bwm-reader';
import { writeBwm } from '../../shared/formats/kotor/bwm-writer';
import { DEFAULT_WALKABILITY } from '../../shared/formats/kotor/surface-materials';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { writeTrx } from '../../shared/formats/nwn2/trx-writer';
import { BakePool, type BakePoolOptions } from '../../electron/services/bake-pool/bake-pool';
import type { JobOutcome } from '../../electron/services/bake-pool/bake-job-types';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { fixtureName, listFixtures, readFixture, repoRoot } from '../support/fixtures';

/**
 * The pool with the real bakers. One side runs the worker from the .ts source (through the
 * tsx bootstrap), the other from an esbuild bundle of it made as build/build-node.mjs makes
 * dist/workers/bake-worker.mjs, so both ways of starting it are tested. The bundle goes to
 * a temporary folder, so this file never races another test rebuilding dist/.
 */
const outDir = mkdtempSync(path.join(tmpdir(), 'walkbench-bake-worker-'));
const builtWorker = pathToFileURL(path.join(outDir, 'bake-worker.mjs'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

beforeAll(async () => {
  await build({
    entryPoints: [path.join(repoRoot, 'electron/services/bake-pool/bake-worker.ts')],
    outfile: path.join(outDir, 'bake-worker.mjs'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __wbCreateRequire } from 'node:module'; const require = __wbCreateRequire(import.meta.url);" },
  });
});

async function bakeAll(kind: string, files: readonly string[], options: BakePoolOptions): Promise<Map<string, JobOutcome>> {
  const pool = new BakePool(options);
  try {
    const handles = files.map((f) => [f, pool.submit({ kind, input: readFixture(f), label: fixtureName(f) })] as const);
    const out = new Map<string, JobOutcome>();
    for (const [f, h] of handles) out.set(f, await h.result);
    return out;
  } finally {
    await pool.close();
  }
}

function doneBytes(o: JobOutcome | undefined, name: string): Uint8Array {
  if (o?.status !== 'done') throw new Error(`${name}: ${JSON.stringify(o)}`);
  return o.output;
}

describe('bake pool with the real bakers', () => {
  it('re-bakes every NWN2 fixture TRX to the same bytes with 1 worker and with 2', async () => {
    const files = listFixtures('nwn2', ['.trx']);
    expect(files.length).toBeGreaterThan(10);
    const one = await bakeAll('nwn2-rebake', files, { concurrency: 1 });
    const two = await bakeAll('nwn2-rebake', files, { concurrency: 2, entry: { file: builtWorker } });
    for (const f of files) {
      const a = doneBytes(one.get(f), fixtureName(f));
      const b = doneBytes(two.get(f), fixtureName(f));
      expect(Buffer.compare(a, b), fixtureName(f)).toBe(0);
    }
    // The smallest file again in this thread: the pool runs the real baker, unchanged.
    const smallest = files.reduce((s, f) => (readFixture(f).length < readFixture(s).length ? f : s));
    const direct = writeTrx(rebakeTrx(readTrx(readFixture(smallest), env)).document, env);
    expect(Buffer.compare(doneBytes(one.get(smallest), smallest), direct)).toBe(0);
  }, 240_000);

  it('bakes every KotOR fixture WOK in the built worker to the bytes an in-thread bake gives', async () => {
    const files = listFixtures('kotor', ['.wok']);
    expect(files.length).toBeGreaterThan(0);
    const pooled = await bakeAll('kotor-bake', files, { concurrency: 2, entry: { file: builtWorker } });
    for (const f of files) {
      const direct = writeBwm(bakeBwm(bakeInputOf(readBwm(readFixture(f))), DEFAULT_WALKABILITY).document);
      expect(Buffer.compare(doneBytes(pooled.get(f), fixtureName(f)), direct), fixtureName(f)).toBe(0);
    }
  });

  it('fails a malformed file alone with the reader message while the other files bake', async () => {
    const files = listFixtures('nwn2', ['.trx']).slice(0, 3);
    const pool = new BakePool({ concurrency: 2, entry: { file: builtWorker } });
    try {
      const bad = pool.submit({ kind: 'nwn2-rebake', input: new Uint8Array([0x4e, 0x57, 0x4e, 0x32, 1, 2, 3]) });
      const good = files.map((f) => pool.submit({ kind: 'nwn2-rebake', input: readFixture(f) }));
      const o = await bad.result;
      expect(o.status).toBe('failed');
      expect(o.status === 'failed' ? o.error.length : 0).toBeGreaterThan(10);
      for (const h of good) expect((await h.result).status).toBe('done');
    } finally {
      await pool.close();
    }
  });
});
