import { BoxGrid } from '../../geometry/box-grid';
import { PointHash } from '../../geometry/point-hash';
import { pointInRings, ringsBounds } from '../../geometry/polygon';
import { projectionParam, properCrossing, segmentDistanceSquared } from '../../geometry/segment';
import type { TriangleGrid } from '../../geometry/triangle-grid';

/**
 * A region to cut out of the walkmesh: rings taken together with the even–odd rule (a
 * walkmesh cutter is one ring; a placeable footprint is an outline with holes). A point
 * is cut when it lies inside any region.
 */
export interface CutRegion {
  rings: Float64Array[];
}

/**
 * The cut regions' outlines as a planar straight-line graph: points closer than the snap
 * distance merged, every crossing and every point lying on another segment made a shared
 * point, so segments meet only at their end points. Points within the snap distance of a
 * mesh vertex take its position, and points within it of a mesh edge move onto the edge:
 * that is what keeps the re-triangulation free of slivers thinner than the snap distance.
 *
 * The inside test uses the refined rings (the same points, in ring order), so it agrees
 * exactly with the constraint edges the triangles are cut along.
 */
export class CutterGraph {
  readonly xs: number[] = [];
  readonly ys: number[] = [];
  /** Segment end points (point ids), two per segment. */
  readonly segments: number[] = [];
  /** Points moved onto a mesh vertex or edge. */
  snappedPoints = 0;
  private readonly regionRings: Float64Array[][] = [];
  private readonly regionGrid: BoxGrid;

  constructor(regions: readonly CutRegion[], readonly snap: number, mesh: { positions: Float64Array; triangles: Uint32Array; grid: TriangleGrid } | null) {
    const hash = new PointHash(snap);
    const ringIds: number[][][] = regions.map((r) =>
      r.rings
        .map((ring) => {
          const ids: number[] = [];
          for (let i = 0; i + 1 < ring.length; i += 2) {
            const x = ring[i]!;
            const y = ring[i + 1]!;
            if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
            const id = hash.findOrAdd(x, y, this.xs.length);
            if (id === this.xs.length) {
              this.xs.push(x);
              this.ys.push(y);
            }
            if (ids[ids.length - 1] !== id) ids.push(id);
          }
          while (ids.length > 1 && ids[0] === ids[ids.length - 1]) ids.pop();
          return ids;
        })
        .filter((ids) => ids.length >= 3),
    );

    // Raw segments, one per distinct point pair.
    const rawA: number[] = [];
    const rawB: number[] = [];
    const rawOf = new Map<number, number>();
    const pairKey = (a: number, b: number) => (a < b ? a * 0x4000000 + b : b * 0x4000000 + a);
    for (const rings of ringIds) {
      for (const ids of rings) {
        for (let i = 0; i < ids.length; i++) {
          const a = ids[i]!;
          const b = ids[(i + 1) % ids.length]!;
          const k = pairKey(a, b);
          if (!rawOf.has(k)) {
            rawOf.set(k, rawA.length);
            rawA.push(a);
            rawB.push(b);
          }
        }
      }
    }

    const splits = this.splitRawSegments(rawA, rawB, hash);
    if (mesh) this.snapToMesh(mesh);
    // Points that landed on the same spot become one.
    const exact = new PointHash(Math.max(snap * 1e-4, 1e-9));
    const remap = new Int32Array(this.xs.length);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let p = 0; p < this.xs.length; p++) {
      const id = exact.findOrAdd(this.xs[p]!, this.ys[p]!, xs.length);
      if (id === xs.length) {
        xs.push(this.xs[p]!);
        ys.push(this.ys[p]!);
      }
      remap[p] = id;
    }
    this.xs.length = 0;
    this.ys.length = 0;
    this.xs.push(...xs);
    this.ys.push(...ys);

