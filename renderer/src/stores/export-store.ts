import { defineStore } from 'pinia';
import { computed, inject, markRaw, ref, shallowRef, watch } from 'vue';
import type { ExportPlanResult, ExportProgress, ExportRestoreResult } from '../../../shared/ipc/export-contract';
import { WalkbenchRpcError } from '../../../shared/ipc/rpc-error';
import { clientKey } from '../transport/client-key';
import { useProjectStore } from './project-store';

/**
 * Where the export dialog is: choosing the folder, reading the dry-run list, writing,
 * showing what was verified, or showing what a restore put back.
 */
export type ExportStep = 'choose' | 'planning' | 'planned' | 'running' | 'finished' | 'restoring' | 'restored';

/** While an export runs, its state is also re-read this often, in case an event was lost. */
const POLL_MS = 2000;
/** The game folder last exported into, offered again next time. */
const LAST_DIR_KEY = 'walkbench.export.gameDir';

function describe(e: unknown): string {
  return e instanceof WalkbenchRpcError || e instanceof Error ? e.message : String(e);
}

function rememberedDir(): string {
  try {
    return globalThis.localStorage?.getItem(LAST_DIR_KEY) ?? '';
  } catch {
    // Storage can be off (privacy settings); the field then starts empty.
    return '';
  }
}

/**
 * Export of the open project into a game folder (issue 7 §3): the dry-run plan, then a
 * confirmed run followed through `export.progress` events and `export.status`, then its
 * verified files and backup folder, and a restore of that export.
 */
