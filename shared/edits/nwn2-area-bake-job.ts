import { isMalformedInputError } from '../binary/malformed-input-error';
import type { PlaceableModel } from '../bakers/nwn2/placeable-walkmesh';
import { ModelMappingError } from '../model/model-mapping-error';
import type { TileTableCache } from '../bakers/nwn2/tile-table-reuse';
import { readGitDoors, readGitPlaceables, type GitDoor } from '../formats/aurora/nwn2-git';
import { doorRowOf, type DoorModelLookup } from '../bakers/nwn2/door-walkmesh';
import { readGff } from '../formats/aurora/gff-reader';
import type { GffDocument } from '../formats/aurora/gff-document';
import { aswmPacketOf, type TrxDocument } from '../formats/nwn2/trx-document';
import type { FormatEnvironment } from '../formats/format-environment';
import { readTrx } from '../formats/nwn2/trx-reader';
import { writeTrx } from '../formats/nwn2/trx-writer';
import { bakeTrn } from '../bakers/nwn2/trn-bake';
import { decodeFrame, encodeFrame } from '../ipc/mesh-payload';
import type { Walkmesh } from '../model/walkmesh';
import type { Finding } from '../validation/finding';
import { rebakeNwn2Area } from './nwn2-area-rebake';
import { storedTileCache } from './nwn2-toolset-tile-cache';

/**
 * The live re-bake of an NWN2 area as a bake-pool job (kind `nwn2-area-bake`), so the
 * main process stays free while it runs. Everything the bake reads travels in the job's
 * input, because a worker has no project: the TRN and the GIT as edited, the models of
 * the placeables the GIT names (looked up by the main process, which has the project's
 * placeables.2da and MDBs), and the tables of the area's previous bake.
 */
export interface AreaBakeInput {
  /** The TRN (or TRX) file name, for the walkmesh's name and for errors. */
  name: string;
  /** The GIT's file name, for errors. */
  gitName: string;
  trn: Uint8Array;
  git: Uint8Array;
  /**
   * Per placeables.2da row the GIT uses: its model, or null when the project lacks it
   * (then `modelName`, when the row names one, so the findings can say which model).
   */
  models: { appearance: number; model: PlaceableModel | null; modelName?: string }[];
  /**
   * Per doortypes.2da / genericdoors.2da row the GIT's doors use: what the lookup found
   * (the model, or why there is none). Absent: the doors are listed as having no lookup.
   */
  doors?: { table: string; row: number; lookup: DoorModelLookup }[];
  tileCache: TileTableCache | null;
  /**
   * The area's TRX as imported (the toolset's bake), for the stored bake (`nwn2-trn-bake`):
   * tiles whose triangles come out exactly as in it keep its path tables and line-of-sight
   * bits (nwn2-toolset-tile-cache.ts).
   */
  storedTrx?: Uint8Array | null;
}

export interface AreaBakeOutput {
  walkmesh: Walkmesh;
  findings: Finding[];
  cutters: number;
  placeablesWithoutModel: number;
  /** Milliseconds of the bake itself, in the worker. */
  ms: number;
  tiles: number;
  /** Tiles whose tables came from the previous bake. */
  reusedTiles: number;
  tileCache: TileTableCache | null;
}

export const AREA_BAKE_JOB = 'nwn2-area-bake';

/** A placeable model lookup that may also name the model a row asks for (to name what is missing). */
export type PlaceableModelLookup = ((appearance: number) => PlaceableModel | undefined) & {
  modelName?: (appearance: number) => string | undefined;
  /** A door's 2DA row and model (door-walkmesh.ts). */
  door?: (door: GitDoor) => DoorModelLookup;
};

/** The door rows the GIT's doors use, each looked up once; none without a door lookup. */
export function areaBakeDoors(git: GffDocument, lookup: PlaceableModelLookup): NonNullable<AreaBakeInput['doors']> {
  const door = lookup.door;
  if (!door) return [];
  const rows = new Map<string, { table: string; row: number; lookup: DoorModelLookup }>();
  for (const d of readGitDoors(git)) {
    const r = doorRowOf(d);
    const k = `${r.table}:${r.row}`;
    if (!rows.has(k)) rows.set(k, { table: r.table, row: r.row, lookup: door(d) });
  }
  return [...rows.values()].sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : a.row - b.row));
}

/** The bake's door lookup from the rows carried in the input (undefined when the input carries none). */
function doorLookupOf(input: AreaBakeInput): ((door: GitDoor) => DoorModelLookup | undefined) | undefined {
  if (!input.doors) return undefined;
  const byRow = new Map(input.doors.map((d) => [`${d.table}:${d.row}`, d.lookup] as const));
  return (door) => {
    const r = doorRowOf(door);
    return byRow.get(`${r.table}:${r.row}`);
  };
}

/** The rows of placeables.2da the GIT's placeables use, with their models (or the name of the model not found). */
export function areaBakeModels(git: GffDocument, lookup: PlaceableModelLookup): AreaBakeInput['models'] {
  const rows = new Set<number>();
  for (const p of readGitPlaceables(git)) if (!p.isWalkable) rows.add(p.appearance);
  return [...rows]
    .sort((a, b) => a - b)
    .map((appearance) => {
      const model = lookup(appearance) ?? null;
      const name = model ? undefined : lookup.modelName?.(appearance);
      return { appearance, model, ...(name !== undefined ? { modelName: name } : {}) };
    });
}

export function encodeAreaBakeInput(input: AreaBakeInput): Uint8Array<ArrayBuffer> {
  return encodeFrame(input);
}

export function encodeAreaBakeOutput(output: AreaBakeOutput): Uint8Array<ArrayBuffer> {
  return encodeFrame(output);
}

