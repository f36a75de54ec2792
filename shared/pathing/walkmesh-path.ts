import type { BwmDocument } from '../formats/kotor/bwm-document';
import { bwmToWalkmesh } from '../formats/kotor/bwm-walkmesh';
import { buildFaceAdjacency } from '../model/face-adjacency';
import { ModelMappingError } from '../model/model-mapping-error';
import { vertexCount, type Walkmesh } from '../model/walkmesh';
import { triangleGraphBuilder } from './nav-graph';
import { PathSurface } from './path-surface';

/** A path surface over any walkmesh, with faces joined where they share two vertex indices. */
export function walkmeshPathSurface(mesh: Walkmesh): PathSurface {
  const { neighbors } = buildFaceAdjacency(mesh.triangles, vertexCount(mesh));
  const graph = triangleGraphBuilder(mesh.positions, mesh.triangles, mesh.faceWalkable, neighbors).finish((f) => `face ${f}`, 'faces');
  return new PathSurface(graph, mesh.positions, mesh.triangles, mesh.faceWalkable);
}

/**
 * A path surface over a KotOR room walkmesh, joined by the file's own adjacency table (what
 * the game walks: rows for the walkable faces, `neighbourFace·3 + edge` or -1), so a seam
 * the table leaves open (duplicated vertices, kotor-bwm.md §3.3) is a break here too.
 */
export function kotorPathSurface(doc: BwmDocument, name: string): PathSurface {
  checkFaceVertices(doc, name);
  const mesh = bwmToWalkmesh(doc, name);
  const T = mesh.triangles.length / 3;
  const neighbours = new Int32Array(T * 3).fill(-1);
  const rows = Math.min(T, doc.adjacency.length / 3);
  for (let f = 0; f < rows; f++) {
    for (let e = 0; e < 3; e++) {
      const v = doc.adjacency[f * 3 + e]!;
      if (v >= 0 && ((v / 3) | 0) < T) neighbours[f * 3 + e] = (v / 3) | 0;
    }
  }
  const graph = triangleGraphBuilder(mesh.positions, mesh.triangles, mesh.faceWalkable, neighbours).finish((f) => `face ${f}`, 'faces');
  return new PathSurface(graph, mesh.positions, mesh.triangles, mesh.faceWalkable);
}

/** Refuses a WOK whose faces name vertices it does not have (the reader keeps such files for validation). */
export function checkFaceVertices(doc: BwmDocument, what: string): void {
  const V = doc.vertices.length / 3;
  const bad = doc.faces.findIndex((v) => v >= V);
  if (bad >= 0) throw new ModelMappingError(`${what}: face ${Math.floor(bad / 3)} uses vertex ${doc.faces[bad]!}, but the walkmesh has ${V} vertices; repair the file before walking it`);
}
