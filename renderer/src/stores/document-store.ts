import { defineStore } from 'pinia';
import { computed, inject, markRaw, ref, shallowRef } from 'vue';
import type { AppInfo, OpenedFile } from '../../../shared/ipc/contract';
import { WalkbenchRpcError } from '../../../shared/ipc/rpc-error';
import { clientKey } from '../transport/client-key';
import { projectTabKey } from '../tools/tab-file';

export type LoadState = 'idle' | 'loading' | 'ready' | 'failed';

/** One open walkmesh file: a tab above the viewport. */
export interface OpenTab {
  /**
   * Stable identity: `path:…`, `bytes:<n>`, or `project:<session>:<fileId>` for a file of
   * a project, so a tab of one project opening never stands for a file of another.
   */
  key: string;
  /** The file as the project holds it (what the edit tools act on). */
  file: OpenedFile;
  /**
   * NWN2: the area as last baked in the background from its TRN and GIT as edited (the
   * walkmesh the game gets), shown instead of `file` while `showBaked` is set.
   */
  baked?: OpenedFile | null;
  showBaked?: boolean;
  /** The report shown is from before the last edit; the edited bytes' report is on its way. */
  reportPending?: boolean;
  /** A file opened from its bytes (dropped, or chosen in the browser): kept so it can be added to the project. */
  blob?: File;
  /** performance.now() when the open was asked for, for the time-to-first-frame figure. */
  requestedAt: number;
  /** performance.now() when the services' answer arrived (read, validated, transferred, decoded). */
  loadedAt: number;
}

function describe(e: unknown): string {
  if (e instanceof WalkbenchRpcError) return e.message;
  return e instanceof Error ? e.message : String(e);
}

/**
 * The open files (tabs) and the active one: its report for the inspector and findings
 * panels and its walkmeshes for the viewport. Files are kept raw (not reactive): Vue must
 * not wrap typed arrays of a million elements in proxies.
 */
export const useDocumentStore = defineStore('document', () => {
  const client = inject(clientKey);
  if (!client) throw new Error('the Walkbench client is not provided to the app');

  const appInfo = shallowRef<AppInfo | null>(null);
  const tabs = shallowRef<OpenTab[]>([]);
  const activeKey = ref<string | null>(null);
  const state = ref<LoadState>('idle');
  const error = ref<string | null>(null);
  /** Name of the file being read, for the progress line. */
  const pending = ref<string | null>(null);
  let bytesOpened = 0;

  const activeTab = computed(() => tabs.value.find((t) => t.key === activeKey.value) ?? null);
  /** What the viewport draws: the file, or for an NWN2 area the bake when asked for. */
  const opened = computed(() => {
    const t = activeTab.value;
    if (!t) return null;
    return t.showBaked && t.baked ? t.baked : t.file;
  });
  const report = computed(() => opened.value?.report ?? null);
  const findings = computed(() => (report.value ? [...report.value.errors, ...report.value.warnings] : []));

  async function run(key: string, name: string, load: () => Promise<OpenedFile>, blob?: File): Promise<void> {
    const existing = tabs.value.find((t) => t.key === key);
    if (existing && !key.startsWith('bytes:')) {
      activeKey.value = key;
      state.value = 'ready';
      return;
    }
    const requestedAt = performance.now();
    state.value = 'loading';
    pending.value = name;
    error.value = null;
    try {
      const file = markRaw(await load());
      tabs.value = [...tabs.value, markRaw({ key, file, requestedAt, loadedAt: performance.now(), ...(blob ? { blob } : {}) })];
      activeKey.value = key;
      state.value = 'ready';
    } catch (e) {
      error.value = describe(e);
      state.value = 'failed';
    } finally {
      pending.value = null;
    }
  }

  /** Asks the services who they are, then opens the file or project given on the command line. */
  async function start(openProject: (path: string) => Promise<void>): Promise<void> {
    try {
      appInfo.value = await client!.call('app.info', {});
    } catch (e) {
      error.value = describe(e);
      state.value = 'failed';
      return;
    }
    const project = appInfo.value.startupProject;
    if (project) await openProject(project);
    const startup = appInfo.value.startupFile;
    if (startup) await openPath(startup);
  }

  function openPath(path: string): Promise<void> {
    const name = path.replace(/^.*[\\/]/, '');
    return run(`path:${path}`, name, () => client!.call('files.open', { path }));
  }

  function openProjectFile(session: string, fileId: number, name: string): Promise<void> {
    return run(projectTabKey(session, fileId), name, () => client!.call('project.openFile', { session, fileId }));
  }

  /** Replaces a tab's state (a new file object, a bake to show…); unknown keys are ignored. */
  function updateTab(key: string, change: (tab: OpenTab) => OpenTab): void {
    let changed = false;
    const next = tabs.value.map((t) => {
      if (t.key !== key) return t;
      changed = true;
      return markRaw(change(t));
    });
    if (changed) tabs.value = next;
  }

  /** Closes every tab the predicate picks (the tabs of a project that is no longer open). */
  function closeWhere(pick: (tab: OpenTab) => boolean): number {
    const closing = tabs.value.filter(pick);
    if (closing.length === 0) return 0;
    const activeGone = closing.some((t) => t.key === activeKey.value);
    const next = tabs.value.filter((t) => !pick(t));
    tabs.value = next;
    if (activeGone) activeKey.value = next[next.length - 1]?.key ?? null;
    if (next.length === 0 && state.value === 'ready') state.value = 'idle';
    return closing.length;
  }

  async function openBlob(file: File): Promise<void> {
    const max = appInfo.value?.maxFileBytes;
    if (max !== undefined && file.size > max) {
      error.value = `${file.name}: ${file.size} bytes is more than the ${max}-byte limit`;
      state.value = 'failed';
      return;
    }
    await run(`bytes:${++bytesOpened}`, file.name, async () => {
      const bytes = new Uint8Array(await file.arrayBuffer());
      return client!.call('files.openBytes', { name: file.name, bytes });
    }, file);
  }

  function activate(key: string): void {
    if (tabs.value.some((t) => t.key === key)) activeKey.value = key;
  }

  function close(key: string): void {
    const i = tabs.value.findIndex((t) => t.key === key);
    if (i < 0) return;
    const next = tabs.value.filter((t) => t.key !== key);
    tabs.value = next;
    if (activeKey.value === key) activeKey.value = next[Math.min(i, next.length - 1)]?.key ?? null;
  }

  return { appInfo, tabs, activeKey, activeTab, opened, state, error, pending, report, findings, start, openPath, openProjectFile, openBlob, activate, close, updateTab, closeWhere };
});
