import type { TriangleGrid } from '../geometry/triangle-grid';
import type { Walkmesh } from '../model/walkmesh';
import type { MoveVerticesCommand } from './edit-command';
import { EditError } from './edit-error';
import { checkVertexList } from './edit-checks';

/** Positions rounded to the nearest multiple of `step` on the chosen axes (float32, as the model stores). */
export function snapToGrid(positions: readonly number[], step: number, axes: 'xy' | 'xyz' = 'xy'): number[] {
  if (!(step > 0) || !Number.isFinite(step)) throw new EditError('snap-to-grid', `grid step is ${step}, not a positive size`);
  return positions.map((c, i) => (axes === 'xy' && i % 3 === 2 ? c : Math.fround(Math.round(c / step) * step)));
}

/**
 * The height of the highest face at or below (x, y, z), looking straight down (the
 * mesh is Z-up), or undefined when nothing is below. Faces for which `skip` is true are
 * ignored (a vertex does not land on its own faces).
 */
export function surfaceBelow(mesh: Walkmesh, grid: TriangleGrid, x: number, y: number, z: number, skip?: (face: number) => boolean): number | undefined {
  let best: number | undefined;
  // A point on the surface itself counts as below it.
  const limit = z + 1e-4 * Math.max(1, Math.abs(z));
  grid.forEachContaining(x, y, (t) => {
    if (skip?.(t)) return;
    const h = grid.heightAt(t, x, y);
    if (h <= limit && (best === undefined || h > best)) best = h;
  }, 1e-6);
  return best;
}

/**
 * A move that drops each vertex onto the surface below it (the faces that do not use any
 * of the moved vertices); vertices with nothing below stay where they are. The grid must
 * be built on the mesh as it is.
 */
export function dropToSurface(mesh: Walkmesh, grid: TriangleGrid, vertices: readonly number[]): MoveVerticesCommand {
  checkVertexList(mesh, vertices, 'drop-to-surface');
  const moving = new Set(vertices);
  const T = mesh.triangles;
  const P = mesh.positions;
  const skip = (t: number) => moving.has(T[t * 3]!) || moving.has(T[t * 3 + 1]!) || moving.has(T[t * 3 + 2]!);
  const positions: number[] = [];
  for (const v of vertices) {
    const x = P[v * 3]!, y = P[v * 3 + 1]!, z = P[v * 3 + 2]!;
    const h = surfaceBelow(mesh, grid, x, y, z, skip);
    positions.push(x, y, h === undefined ? z : Math.fround(h));
  }
  return { kind: 'move-vertices', vertices: vertices.slice(), positions };
}
