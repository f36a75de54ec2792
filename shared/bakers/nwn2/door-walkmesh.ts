import type { GitDoor } from '../../formats/aurora/nwn2-git';
import { cellInteger, type TwoDaTable } from '../../formats/aurora/twoda-table';
import { ModelMappingError } from '../../model/model-mapping-error';
import { requireFiniteVertices } from '../non-finite-geometry';
import { applyPlaceables, type PlaceableModel, type PlaceableOptions, type PlaceableStats, type PlacedModel } from './placeable-walkmesh';
import { PLACEABLE_SOURCE, type TrnSurface } from './trn-surface';

/**
 * NWN2 doors in the full bake (spec §5.5: "Doors (Door List: X/Y/Z/Bearing) have
 * walkmeshes too").
 *
 * Which model a door has (as the game loads it; xoreos `engines/nwn2/door.cpp`):
 * `Appearance` ≠ 0 is a row of doortypes.2da; `Appearance` = 0 is a generic door, a row of
 * genericdoors.2da given by `GenericType`. The model is the first non-empty cell of
 * `ModelName`, `NWN2_ModelName`, `Model` in that row (doortypes.2da has the last two:
 * NWN2 doors name their MDB in `NWN2_ModelName`; the NWN1 tileset doors kept in the table
 * only have an NWN1 `Model`, which no NWN2 install holds, so they are reported as not
 * found). A row with `VisibleModel` = 0 is an invisible door: no model, nothing to bake.
 *
 * How the toolset applies a door's walkmesh: like a placeable's (placeable-walkmesh.ts,
 * rules 2–6), at the door's X, Y, Z, Bearing and ModelScale. An MDB WALK packet has a
 * single state (unlike NWN1's DWK with closed/open1/open2 meshes), so the door's
 * `AnimationState` (open or closed) does not change what is baked. Evidence, from the 6
 * fixture areas whose TRN, GIT and toolset TRX come together (61 doors):
 * - In the 5 areas whose TRN matches their TRX away from objects (44 doors), 42 doors
 *   leave the floor under their opening (1.6 m × 2 m sampled every 10 cm, at the door's
 *   height) exactly as in the TRN outside walkmesh cutters: walkable through the opening of
 *   every standard interior door (doortypes rows 350, 362, 363, 366, 381, 382, 438, 439),
 *   whatever its AnimationState (0 or 3). Of the 40 vertices the TRX adds within 1.5 m of
 *   these doors, 37 lie on a cutter's outline (within 2 cm). So the toolset never closes
 *   an opening (a closed door stops creatures at run time, not in the baked mesh), which
 *   is what a walkable threshold, or no WALK packet, gives.
 * - Of the other two, one (a statue door, row 343) stands next to a plc_mc_tileblock1
 *   placeable and a cutter, so it proves nothing; the other is a cave-entrance door
 *   (db_templemaiden_int, PLC_DN_CAVEENT1, row 379): the TRN's walkable floor around it
 *   becomes unwalkable in the TRX except a ~2 m passage through the door line, over
 *   about 5 m × 3 m in door-local axes, with no cutter, placeable or environment object
 *   within 4 m (one tree stands 3.2 m away, 1.1 m outside that region). That is the door's
 *   model walkmesh cutting the floor as a placeable's does: non-walkable faces block,
 *   walkable faces stay walkable.
 * - The sixth area (harper's hill cave) was left out: its TRN and TRX disagree all over
 *   (the TRX was baked from other tiles), so it says nothing about doors.
 * No door MDB is public, so the shape of stock door walkmeshes is not known here.
 *
 * Order: doors are applied after the placeables, so where a door's footprint overlaps a
 * placeable's the door's faces win (a choice: the files show no such overlap).
 */

/** Marks `source` values of triangles that came from a door's walkmesh (PLACEABLE_SOURCE | 0x40000000 | door index). */
export const DOOR_SOURCE = (PLACEABLE_SOURCE | 0x40000000) >>> 0;

export const DOOR_TYPES_TABLE = 'doortypes';
export const GENERIC_DOORS_TABLE = 'genericdoors';
/** Columns naming a door's model, in the order the game reads them. */
export const DOOR_MODEL_COLUMNS = ['ModelName', 'NWN2_ModelName', 'Model'] as const;

export interface DoorRow {
  table: typeof DOOR_TYPES_TABLE | typeof GENERIC_DOORS_TABLE;
  row: number;
}

/** What a door's 2DA row says about its model. */
export interface DoorModelName {
  row: DoorRow;
  /** The model resref, or undefined (no table, no such row, no model cell, invisible). */
  modelName: string | undefined;
  /** `VisibleModel` = 0: the door has no model. */
  invisible: boolean;
  /** Why there is no model name, for the report. */
  reason?: string;
}

/** A door's model lookup as the bake gets it: the 2DA answer, and the model when it was found. */
export interface DoorModelLookup extends DoorModelName {
  model?: PlaceableModel;
}

/** The 2DA row of a door. */
export function doorRowOf(door: Pick<GitDoor, 'appearance' | 'genericType'>): DoorRow {
  return door.appearance !== 0 ? { table: DOOR_TYPES_TABLE, row: door.appearance } : { table: GENERIC_DOORS_TABLE, row: door.genericType };
}

