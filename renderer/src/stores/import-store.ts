import { defineStore } from 'pinia';
import { computed, inject, ref, shallowRef } from 'vue';
import type { GameId } from '../../../shared/model/walkmesh';
import type { ImportJobState } from '../../../shared/ipc/import-contract';
import { WalkbenchRpcError } from '../../../shared/ipc/rpc-error';
import { clientKey } from '../transport/client-key';
import { useDocumentStore, type OpenTab } from './document-store';
import { useProjectStore } from './project-store';

/** While an import runs, its state is also re-read this often, in case an event was lost. */
const POLL_MS = 400;

function describe(e: unknown): string {
  return e instanceof WalkbenchRpcError || e instanceof Error ? e.message : String(e);
}

export interface NewProjectRequest {
  game: GameId;
  path: string;
  sources: string[];
  module?: string;
  modelDirs?: string[];
  twoDaDir?: string;
  gameFolders?: string[];
}

export type AddRequest = Omit<NewProjectRequest, 'game' | 'path'>;

/**
 * New project, Add to project and recent projects: creates the project file, opens it,
 * runs the import as a job (followed through `import.progress` events and `import.status`),
 * then opens the project again so the tree shows what came in. The dialog shows the job's
 * found/missing summary once it ends.
 */
export const useImportStore = defineStore('import', () => {
  const client = inject(clientKey);
  if (!client) throw new Error('the Walkbench client is not provided to the app');
  const project = useProjectStore();
  const doc = useDocumentStore();

  /** The dialog shown: New project, Add to project, or none. */
  const dialog = ref<'new' | 'add' | null>(null);
  const job = shallowRef<ImportJobState | null>(null);
  const busy = ref(false);
  const error = ref<string | null>(null);
  /** One line about the last loose file added (or why it was not). */
  const looseNote = ref<string | null>(null);
  const recent = ref<string[]>([]);
  let unsubscribe: (() => void)[] = [];
  let waiting: { jobId: number; resolve: (s: ImportJobState) => void } | null = null;
  /** The import running now (known before its first event arrives), for Cancel. */
  let activeJobId: number | null = null;

  const running = computed(() => job.value?.state === 'running');
  /**
   * What each import said as it went (its labels in order), shown under the progress bar:
   * a short import ends before the page draws its running state, but its steps stay readable.
   */
  const stepsByJob = shallowRef<ReadonlyMap<number, readonly { seq: number; label: string }[]>>(new Map());
  const steps = computed(() => (job.value ? (stepsByJob.value.get(job.value.jobId) ?? []).map((s) => s.label) : []));

  function recordStep(state: ImportJobState): void {
    const list = stepsByJob.value.get(state.jobId) ?? [];
    if (list.some((s) => s.seq === state.seq || s.label === state.label)) return;
    const next = new Map(stepsByJob.value);
    next.set(state.jobId, [...list, { seq: state.seq, label: state.label }].sort((a, b) => a.seq - b.seq));
    stepsByJob.value = next;
  }

  /** The newest state of each job seen (an event may come before the call that started it answers). */
  const latest = new Map<number, ImportJobState>();

  function take(state: ImportJobState): void {
    recordStep(state);
    const known = latest.get(state.jobId);
    if (!known || known.seq < state.seq) latest.set(state.jobId, state);
    const now = job.value;
    const newer = !(now && now.jobId === state.jobId && now.seq >= state.seq) && !(now && state.jobId < now.jobId);
    if (newer) job.value = state;
    settle();
  }

  /** Ends the wait of `follow` once its job's newest state is final. */
  function settle(): void {
    const w = waiting;
    const s = w ? latest.get(w.jobId) : undefined;
    if (!w || !s || s.state === 'running') return;
    waiting = null;
    job.value = s;
    w.resolve(s);
  }

  function start(): void {
    if (unsubscribe.length === 0) {
      unsubscribe = [
        client!.on('import.progress', (s) => take(s)),
        // The Electron File menu's New Project… and Import into Project…
        client!.on('app.command', ({ command }) => {
          if (command === 'new-project') open('new');
          if (command === 'add-to-project' && project.tree) open('add');
        }),
      ];
    }
    void refreshRecent();
  }

  function stop(): void {
    for (const off of unsubscribe) off();
    unsubscribe = [];
  }

  function open(which: 'new' | 'add'): void {
    if (running.value) {
      dialog.value = which;
      return;
    }
    error.value = null;
    job.value = null;
    dialog.value = which;
  }

  function closeDialog(): void {
    dialog.value = null;
  }

  async function refreshRecent(): Promise<void> {
    try {
      recent.value = (await client!.call('recent.list', {})).projects;
    } catch {
      recent.value = [];
    }
  }

  /** Waits for the job's end: its event, or the status read every POLL_MS. */
  async function follow(jobId: number): Promise<ImportJobState> {
    const ended = new Promise<ImportJobState>((resolve) => (waiting = { jobId, resolve }));
    // Its last event may have come before import.start answered.
    settle();
    const poll = setInterval(() => {
      client!.call('import.status', { jobId }).then(take, () => {});
    }, POLL_MS);
    try {
      take(await client!.call('import.status', { jobId }));
      return await ended;
    } finally {
      clearInterval(poll);
    }
  }

  /** Runs an import into the open project, then opens the project again so the tree shows it. */
  async function runImport(request: AddRequest, bytes?: { name: string; bytes: Uint8Array; module: string }): Promise<ImportJobState | null> {
    const session = project.session;
    const file = project.tree?.path;
    if (session === null || !file) {
      error.value = 'open a project first: files are added to a project';
      return null;
    }
    const { jobId } = bytes
      ? await client!.call('import.bytes', { session, ...bytes })
      : await client!.call('import.start', {
          session,
          sources: request.sources,
          ...(request.module ? { module: request.module } : {}),
          ...(request.modelDirs && request.modelDirs.length > 0 ? { modelDirs: request.modelDirs } : {}),
          ...(request.twoDaDir ? { twoDaDir: request.twoDaDir } : {}),
          ...(request.gameFolders && request.gameFolders.length > 0 ? { gameFolders: request.gameFolders } : {}),
        });
    activeJobId = jobId;
    const final = await follow(jobId).finally(() => (activeJobId = null));
    await project.open(file);
    return final;
  }

  /** Stops the running import; the service takes back what it wrote (the job ends `cancelled`). */
  async function cancel(): Promise<void> {
    if (activeJobId === null) return;
    try {
      await client!.call('import.cancel', { jobId: activeJobId });
    } catch (e) {
      error.value = describe(e);
    }
  }

  /** New project: the file, then the import of the game folder or module into it. */
  async function createProject(request: NewProjectRequest): Promise<void> {
    busy.value = true;
    error.value = null;
    job.value = null;
    try {
      await client!.call('project.create', {
        path: request.path,
        game: request.game,
        ...(request.gameFolders && request.gameFolders.length > 0 ? { gameFolders: request.gameFolders } : {}),
      });
      await project.open(request.path);
      if (project.error !== null || project.tree?.path !== request.path) {
        error.value = project.error ?? `${request.path} did not open`;
        return;
      }
      if (request.sources.length > 0) await runImport({ ...request, gameFolders: [] });
    } catch (e) {
      error.value = describe(e);
    } finally {
      busy.value = false;
      void refreshRecent();
    }
  }

  /** Add to project…: more game folders, modules, models, 2DA folders or masters, without re-importing. */
  async function addToProject(request: AddRequest): Promise<void> {
    busy.value = true;
    error.value = null;
    job.value = null;
    try {
      await runImport(request);
    } catch (e) {
      error.value = describe(e);
    } finally {
      busy.value = false;
    }
  }

  /**
   * A loose file (opened by path, dropped or chosen) into the open project in one step: the
   * file is imported into `module`, its loose tab is replaced by the project's copy, which
   * the edit tools work on.
   */
  async function addLooseTab(tab: OpenTab, module: string): Promise<void> {
    busy.value = true;
    looseNote.value = null;
    error.value = null;
    try {
      const file = tab.file;
      const final = file.path
        ? await runImport({ sources: [file.path], module })
        : tab.blob
          ? await runImport({ sources: [] }, { name: tab.blob.name, bytes: new Uint8Array(await tab.blob.arrayBuffer()), module })
          : null;
      if (final === null) {
        looseNote.value = error.value ?? `${file.name}: its bytes are no longer here; open it again`;
        return;
      }
      if (final.state === 'failed') {
        looseNote.value = `${file.name} was not added: ${final.error ?? 'the import failed'}`;
        return;
      }
      const entry = final.imported[0];
      const session = project.session;
      if (!entry || entry.fileId === null || session === null) {
        const why = final.skipped[0]?.reason;
        looseNote.value = `${file.name} was not added${why ? `: ${why}` : ''}`;
        return;
      }
      await doc.openProjectFile(session, entry.fileId, entry.name);
      doc.close(tab.key);
      looseNote.value = `${entry.name} is now in ${entry.module} (${entry.status}); edits go to the project`;
    } catch (e) {
      looseNote.value = describe(e);
    } finally {
      busy.value = false;
    }
  }

  async function openKotorModules(folder: string): Promise<string[]> {
    return (await client!.call('import.kotorModules', { folder })).modules;
  }

  return { dialog, job, steps, busy, error, looseNote, recent, running, start, stop, open, closeDialog, refreshRecent, createProject, addToProject, addLooseTab, openKotorModules, cancel };
});
