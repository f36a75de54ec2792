import { floatView, NONE16, NONE32, TriangleFlag, type AswmDocument } from '../../formats/nwn2/aswm-document';
import { planeHeight, TriangleGrid } from '../../geometry/triangle-grid';

/**
 * Whether two points of an area can reach each other, the way the game decides it
 * (spec §6): locate each point's triangle, then same island, or an island path whose
 * next hop is not 0xFFFF. A walkmesh without islands (a TRN) falls back to connected
 * components of walkable triangles through linked_triangles, which is what the island
 * tables encode once baked.
 */
export class ReachabilityOracle {
  private readonly positions: Float64Array;
  private readonly grid: TriangleGrid;
  /** Group of each triangle (-1 when unwalkable): its island, or its component. */
  private readonly group: Int32Array;
  private readonly islandCount: number;
  private readonly next: Uint16Array | null;

  constructor(private readonly a: AswmDocument) {
    const f = floatView(a.vertices);
    this.positions = Float64Array.from(f);
    this.grid = new TriangleGrid(this.positions, a.triVertices);
    const T = a.triFlags.length;
    this.group = new Int32Array(T).fill(-1);
    if (a.islands.count > 0) {
      this.islandCount = a.islands.count;
      this.next = a.islandPaths.next;
      for (let t = 0; t < T; t++) if (a.triFlags[t]! & TriangleFlag.walkable && a.triIsland[t] !== NONE16) this.group[t] = a.triIsland[t]!;
    } else {
      this.islandCount = 0;
      this.next = null;
      let g = 0;
      const stack: number[] = [];
      for (let t = 0; t < T; t++) {
        if (this.group[t] !== -1 || !(a.triFlags[t]! & TriangleFlag.walkable)) continue;
        this.group[t] = g;
        stack.push(t);
        while (stack.length > 0) {
          const u = stack.pop()!;
          for (let k = 0; k < 3; k++) {
            const v = a.triLinks[u * 3 + k]!;
            if (v === NONE32 || v >= T || this.group[v] !== -1 || !(a.triFlags[v]! & TriangleFlag.walkable)) continue;
            this.group[v] = g;
            stack.push(v);
          }
        }
        g++;
      }
    }
  }

  /**
   * The triangle under (x, y) whose plane is nearest to height z (the surface a creature
   * standing at that point is on), or -1 when no triangle covers the point.
   */
  locate(x: number, y: number, z: number): number {
    let best = -1;
    let bestD = Infinity;
    this.grid.forEachContaining(x, y, (t) => {
      const d = Math.abs(planeHeight(this.positions, this.a.triVertices, t, x, y) - z);
      if (d < bestD) {
        bestD = d;
        best = t;
      }
    }, 1e-6);
    return best;
  }

  /** Height of triangle t's plane at (x, y). */
  heightOn(t: number, x: number, y: number): number {
    return planeHeight(this.positions, this.a.triVertices, t, x, y);
  }

  /** The reachability group of the walkable surface at the point, or -1 when it is not walkable there. */
  groupAt(x: number, y: number, z: number): number {
    const t = this.locate(x, y, z);
    return t < 0 ? -1 : this.group[t]!;
  }

  reachable(g1: number, g2: number): boolean {
    if (g1 < 0 || g2 < 0) return false;
    if (g1 === g2) return true;
    if (!this.next) return false;
    return this.next[g1 * this.islandCount + g2] !== NONE16;
  }
}

/** Uniform random points on the walkable surface (by area seen from above), deterministic for a seed. */
export class WalkablePointSampler {
  private readonly cumulative: Float64Array;
  private readonly triangles: Uint32Array;
  private readonly positions: Float64Array;
  readonly area: number;

  constructor(private readonly a: AswmDocument) {
    this.positions = Float64Array.from(floatView(a.vertices));
    const list: number[] = [];
    const cum: number[] = [];
    let sum = 0;
    for (let t = 0; t < a.triFlags.length; t++) {
      if (!(a.triFlags[t]! & TriangleFlag.walkable)) continue;
      const area = triangleArea(this.positions, a.triVertices, t);
      if (!(area > 0)) continue;
      sum += area;
      list.push(t);
      cum.push(sum);
    }
    this.triangles = Uint32Array.from(list);
    this.cumulative = Float64Array.from(cum);
    this.area = sum;
  }

  get empty(): boolean {
    return this.triangles.length === 0;
  }

  /** A point (x, y, z) from two or three uniform numbers in [0, 1). */
  sample(random: () => number, out: Float64Array): void {
    const target = random() * this.area;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    const t = this.triangles[lo]!;
    let u = random();
    let v = random();
    if (u + v > 1) {
      u = 1 - u;
      v = 1 - v;
    }
    const p = this.positions;
    const tv = this.a.triVertices;
    const i = tv[t * 3]! * 3, j = tv[t * 3 + 1]! * 3, k = tv[t * 3 + 2]! * 3;
    // Pulled a hair towards the centre so that the point is inside, not on an edge.
    const w = 1 - 1e-6;
    u = u * w + 1e-6 / 3;
    v = v * w + 1e-6 / 3;
    for (let c = 0; c < 3; c++) out[c] = p[i + c]! + u * (p[j + c]! - p[i + c]!) + v * (p[k + c]! - p[i + c]!);
  }
}

