import { readdirSync } from 'node:fs';
import path from 'node:path';
import polygonClipping from 'polygon-clipping';
import { portableEnvironment } from '../../../shared/formats/format-environment';
import { createGffDocument, createGffStruct, type GffDocument, type GffStruct } from '../../../shared/formats/aurora/gff-document';
import { gff, optList, setField } from '../../../shared/formats/aurora/gff-fields';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { readGitWalkmeshCutters, TRIGGER_TYPE_WALKMESH_CUTTER } from '../../../shared/formats/aurora/nwn2-git';
import {
  bitsOfFloat,
  emptyIslandPaths,
  emptyIslands,
  emptyTiles,
  floatOfBits,
  floatView,
  NONE16,
  TILES_FLAGS_TRN,
  TriangleFlag,
  type AswmDocument,
} from '../../../shared/formats/nwn2/aswm-document';
import { rebuildTopology } from '../../../shared/formats/nwn2/aswm-topology';
import { aswmPacketOf, type TrxDocument } from '../../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { validateTrx } from '../../../shared/formats/nwn2/trx-validate';
import { pointInRing } from '../../../shared/geometry/polygon';
import type { TrnBakeComparison } from '../../../shared/bakers/nwn2/trn-bake-compare';
import type { TrnBakeReport } from '../../../shared/bakers/nwn2/trn-bake';
import { fixturesRoot, readFixture } from '../../support/fixtures';

export const env = portableEnvironment;
export const nwn2Fixtures = path.join(fixturesRoot, 'nwn2');
export const mordDir = path.join(nwn2Fixtures, 'mordmansion');
export const kaedrinDir = path.join(nwn2Fixtures, 'kaedrin');
export const libdDir = path.join(nwn2Fixtures, 'nwn-lib-d');
export const twoDaDir = path.join(nwn2Fixtures, '2da');

/** The file `base.ext` in `dir`, whatever the case of its extension (the fixtures mix .TRN and .trn). */
export function areaFile(dir: string, base: string, ext: string): string {
  const want = `${base}.${ext}`.toLowerCase();
  const name = readdirSync(dir).find((n) => n.toLowerCase() === want);
  if (!name) throw new Error(`no ${base}.${ext} in ${dir}`);
  return path.join(dir, name);
}

export interface Area {
  name: string;
  trnFile: string;
  gitFile: string;
  trn: TrxDocument;
  git: GffDocument;
  /** The toolset's TRX of the same area. */
  trx: TrxDocument;
}

export function loadArea(dir: string, base: string): Area {
  const trnFile = areaFile(dir, base, 'trn');
  const gitFile = areaFile(dir, base, 'git');
  return {
    name: base,
    trnFile,
    gitFile,
    trn: readTrx(readFixture(trnFile), env),
    git: readGff(readFixture(gitFile)),
    trx: readTrx(readFixture(areaFile(dir, base, 'trx')), env),
  };
}

/** The five Kaedrin areas that come with TRN, TRX, GIT and ARE. */
export const kaedrinAreas = ['db_templemaiden_int', 'enter world', 'fh_settlement', "harper's hill cave", 'md_fancy fox fashions_rlg'] as const;

export function aswmOf(doc: TrxDocument): AswmDocument {
  const p = aswmPacketOf(doc);
  if (!p) throw new Error('no ASWM packet');
  return p.aswm;
}

export function errorsOf(doc: TrxDocument): string[] {
  return validateTrx(doc)
    .filter((f) => f.severity === 'error')
    .map((f) => `${f.code}: ${f.message}`);
}

function ringOf(polygon: Float64Array): polygonClipping.Ring {
  const ring: polygonClipping.Ring = [];
  for (let i = 0; i + 1 < polygon.length; i += 2) ring.push([polygon[i]!, polygon[i + 1]!]);
  return ring;
}

function multiArea(mp: polygonClipping.MultiPolygon): number {
  let s = 0;
  for (const poly of mp) {
    poly.forEach((ring, r) => {
      let a = 0;
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1];
      s += (Math.abs(a) / 2) * (r === 0 ? 1 : -1);
    });
  }
  return s;
}

/**
 * The TRN's walkable area outside every cutter, computed independently of the bake with
 * the polygon-clipping library: each walkable triangle minus the cutters whose bounds it
 * meets (the others count whole).
 */
