import { NO_NODE, NODE_LOS_BIT } from '../../formats/nwn2/aswm-document';
import type { BakeMesh } from './bake-mesh';
import type { TilePathTables } from './bake-tile-paths';

const NONE32 = 0xffffffff;

/**
 * What one bake leaves for the next bake of the same area (a live re-bake after a cutter
 * or placeable edit): every tile's signature and its finished path table, line-of-sight
 * bits included. Plain typed arrays, so it crosses a worker boundary and the IPC codec.
 */
export interface TileTableCache {
  gridWidth: number;
  gridHeight: number;
  /** Whether the tables carry line-of-sight bits (a bake without them cannot reuse them, nor the reverse). */
  lineOfSight: boolean;
  /** Tile k's signature is signatures[signatureStart[k] .. signatureStart[k + 1]]. */
  signatureStart: Uint32Array;
  signatures: Uint32Array;
  tables: Omit<TilePathTables, 'reachablePairs'>;
}

/**
 * Everything a tile's path table and line-of-sight bits are computed from, as 32-bit
 * words: per triangle in tile order, its walkability, the bits of its corners' float
 * coordinates, and per side the tile-local index of the triangle across it (or none) and
 * the bits of the side's end points. The path table (bake-tile-paths.ts) reads the
 * tile's walkable triangles, their links within the tile and their centres (from the
 * corners); the line-of-sight bits (line-of-sight.ts) read the tile's walls, which are
 * sides without a walkable triangle of the same tile across and sides of overlapping
 * triangles, all from these corners. Nothing outside the tile enters either, so two
 * tiles with equal signatures have equal tables: that is what makes reuse exact rather
 * than a heuristic, and why the comparison is of the words themselves, not of a hash.
 */
export function tileSignatures(m: BakeMesh, vertices: Uint32Array, triVertices: Uint32Array, triEdges: Uint32Array, edges: Uint32Array): { signatureStart: Uint32Array; signatures: Uint32Array } {
  const K = m.tileCount;
  const WORDS_PER_TRIANGLE = 1 + 9 + 3 * 7;
  const signatureStart = new Uint32Array(K + 1);
  for (let k = 0; k < K; k++) signatureStart[k + 1] = signatureStart[k]! + 1 + (m.tileEnd[k]! - m.tileStart[k]!) * WORDS_PER_TRIANGLE;
  const signatures = new Uint32Array(signatureStart[K]!);
  for (let k = 0; k < K; k++) {
    const s = m.tileStart[k]!;
    const e = m.tileEnd[k]!;
    let w = signatureStart[k]!;
    signatures[w++] = e - s;
    for (let t = s; t < e; t++) {
      signatures[w++] = m.walkable[t]!;
      for (let c = 0; c < 3; c++) {
        const v = triVertices[t * 3 + c]! * 3;
        signatures[w++] = vertices[v]!;
        signatures[w++] = vertices[v + 1]!;
        signatures[w++] = vertices[v + 2]!;
      }
      for (let slot = 0; slot < 3; slot++) {
        const other = m.links[t * 3 + slot]!;
        signatures[w++] = other !== NONE32 && other >= s && other < e ? other - s : NONE32;
        const edge = triEdges[t * 3 + slot]!;
        for (let end = 0; end < 2; end++) {
          const v = edge !== NONE32 && edge * 4 + end < edges.length ? edges[edge * 4 + end]! : NONE32;
          const p = v !== NONE32 && v * 3 + 2 < vertices.length ? v * 3 : -1;
          signatures[w++] = p >= 0 ? vertices[p]! : NONE32;
          signatures[w++] = p >= 0 ? vertices[p + 1]! : NONE32;
          signatures[w++] = p >= 0 ? vertices[p + 2]! : NONE32;
        }
      }
    }
  }
  return { signatureStart, signatures };
}

/**
 * Which tiles of the new bake can take their table from the cache: a mask (1 = reuse)
 * and tile k's index in the cache (the same k: the grid must be the same). All zero when
 * there is no cache or the grid differs.
 */
export function reusableTiles(cache: TileTableCache | undefined, grid: { gridWidth: number; gridHeight: number; lineOfSight: boolean }, signatureStart: Uint32Array, signatures: Uint32Array): Uint8Array {
  const K = signatureStart.length - 1;
  const reuse = new Uint8Array(K);
  if (!cache || cache.gridWidth !== grid.gridWidth || cache.gridHeight !== grid.gridHeight || cache.lineOfSight !== grid.lineOfSight || cache.signatureStart.length !== K + 1) return reuse;
  for (let k = 0; k < K; k++) {
    const a = signatureStart[k]!, n = signatureStart[k + 1]! - a;
    const b = cache.signatureStart[k]!;
    if (cache.signatureStart[k + 1]! - b !== n || b + n > cache.signatures.length) continue;
    let same = true;
    for (let i = 0; i < n; i++) {
      if (signatures[a + i] !== cache.signatures[b + i]) {
        same = false;
        break;
      }
    }
    if (same) reuse[k] = 1;
  }
  return reuse;
}

/**
 * Copies the cached tables of the reused tiles into freshly sized tables (whose start
 * columns the new bake computed: they match the cache's row lengths because the
 * signatures, and with them the triangle and walkable counts, are equal). Returns the
 * ordered pairs that are reachable and that have the line-of-sight bit in those tiles.
 */
export function copyReusedTables(reuse: Uint8Array, cache: TileTableCache, into: TilePathTables): { reachablePairs: number; lineOfSightPairs: number } {
  const from = cache.tables;
  let reachablePairs = 0;
  let lineOfSightPairs = 0;
  for (let k = 0; k < reuse.length; k++) {
    if (!reuse[k]) continue;
    const n = into.nodeCount[k]!;
    if (from.nodeCount[k] !== n) throw new Error(`tile ${k}: the cache holds ${from.nodeCount[k]} nodes but the signature matched one with ${n}`);
    const locals = into.localToNodeStart[k + 1]! - into.localToNodeStart[k]!;
    into.localToNode.set(from.localToNode.subarray(from.localToNodeStart[k]!, from.localToNodeStart[k]! + locals), into.localToNodeStart[k]!);
    into.nodeToLocal.set(from.nodeToLocal.subarray(from.nodeToLocalStart[k]!, from.nodeToLocalStart[k]! + n), into.nodeToLocalStart[k]!);
    const rows = from.nodes.subarray(from.nodesStart[k]!, from.nodesStart[k]! + n * n);
    into.nodes.set(rows, into.nodesStart[k]!);
    for (let i = 0; i < rows.length; i++) {
      const v = rows[i]!;
      if (v === NO_NODE) continue;
      reachablePairs++;
      if (v & NODE_LOS_BIT) lineOfSightPairs++;
    }
  }
  return { reachablePairs, lineOfSightPairs };
}

export function cacheOf(grid: { gridWidth: number; gridHeight: number; lineOfSight: boolean }, signatureStart: Uint32Array, signatures: Uint32Array, tables: TilePathTables): TileTableCache {
  const { nodeCount, localToNodeStart, localToNode, nodeToLocalStart, nodeToLocal, nodesStart, nodes } = tables;
  return { gridWidth: grid.gridWidth, gridHeight: grid.gridHeight, lineOfSight: grid.lineOfSight, signatureStart, signatures, tables: { nodeCount, localToNodeStart, localToNode, nodeToLocalStart, nodeToLocal, nodesStart, nodes } };
}
