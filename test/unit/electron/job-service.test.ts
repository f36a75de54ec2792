import { projectResolver } from '../../support/project-resolver';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BakePool } from '../../../electron/services/bake-pool/bake-pool';
import { rebakeProject } from '../../../electron/services/bake-pool/project-rebake';
import { createJobService, faceNamedIn, type JobService } from '../../../electron/services/job-service';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { BWM_FORMAT } from '../../../shared/formats/kotor/bwm-document';
import { createEventHub } from '../../../shared/ipc/event-hub';
import type { JobProgress } from '../../../shared/ipc/jobs-contract';
import { listFixtures, readFixture } from '../../support/fixtures';

// A real project made from the KotOR fixtures, baked on the real bake pool (worker
// threads running the TypeScript sources through tsx).
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-jobs-'));
const project = path.join(tmp, 'jobs.wbproj');
const woks = listFixtures('kotor/k1-blackvulkar', ['.wok']);
/** Face whose first vertex index the broken copy points past the vertex table. */
const BROKEN_FACE = 5;
let brokenId = 0;
let areId = 0;

const events: JobProgress[] = [];
/** Copies taken as each event arrived: an event object must not change after it is sent. */
const copies: JobProgress[] = [];
const hub = createEventHub();
hub.subscribe((event, payload) => {
  if (event !== 'jobs.progress') return;
  events.push(payload as JobProgress);
  copies.push(structuredClone(payload as JobProgress));
});
let service: JobService;

/** The handler's ServiceError: the code and message dispatch hands the page. */
async function expectRefusal(call: Promise<unknown>, code: string, text: RegExp): Promise<void> {
  await expect(call).rejects.toMatchObject({ code, message: expect.stringMatching(text) });
}

beforeAll(() => {
  const store = ProjectStore.create(project, { name: 'Jobs', game: 'kotor' });
  try {
    for (const file of woks) store.upsertFile({ module: 'm10aa', name: path.basename(file), kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(file) });
    const bytes = readFixture(woks[0]!).slice();
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const faceOffset = view.getUint32(0x54, true);
    view.setUint32(faceOffset + BROKEN_FACE * 12, 0xffff, true);
    brokenId = store.upsertFile({ module: 'broken', name: 'bad-face.wok', kind: 'walkmesh', format: BWM_FORMAT, bytes }).fileId;
    store.upsertFile({ module: 'broken', name: 'cut.wok', kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(woks[1]!).slice(0, 120) });
    areId = store.upsertFile({ module: 'broken', name: 'area.are', kind: 'are', bytes: new Uint8Array([1, 2, 3]) }).fileId;
  } finally {
    store.close();
  }
  service = createJobService({ emit: hub.emit, resolveProject: projectResolver(() => project), concurrency: 1, progressIntervalMs: 0 });
});

afterAll(async () => {
  await service?.close();
  rmSync(tmp, { recursive: true, force: true });
});

function eventsOf(jobId: number): JobProgress[] {
  return events.filter((e) => e.jobId === jobId);
}

function bakesIn(file: string): number {
  const store = ProjectStore.open(file);
  try {
    return store.listBakes().length;
  } finally {
    store.close();
  }
}

