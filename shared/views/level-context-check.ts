import { pointInTriangle } from '../geometry/polygon';
import { planeHeight, TriangleGrid } from '../geometry/triangle-grid';
import type { LevelContext, LevelContextKind } from '../model/level-context';
import type { GameId, Walkmesh } from '../model/walkmesh';

/**
 * The walkmesh checked against the level it sits in (issue 19): faces floating above or
 * sunk below the level's floors, level floors no walkmesh covers ("uncovered walkable
 * ground"), and snapping a point to the level's surface. Pure functions over a spatial
 * index of the context's triangles (a uniform grid in x/y), so every query touches only
 * the triangles around a point, never all of them.
 */

export interface LevelCheckOptions {
  /** A walkmesh face further than this above or below the level is reported. */
  tolerance: number;
  /** How far up and down a face looks for the level's surface (further: not judged). */
  searchRange: number;
  /** A context triangle is walkable ground when its unit normal's z is at least this. */
  walkableCos: number;
  /** A walkmesh face within this height of a ground point covers it (ramps over stairs). */
  coverRange: number;
  /**
   * A walkmesh face within this distance in plan covers a ground point: where a walkmesh
   * marks the places a creature's centre may be, the ground within its radius of them is
   * under its feet too.
   */
  coverRadius: number;
  /** Ground is sampled about this far apart when looking for uncovered ground. */
  sampleSpacing: number;
  /** Uncovered regions smaller than this area are dropped. */
  minRegionArea: number;
  /**
   * Steps up to this height join two uncovered samples into one region, and two walkable
   * level triangles into one floor a creature walks across (up or down).
   */
  stepHeight: number;
  /**
   * Headroom a creature needs standing: ground with a level triangle above it closer than
   * this (and further than `tolerance`, so coplanar faces do not count) is not floor.
   */
  creatureHeight: number;
  /** Walkable triangles whose vertex and edge come within this distance in plan touch. */
  linkGap: number;
}

/**
 * Per-game defaults in each game's own units: Source in inches (a player is 32 wide and
 * climbs 18-unit steps; walkable slope normal z ≥ 0.7, the engine's floor test), Skyrim in
 * its units (~1.4 cm), NWN2 and KotOR in metres.
 * Creature heights: Source and GoldSrc, the standing player hull, 72 units (Source
 * VEC_HULL_MIN/MAX z 0..72 in shareddefs.cpp; GoldSrc hull 1 z −36..36); ground only
 * crouch-high (36) is not reported. Skyrim 128 units (~1.83 m at 1.428 cm a unit, a
 * standing human of race height 1.0), NWN2 and KotOR 1.8 m (a standing human model):
 * these three engines store no creature height for collision (a radius or capsule), so
 * these are estimates, and a smaller creature's crawl space is not reported.
 * Cover radius: a Source `.nav` holds where the player's origin (the hull's centre) may
 * stand, its generator tracing the 32-wide hull, so areas end half a hull (16) short of
 * walls; on the fixtures' 9 nav/map pairs a 0 radius reported those strips along the
 * walls as most of the uncovered ground (4.85 M of 5.92 M square units). Not measured for
 * Skyrim, NWN2 and KotOR: 0, ground counts as covered only under a face.
 * Link gaps: how far apart two faces that meet may be after the tools' rounding (BSP
 * vertices are written as floats of integer-snapped brushes; model rooms and terrain
 * meet at shared edges within float precision).
 */
export const LEVEL_CHECK_DEFAULTS: Readonly<Record<GameId, LevelCheckOptions>> = {
  source: { tolerance: 4, searchRange: 64, walkableCos: 0.7, coverRange: 20, coverRadius: 16, sampleSpacing: 32, minRegionArea: 64 * 64, stepHeight: 18, creatureHeight: 72, linkGap: 2 },
  skyrim: { tolerance: 16, searchRange: 256, walkableCos: 0.64, coverRange: 48, coverRadius: 0, sampleSpacing: 64, minRegionArea: 128 * 128, stepHeight: 40, creatureHeight: 128, linkGap: 8 },
  nwn2: { tolerance: 0.25, searchRange: 3, walkableCos: 0.64, coverRange: 0.6, coverRadius: 0, sampleSpacing: 0.5, minRegionArea: 4, stepHeight: 0.5, creatureHeight: 1.8, linkGap: 0.1 },
  kotor: { tolerance: 0.25, searchRange: 3, walkableCos: 0.7, coverRange: 0.6, coverRadius: 0, sampleSpacing: 0.5, minRegionArea: 4, stepHeight: 0.5, creatureHeight: 1.8, linkGap: 0.1 },
};