    // Sub-segments between consecutive points along each raw segment.
    const seen = new Set<number>();
    const chain = (s: number): number[] => {
      const a = rawA[s]!;
      const b = rawB[s]!;
      return [a, ...(splits[s] ?? []), b];
    };
    for (let s = 0; s < rawA.length; s++) {
      const c = chain(s).map((p) => remap[p]!);
      for (let i = 0; i + 1 < c.length; i++) {
        const a = c[i]!;
        const b = c[i + 1]!;
        if (a === b) continue;
        const k = pairKey(a, b);
        if (seen.has(k)) continue;
        seen.add(k);
        this.segments.push(a, b);
      }
    }

    // Refined rings for the inside test, through the same points as the segments.
    for (const rings of ringIds) {
      const out: Float64Array[] = [];
      for (const ids of rings) {
        const pts: number[] = [];
        for (let i = 0; i < ids.length; i++) {
          const a = ids[i]!;
          const b = ids[(i + 1) % ids.length]!;
          const s = rawOf.get(pairKey(a, b))!;
          let c = chain(s);
          if (rawA[s] !== a) c = c.slice().reverse();
          for (let k = 0; k + 1 < c.length; k++) {
            const p = remap[c[k]!]!;
            if (pts[pts.length - 1] !== p) pts.push(p);
          }
        }
        while (pts.length > 1 && pts[0] === pts[pts.length - 1]) pts.pop();
        if (pts.length < 3) continue;
        const ring = new Float64Array(pts.length * 2);
        pts.forEach((p, i) => {
          ring[i * 2] = this.xs[p]!;
          ring[i * 2 + 1] = this.ys[p]!;
        });
        out.push(ring);
      }
      if (out.length > 0) this.regionRings.push(out);
    }
    const boxes = new Float64Array(this.regionRings.length * 4);
    this.regionRings.forEach((rings, i) => boxes.set(ringsBounds(rings), i * 4));
    this.regionGrid = new BoxGrid(boxes);
  }

  get segmentCount(): number {
    return this.segments.length >> 1;
  }

  get regionCount(): number {
    return this.regionRings.length;
  }

  /** True when (x, y) lies inside a region (even–odd within a region, union across them). */
  contains(x: number, y: number): boolean {
    let inside = false;
    this.regionGrid.forEachAt(x, y, (r) => {
      if (!inside && pointInRings(this.regionRings[r]!, x, y)) inside = true;
    });
    return inside;
  }

  /** minX, minY, maxX, maxY of all regions (empty bounds when there are none). */
  bounds(): [number, number, number, number] {
    return ringsBounds(this.regionRings.flat());
  }

  /**
   * Split points (point ids, sorted along the segment, end points excluded) of every raw
   * segment: where it crosses another, and where another's end point lies on it.
   */
  private splitRawSegments(rawA: number[], rawB: number[], hash: PointHash): (number[] | undefined)[] {
    const snap = this.snap;
    const S = rawA.length;
    const boxes = new Float64Array(S * 4);
    for (let s = 0; s < S; s++) {
      const ax = this.xs[rawA[s]!]!, ay = this.ys[rawA[s]!]!, bx = this.xs[rawB[s]!]!, by = this.ys[rawB[s]!]!;
      boxes[s * 4] = Math.min(ax, bx) - snap;
      boxes[s * 4 + 1] = Math.min(ay, by) - snap;
      boxes[s * 4 + 2] = Math.max(ax, bx) + snap;
      boxes[s * 4 + 3] = Math.max(ay, by) + snap;
    }
    const grid = new BoxGrid(boxes);
    const found: (Map<number, number> | undefined)[] = new Array(S);
    const addSplit = (s: number, p: number) => {
      if (p === rawA[s] || p === rawB[s]) return;
      const ax = this.xs[rawA[s]!]!, ay = this.ys[rawA[s]!]!, bx = this.xs[rawB[s]!]!, by = this.ys[rawB[s]!]!;
      (found[s] ??= new Map()).set(p, projectionParam(this.xs[p]!, this.ys[p]!, ax, ay, bx, by));
    };
    const onSegment = (p: number, s: number) => {
      if (p === rawA[s] || p === rawB[s]) return false;
      const ax = this.xs[rawA[s]!]!, ay = this.ys[rawA[s]!]!, bx = this.xs[rawB[s]!]!, by = this.ys[rawB[s]!]!;
      return segmentDistanceSquared(this.xs[p]!, this.ys[p]!, ax, ay, bx, by) <= snap * snap;
    };
    const t = new Float64Array(2);
    for (let i = 0; i < S; i++) {
      grid.forEachInBox(boxes[i * 4]!, boxes[i * 4 + 1]!, boxes[i * 4 + 2]!, boxes[i * 4 + 3]!, (j) => {
        if (j <= i) return;
        const a = rawA[i]!, b = rawB[i]!, c = rawA[j]!, d = rawB[j]!;
        for (const p of [c, d]) if (onSegment(p, i)) addSplit(i, p);
        for (const p of [a, b]) if (onSegment(p, j)) addSplit(j, p);
        if (a === c || a === d || b === c || b === d) return;
        const ax = this.xs[a]!, ay = this.ys[a]!, bx = this.xs[b]!, by = this.ys[b]!;
        const cx = this.xs[c]!, cy = this.ys[c]!, dx = this.xs[d]!, dy = this.ys[d]!;
        if (!properCrossing(ax, ay, bx, by, cx, cy, dx, dy, t)) return;
        const x = ax + t[0]! * (bx - ax);
        const y = ay + t[0]! * (by - ay);
        const p = hash.findOrAdd(x, y, this.xs.length);
        if (p === this.xs.length) {
          this.xs.push(x);
          this.ys.push(y);
        }
        addSplit(i, p);
        addSplit(j, p);
      });
    }
    return found.map((m) => (m ? [...m].sort((x, y) => x[1] - y[1]).map(([p]) => p) : undefined));
  }

  /** Moves points within the snap distance of a mesh vertex onto it, else of a mesh edge onto the edge. */
  private snapToMesh(mesh: { positions: Float64Array; triangles: Uint32Array; grid: TriangleGrid }): void {
    const snap = this.snap;
    const p = mesh.positions;
    const tri = mesh.triangles;
    for (let i = 0; i < this.xs.length; i++) {
      const x = this.xs[i]!;
      const y = this.ys[i]!;
      let bestVertexD = snap * snap;
      let vx = NaN, vy = NaN;
      let bestEdgeD = snap * snap;
      let ex = NaN, ey = NaN;
      mesh.grid.forEachInBox(x - snap, y - snap, x + snap, y + snap, (t) => {
        for (let k = 0; k < 3; k++) {
          const a = tri[t * 3 + k]! * 3;
          const b = tri[t * 3 + (k + 1) % 3]! * 3;
          const ax = p[a]!, ay = p[a + 1]!, bx = p[b]!, by = p[b + 1]!;
          const dv = (ax - x) * (ax - x) + (ay - y) * (ay - y);
          if (dv <= bestVertexD) {
            bestVertexD = dv;
            vx = ax;
            vy = ay;
          }
          const de = segmentDistanceSquared(x, y, ax, ay, bx, by);
          if (de <= bestEdgeD) {
            const s = projectionParam(x, y, ax, ay, bx, by);
            bestEdgeD = de;
            ex = ax + s * (bx - ax);
            ey = ay + s * (by - ay);
          }
        }
      });
      if (!Number.isNaN(vx)) {
        if (vx !== x || vy !== y) this.snappedPoints++;
        this.xs[i] = vx;
        this.ys[i] = vy;
      } else if (!Number.isNaN(ex)) {
        if (ex !== x || ey !== y) this.snappedPoints++;
        this.xs[i] = ex;
        this.ys[i] = ey;
      }
    }
  }
}
