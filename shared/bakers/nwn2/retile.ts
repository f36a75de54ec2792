import { MAX_TILE_NODES, TriangleFlag } from '../../formats/nwn2/aswm-document';
import { triangleCentre } from '../../formats/nwn2/aswm-geometry';
import { triangulateConstrained, usesEveryPoint } from '../../geometry/constrained-triangulation';
import { pointInTriangle } from '../../geometry/polygon';
import { ModelMappingError } from '../../model/model-mapping-error';
import { SurfaceBuilder, type TrnSurface } from './trn-surface';

export interface TileGrid {
  gridWidth: number;
  gridHeight: number;
  /** Tile edge in metres. */
  tileWidth: number;
}

export interface RetileReport {
  /** Triangles whose centre fell outside the tile grid (dropped). */
  outsideGrid: number;
  /** Tiles whose walkable triangles were re-triangulated to fit the limit, as "tile (x, y)". */
  simplifiedTiles: string[];
  /** Walkable triangles saved by those re-triangulations. */
  trianglesSaved: number;
  /** The largest number of walkable triangles left in one tile. */
  maxWalkablePerTile: number;
}

/**
 * Makes the surface fit NWN2's tiles (spec §4.3, §12): positions rounded to float32 (what
 * the file stores, so the tile of a triangle is decided on the values the game reads),
 * each triangle in the tile whose square holds its centre (the toolset's float32 centre),
 * and at most 127 walkable triangles per tile. An overflowing tile's walkable triangles
 * are merged into coplanar regions of equal flags and each region re-triangulated from
 * its outline alone (constrained Delaunay; points only the region uses and that are not
 * corners of its outline are dropped), which gives the fewest triangles that keep the
 * shape and every vertex a neighbour shares. Throws ModelMappingError naming the tiles
 * when that cannot reach the limit.
 *
 * The grouping per tile in row-major order is done when the ASWM is built
 * (rebuildTopology sorts by the same centres).
 */
export function retile(input: TrnSurface, grid: TileGrid, maxWalkable = MAX_TILE_NODES): { surface: TrnSurface; report: RetileReport } {
  let s = roundToFloat32(input);
  const report: RetileReport = { outsideGrid: 0, simplifiedTiles: [], trianglesSaved: 0, maxWalkablePerTile: 0 };
  let tiles = assignTiles(s, grid);
  if (tiles.outside > 0) {
    report.outsideGrid = tiles.outside;
    const keep = tiles.tileOf;
    const b = new SurfaceBuilder(s.positions, s.flags.length);
    for (let t = 0; t < s.flags.length; t++) if (keep[t] !== NO_TILE) b.copyTriangle(s, t);
    s = b.finish();
    tiles = assignTiles(s, grid);
  }
  const simplified = new Set<number>();
  for (let pass = 0; pass < 8; pass++) {
    const over = overflowing(tiles.walkable, maxWalkable);
    if (over.length === 0) break;
    const r = simplifyTiles(s, tiles.tileOf, over);
    const saved = r.saved;
    if (saved === 0) break;
    s = r.surface;
    for (const k of r.tiles) simplified.add(k);
    report.trianglesSaved += saved;
    s = roundToFloat32(s);
    tiles = assignTiles(s, grid);
  }
  report.simplifiedTiles = [...simplified].sort((a, b) => a - b).map((k) => tileLabel(k, grid.gridWidth));
  const over = overflowing(tiles.walkable, maxWalkable);
  if (over.length > 0) {
    const names = over.map((k) => `${tileLabel(k, grid.gridWidth)} (${tiles.walkable[k]} walkable triangles)`).join(', ');
    throw new ModelMappingError(
      `${names}: a tile holds at most ${maxWalkable} walkable triangles and re-triangulating its flat areas could not get there; remove or simplify walkmesh cutters or placeables there, or paint part of it unwalkable`,
    );
  }
  report.maxWalkablePerTile = tiles.walkable.reduce((m, n) => Math.max(m, n), 0);
  return { surface: s, report };
}

export const NO_TILE = 0xffffffff;

/** "tile (x, y)". */
export function tileLabel(k: number, gridWidth: number): string {
  return `tile (${k % gridWidth}, ${Math.floor(k / gridWidth)})`;
}

