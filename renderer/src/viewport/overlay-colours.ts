import type { OverlayId } from '../../../shared/views/view-overlay';
import type { Rgb } from './face-colours';

/**
 * Line colours per view and class. Every line is drawn over a near-black casing (a wider
 * line under it, walkmesh-scene.ts), so a line needs to stand out from the casing, and the
 * casing from the face, or the line from the face directly: light colours (relative
 * luminance at least about 0.4) do both against any face. test/unit/renderer/overlay-contrast.test.ts
 * checks every class against every colour each face colouring can give (colour-contrast.ts),
 * also as protanopes and deuteranopes see them, and that the classes of a view differ.
 */
const CLASS_COLOURS: Record<OverlayId, readonly Rgb[]> = {
  perimeter: [
    [1, 1, 1],
    [1, 0.85, 0.2],
  ],
  normals: [
    [0.55, 0.85, 1],
    [1, 0.7, 0.2],
    [1, 1, 1],
  ],
  aabb: [],
  transitions: [
    [0.3, 0.9, 1],
    [1, 0.7, 0.2],
    [1, 1, 1],
    [1, 1, 0.55],
  ],
  'edge-links': [[0.3, 0.9, 1]],
  'door-links': [[1, 0.7, 0.2]],
  'cover-edges': [
    [1, 0.95, 0.4],
    [1, 0.6, 1],
    [0.8, 0.8, 0.8],
  ],
  connections: [
    [0.3, 0.9, 1],
    [1, 0.7, 0.2],
    [1, 1, 1],
  ],
  ladders: [[1, 0.9, 0.3]],
  'hiding-spots': [[1, 0.6, 1]],
  // Placeable outline, door closed, door open, then the markers of objects without a model (white, grey).
  footprints: [
    [1, 0.7, 0.3],
    [0.3, 0.9, 1],
    [0.55, 1, 0.55],
    [1, 1, 1],
    [0.75, 0.75, 0.75],
  ],
  cutters: [[1, 0.6, 1]],
};

/** The casing under every overlay and tool line: darker than any face, so lines read over light faces. */
export const CASING_RGB: Rgb = [0.03, 0.03, 0.05];

/** Line width and casing width, in CSS pixels. */
export const LINE_PX = 2;
export const CASING_PX = 8;

/**
 * The tool lines: the path found (or the cutter being drawn), the edges where the walkable
 * region breaks (light red, as the path panel says), picked points, and the selected and
 * hovered faces' outlines.
 */
export const TOOL_COLOURS = {
  path: [1, 1, 1],
  breaks: [1, 0.66, 0.62],
  marks: [1, 0.95, 0.3],
  selected: [1, 0.85, 0.1],
  hovered: [0.85, 0.92, 1],
} as const satisfies Record<string, Rgb>;

/** Every class colour of a view (the AABB ramp sampled at its ends and middle). */
export function overlayColours(id: OverlayId): Rgb[] {
  if (id === 'aabb') return [0, 1, 2, 3, 4].map((c) => overlayClassColour(id, c, 5));
  return [...CLASS_COLOURS[id]];
}

export function overlayClassColour(id: OverlayId, cls: number, classCount: number): Rgb {
  if (id === 'aabb') {
    // Depth as a ramp from the root (light blue) to the leaves (yellow).
    const t = classCount > 1 ? cls / (classCount - 1) : 0;
    return [0.55 + 0.45 * t, 0.75 + 0.2 * t, 1 - 0.6 * t];
  }
  const list = CLASS_COLOURS[id];
  return list[cls % list.length] ?? [1, 1, 1];
}
