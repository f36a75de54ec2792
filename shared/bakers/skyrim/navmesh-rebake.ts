import { COVER_MASK, TRI_EDGE_LINK_BITS, type NvnmDocument } from '../../formats/skyrim/nvnm-document';
import { gridDivisorFor, MAX_GRID_DIVISOR } from '../../formats/skyrim/nvnm-grid';
import { buildGrid } from './navmesh-grid';

/** All three edge-link bits: the rebake owns them. */
const LINK_BITS_MASK = TRI_EDGE_LINK_BITS[0] | TRI_EDGE_LINK_BITS[1] | TRI_EDGE_LINK_BITS[2];

export interface EdgeRebakeCounts {
  /** Internal edges whose vertex pair is shared by more than two triangles (the first other triangle is taken). */
  nonManifoldEdges: number;
  /** Edges kept as external edge links (their link index stays as stored). */
  externalEdges: number;
}

/**
 * Internal adjacency from the triangles (spec §4.2): two triangles neighbour across an edge
 * when they share its two vertex indices. An edge whose link bit is set stays an external
 * edge link with its stored index (links to other navmeshes are not derivable from one
 * mesh); every other edge gets the neighbour, or −1 when open.
 */
export function rebakeEdges(n: NvnmDocument): { triEdges: Int16Array; triFlags: Uint16Array; counts: EdgeRebakeCounts } {
  const nt = n.triFlags.length;
  const tv = n.triVertices;
  const triEdges = new Int16Array(nt * 3).fill(-1);
  const triFlags = new Uint16Array(n.triFlags);
  const counts: EdgeRebakeCounts = { nonManifoldEdges: 0, externalEdges: 0 };
  // Undirected vertex pair → first internal triangle edge (t*3+k) seen with it.
  const firstSlot = new Map<number, number>();
  const isExternal = (t: number, k: number) => (n.triFlags[t]! & TRI_EDGE_LINK_BITS[k]!) !== 0;
  for (let t = 0; t < nt; t++) {
    triFlags[t] = n.triFlags[t]! & ~LINK_BITS_MASK;
    for (let k = 0; k < 3; k++) {
      if (isExternal(t, k)) {
        triFlags[t]! |= TRI_EDGE_LINK_BITS[k]!;
        triEdges[t * 3 + k] = n.triEdges[t * 3 + k]!;
        counts.externalEdges++;
        continue;
      }
      const a = tv[t * 3 + k]!;
      const b = tv[t * 3 + ((k + 1) % 3)]!;
      if (a === b) continue;
      const key = a < b ? a * 0x10000 + b : b * 0x10000 + a;
      const other = firstSlot.get(key);
      if (other === undefined) {
        firstSlot.set(key, t * 3 + k);
        continue;
      }
      const u = Math.floor(other / 3);
      if (u === t) continue;
      if (triEdges[other] === -1) {
        triEdges[other] = t;
        triEdges[t * 3 + k] = u;
      } else {
        // A third triangle on the same edge: it sees the first one, which keeps its first pairing.
        counts.nonManifoldEdges++;
        triEdges[t * 3 + k] = u;
      }
    }
  }
  return { triEdges, triFlags, counts };
}

/** The cover-triangle list (spec §6): ascending triangles whose cover word has a bit in 0x3FFF. */
export function rebakeCoverList(n: NvnmDocument): Int16Array {
  const out: number[] = [];
  for (let t = 0; t < n.triCover.length; t++) if ((n.triCover[t]! & COVER_MASK) !== 0) out.push(t);
  return new Int16Array(out);
}

export interface NavmeshRebakeOptions {
  /** Keep the stored grid divisor instead of the CK's triangle-count rule (when it is 1..12). */
  keepDivisor?: boolean;
}

export interface NavmeshRebake {
  nvnm: NvnmDocument;
  edges: EdgeRebakeCounts;
}

/**
 * Everything the Creation Kit derives inside one NVNM: internal edge links and their flag
 * bits, the cover-triangle list and the grid (bounds, divisor by triangle count, cells).
 * Vertices, triangles, the edge-link and door lists and the cover words are inputs.
 */
export function rebakeNavmesh(n: NvnmDocument, options: NavmeshRebakeOptions = {}): NavmeshRebake {
  const { triEdges, triFlags, counts } = rebakeEdges(n);
  const stored = n.gridDivisor;
  const divisor = options.keepDivisor && stored >= 1 && stored <= MAX_GRID_DIVISOR ? stored : gridDivisorFor(n.triFlags.length);
  const nvnm: NvnmDocument = { ...n, triEdges, triFlags, coverTriangles: rebakeCoverList(n), ...buildGrid(n, divisor) };
  return { nvnm, edges: counts };
}
