import polygonClipping from 'polygon-clipping';
import type { GitPlaceable } from '../../formats/aurora/nwn2-git';
import { CURTAIN_Z, type MdbWalkmesh } from '../../formats/nwn2/mdb-document';
import { BoxGrid } from '../../geometry/box-grid';
import { triangulateConstrained, usesEveryPoint } from '../../geometry/constrained-triangulation';
import { PointHash } from '../../geometry/point-hash';
import { pointInRing, ringsBounds } from '../../geometry/polygon';
import { projectionParam, segmentDistanceSquared } from '../../geometry/segment';
import { planeHeight, TriangleGrid } from '../../geometry/triangle-grid';
import type { CutRegion } from './cutter-graph';
import { cutSurface, DEFAULT_CUT_SNAP, type CutStats } from './walkmesh-cutter';
import { PLACEABLE_SOURCE, SurfaceBuilder, type TrnSurface } from './trn-surface';

/**
 * How a placeable's walkmesh (the WALK packets of its MDB model, spec §5.5) joins the
 * area's walkmesh. The toolset's exact rule is unknown (spec §14); this is the rule
 * Walkbench uses, chosen so that the result stays one 2.5-D surface:
 *
 * 1. Placeables with `IsWalkable` = 1 are skipped: in the sample areas that flag is set on
 *    chairs, benches, rugs and crates, which creatures walk through, and the toolset's
 *    Mord Mansion bake adds no vertices around them; balconies, stairs and walls have it
 *    at 0 and are baked.
 * 2. The model's WALK vertices are scaled by `ModelScale`, turned by `Bearing` (radians,
 *    counter-clockwise about +Z) and moved to the placeable's X, Y, Z.
 * 3. Vertices at z = −1,000,000 (the "curtain" vertices) are draped on the ground: they
 *    take the height of the area's walkmesh under them (of the surface nearest the
 *    placeable's Z where several are stacked; the placeable's Z where there is none). In
 *    the only public sample (PLC_MC_BALCONY3) they form the outline of the footprint and
 *    the foot of its stairs, so the faces joining them to the raised floor are the walls
 *    and the stair ramps, and the walkable faces made only of them are the landings.
 * 4. Faces with no area seen from above (vertical walls) are dropped.
 * 5. The footprint (the union of the faces seen from above) is cut out of the ground with
 *    the walkmesh-cutter re-triangulation, and the model's faces are put in its place with
 *    their own flags: a walkable floor (flag 0x01) replaces the ground under it, a
 *    non-walkable face blocks the ground under it. Later placeables in the GIT replace
 *    earlier ones where their footprints overlap.
 * 6. Where the model's outline meets the ground at a height within `stepHeight` (draped
 *    vertices always do), the two share vertices, so a creature can walk from the ground
 *    onto the stairs; elsewhere (a raised floor's edge) they only touch.
 * Walkmesh cutters are applied afterwards and cut placeable walkmeshes like the ground.
 */
export interface PlaceableModel {
  /** The model's resref (for reports). */
  name: string;
  walkmeshes: readonly MdbWalkmesh[];
}

/** What placing a model needs of a GIT object (a placeable, or a door: door-walkmesh.ts). */
export type PlacedObject = Pick<GitPlaceable, 'index' | 'x' | 'y' | 'z' | 'bearing' | 'scale'>;

export interface PlacedModel {
  placeable: PlacedObject;
  model: PlaceableModel;
  /** The `source` of its triangles (default PLACEABLE_SOURCE | index). */
  source?: number;
}

export interface PlaceableOptions {
  /** Snap distance in metres (default DEFAULT_CUT_SNAP). */
  snap?: number;
  /** Largest height difference (m) at which the model's outline joins the ground (default 0.5). */
  stepHeight?: number;
  /**
   * The area's extent (x0, y0, x1, y1): what a model has outside it is cut off, as a TRX
   * holds nothing beyond its tiles (a transition door on the area's edge reaches out).
   */
  bounds?: readonly [number, number, number, number];
}

export interface AppliedPlaceable {
  /** Position in the GIT's `Placeable List` (`Door List` for doors). */
  index: number;
  model: string;
  /** Faces put into the walkmesh (after dropping vertical ones), and how many are walkable. */
  faces: number;
  walkableFaces: number;
  /** Area of the footprint seen from above (m²). */
  footprintArea: number;
  /** Outline vertices shared with the ground. */
  joinedVertices: number;
}