export const useExportStore = defineStore('export', () => {
  const client = inject(clientKey);
  if (!client) throw new Error('the Walkbench client is not provided to the app');
  const open = ref(false);
  const step = ref<ExportStep>('choose');
  const gameDir = ref(rememberedDir());
  /** Only this module's walkmeshes; empty for everything. */
  const module = ref('');
  /** Write the bake of unedited walkmeshes too (they go out as imported otherwise). */
  const rebake = ref(false);
  const plan = shallowRef<ExportPlanResult | null>(null);
  const progress = shallowRef<ExportProgress | null>(null);
  const restored = shallowRef<ExportRestoreResult | null>(null);
  const error = ref<string | null>(null);
  /** The folder the plan and run were made for (the field may be edited meanwhile). */
  const plannedDir = ref<string | null>(null);
  let unsubscribe: (() => void) | null = null;
  let poll: ReturnType<typeof setInterval> | null = null;

  const counts = computed(() => {
    const c = { create: 0, replace: 0, unchanged: 0 };
    for (const e of plan.value?.entries ?? []) c[e.action]++;
    return c;
  });
  /** What the plan does to the files' content: kept as imported, written from an edit, re-baked. */
  const changes = computed(() => {
    const c = { unchanged: 0, edited: 0, rebaked: 0 };
    for (const e of plan.value?.entries ?? []) c[e.change]++;
    return c;
  });
  const canRun = computed(() => step.value === 'planned' && plan.value !== null && plan.value.refused.length === 0 && counts.value.create + counts.value.replace > 0);
  const percent = computed(() => {
    const p = progress.value;
    if (!p) return 0;
    return p.total === 0 ? (p.state === 'running' ? 0 : 100) : Math.round((100 * p.done) / p.total);
  });

  function stopPolling(): void {
    if (poll) clearInterval(poll);
    poll = null;
  }

  function apply(state: ExportProgress): void {
    const current = progress.value;
    if (!current || current.jobId !== state.jobId || current.seq >= state.seq) return;
    progress.value = markRaw(state);
    if (state.state === 'running') return;
    stopPolling();
    step.value = 'finished';
    if (state.error) error.value = state.error;
  }

  async function refresh(): Promise<void> {
    const p = progress.value;
    if (!p || p.state !== 'running') return;
    try {
      apply(await client!.call('export.status', { jobId: p.jobId }));
    } catch (e) {
      error.value = describe(e);
    }
  }

  function start(): void {
    unsubscribe ??= client!.on('export.progress', apply);
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
    stopPolling();
  }

  function show(): void {
    open.value = true;
    if (step.value !== 'running' && step.value !== 'restoring') {
      step.value = 'choose';
      error.value = null;
    }
  }

  function close(): void {
    // A running export goes on; opening the dialog again shows it.
    open.value = false;
  }

  const projects = useProjectStore();
  // A plan is of the project it was made for: another project starts the dialog afresh.
  watch(
    () => projects.session,
    () => {
      plan.value = null;
      plannedDir.value = null;
      if (step.value === 'planned' || step.value === 'planning') step.value = 'choose';
    },
  );

  /** The export's parameters: always of the project open now (its session). */
  function params(): { gameDir: string; module?: string; rebake?: boolean; session?: string } {
    const dir = gameDir.value.trim();
    const session = projects.session ?? undefined;
    return { gameDir: dir, ...(module.value ? { module: module.value } : {}), ...(rebake.value ? { rebake: true } : {}), ...(session !== undefined ? { session } : {}) };
  }

  /** The native folder dialog (Electron); browser mode has none and the path is typed. */
  async function browse(): Promise<boolean> {
    try {
      const { path } = await client!.call('dialog.openFolder', { title: 'Choose the game folder to export into' });
      if (path !== null) gameDir.value = path;
      return true;
    } catch (e) {
      if (e instanceof WalkbenchRpcError && e.code === 'unavailable') return false;
      error.value = describe(e);
      return true;
    }
  }

  /** The dry run: what will be written where, created or replaced, and what is refused. */
  async function preview(): Promise<void> {
    error.value = null;
    restored.value = null;
    const p = params();
    if (p.gameDir === '') {
      error.value = 'Type the game folder to export into (an absolute path).';
      return;
    }
    step.value = 'planning';
    try {
      plan.value = markRaw(await client!.call('export.plan', p));
      plannedDir.value = p.gameDir;
      step.value = 'planned';
      try {
        globalThis.localStorage?.setItem(LAST_DIR_KEY, p.gameDir);
      } catch {
        // Not remembering the folder is harmless.
      }
    } catch (e) {
      plan.value = null;
      error.value = describe(e);
      step.value = 'choose';
    }
  }

  async function run(): Promise<void> {
    if (!canRun.value || plannedDir.value === null) return;
    error.value = null;
    start();
    try {
      const { jobId } = await client!.call('export.run', { ...params(), gameDir: plannedDir.value });
      const first: ExportProgress = {
        jobId,
        project: plan.value!.project,
        gameDir: plannedDir.value,
        state: 'running',
        done: 0,
        total: counts.value.create + counts.value.replace,
        label: 'Starting',
        verified: [],
        backupDir: null,
        refused: [],
        error: null,
        seq: -1,
      };
      progress.value = markRaw(first);
      step.value = 'running';
      // The first events may have come before the answer; the status makes sure.
      await refresh();
      if (step.value === 'running' && !poll) poll = setInterval(() => void refresh(), POLL_MS);
    } catch (e) {
      error.value = describe(e);
    }
  }

  async function cancel(): Promise<void> {
    const p = progress.value;
    if (!p || p.state !== 'running') return;
    try {
      await client!.call('export.cancel', { jobId: p.jobId });
    } catch (e) {
      error.value = describe(e);
    }
  }

  /** Puts back what the last export into the folder replaced and removes what it created. */
  async function restore(): Promise<void> {
    const dir = plannedDir.value ?? gameDir.value.trim();
    if (dir === '') return;
    error.value = null;
    step.value = 'restoring';
    try {
      const session = projects.session;
      restored.value = markRaw(await client!.call('export.restore', { gameDir: dir, ...(session !== null ? { session } : {}) }));
      step.value = 'restored';
    } catch (e) {
      error.value = describe(e);
      step.value = progress.value ? 'finished' : 'choose';
    }
  }

  function back(): void {
    step.value = 'choose';
    error.value = null;
  }

  return { open, step, gameDir, module, rebake, plan, progress, restored, error, counts, changes, canRun, percent, start, stop, show, close, browse, preview, run, cancel, restore, back };
});
