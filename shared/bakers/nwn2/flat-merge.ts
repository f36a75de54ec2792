import { triangulateConstrained, usesEveryPoint } from '../../geometry/constrained-triangulation';
import { segmentDistanceSquared } from '../../geometry/segment';
import { TriangleFlag } from '../../formats/nwn2/aswm-document';
import { PLACEABLE_SOURCE, SurfaceBuilder, type TrnSurface } from './trn-surface';

/**
 * Merging a tile's flat walkable triangles into polygons and triangulating each polygon
 * again with as few triangles as its shape allows (spec §5.4: the toolset re-triangulates
 * locally around cuts, and its tiles stay under 127 walkable triangles where ours, cut
 * triangle by triangle, did not).
 *
 * A region is a set of walkable triangles joined through shared edges that lie in one
 * tile, in one plane (every vertex within PLANE_TOLERANCE of the first triangle's plane),
 * with equal flags (walkable bit and footstep material, all the ASWM keeps per triangle)
 * and one owner (the TRN, or one placeable). A triangulation of a polygon of n corners and
 * h holes always has n + 2h − 2 triangles, so the only way to fewer triangles is fewer
 * corners: every vertex inside a region goes, and so does every outline vertex that lies
 * on a straight stretch (within `straightTolerance`) of every region around it. A vertex
 * any other triangle uses (a wall, a ramp, a triangle left out of the merge) stays, so the
 * mesh stays conforming: two regions along a tile border drop the same vertices, and
 * nothing outside the merged regions changes. The tolerance is checked against every
 * vertex dropped along a stretch so far, so a finely sampled curve is never flattened by
 * dropping its points one small step at a time.
 *
 * Each region is then triangulated (constrained Delaunay, which also avoids thin triangles
 * where its corners allow) from its outline; a region whose triangulation does not cover
 * exactly its outline's area is left as it was, with its vertices kept for its neighbours.
 *
 * Run after the cut on the triangles the cut made, this is the same as merging the
 * triangles a cutter touches into polygons before cutting them and once more after: the
 * merged polygon minus the cutters has the same corners either way, since every point
 * the cut adds inside the polygon or on a straight stretch of it goes again. On the six
 * fixture areas with a TRN, a GIT and the toolset's TRX it leaves fewer walkable
 * triangles per tile than the toolset, at most and in all (fixture-tile-budget.test.ts).
 */

/** Vertices within this distance (m) of the seed triangle's plane belong to its plane. */
export const PLANE_TOLERANCE = 1e-4;
/** Smallest cosine between a member's normal and the seed's. */
const PLANE_COS = 1 - 1e-6;
/** Default straightness tolerance (m): equal to the sliver altitude of the bake report. */
export const DEFAULT_STRAIGHT_TOLERANCE = 0.001;

export interface FlatMergeOptions {
  /** Per triangle: may it be merged (default: every walkable triangle). */
  eligible?: Uint8Array;
  /** Outline vertices within this distance (m) of a straight line through their neighbours go (default 1 mm). */
  straightTolerance?: number;
}

export interface FlatMergeStats {
  /** Regions re-triangulated. */
  regions: number;
  /** Their triangles before and after. */
  trianglesBefore: number;
  trianglesAfter: number;
  /** Vertices dropped (inside a region or on a straight stretch of its outline). */
  droppedVertices: number;
  /** Regions left as they were because their triangulation failed its area check. */
  failedRegions: number;
}

/**
 * Merges and re-triangulates the flat regions of `s`; `groupOf` gives each triangle's
 * group (its tile; triangles of different groups never merge). Returns the new surface
 * (vertices unchanged, triangles of merged regions replaced in place) and what it did.
 */