export interface PlaceableStats {
  applied: AppliedPlaceable[];
  /** Ground cut by the footprints. */
  cut: CutStats | null;
}

export const DEFAULT_STEP_HEIGHT = 0.5;

/** A model placed in the area: world positions and faces (counter-clockwise, vertical faces dropped). */
interface PlacedMesh {
  index: number;
  source: number;
  model: string;
  positions: Float64Array;
  faces: Uint32Array;
  flags: Uint16Array;
  footprint: CutRegion[];
  footprintArea: number;
  bounds: [number, number, number, number];
}

/** Applies the placeables' walkmeshes to the surface by the rule above. */
export function applyPlaceables(s: TrnSurface, placed: readonly PlacedModel[], options: PlaceableOptions = {}): { surface: TrnSurface; stats: PlaceableStats } {
  const snap = options.snap ?? DEFAULT_CUT_SNAP;
  const step = options.stepHeight ?? DEFAULT_STEP_HEIGHT;
  const stats: PlaceableStats = { applied: [], cut: null };
  const ground = new TriangleGrid(s.positions, s.triangles);
  const meshes = placed.map((p) => placeMesh(p, s, ground, snap)).filter((m): m is PlacedMesh => m !== null);
  if (meshes.length === 0) return { surface: s, stats };

  const cut = cutSurface(s, meshes.flatMap((m) => m.footprint), { snap });
  stats.cut = cut.stats;
  const cutGround = cut.surface;

  // Later placeables win where footprints overlap.
  const pieces = meshes.map((m, i) => {
    let surface: TrnSurface = { positions: m.positions, triangles: m.faces, flags: m.flags, source: new Uint32Array(m.flags.length).fill(m.source) };
    const later: CutRegion[] = [];
    for (let j = i + 1; j < meshes.length; j++) if (boxesOverlap(m.bounds, meshes[j]!.bounds)) later.push(...meshes[j]!.footprint);
    const b = options.bounds;
    if (b && (m.bounds[0] < b[0] || m.bounds[1] < b[1] || m.bounds[2] > b[2] || m.bounds[3] > b[3])) later.push(outsideOf(b, m.bounds));
    if (later.length > 0) surface = cutSurface(surface, later, { snap }).surface;
    return surface;
  });

  const builder = new SurfaceBuilder(cutGround.positions, cutGround.flags.length + meshes.reduce((n, m) => n + m.flags.length * 2, 0));
  for (let t = 0; t < cutGround.flags.length; t++) builder.copyTriangle(cutGround, t);
  const joins = new GroundJoints(cutGround, snap);
  meshes.forEach((m, i) => {
    const piece = pieces[i]!;
    const joined = insertJoined(builder, piece, joins, snap, step);
    let walkable = 0;
    for (let t = 0; t < piece.flags.length; t++) if (piece.flags[t]! & 1) walkable++;
    stats.applied.push({ index: m.index, model: m.model, faces: piece.flags.length, walkableFaces: walkable, footprintArea: m.footprintArea, joinedVertices: joined });
  });
  return { surface: builder.finish(), stats };
}

/** The region around `inner` (a frame reaching past `reach`): everything outside the area. */
function outsideOf(inner: readonly number[], reach: readonly number[]): CutRegion {
  const pad = 1 + Math.max(Math.abs(reach[0]!), Math.abs(reach[1]!), Math.abs(reach[2]!), Math.abs(reach[3]!), Math.abs(inner[2]!), Math.abs(inner[3]!));
  const rect = (x0: number, y0: number, x1: number, y1: number) => Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1);
  return { rings: [rect(-pad, -pad, pad, pad), rect(inner[0]!, inner[1]!, inner[2]!, inner[3]!)] };
}

function boxesOverlap(a: readonly number[], b: readonly number[]): boolean {
  return a[0]! <= b[2]! && b[0]! <= a[2]! && a[1]! <= b[3]! && b[1]! <= a[3]!;
}

