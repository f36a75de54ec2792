import { defineStore } from 'pinia';
import { ref } from 'vue';

/** Which walkmeshes of a tab are shown alone, and why (a Skyrim cell or one navmesh). */
export interface Isolation {
  /** The tab (document-store key) it applies to: another tab shows everything. */
  tab: string;
  /** Indices into the file's walkmeshes. */
  meshes: number[];
  /** What the designer chose, e.g. `GallowsRockExterior (24, 1)`. */
  label: string;
}

/**
 * How the viewport shows a game's own structure: a Skyrim cell or navmesh isolated, and
 * Source faces coloured by place (callout) instead of the colouring chosen in the toolbar.
 */
export const useStructureStore = defineStore('structure', () => {
  const isolation = ref<Isolation | null>(null);
  const placesShown = ref(false);

  function isolate(tab: string, meshes: number[], label: string): void {
    isolation.value = { tab, meshes: [...meshes], label };
  }

  function showAll(): void {
    isolation.value = null;
  }

  /** The walkmesh indices shown alone in `tab`, or null when all are shown. */
  function shownIn(tab: string | null): ReadonlySet<number> | null {
    const i = isolation.value;
    return i !== null && i.tab === tab ? new Set(i.meshes) : null;
  }

  function setPlacesShown(on: boolean): void {
    placesShown.value = on;
  }

  return { isolation, placesShown, isolate, showAll, shownIn, setPlacesShown };
});