/** The surface with positions rounded to float32, as they will be stored. */
export function roundToFloat32(s: TrnSurface): TrnSurface {
  const positions = new Float64Array(s.positions.length);
  for (let i = 0; i < positions.length; i++) positions[i] = Math.fround(s.positions[i]!);
  return { ...s, positions };
}

/** The tile of every triangle (NO_TILE outside the grid) by the toolset's float32 centre, and the walkable count per tile. */
export function assignTiles(s: TrnSurface, grid: TileGrid): { tileOf: Uint32Array; walkable: Uint32Array; outside: number } {
  const T = s.flags.length;
  const f32 = new Float32Array(s.positions);
  const centre = new Float32Array(T * 2);
  const tileOf = new Uint32Array(T);
  const walkable = new Uint32Array(grid.gridWidth * grid.gridHeight);
  let outside = 0;
  const w = grid.tileWidth;
  for (let t = 0; t < T; t++) {
    triangleCentre(f32, s.triangles, t, centre);
    const tx = Math.floor(centre[t * 2]! / w);
    const ty = Math.floor(centre[t * 2 + 1]! / w);
    if (!(tx >= 0 && tx < grid.gridWidth && ty >= 0 && ty < grid.gridHeight)) {
      tileOf[t] = NO_TILE;
      outside++;
      continue;
    }
    const k = ty * grid.gridWidth + tx;
    tileOf[t] = k;
    if (s.flags[t]! & TriangleFlag.walkable) walkable[k]!++;
  }
  return { tileOf, walkable, outside };
}

function overflowing(walkable: Uint32Array, max: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < walkable.length; k++) if (walkable[k]! > max) out.push(k);
  return out;
}

/** Plane of triangle t: unit normal (z ≥ 0) and offset, or null when it has no area. */
function planeOf(p: Float64Array, tri: Uint32Array, t: number): [number, number, number, number] | null {
  const a = tri[t * 3]! * 3, b = tri[t * 3 + 1]! * 3, c = tri[t * 3 + 2]! * 3;
  const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
  const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const l = Math.hypot(nx, ny, nz);
  if (!(l > 1e-12) || nz <= 0) return null;
  nx /= l;
  ny /= l;
  nz /= l;
  return [nx, ny, nz, nx * p[a]! + ny * p[a + 1]! + nz * p[a + 2]!];
}

const COPLANAR_COS = 1 - 1e-7;
const COPLANAR_OFFSET = 1e-4;

/**
 * Re-triangulates the walkable triangles of the given tiles region by region (connected
 * through shared edges, equal flags, one plane). Returns the new surface, how many
 * triangles it saved and which tiles changed (the input and 0 when nothing could be
 * merged). One pass over the mesh for all tiles: the tiles' triangles are disjoint, and a
 * vertex two regions share is kept by both.
 */
function simplifyTiles(s: TrnSurface, tileOf: Uint32Array, tiles: readonly number[]): { surface: TrnSurface; saved: number; tiles: number[] } {
  const T = s.flags.length;
  const V = s.positions.length / 3;
  const p = s.positions;
  const tri = s.triangles;
  // Triangles per vertex, to know which vertices only a region uses.
  const start = new Uint32Array(V + 1);
  for (let i = 0; i < T * 3; i++) start[tri[i]! + 1]!++;
  for (let v = 0; v < V; v++) start[v + 1]! += start[v]!;
  const around = new Uint32Array(T * 3);
  const fill = start.slice(0, V);
  for (let i = 0; i < T * 3; i++) around[fill[tri[i]!]!++] = (i / 3) | 0;

  const wanted = new Map<number, number[]>();
  for (const k of tiles) wanted.set(k, []);
  for (let t = 0; t < T; t++) {
    if (!(s.flags[t]! & TriangleFlag.walkable)) continue;
    wanted.get(tileOf[t]!)?.push(t);
  }
  const replaced = new Uint8Array(T);
  const added: { a: number; b: number; c: number; flags: number; source: number }[] = [];
  let saved = 0;
  const changed: number[] = [];
  for (const [k, members] of wanted) {
    let savedHere = 0;
    for (const region of flatRegions(s, members)) {
      if (region.length < 2) continue;
      const r = retriangulateRegion(s, region, around, start);
      if (!r || r.length / 3 >= region.length) continue;
      for (const t of region) replaced[t] = 1;
      for (let i = 0; i < r.length; i += 3) added.push({ a: r[i]!, b: r[i + 1]!, c: r[i + 2]!, flags: s.flags[region[0]!]!, source: s.source[region[0]!]! });
      savedHere += region.length - r.length / 3;
    }
    if (savedHere > 0) changed.push(k);
    saved += savedHere;
  }
  if (saved === 0) return { surface: s, saved: 0, tiles: [] };
  const b = new SurfaceBuilder(p, T);
  for (let t = 0; t < T; t++) if (!replaced[t]) b.copyTriangle(s, t);
  for (const n of added) b.addTriangle(n.a, n.b, n.c, n.flags, n.source);
  return { surface: b.finish(), saved, tiles: changed };
}