/** Every context piece's triangles in one list, with a grid over them. */
export interface LevelContextIndex {
  positions: Float32Array;
  triangles: Uint32Array;
  /** Piece index per triangle. */
  piece: Uint32Array;
  /** z of each triangle's unit normal (winding counter-clockwise seen from the front). */
  normalZ: Float32Array;
  /** Area of each triangle (3D). */
  area: Float64Array;
  grid: TriangleGrid;
  labels: string[];
  /** Kind of each piece (water is a surface but never ground). */
  kinds: LevelContextKind[];
}

export function buildLevelContextIndex(context: LevelContext): LevelContextIndex {
  let vertices = 0;
  let indices = 0;
  for (const p of context.pieces) {
    vertices += p.positions.length / 3;
    indices += p.triangles.length;
  }
  const positions = new Float32Array(vertices * 3);
  const triangles = new Uint32Array(indices);
  const piece = new Uint32Array(indices / 3);
  let v = 0;
  let t = 0;
  context.pieces.forEach((p, i) => {
    positions.set(p.positions, v * 3);
    for (let k = 0; k < p.triangles.length; k++) triangles[t + k] = p.triangles[k]! + v;
    piece.fill(i, t / 3, (t + p.triangles.length) / 3);
    v += p.positions.length / 3;
    t += p.triangles.length;
  });
  const T = indices / 3;
  const normalZ = new Float32Array(T);
  const area = new Float64Array(T);
  for (let f = 0; f < T; f++) {
    const a = triangles[f * 3]! * 3, b = triangles[f * 3 + 1]! * 3, c = triangles[f * 3 + 2]! * 3;
    const ux = positions[b]! - positions[a]!, uy = positions[b + 1]! - positions[a + 1]!, uz = positions[b + 2]! - positions[a + 2]!;
    const vx = positions[c]! - positions[a]!, vy = positions[c + 1]! - positions[a + 1]!, vz = positions[c + 2]! - positions[a + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz);
    normalZ[f] = len > 0 ? nz / len : 0;
    area[f] = len / 2;
  }
  return { positions, triangles, piece, normalZ, area, grid: new TriangleGrid(positions, triangles), labels: context.pieces.map((p) => p.label), kinds: context.pieces.map((p) => p.kind) };
}

export interface SurfaceHit {
  z: number;
  /** Triangle of the index. */
  triangle: number;
  /** Label of the piece it belongs to. */
  label: string;
}

/**
 * The level's upward-facing surface at (x, y) that someone at height `zHint` stands on: the
 * highest one at most `stepUp` above the hint, else (nothing at or below) the lowest one
 * above it. Undefined where the level has no upward surface at (x, y), or none within
 * `range` of the hint.
 */
export function surfaceHeightAt(index: LevelContextIndex, x: number, y: number, zHint: number, stepUp = 0, range = Infinity): SurfaceHit | undefined {
  let below: SurfaceHit | undefined;
  let above: SurfaceHit | undefined;
  index.grid.forEachContaining(x, y, (t) => {
    if (!(index.normalZ[t]! > 0)) return;
    const z = index.grid.heightAt(t, x, y);
    if (Math.abs(z - zHint) > range) return;
    if (z <= zHint + stepUp) {
      if (!below || z > below.z) below = { z, triangle: t, label: index.labels[index.piece[t]!]! };
    } else if (!above || z < above.z) above = { z, triangle: t, label: index.labels[index.piece[t]!]! };
  }, 1e-6);
  return below ?? above;
}

