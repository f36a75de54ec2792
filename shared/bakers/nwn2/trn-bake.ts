import type { GffDocument } from '../../formats/aurora/gff-document';
import { readGitDoors, readGitPlaceables, readGitWalkmeshCutters, type GitDoor } from '../../formats/aurora/nwn2-git';
import {
  ASWM_CURRENT_VERSION,
  bitsOfFloat,
  emptyTiles,
  floatOfBits,
  TILES_FLAGS_TRX,
  TriangleFlag,
  type AswmDocument,
} from '../../formats/nwn2/aswm-document';
import { rebuildTopology } from '../../formats/nwn2/aswm-topology';
import { convertAswmVersion } from '../../formats/nwn2/aswm-version';
import { aswmPacketOf, type AswmPacket, type TrxDocument } from '../../formats/nwn2/trx-document';
import { ringsBounds, triangleMinAltitude } from '../../geometry/polygon';
import { overlappingTriangles } from '../../geometry/triangle-overlap';
import { ModelMappingError } from '../../model/model-mapping-error';
import { floatsOfBits, requireFinite, requireFiniteVertices } from '../non-finite-geometry';
import { removeBorder } from './border-removal';
import { applyDoors, DOOR_SOURCE, type DoorModelLookup, type DoorReport } from './door-walkmesh';
import { applyPlaceables, type PlaceableModel, type PlaceableStats, type PlacedModel } from './placeable-walkmesh';
import { retile, type RetileReport } from './retile';
import { dropUnusedVertices, PLACEABLE_SOURCE, surfaceArea, surfaceFromAswm, type TrnSurface } from './trn-surface';
import type { TileTableCache } from './tile-table-reuse';
import { rebakeAswm, type BakeCounts, type BakeTimings } from './trx-rebake';
import { toTrxWinding } from './trx-winding';
import { cutSurface, DEFAULT_CUT_SNAP, type CutStats } from './walkmesh-cutter';

/** Smallest altitude (m) below which a triangle counts as a sliver in the bake report. */
export const SLIVER_ALTITUDE = 0.001;

export interface TrnBakeOptions {
  /** Apply the GIT's walkmesh cutters (default true). */
  cutters?: boolean;
  /** Apply the placeables' walkmeshes (default true; needs `placeableModels`). */
  placeables?: boolean;
  /** Apply the doors' walkmeshes (default true; needs `doorModels`). */
  doors?: boolean;
  /** Remove an exterior's border tiles (default true; interiors have none). */
  removeBorders?: boolean;
  /** Snap distance of cuts, metres (default 5 mm). */
  snap?: number;
  /** Height (m) within which a placeable's outline joins the ground (default 0.5). */
  stepHeight?: number;
  /**
   * Merge the flat regions the cut and the placeables changed and re-triangulate them with
   * as few triangles as their outlines allow (default true; retile.ts, flat-merge.ts). A
   * tile over the limit is merged whole either way.
   */
  mergeFlatRegions?: boolean;
  /** Most walkable triangles per tile (default 127, the toolset's maximum). */
  maxWalkablePerTile?: number;
  /** Set line-of-sight bits in the tile path tables (default true). */
  lineOfSight?: boolean;
  /** A clock in milliseconds (default performance.now). */
  now?: () => number;
  /** The tables of an earlier bake of this area, for its unchanged tiles (trx-rebake.ts BakeOptions). */
  tileCache?: TileTableCache;
  /** Also return this bake's tables as a cache for the next bake. */
  keepTileCache?: boolean;
}

export interface TrnBakeInput {
  /** The TRN (or a TRX to bake again). */
  trn: TrxDocument;
  /** The area's GIT: walkmesh cutters (`TriggerList` type 3) and placeables. */
  git: GffDocument;
  /**
   * The model of a placeables.2da row (`Appearance`), or undefined when it cannot be found
   * (the placeable is then left out and listed in the report).
   */
  placeableModels?: (appearance: number) => PlaceableModel | undefined;
  /**
   * A door's 2DA row and model (door-walkmesh.ts), or undefined when there is no lookup
   * (the door is then listed in the report as having no model).
   */
  doorModels?: (door: GitDoor) => DoorModelLookup | undefined;
  options?: TrnBakeOptions;
}

export interface SurfaceFigures {
  vertices: number;
  triangles: number;
  walkableTriangles: number;
  /** Walkable area seen from above, m². */
  walkableArea: number;
}

