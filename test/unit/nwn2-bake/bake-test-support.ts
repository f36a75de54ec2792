import {
  floatView,
  NODE_LOS_BIT,
  NO_NODE,
  TILES_FLAGS_TRX,
  TriangleFlag,
  type AswmDocument,
  unbakedAswm,
} from '../../../shared/formats/nwn2/aswm-document';
import { rebuildTopology } from '../../../shared/formats/nwn2/aswm-topology';
import { aswmPacketOf, type TrxDocument } from '../../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { nodeFormatEnvironment } from '../../../electron/services/node-format-environment';
import { readFixture } from '../../support/fixtures';

export const env = nodeFormatEnvironment;

export function loadTrx(file: string): TrxDocument {
  return readTrx(readFixture(file), env);
}

export function aswmOf(doc: TrxDocument): AswmDocument {
  const p = aswmPacketOf(doc);
  if (!p) throw new Error('no ASWM packet');
  return p.aswm;
}

export interface SmallMesh {
  /** x, y per vertex (z = 0). */
  points: [number, number][];
  /** Corners per triangle, any winding. */
  triangles: [number, number, number][];
  /** Indices of the unwalkable triangles. */
  unwalkable?: number[];
  /** Grid size in 9 m tiles (default 1 × 1). */
  grid?: [number, number];
}

/**
 * A hand-made walkmesh for the baker: the triangles go through rebuildTopology (tiles by
 * centre, edges, links), so only the baked tables are left to compute. Returns the
 * document and, per input triangle, its index after tile grouping.
 */
export function smallMesh(m: SmallMesh): { aswm: AswmDocument; indexOf: number[] } {
  const [gw, gh] = m.grid ?? [1, 1];
  const T = m.triangles.length;
  const positions = new Float32Array(m.points.length * 3);
  m.points.forEach(([x, y], i) => {
    positions[i * 3] = x;
    positions[i * 3 + 1] = y;
  });
  const triVertices = Uint32Array.from(m.triangles.flat());
  const unwalkable = new Set(m.unwalkable ?? []);
  const triFlags = new Uint16Array(T);
  for (let t = 0; t < T; t++) triFlags[t] = unwalkable.has(t) ? 0 : TriangleFlag.walkable;
  const input = unbakedAswm({
    vertices: new Uint32Array(positions.buffer),
    triVertices,
    triFlags,
    tilesFlags: TILES_FLAGS_TRX,
    tileWidth: 9,
    gridWidth: gw,
    gridHeight: gh,
    borderSize: 0,
  });
  const aswm = rebuildTopology(input, { tileSizes: 'zero' });
  // Recover where each input triangle went: match by corner set.
  const key = (a: number, b: number, c: number) => [a, b, c].sort((x, y) => x - y).join(',');
  const position = new Map<string, number>();
  for (let t = 0; t < T; t++) position.set(key(aswm.triVertices[t * 3]!, aswm.triVertices[t * 3 + 1]!, aswm.triVertices[t * 3 + 2]!), t);
  const indexOf = m.triangles.map(([a, b, c]) => position.get(key(a, b, c))!);
  return { aswm, indexOf };
}

/** The path-table entry of tile k for the pair of global triangles (from, to). */
export function tileEntry(a: AswmDocument, k: number, from: number, to: number): number {
  const t = a.tiles;
  const off = t.triangleOffset[k]!;
  const n = t.nodeCount[k]!;
  const x = t.localToNode[t.localToNodeStart[k]! + from - off]!;
  const y = t.localToNode[t.localToNodeStart[k]! + to - off]!;
  if (x === NO_NODE || y === NO_NODE) return NO_NODE;
  return t.nodes[t.nodesStart[k]! + x * n + y]!;
}

/** The global triangle of node `node` in tile k. */
export function triangleOfNode(a: AswmDocument, k: number, node: number): number {
  return a.tiles.triangleOffset[k]! + a.tiles.nodeToLocal[a.tiles.nodeToLocalStart[k]! + node]!;
}

export interface LosCheck {
  /** Pairs with the bit that were checked. */
  checked: number;
  /** Of those, pairs where some sampled segment leaves the tile's walkable triangles. */
  violations: number;
}

/**
 * Tests the line-of-sight bits of a walkmesh by sampling, independently of the baker: for
 * each checked pair (A, B) with the bit, segments between the corners of A and B (pulled
 * 1 % towards the centroid) and between random interior points are sampled along their
 * length, and every sample must lie in a walkable triangle of the tile (2-D, with a
 * tolerance of 1e-6 of the triangle's size). `stride` checks every stride-th unordered
 * pair with the bit (1 = all).
 */
