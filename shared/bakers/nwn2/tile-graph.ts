import { MAX_TILE_NODES, NONE32 } from '../../formats/nwn2/aswm-document';
import type { BakeMesh } from './bake-mesh';
import { distance32 } from './distance32';
import type { SparseGraph } from './shortest-paths';

/**
 * The graph of one tile's path table (spec §4.4, §5.6): nodes are the tile's walkable
 * triangles in ascending order, arcs are their links to walkable triangles of the same
 * tile, and an arc's length is the 2-D (x, y) distance between the two centres (in float32, as
 * the toolset computes it). One
 * instance is loaded tile after tile, so the whole bake allocates it once.
 */
export class TileGraph implements SparseGraph {
  nodeCount = 0;
  tile = -1;
  readonly start = new Int32Array(MAX_TILE_NODES + 1);
  readonly target = new Int32Array(MAX_TILE_NODES * 3);
  readonly weight = new Float64Array(MAX_TILE_NODES * 3);
  /** Node → global triangle index. */
  readonly triangle = new Int32Array(MAX_TILE_NODES);
  /** Global triangle → node of the loaded tile, −1 elsewhere. */
  readonly nodeOf: Int32Array;

  constructor(private readonly mesh: BakeMesh) {
    this.nodeOf = new Int32Array(mesh.triangleCount).fill(-1);
  }

  /** Loads tile k; its walkable count must be at most MAX_TILE_NODES (see walkableCount). */
  load(k: number): void {
    const m = this.mesh;
    for (let i = 0; i < this.nodeCount; i++) this.nodeOf[this.triangle[i]!] = -1;
    const s = m.tileStart[k]!;
    const e = m.tileEnd[k]!;
    let n = 0;
    for (let t = s; t < e; t++) {
      if (m.walkable[t] === 1) {
        this.nodeOf[t] = n;
        this.triangle[n++] = t;
      }
    }
    this.nodeCount = n;
    this.tile = k;
    const { links, centreX, centreY } = m;
    let arc = 0;
    for (let u = 0; u < n; u++) {
      this.start[u] = arc;
      const t = this.triangle[u]!;
      const x = centreX[t]!;
      const y = centreY[t]!;
      for (let j = 0; j < 3; j++) {
        const o = links[t * 3 + j]!;
        if (o === NONE32 || o < s || o >= e) continue;
        const v = this.nodeOf[o]!;
        if (v < 0) continue;
        this.target[arc] = v;
        this.weight[arc] = distance32(x, y, centreX[o]!, centreY[o]!);
        arc++;
      }
    }
    this.start[n] = arc;
  }
}

/** The number of walkable triangles of tile k (its path table's node count). */
export function walkableCount(m: BakeMesh, k: number): number {
  let n = 0;
  for (let t = m.tileStart[k]!, e = m.tileEnd[k]!; t < e; t++) n += m.walkable[t]!;
  return n;
}