/** The point dropped straight down onto the level (at most `maxDrop` below it); undefined where nothing is below. */
export function dropToSurface(index: LevelContextIndex, point: readonly [number, number, number], maxDrop = Infinity): [number, number, number] | undefined {
  const hit = surfaceHeightAt(index, point[0], point[1], point[2], 0, maxDrop);
  if (!hit || hit.z > point[2] || point[2] - hit.z > maxDrop) return undefined;
  return [point[0], point[1], hit.z];
}

/** The upward surface vertically nearest to (x, y, z) within `range`: the height difference z − surface, or undefined. */
function verticalOffset(index: LevelContextIndex, x: number, y: number, z: number, range: number): number | undefined {
  let best: number | undefined;
  index.grid.forEachContaining(x, y, (t) => {
    if (!(index.normalZ[t]! > 0)) return;
    const d = z - index.grid.heightAt(t, x, y);
    if (Math.abs(d) <= range && (best === undefined || Math.abs(d) < Math.abs(best))) best = d;
  }, 1e-6);
  return best;
}

export interface OffLevelFace {
  face: number;
  kind: 'floating' | 'sunk';
  /** Mean height above (positive) or below (negative) the level over the samples that found it. */
  offset: number;
}

/**
 * Walkable faces floating above or sunk below the level by more than the tolerance: each
 * face is sampled at its three corners (pulled 1% towards the centre, so a corner on a
 * seam falls inside one side) and its centroid; the level surface vertically nearest each
 * sample within `searchRange` is found; a face is floating when every sample that found a
 * surface is more than `tolerance` above it, sunk when every one is more than `tolerance`
 * below. Faces with no surface within range are not judged (the level has nothing there).
 */
export function findOffLevelFaces(mesh: Walkmesh, index: LevelContextIndex, options: LevelCheckOptions = LEVEL_CHECK_DEFAULTS[mesh.game]): OffLevelFace[] {
  const out: OffLevelFace[] = [];
  const P = mesh.positions;
  const faces = mesh.triangles.length / 3;
  for (let f = 0; f < faces; f++) {
    if (!mesh.faceWalkable[f]) continue;
    const a = mesh.triangles[f * 3]! * 3, b = mesh.triangles[f * 3 + 1]! * 3, c = mesh.triangles[f * 3 + 2]! * 3;
    const cx = (P[a]! + P[b]! + P[c]!) / 3, cy = (P[a + 1]! + P[b + 1]! + P[c + 1]!) / 3, cz = (P[a + 2]! + P[b + 2]! + P[c + 2]!) / 3;
    let above = 0, below = 0, found = 0, sum = 0;
    for (let s = 0; s < 4; s++) {
      const v = s === 0 ? a : s === 1 ? b : c;
      const x = s === 3 ? cx : P[v]! + (cx - P[v]!) * 0.01;
      const y = s === 3 ? cy : P[v + 1]! + (cy - P[v + 1]!) * 0.01;
      const z = s === 3 ? cz : P[v + 2]! + (cz - P[v + 2]!) * 0.01;
      const d = verticalOffset(index, x, y, z, options.searchRange);
      if (d === undefined) continue;
      found++;
      sum += d;
      if (d > options.tolerance) above++;
      else if (d < -options.tolerance) below++;
    }
    if (found === 0) continue;
    if (above === found) out.push({ face: f, kind: 'floating', offset: sum / found });
    else if (below === found) out.push({ face: f, kind: 'sunk', offset: sum / found });
  }
  return out;
}

export interface UncoveredRegion {
  /** Index triangles with uncovered ground in the region, ascending. */
  triangles: number[];
  /** Uncovered area (the share of each triangle's area its uncovered samples stand for). */
  area: number;
  /** Area-weighted centre of the uncovered samples. */
  centre: [number, number, number];
  /** Labels of the pieces the region lies on. */
  pieces: string[];
}

/** Halvings of one triangle at most (a triangle then yields at most 2^18 samples). */
const MAX_SPLIT_DEPTH = 18;

