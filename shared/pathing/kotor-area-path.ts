import { NO_TRANSITION } from '../formats/kotor/bwm-document';
import type { KotorArea } from '../formats/kotor/kotor-area';
import { DEFAULT_WALKABILITY, isWalkableMaterial } from '../formats/kotor/surface-materials';
import { NavGraphBuilder, triangleOutlines } from './nav-graph';
import { PathSurface, type SurfacePart } from './path-surface';
import { checkFaceVertices } from './walkmesh-path';

/**
 * A path surface over a KotOR area: every room WOK of the LYT, joined inside a room by the
 * WOK's adjacency table and between rooms the way the engine welds them (kotor-bwm.md
 * §7.2): a perimeter edge of room r with transition t joins the perimeter edge of room t
 * whose transition is r and whose endpoints are equal in X and Y (either direction). A
 * doorway whose two sides do not both carry the transition stays open, and the
 * diagnostics then report it as an unlinked edge. Rooms without a WOK have no floor.
 */
export function kotorAreaPathSurface(area: KotorArea): PathSurface {
  const rooms = area.rooms.filter((r) => r.doc !== undefined);
  for (const r of rooms) checkFaceVertices(r.doc!, `room ${r.index} (${r.name}.wok)`);
  const faceBase: number[] = [];
  const vertexBase: number[] = [];
  let V = 0, T = 0;
  for (const r of rooms) {
    faceBase.push(T);
    vertexBase.push(V);
    V += r.positions.length / 3;
    T += r.doc!.faces.length / 3;
  }
  const positions = new Float32Array(V * 3);
  const triangles = new Uint32Array(T * 3);
  const walkable = new Uint8Array(T);
  rooms.forEach((r, i) => {
    positions.set(r.positions, vertexBase[i]! * 3);
    const doc = r.doc!;
    for (let k = 0; k < doc.faces.length; k++) triangles[faceBase[i]! * 3 + k] = vertexBase[i]! + doc.faces[k]!;
    for (let f = 0; f < doc.materials.length; f++) walkable[faceBase[i]! + f] = isWalkableMaterial(DEFAULT_WALKABILITY, doc.materials[f]!) ? 1 : 0;
  });
  const { polyStart, polyPoints } = triangleOutlines(positions, triangles);
  const b = new NavGraphBuilder(T, polyStart, polyPoints, walkable);
  // Perimeter edges with a transition, keyed by their XY endpoints (either direction).
  const seams = new Map<string, { room: number; face: number; edge: number; transition: number }[]>();
  const key = (face: number, edge: number): string => {
    const a = triangles[face * 3 + edge]! * 3, c = triangles[face * 3 + (edge === 2 ? 0 : edge + 1)]! * 3;
    const ka = `${positions[a]!},${positions[a + 1]!}`, kc = `${positions[c]!},${positions[c + 1]!}`;
    return ka < kc ? `${ka}|${kc}` : `${kc}|${ka}`;
  };
  rooms.forEach((r, i) => {
    const doc = r.doc!;
    const faces = doc.faces.length / 3;
    const rows = Math.min(faces, doc.adjacency.length / 3);
    for (let f = 0; f < rows; f++) {
      for (let e = 0; e < 3; e++) {
        const v = doc.adjacency[f * 3 + e]!;
        const g = (v / 3) | 0;
        if (v >= 0 && g < faces && walkable[faceBase[i]! + f] && walkable[faceBase[i]! + g]) b.addThroughEdge(faceBase[i]! + f, faceBase[i]! + g, e);
      }
    }
    for (let row = 0; row < doc.edgeIndex.length; row++) {
      const t = doc.edgeTransition[row]!;
      const slot = doc.edgeIndex[row]!;
      if (t === NO_TRANSITION || slot >= doc.faces.length) continue;
      const face = faceBase[i]! + ((slot / 3) | 0);
      const edge = slot % 3;
      const k = key(face, edge);
      const list = seams.get(k);
      const entry = { room: r.index, face, edge, transition: t };
      if (list) list.push(entry);
      else seams.set(k, [entry]);
    }
  });
  for (const list of seams.values()) {
    for (const p of list) {
      for (const q of list) {
        if (p.transition === q.room && q.transition === p.room && p.room !== q.room && walkable[p.face] && walkable[q.face]) b.addThroughEdge(p.face, q.face, p.edge);
      }
    }
  }
  const roomOf = (f: number): number => {
    let lo = 0, hi = faceBase.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (faceBase[mid]! <= f) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const graph = b.finish((f) => {
    const i = roomOf(f);
    return `face ${f - faceBase[i]!} of room ${rooms[i]!.index} (${rooms[i]!.name})`;
  }, 'faces');
  const surface = new PathSurface(graph, positions, triangles, walkable);
  surface.parts = rooms.map((r, i): SurfacePart => ({
    index: i,
    name: r.name,
    id: String(r.index),
    faceStart: faceBase[i]!,
    faceEnd: faceBase[i]! + r.doc!.faces.length / 3,
    space: 'area',
  }));
  return surface;
}