describe('the job service', () => {
  it('bakes a module, publishing progress up to done, and records the bakes in the project', async () => {
    expect(woks.length).toBeGreaterThanOrEqual(4);
    const { jobId } = await service.handlers['jobs.bake']({ scope: 'module', module: 'm10aa' });
    const final = await service.settled(jobId);
    expect(final).toMatchObject({ state: 'done', title: 'Bake module m10aa', total: woks.length, done: woks.length, baked: woks.length, skipped: 0, failed: 0, failures: [] });
    const seen = eventsOf(jobId);
    expect(seen[0]).toMatchObject({ state: 'running', done: 0, total: woks.length });
    expect(seen.at(-1)).toEqual(final);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.seq).toBeGreaterThan(seen[i - 1]!.seq);
      expect(seen[i]!.done).toBeGreaterThanOrEqual(seen[i - 1]!.done);
    }
    // One event per finished file at least (the interval is 0 here).
    expect(new Set(seen.map((e) => e.done))).toEqual(new Set(Array.from({ length: woks.length + 1 }, (_, i) => i)));
    expect(events).toEqual(copies);
    expect(bakesIn(project)).toBe(woks.length);
    expect((await service.handlers['jobs.list']({})).jobs.find((j) => j.jobId === jobId)).toEqual(final);
  }, 120_000);

  it('skips what is baked already unless forced', async () => {
    const again = await service.settled((await service.handlers['jobs.bake']({ scope: 'module', module: 'm10aa' })).jobId);
    expect(again).toMatchObject({ state: 'done', baked: 0, skipped: woks.length });
    const store = ProjectStore.open(project);
    const id = store.listFiles({ module: 'm10aa' })[0]!.id;
    store.close();
    const forced = await service.settled((await service.handlers['jobs.bake']({ scope: 'file', fileId: id, force: true })).jobId);
    expect(forced).toMatchObject({ state: 'done', total: 1, baked: 1, skipped: 0 });
    expect(forced.title).toMatch(/^Bake m10aa\//);
    expect(bakesIn(project)).toBe(woks.length);
  }, 120_000);

  it('fails a job whose inputs cannot be baked, with each message and the face it names', async () => {
    const { jobId } = await service.handlers['jobs.bake']({ scope: 'module', module: 'broken' });
    const final = await service.settled(jobId);
    expect(final).toMatchObject({ state: 'failed', total: 2, done: 2, baked: 0, failed: 2 });
    const bad = final.failures.find((f) => f.file === 'broken/bad-face.wok');
    expect(bad).toMatchObject({ fileId: brokenId, face: BROKEN_FACE });
    expect(bad!.message).toMatch(new RegExp(`face ${BROKEN_FACE} uses vertex 65535`));
    const cut = final.failures.find((f) => f.file === 'broken/cut.wok');
    expect(cut?.message).toMatch(/offset|bytes/);
    expect(cut?.face).toBeUndefined();
  }, 120_000);

  it('cancels a running job: the bake in flight ends and the rest never starts', async () => {
    let cancelled: Promise<{ cancelled: boolean }> | undefined;
    const stop = hub.subscribe((event, payload) => {
      const p = payload as JobProgress;
      // As soon as the first file is finished, cancel (synchronously, inside the event).
      if (event === 'jobs.progress' && p.done === 1 && p.state === 'running' && !cancelled) cancelled = service.handlers['jobs.cancel']({ jobId: p.jobId });
    });
    try {
      const { jobId } = await service.handlers['jobs.bake']({ scope: 'all', force: true });
      const final = await service.settled(jobId);
      expect(await cancelled).toEqual({ cancelled: true });
      expect(final.state).toBe('cancelled');
      expect(final.done).toBe(1);
      expect(final.total).toBe(woks.length + 2);
      expect(final.baked + final.failed).toBe(1);
      expect(final.label).toMatch(/^Cancelled after/);
      expect(await service.handlers['jobs.cancel']({ jobId })).toEqual({ cancelled: false });
    } finally {
      stop();
    }
  }, 120_000);

  it('refuses a bake it cannot start, saying why', async () => {
    const none = createJobService({ emit: () => {} });
    await expectRefusal(none.handlers['jobs.bake']({ scope: 'all' }), 'invalid-params', /name the project to bake/);
    await expectRefusal(service.handlers['jobs.bake']({ scope: 'module' }), 'invalid-params', /needs params.module/);
    await expectRefusal(service.handlers['jobs.bake']({ scope: 'module', module: 'nowhere' }), 'not-found', /no module "nowhere"/);
    await expectRefusal(service.handlers['jobs.bake']({ scope: 'file', fileId: 999_999 }), 'not-found', /no file 999999/);
    await expectRefusal(service.handlers['jobs.bake']({ scope: 'file', fileId: areId }), 'invalid-params', /area\.are is a are file/);
    await expectRefusal(service.handlers['jobs.bake']({ scope: 'all', project: path.join(tmp, 'missing.wbproj') }), 'not-found', /missing\.wbproj/);
    await expectRefusal(service.handlers['jobs.bake']({ scope: 'all', project: 'relative.wbproj' }), 'invalid-params', /absolute path/);
  });
});

describe('rebakeProject with an abort signal on a shared pool', () => {
  it('cancels only its own jobs and leaves the pool open for its owner', async () => {
    const pool = new BakePool({ concurrency: 1 });
    const store = ProjectStore.open(project);
    try {
      const abort = new AbortController();
      const report = await rebakeProject(store, {
        module: 'm10aa',
        force: true,
        sharedPool: pool,
        signal: abort.signal,
        onFile: () => abort.abort(),
      });
      const finished = report.entries.filter((e) => e.status !== 'failed' || e.reason !== 'cancelled');
      expect(finished).toHaveLength(1);
      expect(report.entries.length).toBeLessThan(woks.length);
      // The pool still takes work.
      const bytes = store.loadFileBytes(store.listFiles({ module: 'm10aa' })[0]!.id);
      expect((await pool.submit({ kind: 'kotor-bake', input: bytes }).result).status).toBe('done');
    } finally {
      store.close();
      await pool.close();
    }
  }, 120_000);
});

describe('faceNamedIn', () => {
  it('finds the face or triangle a message names', () => {
    expect(faceNamedIn('face 12 uses vertex 99 but the walkmesh has 40 vertices')).toBe(12);
    expect(faceNamedIn('navmesh 0x1 triangle 7 has zero area')).toBe(7);
    expect(faceNamedIn('Triangle #3: edge slot 2 names edge 9')).toBe(3);
    expect(faceNamedIn('the header ends at offset 120, expected 136 bytes')).toBeUndefined();
    expect(faceNamedIn('surface 4 is missing')).toBeUndefined();
  });
});
