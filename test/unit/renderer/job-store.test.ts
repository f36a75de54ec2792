import { createPinia, setActivePinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import { createApp } from 'vue';
import type { EventName, Method, Params, WalkbenchEvents } from '../../../shared/ipc/contract';
import type { JobProgress } from '../../../shared/ipc/jobs-contract';
import type { ProjectTree } from '../../../shared/ipc/project-contract';
import { useProjectStore } from '../../../renderer/src/stores/project-store';
import type { RpcOutcome } from '../../../shared/ipc/rpc-error';
import { useJobStore } from '../../../renderer/src/stores/job-store';
import { useSelectionStore } from '../../../renderer/src/stores/selection-store';
import { clientKey } from '../../../renderer/src/transport/client-key';
import type { Transport } from '../../../renderer/src/transport/transport';
import { WalkbenchClient } from '../../../renderer/src/transport/walkbench-client';

const PROJECT = '/projects/vulkar.walkbench';
const SESSION = 'session-0001';
const tree: ProjectTree = { session: SESSION, path: PROJECT, name: 'vulkar', game: 'kotor', modules: [] };

const job = (jobId: number, seq: number, patch: Partial<JobProgress> = {}): JobProgress => ({
  jobId,
  project: PROJECT,
  title: 'Bake everything',
  done: seq,
  total: 5,
  label: '',
  state: 'running',
  baked: seq,
  skipped: 0,
  failed: 0,
  failures: [],
  seq,
  ...patch,
});

/** The store inside an app that provides a client over a scripted transport, with a project open. */
async function setup(script: (method: Method, params: unknown) => RpcOutcome<unknown>) {
  const answer = (method: Method, params: unknown): RpcOutcome<unknown> => (method === 'project.open' ? { ok: true, value: tree } : method === 'project.state' ? { ok: true, value: { session: SESSION, files: [] } } : script(method, params));
  const calls: { method: Method; params: unknown }[] = [];
  const listeners = new Map<string, (p: unknown) => void>();
  const transport: Transport = {
    invoke: <M extends Method>(method: M, params: Params<M>) => {
      calls.push({ method, params });
      return Promise.resolve(answer(method, params)) as never;
    },
    on: (event, listener) => {
      listeners.set(event, listener as (p: unknown) => void);
      return () => void listeners.delete(event);
    },
  };
  const app = createApp({});
  app.provide(clientKey, new WalkbenchClient(transport));
  const pinia = createPinia();
  app.use(pinia);
  setActivePinia(pinia);
  const store = app.runWithContext(() => useJobStore());
  const selection = app.runWithContext(() => useSelectionStore());
  await app.runWithContext(() => useProjectStore()).open(PROJECT);
  const push = <E extends EventName>(event: E, payload: WalkbenchEvents[E]) => listeners.get(event)?.(payload);
  return { store, selection, calls, push, listeners };
}

describe('the job store', () => {
  it('keeps the newest state of each job, whichever of an event and a list answer comes last', async () => {
    let listed: JobProgress[] = [job(1, 2)];
    const { store, push } = await setup((method) => (method === 'jobs.list' ? { ok: true, value: { jobs: listed } } : { ok: true, value: { jobId: 2 } }));
    await store.start();
    expect(store.jobs.map((j) => [j.jobId, j.seq])).toEqual([[1, 2]]);
    push('jobs.progress', job(1, 4));
    push('jobs.progress', job(1, 3));
    expect(store.jobs[0]!.seq).toBe(4);
    listed = [job(1, 3), job(2, 1)];
    await store.refresh();
    expect(store.jobs.map((j) => [j.jobId, j.seq])).toEqual([
      [2, 1],
      [1, 4],
    ]);
    expect(store.running).toBe(true);
    push('jobs.progress', job(1, 5, { state: 'done' }));
    push('jobs.progress', job(2, 2, { state: 'cancelled' }));
    expect(store.running).toBe(false);
    store.dismiss(2);
    expect(store.jobs.map((j) => j.jobId)).toEqual([1]);
    // Another project's job says nothing about this one: it is not listed.
    push('jobs.progress', job(3, 1, { project: '/projects/other.walkbench' }));
    expect(store.jobs.map((j) => j.jobId)).toEqual([1]);
    store.stop();
  });

  it('starts bakes with the scope asked for and shows why one was refused', async () => {
    const { store, calls } = await setup((method, params) => {
      if (method === 'jobs.list') return { ok: true, value: { jobs: [] } };
      if ((params as { scope?: string }).scope === 'module') return { ok: false, error: { code: 'not-found', message: 'there is no module "x"' } };
      return { ok: true, value: { jobId: 7 } };
    });
    expect(await store.bakeAll(true)).toBe(7);
    expect(await store.bakeFile(12)).toBe(7);
    expect(await store.bakeModule('x')).toBeNull();
    expect(store.error).toBe('there is no module "x"');
    expect(calls.filter((c) => c.method === 'jobs.bake').map((c) => c.params)).toEqual([
      { scope: 'all', force: true, session: SESSION },
      { scope: 'file', fileId: 12, force: false, session: SESSION },
      { scope: 'module', module: 'x', force: false, session: SESSION },
    ]);
    await store.cancel(7);
    expect(calls.at(-1)).toEqual({ method: 'jobs.cancel', params: { jobId: 7 } });
  });

  it('focuses the face of a failure: opens the project file, then selects the face', async () => {
    const opened = { name: 'bad.wok', path: null, byteLength: 1, report: { errors: [], warnings: [] }, walkmeshes: [] };
    const { store, selection, calls } = await setup((method) => (method === 'project.openFile' ? { ok: true, value: opened } : { ok: true, value: { jobs: [] } }));
    await store.focusFace(42, 3, 'bad.wok');
    expect(calls.find((c) => c.method === 'project.openFile')?.params).toEqual({ session: SESSION, fileId: 42 });
    expect(store.focusRequest).toMatchObject({ fileId: 42, face: 3 });
    expect(selection.selected).toEqual({ mesh: 0, face: 3 });
    const first = store.focusRequest!.seq;
    await store.focusFace(42, 3);
    expect(store.focusRequest!.seq).toBeGreaterThan(first);
  });
});