export function mergeFlatRegions(s: TrnSurface, groupOf: Uint32Array, options: FlatMergeOptions = {}): { surface: TrnSurface; stats: FlatMergeStats } {
  const T = s.flags.length;
  const eligible = new Uint8Array(T);
  for (let t = 0; t < T; t++) eligible[t] = (options.eligible ? options.eligible[t]! : 1) && s.flags[t]! & TriangleFlag.walkable ? 1 : 0;
  const topo = new MeshTopology(s, eligible);
  // A failed region is taken out of the merge and the rest is done again, so that its
  // vertices are kept by its neighbours too; each round removes at least one region.
  let failed = 0;
  for (let round = 0; round < 16; round++) {
    const attempt = mergeOnce(s, topo, groupOf, eligible, options);
    failed += attempt.failed.length;
    if (attempt.failed.length === 0) return { surface: attempt.surface, stats: { ...attempt.stats, failedRegions: failed } };
    for (const r of attempt.failed) for (const t of r) eligible[t] = 0;
  }
  return { surface: s, stats: { regions: 0, trianglesBefore: 0, trianglesAfter: 0, droppedVertices: 0, failedRegions: failed } };
}

/** Triangles around each vertex and the triangle across each edge. */
class MeshTopology {
  /** CSR: triangles of vertex v are around[start[v] .. start[v + 1]). */
  readonly start: Uint32Array;
  readonly around: Uint32Array;
  /** Per edge c (corner c → c + 1) of an eligible triangle: the one triangle across it, -1 if none, -2 if several. */
  readonly twin: Int32Array;

  constructor(s: TrnSurface, eligible: Uint8Array) {
    const T = s.flags.length;
    const V = s.positions.length / 3;
    const tri = s.triangles;
    this.start = new Uint32Array(V + 1);
    for (let i = 0; i < T * 3; i++) this.start[tri[i]! + 1]!++;
    for (let v = 0; v < V; v++) this.start[v + 1]! += this.start[v]!;
    this.around = new Uint32Array(T * 3);
    const fill = this.start.slice(0, V);
    for (let i = 0; i < T * 3; i++) this.around[fill[tri[i]!]!++] = (i / 3) | 0;
    this.twin = new Int32Array(T * 3).fill(-1);
    for (let t = 0; t < T; t++) {
      if (!eligible[t]) continue;
      for (let c = 0; c < 3; c++) {
        const a = tri[t * 3 + c]!;
        const b = tri[t * 3 + (c === 2 ? 0 : c + 1)]!;
        let found = -1;
        for (let i = this.start[a]!; i < this.start[a + 1]!; i++) {
          const u = this.around[i]!;
          if (u === t) continue;
          const u0 = tri[u * 3]!, u1 = tri[u * 3 + 1]!, u2 = tri[u * 3 + 2]!;
          if (u0 !== b && u1 !== b && u2 !== b) continue;
          found = found === -1 ? u : -2;
        }
        this.twin[t * 3 + c] = found;
      }
    }
  }
}

/** Plane of triangle t: unit normal (z > 0) and offset, or null when it has no area seen from above. */
function planeOf(p: Float64Array, tri: Uint32Array, t: number): [number, number, number, number] | null {
  const a = tri[t * 3]! * 3, b = tri[t * 3 + 1]! * 3, c = tri[t * 3 + 2]! * 3;
  const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
  const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const l = Math.hypot(nx, ny, nz);
  if (!(l > 1e-12) || !(nz > 1e-9 * l)) return null;
  nx /= l;
  ny /= l;
  nz /= l;
  return [nx, ny, nz, nx * p[a]! + ny * p[a + 1]! + nz * p[a + 2]!];
}

/** The owner a region keeps: the TRN (0) or one placeable. */
function ownerOf(source: number): number {
  return source & PLACEABLE_SOURCE ? source : 0;
}

interface Attempt {
  surface: TrnSurface;
  stats: FlatMergeStats;
  failed: number[][];
}

