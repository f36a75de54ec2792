import { triangulateConstrained, usesEveryPoint } from '../../geometry/constrained-triangulation';
import { pointInTriangle } from '../../geometry/polygon';
import { projectionParam, properCrossing, segmentDistanceSquared, segmentsDistanceSquared } from '../../geometry/segment';
import { planeHeight, TriangleGrid } from '../../geometry/triangle-grid';
import { CutterGraph, type CutRegion } from './cutter-graph';
import { SurfaceBuilder, type TrnSurface } from './trn-surface';

/**
 * Default snap distance (metres): cutter points closer than this to each other, to a mesh
 * vertex or to a mesh edge are merged onto it, and cut points closer than this to a
 * triangle corner use the corner. The NWN2 toolset places cutter vertices to within a
 * millimetre; 5 mm is invisible to a walking creature and keeps every new triangle at
 * least that far from its neighbours' points.
 */
export const DEFAULT_CUT_SNAP = 0.005;
/** A point this close (m) to a segment is on it (the snapping leaves float noise only). */
const ON_TOLERANCE = 1e-7;
/** Twice-area (m²) below which a sub-triangle is float noise along a straight edge. */
const DEGENERATE_AREA2 = 1e-12;

export interface CutOptions {
  /** Snap distance in metres (default DEFAULT_CUT_SNAP). */
  snap?: number;
  /** Remove what lies inside the regions (default true); false only splits along their outlines. */
  removeInside?: boolean;
}

export interface CutStats {
  regions: number;
  /** Segments of the cleaned outline graph. */
  segments: number;
  /** Outline points moved onto a mesh vertex or edge. */
  snappedPoints: number;
  /** Input triangles re-triangulated because an outline passes through them. */
  retriangulated: number;
  /** Input triangles removed whole (inside a region, not crossed by an outline). */
  removedWhole: number;
  /** Triangles made by re-triangulation and kept. */
  created: number;
  /** Pieces of re-triangulated triangles that fell inside a region. */
  removedPieces: number;
  /**
   * Triangles where the constrained triangulation was refused (crossing constraints after
   * snapping): they were split by a fan from their centre instead, which follows the
   * outline only approximately.
   */
  fallbacks: number;
}

/**
 * Cuts regions out of a triangle surface with a local constrained re-triangulation: every
 * triangle an outline passes through is re-triangulated (constrained Delaunay, see
 * constrained-triangulation.ts) with the outline pieces inside it and the points where
 * outlines cross its edges as constraints, and the pieces whose centre lies inside a
 * region are dropped; triangles entirely inside are dropped whole, the others are kept
 * as they are.
 *
 * Each triangle is cut on its own, so overlapping layers (a floor under a bridge) are cut
 * independently and each new vertex takes its height from its own triangle's plane. The
 * points on a shared edge are computed once per edge (its vertex pair), so both triangles
 * along it get the same new vertices and stay linked; no edge of an untouched triangle is
 * split, so the rest of the mesh is unchanged. Cost: linear in the triangles near the
 * outlines plus one pass over the mesh.
 */
export function cutSurface(s: TrnSurface, regions: readonly CutRegion[], options: CutOptions = {}): { surface: TrnSurface; stats: CutStats } {
  const snap = options.snap ?? DEFAULT_CUT_SNAP;
  const removeInside = options.removeInside ?? true;
  const T = s.flags.length;
  const stats: CutStats = { regions: 0, segments: 0, snappedPoints: 0, retriangulated: 0, removedWhole: 0, created: 0, removedPieces: 0, fallbacks: 0 };
  if (regions.length === 0 || T === 0) return { surface: s, stats };

  const grid = new TriangleGrid(s.positions, s.triangles);
  const graph = new CutterGraph(regions, snap, { positions: s.positions, triangles: s.triangles, grid });
  stats.regions = graph.regionCount;
  stats.segments = graph.segmentCount;
  stats.snappedPoints = graph.snappedPoints;

  const candidates = candidateSegments(s, grid, graph, snap);
  const builder = new SurfaceBuilder(s.positions, T + candidates.size * 4);
  const edges = new EdgeSplitter(s, graph, snap, builder);
  const [bx0, by0, bx1, by1] = graph.bounds();
  const p = s.positions;

  for (let t = 0; t < T; t++) {
    const segs = candidates.get(t);
    if (segs) {
      stats.retriangulated++;
      cutTriangle(s, t, segs, graph, edges, builder, snap, removeInside, stats);
      continue;
    }
    if (removeInside) {
      const a = s.triangles[t * 3]! * 3, b = s.triangles[t * 3 + 1]! * 3, c = s.triangles[t * 3 + 2]! * 3;
      const cx = (p[a]! + p[b]! + p[c]!) / 3;
      const cy = (p[a + 1]! + p[b + 1]! + p[c + 1]!) / 3;
      if (cx >= bx0 && cx <= bx1 && cy >= by0 && cy <= by1 && graph.contains(cx, cy)) {
        stats.removedWhole++;
        continue;
      }
    }
    builder.copyTriangle(s, t);
  }
  return { surface: builder.finish(), stats };
}