/**
 * Level ground no walkmesh covers: every context triangle walkable by slope (water aside)
 * is cut by halving its longest edge until no edge is longer than `sampleSpacing` in the plane
 * (thin slivers stay thin: their pieces grow with their length, not its square); each
 * piece's centroid is a sample standing for the piece's area. A sample is covered when a
 * walkable walkmesh face lies over or under it within `coverRange` (or, in plan, within
 * `coverRadius` of it).
 * An uncovered sample counts only where a creature could stand and get to: headroom (no
 * level triangle above it between `tolerance` and `creatureHeight`) and reach (its
 * triangle joins, through walkable triangles touching within `linkGap` with steps no
 * higher than `stepHeight`, a triangle with a covered sample). So wall tops, ledges only
 * a jump reaches, ground under furniture and floors of closed-off rooms are not reported.
 * Uncovered samples in neighbouring cells of a `sampleSpacing` grid whose heights are
 * within `stepHeight` form one region; regions under `minRegionArea` are dropped.
 * Largest region first.
 * `meshes` are all the walkmeshes of one file (a KotOR layout's rooms, a plugin's
 * navmeshes, an area's walkmeshes): ground counts as covered when any of them covers it,
 * so the floor of one room is never uncovered ground seen from its neighbour. They are
 * checked together, once (one grid over all their walkable faces), never mesh by mesh.
 */
export function findUncoveredGround(meshes: Walkmesh | readonly Walkmesh[], index: LevelContextIndex, options?: LevelCheckOptions): UncoveredRegion[] {
  const list: readonly Walkmesh[] = Array.isArray(meshes) ? meshes : [meshes as Walkmesh];
  if (list.length === 0) return [];
  const opts = options ?? LEVEL_CHECK_DEFAULTS[list[0]!.game];
  const cover = walkableCover(list);
  const P = index.positions;
  const T = index.triangles;
  const samples: Samples = { x: [], y: [], z: [], weight: [], triangle: [] };
  const reach = Math.max(opts.coverRadius, 1e-6);
  const covered = (x: number, y: number, z: number): boolean => {
    let hit = false;
    cover.grid.forEachInBox(x - reach, y - reach, x + reach, y + reach, (f) => {
      if (hit) return;
      const h = heightNear(cover.positions, cover.triangles, f, x, y, reach);
      if (h !== undefined && Math.abs(h - z) <= opts.coverRange) hit = true;
    });
    return hit;
  };
  // Triangles with a covered sample: where the walkmesh meets the level, the flood's seeds.
  const seeded = new Uint8Array(T.length / 3);
  const spacing2 = opts.sampleSpacing * opts.sampleSpacing;
  // Explicit stack of triangles (9 coordinates and a depth each).
  let stack = new Float64Array(10 * 64);
  const triangleCount = T.length / 3;
  for (let t = 0; t < triangleCount; t++) {
    if (!isGround(index, t, opts)) continue;
    const a = T[t * 3]! * 3, b = T[t * 3 + 1]! * 3, c = T[t * 3 + 2]! * 3;
    const rootPlanArea = Math.abs((P[b]! - P[a]!) * (P[c + 1]! - P[a + 1]!) - (P[b + 1]! - P[a + 1]!) * (P[c]! - P[a]!)) / 2;
    if (!(rootPlanArea > 0)) continue;
    const areaScale = index.area[t]! / rootPlanArea;
    let top = 0;
    for (const v of [a, b, c]) {
      stack[top++] = P[v]!;
      stack[top++] = P[v + 1]!;
      stack[top++] = P[v + 2]!;
    }
    stack[top++] = 0;
    while (top > 0) {
      top -= 10;
      const x0 = stack[top]!, y0 = stack[top + 1]!, z0 = stack[top + 2]!;
      const x1 = stack[top + 3]!, y1 = stack[top + 4]!, z1 = stack[top + 5]!;
      const x2 = stack[top + 6]!, y2 = stack[top + 7]!, z2 = stack[top + 8]!;
      const depth = stack[top + 9]!;
      const d01 = (x1 - x0) ** 2 + (y1 - y0) ** 2;
      const d12 = (x2 - x1) ** 2 + (y2 - y1) ** 2;
      const d20 = (x0 - x2) ** 2 + (y0 - y2) ** 2;
      const longest = Math.max(d01, d12, d20);
      if (longest <= spacing2 || depth >= MAX_SPLIT_DEPTH) {
        const x = (x0 + x1 + x2) / 3, y = (y0 + y1 + y2) / 3, z = (z0 + z1 + z2) / 3;
        if (covered(x, y, z)) seeded[t] = 1;
        else {
          samples.x.push(x);
          samples.y.push(y);
          samples.z.push(z);
          samples.weight.push((Math.abs((x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)) / 2) * areaScale);
          samples.triangle.push(t);
        }
        continue;
      }
      if (top + 20 > stack.length) {
        const grown = new Float64Array(stack.length * 2);
        grown.set(stack);
        stack = grown;
      }
      // Halve the longest edge (a → b, c opposite) at m: triangles (a, m, c) and (m, b, c).
      let ax = x0, ay = y0, az = z0, bx = x1, by = y1, bz = z1, cx = x2, cy = y2, cz = z2;
      if (longest === d12) {
        ax = x1; ay = y1; az = z1; bx = x2; by = y2; bz = z2; cx = x0; cy = y0; cz = z0;
      } else if (longest === d20) {
        ax = x2; ay = y2; az = z2; bx = x0; by = y0; bz = z0; cx = x1; cy = y1; cz = z1;
      }
      const mx = (ax + bx) / 2, my = (ay + by) / 2, mz = (az + bz) / 2;
      stack[top] = ax; stack[top + 1] = ay; stack[top + 2] = az;
      stack[top + 3] = mx; stack[top + 4] = my; stack[top + 5] = mz;
      stack[top + 6] = cx; stack[top + 7] = cy; stack[top + 8] = cz;
      stack[top + 9] = depth + 1;
      stack[top + 10] = mx; stack[top + 11] = my; stack[top + 12] = mz;
      stack[top + 13] = bx; stack[top + 14] = by; stack[top + 15] = bz;
      stack[top + 16] = cx; stack[top + 17] = cy; stack[top + 18] = cz;
      stack[top + 19] = depth + 1;
      top += 20;
    }
  }
  return clusterSamples(index, opts, reachableSamples(index, opts, seeded, samples));
}