function triangleArea(p: Float64Array, tv: Uint32Array, t: number): number {
  const a = tv[t * 3]! * 3, b = tv[t * 3 + 1]! * 3, c = tv[t * 3 + 2]! * 3;
  return Math.abs((p[b]! - p[a]!) * (p[c + 1]! - p[a + 1]!) - (p[b + 1]! - p[a + 1]!) * (p[c]! - p[a]!)) / 2;
}

/** Mulberry32: a small seeded generator, so that a comparison is the same on every run. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface PointReachabilityOptions {
  /** Pairs to compare (default 10,000). */
  pairs?: number;
  seed?: number;
  /**
   * The TRN both walkmeshes were baked from. When given, points where the reference's
   * surface is not the TRN's own surface (raised more than `raisedTolerance` above or
   * below it, or where the TRN has no triangle: a placeable's floor, a stage, a balcony)
   * are left out and drawn again, so that a bake without the placeables' models is
   * compared where it can be (the pairs left out are counted).
   */
  trn?: AswmDocument;
  /** Metres (default 0.05). */
  raisedTolerance?: number;
}

export interface PointReachabilityResult {
  /** Fraction of the compared pairs on which both walkmeshes agree (reachable in both, or in neither). */
  agreement: number;
  pairs: number;
  /** The same over the pairs drawn on the reference's walkable surface (even draws). */
  agreementOnReference: number;
  /** The same over the pairs drawn on the baked walkmesh's walkable surface (odd draws). */
  agreementOnBaked: number;
  /** Compared pairs reachable in the reference and in the baked walkmesh. */
  reachableInReference: number;
  reachableInBaked: number;
  /** Pairs drawn but left out because a point lies on a surface the reference raised above the TRN (0 without `trn`). */
  leftOut: number;
  seed: number;
}

/**
 * Draws pairs of random walkable points, alternately on the reference's walkable surface
 * and on the baked one (so that missing and extra walkable area both count), and reports
 * the fraction of pairs whose reachability is the same in both walkmeshes. A point that
 * is not on a walkable triangle of a walkmesh reaches nothing there. Deterministic for a
 * seed.
 */
export function comparePointReachability(baked: AswmDocument, reference: AswmDocument, options: PointReachabilityOptions = {}): PointReachabilityResult {
  const pairs = options.pairs ?? 10000;
  const seed = options.seed ?? 0x5eed2;
  const random = seededRandom(seed);
  const oracles = [new ReachabilityOracle(reference), new ReachabilityOracle(baked)] as const;
  const samplers = [new WalkablePointSampler(reference), new WalkablePointSampler(baked)] as const;
  const trn = options.trn ? new ReachabilityOracle(options.trn) : null;
  const tolerance = options.raisedTolerance ?? 0.05;
  const raised = (pt: Float64Array): boolean => {
    if (!trn) return false;
    const r = oracles[0].locate(pt[0]!, pt[1]!, pt[2]!);
    if (r < 0) return false;
    const zr = oracles[0].heightOn(r, pt[0]!, pt[1]!);
    const t = trn.locate(pt[0]!, pt[1]!, zr);
    return t < 0 || Math.abs(trn.heightOn(t, pt[0]!, pt[1]!) - zr) > tolerance;
  };
  const p = new Float64Array(3);
  const q = new Float64Array(3);
  const agree = [0, 0];
  const drawn = [0, 0];
  let reachableRef = 0;
  let reachableBaked = 0;
  let leftOut = 0;
  for (let draw = 0; drawn[0]! + drawn[1]! < pairs && draw < pairs * 20; draw++) {
    const side = draw & 1;
    const sampler = samplers[side]!.empty ? samplers[1 - side]! : samplers[side]!;
    if (sampler.empty) break;
    sampler.sample(random, p);
    sampler.sample(random, q);
    if (raised(p) || raised(q)) {
      leftOut++;
      continue;
    }
    const r = oracles.map((o) => o.reachable(o.groupAt(p[0]!, p[1]!, p[2]!), o.groupAt(q[0]!, q[1]!, q[2]!)));
    if (r[0]) reachableRef++;
    if (r[1]) reachableBaked++;
    drawn[side]!++;
    if (r[0] === r[1]) agree[side]!++;
  }
  const total = drawn[0]! + drawn[1]!;
  return {
    agreement: total > 0 ? (agree[0]! + agree[1]!) / total : 1,
    pairs: total,
    agreementOnReference: drawn[0]! > 0 ? agree[0]! / drawn[0]! : 1,
    agreementOnBaked: drawn[1]! > 0 ? agree[1]! / drawn[1]! : 1,
    reachableInReference: reachableRef,
    reachableInBaked: reachableBaked,
    leftOut,
    seed,
  };
}