/** The model's walkmeshes in world coordinates by rules 2–4, with its footprint; null when nothing is left. */
function placeMesh(p: PlacedModel, ground: TrnSurface, grid: TriangleGrid, snap: number): PlacedMesh | null {
  const g = p.placeable;
  const cos = Math.cos(g.bearing);
  const sin = Math.sin(g.bearing);
  const positions: number[] = [];
  const faces: number[] = [];
  const flags: number[] = [];
  const weld = new Map<string, number>();
  for (const w of p.model.walkmeshes) {
    const V = w.positions.length / 3;
    const local = new Int32Array(V);
    for (let v = 0; v < V; v++) {
      const lx = w.positions[v * 3]! * g.scale.x;
      const ly = w.positions[v * 3 + 1]! * g.scale.y;
      const lz = w.positions[v * 3 + 2]!;
      let x = g.x + cos * lx - sin * ly;
      let y = g.y + sin * lx + cos * ly;
      [x, y] = snapToGround(x, y, ground, grid, snap);
      const z = lz <= CURTAIN_Z ? groundHeight(ground, grid, x, y, g.z) : g.z + lz * g.scale.z;
      if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
        local[v] = -1;
        continue;
      }
      const key = `${Math.round(x * 1e5)},${Math.round(y * 1e5)},${Math.round(z * 1e4)}`;
      let id = weld.get(key);
      if (id === undefined) {
        id = positions.length / 3;
        weld.set(key, id);
        positions.push(x, y, z);
      }
      local[v] = id;
    }
    for (let f = 0; f < w.faceFlags.length; f++) {
      const a = local[w.faces[f * 3]!] ?? -1;
      let b = local[w.faces[f * 3 + 1]!] ?? -1;
      let c = local[w.faces[f * 3 + 2]!] ?? -1;
      if (a < 0 || b < 0 || c < 0 || a === b || b === c || a === c) continue;
      const d = (positions[b * 3]! - positions[a * 3]!) * (positions[c * 3 + 1]! - positions[a * 3 + 1]!) - (positions[b * 3 + 1]! - positions[a * 3 + 1]!) * (positions[c * 3]! - positions[a * 3]!);
      if (Math.abs(d) <= 1e-8) continue;
      if (d < 0) [b, c] = [c, b];
      faces.push(a, b, c);
      // The WALK flags are the ASWM triangle flags; the clockwise bit is decided later.
      flags.push(w.faceFlags[f]! & 0x3ffb);
    }
  }
  if (faces.length === 0) return null;
  const pos = Float64Array.from(positions);
  const polys: polygonClipping.Polygon[] = [];
  for (let i = 0; i < faces.length; i += 3) {
    polys.push([[0, 1, 2].map((k) => [pos[faces[i + k]! * 3]!, pos[faces[i + k]! * 3 + 1]!] as polygonClipping.Pair)]);
  }
  const union = polygonClipping.union(polys[0]!, ...polys.slice(1));
  const onOutline = new OutlinePoints(pos);
  let area = 0;
  const footprint: CutRegion[] = union.map((poly) => ({
    rings: poly.map((ring) => {
      const out = onOutline.densify(ring);
      let a2 = 0;
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a2 += ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1];
      area += a2 / 2;
      return out;
    }),
  }));
  return {
    index: g.index,
    source: p.source ?? (PLACEABLE_SOURCE | g.index) >>> 0,
    model: p.model.name,
    positions: pos,
    faces: Uint32Array.from(faces),
    flags: Uint16Array.from(flags),
    footprint,
    footprintArea: Math.abs(area),
    bounds: ringsBounds(footprint.flatMap((r) => r.rings)),
  };
}

/**
 * The model's vertices that lie on its footprint's outline between two outline corners.
 * The union drops such vertices (where two faces' edges continue each other, as at a
 * door's jambs beside its sill), but the ground must be cut there too: otherwise the
 * ground's edge spans two model edges, they share no vertex, and nothing links them.
 */
class OutlinePoints {
  private readonly grid: BoxGrid;

  constructor(private readonly pos: Float64Array) {
    const V = pos.length / 3;
    const boxes = new Float64Array(V * 4);
    for (let v = 0; v < V; v++) {
      boxes[v * 4] = boxes[v * 4 + 2] = pos[v * 3]!;
      boxes[v * 4 + 1] = boxes[v * 4 + 3] = pos[v * 3 + 1]!;
    }
    this.grid = new BoxGrid(boxes);
  }

