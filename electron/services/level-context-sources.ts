import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import { KotorResType } from '../../shared/formats/aurora/resource-types';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import { readGitDoors, readGitPlaceables } from '../../shared/formats/aurora/nwn2-git';
import { readAreTiles } from '../../shared/formats/aurora/nwn2-are';
import { nwn2TilePlacements } from '../../shared/bakers/nwn2/nwn2-model-context';
import { readLyt } from '../../shared/formats/kotor/lyt-reader';
import type { LytDocument } from '../../shared/formats/kotor/lyt-document';
import { NAV_FORMAT, readNav } from '../../shared/formats/source/nav-reader';
import type { LevelContextGap } from '../../shared/model/level-context';
import { MAX_FILE_BYTES } from '../../shared/ipc/contract';
import type { GameId } from '../../shared/model/walkmesh';
import type { ContextPlace } from '../../shared/views/level-context-assemble';
import { FileAccessError, readBytes } from './file-access';
import { findNwn2TerrainTextures } from './nwn2-terrain-texture-sources';
import { openKotorModule, scanKotorGameFolder, type OpenedKotorModule } from './kotor-game-folder';
import { contentHash } from './project/content-hash';
import { kotorLayoutOfRoom, kotorRoomsOfLayout } from './project/kotor-room-layout';
import { nwn2AreaFiles } from './project/nwn2-area-bake-source';
import { ProjectGameResources } from './project/project-game-resources';
import { projectPlaceableModels, projectTwoDa } from './project/project-placeable-models';
import type { ProjectStore } from './project/project-store';
import type { FileRecord } from './project/project-types';

/**
 * Where the level context of a project file comes from, found without reading the large
 * files yet: each file has an identity (its content hash when the project holds it or it is
 * small, else its path, size and modification time), so the cache can answer before a
 * 100 MB map is read.
 */
export interface PlannedFile {
  name: string;
  identity: string;
  read(): Promise<Uint8Array>;
}

export interface ContextPlan {
  game: GameId;
  /** What the designer is told the context is read from. */
  sources: string[];
  gaps: LevelContextGap[];
  bsp?: PlannedFile;
  kotorRooms?: { label: string; mdl: PlannedFile; mdx: PlannedFile | null; place: ContextPlace; wok?: PlannedFile; placeByWalkmesh?: boolean }[];
  nwn2Terrain?: PlannedFile;
  /** The terrain textures its TRRN packets name, as found (nwn2-terrain-texture-sources.ts). */
  nwn2TerrainTextures?: PlannedFile[];
  nwn2Models?: { label: string; model: PlannedFile; place: ContextPlace; tile?: { metaTile: boolean } }[];
  skyrimPlugins?: PlannedFile[];
}

/** Files larger than this are identified by path, size and time rather than hashed up front. */
const HASH_LIMIT = 8 * 1024 * 1024;

function projectFile(store: ProjectStore, f: FileRecord): PlannedFile {
  return { name: f.name, identity: `project:${f.editSha256 ?? f.sha256}`, read: async () => store.loadCurrentBytes(f) };
}

function bytesFile(name: string, bytes: Uint8Array): PlannedFile {
  return { name, identity: `bytes:${contentHash(bytes)}`, read: async () => bytes };
}

/** Larger files are not read (the services' own limit for any file). */
class TooLargeError extends Error {}

async function diskFile(name: string, file: string): Promise<PlannedFile> {
  const s = await stat(file);
  if (s.size > MAX_FILE_BYTES) throw new TooLargeError(`${file}: ${s.size.toLocaleString('en-US')} bytes is more than the ${MAX_FILE_BYTES.toLocaleString('en-US')}-byte limit`);
  if (s.size <= HASH_LIMIT) return bytesFile(name, await readBytes(file, MAX_FILE_BYTES));
  return { name, identity: `disk:${file}|${s.size}|${s.mtimeMs}`, read: () => readBytes(file, MAX_FILE_BYTES) };
}

/** A file in `dir` named `name` whatever its case, or undefined. */
async function findInDir(dir: string, name: string): Promise<string | undefined> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return undefined;
  }
  const want = name.toLowerCase();
  const hit = entries.find((e) => e.toLowerCase() === want);
  if (hit === undefined) return undefined;
  const full = path.join(dir, hit);
  try {
    return (await stat(full)).isFile() ? full : undefined;
  } catch {
    return undefined;
  }
}

