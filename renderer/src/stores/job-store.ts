import { defineStore } from 'pinia';
import { computed, inject, ref, shallowRef } from 'vue';
import type { BakeJobParams, JobProgress } from '../../../shared/ipc/jobs-contract';
import { WalkbenchRpcError } from '../../../shared/ipc/rpc-error';
import { clientKey } from '../transport/client-key';
import { useDocumentStore } from './document-store';
import { useSelectionStore } from './selection-store';
import { useProjectStore } from './project-store';
import { projectTabKey } from '../tools/tab-file';

/** A face a job failure names, asked to be shown (for the viewport). */
export interface FaceFocusRequest {
  fileId: number;
  face: number;
  /** Grows with every request, so asking twice for one face is seen twice. */
  seq: number;
}

/** While a job runs, its state is also re-read this often, in case an event was lost. */
const POLL_MS = 3000;

function describe(e: unknown): string {
  return e instanceof WalkbenchRpcError || e instanceof Error ? e.message : String(e);
}

/**
 * The bake jobs: started here, followed through `jobs.progress` events (either
 * transport) and `jobs.list`. Each event carries a job's whole state with a sequence
 * number, so whichever arrives last of an event and a list answer, the newest state wins.
 */
export const useJobStore = defineStore('jobs', () => {
  const client = inject(clientKey);
  if (!client) throw new Error('the Walkbench client is not provided to the app');
  const byId = shallowRef<ReadonlyMap<number, JobProgress>>(new Map());
  const error = ref<string | null>(null);
  const focusRequest = ref<FaceFocusRequest | null>(null);
  /** Jobs the user closed in the panel. */
  const dismissed = ref<ReadonlySet<number>>(new Set());
  /** Whether the jobs panel is shown (View ▸ Toggle Jobs Panel). */
  const panelOpen = ref(true);
  let unsubscribe: (() => void) | null = null;
  let poll: ReturnType<typeof setInterval> | null = null;
  let focusSeq = 0;

  const projects = useProjectStore();
  /** The open project's jobs only: another project's bakes say nothing about this one. */
  const jobs = computed(() => [...byId.value.values()].filter((j) => !dismissed.value.has(j.jobId) && j.project === projects.tree?.path).sort((a, b) => b.jobId - a.jobId));
  const running = computed(() => [...byId.value.values()].some((j) => j.state === 'running'));

  function apply(states: readonly JobProgress[]): void {
    let next: Map<number, JobProgress> | null = null;
    let finished = false;
    for (const s of states) {
      const old = (next ?? byId.value).get(s.jobId);
      if (old && old.seq >= s.seq) continue;
      if (s.state !== 'running' && old?.state === 'running' && s.project === projects.tree?.path) finished = true;
      next ??= new Map(byId.value);
      next.set(s.jobId, s);
    }
    if (next) byId.value = next;
    // A bake that ended changed bake states: the tree and the open tabs show them.
    if (finished) void projects.refreshStates();
    if (running.value && !poll) poll = setInterval(() => void refresh(), POLL_MS);
    if (!running.value && poll) {
      clearInterval(poll);
      poll = null;
    }
  }

  async function refresh(): Promise<void> {
    try {
      apply((await client!.call('jobs.list', {})).jobs);
    } catch (e) {
      error.value = describe(e);
    }
  }

  /** Subscribes to the progress events, then reads the jobs already there. */
  async function start(): Promise<void> {
    unsubscribe ??= client!.on('jobs.progress', (state) => apply([state]));
    await refresh();
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
    if (poll) clearInterval(poll);
    poll = null;
  }

  async function bake(params: BakeJobParams): Promise<number | null> {
    error.value = null;
    const session = projects.session;
    if (session === null) {
      error.value = 'open a project first: bakes are of a project';
      return null;
    }
    try {
      const { jobId } = await client!.call('jobs.bake', { ...params, session });
      // The event of the new job may come before or after this answer; the list makes sure.
      await refresh();
      return jobId;
    } catch (e) {
      error.value = describe(e);
      return null;
    }
  }

  const bakeAll = (force = false) => bake({ scope: 'all', force });
  const bakeModule = (module: string, force = false) => bake({ scope: 'module', module, force });
  const bakeFile = (fileId: number, force = false) => bake({ scope: 'file', fileId, force });

  async function cancel(jobId: number): Promise<void> {
    try {
      await client!.call('jobs.cancel', { jobId });
    } catch (e) {
      error.value = describe(e);
    }
  }

  function dismiss(jobId: number): void {
    dismissed.value = new Set([...dismissed.value, jobId]);
  }

  /**
   * Shows the face a failure names: opens the project file (its tab, if already open)
   * and selects the face in its first walkmesh, which moves the camera to it.
   * `focusRequest` carries the same request for a view that wants to handle it itself.
   */
  async function focusFace(fileId: number, face: number, name = `file ${fileId}`): Promise<void> {
    focusRequest.value = { fileId, face, seq: ++focusSeq };
    const doc = useDocumentStore();
    const session = projects.session;
    if (session === null) return;
    // An open tab of the file is activated rather than read again.
    await doc.openProjectFile(session, fileId, name);
    if (doc.activeKey === projectTabKey(session, fileId)) useSelectionStore().focus({ mesh: 0, face });
  }

  function togglePanel(): void {
    panelOpen.value = !panelOpen.value;
  }

  return { jobs, running, error, focusRequest, panelOpen, togglePanel, start, stop, refresh, bake, bakeAll, bakeModule, bakeFile, cancel, dismiss, focusFace };
});
