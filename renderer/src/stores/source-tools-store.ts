import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { snapAreaRect } from '../../../shared/edits/source-create-area';
import type { Point3 } from '../../../shared/pathing/path-result';
import { useEditStore } from './edit-store';

/** How close (units) a dragged side must come to a neighbouring area's side to snap onto it. */
export const NEIGHBOUR_SNAP = 16;

/**
 * Source drawing state the viewport reads: whether a drag with the place tool draws a new
 * area's rectangle (its two placed points are the dragged corners), and that rectangle as
 * it will be created (snapped to neighbours' sides and the grid), for the outline.
 */
export const useSourceToolsStore = defineStore('source-tools', () => {
  const edit = useEditStore();
  const drawRect = ref(false);
  /** minX, minY, maxX, maxY of the area the two placed points make, snapped; null without two points. */
  const rect = computed<[number, number, number, number] | null>(() => {
    const m = edit.activeMesh;
    if (!drawRect.value || !m || m.game !== 'source' || edit.placed.length !== 2) return null;
    return snapAreaRect(m, edit.placed[0]!, edit.placed[1]!, edit.gridStep, NEIGHBOUR_SNAP);
  });
  const height = computed(() => (edit.placed.length === 2 ? Math.fround((edit.placed[0]![2] + edit.placed[1]![2]) / 2) : 0));
  /** The rectangle's outline at the placed height, closed. */
  const outline = computed<Point3[] | null>(() => {
    const r = rect.value;
    if (!r) return null;
    const z = height.value;
    return [[r[0], r[1], z], [r[2], r[1], z], [r[2], r[3], z], [r[0], r[3], z], [r[0], r[1], z]];
  });
  return { drawRect, rect, height, outline };
});