function stemOf(name: string): string {
  return name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
}

function gameFolders(store: ProjectStore): string[] {
  return store.listGameFolders().map((g) => g.path);
}

/**
 * Source: the map a `.nav` was built from, `NAME.bsp`, which the game keeps in `maps/` beside
 * the `.nav`: looked for beside the file the `.nav` was imported from, then in `maps/` of each
 * of the project's game folders (and the folder itself). The `.nav` stores the size of the
 * BSP it was generated on (`bspSize`); a map of another size was compiled again since, and
 * the designer is told the level shown may not match.
 */
async function planSource(store: ProjectStore, record: FileRecord, plan: ContextPlan): Promise<void> {
  const bspName = `${stemOf(record.name)}.bsp`;
  const places: { dir: string; said: string }[] = [];
  if (record.sourcePath) places.push({ dir: path.dirname(record.sourcePath), said: 'beside the .nav it was imported from' });
  for (const g of gameFolders(store)) {
    places.push({ dir: path.join(g, 'maps'), said: `in ${g}` }, { dir: g, said: `in ${g}` });
  }
  let found: { file: string; said: string } | undefined;
  for (const p of places) {
    const file = await findInDir(p.dir, bspName);
    if (file) {
      found = { file, said: p.said };
      break;
    }
  }
  if (!found) {
    const looked = places.length === 0 ? 'the project has no game folder and the .nav was not imported from disk' : `looked in ${places.map((p) => p.dir).join(', ')}`;
    plan.gaps.push({ what: `maps/${bspName}`, why: `not found (${looked})` });
    return;
  }
  try {
    plan.bsp = await diskFile(`maps/${path.basename(found.file)}`, found.file);
  } catch (e) {
    if (!(e instanceof TooLargeError) && !(e instanceof FileAccessError)) throw e;
    plan.gaps.push({ what: `maps/${bspName}`, why: e.message });
    return;
  }
  plan.sources.push(`${found.file} (${found.said})`);
  if (record.format !== NAV_FORMAT) return;
  try {
    const expected = readNav(store.loadCurrentBytes(record)).bspSize;
    const actual = (await stat(found.file)).size;
    if (expected > 0 && expected !== actual) {
      plan.gaps.push({ what: `maps/${path.basename(found.file)}`, why: `is ${actual.toLocaleString('en-US')} bytes but the .nav was generated on a map of ${expected.toLocaleString('en-US')} bytes: the map was compiled again since, so the level shown may not match the mesh` });
    }
  } catch (e) {
    if (!isMalformedInputError(e)) throw e;
  }
}

/** The module of the game folders a KotOR room is looked up in: the project module, else the room's prefix. */
async function openKotorModules(store: ProjectStore, module: string, plan: ContextPlan): Promise<OpenedKotorModule[]> {
  const opened: OpenedKotorModule[] = [];
  for (const g of gameFolders(store)) {
    try {
      opened.push(await openKotorModule(await scanKotorGameFolder(g), module));
    } catch (e) {
      if (!(e instanceof FileAccessError) && !isMalformedInputError(e)) throw e;
      plan.gaps.push({ what: g, why: `the game folder cannot be read: ${e.message}` });
    }
  }
  return opened;
}

/**
 * KotOR: each room's model (`ROOM.mdl` + `ROOM.mdx`) placed at its layout position. A room
 * model is found beside the file it was imported from, then in each game folder as the game
 * finds it (override, the module's capsules, chitin.key: kotor-resource-resolver.ts). A WOK
 * opened alone is placed by the LYT of the project that lists it; a room no LYT lists is
 * drawn at its own origin and the designer is told.
 */
