import { defineStore } from 'pinia';
import { computed, inject, markRaw, ref, shallowRef, watch } from 'vue';
import type { ContextLoadResult } from '../../../shared/ipc/level-context-contract';
import { WalkbenchRpcError } from '../../../shared/ipc/rpc-error';
import { levelContextTriangleCount, type LevelContext, type LevelContextKind } from '../../../shared/model/level-context';
import { buildTriangleBvh, raycastBvh, type TriangleBvh } from '../../../shared/geometry/triangle-bvh';
import { buildLevelContextIndex, dropToSurface, type LevelContextIndex } from '../../../shared/views/level-context-check';
import type { LevelFinding } from '../workers/level-check';

export type { LevelFinding } from '../workers/level-check';
import { clientKey } from '../transport/client-key';
import { useDocumentStore } from './document-store';
import { useProjectStore } from './project-store';

export type ContextLoadState = 'idle' | 'loading' | 'ready' | 'failed';

/** One file's context as the services answered, or where its loading stands. */
export interface FileContext {
  state: ContextLoadState;
  result: ContextLoadResult | null;
  error: string | null;
  stage: string | null;
  fraction: number;
  /** performance.now() when the request was made and when its answer arrived. */
  requestedAt: number;
  loadedAt: number | null;
}

/** What the legend shows per kind of piece. */
export const contextKindLabels: Record<LevelContextKind, string> = {
  terrain: 'Terrain',
  water: 'Water',
  room: 'Room models',
  model: 'Placed models',
  world: 'World geometry',
  bounds: 'Object bounds',
};

/**
 * Above these sizes the check (on a worker of the page: level-check-worker.ts) would take
 * minutes; it is skipped with a note.
 */
const MAX_CHECK_CONTEXT_TRIANGLES = 4_000_000;
const MAX_CHECK_FACES = 1_000_000;
/** How long the check waits for the viewport to draw the context before it runs anyway. */
const CHECK_WAIT_MS = 10_000;

/** Index and ray BVH of a context, built once when first needed (drop, point picking, the check). */
const indexes = new WeakMap<LevelContext, { index: LevelContextIndex; bvh: TriangleBvh | null }>();
function indexOf(context: LevelContext): { index: LevelContextIndex; bvh: TriangleBvh | null } {
  let entry = indexes.get(context);
  if (!entry) indexes.set(context, (entry = { index: buildLevelContextIndex(context), bvh: null }));
  return entry;
}

const STORAGE_PREFIX = 'walkbench.levelContext:';

function readToggle(project: string): boolean {
  try {
    return globalThis.localStorage?.getItem(STORAGE_PREFIX + project) !== 'off';
  } catch {
    return true;
  }
}

function writeToggle(project: string, on: boolean): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_PREFIX + project, on ? 'on' : 'off');
  } catch {
    // Storage refused (a private mode): the toggle lasts for this page only.
  }
}

/**
 * The level around the active tab's walkmesh (issue 19): asked for after the walkmesh is
 * shown, per project file, while the project's toggle is on (remembered per project file in
 * this browser's storage, default on). Answers are kept per tab key, raw (never reactive:
 * a map's context is millions of floats), and dropped when their tab closes.
 */
