import { defineStore } from 'pinia';
import { ref } from 'vue';
import { useDocumentStore } from './document-store';

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
  /** Walkmeshes the designer hid with the tree's eye, per tab (issue 16 §3). */
  const hidden = ref<Record<string, number[]>>({});

  function isolate(tab: string, meshes: number[], label: string): void {
    isolation.value = { tab, meshes: [...meshes], label };
  }

  function showAll(): void {
    isolation.value = null;
  }

  /** The walkmesh indices shown in `tab` (isolated and not hidden), or null when all are shown. */
  function shownIn(tab: string | null): ReadonlySet<number> | null {
    const i = isolation.value;
    const alone = i !== null && i.tab === tab ? new Set(i.meshes) : null;
    const off = tab === null ? undefined : hidden.value[tab];
    if (!off || off.length === 0) return alone;
    const t = useDocumentStore().tabs.find((x) => x.key === tab);
    const count = t ? (t.showBaked && t.baked ? t.baked : t.file).walkmeshes.length : 0;
    const shown = new Set<number>();
    for (let m = 0; m < count; m++) if ((alone === null || alone.has(m)) && !off.includes(m)) shown.add(m);
    return shown;
  }

  function isHidden(tab: string, mesh: number): boolean {
    return hidden.value[tab]?.includes(mesh) ?? false;
  }

  function toggleHidden(tab: string, mesh: number): void {
    const off = hidden.value[tab] ?? [];
    hidden.value = { ...hidden.value, [tab]: off.includes(mesh) ? off.filter((m) => m !== mesh) : [...off, mesh] };
  }

  function setPlacesShown(on: boolean): void {
    placesShown.value = on;
  }

  return { isolation, placesShown, hidden, isolate, showAll, shownIn, isHidden, toggleHidden, setPlacesShown };
});
