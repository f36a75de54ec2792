import { handlerById } from '../../shared/formats/format-registry';
import type { EventSink } from '../../shared/ipc/event-hub';
import type { ContextLoadParams, ContextLoadResult } from '../../shared/ipc/level-context-contract';
import { ServiceError } from '../../shared/ipc/rpc-error';
import type { LevelContext } from '../../shared/model/level-context';
import type { ContextBytes, LevelContextInput } from '../../shared/views/level-context-assemble';
import { BakePool, type BakePoolOptions } from './bake-pool/bake-pool';
import { decodeLevelContext, encodeLevelContext, encodeLevelContextInput, LEVEL_CONTEXT_JOB, LEVEL_CONTEXT_VERSION } from './bake-pool/level-context-job';
import { planIdentities, planLevelContext, type ContextPlan, type PlannedFile } from './level-context-sources';
import { contentHash, type BakeSpec } from './project/content-hash';
import type { ProjectStore } from './project/project-store';

/** The cache rows' baker id in the project's bake table (never a file's bake: no file names it). */
export const LEVEL_CONTEXT_BAKER = 'level-context';
export const LEVEL_CONTEXT_OUTPUT = 'walkbench-level-context';

export interface LevelContextServiceOptions {
  /** The open project's store, if `session` is its session; else throws `stale` (ProjectService.openStore). */
  openStore(session: string, method: string): ProjectStore;
  emit: EventSink;
  /** Bake pool settings (the worker entry in the Electron main process). */
  pool?: Omit<BakePoolOptions, 'concurrency'>;
  /** The pool's worker ends after this long without a request (default 30 s). */
  idleMs?: number;
}

export interface LevelContextService {
  handlers: { 'context.load': (params: ContextLoadParams) => Promise<ContextLoadResult> };
  close(): Promise<void>;
}

async function readAll(plan: ContextPlan, progress: (stage: string) => void): Promise<LevelContextInput> {
  const read = async (f: PlannedFile): Promise<ContextBytes> => {
    progress(`reading ${f.name}`);
    return { name: f.name, bytes: await f.read() };
  };
  const input: LevelContextInput = { game: plan.game, gaps: plan.gaps };
  if (plan.bsp) input.bsp = await read(plan.bsp);
  if (plan.nwn2Terrain) input.nwn2Terrain = await read(plan.nwn2Terrain);
  if (plan.nwn2TerrainTextures?.length) {
    input.nwn2TerrainTextures = [];
    for (const t of plan.nwn2TerrainTextures) input.nwn2TerrainTextures.push(await read(t));
  }
  if (plan.kotorRooms) {
    input.kotorRooms = [];
    for (const r of plan.kotorRooms) {
      const mdl = await read(r.mdl);
      const mdx = r.mdx ? (await read(r.mdx)).bytes : null;
      input.kotorRooms.push({ label: r.label, mdl, mdx, place: r.place, ...(r.wok ? { wok: (await read(r.wok)).bytes, placeByWalkmesh: r.placeByWalkmesh ?? false } : {}) });
    }
  }
  if (plan.nwn2Models) {
    const files: ContextBytes[] = [];
    const index = new Map<string, number>();
    const placed: NonNullable<LevelContextInput['nwn2Models']>['placed'] = [];
    for (const m of plan.nwn2Models) {
      let i = index.get(m.model.identity);
      if (i === undefined) {
        i = files.length;
        index.set(m.model.identity, i);
        files.push(await read(m.model));
      }
      placed.push({ label: m.label, file: i, place: m.place, ...(m.tile ? { tile: m.tile } : {}) });
    }
    input.nwn2Models = { files, placed };
  }
  if (plan.skyrimPlugins) {
    input.skyrimPlugins = [];
    for (const p of plan.skyrimPlugins) input.skyrimPlugins.push(await read(p));
  }
  return input;
}