/**
 * The walkable faces of several walkmeshes as one triangle set (positions copied per mesh,
 * indices offset) with one grid over it: the union a ground sample is tested against.
 */
function walkableCover(meshes: readonly Walkmesh[]): { positions: Float32Array; triangles: Uint32Array; grid: TriangleGrid } {
  let vertices = 0;
  let faces = 0;
  for (const m of meshes) {
    vertices += m.positions.length / 3;
    for (let f = 0; f < m.triangles.length / 3; f++) if (m.faceWalkable[f]) faces++;
  }
  const positions = new Float32Array(vertices * 3);
  const triangles = new Uint32Array(faces * 3);
  let v = 0;
  let t = 0;
  for (const m of meshes) {
    positions.set(m.positions, v * 3);
    for (let f = 0; f < m.triangles.length / 3; f++) {
      if (!m.faceWalkable[f]) continue;
      triangles[t++] = m.triangles[f * 3]! + v;
      triangles[t++] = m.triangles[f * 3 + 1]! + v;
      triangles[t++] = m.triangles[f * 3 + 2]! + v;
    }
    v += m.positions.length / 3;
  }
  return { positions, triangles, grid: new TriangleGrid(positions, triangles) };
}

/** A triangle walkable by slope and not water (a liquid's surface is swum, not stood on). */
function isGround(index: LevelContextIndex, t: number, options: LevelCheckOptions): boolean {
  return index.normalZ[t]! >= options.walkableCos && index.kinds[index.piece[t]!] !== 'water';
}

/**
 * Whether a creature stands upright at (x, y, z): no level triangle (facing up or down,
 * walls aside: a triangle with no area in plan is never over a point) lies above it
 * further than `tolerance` and closer than `creatureHeight`.
 */
function hasHeadroom(index: LevelContextIndex, x: number, y: number, z: number, options: LevelCheckOptions): boolean {
  let free = true;
  index.grid.forEachContaining(x, y, (t) => {
    if (!free || index.normalZ[t] === 0) return;
    const above = index.grid.heightAt(t, x, y) - z;
    if (above > options.tolerance && above < options.creatureHeight) free = false;
  }, 1e-6);
  return free;
}