export function checkLineOfSight(a: AswmDocument, stride: number, seed = 7): LosCheck {
  const p = floatView(a.vertices);
  const t = a.tiles;
  let state = seed;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 0x100000000;
  };
  let checked = 0;
  let violations = 0;
  let counter = 0;
  for (let k = 0; k < t.count; k++) {
    const n = t.nodeCount[k]!;
    if (n < 2) continue;
    const tris: number[] = [];
    for (let u = 0; u < n; u++) tris.push(triangleOfNode(a, k, u));
    const cx = (tri: number, c: number) => p[a.triVertices[tri * 3 + c]! * 3]!;
    const cy = (tri: number, c: number) => p[a.triVertices[tri * 3 + c]! * 3 + 1]!;
    // Corners and boxes of the tile's walkable triangles, for the point-in-triangle tests.
    const corner = new Float64Array(n * 6);
    const box = new Float64Array(n * 4);
    tris.forEach((tri, i) => {
      for (let c = 0; c < 3; c++) {
        corner[i * 6 + c * 2] = cx(tri, c);
        corner[i * 6 + c * 2 + 1] = cy(tri, c);
      }
      box[i * 4] = Math.min(cx(tri, 0), cx(tri, 1), cx(tri, 2)) - 1e-6;
      box[i * 4 + 1] = Math.min(cy(tri, 0), cy(tri, 1), cy(tri, 2)) - 1e-6;
      box[i * 4 + 2] = Math.max(cx(tri, 0), cx(tri, 1), cx(tri, 2)) + 1e-6;
      box[i * 4 + 3] = Math.max(cy(tri, 0), cy(tri, 1), cy(tri, 2)) + 1e-6;
    });
    const inside = (x: number, y: number) => {
      for (let i = 0; i < n; i++) {
        if (x < box[i * 4]! || y < box[i * 4 + 1]! || x > box[i * 4 + 2]! || y > box[i * 4 + 3]!) continue;
        const ax = corner[i * 6]!, ay = corner[i * 6 + 1]!, bx = corner[i * 6 + 2]!, by = corner[i * 6 + 3]!, qx = corner[i * 6 + 4]!, qy = corner[i * 6 + 5]!;
        const size = Math.max(Math.abs(bx - ax) + Math.abs(by - ay), Math.abs(qx - bx) + Math.abs(qy - by), 1e-9);
        const tol = 1e-6 * size * size;
        const d1 = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
        const d2 = (qx - bx) * (y - by) - (qy - by) * (x - bx);
        const d3 = (ax - qx) * (y - qy) - (ay - qy) * (x - qx);
        if ((d1 >= -tol && d2 >= -tol && d3 >= -tol) || (d1 <= tol && d2 <= tol && d3 <= tol)) return true;
      }
      return false;
    };
    const points = (tri: number) => {
      const mx = (cx(tri, 0) + cx(tri, 1) + cx(tri, 2)) / 3;
      const my = (cy(tri, 0) + cy(tri, 1) + cy(tri, 2)) / 3;
      const out: [number, number][] = [0, 1, 2].map((c) => [cx(tri, c) + 0.01 * (mx - cx(tri, c)), cy(tri, c) + 0.01 * (my - cy(tri, c))]);
      for (let s = 0; s < 2; s++) {
        let w0 = random();
        let w1 = random();
        if (w0 + w1 > 1) {
          w0 = 1 - w0;
          w1 = 1 - w1;
        }
        out.push([cx(tri, 0) + w0 * (cx(tri, 1) - cx(tri, 0)) + w1 * (cx(tri, 2) - cx(tri, 0)), cy(tri, 0) + w0 * (cy(tri, 1) - cy(tri, 0)) + w1 * (cy(tri, 2) - cy(tri, 0))]);
      }
      return out;
    };
    const base = t.nodesStart[k]!;
    for (let u = 0; u < n; u++) {
      for (let v = u + 1; v < n; v++) {
        const value = t.nodes[base + u * n + v]!;
        if (value === NO_NODE || !(value & NODE_LOS_BIT)) continue;
        if (counter++ % stride !== 0) continue;
        checked++;
        const pa = points(tris[u]!);
        const pb = points(tris[v]!);
        let ok = true;
        for (const [x1, y1] of pa) {
          for (const [x2, y2] of pb) {
            for (let i = 0; i <= 24 && ok; i++) ok = inside(x1 + (i / 24) * (x2 - x1), y1 + (i / 24) * (y2 - y1));
            if (!ok) break;
          }
          if (!ok) break;
        }
        if (!ok) violations++;
      }
    }
  }
  return { checked, violations };
}
