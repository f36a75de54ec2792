import { isMalformedInputError } from '../../binary/malformed-input-error';
import type { AreTile } from '../../formats/aurora/nwn2-are';
import type { GitDoor, GitPlaceable } from '../../formats/aurora/nwn2-git';
import type { TwoDaTable } from '../../formats/aurora/twoda-table';
import { mdbMeshes, type MdbMesh } from '../../formats/nwn2/mdb-rigid';
import type { LevelContextGap, LevelContextPiece } from '../../model/level-context';
import type { DoorModelName } from './door-walkmesh';
import type { PlacedObject } from './placeable-walkmesh';

/**
 * The models of an NWN2 area drawn as level context (issue 19): the placeables' and doors'
 * MDB meshes placed by the GIT, and the interior tiles' models placed by the ARE.
 *
 * Placement is the placeable walkmesh bake's (placeable-walkmesh.ts rule 2): model x, y
 * scaled by ModelScale x, y, turned by Bearing (radians, counter-clockwise about +Z) and
 * moved to X, Y; model z scaled by ModelScale z and raised by Z. So a model's walkmesh as
 * baked and its drawn meshes line up (the WALK curtain vertices aside, which the bake
 * drapes on the ground).
 *
 * Which meshes: the RIGD and SKIN packets (what the game draws; skins in bind pose); a
 * model with neither (a collision-only helper) gives its COL3, else its COL2 mesh, so it
 * still shows where it stands.
 */
export interface Nwn2ModelResolve {
  /** The MDB bytes of a model resref (case as the 2DA gives it), or null when the project has none. */
  (modelName: string): Uint8Array | null;
}

export interface Nwn2PlacedModelsInput {
  placeables: readonly GitPlaceable[];
  doors?: readonly GitDoor[];
  /** placeables.2da row → `NWN2_ModelName` (as the bake's model resolver reads it). */
  placeableModelName: (appearance: number) => string | undefined;
  /** A door's model by door-walkmesh.ts doorModelName (doortypes.2da / genericdoors.2da). */
  doorModelName?: (door: GitDoor) => DoorModelName;
  resolve: Nwn2ModelResolve;
  /** Leave out placeables with IsWalkable set (rugs, chairs; default false: draw them). */
  skipWalkThrough?: boolean;
  /** Interior tiles' models (nwn2TilePlacements), drawn as 'room' pieces. */
  tiles?: readonly Nwn2PlacedTile[];
  /** Most triangles placed in all (default MAX_PLACED_MODEL_TRIANGLES). */
  maxTriangles?: number;
}

/**
 * The most model triangles one area's context places. Each GIT object or ARE tile copies its
 * model, so what is placed is the objects' count times the models' size, which the files'
 * sizes do not bound (a small ARE listing thousands of tiles of one big MDB). Real areas stay
 * far below: a 32 × 32-tile interior of 2,000-triangle tiles is about 2 M, a few hundred
 * placeables of up to 5,000 triangles about 1 M. Past the budget the rest is one gap.
 */
export const MAX_PLACED_MODEL_TRIANGLES = 4_000_000;

/** placeables.2da's `NWN2_ModelName` of a row, as the bake's model resolver reads it (electron/services/nwn2-model-resolver.ts). */
export function placeableModelNameIn(table: TwoDaTable): (appearance: number) => string | undefined {
  return (appearance) => table.cell(appearance, 'NWN2_ModelName')?.trim() || undefined;
}

/** Parsed models by lower-case resref (null: not found or unreadable, with the reason). */
class ModelCache {
  private readonly models = new Map<string, { meshes: MdbMesh[] } | { why: string }>();
  constructor(private readonly resolve: Nwn2ModelResolve) {}

  get(name: string): { meshes: MdbMesh[] } | { why: string } {
    const key = name.toLowerCase();
    let m = this.models.get(key);
    if (m) return m;
    const bytes = this.resolve(name);
    if (!bytes) m = { why: `model ${name}.mdb is not in the module, its haks or the install's Data` };
    else {
      try {
        const all = mdbMeshes(bytes);
        const drawn = all.filter((x) => x.kind === 'RIGD' || x.kind === 'SKIN');
        const meshes = drawn.length > 0 ? drawn : all.filter((x) => x.kind === 'COL3').length > 0 ? all.filter((x) => x.kind === 'COL3') : all.filter((x) => x.kind === 'COL2');
        m = meshes.length > 0 ? { meshes } : { why: `model ${name}.mdb has no RIGD, SKIN, COL3 or COL2 mesh` };
      } catch (e) {
        if (!isMalformedInputError(e)) throw e;
        m = { why: `model ${name}.mdb does not read: ${e.message}` };
      }
    }
    this.models.set(key, m);
    return m;
  }
}