async function planKotor(store: ProjectStore, record: FileRecord, plan: ContextPlan): Promise<void> {
  let layout: LytDocument | undefined;
  let rooms: { name: string; index: number; x: number; y: number; z: number }[];
  let woks = new Map<string, FileRecord>();
  let placeByWalkmesh = false;
  let lytRecord: FileRecord | undefined;
  if (record.kind === 'lyt') {
    try {
      layout = readLyt(store.loadCurrentBytes(record));
    } catch (e) {
      if (!isMalformedInputError(e)) throw e;
      plan.gaps.push({ what: record.name, why: e.message });
      return;
    }
    lytRecord = record;
    rooms = layout.rooms.map((r, index) => ({ name: r.name, index, x: r.x, y: r.y, z: r.z }));
    woks = kotorRoomsOfLayout(store, record, layout);
  } else {
    const found = kotorLayoutOfRoom(store, record);
    const name = stemOf(record.name);
    const index = found ? found.layout.rooms.findIndex((r) => r.name.toLowerCase() === name.toLowerCase()) : -1;
    if (found && index >= 0) {
      lytRecord = found.lyt;
      const r = found.layout.rooms[index]!;
      rooms = [{ name: r.name, index, x: r.x, y: r.y, z: r.z }];
    } else {
      rooms = [{ name, index: -1, x: 0, y: 0, z: 0 }];
      placeByWalkmesh = true;
      plan.sources.push(`${record.name} (no layout lists the room: placed where its walkmesh is)`);
    }
    woks.set(name.toLowerCase(), record);
  }
  if (lytRecord) plan.sources.push(`${lytRecord.module}/${lytRecord.name} (room positions)`);
  const besides = [record.sourcePath, lytRecord?.sourcePath].filter((p): p is string => typeof p === 'string').map((p) => path.dirname(p));
  let modules: OpenedKotorModule[] | undefined;
  plan.kotorRooms = [];
  for (const room of rooms) {
    const label = room.index >= 0 ? `room ${room.name} (${room.index})` : `room ${room.name}`;
    const place: ContextPlace = { x: room.x, y: room.y, z: room.z, bearing: 0 };
    let mdl: PlannedFile | undefined;
    let mdx: PlannedFile | null = null;
    for (const dir of besides) {
      const m = await findInDir(dir, `${room.name}.mdl`);
      if (!m) continue;
      try {
        mdl = await diskFile(`${room.name}.mdl`, m);
        const x = await findInDir(dir, `${room.name}.mdx`);
        mdx = x ? await diskFile(`${room.name}.mdx`, x) : null;
      } catch (e) {
        if (!(e instanceof TooLargeError) && !(e instanceof FileAccessError)) throw e;
        plan.gaps.push({ what: `${room.name}.mdl`, why: e.message });
        mdl = undefined;
        break;
      }
      plan.sources.push(`${m}`);
      break;
    }
    if (!mdl) {
      modules ??= await openKotorModules(store, lytRecord?.module ?? record.module, plan);
      for (const m of modules) {
        let hit;
        try {
          hit = m.resolver.resolve(room.name, KotorResType.MDL);
          if (!hit) continue;
          mdl = bytesFile(`${room.name}.mdl`, hit.data);
          const x = m.resolver.resolve(room.name, KotorResType.MDX);
          mdx = x ? bytesFile(`${room.name}.mdx`, x.data) : null;
        } catch (e) {
          if (!(e instanceof FileAccessError) && !isMalformedInputError(e)) throw e;
          plan.gaps.push({ what: `${room.name}.mdl`, why: e.message });
          break;
        }
        const o = hit.origin;
        plan.sources.push(`${room.name}.mdl (${o.kind === 'override' ? 'override' : o.kind === 'module' ? o.archive : `chitin.key: ${o.bif}`})`);
        break;
      }
    }
    if (!mdl) {
      const where = [...besides, ...gameFolders(store)];
      plan.gaps.push({ what: `${room.name}.mdl`, why: where.length === 0 ? 'the project has no game folder and the room was not imported from disk' : `not found beside the room or in the game folders (${where.join(', ')})` });
      continue;
    }
    const wok = woks.get(room.name.toLowerCase());
    // The WOK as imported: the model stands where the game's walkmesh put it, whatever the edits moved since.
    const imported = wok && { name: wok.name, identity: `project:${wok.sha256}`, read: async () => store.loadFileBytes(wok.id) };
    plan.kotorRooms.push({ label, mdl, mdx, place, ...(imported ? { wok: imported, placeByWalkmesh } : {}) });
  }
}

/**
 * NWN2: the area's terrain and water from its TRN's own packets (else the TRX's), the
 * models of its ARE's interior tiles (tiles.2da / metatiles.2da), and the models of the
 * GIT's placeables and doors, from the project's MDBs or the game folders, as the bake finds
 * them (placeables.2da, doortypes.2da / genericdoors.2da).
 */