export function walkableAreaOutsideCutters(trn: AswmDocument, git: GffDocument): number {
  const cutters = readGitWalkmeshCutters(git)
    .filter((c) => c.polygon.length >= 6)
    .map((c) => {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let i = 0; i < c.polygon.length; i += 2) {
        x0 = Math.min(x0, c.polygon[i]!);
        x1 = Math.max(x1, c.polygon[i]!);
        y0 = Math.min(y0, c.polygon[i + 1]!);
        y1 = Math.max(y1, c.polygon[i + 1]!);
      }
      return { ring: ringOf(c.polygon), x0, y0, x1, y1 };
    });
  const p = floatView(trn.vertices);
  let sum = 0;
  for (let t = 0; t < trn.triFlags.length; t++) {
    if (!(trn.triFlags[t]! & TriangleFlag.walkable)) continue;
    const tri: polygonClipping.Ring = [0, 1, 2].map((k) => {
      const v = trn.triVertices[t * 3 + k]! * 3;
      return [p[v]!, p[v + 1]!] as polygonClipping.Pair;
    });
    const bx0 = Math.min(tri[0]![0], tri[1]![0], tri[2]![0]);
    const bx1 = Math.max(tri[0]![0], tri[1]![0], tri[2]![0]);
    const by0 = Math.min(tri[0]![1], tri[1]![1], tri[2]![1]);
    const by1 = Math.max(tri[0]![1], tri[1]![1], tri[2]![1]);
    const near = cutters.filter((c) => bx1 >= c.x0 && bx0 <= c.x1 && by1 >= c.y0 && by0 <= c.y1).map((c): polygonClipping.Polygon => [c.ring]);
    sum += near.length === 0 ? multiArea([[tri]]) : multiArea(polygonClipping.difference([tri], ...near));
  }
  return sum;
}

/** True when (x, y) lies inside a cutter of the GIT (even–odd, as the toolset tests it). */
export function insideCutter(cutters: { polygon: Float64Array }[], x: number, y: number): boolean {
  return cutters.some((c) => pointInRing(c.polygon, x, y));
}

/** Centres of the triangles (the stored float32 values). */
export function centres(a: AswmDocument): Float32Array {
  return floatView(a.triCentre);
}

/** One line of figures per area for the test output. */
export function describeBake(name: string, report: TrnBakeReport, c: TrnBakeComparison | undefined): string {
  const lines = [
    `${name}: ${report.input.triangles} TRN triangles → ${report.output.triangles} (${report.output.walkableTriangles} walkable), ${report.output.islands} islands, bake ${report.timings.total.toFixed(0)} ms`,
  ];
  if (c) {
    lines.push(
      `  vs toolset TRX: walkable area ${c.walkableArea.baked.toFixed(2)} / ${c.walkableArea.reference.toFixed(2)} m² (ratio ${c.walkableArea.ratio.toFixed(4)}), ` +
        `triangles ${c.triangles.baked} / ${c.triangles.reference}, walkable ${c.walkableTriangles.baked} / ${c.walkableTriangles.reference}, islands ${c.islands.baked} / ${c.islands.reference}`,
      `  pointReachability ${c.agreement.pointReachability.toFixed(4)} over ${c.agreement.details.pairs} pairs (${c.agreement.details.leftOut} pairs on the reference's placeable surfaces left out)` +
        (c.agreement.allPairs ? `; all pairs ${c.agreement.allPairs.agreement.toFixed(4)}` : ''),
    );
  }
  return lines.join('\n');
}

export interface SyntheticTerrain {
  /** Tiles per side of the whole grid. */
  grid: number;
  /** Tile edge (m). */
  tileWidth: number;
  /** Border tiles per side (0 for interiors). */
  border: number;
  /** Terrain cells per tile edge. */
  cellsPerTile: number;
  /** Height of the terrain at (x, y). */
  height?: (x: number, y: number) => number;
  /** Flags of the cell at (column, row); default: walkable dirt inside the border, unwalkable in it. */
  flags?: (cx: number, cy: number, inBorder: boolean) => number;
  /** TRWH size (default: grid for interiors, (grid)/4 for exteriors). */
  trwh?: number;
}

/**
 * A TRN built from a regular terrain grid, as the toolset makes exteriors (spec §4.6: 6
 * cells per 10 m tile, an 8-tile border, grid = area size + 16) or interiors: vertices in
 * rows, two counter-clockwise triangles per cell, border triangles unwalkable with island
 * 0xFFFF, tiles flags 15, tiled by rebuildTopology.
 */