function mergeOnce(s: TrnSurface, topo: MeshTopology, groupOf: Uint32Array, eligible: Uint8Array, options: FlatMergeOptions): Attempt {
  const T = s.flags.length;
  const V = s.positions.length / 3;
  const p = s.positions;
  const tri = s.triangles;
  const tol = options.straightTolerance ?? DEFAULT_STRAIGHT_TOLERANCE;
  const tol2 = tol * tol;
  const stats: FlatMergeStats = { regions: 0, trianglesBefore: 0, trianglesAfter: 0, droppedVertices: 0, failedRegions: 0 };

  // 1. Regions.
  const regionOf = new Int32Array(T).fill(-1);
  const regions: number[][] = [];
  for (let seed = 0; seed < T; seed++) {
    if (!eligible[seed] || regionOf[seed] !== -1) continue;
    const plane = planeOf(p, tri, seed);
    if (!plane) continue;
    const r = regions.length;
    const list = [seed];
    regionOf[seed] = r;
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      for (let c = 0; c < 3; c++) {
        const u = topo.twin[t * 3 + c]!;
        if (u < 0 || regionOf[u] !== -1 || !eligible[u]) continue;
        if (groupOf[u] !== groupOf[seed] || s.flags[u] !== s.flags[seed] || ownerOf(s.source[u]!) !== ownerOf(s.source[seed]!)) continue;
        if (!inPlane(p, tri, u, plane)) continue;
        regionOf[u] = r;
        list.push(u);
      }
    }
    regions.push(list);
  }
  if (regions.length === 0) return { surface: s, stats, failed: [] };

  // 2. Outline half-edges of every region (a → b with the region on the left), and per
  // vertex the half-edges leaving it (fixed) and arriving at it (updated as vertices go).
  let H = 0;
  for (const list of regions) for (const t of list) for (let c = 0; c < 3; c++) if (!(topo.twin[t * 3 + c]! >= 0 && regionOf[topo.twin[t * 3 + c]!] === regionOf[t])) H++;
  const heFrom = new Uint32Array(H);
  const heTo = new Uint32Array(H);
  const heRegion = new Uint32Array(H);
  const heAlive = new Uint8Array(H).fill(1);
  /** Vertices dropped along each half-edge so far, to bound the straightening (null: none). */
  const heDropped: (number[] | null)[] = new Array<number[] | null>(H).fill(null);
  {
    let h = 0;
    regions.forEach((list, r) => {
      for (const t of list) {
        for (let c = 0; c < 3; c++) {
          const u = topo.twin[t * 3 + c]!;
          if (u >= 0 && regionOf[u] === r) continue;
          heFrom[h] = tri[t * 3 + c]!;
          heTo[h] = tri[t * 3 + (c === 2 ? 0 : c + 1)]!;
          heRegion[h] = r;
          h++;
        }
      }
    });
  }
  const outStart = new Uint32Array(V + 1);
  const inStart = new Uint32Array(V + 1);
  for (let h = 0; h < H; h++) {
    outStart[heFrom[h]! + 1]!++;
    inStart[heTo[h]! + 1]!++;
  }
  for (let v = 0; v < V; v++) {
    outStart[v + 1]! += outStart[v]!;
    inStart[v + 1]! += inStart[v]!;
  }
  const outList = new Uint32Array(H);
  const inList = new Uint32Array(H);
  {
    const o = outStart.slice(0, V);
    const i = inStart.slice(0, V);
    for (let h = 0; h < H; h++) {
      outList[o[heFrom[h]!]!++] = h;
      inList[i[heTo[h]!]!++] = h;
    }
  }

  // 3. Vertices that must stay: used by a triangle outside the regions, or where an outline
  // passes more than once (a region touching itself at a point).
  const used = new Uint8Array(V);
  const pinned = new Uint8Array(V);
  for (let t = 0; t < T; t++) {
    for (let c = 0; c < 3; c++) {
      const v = tri[t * 3 + c]!;
      used[v] = 1;
      if (regionOf[t] < 0) pinned[v] = 1;
    }
  }
  for (let v = 0; v < V; v++) {
    if (pinned[v] || outStart[v] === outStart[v + 1]) continue;
    if (outStart[v + 1]! - outStart[v]! !== inStart[v + 1]! - inStart[v]!) {
      pinned[v] = 1;
      continue;
    }
    for (let i = outStart[v]!; i < outStart[v + 1]! && !pinned[v]; i++) {
      const r = heRegion[outList[i]!]!;
      let outs = 0;
      let ins = 0;
      for (let j = outStart[v]!; j < outStart[v + 1]!; j++) if (heRegion[outList[j]!] === r) outs++;
      for (let j = inStart[v]!; j < inStart[v + 1]!; j++) if (heRegion[inList[j]!] === r) ins++;
      if (outs !== 1 || ins !== 1) pinned[v] = 1;
    }
  }

  // 4. Drop vertices: inside a region always, on outlines when straight in every region.
  const dirty = new Uint8Array(regions.length);
  const dropped = new Uint8Array(V);
  const x = (v: number) => p[v * 3]!;
  const y = (v: number) => p[v * 3 + 1]!;
  /** The alive half-edge arriving at v in region r (-1 if none). */
  const inOf = (v: number, r: number) => {
    for (let j = inStart[v]!; j < inStart[v + 1]!; j++) if (heAlive[inList[j]!] && heRegion[inList[j]!] === r) return inList[j]!;
    return -1;
  };
  for (let v = 0; v < V; v++) {
    if (!used[v] || pinned[v]) continue;
    if (outStart[v] === outStart[v + 1]) {
      // Inside one region: every triangle around it is a member.
      dropped[v] = 1;
      dirty[regionOf[topo.around[topo.start[v]!]!]!] = 1;
      continue;
    }
    let ok = true;
    for (let i = outStart[v]!; i < outStart[v + 1]! && ok; i++) {
      const hout = outList[i]!;
      const r = heRegion[hout]!;
      const hin = inOf(v, r);
      if (hin < 0) {
        ok = false;
        break;
      }
      const u = heFrom[hin]!;
      const w = heTo[hout]!;
      if (u === w || u === v || w === v) {
        ok = false;
        break;
      }
      // Keep at least a triangle: u → v → w → u cannot lose v.
      for (let j = outStart[w]!; j < outStart[w + 1]!; j++) {
        const h = outList[j]!;
        if (heAlive[h] && heRegion[h] === r && heTo[h] === u) ok = false;
      }
      if (!ok) break;
      const ux = x(u), uy = y(u), wx = x(w), wy = y(w);
      const near = (q: number) => segmentDistanceSquared(x(q), y(q), ux, uy, wx, wy) <= tol2;
      if (!near(v) || !(heDropped[hin] ?? []).every(near) || !(heDropped[hout] ?? []).every(near)) ok = false;
    }
    if (!ok) continue;
    dropped[v] = 1;
    for (let i = outStart[v]!; i < outStart[v + 1]!; i++) {
      const hout = outList[i]!;
      const r = heRegion[hout]!;
      const hin = inOf(v, r);
      const w = heTo[hout]!;
      // u → v → w becomes u → w, carried by the half-edge that arrived at v.
      heTo[hin] = w;
      heDropped[hin] = [...(heDropped[hin] ?? []), v, ...(heDropped[hout] ?? [])];
      heAlive[hout] = 0;
      for (let j = inStart[w]!; j < inStart[w + 1]!; j++) if (inList[j] === hout) inList[j] = hin;
      dirty[r] = 1;
    }
  }

  // 5. Triangulate the changed regions from their outlines.
  const outlineOf: number[][] = regions.map(() => []);
  for (let he = 0; he < H; he++) if (heAlive[he]) outlineOf[heRegion[he]!]!.push(he);
  const replacement = new Map<number, Uint32Array>();
  const failed: number[][] = [];
  regions.forEach((list, r) => {
    if (!dirty[r]) return;
    const tris = triangulateOutline(p, outlineOf[r]!, heFrom, heTo);
    if (!tris) {
      failed.push(list);
      return;
    }
    replacement.set(r, tris);
    stats.regions++;
    stats.trianglesBefore += list.length;
    stats.trianglesAfter += tris.length / 3;
  });
  if (failed.length > 0) return { surface: s, stats, failed };
  for (let v = 0; v < V; v++) if (dropped[v]) stats.droppedVertices++;

  // 6. The surface with each replaced region's triangles where its first triangle was.
  const b = new SurfaceBuilder(p, T);
  const emitted = new Uint8Array(regions.length);
  for (let t = 0; t < T; t++) {
    const r = regionOf[t]!;
    const tris = r >= 0 ? replacement.get(r) : undefined;
    if (!tris) {
      b.copyTriangle(s, t);
      continue;
    }
    if (emitted[r]) continue;
    emitted[r] = 1;
    for (let i = 0; i < tris.length; i += 3) b.addTriangle(tris[i]!, tris[i + 1]!, tris[i + 2]!, s.flags[t]!, s.source[t]!);
  }
  return { surface: b.finish(), stats, failed: [] };
}

