import { buildFaceAdjacency, NO_NEIGHBOR, type FaceAdjacency } from '../model/face-adjacency';
import { faceCount, vertexCount, type Walkmesh } from '../model/walkmesh';
import { TriangleGrid } from '../geometry/triangle-grid';
import { EditError } from './edit-error';

/**
 * What a flood fill crosses: every edge-connected face (`connected`), only faces with the
 * seed's walkability (`island`, a walkable or unwalkable region), only faces with the
 * seed's material (`material`), or only faces with the seed's owner (`owner`: area, tile).
 */
export type FloodRule = 'connected' | 'island' | 'material' | 'owner';

/**
 * Grows a selection from seed faces across shared edges (a query, not an edit). Pass the
 * adjacency when it is at hand: building it is the only whole-mesh pass.
 */
export function floodSelect(mesh: Walkmesh, seeds: readonly number[], rule: FloodRule, adjacency?: FaceAdjacency): Uint32Array {
  const F = faceCount(mesh);
  for (const s of seeds) if (!Number.isInteger(s) || s < 0 || s >= F) throw new EditError('flood-select', `seed face ${s} is not a face of "${mesh.name}" (0..${F - 1})`);
  const adj = adjacency ?? buildFaceAdjacency(mesh.triangles, vertexCount(mesh));
  const seen = new Uint8Array(F);
  const stack: number[] = [];
  for (const s of seeds) {
    if (seen[s]) continue;
    const key = rule === 'island' ? mesh.faceWalkable[s]! : rule === 'material' ? mesh.faceMaterial[s]! : rule === 'owner' ? mesh.faceOwner[s]! : 0;
    const same = (f: number): boolean =>
      rule === 'island' ? mesh.faceWalkable[f] === key : rule === 'material' ? mesh.faceMaterial[f] === key : rule === 'owner' ? mesh.faceOwner[f] === key : true;
    seen[s] = 1;
    stack.push(s);
    while (stack.length > 0) {
      const f = stack.pop()!;
      for (let e = 0; e < 3; e++) {
        const g = adj.neighbors[f * 3 + e]!;
        if (g === NO_NEIGHBOR || seen[g] || !same(g)) continue;
        seen[g] = 1;
        stack.push(g);
      }
    }
  }
  let n = 0;
  for (let f = 0; f < F; f++) n += seen[f]!;
  const out = new Uint32Array(n);
  for (let f = 0, o = 0; f < F; f++) if (seen[f]) out[o++] = f;
  return out;
}

/**
 * Faces under a round brush at (x, y) seen from above: those whose centre lies within
 * `radius`, or that contain the brush's centre. The grid is the mesh's (build it once per
 * stroke; painting does not move faces).
 */
export function facesUnderBrush(mesh: Walkmesh, grid: TriangleGrid, x: number, y: number, radius: number): Uint32Array {
  const P = mesh.positions;
  const T = mesh.triangles;
  const hit = new Set<number>();
  const r2 = radius * radius;
  grid.forEachInBox(x - radius, y - radius, x + radius, y + radius, (t) => {
    const a = T[t * 3]! * 3, b = T[t * 3 + 1]! * 3, c = T[t * 3 + 2]! * 3;
    const cx = (P[a]! + P[b]! + P[c]!) / 3 - x;
    const cy = (P[a + 1]! + P[b + 1]! + P[c + 1]!) / 3 - y;
    if (cx * cx + cy * cy <= r2) hit.add(t);
  });
  grid.forEachContaining(x, y, (t) => hit.add(t));
  return Uint32Array.from(hit).sort();
}

/** The grid a brush or a drop-to-surface looks faces up in. */
export function walkmeshGrid(mesh: Walkmesh): TriangleGrid {
  return new TriangleGrid(mesh.positions, mesh.triangles);
}