async function planNwn2(store: ProjectStore, record: FileRecord, plan: ContextPlan): Promise<void> {
  const area = nwn2AreaFiles(store, record);
  const terrain = area.trn ?? area.trx ?? record;
  plan.nwn2Terrain = projectFile(store, terrain);
  plan.sources.push(`${terrain.module}/${terrain.name} (terrain and water packets)`);
  planNwn2TerrainTextures(store, terrain, plan);
  const mdbs = new Map<string, FileRecord>();
  for (const f of store.listFiles()) if (f.kind === 'mdb' || /\.mdb$/i.test(f.name)) if (!mdbs.has(stemOf(f.name).toLowerCase()) || f.module === record.module) mdbs.set(stemOf(f.name).toLowerCase(), f);
  let game: ProjectGameResources | undefined;
  const gameResources = () => (game ??= new ProjectGameResources(store));
  const files = new Map<string, PlannedFile | null>();
  const modelFile = (name: string): PlannedFile | null => {
    const k = name.toLowerCase();
    if (!files.has(k)) {
      const f = mdbs.get(k);
      let planned: PlannedFile | null = null;
      if (f) planned = projectFile(store, f);
      else {
        const hit = gameResources().find(name, 'mdb');
        if (hit) planned = bytesFile(`${name}.mdb`, hit.bytes);
      }
      files.set(k, planned);
    }
    return files.get(k)!;
  };
  plan.nwn2Models = [];
  // An interior's tiles: the ARE's TileList, named through tiles.2da / metatiles.2da (nwn2-model-context.ts).
  const are = store.listFiles({ module: record.module }).find((f) => f.kind === 'are' && f.area === record.area && stemOf(f.name).toLowerCase() === stemOf(record.name).toLowerCase());
  if (are) planNwn2Tiles(store, record.module, are, plan, modelFile, gameResources);
  if (!area.git) {
    plan.gaps.push({ what: 'placeables and doors', why: `the project holds no GIT of area ${record.area ?? stemOf(record.name)}` });
    if (game?.unusable.length) for (const u of game.unusable) plan.gaps.push({ what: u.folder, why: u.reason });
    return;
  }
  let git;
  try {
    git = readGff(store.loadCurrentBytes(area.git));
  } catch (e) {
    if (!isMalformedInputError(e)) throw e;
    plan.gaps.push({ what: area.git.name, why: e.message });
    return;
  }
  plan.sources.push(`${area.git.module}/${area.git.name} (placeables and doors)`);
  const lookup = projectPlaceableModels(store, record.module);
  const missing = new Map<string, number>();
  const place = (label: string, modelName: string | undefined, p: { x: number; y: number; z: number; bearing: number; scale: { x: number; y: number; z: number } }, why: string) => {
    if (!modelName) {
      missing.set(why, (missing.get(why) ?? 0) + 1);
      return;
    }
    const model = modelFile(modelName);
    if (!model) {
      const k = `${modelName}.mdb`;
      missing.set(k, (missing.get(k) ?? 0) + 1);
      return;
    }
    plan.nwn2Models!.push({ label, model, place: { x: p.x, y: p.y, z: p.z, bearing: p.bearing, scale: p.scale } });
  };
  for (const p of readGitPlaceables(git)) {
    place(`${p.tag ?? p.templateResRef ?? 'placeable'} (GIT #${p.index})`, lookup.modelName?.(p.appearance), p, `placeables.2da row ${p.appearance}`);
  }
  for (const d of readGitDoors(git)) {
    const found = lookup.door?.(d);
    place(`${d.tag ?? d.templateResRef ?? 'door'} (door #${d.index})`, found?.modelName, d, `door #${d.index}: ${found?.reason ?? 'no model named'}`);
  }
  for (const [what, n] of missing) {
    plan.gaps.push({ what, why: `${n} placed object${n === 1 ? '' : 's'} use it; not in the project or its game folders` });
  }
  if (game?.unusable.length) for (const u of game.unusable) plan.gaps.push({ what: u.folder, why: u.reason });
}

/**
 * The interior tiles of the area's ARE as placed models: each tile's model named by
 * tiles.2da / metatiles.2da (the module's, else another project module's, else the game
 * folders'), found like a placeable's MDB, placed at the tile centre and turned by its
 * Orientation (nwn2-model-context.ts). A tile whose table, row or model is missing is a gap.
 */