/**
 * The samples a creature stands at and gets to: their triangle lies on a walkable floor
 * holding a seeded triangle, and they have headroom (tested last: the costlier test).
 */
function reachableSamples(index: LevelContextIndex, options: LevelCheckOptions, seeded: Uint8Array, s: Samples): Samples {
  if (s.x.length === 0) return s;
  const root = walkableFloors(index, options);
  const reached = new Uint8Array(root.length);
  for (let t = 0; t < seeded.length; t++) if (seeded[t]) reached[root[t]!] = 1;
  const out: Samples = { x: [], y: [], z: [], weight: [], triangle: [] };
  for (let i = 0; i < s.x.length; i++) {
    if (!reached[root[s.triangle[i]!]!] || !hasHeadroom(index, s.x[i]!, s.y[i]!, s.z[i]!, options)) continue;
    out.x.push(s.x[i]!);
    out.y.push(s.y[i]!);
    out.z.push(s.z[i]!);
    out.weight.push(s.weight[i]!);
    out.triangle.push(s.triangle[i]!);
  }
  return out;
}

/**
 * The walkable floor each triangle belongs to (a union–find root per triangle; non-walkable
 * triangles are their own). Two walkable triangles join when a vertex of one lies on or
 * within `linkGap` (in plan) of the other, at a height difference no more than `stepHeight`
 * there: shared vertices and edges, T-junctions of BSP faces, a stair's tread over the
 * edge of the one below, a placed model's floor resting on terrain. Each vertex looks only
 * at the triangles of the index grid around it, so the pass is linear in the triangles
 * for bounded triangle density, never all pairs.
 */
