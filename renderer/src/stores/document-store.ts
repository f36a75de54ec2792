import { defineStore } from 'pinia';
import { computed, inject, markRaw, ref, shallowRef } from 'vue';
import type { AppInfo, OpenedFile } from '../../../shared/ipc/contract';
import { WalkbenchRpcError } from '../../../shared/ipc/rpc-error';
import { clientKey } from '../transport/client-key';

export type LoadState = 'idle' | 'loading' | 'ready' | 'failed';

function describe(e: unknown): string {
  if (e instanceof WalkbenchRpcError) return e.message;
  return e instanceof Error ? e.message : String(e);
}

/**
 * The open file: its report for the inspector and findings panels and its walkmeshes for
 * the viewport. The walkmeshes are kept raw (not reactive): Vue must not wrap typed arrays
 * of a million elements in proxies.
 */
export const useDocumentStore = defineStore('document', () => {
  const client = inject(clientKey);
  if (!client) throw new Error('the Walkbench client is not provided to the app');

  const appInfo = shallowRef<AppInfo | null>(null);
  const opened = shallowRef<OpenedFile | null>(null);
  const state = ref<LoadState>('idle');
  const error = ref<string | null>(null);
  /** Name of the file being read, for the progress line. */
  const pending = ref<string | null>(null);

  const report = computed(() => opened.value?.report ?? null);
  const findings = computed(() => (report.value ? [...report.value.errors, ...report.value.warnings] : []));

  async function run(name: string, load: () => Promise<OpenedFile>): Promise<void> {
    state.value = 'loading';
    pending.value = name;
    error.value = null;
    try {
      const file = await load();
      opened.value = markRaw(file);
      state.value = 'ready';
    } catch (e) {
      error.value = describe(e);
      state.value = 'failed';
    } finally {
      pending.value = null;
    }
  }

  /** Asks the services who they are, then opens the file given on the command line. */
  async function start(): Promise<void> {
    try {
      appInfo.value = await client!.call('app.info', {});
    } catch (e) {
      error.value = describe(e);
      state.value = 'failed';
      return;
    }
    const startup = appInfo.value.startupFile;
    if (startup) await openPath(startup);
  }

  function openPath(path: string): Promise<void> {
    const name = path.replace(/^.*[\\/]/, '');
    return run(name, () => client!.call('files.open', { path }));
  }

  async function openBlob(file: File): Promise<void> {
    const max = appInfo.value?.maxFileBytes;
    if (max !== undefined && file.size > max) {
      error.value = `${file.name}: ${file.size} bytes is more than the ${max}-byte limit`;
      state.value = 'failed';
      return;
    }
    await run(file.name, async () => {
      const bytes = new Uint8Array(await file.arrayBuffer());
      return client!.call('files.openBytes', { name: file.name, bytes });
    });
  }

  return { appInfo, opened, state, error, pending, report, findings, start, openPath, openBlob };
});
