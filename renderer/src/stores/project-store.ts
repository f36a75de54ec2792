import { defineStore } from 'pinia';
import { inject, markRaw, ref, shallowRef } from 'vue';
import type { ProjectTree } from '../../../shared/ipc/project-contract';
import { WalkbenchRpcError } from '../../../shared/ipc/rpc-error';
import { clientKey } from '../transport/client-key';

/** The project in the tree panel: its modules, areas and files (metadata only). */
export const useProjectStore = defineStore('project', () => {
  const client = inject(clientKey);
  if (!client) throw new Error('the Walkbench client is not provided to the app');
  const tree = shallowRef<ProjectTree | null>(null);
  const loading = ref(false);
  const error = ref<string | null>(null);

  async function open(path: string): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      tree.value = markRaw(await client!.call('project.open', { path }));
    } catch (e) {
      error.value = e instanceof WalkbenchRpcError || e instanceof Error ? e.message : String(e);
    } finally {
      loading.value = false;
    }
  }

  /** Set when Save Project As needs a typed path (browser mode has no save dialog). */
  const saveAsAsked = ref(0);

  async function saveAs(path: string): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      tree.value = markRaw(await client!.call('project.saveAs', { path }));
    } catch (e) {
      error.value = e instanceof WalkbenchRpcError || e instanceof Error ? e.message : String(e);
    } finally {
      loading.value = false;
    }
  }

  /** File ▸ Save Project As…: the native save dialog, or the typed path in browser mode. */
  async function saveAsFromMenu(): Promise<void> {
    if (!tree.value) return;
    try {
      const chosen = await client!.call('dialog.saveFile', { title: 'Save Project As', extensions: ['wbproj'] });
      if (chosen.path) await saveAs(chosen.path);
    } catch (e) {
      if (e instanceof WalkbenchRpcError && e.code === 'unavailable') saveAsAsked.value++;
      else error.value = e instanceof Error ? e.message : String(e);
    }
  }

  return { tree, loading, error, open, saveAs, saveAsFromMenu, saveAsAsked };
});
