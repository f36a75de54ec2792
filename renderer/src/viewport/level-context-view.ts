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
    const s = scene;
    const tab = doc.activeTab;
    drawnTriangles.value = 0;
    // A first showing is built in slices (level-context-layer.ts): the count and the timing
    // follow once its meshes are in the scene, not when the answer arrived.
    // The callback asks for the frame that shows the level (the layer marks no change for it).
    s.levelContext().show(shown, shown?.context ?? null, () => {
      if (scene !== s || store.shown !== shown || !shown) return;
      drawnTriangles.value = levelContextTriangleCount(shown.context);
      const first = tab !== null && !measured.has(shown);
      if (first) measured.add(shown);
      s.afterNextFrame(() => {
        // The level check waits for this frame (level-context-store.ts).
        store.contextDrawn(shown);
        if (first && tab) recordTimings({ file: tab.file.name, contextFrameMs: performance.now() - tab.requestedAt, contextTriangles: drawnTriangles.value });
      });
    });
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
