import { ref, watch } from 'vue';
import type { ContextLoadResult } from '../../../shared/ipc/level-context-contract';
import { levelContextTriangleCount } from '../../../shared/model/level-context';
import { useDocumentStore } from '../stores/document-store';
import { useLevelContextStore } from '../stores/level-context-store';
import { recordTimings } from './timings-hook';
import type { WalkmeshScene } from './walkmesh-scene';

/**
 * Keeps the viewport's level context layer on what the level-context store says is shown:
 * the active tab's context once it has arrived (after the walkmesh's first frame), nothing
 * while the project's toggle is off. Contexts of closed tabs are freed.
 */
export function useLevelContextView() {
  const store = useLevelContextStore();
  const doc = useDocumentStore();
  let scene: WalkmeshScene | null = null;
  const builtFor = new Map<string, ContextLoadResult>();
  /** Triangles of the context drawn now (the viewport's data attribute). */
  const drawnTriangles = ref(0);
  const measured = new WeakSet<object>();

  function apply(): void {
    if (!scene) return;
    const shown = store.shown;
    const key = store.target?.key ?? null;
    if (shown && key) {
      const before = builtFor.get(key);
      if (before && before !== shown) scene.levelContext().forget(before);
      builtFor.set(key, shown);
    }
    scene.levelContext().show(shown, shown?.context ?? null);
    drawnTriangles.value = shown ? levelContextTriangleCount(shown.context) : 0;
    const tab = doc.activeTab;
    if (shown && tab && !measured.has(shown)) {
      measured.add(shown);
      const file = tab.file.name;
      scene.afterNextFrame(() => recordTimings({ file, contextFrameMs: performance.now() - tab.requestedAt, contextTriangles: drawnTriangles.value }));
    }
  }

  watch(() => store.shown, apply);
  watch(
    () => doc.tabs,
    (tabs) => {
      const open = new Set(tabs.map((t) => t.key));
      for (const [key, result] of [...builtFor]) {
        if (open.has(key)) continue;
        scene?.levelContext().forget(result);
        builtFor.delete(key);
      }
    },
  );

  return {
    drawnTriangles,
    attach(s: WalkmeshScene): void {
      scene = s;
      apply();
    },
    detach(): void {
      scene = null;
      builtFor.clear();
    },
  };
}