function walkableFloors(index: LevelContextIndex, options: LevelCheckOptions): Uint32Array {
  const P = index.positions;
  const T = index.triangles;
  const count = T.length / 3;
  const parent = new Uint32Array(count);
  for (let i = 0; i < count; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  const walkable = (t: number) => isGround(index, t, options);
  const gap = options.linkGap;
  for (let t = 0; t < count; t++) {
    if (!walkable(t)) continue;
    for (let k = 0; k < 3; k++) {
      const v = T[t * 3 + k]! * 3;
      const vx = P[v]!, vy = P[v + 1]!, vz = P[v + 2]!;
      index.grid.forEachInBox(vx - gap, vy - gap, vx + gap, vy + gap, (u) => {
        if (u === t || !walkable(u)) return;
        const ru = find(u), rt = find(t);
        if (ru === rt) return;
        const h = heightNear(P, T, u, vx, vy, gap);
        if (h !== undefined && Math.abs(h - vz) <= options.stepHeight) parent[Math.max(ru, rt)] = Math.min(ru, rt);
      });
    }
  }
  for (let i = 0; i < count; i++) parent[i] = find(i);
  return parent;
}

/**
 * Triangle u's height at the point of it nearest (x, y) in plan, when that point is within
 * `gap`: its plane's height inside it, else the height along its nearest edge.
 */
function heightNear(P: ArrayLike<number>, T: ArrayLike<number>, u: number, x: number, y: number, gap: number): number | undefined {
  const a = T[u * 3]! * 3, b = T[u * 3 + 1]! * 3, c = T[u * 3 + 2]! * 3;
  if (pointInTriangle(x, y, P[a]!, P[a + 1]!, P[b]!, P[b + 1]!, P[c]!, P[c + 1]!)) return planeHeight(P, T, u, x, y);
  let best = gap * gap;
  let z: number | undefined;
  for (const [p, q] of [[a, b], [b, c], [c, a]] as const) {
    const ex = P[q]! - P[p]!, ey = P[q + 1]! - P[p + 1]!;
    const len2 = ex * ex + ey * ey;
    const s = len2 > 0 ? Math.min(1, Math.max(0, ((x - P[p]!) * ex + (y - P[p + 1]!) * ey) / len2)) : 0;
    const dx = P[p]! + s * ex - x, dy = P[p + 1]! + s * ey - y;
    const d2 = dx * dx + dy * dy;
    if (d2 <= best) {
      best = d2;
      z = P[p + 2]! + s * (P[q + 2]! - P[p + 2]!);
    }
  }
  return z;
}

interface Samples {
  x: number[];
  y: number[];
  z: number[];
  weight: number[];
  triangle: number[];
}

/**
 * Regions of samples: samples of one grid cell (side `sampleSpacing`) at heights within
 * `stepHeight` of each other form a node; nodes of neighbouring cells (8 around) whose
 * height ranges come within `stepHeight` are joined. Linear in the samples.
 */
function clusterSamples(index: LevelContextIndex, options: LevelCheckOptions, s: Samples): UncoveredRegion[] {
  const n = s.x.length;
  const cellSize = options.sampleSpacing;
  const cells = new Map<number, number[]>();
  const keyOf = (cx: number, cy: number) => (cx + 0x100000) * 0x200000 + (cy + 0x100000);
  const cellX = new Float64Array(n);
  const cellY = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const cx = Math.floor(s.x[i]! / cellSize), cy = Math.floor(s.y[i]! / cellSize);
    cellX[i] = cx;
    cellY[i] = cy;
    const key = keyOf(cx, cy);
    const list = cells.get(key);
    if (list) list.push(i);
    else cells.set(key, [i]);
  }
  // Nodes: per cell, its samples sorted by height and cut where a gap exceeds the step height.
  const nodeOf = new Int32Array(n);
  const nodeMin: number[] = [];
  const nodeMax: number[] = [];
  const cellNodes = new Map<number, number[]>();
  for (const [key, list] of cells) {
    list.sort((a, b) => s.z[a]! - s.z[b]!);
    const nodes: number[] = [];
    let node = -1;
    let last = -Infinity;
    for (const i of list) {
      if (node < 0 || s.z[i]! - last > options.stepHeight) {
        node = nodeMin.length;
        nodeMin.push(s.z[i]!);
        nodeMax.push(s.z[i]!);
        nodes.push(node);
      }
      nodeMax[node] = s.z[i]!;
      last = s.z[i]!;
      nodeOf[i] = node;
    }
    cellNodes.set(key, nodes);
  }
  const parent = new Int32Array(nodeMin.length);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  for (const [key, list] of cells) {
    const cx = cellX[list[0]!]!, cy = cellY[list[0]!]!;
    const own = cellNodes.get(key)!;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        if (dx === 0 && dy === 0) continue;
        const other = cellNodes.get(keyOf(cx + dx, cy + dy));
        if (!other) continue;
        for (const a of own) {
          for (const b of other) {
            if (nodeMin[b]! - nodeMax[a]! <= options.stepHeight && nodeMin[a]! - nodeMax[b]! <= options.stepHeight) {
              const ra = find(a), rb = find(b);
              if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
            }
          }
        }
      }
    }
  }
  const regions = new Map<number, { area: number; x: number; y: number; z: number; triangles: Set<number>; pieces: Set<number> }>();
  for (let i = 0; i < n; i++) {
    const r = find(nodeOf[i]!);
    let g = regions.get(r);
    if (!g) regions.set(r, (g = { area: 0, x: 0, y: 0, z: 0, triangles: new Set(), pieces: new Set() }));
    const w = s.weight[i]!;
    g.area += w;
    g.x += s.x[i]! * w;
    g.y += s.y[i]! * w;
    g.z += s.z[i]! * w;
    g.triangles.add(s.triangle[i]!);
    g.pieces.add(index.piece[s.triangle[i]!]!);
  }
  const out: UncoveredRegion[] = [];
  for (const g of regions.values()) {
    if (g.area < options.minRegionArea) continue;
    const w = g.area > 0 ? g.area : 1;
    out.push({
      triangles: [...g.triangles].sort((a, b) => a - b),
      area: g.area,
      centre: [g.x / w, g.y / w, g.z / w],
      pieces: [...g.pieces].sort((a, b) => a - b).map((p) => index.labels[p]!),
    });
  }
  return out.sort((a, b) => b.area - a.area);
}