/**
 * Runs the job: bytes in, bytes out. Throws an error naming the file: MalformedInputError
 * for TRN or GIT bytes that do not read, and for an area the bake cannot store (a tile
 * over the toolset's walkable-triangle limit…) one that says so.
 */
export function runAreaBake(frame: Uint8Array, env: FormatEnvironment): AreaBakeOutput {
  const { input, trn, git, models } = openAreaBakeInput(frame, env);
  const names = new Map(input.models.flatMap((m) => (typeof m.modelName === 'string' ? [[m.appearance, m.modelName] as const] : [])));
  const r = namingTheArea(input, () => rebakeNwn2Area(trn, git, input.name, models, input.tileCache ?? undefined, (a) => names.get(a), doorLookupOf(input)));
  return {
    walkmesh: r.walkmesh,
    findings: r.findings,
    cutters: r.cutters,
    placeablesWithoutModel: r.placeablesWithoutModel,
    ms: r.ms,
    tiles: r.report.tables.tiles,
    reusedTiles: r.report.tables.reusedTiles,
    tileCache: r.tileCache ?? null,
  };
}

/** The input's TRN and GIT read (errors name the file) and its models as a lookup. */
function openAreaBakeInput(frame: Uint8Array, env: FormatEnvironment): { input: AreaBakeInput; trn: TrxDocument; git: GffDocument; models: (appearance: number) => PlaceableModel | undefined } {
  const input = decodeAreaBakeInput(frame);
  const trn = named(input.name, () => readTrx(input.trn, env));
  const git = named(input.gitName, () => readGff(input.git));
  const byRow = new Map<number, PlaceableModel>();
  for (const m of input.models) if (m.model) byRow.set(m.appearance, m.model);
  return { input, trn, git, models: (appearance) => byRow.get(appearance) };
}

/** A bake the area cannot be stored from (a tile over the walkable limit…) says which area and GIT. */
function namingTheArea<T>(input: AreaBakeInput, bake: () => T): T {
  try {
    return bake();
  } catch (e) {
    if (e instanceof ModelMappingError) throw new ModelMappingError(`${input.name} cannot be baked with ${input.gitName} as edited: ${e.message}`);
    throw e;
  }
}

/**
 * The same input baked into the TRX the game reads (job kind `nwn2-trn-bake`: the bake a
 * project exports after its GIT or TRN was edited).
 */
export function runAreaBakeToTrx(frame: Uint8Array, env: FormatEnvironment): { bytes: Uint8Array; triangles: number; islands: number; cutters: number; placeablesWithoutModel: number } {
  const { input, trn, git, models } = openAreaBakeInput(frame, env);
  const tileCache = input.storedTrx ? storedTrxCache(input.storedTrx, env) : undefined;
  const doorModels = doorLookupOf(input);
  const r = namingTheArea(input, () => bakeTrn({ trn, git, placeableModels: models, ...(doorModels ? { doorModels } : {}), ...(tileCache ? { options: { tileCache } } : {}) }));
  return {
    bytes: writeTrx(r.trx, env),
    triangles: r.report.output.triangles,
    islands: r.report.output.islands,
    cutters: r.report.cutters.inGit,
    placeablesWithoutModel: r.report.placeables.missingModel.length,
  };
}

/** The tables of the TRX as imported, as a tile cache; none when it does not read (the bake then computes every tile). */
function storedTrxCache(bytes: Uint8Array, env: FormatEnvironment): TileTableCache | undefined {
  try {
    const aswm = aswmPacketOf(readTrx(bytes, env))?.aswm;
    return aswm ? storedTileCache(aswm) : undefined;
  } catch (e) {
    if (isMalformedInputError(e)) return undefined;
    throw e;
  }
}

function decodeAreaBakeInput(frame: Uint8Array): AreaBakeInput {
  const v = decodeFrame(frame);
  const o = record(v, 'input');
  const models = o.models;
  if (!Array.isArray(models)) throw new TypeError('nwn2-area-bake input: models must be a list');
  return {
    name: text(o.name, 'name'),
    gitName: text(o.gitName, 'gitName'),
    trn: bytes(o.trn, 'trn'),
    git: bytes(o.git, 'git'),
    models: models as AreaBakeInput['models'],
    ...(Array.isArray(o.doors) ? { doors: o.doors as NonNullable<AreaBakeInput['doors']> } : {}),
    tileCache: (o.tileCache ?? null) as TileTableCache | null,
    storedTrx: o.storedTrx === undefined || o.storedTrx === null ? null : bytes(o.storedTrx, 'storedTrx'),
  };
}

/** Reads a job's output frame (written by encodeAreaBakeOutput in the worker). */
export function decodeAreaBakeOutput(frame: Uint8Array): AreaBakeOutput {
  const o = record(decodeFrame(frame), 'output');
  const walkmesh = record(o.walkmesh, 'walkmesh');
  if (!(walkmesh.positions instanceof Float32Array) || !(walkmesh.triangles instanceof Uint32Array)) throw new TypeError('nwn2-area-bake output: walkmesh must hold positions and triangles');
  if (!Array.isArray(o.findings)) throw new TypeError('nwn2-area-bake output: findings must be a list');
  return o as unknown as AreaBakeOutput;
}

function named<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (isMalformedInputError(e)) throw e.withFile(file);
    throw e;
  }
}

function record(v: unknown, field: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new TypeError(`nwn2-area-bake: ${field} must be an object`);
  return v as Record<string, unknown>;
}

function text(v: unknown, field: string): string {
  if (typeof v !== 'string') throw new TypeError(`nwn2-area-bake input: ${field} must be text`);
  return v;
}

function bytes(v: unknown, field: string): Uint8Array {
  if (!(v instanceof Uint8Array)) throw new TypeError(`nwn2-area-bake input: ${field} must be bytes`);
  return v;
}
