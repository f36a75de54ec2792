import { buildFaceAdjacency, NO_NEIGHBOR } from '../model/face-adjacency';
import { NO_OWNER, vertexCount, type Walkmesh } from '../model/walkmesh';
import { weldedTriangles } from './welded-vertices';

/** `faceIsland` value of a face that is not walkable (it belongs to no island). */
export const NO_ISLAND = -1;

export interface FaceIslands {
  /** Island index per face (0 = the island with the most faces), NO_ISLAND if not walkable. */
  faceIsland: Int32Array;
  /** Faces per island, largest first. */
  sizes: number[];
  /** Per face and edge (as in face-adjacency), the neighbour through welded vertices. */
  neighbors: Int32Array;
}

function find(parent: Int32Array, x: number): number {
  let r = x;
  while (parent[r] !== r) r = parent[r]!;
  // Path halving on the way back keeps later finds short.
  while (parent[x] !== r) {
    const next = parent[x]!;
    parent[x] = r;
    x = next;
  }
  return r;
}

function unite(parent: Int32Array, a: number, b: number): void {
  const ra = find(parent, a);
  const rb = find(parent, b);
  if (ra !== rb) parent[ra < rb ? rb : ra] = ra < rb ? ra : rb;
}

/**
 * Walkable regions a creature can cross without leaving the mesh: walkable faces joined
 * through shared edges (vertices welded by position), plus, where the format links areas
 * rather than edges (Source connections), `ownerLinks`: pairs of faceOwner values whose
 * faces are one region (faces of one owner are then one region too). Islands are numbered
 * by size, so island 0 is the main floor and stray bits come last.
 */
export function faceIslands(mesh: Walkmesh, ownerLinks?: Uint32Array): FaceIslands {
  const faces = mesh.triangles.length / 3;
  const { neighbors } = buildFaceAdjacency(weldedTriangles(mesh.positions, mesh.triangles), vertexCount(mesh));
  const parent = new Int32Array(faces);
  for (let f = 0; f < faces; f++) parent[f] = f;
  const walkable = (f: number) => mesh.faceWalkable[f] !== 0;
  for (let f = 0; f < faces; f++) {
    if (!walkable(f)) continue;
    for (let e = 0; e < 3; e++) {
      const g = neighbors[f * 3 + e]!;
      if (g !== NO_NEIGHBOR && walkable(g)) unite(parent, f, g);
    }
  }
  if (ownerLinks && ownerLinks.length > 0) {
    const firstOfOwner = new Map<number, number>();
    for (let f = 0; f < faces; f++) {
      const o = mesh.faceOwner[f]!;
      if (!walkable(f) || o === NO_OWNER) continue;
      const first = firstOfOwner.get(o);
      if (first === undefined) firstOfOwner.set(o, f);
      else unite(parent, first, f);
    }
    for (let i = 0; i + 1 < ownerLinks.length; i += 2) {
      const a = firstOfOwner.get(ownerLinks[i]!);
      const b = firstOfOwner.get(ownerLinks[i + 1]!);
      if (a !== undefined && b !== undefined) unite(parent, a, b);
    }
  }
  // Count per root, then number roots largest first (ties by lowest face: stable).
  const sizeOf = new Int32Array(faces);
  for (let f = 0; f < faces; f++) if (walkable(f)) sizeOf[find(parent, f)]++;
  const roots: number[] = [];
  for (let f = 0; f < faces; f++) if (sizeOf[f]! > 0) roots.push(f);
  roots.sort((a, b) => sizeOf[b]! - sizeOf[a]! || a - b);
  const idOf = new Int32Array(faces).fill(NO_ISLAND);
  roots.forEach((r, i) => (idOf[r] = i));
  const faceIsland = new Int32Array(faces);
  for (let f = 0; f < faces; f++) faceIsland[f] = walkable(f) ? idOf[find(parent, f)]! : NO_ISLAND;
  return { faceIsland, sizes: roots.map((r) => sizeOf[r]!), neighbors };
}