/** The model a door's 2DA row names, by the rule above; `tables` holds doortypes.2da and genericdoors.2da when found. */
export function doorModelName(door: Pick<GitDoor, 'appearance' | 'genericType'>, tables: { doortypes?: TwoDaTable; genericdoors?: TwoDaTable }): DoorModelName {
  const row = doorRowOf(door);
  const table = row.table === DOOR_TYPES_TABLE ? tables.doortypes : tables.genericdoors;
  const named = `${row.table}.2da row ${row.row}`;
  if (!table) return { row, modelName: undefined, invisible: false, reason: `no ${row.table}.2da found` };
  if (row.row < 0 || row.row >= table.rowCount) return { row, modelName: undefined, invisible: false, reason: `${row.table}.2da has no row ${row.row} (${table.rowCount} rows)` };
  if (cellInteger(table, row.row, 'VisibleModel') === 0) return { row, modelName: undefined, invisible: true, reason: `${named} has VisibleModel 0` };
  for (const column of DOOR_MODEL_COLUMNS) {
    const v = table.cell(row.row, column)?.trim();
    if (v) return { row, modelName: v, invisible: false };
  }
  return { row, modelName: undefined, invisible: false, reason: `${named} names no model (${DOOR_MODEL_COLUMNS.join(', ')} empty)` };
}

export interface DoorReport {
  inGit: number;
  /** Invisible doors (VisibleModel 0): nothing to bake. */
  invisible: number[];
  /** No model found: no lookup given, no table or row, or the model's MDB not found. */
  missingModel: { index: number; tag: string | undefined; row: DoorRow; model: string | undefined; reason: string }[];
  /** The model has no WALK packet. */
  noWalkmesh: { index: number; model: string }[];
  /** What was applied (doors in `applied`, by their position in the Door List). */
  stats: PlaceableStats | null;
}

/**
 * Applies the doors' walkmeshes to the surface (after the placeables'), sorting out those
 * with no model or no WALK packet for the report. Throws ModelMappingError for a door
 * whose position, bearing, scale or model vertices are not finite numbers.
 */
export function applyDoors(
  s: TrnSurface,
  doors: readonly GitDoor[],
  lookup: ((door: GitDoor) => DoorModelLookup | undefined) | undefined,
  options: PlaceableOptions = {},
): { surface: TrnSurface; report: DoorReport } {
  const report: DoorReport = { inGit: doors.length, invisible: [], missingModel: [], noWalkmesh: [], stats: null };
  const placed: PlacedModel[] = [];
  for (const d of doors) {
    const found = lookup?.(d);
    if (found?.invisible) {
      report.invisible.push(d.index);
      continue;
    }
    const model = found?.model;
    if (!model) {
      const reason = !found ? 'no model lookup given' : (found.reason ?? `model ${found.modelName} not found`);
      report.missingModel.push({ index: d.index, tag: d.tag, row: found?.row ?? doorRowOf(d), model: found?.modelName, reason });
      continue;
    }
    if (model.walkmeshes.length === 0) {
      report.noWalkmesh.push({ index: d.index, model: model.name });
      continue;
    }
    requireFiniteDoor(d);
    for (const w of model.walkmeshes) requireFiniteVertices(w.positions, `door #${d.index} (model ${model.name}), walkmesh ${w.name}`);
    placed.push({ placeable: d, model, source: (DOOR_SOURCE | d.index) >>> 0 });
  }
  if (placed.length === 0) return { surface: s, report };
  const r = applyPlaceables(s, placed, options);
  report.stats = r.stats;
  return { surface: r.surface, report };
}

function requireFiniteDoor(d: GitDoor): void {
  const values = [d.x, d.y, d.z, d.bearing, d.scale.x, d.scale.y, d.scale.z];
  if (values.every(Number.isFinite)) return;
  throw new ModelMappingError(
    `the GIT (Door List): door #${d.index} is at (${d.x}, ${d.y}, ${d.z}) with bearing ${d.bearing} and scale (${d.scale.x}, ${d.scale.y}, ${d.scale.z}); ` +
      'a bake needs finite numbers (NaN and infinities are refused): fix or remove it',
  );
}

/** Doors without a model found, grouped by the model their 2DA row names (or by the reason there is none). */
export interface MissingDoorModel {
  /** The model resref, or undefined when no row names one. */
  model: string | undefined;
  /** The 2DA rows that led to it (`doortypes.2da row 382`). */
  rows: string[];
  /** The doors (positions in the Door List). */
  doors: number[];
  reason: string;
}

/** The report's doors without a model, grouped by model name, most frequent first. */
export function missingDoorModels(report: Pick<DoorReport, 'missingModel'>): MissingDoorModel[] {
  const groups = new Map<string, MissingDoorModel>();
  for (const m of report.missingModel) {
    const row = `${m.row.table}.2da row ${m.row.row}`;
    const key = m.model !== undefined ? `model:${m.model.toLowerCase()}` : `why:${m.reason}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { model: m.model, rows: [], doors: [], reason: m.reason }));
    if (!g.rows.includes(row)) g.rows.push(row);
    g.doors.push(m.index);
  }
  return [...groups.values()].sort((a, b) => b.doors.length - a.doors.length || (a.model ?? a.reason).localeCompare(b.model ?? b.reason));
}
