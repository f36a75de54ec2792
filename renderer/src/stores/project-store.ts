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

  return { tree, loading, error, open };
});
