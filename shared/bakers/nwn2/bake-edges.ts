import { NONE32 } from '../../formats/nwn2/aswm-document';
import { buildEdges, triangleSlots } from '../../formats/nwn2/aswm-topology';

export interface BakedEdges {
  /** v0, v1, t0, t1 per edge: v0 < v1, sorted by (v0, v1) (spec §4.2). */
  edges: Uint32Array;
  /** Per triangle, its three edges ascending. */
  triEdges: Uint32Array;
  /** Per triangle, the triangle across triEdges[k] (NONE32 = none). */
  triLinks: Uint32Array;
  /** Vertex pairs shared by three or more triangles. */
  crowdedPairs: number;
  /** Of those, the ones whose pairing was taken from the previous edges. */
  crowdedPairsKept: number;
}

/**
 * The edges and links the toolset stores (spec §4.2), from the triangles alone: one edge
 * per vertex pair, numbered in (v0, v1) order (aswm-topology's buildEdges), and each
 * triangle's slots sorted by edge index with linked_triangles aligned to them.
 *
 * Two things the geometry does not decide are taken from `previous` (the edges the file
 * had) when they still fit, so re-baking an unedited file changes neither:
 * - which triangle of an edge is t0 (the toolset's choice follows its internal order, not
 *   the triangle indices: t0 > t1 in about 45 % of its edges);
 * - at a vertex pair used by three or more triangles (overlapping walkmesh pieces around
 *   placeables), which triangles are joined: the toolset stores one edge per joined pair
 *   and its pairing is not a function of the geometry (it pairs triangles running the
 *   edge in the same direction as often as opposite ones). This pairing decides which
 *   triangles are linked, so it decides reachability; a new pairing would disconnect
 *   paths the toolset's tables use. Where `previous` has the same vertex pair with a
 *   pairing of exactly the same triangles it is kept; otherwise buildEdges pairs them.
 */
export function bakeEdges(triVertices: Uint32Array, vertexCount: number, previous?: Uint32Array): BakedEdges {
  const built = buildEdges(triVertices, vertexCount, (t) => `triangle ${t}`);
  const edges = built.edges;
  const halfEdgeEdge = built.halfEdgeEdge;
  const E = edges.length / 4;
  let crowdedPairs = 0;
  let crowdedPairsKept = 0;
  const usePrevious = previous !== undefined && previous.length % 4 === 0 && isSortedByPair(previous);
  const P = usePrevious ? previous.length / 4 : 0;
  let p = 0;
  for (let e = 0; e < E; ) {
    const v0 = edges[e * 4]!;
    const v1 = edges[e * 4 + 1]!;
    let eEnd = e + 1;
    while (eEnd < E && edges[eEnd * 4] === v0 && edges[eEnd * 4 + 1] === v1) eEnd++;
    const crowded = eEnd - e > 1;
    if (crowded) crowdedPairs++;
    if (usePrevious) {
      while (p < P && (previous[p * 4]! < v0 || (previous[p * 4] === v0 && previous[p * 4 + 1]! < v1))) p++;
      let pEnd = p;
      while (pEnd < P && previous[pEnd * 4] === v0 && previous[pEnd * 4 + 1] === v1) pEnd++;
      if (pEnd - p === eEnd - e && sameTriangles(edges, e, eEnd, previous, p)) {
        if (crowded) {
          crowdedPairsKept++;
          for (let k = 0; k < eEnd - e; k++) {
            for (let w = 2; w < 4; w++) {
              const t = previous[(p + k) * 4 + w]!;
              edges[(e + k) * 4 + w] = t;
              if (t !== NONE32) halfEdgeEdge[halfEdgeOf(triVertices, t, v0, v1)] = e + k;
            }
          }
        } else if (previous[p * 4 + 2] !== NONE32) {
          edges[e * 4 + 2] = previous[p * 4 + 2]!;
          edges[e * 4 + 3] = previous[p * 4 + 3]!;
        }
      }
      p = pEnd;
    }
    e = eEnd;
  }

  const { triEdges, triLinks } = triangleSlots(edges, halfEdgeEdge, triVertices.length / 3);
  return { edges, triEdges, triLinks, crowdedPairs, crowdedPairsKept };
}

function isSortedByPair(edges: Uint32Array): boolean {
  for (let e = 1, n = edges.length / 4; e < n; e++) {
    const a0 = edges[e * 4 - 4]!;
    const b0 = edges[e * 4]!;
    if (a0 > b0 || (a0 === b0 && edges[e * 4 - 3]! > edges[e * 4 + 1]!)) return false;
  }
  return true;
}

/**
 * True when edges[e .. eEnd] and previous[p .. p + (eEnd − e)] hold the same triangles
 * (each once: a valid pairing), whatever the order.
 */
function sameTriangles(edges: Uint32Array, e: number, eEnd: number, previous: Uint32Array, p: number): boolean {
  const n = eEnd - e;
  if (n === 1) {
    const a = edges[e * 4 + 2]!, b = edges[e * 4 + 3]!;
    const c = previous[p * 4 + 2]!, d = previous[p * 4 + 3]!;
    return (a === c && b === d) || (a === d && b === c);
  }
  const mine: number[] = [];
  const theirs: number[] = [];
  for (let k = 0; k < n; k++) {
    if (previous[(p + k) * 4 + 2] === NONE32) return false;
    for (let w = 2; w < 4; w++) {
      mine.push(edges[(e + k) * 4 + w]!);
      theirs.push(previous[(p + k) * 4 + w]!);
    }
  }
  mine.sort((x, y) => x - y);
  theirs.sort((x, y) => x - y);
  for (let i = 0; i < mine.length; i++) {
    if (mine[i] !== theirs[i]) return false;
    if (i > 0 && mine[i] !== NONE32 && mine[i] === mine[i - 1]) return false;
  }
  return true;
}

/** The half-edge (3 · t + corner) of triangle t that joins vertices v0 and v1. */
function halfEdgeOf(triVertices: Uint32Array, t: number, v0: number, v1: number): number {
  for (let c = 0; c < 3; c++) {
    const a = triVertices[t * 3 + c]!;
    const b = triVertices[t * 3 + (c === 2 ? 0 : c + 1)]!;
    if ((a === v0 && b === v1) || (a === v1 && b === v0)) return t * 3 + c;
  }
  throw new Error(`triangle ${t} has no side ${v0}–${v1}`);
}