export const useLevelContextStore = defineStore('levelContext', () => {
  const client = inject(clientKey);
  if (!client) throw new Error('the Walkbench client is not provided to the app');
  const doc = useDocumentStore();
  const project = useProjectStore();

  const enabledOf = ref<Record<string, boolean>>({});
  const contexts = shallowRef<Map<string, FileContext>>(new Map());
  let unsubscribe: (() => void) | null = null;

  const projectPath = computed(() => project.tree?.path ?? null);
  const enabled = computed(() => {
    const p = projectPath.value;
    if (p === null) return false;
    return enabledOf.value[p] ?? readToggle(p);
  });
  /** The active tab's project file, when it is one. */
  const target = computed(() => {
    const f = doc.activeTab?.file.projectFile;
    return f && f.session === project.session ? { key: doc.activeTab!.key, session: f.session, fileId: f.fileId } : null;
  });
  const active = computed<FileContext | null>(() => {
    const t = target.value;
    return t ? (contexts.value.get(t.key) ?? null) : null;
  });
  /** What the viewport draws: the active tab's context while the toggle is on. */
  const shown = computed(() => (enabled.value && active.value?.state === 'ready' ? active.value.result : null));

  /** The level check of the shown walkmesh against the shown context (floating/sunk faces, uncovered ground). */
  const findings = shallowRef<LevelFinding[]>([]);
  const checking = ref(false);
  let checkTimer: ReturnType<typeof setTimeout> | null = null;
  let worker: Worker | null = null;
  let checks = 0;

  function runCheck(): void {
    const result = shown.value;
    const file = doc.opened;
    worker?.terminate();
    worker = null;
    if (!result || !file || result.context.pieces.length === 0) {
      findings.value = [];
      checking.value = false;
      return;
    }
    const context = result.context;
    const faces = file.walkmeshes.reduce((n, m) => n + m.triangles.length / 3, 0);
    const tris = levelContextTriangleCount(context);
    if (tris > MAX_CHECK_CONTEXT_TRIANGLES || faces > MAX_CHECK_FACES) {
      findings.value = [{ code: 'level.check.skipped', message: `The level check was not run: ${tris.toLocaleString('en-US')} level triangles and ${faces.toLocaleString('en-US')} walkmesh faces are more than it checks here.` }];
      checking.value = false;
      return;
    }
    // A check still running was for what was shown before: its worker was ended above; a new one starts.
    const w = (worker = new Worker(new URL('../workers/level-check-worker.ts', import.meta.url), { type: 'module' }));
    const id = ++checks;
    w.onmessage = (event: MessageEvent<{ id: number; findings?: LevelFinding[]; error?: string }>) => {
      if (event.data.id !== id || worker !== w) return;
      findings.value = markRaw(event.data.findings ?? [{ code: 'level.check.skipped', message: `The level check failed: ${event.data.error ?? 'no answer'}` }]);
      checking.value = false;
      w.terminate();
      worker = null;
    };
    w.onerror = (event) => {
      if (worker !== w) return;
      findings.value = [{ code: 'level.check.skipped', message: `The level check failed: ${event.message}` }];
      checking.value = false;
      worker = null;
    };
    // The arrays are copied to the worker: the page keeps drawing from its own.
    w.postMessage({ id, walkmeshes: file.walkmeshes, context });
  }

  /** The answer whose first frame the viewport has drawn (level-context-view.ts calls contextDrawn). */
  const drawnResult = shallowRef<ContextLoadResult | null>(null);
  function contextDrawn(result: ContextLoadResult): void {
    drawnResult.value = result;
  }

  // The check runs after the context's first frame, never before the walkmesh is drawn: the
  // level is built in slices, and a check worker started meanwhile would take a core from
  // that frame (software WebGL draws on the CPU). A viewport that never draws (no WebGL)
  // holds the check back at most CHECK_WAIT_MS.
  watch([shown, () => doc.opened, drawnResult], () => {
    if (checkTimer) clearTimeout(checkTimer);
    checking.value = shown.value !== null;
    const waiting = shown.value !== null && drawnResult.value !== shown.value;
    checkTimer = setTimeout(
      () => {
        checkTimer = null;
        runCheck();
      },
      waiting ? CHECK_WAIT_MS : 50,
    );
  });

  /**
   * Where a ray (game space) first meets the level, for point picking where no walkmesh face
   * is under the cursor; null without a shown context or a hit.
   */
  function rayPoint(origin: readonly number[], dir: readonly number[]): [number, number, number] | null {
    const context = shown.value?.context;
    if (!context || context.pieces.length === 0) return null;
    const entry = indexOf(context);
    entry.bvh ??= buildTriangleBvh(entry.index.positions, entry.index.triangles);
    const hit = raycastBvh(entry.bvh, origin[0]!, origin[1]!, origin[2]!, dir[0]!, dir[1]!, dir[2]!);
    return hit ? [origin[0]! + dir[0]! * hit.t, origin[1]! + dir[1]! * hit.t, origin[2]! + dir[2]! * hit.t] : null;
  }

  /** The point dropped straight down onto the level's upward surface below it, or undefined. */
  function dropPoint(p: readonly [number, number, number]): [number, number, number] | undefined {
    const context = shown.value?.context;
    if (!context || context.pieces.length === 0) return undefined;
    return dropToSurface(indexOf(context).index, p);
  }

  function put(key: string, change: Partial<FileContext>): void {
    const next = new Map(contexts.value);
    const before = next.get(key) ?? { state: 'idle', result: null, error: null, stage: null, fraction: 0, requestedAt: performance.now(), loadedAt: null };
    next.set(key, markRaw({ ...before, ...change }));
    contexts.value = next;
  }

  function listen(): void {
    unsubscribe ??= client!.on('context.progress', (p) => {
      const t = target.value;
      if (!t || t.session !== p.session || t.fileId !== p.fileId) return;
      const c = contexts.value.get(t.key);
      if (c?.state === 'loading') put(t.key, { stage: p.stage, fraction: p.fraction });
    });
  }

  async function load(): Promise<void> {
    const t = target.value;
    if (!t || !enabled.value) return;
    const have = contexts.value.get(t.key);
    if (have && have.state !== 'idle' && have.state !== 'failed') return;
    listen();
    put(t.key, { state: 'loading', stage: 'finding the level files', fraction: 0, error: null, requestedAt: performance.now() });
    try {
      const result = await client!.call('context.load', { session: t.session, fileId: t.fileId });
      if (!contexts.value.has(t.key)) return;
      put(t.key, { state: 'ready', result: markRaw(result), stage: null, fraction: 1, loadedAt: performance.now() });
    } catch (e) {
      if (!contexts.value.has(t.key)) return;
      put(t.key, { state: 'failed', error: e instanceof WalkbenchRpcError || e instanceof Error ? e.message : String(e), stage: null });
    }
  }

  function setEnabled(on: boolean): void {
    const p = projectPath.value;
    if (p === null) return;
    enabledOf.value = { ...enabledOf.value, [p]: on };
    writeToggle(p, on);
    if (on) void load();
  }

  // The walkmesh first: the request leaves once the tab is open, and the viewport draws the
  // walkmesh meanwhile. An edit gives the tab a new file object but the same key: no reload.
  watch([target, enabled], () => void load(), { immediate: true });
  watch(
    () => doc.tabs,
    (tabs) => {
      const open = new Set(tabs.map((t) => t.key));
      if ([...contexts.value.keys()].every((k) => open.has(k))) return;
      contexts.value = new Map([...contexts.value].filter(([k]) => open.has(k)));
    },
  );

  return { enabled, active, shown, target, findings, checking, setEnabled, load, rayPoint, dropPoint, contextDrawn };
});
