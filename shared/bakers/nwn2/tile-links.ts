import { MAX_TILE_NODES, NONE32 } from '../../formats/nwn2/aswm-document';
import type { BakeMesh } from './bake-mesh';

/**
 * One tile's nodes and arcs as TileGraph loads them (same nodes, same arcs in the same
 * order), without the arc lengths: the line-of-sight step (issue 18) needs only who is
 * linked to whom, and the float32 distance per arc was a tenth of its per-tile set-up.
 */
export class TileLinks {
  nodeCount = 0;
  readonly start = new Int32Array(MAX_TILE_NODES + 1);
  readonly target = new Int32Array(MAX_TILE_NODES * 3);
  /** Node → global triangle index. */
  readonly triangle = new Int32Array(MAX_TILE_NODES);
  /** Global triangle → node of the loaded tile, −1 elsewhere (at least triangleCount long). */
  nodeOf: Int32Array;

  private mesh: BakeMesh | null;

  constructor(mesh: BakeMesh) {
    this.mesh = mesh;
    this.nodeOf = new Int32Array(mesh.triangleCount).fill(-1);
  }

  /**
   * Switches to another mesh, keeping the arrays (line-of-sight.ts reuses one TileLinks
   * across bakes): nodeOf is −1 everywhere again once the loaded tile's entries are cleared.
   */
  use(mesh: BakeMesh): void {
    this.release();
    this.mesh = mesh;
    if (this.nodeOf.length < mesh.triangleCount) this.nodeOf = new Int32Array(mesh.triangleCount).fill(-1);
  }

  /** Unloads the tile and lets go of the mesh (kept arrays must not keep a bake's mesh alive). */
  release(): void {
    for (let i = 0; i < this.nodeCount; i++) this.nodeOf[this.triangle[i]!] = -1;
    this.nodeCount = 0;
    this.mesh = null;
  }

  /** Loads tile k; its walkable count must be at most MAX_TILE_NODES. */
  load(k: number): void {
    const m = this.mesh;
    if (m === null) throw new Error('TileLinks.load: no mesh (released)');
    const { nodeOf, triangle, start, target } = this;
    for (let i = 0; i < this.nodeCount; i++) nodeOf[triangle[i]!] = -1;
    const s = m.tileStart[k]!;
    const e = m.tileEnd[k]!;
    const { walkable, links } = m;
    let n = 0;
    for (let t = s; t < e; t++) {
      if (walkable[t] === 1) {
        nodeOf[t] = n;
        triangle[n++] = t;
      }
    }
    this.nodeCount = n;
    let arc = 0;
    for (let u = 0; u < n; u++) {
      start[u] = arc;
      const t = triangle[u]!;
      for (let j = 0; j < 3; j++) {
        const o = links[t * 3 + j]!;
        if (o === NONE32 || o < s || o >= e) continue;
        const v = nodeOf[o]!;
        if (v < 0) continue;
        target[arc++] = v;
      }
    }
    start[n] = arc;
  }
}
