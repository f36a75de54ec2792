import { MAX_TILE_NODES, TriangleFlag } from '../../formats/nwn2/aswm-document';
import { triangleCentre } from '../../formats/nwn2/aswm-geometry';
import { ModelMappingError } from '../../model/model-mapping-error';
import { mergeFlatRegions, type FlatMergeStats } from './flat-merge';
import { PLACEABLE_SOURCE, SurfaceBuilder, type TrnSurface } from './trn-surface';
import { nwn2TileName } from '../../formats/nwn2/tile-name';

export interface TileGrid {
  gridWidth: number;
  gridHeight: number;
  /** Tile edge in metres. */
  tileWidth: number;
}

export interface RetileReport {
  /** Triangles whose centre fell outside the tile grid (dropped). */
  outsideGrid: number;
  /** The most walkable triangles a tile may hold (127, the toolset's maximum). */
  budget: number;
  /**
   * The flat regions the cut and the placeables changed, merged and re-triangulated with
   * as few triangles as their outlines allow (flat-merge.ts), as the toolset does around
   * its cuts.
   */
  merged: FlatMergeStats;
  /** Tiles still over the budget after that, whose flat regions (and their neighbours') were all merged, as findings name tiles. */
  simplifiedTiles: string[];
  /** Walkable triangles saved by both merges. */
  trianglesSaved: number;
  /** The largest number of walkable triangles left in one tile. */
  maxWalkablePerTile: number;
  /** The fullest tiles (most walkable triangles first, at most FULLEST_TILES). */
  fullestTiles: TileFill[];
}

export interface TileFill {
  tile: number;
  column: number;
  row: number;
  walkable: number;
}

/** How many of the fullest tiles the report lists. */
export const FULLEST_TILES = 5;

/** What the refusal message names in an overflowing tile. */
export interface TileOccupants {
  /** The GIT's walkmesh cutters: their index in the TriggerList and x/y bounds. */
  cutters: readonly { index: number; bounds: readonly [number, number, number, number] }[];
  /**
   * The name of what a triangle's `source` (PLACEABLE_SOURCE set) came from, e.g.
   * "placeable #3 (PLC_MC_BALCONY3)" or "door #2"; default "placeable #index".
   */
  describeSource?: (source: number) => string;
}

export interface RetileOptions {
  /** Most walkable triangles per tile (default 127). */
  maxWalkable?: number;
  /** Per input triangle: made or changed by a cut or a placeable (its flat region is merged). */
  changed?: Uint8Array;
  /** Straightness tolerance of the merge (m, default 1 mm). */
  straightTolerance?: number;
  occupants?: TileOccupants;
}

/**
 * Makes the surface fit NWN2's tiles (spec §4.3, §12): positions rounded to float32 (what
 * the file stores, so the tile of a triangle is decided on the values the game reads),
 * each triangle in the tile whose square holds its centre (the toolset's float32 centre),
 * and at most 127 walkable triangles per tile.
 *
 * The flat regions holding a `changed` triangle are merged into polygons and
 * re-triangulated (flat-merge.ts); regions nothing changed stay as the TRN has them, as
 * the toolset keeps untouched triangles (spec §5.3). A tile still over the limit then has
 * every flat region merged, its own and its eight neighbours' (so that the vertices they
 * share along the tile's border can go too). A triangulation of a polygon with n corners
 * and h holes has n + 2h − 2 triangles whatever it looks like, and the merge keeps only
 * the corners some neighbour needs, so a tile still over the limit cannot fit at all with
 * those polygons: it is refused with a ModelMappingError naming the tile, its count and
 * the cutters and placeables in it.
 *
 * The grouping per tile in row-major order is done when the ASWM is built
 * (rebuildTopology sorts by the same centres).
 */