export interface TrnBakeReport {
  input: SurfaceFigures;
  border: { size: number; removedTriangles: number };
  placeables: {
    inGit: number;
    /** IsWalkable = 1: creatures walk through them; not baked. */
    skippedWalkable: number[];
    /** No model found for their Appearance (or no model lookup given). */
    missingModel: { index: number; appearance: number }[];
    /** The model has no WALK packet. */
    noWalkmesh: { index: number; model: string }[];
    stats: PlaceableStats | null;
  };
  /** The GIT's `Door List` (door-walkmesh.ts): applied after the placeables. */
  doors: DoorReport;
  cutters: { inGit: number; stats: CutStats | null };
  retile: RetileReport;
  /** Triangles whose smallest altitude is below SLIVER_ALTITUDE, and the smallest altitude found. */
  slivers: { threshold: number; count: number; minAltitude: number };
  /** Pairs of triangles overlapping seen from above by more than 1 mm² (0 for a 2.5-D surface), and their shared area (m²). */
  overlaps: { pairs: number; area: number };
  output: SurfaceFigures & { edges: number; islands: number };
  tables: BakeCounts;
  /** Milliseconds per step; `checks` measures the sliver and overlap figures of this report. */
  timings: { border: number; placeables: number; cutters: number; retile: number; topology: number; tables: BakeTimings; checks: number; total: number };
}

export interface TrnBakeResult {
  /** The TRN's packets with the baked walkmesh in place of its ASWM (write with writeTrx). */
  trx: TrxDocument;
  aswm: AswmDocument;
  report: TrnBakeReport;
  /** With `keepTileCache`: the tables, for the next bake of the area. */
  tileCache?: TileTableCache;
}

const platformClock = (globalThis as { performance?: { now(): number } }).performance;
const defaultClock = platformClock ? () => platformClock.now() : () => Date.now();

/**
 * The full bake of a TRN with its GIT into a TRX (spec §4.5, §5): border removal
 * (exteriors), placeable walkmeshes, walkmesh cutters, re-tiling (every triangle in the
 * tile holding its centre, grouped per tile in row-major order, at most 127 walkable per
 * tile), TRX winding (clockwise, flag 0x04, tiles flags 31, tile sizes 0), then the
 * tables (edges, links, tile path tables, islands, island paths: trx-rebake.ts).
 *
 * Throws ModelMappingError when the result cannot be stored (a tile over the walkable
 * limit that cannot be re-triangulated below it, a triangle outside the grid…), and for
 * inputs that are not finite (non-finite-geometry.ts): a TRN vertex, a cutter point, a
 * placeable's position, bearing or scale, or a vertex of its model's walkmesh.
 */