/**
 * One piece of a model's meshes placed like a GIT object (the bake's transform); the
 * meshes `unturned` picks are moved and scaled but not turned (a tile's floors).
 */
export function placeModelMeshes(meshes: readonly MdbMesh[], at: PlacedObject, label: string, unturned?: (m: MdbMesh) => boolean): LevelContextPiece {
  let nv = 0;
  let nt = 0;
  for (const m of meshes) {
    nv += m.positions.length / 3;
    nt += m.faces.length / 3;
  }
  const positions = new Float32Array(nv * 3);
  const triangles = new Uint32Array(nt * 3);
  const faceSurface = new Uint16Array(nt);
  const surfaces: string[] = [];
  const cosB = Math.cos(at.bearing);
  const sinB = Math.sin(at.bearing);
  let v0 = 0;
  let t0 = 0;
  for (const m of meshes) {
    const V = m.positions.length / 3;
    const turn = !unturned?.(m);
    const cos = turn ? cosB : 1;
    const sin = turn ? sinB : 0;
    for (let v = 0; v < V; v++) {
      const lx = m.positions[v * 3]! * at.scale.x;
      const ly = m.positions[v * 3 + 1]! * at.scale.y;
      positions[(v0 + v) * 3] = at.x + cos * lx - sin * ly;
      positions[(v0 + v) * 3 + 1] = at.y + sin * lx + cos * ly;
      positions[(v0 + v) * 3 + 2] = at.z + m.positions[v * 3 + 2]! * at.scale.z;
    }
    const surface = m.diffuseMap || m.name;
    let s = surfaces.indexOf(surface);
    if (s < 0) s = surfaces.push(surface) - 1;
    const T = m.faces.length / 3;
    for (let i = 0; i < T * 3; i++) triangles[t0 * 3 + i] = v0 + m.faces[i]!;
    faceSurface.fill(s, t0, t0 + T);
    v0 += V;
    t0 += T;
  }
  return { label, kind: 'model', positions, triangles, faceSurface, surfaces };
}

function finite(o: PlacedObject): boolean {
  return [o.x, o.y, o.z, o.bearing, o.scale.x, o.scale.y, o.scale.z].every(Number.isFinite);
}

/** Groups gaps by their reason so a module missing one model used 40 times says it once. */
class Gaps {
  private readonly byWhy = new Map<string, string[]>();
  add(what: string, why: string): void {
    let list = this.byWhy.get(why);
    if (!list) this.byWhy.set(why, (list = []));
    list.push(what);
  }
  list(): LevelContextGap[] {
    return [...this.byWhy].map(([why, whats]) => ({ what: whats.length <= 3 ? whats.join(', ') : `${whats.slice(0, 3).join(', ')} and ${whats.length - 3} more`, why }));
  }
}

/** The placeables' and doors' models placed by the GIT, and what could not be drawn. */
export function nwn2PlacedModelPieces(input: Nwn2PlacedModelsInput): { pieces: LevelContextPiece[]; gaps: LevelContextGap[] } {
  const cache = new ModelCache(input.resolve);
  const pieces: LevelContextPiece[] = [];
  const gaps = new Gaps();
  const budget = input.maxTriangles ?? MAX_PLACED_MODEL_TRIANGLES;
  let placed = 0;
  let over = 0;
  /** Whether the model still fits the budget (counted as placed if so). */
  const fits = (meshes: readonly MdbMesh[]): boolean => {
    let n = 0;
    for (const m of meshes) n += m.faces.length / 3;
    if (placed + n > budget) {
      over++;
      return false;
    }
    placed += n;
    return true;
  };
  for (const p of input.placeables) {
    if (input.skipWalkThrough && p.isWalkable) continue;
    const what = `placeable #${p.index}${p.tag ? ` (${p.tag})` : ''}`;
    const name = input.placeableModelName(p.appearance);
    if (!name) {
      gaps.add(what, `placeables.2da row ${p.appearance} names no model (NWN2_ModelName)`);
      continue;
    }
    if (!finite(p)) {
      gaps.add(what, 'its position, bearing or scale is not a finite number');
      continue;
    }
    const m = cache.get(name);
    if ('why' in m) gaps.add(what, m.why);
    else if (fits(m.meshes)) pieces.push(placeModelMeshes(m.meshes, p, `${name} #${p.index}`));
  }
  for (const d of input.doors ?? []) {
    const what = `door #${d.index}${d.tag ? ` (${d.tag})` : ''}`;
    if (!input.doorModelName) {
      gaps.add(what, 'no doortypes.2da / genericdoors.2da lookup was given');
      continue;
    }
    const n = input.doorModelName(d);
    if (n.invisible) continue;
    if (!n.modelName) {
      gaps.add(what, n.reason ?? 'its 2DA row names no model');
      continue;
    }
    if (!finite(d)) {
      gaps.add(what, 'its position, bearing or scale is not a finite number');
      continue;
    }
    const m = cache.get(n.modelName);
    if ('why' in m) gaps.add(what, m.why);
    else if (fits(m.meshes)) pieces.push(placeModelMeshes(m.meshes, d, `door ${n.modelName} #${d.index}`));
  }
  for (const t of input.tiles ?? []) {
    const m = cache.get(t.modelName);
    if ('why' in m) gaps.add(t.label, m.why);
    else if (fits(m.meshes)) pieces.push(placeTileModelMeshes(m.meshes, t));
  }
  const list = gaps.list();
  if (over > 0) list.push({ what: `${over} more placed model(s)`, why: `over the budget of ${budget.toLocaleString('en-US')} model triangles for one area` });
  return { pieces, gaps: list };
}