  /** The ring (x, y interleaved, without the closing point) with the model's vertices on its edges inserted in order. */
  densify(ring: readonly polygonClipping.Pair[]): Float64Array {
    const n = ring.length > 1 && ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1] ? ring.length - 1 : ring.length;
    const out: number[] = [];
    const eps = 1e-6;
    for (let i = 0; i < n; i++) {
      const [ax, ay] = ring[i]!;
      const [bx, by] = ring[(i + 1) % n]!;
      out.push(ax, ay);
      const len = Math.hypot(bx - ax, by - ay);
      if (len <= 2 * eps) continue;
      const on: { t: number; x: number; y: number }[] = [];
      this.grid.forEachInBox(Math.min(ax, bx) - eps, Math.min(ay, by) - eps, Math.max(ax, bx) + eps, Math.max(ay, by) + eps, (v) => {
        const x = this.pos[v * 3]!, y = this.pos[v * 3 + 1]!;
        if (segmentDistanceSquared(x, y, ax, ay, bx, by) > eps * eps) return;
        const t = projectionParam(x, y, ax, ay, bx, by);
        if (t * len <= eps || (1 - t) * len <= eps) return;
        on.push({ t, x, y });
      });
      on.sort((p, q) => p.t - q.t);
      let last = -Infinity;
      for (const p of on) {
        if ((p.t - last) * len <= eps) continue;
        out.push(p.x, p.y);
        last = p.t;
      }
    }
    // Open, as GIT cutter polygons are (polygon-clipping repeats the first point at the end).
    return Float64Array.from(out);
  }
}

/**
 * The point moved onto a ground vertex within the snap distance, else onto a ground edge
 * within it: the same snapping the cut applies to the footprint, done first so that the
 * model's outline and the hole cut for it coincide.
 */
function snapToGround(x: number, y: number, s: TrnSurface, grid: TriangleGrid, snap: number): [number, number] {
  const p = s.positions;
  const tri = s.triangles;
  let vd = snap * snap;
  let ed = snap * snap;
  let vx = NaN, vy = NaN, ex = NaN, ey = NaN;
  grid.forEachInBox(x - snap, y - snap, x + snap, y + snap, (t) => {
    for (let k = 0; k < 3; k++) {
      const a = tri[t * 3 + k]! * 3;
      const b = tri[t * 3 + ((k + 1) % 3)]! * 3;
      const d = (p[a]! - x) ** 2 + (p[a + 1]! - y) ** 2;
      if (d <= vd) {
        vd = d;
        vx = p[a]!;
        vy = p[a + 1]!;
      }
      const de = segmentDistanceSquared(x, y, p[a]!, p[a + 1]!, p[b]!, p[b + 1]!);
      if (de <= ed) {
        ed = de;
        const u = projectionParam(x, y, p[a]!, p[a + 1]!, p[b]!, p[b + 1]!);
        ex = p[a]! + u * (p[b]! - p[a]!);
        ey = p[a + 1]! + u * (p[b + 1]! - p[a + 1]!);
      }
    }
  });
  if (!Number.isNaN(vx)) return [vx, vy];
  if (!Number.isNaN(ex)) return [ex, ey];
  return [x, y];
}

/** Height of the ground at (x, y): the surface nearest `near` where several are stacked, `near` where there is none. */
export function groundHeight(s: TrnSurface, grid: TriangleGrid, x: number, y: number, near: number): number {
  let best = near;
  let bestD = Infinity;
  grid.forEachContaining(x, y, (t) => {
    const z = planeHeight(s.positions, s.triangles, t, x, y);
    const d = Math.abs(z - near);
    if (d < bestD) {
      bestD = d;
      best = z;
    }
  }, 1e-6);
  return best;
}

/** The ground's vertices (those its triangles use), for joining model outlines to them. */
class GroundJoints {
  private readonly hash: PointHash;
  private readonly grid: BoxGrid;
  private readonly ids: Uint32Array;

