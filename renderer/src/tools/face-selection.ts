import { pointInRing } from '../../../shared/geometry/polygon';
import type { MoveVerticesCommand } from '../../../shared/edits/edit-command';
import { snapToGrid } from '../../../shared/edits/vertex-placement';
import { faceCount, type Walkmesh } from '../../../shared/model/walkmesh';

/** Game space to canvas pixels for the current camera, null behind it (WalkmeshScene.screenProjector). */
export type ScreenProjector = (x: number, y: number, z: number) => [number, number] | null;

export type SelectMode = 'replace' | 'add' | 'toggle';

/** Combines a selection with new faces: replace it, add to it (Shift) or toggle them (Ctrl). */
export function combineFaces(current: ArrayLike<number>, picked: ArrayLike<number>, mode: SelectMode): Uint32Array {
  if (mode === 'replace') return Uint32Array.from(new Set(Array.from(picked))).sort();
  const set = new Set(Array.from(current));
  for (let i = 0; i < picked.length; i++) {
    const f = picked[i]!;
    if (mode === 'toggle' && set.has(f)) set.delete(f);
    else set.add(f);
  }
  return Uint32Array.from(set).sort();
}

/** Faces whose screen-projected centroid passes `inside` (one projection per face). */
function facesByCentroid(mesh: Walkmesh, project: ScreenProjector, inside: (x: number, y: number) => boolean): Uint32Array {
  const P = mesh.positions;
  const T = mesh.triangles;
  const out: number[] = [];
  for (let f = 0, n = faceCount(mesh); f < n; f++) {
    const a = T[f * 3]! * 3, b = T[f * 3 + 1]! * 3, c = T[f * 3 + 2]! * 3;
    const s = project((P[a]! + P[b]! + P[c]!) / 3, (P[a + 1]! + P[b + 1]! + P[c + 1]!) / 3, (P[a + 2]! + P[b + 2]! + P[c + 2]!) / 3);
    if (s && inside(s[0], s[1])) out.push(f);
  }
  return Uint32Array.from(out);
}

/** Faces whose centroid is inside a screen rectangle (any two opposite corners). */
export function facesInRect(mesh: Walkmesh, project: ScreenProjector, x0: number, y0: number, x1: number, y1: number): Uint32Array {
  const minX = Math.min(x0, x1), maxX = Math.max(x0, x1), minY = Math.min(y0, y1), maxY = Math.max(y0, y1);
  return facesByCentroid(mesh, project, (x, y) => x >= minX && x <= maxX && y >= minY && y <= maxY);
}

/** Faces whose centroid is inside a screen polygon (x, y pairs; closed implicitly). */
export function facesInLasso(mesh: Walkmesh, project: ScreenProjector, ring: readonly number[]): Uint32Array {
  if (ring.length < 6) return new Uint32Array(0);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < ring.length; i += 2) {
    minX = Math.min(minX, ring[i]!);
    maxX = Math.max(maxX, ring[i]!);
    minY = Math.min(minY, ring[i + 1]!);
    maxY = Math.max(maxY, ring[i + 1]!);
  }
  return facesByCentroid(mesh, project, (x, y) => x >= minX && x <= maxX && y >= minY && y <= maxY && pointInRing(ring, x, y));
}

/** The vertices the faces use, each once, ascending. */
export function verticesOfFaces(mesh: Walkmesh, faces: ArrayLike<number>): number[] {
  const set = new Set<number>();
  for (let i = 0; i < faces.length; i++) for (let k = 0; k < 3; k++) set.add(mesh.triangles[faces[i]! * 3 + k]!);
  return [...set].sort((a, b) => a - b);
}

/** The corner of `face` nearest to a game-space point (the vertex a click on the face means). */
export function nearestCorner(mesh: Walkmesh, face: number, x: number, y: number, z: number): number {
  let best = -1;
  let bestD = Infinity;
  for (let k = 0; k < 3; k++) {
    const v = mesh.triangles[face * 3 + k]!;
    const d = Math.hypot(mesh.positions[v * 3]! - x, mesh.positions[v * 3 + 1]! - y, mesh.positions[v * 3 + 2]! - z);
    if (d < bestD) {
      bestD = d;
      best = v;
    }
  }
  return best;
}

/** The corners of the faces, nine numbers each, for drawing the selection. */
export function cornersOfFaces(mesh: Walkmesh, faces: ArrayLike<number>): Float32Array {
  const out = new Float32Array(faces.length * 9);
  for (let i = 0; i < faces.length; i++) {
    for (let k = 0; k < 3; k++) {
      const v = mesh.triangles[faces[i]! * 3 + k]! * 3;
      out.set(mesh.positions.subarray(v, v + 3), i * 9 + k * 3);
    }
  }
  return out;
}

/**
 * A move of the vertices by (dx, dy, dz), snapped to the grid in x and y when a step is
 * given (the arrow-key nudge of the move tool).
 */
export function nudgeVertices(mesh: Walkmesh, vertices: readonly number[], dx: number, dy: number, dz: number, gridStep: number | null): MoveVerticesCommand {
  const positions: number[] = [];
  for (const v of vertices) positions.push(mesh.positions[v * 3]! + dx, mesh.positions[v * 3 + 1]! + dy, mesh.positions[v * 3 + 2]! + dz);
  return { kind: 'move-vertices', vertices: vertices.slice(), positions: gridStep ? snapToGrid(positions, gridStep, 'xy') : positions.map(Math.fround) };
}

/** Keeps the faces that still exist after an edit changed the face count. */
export function facesWithin(faces: Uint32Array, count: number): Uint32Array {
  return faces.every((f) => f < count) ? faces : faces.filter((f) => f < count);
}

/** True when two walkmeshes have the same corners and positions (a paint changes neither). */
export function sameGeometry(a: Walkmesh, b: Walkmesh): boolean {
  return sameArray(a.triangles, b.triangles) && sameArray(a.positions, b.positions);
}

function sameArray(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