/**
 * `context.load`: the level around a project file's walkmesh (level-context-sources.ts finds
 * the files), converted on a worker of its own (the `level-context` job of the bake pool, one
 * worker, started on the first request and ended when idle, so the app pays nothing until a
 * view asks), and cached in the project's bake table under the hash of every input's
 * identity and the reader version: a second open of the same file reads one row.
 * Requests for the same inputs while one is being read share it.
 */
export function createLevelContextService(options: LevelContextServiceOptions): LevelContextService {
  let pool: BakePool | undefined;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const inflight = new Map<string, Promise<{ context: LevelContext; elapsedMs: number }>>();
  const idleMs = options.idleMs ?? 30_000;

  function releaseWhenIdle(): void {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (!pool || pool.pending > 0) return;
      const p = pool;
      pool = undefined;
      void p.close();
    }, idleMs);
    idleTimer.unref?.();
  }

  async function convert(plan: ContextPlan, progress: (stage: string, fraction: number) => void): Promise<{ context: LevelContext; elapsedMs: number }> {
    const started = performance.now();
    const input = await readAll(plan, (stage) => progress(stage, 0));
    if (closed) throw new ServiceError('stale', 'context.load: the app is closing');
    if (idleTimer) clearTimeout(idleTimer);
    pool ??= new BakePool({ ...options.pool, concurrency: 1, unref: true });
    const job = pool.submit({ kind: LEVEL_CONTEXT_JOB, input: encodeLevelContextInput(input), label: 'level context' });
    const stop = pool.on((e) => {
      if (e.type === 'progress' && e.id === job.id) progress(e.stage, e.fraction);
    });
    const outcome = await job.result.finally(() => {
      stop();
      releaseWhenIdle();
    });
    if (outcome.status === 'cancelled') throw new ServiceError('stale', 'context.load: cancelled (the app is closing)');
    if (outcome.status === 'failed') throw new ServiceError('unreadable', `the level context could not be read: ${outcome.error}`);
    return { context: decodeLevelContext(outcome.output), elapsedMs: performance.now() - started };
  }

  const handlers: LevelContextService['handlers'] = {
    'context.load': async ({ session, fileId }) => {
      const store = options.openStore(session, 'context.load');
      const record = store.fileById(fileId);
      if (!record) throw new ServiceError('not-found', `${store.file}: no file with id ${fileId}`, 'params.fileId');
      const game = (record.format !== null ? handlerById(record.format)?.game : undefined) ?? store.info().game;
      const plan = await planLevelContext(store, record, game);
      const spec: BakeSpec = { bakerId: LEVEL_CONTEXT_BAKER, bakerVersion: LEVEL_CONTEXT_VERSION, inputs: [{ name: 'game', sha256: contentHash(new TextEncoder().encode(game)) }, ...planIdentities(plan)] };
      const hit = store.lookupBake(spec);
      if (hit && hit.outputFormat === LEVEL_CONTEXT_OUTPUT) {
        try {
          return { fileId, context: decodeLevelContext(store.loadBakeOutput(hit.id)), sources: plan.sources, cached: true, elapsedMs: 0 };
        } catch {
          // A cache row that does not decode (written by a damaged run) is read again below.
        }
      }
      const progress = (stage: string, fraction: number) => options.emit('context.progress', { session, fileId, stage, fraction: Math.min(Math.max(fraction, 0), 1) });
      const key = `${store.file}\n${JSON.stringify(spec.inputs)}`;
      let running = inflight.get(key);
      if (!running) {
        running = convert(plan, progress).finally(() => inflight.delete(key));
        inflight.set(key, running);
      }
      const { context, elapsedMs } = await running;
      // Cached only while the project that asked is still the one open.
      try {
        const still = options.openStore(session, 'context.load');
        still.recordBake({ ...spec, outputFormat: LEVEL_CONTEXT_OUTPUT, output: encodeLevelContext(context) });
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
      }
      return { fileId, context, sources: plan.sources, cached: false, elapsedMs };
    },
  };

  return {
    handlers,
    async close() {
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      const p = pool;
      pool = undefined;
      await p?.close();
    },
  };
}