  constructor(private readonly s: TrnSurface, snap: number) {
    const V = s.positions.length / 3;
    const used = new Uint8Array(V);
    for (let i = 0; i < s.triangles.length; i++) used[s.triangles[i]!] = 1;
    const ids: number[] = [];
    this.hash = new PointHash(snap);
    for (let v = 0; v < V; v++) {
      if (!used[v]) continue;
      ids.push(v);
      this.hash.add(s.positions[v * 3]!, s.positions[v * 3 + 1]!, v);
    }
    this.ids = Uint32Array.from(ids);
    const boxes = new Float64Array(ids.length * 4);
    ids.forEach((v, i) => {
      boxes[i * 4] = boxes[i * 4 + 2] = s.positions[v * 3]!;
      boxes[i * 4 + 1] = boxes[i * 4 + 3] = s.positions[v * 3 + 1]!;
    });
    this.grid = new BoxGrid(boxes);
  }

  /** The ground vertex at (x, y) (within the snap distance) whose height is within `step` of z, or -1. */
  at(x: number, y: number, z: number, step: number): number {
    const v = this.hash.find(x, y);
    if (v < 0 || Math.abs(this.s.positions[v * 3 + 2]! - z) > step) return -1;
    return v;
  }

  /** Ground vertices within `snap` of the segment a–b, away from its ends, with their parameter along it. */
  along(ax: number, ay: number, bx: number, by: number, snap: number): { v: number; t: number }[] {
    const out: { v: number; t: number }[] = [];
    const p = this.s.positions;
    const len = Math.hypot(bx - ax, by - ay);
    if (len <= 2 * snap) return out;
    this.grid.forEachInBox(Math.min(ax, bx) - snap, Math.min(ay, by) - snap, Math.max(ax, bx) + snap, Math.max(ay, by) + snap, (i) => {
      const v = this.ids[i]!;
      const x = p[v * 3]!, y = p[v * 3 + 1]!;
      if (segmentDistanceSquared(x, y, ax, ay, bx, by) > snap * snap) return;
      const t = projectionParam(x, y, ax, ay, bx, by);
      if (t * len <= snap || (1 - t) * len <= snap) return;
      out.push({ v, t });
    });
    return out.sort((a, b) => a.t - b.t);
  }
}

/**
 * Adds a placed model's triangles to the builder, sharing vertices with the ground where
 * its outline meets it (rule 6): outline vertices take the ground vertex at the same spot,
 * and outline edges along which the ground has vertices are split there (the triangle is
 * re-triangulated with those points) so that the edges pair up. Returns how many outline
 * vertices were shared.
 */