/**
 * The interior tiles' models placed by the ARE's TileList (issue 19).
 *
 * The rule, from xoreos/xoreos `src/engines/nwn2/area.cpp` (Area::loadTile and
 * Area::loadTileModels), which loads NWN2 interiors:
 * - a tile (`MetaTile` 0) is row `Appearance` of tiles.2da; its model is
 *   `tl_<TileSet>_<Tile_Type>_<Variation + 1, two digits>` (e.g. `tl_SI_CCCC_01`);
 * - a meta tile (`MetaTile` 1, several tiles' space) is row `Appearance` of metatiles.2da;
 *   its model is `tl_<TileSet>_<Name>`;
 * - the model stands at `Position` (the tile centre) and is turned by `Orientation`
 *   quarter turns clockwise seen from above (xoreos turns it by -90° per step about +Z,
 *   where a placeable's Bearing turns it by +Bearing): `tileBearing`;
 * - the floor meshes of a plain tile (mesh names ending in `_F`) are not turned (xoreos:
 *   "rotate static floors back"), so a tile's floor keeps its texture's direction.
 * Corroborated by the NWN2 wiki "Tileset creation" page (nwn2.fandom.com: tiles.2da columns
 * LABEL STRING_REF TILESET TILE_TYPE VARIATIONS, e.g. `SI CCCC 1`), the Bioware forum "Modding
 * tips" thread (tile parts named `TL_XX_YYYY_##`, ## the variant from 01), and
 * ALandFarAway/ALFA-Base-Resources `alfa_placeables4.hak/README_Tile_variants.txt` (models
 * `TL_SI_DDCC_02`, ...). The direction was checked on the fixtures' interiors: in 4 areas
 * (Kaedrin's db_templemaiden_int, enter world, fh_settlement, md_fancy fox fashions_rlg),
 * 53 of 53 pairs of tiles of one row and variation at different orientations have TRN
 * walkmeshes that are each other turned clockwise by the orientation difference about the
 * tile centre, none counter-clockwise; the cave area's irregular tiles (harper's hill cave)
 * gave 3 clockwise, 8 counter-clockwise and 566 pairs matching neither way or both, so it
 * is no evidence either way (tests: test/unit/nwn2/nwn2-tile-models.test.ts).
 */
export interface Nwn2TileTables {
  /** tiles.2da, when the module, its haks, the override or the install's Data has it. */
  tiles?: TwoDaTable;
  /** metatiles.2da, likewise. */
  metatiles?: TwoDaTable;
}