export function retile(input: TrnSurface, grid: TileGrid, options: RetileOptions | number = {}): { surface: TrnSurface; report: RetileReport } {
  const o: RetileOptions = typeof options === 'number' ? { maxWalkable: options } : options;
  const maxWalkable = o.maxWalkable ?? MAX_TILE_NODES;
  let s = roundToFloat32(input);
  let changed = o.changed;
  const report: RetileReport = {
    outsideGrid: 0,
    budget: maxWalkable,
    merged: { regions: 0, trianglesBefore: 0, trianglesAfter: 0, droppedVertices: 0, failedRegions: 0 },
    simplifiedTiles: [],
    trianglesSaved: 0,
    maxWalkablePerTile: 0,
    fullestTiles: [],
  };
  let tiles = assignTiles(s, grid);
  if (tiles.outside > 0) {
    report.outsideGrid = tiles.outside;
    const keep = tiles.tileOf;
    const b = new SurfaceBuilder(s.positions, s.flags.length);
    const kept: number[] = [];
    for (let t = 0; t < s.flags.length; t++) {
      if (keep[t] === NO_TILE) continue;
      b.copyTriangle(s, t);
      kept.push(t);
    }
    s = b.finish();
    if (changed) changed = Uint8Array.from(kept, (t) => changed![t]!);
    tiles = assignTiles(s, grid);
  }
  const straightTolerance = o.straightTolerance;
  if (changed) {
    // The merge adds no vertex, so the positions stay float32.
    const r = mergeFlatRegions(s, tiles.tileOf, { eligible: changed, ...(straightTolerance !== undefined ? { straightTolerance } : {}) });
    s = r.surface;
    report.merged = r.stats;
    report.trianglesSaved += r.stats.trianglesBefore - r.stats.trianglesAfter;
    tiles = assignTiles(s, grid);
  }
  const simplified = new Set<number>();
  for (let pass = 0; pass < 4; pass++) {
    const over = overflowing(tiles.walkable, maxWalkable);
    if (over.length === 0) break;
    const eligible = new Uint8Array(s.flags.length);
    const wanted = new Uint8Array(tiles.walkable.length);
    for (const k of over) {
      const tx = k % grid.gridWidth;
      const ty = Math.floor(k / grid.gridWidth);
      for (let y = Math.max(0, ty - 1); y <= Math.min(grid.gridHeight - 1, ty + 1); y++) {
        for (let x = Math.max(0, tx - 1); x <= Math.min(grid.gridWidth - 1, tx + 1); x++) wanted[y * grid.gridWidth + x] = 1;
      }
    }
    for (let t = 0; t < s.flags.length; t++) if (wanted[tiles.tileOf[t]!]) eligible[t] = 1;
    const r = mergeFlatRegions(s, tiles.tileOf, { eligible, ...(straightTolerance !== undefined ? { straightTolerance } : {}) });
    const saved = r.stats.trianglesBefore - r.stats.trianglesAfter;
    if (saved <= 0) break;
    s = r.surface;
    for (const k of over) simplified.add(k);
    report.trianglesSaved += saved;
    tiles = assignTiles(s, grid);
  }
  report.simplifiedTiles = [...simplified].sort((a, b) => a - b).map((k) => tileLabel(k, grid.gridWidth));
  const over = overflowing(tiles.walkable, maxWalkable);
  if (over.length > 0) throw new ModelMappingError(overflowMessage(s, tiles, over, grid, maxWalkable, o.occupants));
  report.maxWalkablePerTile = tiles.walkable.reduce((m, n) => Math.max(m, n), 0);
  report.fullestTiles = fullest(tiles.walkable, grid.gridWidth);
  return { surface: s, report };
}

/** The refusal: each tile over the limit with its count and what lies in it. */
function overflowMessage(s: TrnSurface, tiles: { tileOf: Uint32Array; walkable: Uint32Array }, over: readonly number[], grid: TileGrid, max: number, occupants: TileOccupants | undefined): string {
  const w = grid.tileWidth;
  const parts = over.map((k) => {
    const tx = k % grid.gridWidth;
    const ty = Math.floor(k / grid.gridWidth);
    const x0 = tx * w, y0 = ty * w, x1 = x0 + w, y1 = y0 + w;
    const cutters = (occupants?.cutters ?? []).filter((c) => c.bounds[2] >= x0 && c.bounds[0] <= x1 && c.bounds[3] >= y0 && c.bounds[1] <= y1).map((c) => `#${c.index}`);
    const sources = new Set<number>();
    for (let t = 0; t < s.flags.length; t++) if (tiles.tileOf[t] === k && s.source[t]! & PLACEABLE_SOURCE) sources.add(s.source[t]!);
    const describe = occupants?.describeSource ?? ((src: number) => `placeable #${(src & ~PLACEABLE_SOURCE) >>> 0}`);
    const named = [...sources].sort((a, b) => a - b).map(describe);
    const inIt = [cutters.length > 0 ? `walkmesh cutters ${cutters.join(', ')}` : 'no walkmesh cutter', named.length > 0 ? named.join(', ') : 'no placeable or door walkmesh'].join(' and ');
    return `${tileLabel(k, grid.gridWidth)} holds ${tiles.walkable[k]} walkable triangles (${inIt} in it)`;
  });
  return (
    `${parts.join('; ')}: a tile holds at most ${max} walkable triangles, and these are already as few as its flat areas allow ` +
    '(merged into polygons, a triangulation of n corners and h holes always has n + 2h − 2 triangles); remove or simplify walkmesh cutters or placeables there, or paint part of it unwalkable'
  );
}

function fullest(walkable: Uint32Array, gridWidth: number): TileFill[] {
  const order: number[] = [];
  for (let k = 0; k < walkable.length; k++) if (walkable[k]! > 0) order.push(k);
  order.sort((a, b) => walkable[b]! - walkable[a]! || a - b);
  return order.slice(0, FULLEST_TILES).map((k) => ({ tile: k, column: k % gridWidth, row: Math.floor(k / gridWidth), walkable: walkable[k]! }));
}

export const NO_TILE = 0xffffffff;

/** "tile x,y" (column, row), as the ASWM validator's findings and the viewport name tiles. */
export function tileLabel(k: number, gridWidth: number): string {
  return nwn2TileName(k, gridWidth);
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