function inPlane(p: Float64Array, tri: Uint32Array, t: number, plane: [number, number, number, number]): boolean {
  const own = planeOf(p, tri, t);
  if (!own || own[0] * plane[0] + own[1] * plane[1] + own[2] * plane[2] < PLANE_COS) return false;
  for (let c = 0; c < 3; c++) {
    const v = tri[t * 3 + c]! * 3;
    if (Math.abs(plane[0] * p[v]! + plane[1] * p[v + 1]! + plane[2] * p[v + 2]! - plane[3]) > PLANE_TOLERANCE) return false;
  }
  return true;
}

/**
 * The constrained Delaunay triangulation of the polygon bounded by the given half-edges
 * (outer outline counter-clockwise, holes clockwise, as a region's boundary runs), as
 * vertex triples; null when it fails or does not cover exactly the polygon's area.
 */
function triangulateOutline(p: Float64Array, outline: readonly number[], heFrom: Uint32Array, heTo: Uint32Array): Uint32Array | null {
  const localOf = new Map<number, number>();
  const verts: number[] = [];
  const local = (v: number) => {
    let i = localOf.get(v);
    if (i === undefined) {
      i = verts.length;
      localOf.set(v, i);
      verts.push(v);
    }
    return i;
  };
  const constraints: number[] = [];
  for (const he of outline) constraints.push(local(heFrom[he]!), local(heTo[he]!));
  if (verts.length < 3) return null;
  const ox = p[verts[0]! * 3]!;
  const oy = p[verts[0]! * 3 + 1]!;
  const coords = new Float64Array(verts.length * 2);
  verts.forEach((v, i) => {
    coords[i * 2] = p[v * 3]! - ox;
    coords[i * 2 + 1] = p[v * 3 + 1]! - oy;
  });
  // Twice the polygon's area: the shoelace sum over its directed outline edges.
  let polygon2 = 0;
  for (let i = 0; i < constraints.length; i += 2) {
    const a = constraints[i]!, b = constraints[i + 1]!;
    polygon2 += coords[a * 2]! * coords[b * 2 + 1]! - coords[b * 2]! * coords[a * 2 + 1]!;
  }
  let local3: Uint32Array;
  try {
    local3 = triangulateConstrained(coords, constraints);
  } catch {
    return null;
  }
  if (!usesEveryPoint(verts.length, local3)) return null;
  const out: number[] = [];
  let area2 = 0;
  for (let i = 0; i < local3.length; i += 3) {
    const a = local3[i]!, b = local3[i + 1]!, c = local3[i + 2]!;
    const d = (coords[b * 2]! - coords[a * 2]!) * (coords[c * 2 + 1]! - coords[a * 2 + 1]!) - (coords[b * 2 + 1]! - coords[a * 2 + 1]!) * (coords[c * 2]! - coords[a * 2]!);
    if (!(d > 0)) continue;
    const mx = (coords[a * 2]! + coords[b * 2]! + coords[c * 2]!) / 3;
    const my = (coords[a * 2 + 1]! + coords[b * 2 + 1]! + coords[c * 2 + 1]!) / 3;
    if (!insideOutline(coords, constraints, mx, my)) continue;
    out.push(verts[a]!, verts[b]!, verts[c]!);
    area2 += d;
  }
  if (out.length === 0 || Math.abs(area2 - polygon2) > 1e-7 * Math.max(Math.abs(polygon2), 1)) return null;
  return Uint32Array.from(out);
}

/** Even–odd test of (x, y) against the outline edges (any loop order). */
function insideOutline(coords: Float64Array, edges: readonly number[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0; i < edges.length; i += 2) {
    const xi = coords[edges[i]! * 2]!, yi = coords[edges[i]! * 2 + 1]!;
    const xj = coords[edges[i + 1]! * 2]!, yj = coords[edges[i + 1]! * 2 + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