/** The model a tile names by the xoreos rule above, or why it names none. */
export function nwn2TileModelName(tile: AreTile, tables: Nwn2TileTables): { modelName: string } | { why: string } {
  if (tile.metaTile !== 0) {
    if (!tables.metatiles) return { why: 'metatiles.2da is not in the module, its haks, the override or the install\'s Data, so meta tiles name no model' };
    const set = tables.metatiles.cell(tile.appearance, 'TileSet')?.trim();
    const name = tables.metatiles.cell(tile.appearance, 'Name')?.trim();
    if (tile.appearance < 0 || tile.appearance >= tables.metatiles.rowCount) return { why: `metatiles.2da has no row ${tile.appearance} (it has ${tables.metatiles.rowCount})` };
    if (!set || !name) return { why: `metatiles.2da row ${tile.appearance} has no ${set ? 'Name' : 'TileSet'}` };
    return { modelName: `tl_${set}_${name}` };
  }
  if (!tables.tiles) return { why: 'tiles.2da is not in the module, its haks, the override or the install\'s Data, so tiles name no model' };
  if (tile.appearance < 0 || tile.appearance >= tables.tiles.rowCount) return { why: `tiles.2da has no row ${tile.appearance} (it has ${tables.tiles.rowCount})` };
  const set = tables.tiles.cell(tile.appearance, 'TileSet')?.trim();
  const type = tables.tiles.cell(tile.appearance, 'Tile_Type')?.trim();
  if (!set || !type) return { why: `tiles.2da row ${tile.appearance} has no ${set ? 'Tile_Type' : 'TileSet'}` };
  if (!Number.isInteger(tile.variation) || tile.variation < 0) return { why: `its Variation ${tile.variation} is negative` };
  return { modelName: `tl_${set}_${type}_${String(tile.variation + 1).padStart(2, '0')}` };
}

/** A tile's turn about +Z in radians (counter-clockwise positive, as a Bearing): `Orientation` quarter turns clockwise. */
export function tileBearing(orientation: number): number {
  return orientation === 0 ? 0 : (-orientation * Math.PI) / 2;
}

/** A tile model placed by nwn2PlacedModelPieces (the services find its file; the reader places it). */
export interface Nwn2PlacedTile {
  label: string;
  modelName: string;
  /** Position = the tile's; bearing = tileBearing(Orientation); scale 1. */
  place: PlacedObject;
  /** Meta tiles turn their floors with the rest of the model. */
  metaTile: boolean;
}

/** The plain tile's floor meshes, which stay unturned (xoreos). */
function isTileFloor(m: MdbMesh): boolean {
  return /_f$/i.test(m.name);
}

/** A tile's model placed: the model turned about the tile centre, its floors (plain tiles) not turned. */
export function placeTileModelMeshes(meshes: readonly MdbMesh[], tile: Nwn2PlacedTile): LevelContextPiece {
  return { ...placeModelMeshes(meshes, tile.place, tile.label, tile.metaTile ? undefined : isTileFloor), kind: 'room' };
}

/** The tiles of an ARE, named by the tables and placed by the rule above; what cannot be named is a gap. */
export function nwn2TilePlacements(tiles: readonly AreTile[], tables: Nwn2TileTables): { placed: (Nwn2PlacedTile & { tile: AreTile })[]; gaps: LevelContextGap[] } {
  const placed: (Nwn2PlacedTile & { tile: AreTile })[] = [];
  const gaps = new Gaps();
  for (const t of tiles) {
    const what = `${t.metaTile !== 0 ? 'meta tile' : 'tile'} #${t.index} (${t.metaTile !== 0 ? 'metatiles' : 'tiles'}.2da row ${t.appearance})`;
    const named = nwn2TileModelName(t, tables);
    if ('why' in named) {
      gaps.add(what, named.why);
      continue;
    }
    if (!t.position.every(Number.isFinite) || !Number.isInteger(t.orientation)) {
      gaps.add(what, 'its Position is not a finite number or its Orientation not a whole number of quarter turns');
      continue;
    }
    const place: PlacedObject = { index: t.index, x: t.position[0], y: t.position[1], z: t.position[2], bearing: tileBearing(t.orientation), scale: { x: 1, y: 1, z: 1 } };
    placed.push({ tile: t, label: `tile ${named.modelName} #${t.index}`, modelName: named.modelName, place, metaTile: t.metaTile !== 0 });
  }
  return { placed, gaps: gaps.list() };
}

/** The interior tiles' models of an ARE drawn as 'room' pieces, and what could not be drawn. */
export function nwn2TileModelPieces(tiles: readonly AreTile[], tables: Nwn2TileTables, resolve: Nwn2ModelResolve): { pieces: LevelContextPiece[]; gaps: LevelContextGap[] } {
  const { placed, gaps } = nwn2TilePlacements(tiles, tables);
  const drawn = nwn2PlacedModelPieces({ placeables: [], tiles: placed, placeableModelName: () => undefined, resolve });
  return { pieces: drawn.pieces, gaps: [...gaps, ...drawn.gaps] };
}