function insertJoined(builder: SurfaceBuilder, piece: TrnSurface, joins: GroundJoints, snap: number, step: number): number {
  const p = piece.positions;
  const T = piece.flags.length;
  const V = p.length / 3;
  const edgeCount = new Map<number, number>();
  const key = (a: number, b: number) => (a < b ? a * V + b : b * V + a);
  for (let t = 0; t < T; t++) {
    for (let c = 0; c < 3; c++) {
      const k = key(piece.triangles[t * 3 + c]!, piece.triangles[t * 3 + ((c + 1) % 3)]!);
      edgeCount.set(k, (edgeCount.get(k) ?? 0) + 1);
    }
  }
  const onOutline = new Uint8Array(V);
  for (let t = 0; t < T; t++) {
    for (let c = 0; c < 3; c++) {
      const a = piece.triangles[t * 3 + c]!;
      const b = piece.triangles[t * 3 + ((c + 1) % 3)]!;
      if (edgeCount.get(key(a, b)) === 1) onOutline[a] = onOutline[b] = 1;
    }
  }
  const target = new Int32Array(V).fill(-1);
  let joined = 0;
  const vertexOf = (v: number): number => {
    if (target[v]! >= 0) return target[v]!;
    const g = onOutline[v] ? joins.at(p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!, step) : -1;
    if (g >= 0) joined++;
    target[v] = g >= 0 ? g : builder.addVertex(p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!);
    return target[v]!;
  };
  const splitCache = new Map<number, { v: number; t: number }[]>();
  const splitsOf = (a: number, b: number) => {
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    const k = key(lo, hi);
    let list = splitCache.get(k);
    if (!list) {
      list = edgeCount.get(k) !== 1 ? [] : joins.along(p[lo * 3]!, p[lo * 3 + 1]!, p[hi * 3]!, p[hi * 3 + 1]!, snap).filter(({ v, t }) => {
        const z = p[lo * 3 + 2]! + t * (p[hi * 3 + 2]! - p[lo * 3 + 2]!);
        return Math.abs(builder.positions[v * 3 + 2]! - z) <= step;
      });
      splitCache.set(k, list);
    }
    return a === lo ? list : list.slice().reverse();
  };

  for (let t = 0; t < T; t++) {
    const c = [piece.triangles[t * 3]!, piece.triangles[t * 3 + 1]!, piece.triangles[t * 3 + 2]!];
    const ring: number[] = [];
    let extra = 0;
    for (let k = 0; k < 3; k++) {
      ring.push(vertexOf(c[k]!));
      for (const sp of splitsOf(c[k]!, c[(k + 1) % 3]!)) {
        ring.push(sp.v);
        extra++;
      }
    }
    const flags = piece.flags[t]!;
    const source = piece.source[t]!;
    // Two outline corners closer than the snap distance (a sliver, e.g. where the area's
    // edge or a later footprint cut the model a few millimetres from a corner) can both
    // take the same ground vertex: the edge between them collapses to a point. The
    // collapsed edge is left out of the ring; a triangle left with fewer than three
    // corners has no area any more and is dropped. The mesh stays conforming: its two
    // other edges now join the same two vertices, so the triangles across them pair up
    // with each other (and NWN2 refuses a triangle that uses one vertex twice).
    collapseRepeats(ring);
    if (ring.length < 3) continue;
    if (ring.length === 3 && extra === 0) {
      builder.addTriangle(ring[0]!, ring[1]!, ring[2]!, flags, source);
      continue;
    }
    const pos = builder.positions;
    const coords = new Float64Array(ring.length * 2);
    const ox = pos[ring[0]! * 3]!, oy = pos[ring[0]! * 3 + 1]!;
    ring.forEach((v, i) => {
      coords[i * 2] = pos[v * 3]! - ox;
      coords[i * 2 + 1] = pos[v * 3 + 1]! - oy;
    });
    const constraints: number[] = [];
    for (let i = 0; i < ring.length; i++) constraints.push(i, (i + 1) % ring.length);
    let local: Uint32Array | null = null;
    try {
      local = triangulateConstrained(coords, constraints);
      if (!usesEveryPoint(ring.length, local)) local = null;
    } catch {
      local = null;
    }
    if (!local) {
      // A fan from the triangle's centre, always valid for a convex ring.
      const m = c.map(vertexOf);
      const centre = builder.addVertex(
        (pos[m[0]! * 3]! + pos[m[1]! * 3]! + pos[m[2]! * 3]!) / 3,
        (pos[m[0]! * 3 + 1]! + pos[m[1]! * 3 + 1]! + pos[m[2]! * 3 + 1]!) / 3,
        (pos[m[0]! * 3 + 2]! + pos[m[1]! * 3 + 2]! + pos[m[2]! * 3 + 2]!) / 3,
      );
      for (let i = 0; i < ring.length; i++) builder.addTriangle(centre, ring[i]!, ring[(i + 1) % ring.length]!, flags, source);
      continue;
    }
    for (let i = 0; i < local.length; i += 3) {
      const a = local[i]!, b = local[i + 1]!, d = local[i + 2]!;
      const area2 = (coords[b * 2]! - coords[a * 2]!) * (coords[d * 2 + 1]! - coords[a * 2 + 1]!) - (coords[b * 2 + 1]! - coords[a * 2 + 1]!) * (coords[d * 2]! - coords[a * 2]!);
      if (area2 <= 1e-12) continue;
      // The triangulation covers the points' convex hull; a ground vertex split into the
      // outline a fraction of a millimetre inside it makes the ring concave, and the hull
      // triangle over that dent would overlap the ground.
      if (!pointInRing(coords, (coords[a * 2]! + coords[b * 2]! + coords[d * 2]!) / 3, (coords[a * 2 + 1]! + coords[b * 2 + 1]! + coords[d * 2 + 1]!) / 3)) continue;
      builder.addTriangle(ring[a]!, ring[b]!, ring[d]!, flags, source);
    }
  }
  return joined;
}

/** Removes, in place, each vertex of the closed ring that repeats the one before it. */
function collapseRepeats(ring: number[]): void {
  let n = 0;
  for (let i = 0; i < ring.length; i++) if (ring[i] !== (n > 0 ? ring[n - 1] : -1)) ring[n++] = ring[i]!;
  while (n > 1 && ring[n - 1] === ring[0]) n--;
  ring.length = n;
}
