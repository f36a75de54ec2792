import { planeHeight, type TriangleGrid } from '../geometry/triangle-grid';
import { faceCount, type Walkmesh } from '../model/walkmesh';
import type { MoveVerticesCommand } from './edit-command';
import { dropToSurface } from './vertex-placement';

/** Squared x, y distance from (x, y) to the segment a–b. */
function segment2(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax, dy = by - ay;
  const len = dx * dx + dy * dy;
  const t = len > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len)) : 0;
  const px = ax + t * dx - x, py = ay + t * dy - y;
  return px * px + py * py;
}

/**
 * The Creation Kit's "drop to ground" on the navmesh itself (Walkbench has no collision
 * geometry): each vertex drops onto the surface below it (dropToSurface); one with nothing
 * below goes to the height, at its x and y, of the plane of the nearest face (in x, y) that
 * does not use a moved vertex, so a raised border vertex comes back to its floor. A vertex
 * with no such face stays. The nearest face is found by a scan of the faces per vertex
 * left over, which a selection keeps to a few.
 */
export function dropToGround(mesh: Walkmesh, grid: TriangleGrid, vertices: readonly number[]): MoveVerticesCommand {
  const below = dropToSurface(mesh, grid, vertices);
  const moving = new Set(vertices);
  const T = mesh.triangles;
  const P = mesh.positions;
  const F = faceCount(mesh);
  const positions = below.positions.slice();
  vertices.forEach((v, i) => {
    if (positions[i * 3 + 2] !== P[v * 3 + 2]) return;
    const x = P[v * 3]!, y = P[v * 3 + 1]!;
    let best = -1;
    let bestD = Infinity;
    for (let f = 0; f < F; f++) {
      const a = T[f * 3]!, b = T[f * 3 + 1]!, c = T[f * 3 + 2]!;
      if (moving.has(a) || moving.has(b) || moving.has(c)) continue;
      const d = Math.min(
        segment2(x, y, P[a * 3]!, P[a * 3 + 1]!, P[b * 3]!, P[b * 3 + 1]!),
        segment2(x, y, P[b * 3]!, P[b * 3 + 1]!, P[c * 3]!, P[c * 3 + 1]!),
        segment2(x, y, P[c * 3]!, P[c * 3 + 1]!, P[a * 3]!, P[a * 3 + 1]!),
      );
      if (d < bestD) [best, bestD] = [f, d];
    }
    if (best >= 0) positions[i * 3 + 2] = Math.fround(planeHeight(P, T, best, x, y));
  });
  return { kind: 'move-vertices', vertices: vertices.slice(), positions };
}
