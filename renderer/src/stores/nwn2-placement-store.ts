import { defineStore } from 'pinia';
import { computed, inject, markRaw, ref, shallowRef, watch } from 'vue';
import type { GitPlacements } from '../../../shared/ipc/edits-contract';
import { refuseClose, type Point3, type SnapKind } from '../tools/cutter-outline';
import { WalkbenchRpcError } from '../../../shared/ipc/rpc-error';
import { clientKey } from '../transport/client-key';
import { useEditStore } from './edit-store';

/**
 * The NWN2 cutter and placeable tools: what the area's GIT places (read again after every
 * edit, undo and redo, since deleting one renumbers the rest), the cutter and placeable
 * picked from it, and their edits. A cutter's corners are edited as the placed points of
 * the place tool: load them, move or re-place them in the viewport, then update.
 */
export const useNwn2PlacementStore = defineStore('nwn2-placements', () => {
  const client = inject(clientKey);
  if (!client) throw new Error('the Walkbench client is not provided to the app');
  const edit = useEditStore();

  const placements = shallowRef<GitPlacements | null>(null);
  const cutter = ref<number | null>(null);
  const placeable = ref(0);
  const bearing = ref(0);
  const newAppearance = ref('');
  const newResRef = ref('');
  /**
   * The viewport tool of the NWN2 bar, over the place tool: the picked placeable's gizmo
   * (drag to move, ring to turn), or drawing a cutter corner by corner. Null: neither.
   */
  const mode = ref<'placeable' | 'cutter' | null>(null);
  /** The corners of the cutter being drawn, and where the next one would go (snapped) with why not, if it cannot. */
  const draft = ref<Point3[]>([]);
  const cursor = shallowRef<{ point: Point3; snap: SnapKind; refused: string | null; closes: boolean } | null>(null);
  /** The placeable gizmo's drag in progress, for the readout: the move (game units) or the turn (degrees). */
  const drag = shallowRef<{ kind: 'move' | 'turn'; delta: [number, number, number]; turn: number; snapped: boolean } | null>(null);

  const selectedCutter = computed(() => placements.value?.cutters.find((c) => c.index === cutter.value) ?? null);
  const selectedPlaceable = computed(() => placements.value?.placeables.find((p) => p.index === placeable.value) ?? null);

  async function refresh(): Promise<void> {
    const id = edit.gitFileId;
    const session = edit.session;
    if (id === null || session === null) {
      placements.value = null;
      return;
    }
    try {
      placements.value = markRaw(await client!.call('edits.placements', { session, fileId: id }));
    } catch (e) {
      placements.value = null;
      edit.error = e instanceof WalkbenchRpcError || e instanceof Error ? e.message : String(e);
    }
    if (cutter.value !== null && !selectedCutter.value) cutter.value = null;
  }

  watch(() => [edit.gitFileId, edit.revision], () => void refresh(), { immediate: true });
  // Another tool put down the NWN2 one; a new tab or file drops a half-drawn cutter.
  watch(() => edit.tool, (t) => {
    if (t !== 'place') setMode(null);
  });
  watch(() => edit.gitFileId, () => {
    draft.value = [];
    cursor.value = null;
  });

  function setMode(next: 'placeable' | 'cutter' | null): void {
    if (next !== null) edit.tool = 'place';
    if (next !== 'cutter') {
      draft.value = [];
      cursor.value = null;
    }
    drag.value = null;
    mode.value = next;
  }

  /** Ends the cutter being drawn as a new cutter of the GIT (one edit), or says why it cannot. */
  async function closeDraft(): Promise<void> {
    const pts = draft.value;
    const refused = refuseClose(pts.flatMap((p) => [p[0], p[1]]));
    if (!edit.need(refused ?? '', refused === null)) return;
    await edit.applyToGit({ kind: 'nwn2-add-cutter', polygon: pts.flatMap((p) => [p[0], p[1]]), z: pts[0]![2] });
    if (!edit.error) {
      draft.value = [];
      cursor.value = null;
    }
  }

  // Picking a placeable shows its bearing, so Turn starts from where it is.
  watch(selectedPlaceable, (p) => {
    if (p) bearing.value = Math.round(p.bearing * 100) / 100;
  });

  /** The picked cutter's corners become the placed points, to move or re-place. */
  function editCorners(): void {
    const c = selectedCutter.value;
    if (!edit.need('pick a cutter first', c !== null)) return;
    const pts: [number, number, number][] = [];
    for (let i = 0; i + 1 < c!.polygon.length; i += 2) pts.push([c!.polygon[i]!, c!.polygon[i + 1]!, c!.z]);
    edit.placed = pts;
    edit.tool = 'place';
  }

  async function updateCutter(): Promise<void> {
    const c = selectedCutter.value;
    if (!edit.need('pick a cutter first', c !== null)) return;
    if (!edit.need('a cutter needs three or more corners: place them first', edit.placed.length >= 3)) return;
    await edit.applyToGit({ kind: 'nwn2-set-cutter', index: c!.index, polygon: edit.placed.flatMap((p) => [p[0], p[1]]) });
    if (!edit.error) edit.placed = [];
  }

  async function deleteCutter(): Promise<void> {
    const c = selectedCutter.value;
    if (!edit.need('pick a cutter first', c !== null)) return;
    await edit.applyToGit({ kind: 'nwn2-delete-cutter', index: c!.index });
    if (!edit.error) cutter.value = null;
  }

  /** A new placeable at the last placed point: a copy of the picked one, or a bare placeables.2da row. */
  async function addPlaceable(copy: boolean): Promise<void> {
    const at = edit.placed[edit.placed.length - 1];
    if (!edit.need('place a point on the ground where the placeable goes', at !== undefined)) return;
    const position: [number, number, number] = [at![0], at![1], at![2]];
    if (copy) {
      if (!edit.need('pick the placeable to copy first', selectedPlaceable.value !== null)) return;
      await edit.applyToGit({ kind: 'nwn2-add-placeable', copyOf: placeable.value, position });
    } else {
      const row = Number(newAppearance.value.trim());
      if (!edit.need('type the placeables.2da row (Appearance) of the new placeable', newAppearance.value.trim() !== '' && Number.isInteger(row) && row >= 0)) return;
      const resref = newResRef.value.trim();
      await edit.applyToGit({ kind: 'nwn2-add-placeable', appearance: row, position, ...(resref ? { templateResRef: resref } : {}) });
    }
    if (!edit.error) {
      edit.placed = [];
      await refresh();
      const last = placements.value?.placeables.at(-1);
      if (last) placeable.value = last.index;
    }
  }

  return {
    placements, cutter, placeable, bearing, newAppearance, newResRef, selectedCutter, selectedPlaceable, mode, draft, cursor, drag,
    refresh, editCorners, updateCutter, deleteCutter, addPlaceable, setMode, closeDraft,
  };
});