/** The members split into regions: connected through shared edges, equal flags, one plane. */
function flatRegions(s: TrnSurface, members: readonly number[]): number[][] {
  const p = s.positions;
  const tri = s.triangles;
  const V = p.length / 3;
  const planes = new Map<number, [number, number, number, number] | null>();
  for (const t of members) planes.set(t, planeOf(p, tri, t));
  const edgeOwners = new Map<number, number[]>();
  const key = (a: number, b: number) => (a < b ? a * V + b : b * V + a);
  for (const t of members) {
    for (let c = 0; c < 3; c++) {
      const e = key(tri[t * 3 + c]!, tri[t * 3 + ((c + 1) % 3)]!);
      const list = edgeOwners.get(e);
      if (list) list.push(t);
      else edgeOwners.set(e, [t]);
    }
  }
  const inRegion = new Set<number>();
  const regions: number[][] = [];
  for (const seed of members) {
    if (inRegion.has(seed) || !planes.get(seed)) continue;
    const list = [seed];
    inRegion.add(seed);
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      const pt = planes.get(t)!;
      for (let c = 0; c < 3; c++) {
        for (const u of edgeOwners.get(key(tri[t * 3 + c]!, tri[t * 3 + ((c + 1) % 3)]!))!) {
          if (inRegion.has(u) || s.flags[u] !== s.flags[t]) continue;
          const pu = planes.get(u);
          if (!pu || pt[0] * pu[0] + pt[1] * pu[1] + pt[2] * pu[2] < COPLANAR_COS || Math.abs(pt[3] - pu[3]) > COPLANAR_OFFSET) continue;
          inRegion.add(u);
          list.push(u);
        }
      }
    }
    regions.push(list);
  }
  return regions;
}

/**
 * The fewest triangles covering one flat region: its outline (edges used by one region
 * triangle) with the outline points that only the region uses and that lie on a straight
 * stretch dropped, triangulated with the outline as constraints. Null when the result
 * does not cover the region exactly (area check) or the triangulation fails.
 */