function planNwn2Tiles(store: ProjectStore, module: string, are: FileRecord, plan: ContextPlan, modelFile: (name: string) => PlannedFile | null, gameResources: () => ProjectGameResources): void {
  let tiles;
  try {
    tiles = readAreTiles(readGff(store.loadCurrentBytes(are)));
  } catch (e) {
    if (!isMalformedInputError(e)) throw e;
    plan.gaps.push({ what: are.name, why: e.message });
    return;
  }
  if (tiles.length === 0) return;
  const twoDa = projectTwoDa(store, module, gameResources);
  const tables = { tiles: twoDa('tiles'), metatiles: tiles.some((t) => t.metaTile !== 0) ? twoDa('metatiles') : undefined };
  const { placed, gaps } = nwn2TilePlacements(tiles, tables);
  plan.gaps.push(...gaps);
  const missing = new Map<string, number>();
  for (const t of placed) {
    const model = modelFile(t.modelName);
    if (!model) missing.set(t.modelName, (missing.get(t.modelName) ?? 0) + 1);
    else plan.nwn2Models!.push({ label: t.label, model, place: { x: t.place.x, y: t.place.y, z: t.place.z, bearing: t.place.bearing }, tile: { metaTile: t.metaTile } });
  }
  for (const [name, n] of missing) plan.gaps.push({ what: `${name}.mdb`, why: `${n} tile${n === 1 ? '' : 's'} of ${are.name} use it; not in the project or its game folders` });
  if (placed.length > 0) plan.sources.push(`${are.module}/${are.name} (${tiles.length} interior tile${tiles.length === 1 ? '' : 's'}, by tiles.2da)`);
}

/** The textures the terrain's megatiles name, found as the game finds them; the missing ones are a gap. */
function planNwn2TerrainTextures(store: ProjectStore, terrain: FileRecord, plan: ContextPlan): void {
  const { found, gaps } = findNwn2TerrainTextures(store, terrain, store.loadCurrentBytes(terrain));
  plan.gaps.push(...gaps);
  if (found.length === 0) return;
  plan.nwn2TerrainTextures = found.map((t) => bytesFile(t.name, t.bytes));
  plan.sources.push(`${found.length} terrain texture${found.length === 1 ? '' : 's'} (${found.map((t) => t.from).join(', ')})`);
}

/** Skyrim: the plugin (its LAND and placed references) and the project's masters, masters first. */
function planSkyrim(store: ProjectStore, record: FileRecord, plan: ContextPlan): void {
  const masters = store.listFiles({ kind: 'master' });
  plan.skyrimPlugins = [...masters.map((m) => projectFile(store, m)), projectFile(store, record)];
  plan.sources.push(...masters.map((m) => `${m.module}/${m.name} (master)`), `${record.module}/${record.name}`);
}

/** Where the context of `record` is read from, in its project. */
export async function planLevelContext(store: ProjectStore, record: FileRecord, game: GameId): Promise<ContextPlan> {
  const plan: ContextPlan = { game, sources: [], gaps: [] };
  if (game === 'source') await planSource(store, record, plan);
  else if (game === 'kotor') await planKotor(store, record, plan);
  else if (game === 'nwn2') await planNwn2(store, record, plan);
  else planSkyrim(store, record, plan);
  return plan;
}

/** Every identity the plan reads, for the cache key. */
export function planIdentities(plan: ContextPlan): { name: string; sha256: string }[] {
  const out: { name: string; sha256: string }[] = [];
  const add = (role: string, f: PlannedFile | null | undefined) => {
    if (f) out.push({ name: `${role}:${f.name}`, sha256: contentHash(new TextEncoder().encode(f.identity)) });
  };
  add('bsp', plan.bsp);
  add('terrain', plan.nwn2Terrain);
  plan.nwn2TerrainTextures?.forEach((t, i) => add(`texture${i}`, t));
  plan.kotorRooms?.forEach((r, i) => {
    add(`room${i}`, r.mdl);
    add(`room${i}x`, r.mdx);
    add(`room${i}w`, r.wok);
    out.push({ name: `room${i}:place`, sha256: contentHash(new TextEncoder().encode(JSON.stringify([r.label, r.place, r.placeByWalkmesh ?? false]))) });
  });
  plan.skyrimPlugins?.forEach((p, i) => add(`plugin${i}`, p));
  if (plan.nwn2Models) {
    const placed = plan.nwn2Models.map((m) => [m.label, m.model.identity, m.place, m.tile ?? null]);
    out.push({ name: 'placed models', sha256: contentHash(new TextEncoder().encode(JSON.stringify(placed))) });
  }
  out.push({ name: 'gaps', sha256: contentHash(new TextEncoder().encode(JSON.stringify(plan.gaps))) });
  return out;
}