/** For each triangle an outline segment comes within the snap distance of, those segments. */
function candidateSegments(s: TrnSurface, grid: TriangleGrid, graph: CutterGraph, snap: number): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const p = s.positions;
  const tri = s.triangles;
  const snap2 = snap * snap;
  for (let k = 0; k < graph.segmentCount; k++) {
    const ia = graph.segments[k * 2]!;
    const ib = graph.segments[k * 2 + 1]!;
    const ax = graph.xs[ia]!, ay = graph.ys[ia]!, bx = graph.xs[ib]!, by = graph.ys[ib]!;
    grid.forEachInBox(Math.min(ax, bx) - snap, Math.min(ay, by) - snap, Math.max(ax, bx) + snap, Math.max(ay, by) + snap, (t) => {
      const a = tri[t * 3]! * 3, b = tri[t * 3 + 1]! * 3, c = tri[t * 3 + 2]! * 3;
      const x0 = p[a]!, y0 = p[a + 1]!, x1 = p[b]!, y1 = p[b + 1]!, x2 = p[c]!, y2 = p[c + 1]!;
      const near =
        pointInTriangle(ax, ay, x0, y0, x1, y1, x2, y2) ||
        pointInTriangle(bx, by, x0, y0, x1, y1, x2, y2) ||
        segmentsDistanceSquared(ax, ay, bx, by, x0, y0, x1, y1) <= snap2 ||
        segmentsDistanceSquared(ax, ay, bx, by, x1, y1, x2, y2) <= snap2 ||
        segmentsDistanceSquared(ax, ay, bx, by, x2, y2, x0, y0) <= snap2;
      if (!near) return;
      let list = out.get(t);
      if (!list) out.set(t, (list = []));
      list.push(k);
    });
  }
  return out;
}

/** A new vertex on a mesh edge where an outline meets it. */
interface EdgePoint {
  /** Parameter along the edge from its lower-numbered vertex. */
  t: number;
  vertex: number;
  x: number;
  y: number;
  /** The outline point lying on the edge, or -1 for a crossing. */
  point: number;
  /** Outline segments passing through it. */
  segments: number[];
}

/**
 * The points where outlines meet each mesh edge, computed once per vertex pair and in the
 * pair's canonical direction (lower vertex index first), so that the two triangles along
 * an edge split it at the very same new vertices.
 */
class EdgeSplitter {
  private readonly cache = new Map<number, EdgePoint[]>();
  private readonly cross = new Float64Array(2);
  private readonly V: number;

  constructor(private readonly s: TrnSurface, private readonly graph: CutterGraph, private readonly snap: number, private readonly builder: SurfaceBuilder) {
    this.V = s.positions.length / 3;
  }

  /** The points on edge u–v, ordered from u to v. */
  pointsOn(u: number, v: number, segs: readonly number[]): EdgePoint[] {
    const lo = Math.min(u, v);
    const hi = Math.max(u, v);
    const key = lo * this.V + hi;
    let list = this.cache.get(key);
    if (!list) this.cache.set(key, (list = this.compute(lo, hi, segs)));
    return u === lo ? list : list.slice().reverse();
  }

  private compute(u: number, v: number, segs: readonly number[]): EdgePoint[] {
    const p = this.s.positions;
    const g = this.graph;
    const ux = p[u * 3]!, uy = p[u * 3 + 1]!, uz = p[u * 3 + 2]!;
    const vx = p[v * 3]!, vy = p[v * 3 + 1]!, vz = p[v * 3 + 2]!;
    const len = Math.hypot(vx - ux, vy - uy);
    if (len <= this.snap * 2) return [];
    const snapT = this.snap / len;
    const raw: { t: number; x: number; y: number; point: number; seg: number }[] = [];
    for (const k of segs) {
      const ia = g.segments[k * 2]!;
      const ib = g.segments[k * 2 + 1]!;
      let touching = false;
      for (const ip of [ia, ib]) {
        const x = g.xs[ip]!, y = g.ys[ip]!;
        if (segmentDistanceSquared(x, y, ux, uy, vx, vy) > ON_TOLERANCE * ON_TOLERANCE) continue;
        touching = true;
        const t = projectionParam(x, y, ux, uy, vx, vy);
        if (t > snapT && t < 1 - snapT) raw.push({ t, x, y, point: ip, seg: k });
      }
      if (touching) continue;
      if (!properCrossing(ux, uy, vx, vy, g.xs[ia]!, g.ys[ia]!, g.xs[ib]!, g.ys[ib]!, this.cross)) continue;
      const t = this.cross[0]!;
      if (t > snapT && t < 1 - snapT) raw.push({ t, x: ux + t * (vx - ux), y: uy + t * (vy - uy), point: -1, seg: k });
    }
    raw.sort((a, b) => a.t - b.t);
    const out: EdgePoint[] = [];
    for (const r of raw) {
      const last = out[out.length - 1];
      if (last && r.t - last.t <= snapT) {
        if (!last.segments.includes(r.seg)) last.segments.push(r.seg);
        if (last.point < 0 && r.point >= 0) {
          last.point = r.point;
          last.t = r.t;
          last.x = r.x;
          last.y = r.y;
        }
        continue;
      }
      out.push({ t: r.t, vertex: -1, x: r.x, y: r.y, point: r.point, segments: [r.seg] });
    }
    for (const e of out) e.vertex = this.builder.addVertex(e.x, e.y, uz + e.t * (vz - uz));
    return out;
  }
}

