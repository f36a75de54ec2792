import { createPinia, setActivePinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import { createApp } from 'vue';
import type { EventName, Method, Params, WalkbenchEvents } from '../../../shared/ipc/contract';
import type { ExportPlanResult, ExportProgress } from '../../../shared/ipc/export-contract';
import type { RpcOutcome } from '../../../shared/ipc/rpc-error';
import { useExportStore } from '../../../renderer/src/stores/export-store';
import { clientKey } from '../../../renderer/src/transport/client-key';
import type { Transport } from '../../../renderer/src/transport/transport';
import { WalkbenchClient } from '../../../renderer/src/transport/walkbench-client';

const GAME = '/games/kotor';

const plan = (patch: Partial<ExportPlanResult> = {}): ExportPlanResult => ({
  project: '/p/vulkar.wbproj',
  target: { kind: 'folder', path: `${GAME}/override` },
  entries: [
    { file: 'm/a.wok', fileId: 1, targetPath: `${GAME}/override/a.wok`, resource: null, action: 'create', source: 'bake', change: 'rebaked', why: 'm/a.wok was edited', bytes: 10, errors: 0, warnings: 0, notCarried: [] },
    { file: 'm/b.wok', fileId: 2, targetPath: `${GAME}/override/B.WOK`, resource: null, action: 'replace', source: 'import', change: 'unchanged', why: 'unedited since import', bytes: 20, errors: 0, warnings: 1, notCarried: [] },
    { file: 'm/c.wok', fileId: 3, targetPath: `${GAME}/override/c.wok`, resource: null, action: 'unchanged', source: 'import', change: 'unchanged', why: 'unedited since import', bytes: 30, errors: 0, warnings: 0, notCarried: [] },
  ],
  refused: [],
  ...patch,
});

const progress = (jobId: number, seq: number, patch: Partial<ExportProgress> = {}): ExportProgress => ({
  jobId,
  project: '/p/vulkar.wbproj',
  gameDir: GAME,
  state: 'running',
  done: seq,
  total: 2,
  label: '',
  verified: [],
  backupDir: null,
  refused: [],
  error: null,
  seq,
  ...patch,
});

/** The store inside an app that provides a client over a scripted transport. */
function setup(answer: (method: Method, params: unknown) => RpcOutcome<unknown>) {
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
  const store = app.runWithContext(() => useExportStore());
  const push = <E extends EventName>(event: E, payload: WalkbenchEvents[E]) => listeners.get(event)?.(payload);
  return { store, calls, push };
}

describe('the export store', () => {
  it('asks for a folder before planning, then shows the plan with its counts', async () => {
    const { store, calls } = setup((method) => (method === 'export.plan' ? { ok: true, value: plan() } : { ok: false, error: { code: 'internal', message: 'unexpected' } }));
    store.show();
    store.gameDir = '  ';
    await store.preview();
    expect(store.error).toMatch(/Type the game folder/);
    expect(calls).toEqual([]);
    store.gameDir = ` ${GAME} `;
    store.module = 'm';
    await store.preview();
    expect(calls).toEqual([{ method: 'export.plan', params: { gameDir: GAME, module: 'm' } }]);
    expect(store.step).toBe('planned');
    expect(store.counts).toEqual({ create: 1, replace: 1, unchanged: 1 });
    expect(store.changes).toEqual({ unchanged: 2, edited: 0, rebaked: 1 });
    expect(store.canRun).toBe(true);
    expect(store.error).toBeNull();
    // Asked to re-bake unedited walkmeshes too, the plan call says so.
    store.rebake = true;
    await store.preview();
    expect(calls.at(-1)).toEqual({ method: 'export.plan', params: { gameDir: GAME, module: 'm', rebake: true } });
  });

  it('will not run a plan with refused files or nothing to write, and shows a refused plan call', async () => {
    let answer: RpcOutcome<unknown> = { ok: true, value: plan({ refused: [{ file: 'm/x.wok', reason: 'has no bake' }] }) };
    const { store, calls } = setup(() => answer);
    store.gameDir = GAME;
    await store.preview();
    expect(store.canRun).toBe(false);
    await store.run();
    expect(calls.map((c) => c.method)).toEqual(['export.plan']);
    answer = { ok: true, value: plan({ entries: plan().entries.map((e) => ({ ...e, action: 'unchanged' as const })) }) };
    await store.preview();
    expect(store.canRun).toBe(false);
    answer = { ok: false, error: { code: 'invalid-params', message: 'export.plan: params.gameDir must be an absolute path, not "x"', parameter: 'params.gameDir' } };
    store.gameDir = 'x';
    await store.preview();
    expect(store.step).toBe('choose');
    expect(store.plan).toBeNull();
    expect(store.error).toBe('export.plan: params.gameDir must be an absolute path, not "x"');
  });

  it('follows the run through events and status answers, keeping the newest state of its own run', async () => {
    const status = progress(7, 1);
    const { store, calls, push } = setup((method) => {
      if (method === 'export.plan') return { ok: true, value: plan() };
      if (method === 'export.run') return { ok: true, value: { jobId: 7 } };
      if (method === 'export.status') return { ok: true, value: status };
      return { ok: true, value: { cancelled: true } };
    });
    store.gameDir = GAME;
    await store.preview();
    // The field may change after the plan; the run goes where the plan was made for.
    store.gameDir = '/elsewhere';
    await store.run();
    expect(calls.find((c) => c.method === 'export.run')?.params).toEqual({ gameDir: GAME });
    expect(store.step).toBe('running');
    expect(store.progress?.seq).toBe(1);
    push('export.progress', progress(7, 3, { done: 1 }));
    push('export.progress', progress(7, 2));
    push('export.progress', progress(6, 9, { state: 'done' }));
    expect(store.progress?.seq).toBe(3);
    expect(store.percent).toBe(50);
    await store.cancel();
    expect(calls.at(-1)).toEqual({ method: 'export.cancel', params: { jobId: 7 } });
    const verified = [{ file: 'm/a.wok', targetPath: `${GAME}/override/a.wok`, resource: null, action: 'create' as const, bytes: 10, sha256: 'a'.repeat(64) }];
    push('export.progress', progress(7, 4, { state: 'failed', error: `${GAME}/override/B.WOK: permission denied`, verified, backupDir: '/p/vulkar.wbproj.backups/1' }));
    expect(store.step).toBe('finished');
    expect(store.error).toBe(`${GAME}/override/B.WOK: permission denied`);
    expect(store.progress?.verified).toEqual(verified);
    // An ended run is not cancelled again, and a late event of it changes nothing.
    const before = calls.length;
    await store.cancel();
    expect(calls).toHaveLength(before);
    push('export.progress', progress(7, 2));
    expect(store.progress?.state).toBe('failed');
    store.stop();
  });

  it('restores into the folder of the plan and shows what was put back', async () => {
    const restored = { runs: [3], files: [{ targetPath: `${GAME}/override/B.WOK`, action: 'restored' as const }] };
    const { store, calls } = setup((method) => (method === 'export.plan' ? { ok: true, value: plan() } : { ok: true, value: restored }));
    store.gameDir = GAME;
    await store.preview();
    await store.restore();
    expect(calls.at(-1)).toEqual({ method: 'export.restore', params: { gameDir: GAME } });
    expect(store.step).toBe('restored');
    expect(store.restored).toEqual(restored);
  });

  it('falls back to a typed path when there is no folder dialog', async () => {
    let dialog: RpcOutcome<unknown> = { ok: false, error: { code: 'unavailable', message: 'no dialog in browser mode' } };
    const { store } = setup(() => dialog);
    expect(await store.browse()).toBe(false);
    expect(store.error).toBeNull();
    dialog = { ok: true, value: { path: GAME } };
    expect(await store.browse()).toBe(true);
    expect(store.gameDir).toBe(GAME);
  });
});