export function bakeTrn(input: TrnBakeInput): TrnBakeResult {
  const o = input.options ?? {};
  const now = o.now ?? defaultClock;
  const snap = o.snap ?? DEFAULT_CUT_SNAP;
  const t0 = now();
  const packet = aswmPacketOf(input.trn);
  if (!packet) throw new ModelMappingError('the TRN has no ASWM walkmesh packet to bake');
  const source = packet.aswm.version === ASWM_CURRENT_VERSION ? packet.aswm : convertAswmVersion(packet.aswm, ASWM_CURRENT_VERSION);
  const tileWidth = floatOfBits(source.tileWidth);
  const grid = { gridWidth: source.gridWidth, gridHeight: source.gridHeight, tileWidth };
  const gridBounds = [0, 0, source.gridWidth * tileWidth, source.gridHeight * tileWidth] as const;
  requireFiniteVertices(floatsOfBits(source.vertices), 'the TRN walkmesh');

  const trnSurface = surfaceFromAswm(source);
  let s = trnSurface;
  const inputFigures = figures(s);

  const border = o.removeBorders === false ? { surface: s, removed: 0 } : removeBorder(s, { ...grid, borderSize: source.borderSize });
  s = border.surface;
  const t1 = now();

  const allPlaceables = readGitPlaceables(input.git);
  const placeableReport: TrnBakeReport['placeables'] = { inGit: allPlaceables.length, skippedWalkable: [], missingModel: [], noWalkmesh: [], stats: null };
  if (o.placeables !== false) {
    const placed: PlacedModel[] = [];
    for (const pl of allPlaceables) {
      if (pl.isWalkable) {
        placeableReport.skippedWalkable.push(pl.index);
        continue;
      }
      const model = input.placeableModels?.(pl.appearance);
      if (!model) placeableReport.missingModel.push({ index: pl.index, appearance: pl.appearance });
      else if (model.walkmeshes.length === 0) placeableReport.noWalkmesh.push({ index: pl.index, model: model.name });
      else {
        requireFiniteGitPlaceable(pl);
        for (const w of model.walkmeshes) requireFiniteVertices(w.positions, `placeable #${pl.index} (model ${model.name}), walkmesh ${w.name}`);
        placed.push({ placeable: pl, model });
      }
    }
    if (placed.length > 0) {
      const r = applyPlaceables(s, placed, { snap, stepHeight: o.stepHeight, bounds: gridBounds });
      s = r.surface;
      placeableReport.stats = r.stats;
    }
  }
  const doors = readGitDoors(input.git);
  const doorStep = applyDoors(s, o.doors === false ? [] : doors, input.doorModels, { snap, stepHeight: o.stepHeight, bounds: gridBounds });
  s = doorStep.surface;
  const doorReport: DoorReport = { ...doorStep.report, inGit: doors.length };
  const t2 = now();

  const cutters = readGitWalkmeshCutters(input.git);
  let cutStats: CutStats | null = null;
  if (o.cutters !== false) for (const c of cutters) requireFinite(c.polygon, 2, `walkmesh cutter #${c.index} of the GIT (TriggerList)`, 'point');
  if (o.cutters !== false && cutters.length > 0) {
    const r = cutSurface(s, cutters.map((c) => ({ rings: [c.polygon] })), { snap });
    s = r.surface;
    cutStats = r.stats;
  }
  const t3 = now();

  s = dropUnusedVertices(s);
  const tiled = retile(s, grid, {
    ...(o.maxWalkablePerTile !== undefined ? { maxWalkable: o.maxWalkablePerTile } : {}),
    ...(o.mergeFlatRegions === false ? {} : { changed: changedTriangles(s, trnSurface) }),
    occupants: { cutters: cutters.map((c) => ({ index: c.index, bounds: ringsBounds([c.polygon]) })), describeSource: sourceNamer(placeableReport.stats, doorReport.stats) },
  });
  s = dropUnusedVertices(tiled.surface);
  const t4 = now();

  const assembled = assembleTrxAswm(source, s);
  const t5 = now();
  const baked = rebakeAswm(assembled, { lineOfSight: o.lineOfSight, now, ...(o.tileCache ? { tileCache: o.tileCache } : {}), ...(o.keepTileCache ? { keepTileCache: true } : {}) });
  const t6 = now();

  const trx: TrxDocument = {
    versionMajor: input.trn.versionMajor,
    versionMinor: input.trn.versionMinor,
    irregularLayout: null,
    packets: input.trn.packets.map((p) => (p === packet ? bakedPacket(packet, baked.aswm) : p)),
  };
  const out = figures(s);
  const slivers = sliversOf(s);
  const overlaps = overlapsOf(s);
  const t7 = now();
  const report: TrnBakeReport = {
    input: inputFigures,
    border: { size: source.borderSize, removedTriangles: border.removed },
    placeables: placeableReport,
    doors: doorReport,
    cutters: { inGit: cutters.length, stats: cutStats },
    retile: tiled.report,
    slivers,
    overlaps,
    output: { ...out, edges: baked.counts.edges, islands: baked.counts.islands },
    tables: baked.counts,
    timings: { border: t1 - t0, placeables: t2 - t1, cutters: t3 - t2, retile: t4 - t3, topology: t5 - t4, tables: baked.timings, checks: t7 - t6, total: t7 - t0 },
  };
  return { trx, aswm: baked.aswm, report, ...(baked.tileCache ? { tileCache: baked.tileCache } : {}) };
}

/**
 * Per triangle: 1 when a cut or a placeable made or changed it (a placeable's face, or a
 * TRN triangle whose corners moved or were split), 0 when it is the TRN's triangle as it was.
 */
function changedTriangles(s: TrnSurface, trn: TrnSurface): Uint8Array {
  const out = new Uint8Array(s.flags.length);
  const p = s.positions;
  const q = trn.positions;
  for (let t = 0; t < s.flags.length; t++) {
    const src = s.source[t]!;
    if (src & PLACEABLE_SOURCE || src >= trn.flags.length || s.flags[t] !== trn.flags[src]) {
      out[t] = 1;
      continue;
    }
    for (let c = 0; c < 3 && !out[t]; c++) {
      const a = s.triangles[t * 3 + c]! * 3;
      const b = trn.triangles[src * 3 + c]! * 3;
      if (p[a] !== q[b] || p[a + 1] !== q[b + 1] || p[a + 2] !== q[b + 2]) out[t] = 1;
    }
  }
  return out;
}