function retriangulateRegion(s: TrnSurface, region: number[], around: Uint32Array, start: Uint32Array): Uint32Array | null {
  const p = s.positions;
  const tri = s.triangles;
  const inRegion = new Set(region);
  const onlyRegion = (v: number) => {
    for (let i = start[v]!; i < start[v + 1]!; i++) if (!inRegion.has(around[i]!)) return false;
    return true;
  };
  // Directed outline edges (a → b, the region on the left).
  const count = new Map<string, number>();
  for (const t of region) {
    for (let c = 0; c < 3; c++) {
      const a = tri[t * 3 + c]!;
      const b = tri[t * 3 + ((c + 1) % 3)]!;
      const k = a < b ? `${a},${b}` : `${b},${a}`;
      count.set(k, (count.get(k) ?? 0) + 1);
    }
  }
  const next = new Map<number, number[]>();
  const prevOf = new Map<number, number>();
  const incoming = new Map<number, number>();
  for (const t of region) {
    for (let c = 0; c < 3; c++) {
      const a = tri[t * 3 + c]!;
      const b = tri[t * 3 + ((c + 1) % 3)]!;
      if (count.get(a < b ? `${a},${b}` : `${b},${a}`) !== 1) continue;
      const list = next.get(a);
      if (list) list.push(b);
      else next.set(a, [b]);
      incoming.set(b, (incoming.get(b) ?? 0) + 1);
      prevOf.set(b, a);
    }
  }
  const droppable = (v: number): boolean => {
    const out = next.get(v);
    if (!out || out.length !== 1 || incoming.get(v) !== 1 || !onlyRegion(v)) return false;
    const prev = prevOf.get(v);
    if (prev === undefined) return false;
    const n = out[0]!;
    const cross = (p[v * 3]! - p[prev * 3]!) * (p[n * 3 + 1]! - p[prev * 3 + 1]!) - (p[v * 3 + 1]! - p[prev * 3 + 1]!) * (p[n * 3]! - p[prev * 3]!);
    const len = Math.hypot(p[n * 3]! - p[prev * 3]!, p[n * 3 + 1]! - p[prev * 3 + 1]!);
    return Math.abs(cross) <= 1e-9 * Math.max(len, 1);
  };
  const kept: number[] = [];
  const localOf = new Map<number, number>();
  for (const v of next.keys()) {
    if (droppable(v)) continue;
    localOf.set(v, kept.length);
    kept.push(v);
  }
  // Inner vertices are dropped unless a triangle outside the region uses them too.
  for (const t of region) {
    for (let c = 0; c < 3; c++) {
      const v = tri[t * 3 + c]!;
      if (localOf.has(v) || next.has(v) || onlyRegion(v)) continue;
      localOf.set(v, kept.length);
      kept.push(v);
    }
  }
  if (kept.length < 3) return null;
  const constraints: number[] = [];
  for (const v of kept) {
    for (let b of next.get(v) ?? []) {
      let guard = 0;
      while (!localOf.has(b) && guard++ < 100000) b = next.get(b)![0]!;
      if (!localOf.has(b)) return null;
      constraints.push(localOf.get(v)!, localOf.get(b)!);
    }
  }
  const ox = p[kept[0]! * 3]!;
  const oy = p[kept[0]! * 3 + 1]!;
  const coords = new Float64Array(kept.length * 2);
  kept.forEach((v, i) => {
    coords[i * 2] = p[v * 3]! - ox;
    coords[i * 2 + 1] = p[v * 3 + 1]! - oy;
  });
  let local: Uint32Array;
  try {
    local = triangulateConstrained(coords, constraints);
  } catch {
    return null;
  }
  if (!usesEveryPoint(kept.length, local)) return null;
  const out: number[] = [];
  let area = 0;
  for (let i = 0; i < local.length; i += 3) {
    const a = local[i]!, b = local[i + 1]!, c = local[i + 2]!;
    const d = (coords[b * 2]! - coords[a * 2]!) * (coords[c * 2 + 1]! - coords[a * 2 + 1]!) - (coords[b * 2 + 1]! - coords[a * 2 + 1]!) * (coords[c * 2]! - coords[a * 2]!);
    if (d <= 0) continue;
    const mx = (coords[a * 2]! + coords[b * 2]! + coords[c * 2]!) / 3 + ox;
    const my = (coords[a * 2 + 1]! + coords[b * 2 + 1]! + coords[c * 2 + 1]!) / 3 + oy;
    if (!region.some((t) => inTriangle(p, tri, t, mx, my))) continue;
    out.push(kept[a]!, kept[b]!, kept[c]!);
    area += d / 2;
  }
  let before = 0;
  for (const t of region) {
    const a = tri[t * 3]! * 3, b = tri[t * 3 + 1]! * 3, c = tri[t * 3 + 2]! * 3;
    before += Math.abs((p[b]! - p[a]!) * (p[c + 1]! - p[a + 1]!) - (p[b + 1]! - p[a + 1]!) * (p[c]! - p[a]!)) / 2;
  }
  if (Math.abs(area - before) > 1e-6 * Math.max(before, 1)) return null;
  return Uint32Array.from(out);
}

function inTriangle(p: Float64Array, tri: Uint32Array, t: number, x: number, y: number): boolean {
  const a = tri[t * 3]! * 3, b = tri[t * 3 + 1]! * 3, c = tri[t * 3 + 2]! * 3;
  return pointInTriangle(x, y, p[a]!, p[a + 1]!, p[b]!, p[b + 1]!, p[c]!, p[c + 1]!);
}
