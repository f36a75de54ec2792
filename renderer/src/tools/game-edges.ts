import { buildFaceAdjacency, NO_NEIGHBOR } from '../../../shared/model/face-adjacency';
import { vertexCount, type Walkmesh } from '../../../shared/model/walkmesh';
import type { LineOverlay } from '../../../shared/views/view-overlay';

/** One edge of a face as the room-link editor lists it. */
export interface FaceEdge {
  /** Local edge: 0 v1→v2, 1 v2→v3, 2 v3→v1 (as kotor-set-transition names it). */
  edge: number;
  /** No face on the other side: the room's walkable border, where links live. */
  perimeter: boolean;
  /** The room the edge leads to (the transitions view's label), or null for none. */
  link: string | null;
}

/**
 * The three edges of a face: perimeter or not, and the room link the document's
 * transitions view draws on it (matched by endpoints, either way round).
 */
export function faceEdges(mesh: Walkmesh, face: number, transitions: LineOverlay | null | undefined): FaceEdge[] {
  const adjacency = buildFaceAdjacency(mesh.triangles, vertexCount(mesh));
  const P = mesh.positions;
  const out: FaceEdge[] = [];
  for (let e = 0; e < 3; e++) {
    const a = mesh.triangles[face * 3 + e]! * 3;
    const b = mesh.triangles[face * 3 + ((e + 1) % 3)]! * 3;
    let link: string | null = null;
    const s = transitions?.segments;
    if (s && transitions) {
      for (let i = 0; i < transitions.segmentClass.length && link === null; i++) {
        const o = i * 6;
        const same = (p: number, q: number) => s[o + p] === P[q] && s[o + p + 1] === P[q + 1] && s[o + p + 2] === P[q + 2];
        if ((same(0, a) && same(3, b)) || (same(0, b) && same(3, a))) link = transitions.classes[transitions.segmentClass[i]!]?.label ?? null;
      }
    }
    out.push({ edge: e, perimeter: adjacency.neighbors[face * 3 + e] === NO_NEIGHBOR, link });
  }
  return out;
}

/** The FormID of a Skyrim navmesh from its walkmesh name (`… NAVM 0x0001ABCD`), or null. */
export function navmeshFormId(name: string): number | null {
  const m = /NAVM (0x[0-9a-f]{1,8})\b/i.exec(name);
  return m ? parseInt(m[1]!, 16) : null;
}