export function syntheticTrn(t: SyntheticTerrain): TrxDocument {
  const cells = t.grid * t.cellsPerTile;
  const step = t.tileWidth / t.cellsPerTile;
  const height = t.height ?? (() => 0);
  const vertices = new Uint32Array((cells + 1) * (cells + 1) * 3);
  for (let y = 0; y <= cells; y++) {
    for (let x = 0; x <= cells; x++) {
      const i = (y * (cells + 1) + x) * 3;
      vertices[i] = bitsOfFloat(x * step);
      vertices[i + 1] = bitsOfFloat(y * step);
      vertices[i + 2] = bitsOfFloat(height(x * step, y * step));
    }
  }
  const tri: number[] = [];
  const flags: number[] = [];
  const lo = t.border * t.cellsPerTile;
  const hi = cells - lo;
  for (let y = 0; y < cells; y++) {
    for (let x = 0; x < cells; x++) {
      const v = y * (cells + 1) + x;
      const inBorder = x < lo || x >= hi || y < lo || y >= hi;
      const f = t.flags ? t.flags(x, y, inBorder) : inBorder ? 0 : TriangleFlag.walkable | TriangleFlag.dirt;
      tri.push(v, v + 1, v + cells + 2, v, v + cells + 2, v + cells + 1);
      flags.push(f, f);
    }
  }
  const count = t.grid * t.grid;
  const draft: AswmDocument = {
    version: 0x6c,
    name: new Uint8Array(32),
    ownsData: 1,
    faceOffset: 0,
    vertices,
    edges: new Uint32Array(0),
    edgeReserved: new Uint32Array(0),
    triVertices: Uint32Array.from(tri),
    triEdges: new Uint32Array(0),
    triLinks: new Uint32Array(0),
    triCentre: new Uint32Array(0),
    triNormal: new Uint32Array(0),
    triDot: new Uint32Array(0),
    triIsland: new Uint16Array(flags.length).fill(NONE16),
    triFlags: Uint16Array.from(flags),
    triReserved: new Uint32Array(0),
    tilesFlags: TILES_FLAGS_TRN,
    tileWidth: bitsOfFloat(t.tileWidth),
    gridWidth: t.grid,
    gridHeight: t.grid,
    tiles: emptyTiles(count),
    borderSize: t.border,
    islands: emptyIslands(),
    islandPaths: emptyIslandPaths(),
    trailing: new Uint8Array(0),
    bakeStale: false,
  };
  const aswm = { ...rebuildTopology(draft, { tileSizes: 'width' }), bakeStale: false };
  const size = t.trwh ?? (t.border > 0 ? t.grid / 4 : t.grid);
  return {
    versionMajor: 2,
    versionMinor: 3,
    irregularLayout: null,
    packets: [
      { kind: 'trwh', type: 'TRWH', payload: new Uint8Array(0), trwh: { width: size, height: size, id: 0 } },
      { kind: 'aswm', type: 'ASWM', payload: new Uint8Array(0), aswm, compressed: true, inflated: new Uint8Array(0) },
    ],
  };
}

export function tileWidthOf(a: AswmDocument): number {
  return floatOfBits(a.tileWidth);
}

/** A walkmesh cutter trigger (TriggerList struct 1, Type 3) for a polygon given in world x/y. */
export function cutterStruct(polygon: readonly (readonly [number, number])[]): GffStruct {
  const [x0, y0] = polygon[0]!;
  return createGffStruct(1, [
    gff.int('Type', TRIGGER_TYPE_WALKMESH_CUTTER),
    gff.resRef('TemplateResRef', 'walkmeshcutter'),
    gff.float('XPosition', x0),
    gff.float('YPosition', y0),
    gff.float('ZPosition', 0),
    gff.list(
      'Geometry',
      polygon.map(([x, y]) => createGffStruct(3, [gff.float('PointX', x - x0), gff.float('PointY', y - y0), gff.float('PointZ', 0)])),
    ),
  ]);
}

export interface PlaceableSpec {
  appearance: number;
  x: number;
  y: number;
  z?: number;
  bearing?: number;
  scale?: number;
  isWalkable?: boolean;
}

/** A `Placeable List` struct (id 9) with the fields the bake reads. */
export function placeableStruct(p: PlaceableSpec): GffStruct {
  const s = p.scale ?? 1;
  return createGffStruct(9, [
    gff.dword('Appearance', p.appearance),
    gff.float('X', p.x),
    gff.float('Y', p.y),
    gff.float('Z', p.z ?? 0),
    gff.float('Bearing', p.bearing ?? 0),
    gff.byte('IsWalkable', p.isWalkable ? 1 : 0),
    gff.byte('Static', 1),
    gff.struct('ModelScale', createGffStruct(0, [gff.float('x', s), gff.float('y', s), gff.float('z', s)])),
  ]);
}

/** A GIT with the given cutters and placeables. */
export function syntheticGit(cutters: readonly (readonly (readonly [number, number])[])[], placeables: readonly PlaceableSpec[] = []): GffDocument {
  return createGffDocument('GIT', createGffStruct(0xffffffff, [gff.list('TriggerList', cutters.map(cutterStruct)), gff.list('Placeable List', placeables.map(placeableStruct))]));
}

/** A copy of a GIT with extra placeables appended to its `Placeable List`. */
export function withPlaceables(git: GffDocument, placeables: readonly PlaceableSpec[]): GffDocument {
  const root = createGffStruct(git.root.type, git.root.fields.slice());
  const list = optList(git.root, 'Placeable List').slice();
  list.push(...placeables.map(placeableStruct));
  setField(root, gff.list('Placeable List', list));
  return createGffDocument(git.fileType, root);
}
