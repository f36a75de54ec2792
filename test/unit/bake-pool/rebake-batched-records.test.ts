import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebakeProject, type RebakeEntry } from '../../../electron/services/bake-pool/project-rebake';
import { contentHash } from '../../../electron/services/project/content-hash';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { BWM_FORMAT } from '../../../shared/formats/kotor/bwm-document';
import { listFixtures, readFixture } from '../../support/fixtures';

// A real project of KotOR walkmeshes (small, quick bakes) re-baked on the real pool.
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-batched-'));
const project = path.join(tmp, 'batched.wbproj');
const woks = listFixtures('kotor/k1-blackvulkar', ['.wok']);

beforeAll(() => {
  const store = ProjectStore.create(project, { name: 'batched', game: 'kotor' });
  try {
    store.transaction(() => {
      for (const f of woks) store.upsertFile({ module: 'm', name: path.basename(f), kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(f) });
    });
  } finally {
    store.close();
  }
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The bake rows another connection sees in the file: what is committed, nothing pending. */
function committedBakes(): Map<number, string> {
  const db = new Database(project, { readonly: true });
  try {
    return new Map((db.prepare('SELECT id, output_sha256 FROM bake_results').all() as { id: number; output_sha256: string }[]).map((r) => [r.id, r.output_sha256]));
  } finally {
    db.close();
  }
}

describe('rebakeProject records bakes in batches', () => {
  it('reports a bake only once it is committed, and every result survives in the project', async () => {
    expect(woks.length).toBeGreaterThan(3);
    const store = ProjectStore.open(project);
    const reported: RebakeEntry[] = [];
    const unseen: string[] = [];
    let committedAtFirstReport: number | undefined;
    try {
      const report = await rebakeProject(store, {
        force: true,
        // The run's own pool, in batches of 3 over more files than that.
        jobs: 2,
        recordBatch: 3,
        onFile: (e) => {
          reported.push(e);
          committedAtFirstReport ??= committedBakes().size;
          // Reported means durable: a second connection already sees the bake.
          if (e.status === 'baked' && committedBakes().get(e.bakeId) !== e.outputSha256) unseen.push(e.file);
        },
      });
      expect(report.counts).toEqual({ baked: woks.length, skipped: 0, failed: 0 });
      expect(unseen).toEqual([]);
      // Batched: when the first result is reported its whole batch is in the file (per-result
      // commits would show 1; a batch cut short by its 1 s wait, at least 2 in practice).
      expect(committedAtFirstReport).toBeGreaterThan(1);
      expect(reported).toHaveLength(woks.length);
    } finally {
      store.close();
    }
    // Reopened: every file has its bake, and each stored hash (the worker's) is the hash of the stored bytes.
    const again = ProjectStore.open(project);
    try {
      for (const f of again.listFiles()) {
        const report = await rebakeProject(again, { fileId: f.id, jobs: 1 });
        expect(report.counts).toEqual({ baked: 0, skipped: 1, failed: 0 });
      }
      const bakes = again.listBakes();
      expect(bakes).toHaveLength(woks.length);
      for (const b of bakes) expect(contentHash(again.loadBakeOutput(b.id))).toBe(b.outputSha256);
    } finally {
      again.close();
    }
  }, 120_000);

  it('refuses a batch size that is not a whole number ≥ 1 before starting any worker', async () => {
    const store = ProjectStore.open(project);
    try {
      await expect(rebakeProject(store, { force: true, jobs: 1, recordBatch: 0 })).rejects.toThrow(/recordBatch must be a whole number/);
    } finally {
      store.close();
    }
  });
});
