import type { OverlayId } from '../../../shared/views/view-overlay';
import type { Rgb } from './face-colours';

/**
 * Line colours per view and class: bright enough to read over both the walkable green
 * and the blocked red, and unlike each other where two views are usually on together.
 */
const CLASS_COLOURS: Record<OverlayId, readonly Rgb[]> = {
  perimeter: [
    [1, 1, 1],
    [1, 0.85, 0.2],
  ],
  normals: [
    [0.4, 0.8, 1],
    [1, 0.3, 0.9],
    [1, 0.2, 0.2],
  ],
  aabb: [],
  transitions: [
    [0.2, 0.9, 1],
    [1, 0.55, 0.1],
    [0.7, 0.4, 1],
    [1, 1, 0.3],
  ],
  'edge-links': [[0.2, 0.95, 1]],
  'door-links': [[1, 0.6, 0.1]],
  'cover-edges': [
    [1, 0.95, 0.3],
    [0.95, 0.4, 1],
    [0.6, 0.6, 0.6],
  ],
  connections: [
    [0.35, 0.85, 1],
    [1, 0.6, 0.15],
    [1, 0.2, 0.2],
  ],
  ladders: [[1, 0.9, 0.2]],
  'hiding-spots': [[0.9, 0.4, 1]],
  // Placeable outline, door closed, door open, then the markers of objects without a model (paler).
  footprints: [
    [1, 0.6, 0.2],
    [0.3, 0.9, 1],
    [0.4, 1, 0.4],
    [0.75, 0.6, 0.45],
    [0.5, 0.7, 0.8],
  ],
  cutters: [[1, 0.25, 0.25]],
};

export function overlayClassColour(id: OverlayId, cls: number, classCount: number): Rgb {
  if (id === 'aabb') {
    // Depth as a ramp from the root (blue) to the leaves (yellow).
    const t = classCount > 1 ? cls / (classCount - 1) : 0;
    return [0.25 + 0.75 * t, 0.45 + 0.5 * t, 1 - 0.8 * t];
  }
  const list = CLASS_COLOURS[id];
  return list[cls % list.length] ?? [1, 1, 1];
}