/** Names a placeable's or a door's triangles for a refusal message: "placeable #3 (PLC_MC_BALCONY3)", "door #2 (…)". */
function sourceNamer(placeables: PlaceableStats | null, doors: PlaceableStats | null): (source: number) => string {
  const placeableModels = new Map((placeables?.applied ?? []).map((a) => [a.index, a.model]));
  const doorModels = new Map((doors?.applied ?? []).map((a) => [a.index, a.model]));
  return (source) => {
    const isDoor = (source & DOOR_SOURCE) >>> 0 === DOOR_SOURCE;
    const index = (source & ~DOOR_SOURCE) >>> 0;
    const model = (isDoor ? doorModels : placeableModels).get(index);
    return `${isDoor ? 'door' : 'placeable'} #${index}${model ? ` (${model})` : ''}`;
  };
}

function figures(s: TrnSurface): SurfaceFigures {
  let walkable = 0;
  for (let t = 0; t < s.flags.length; t++) if (s.flags[t]! & TriangleFlag.walkable) walkable++;
  return { vertices: s.positions.length / 3, triangles: s.flags.length, walkableTriangles: walkable, walkableArea: surfaceArea(s) };
}

function overlapsOf(s: TrnSurface): TrnBakeReport['overlaps'] {
  const pairs = overlappingTriangles(s.positions, s.triangles, 1e-6);
  return { pairs: pairs.length, area: pairs.reduce((sum, p) => sum + p.area, 0) };
}

function sliversOf(s: TrnSurface): TrnBakeReport['slivers'] {
  const p = s.positions;
  let count = 0;
  let min = Infinity;
  for (let t = 0; t < s.flags.length; t++) {
    const a = s.triangles[t * 3]! * 3, b = s.triangles[t * 3 + 1]! * 3, c = s.triangles[t * 3 + 2]! * 3;
    const h = triangleMinAltitude(p[a]!, p[a + 1]!, p[b]!, p[b + 1]!, p[c]!, p[c + 1]!);
    if (h < SLIVER_ALTITUDE) count++;
    if (h < min) min = h;
  }
  return { threshold: SLIVER_ALTITUDE, count, minAltitude: min === Infinity ? 0 : min };
}

/**
 * The ASWM of the final surface, TRX-style: float32 vertices, clockwise triangles with
 * flag 0x04 (trx-winding.ts), tiles flags 31 and tile sizes 0, everything the geometry
 * decides rebuilt (rebuildTopology: tiles by centre in row-major order, edges, links,
 * centres, normals, dot values). The tables are left for the re-bake.
 */
export function assembleTrxAswm(source: AswmDocument, s: TrnSurface): AswmDocument {
  const V = s.positions.length / 3;
  const vertices = new Uint32Array(V * 3);
  for (let i = 0; i < V * 3; i++) vertices[i] = bitsOfFloat(s.positions[i]!);
  const wound = toTrxWinding(s.positions, s.triangles, s.flags);
  const tiles = emptyTiles(source.tiles.count);
  tiles.name.set(source.tiles.name);
  const draft: AswmDocument = {
    ...source,
    vertices,
    triVertices: wound.triangles,
    triFlags: wound.flags,
    tilesFlags: TILES_FLAGS_TRX,
    tiles,
  };
  return rebuildTopology(draft, { tileSizes: 'zero' });
}

function bakedPacket(p: AswmPacket, aswm: AswmDocument): AswmPacket {
  return { kind: 'aswm', type: p.type, payload: new Uint8Array(0), aswm, compressed: true, inflated: new Uint8Array(0) };
}

/** A placed placeable's position, bearing and scale must be finite numbers. */
function requireFiniteGitPlaceable(pl: ReturnType<typeof readGitPlaceables>[number]): void {
  const values = [pl.x, pl.y, pl.z, pl.bearing, pl.scale.x, pl.scale.y, pl.scale.z];
  if (values.every(Number.isFinite)) return;
  throw new ModelMappingError(
    `the GIT (Placeable List): placeable #${pl.index} is at (${pl.x}, ${pl.y}, ${pl.z}) with bearing ${pl.bearing} and scale (${pl.scale.x}, ${pl.scale.y}, ${pl.scale.z}); ` +
      'a bake needs finite numbers (NaN and infinities are refused): fix or remove it',
  );
}