/** A point of one triangle's local re-triangulation. */
interface LocalPoint {
  vertex: number;
  x: number;
  y: number;
  /** Bit k set when the point lies on edge k (corner k → k+1) of the triangle. */
  edges: number;
  /** The outline point it stands for, or -1. */
  point: number;
  /** Outline segments through it (edge crossings). */
  segments: readonly number[];
}

function cutTriangle(
  s: TrnSurface,
  t: number,
  segs: readonly number[],
  graph: CutterGraph,
  edgeSplitter: EdgeSplitter,
  builder: SurfaceBuilder,
  snap: number,
  removeInside: boolean,
  stats: CutStats,
): void {
  const p = s.positions;
  const corners = [s.triangles[t * 3]!, s.triangles[t * 3 + 1]!, s.triangles[t * 3 + 2]!];
  const flags = s.flags[t]!;
  const source = s.source[t]!;
  const cx = corners.map((c) => p[c * 3]!);
  const cy = corners.map((c) => p[c * 3 + 1]!);
  const area2 = (cx[1]! - cx[0]!) * (cy[2]! - cy[0]!) - (cy[1]! - cy[0]!) * (cx[2]! - cx[0]!);

  const local: LocalPoint[] = corners.map((v, k) => ({ vertex: v, x: cx[k]!, y: cy[k]!, edges: (1 << k) | (1 << ((k + 2) % 3)), point: -1, segments: [] }));
  const boundary: number[] = [];
  for (let k = 0; k < 3; k++) {
    boundary.push(k);
    for (const e of edgeSplitter.pointsOn(corners[k]!, corners[(k + 1) % 3]!, segs)) {
      boundary.push(local.length);
      local.push({ vertex: e.vertex, x: e.x, y: e.y, edges: 1 << k, point: e.point, segments: e.segments });
    }
  }
  const inside = (x: number, y: number) => removeInside && graph.contains(x, y);

  // A triangle with no area cannot be re-triangulated; its neighbours' new points on its
  // edges leave it unlinked there, which is harmless for a triangle nobody can stand on.
  if (Math.abs(area2) <= DEGENERATE_AREA2) {
    const mx = (cx[0]! + cx[1]! + cx[2]!) / 3;
    const my = (cy[0]! + cy[1]! + cy[2]!) / 3;
    if (!inside(mx, my)) builder.addTriangle(corners[0]!, corners[1]!, corners[2]!, flags, source);
    else stats.removedPieces++;
    return;
  }

  // Outline points inside the triangle (those on its edges are edge points already).
  const pointLocal = new Map<number, number>();
  const localOfPoint = (ip: number): number => {
    const known = pointLocal.get(ip);
    if (known !== undefined) return known;
    const x = graph.xs[ip]!;
    const y = graph.ys[ip]!;
    let found = -1;
    for (let k = 0; k < 3 && found < 0; k++) if ((cx[k]! - x) ** 2 + (cy[k]! - y) ** 2 <= snap * snap) found = k;
    for (let i = 3; i < local.length && found < 0; i++) if (local[i]!.point === ip) found = i;
    if (found < 0 && pointInTriangle(x, y, cx[0]!, cy[0]!, cx[1]!, cy[1]!, cx[2]!, cy[2]!)) {
      let onEdge = -1;
      for (let k = 0; k < 3; k++) if (segmentDistanceSquared(x, y, cx[k]!, cy[k]!, cx[(k + 1) % 3]!, cy[(k + 1) % 3]!) <= ON_TOLERANCE * ON_TOLERANCE) onEdge = k;
      if (onEdge >= 0) {
        // On an edge but merged into a neighbouring edge point: that point stands for it.
        let best = snap * snap;
        for (let i = 3; i < local.length; i++) {
          const lp = local[i]!;
          const d = (lp.x - x) ** 2 + (lp.y - y) ** 2;
          if (lp.edges & (1 << onEdge) && d <= best) {
            best = d;
            found = i;
          }
        }
      } else {
        found = local.length;
        local.push({ vertex: builder.addVertex(x, y, planeHeight(p, s.triangles, t, x, y)), x, y, edges: 0, point: ip, segments: [] });
      }
    }
    pointLocal.set(ip, found);
    return found;
  };

  const constraints: number[] = [];
  const seen = new Set<number>();
  const addConstraint = (a: number, b: number) => {
    if (a === b || (local[a]!.edges & local[b]!.edges) !== 0) return;
    const key = a < b ? a * 65536 + b : b * 65536 + a;
    if (seen.has(key)) return;
    seen.add(key);
    constraints.push(a, b);
  };
  for (let i = 0; i < boundary.length; i++) {
    const a = boundary[i]!;
    const b = boundary[(i + 1) % boundary.length]!;
    const key = a < b ? a * 65536 + b : b * 65536 + a;
    seen.add(key);
    constraints.push(a, b);
  }
  for (const k of segs) {
    const ia = graph.segments[k * 2]!;
    const ib = graph.segments[k * 2 + 1]!;
    const ax = graph.xs[ia]!, ay = graph.ys[ia]!, bx = graph.xs[ib]!, by = graph.ys[ib]!;
    const along: [number, number][] = [];
    const la = localOfPoint(ia);
    const lb = localOfPoint(ib);
    if (la >= 0) along.push([0, la]);
    if (lb >= 0) along.push([1, lb]);
    for (let c = 0; c < 3; c++) {
      if (c !== la && c !== lb && segmentDistanceSquared(cx[c]!, cy[c]!, ax, ay, bx, by) <= snap * snap) along.push([projectionParam(cx[c]!, cy[c]!, ax, ay, bx, by), c]);
    }
    for (let i = 3; i < local.length; i++) {
      const lp = local[i]!;
      if (i !== la && i !== lb && lp.segments.includes(k)) along.push([projectionParam(lp.x, lp.y, ax, ay, bx, by), i]);
    }
    along.sort((x, y) => x[0] - y[0]);
    for (let i = 0; i + 1 < along.length; i++) addConstraint(along[i]![1], along[i + 1]![1]);
  }

  const coords = new Float64Array(local.length * 2);
  const ox = cx[0]!;
  const oy = cy[0]!;
  local.forEach((lp, i) => {
    coords[i * 2] = lp.x - ox;
    coords[i * 2 + 1] = lp.y - oy;
  });
  let pieces: Uint32Array | null = null;
  try {
    const r = triangulateConstrained(coords, constraints);
    if (usesEveryPoint(local.length, r)) pieces = r;
  } catch {
    pieces = null;
  }
  if (pieces === null) {
    stats.fallbacks++;
    pieces = centreFan(local, boundary, builder, p, s.triangles, t);
  }
  for (let i = 0; i < pieces.length; i += 3) {
    const a = local[pieces[i]!]!, b = local[pieces[i + 1]!]!, c = local[pieces[i + 2]!]!;
    const d = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    if (d <= DEGENERATE_AREA2) continue;
    const mx = (a.x + b.x + c.x) / 3;
    const my = (a.y + b.y + c.y) / 3;
    // The triangulation covers the hull of the points, which is the triangle itself.
    if (!pointInTriangle(mx, my, cx[0]!, cy[0]!, cx[1]!, cy[1]!, cx[2]!, cy[2]!)) continue;
    if (inside(mx, my)) {
      stats.removedPieces++;
      continue;
    }
    builder.addTriangle(a.vertex, b.vertex, c.vertex, flags, source);
    stats.created++;
  }
}

/** A fan from the triangle's centre through its boundary points: always valid, but ignores the interior constraints. */
function centreFan(local: LocalPoint[], boundary: readonly number[], builder: SurfaceBuilder, positions: Float64Array, triangles: Uint32Array, t: number): Uint32Array {
  const x = (local[0]!.x + local[1]!.x + local[2]!.x) / 3;
  const y = (local[0]!.y + local[1]!.y + local[2]!.y) / 3;
  const centre = local.length;
  local.push({ vertex: builder.addVertex(x, y, planeHeight(positions, triangles, t, x, y)), x, y, edges: 0, point: -1, segments: [] });
  const out = new Uint32Array(boundary.length * 3);
  for (let i = 0; i < boundary.length; i++) {
    out[i * 3] = centre;
    out[i * 3 + 1] = boundary[i]!;
    out[i * 3 + 2] = boundary[(i + 1) % boundary.length]!;
  }
  return out;
}
