import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import { ErfIndex, type ErfDocument } from '../../shared/formats/aurora/erf-document';
import { readErf } from '../../shared/formats/aurora/erf-reader';
import { Nwn2ResType } from '../../shared/formats/aurora/resource-types';
import type { TwoDaTable } from '../../shared/formats/aurora/twoda-table';
import { readTwoDaText } from '../../shared/formats/aurora/twoda-text';
import { readMdbWalkmeshes } from '../../shared/formats/nwn2/mdb-reader';
import type { PlaceableModel } from '../../shared/bakers/nwn2/placeable-walkmesh';
import { doorModelName, type DoorModelLookup } from '../../shared/bakers/nwn2/door-walkmesh';
import type { GitDoor } from '../../shared/formats/aurora/nwn2-git';
import { FileAccessError, fileTypeName, readBytes } from './file-access';
import { Nwn2GameResources, type Nwn2GameFolders } from './nwn2-game-resources';

/** Column of placeables.2da that names a placeable's MDB model (spec §5.5). */
export const MODEL_COLUMN = 'NWN2_ModelName';
const ARCHIVE_EXTENSIONS = ['.hak', '.mod', '.erf'];

export interface ModelResolverOptions {
  /** Folders searched (with their sub-folders) for `<model>.mdb` and for .hak/.mod/.erf archives holding it. */
  modelDirs: readonly string[];
  /** Folder holding placeables.2da; when absent it is looked for in the model folders and their archives. */
  twoDaDir?: string;
  /**
   * An NWN2 install (and module) searched after the folders above, in the game's order:
   * the module's haks, override, the module, the Data zips (nwn2-game-resources.ts).
   * `modelDirs` and `twoDaDir` come first: they act as loose override folders.
   */
  game?: Nwn2GameFolders;
}

/** Placeables whose model could not be found, grouped by model name (undefined: no placeables.2da row names one). */
export interface MissingModel {
  /** The model resref the row names, or undefined when the row or its cell is missing. */
  model: string | undefined;
  /** The placeables.2da rows that led to it (one, unless the table names a model twice). */
  appearances: number[];
  /** How many look-ups (placeables) ended here. */
  count: number;
}

/** An archive in the model folders that could not be read: skipped, and said so. */
export interface DamagedArchive {
  file: string;
  reason: string;
}

export interface ModelLookup {
  appearance: number;
  model: string | undefined;
  /** Where the model was found (a file, or `archive.hak:resref.mdb`), or undefined. */
  from: string | undefined;
}

/**
 * Finds the MDB models of NWN2 placeables: `Appearance` → placeables.2da row →
 * `NWN2_ModelName` → `<name>.mdb`, matched without regard to case, first as a loose file
 * in the model folders, then inside the .hak/.mod/.erf archives there (in sorted path
 * order; an archive is read only when a model is not found loose), then, with `game`, in
 * the game's own order (haks, override, module, Data zips: nwn2-game-resources.ts). Models
 * are read and their WALK packets parsed once each.
 */
export class Nwn2ModelResolver {
  private readonly loose = new Map<string, string>();
  private readonly archives: string[] = [];
  private readonly opened = new Map<string, ErfIndex | null>();
  private readonly models = new Map<string, PlaceableModel | null>();
  private readonly sourceOf = new Map<string, string>();
  readonly lookups: ModelLookup[] = [];
  private readonly damagedHere: DamagedArchive[] = [];
  private game: Nwn2GameResources | undefined;
  private readonly tables = new Map<string, { table: TwoDaTable; from: string } | null>();

  private table: TwoDaTable | undefined;
  private tableSource: string | undefined;
  /** Each door looked up with resolveDoor, in order. */
  readonly doorLookups: (DoorModelLookup & { index: number; from: string | undefined })[] = [];

  private constructor() {}

  /** The archives searched that could not be read (a damaged .hak, a Data zip…), each once. */
  get damaged(): DamagedArchive[] {
    return [...this.damagedHere, ...(this.game?.damaged ?? [])];
  }

  /** The game's sources searched after the folders, highest priority first (empty without `game`). */
  get gameSources(): readonly { kind: string; path: string }[] {
    return this.game?.sources ?? [];
  }

  /** Haks module.ifo names that were found in no hak folder. */
  get missingHaks(): readonly string[] {
    return this.game?.missingHaks ?? [];
  }

  /**
   * The look-ups that found no model, grouped by model name, most frequent first. preload()
   * looks each row up once, so `count` is per row here; the bake service counts placeables.
   */
  get missing(): MissingModel[] {
    const groups = new Map<string, MissingModel>();
    for (const l of this.lookups) {
      if (l.from !== undefined) continue;
      const k = l.model?.toLowerCase() ?? `#${l.appearance}`;
      let g = groups.get(k);
      if (!g) groups.set(k, (g = { model: l.model, appearances: [], count: 0 }));
      g.count++;
      if (!g.appearances.includes(l.appearance)) g.appearances.push(l.appearance);
    }
    return [...groups.values()].sort((a, b) => b.count - a.count || (a.model ?? '').localeCompare(b.model ?? '') || a.appearances[0]! - b.appearances[0]!);
  }

  /** Releases the game archives' open files. */
  close(): void {
    this.game?.close();
  }

  /** placeables.2da as found, or undefined. */
  get placeables(): TwoDaTable | undefined {
    return this.table;
  }

  /** Where placeables.2da was read from (a file, or `archive.hak:placeables.2da`). */
  get placeablesSource(): string | undefined {
    return this.tableSource;
  }

  static async open(options: ModelResolverOptions): Promise<Nwn2ModelResolver> {
    const files: string[] = [];
    for (const dir of options.modelDirs) files.push(...(await listFiles(dir)));
    files.sort();
    const resolver = new Nwn2ModelResolver();
    // Models and tables are all a resolver reads: other zip entries are not kept.
    if (options.game) resolver.game = Nwn2GameResources.open({ types: ['mdb', '2da'], ...options.game });
    resolver.files = files;
    if (options.twoDaDir !== undefined) {
      resolver.twoDaDir = options.twoDaDir;
      resolver.twoDaFiles = await listFiles(options.twoDaDir, false);
      const f = resolver.twoDaFiles.find((p) => path.basename(p).toLowerCase() === 'placeables.2da');
      if (!f) throw new FileAccessError(path.join(options.twoDaDir, 'placeables.2da'), 'no such file');
      const bytes = await readBytes(f);
      resolver.table = named(f, () => readTwoDaText(bytes));
      resolver.tableSource = f;
    }
    for (const f of files) {
      const lower = path.basename(f).toLowerCase();
      const ext = path.extname(lower);
      if (ext === '.mdb' && !resolver.loose.has(lower.slice(0, -4))) resolver.loose.set(lower.slice(0, -4), f);
      else if (ARCHIVE_EXTENSIONS.includes(ext)) resolver.archives.push(f);
    }
    if (!resolver.table) await resolver.findPlaceablesTable(files);
    return resolver;
  }

  /** The model resref of a placeables.2da row, or undefined (no table, no such row, empty cell). */
  modelName(appearance: number): string | undefined {
    const name = this.placeables?.cell(appearance, MODEL_COLUMN)?.trim();
    return name && name.length > 0 ? name : undefined;
  }

  /**
   * A model by its resref (a door's, from doortypes.2da…), with its walkmeshes, searched as
   * placeables' models are; undefined when it cannot be found. Not recorded in `lookups`.
   */
  async model(name: string): Promise<PlaceableModel | undefined> {
    const key = name.trim().toLowerCase();
    if (key === '') return undefined;
    if (!this.models.has(key)) this.models.set(key, await this.load(name.trim(), key));
    return this.models.get(key) ?? undefined;
  }

  /**
   * Any 2DA by name (`doortypes`…): from the 2DA folder, the model folders (loose, then
   * their archives), then the game; undefined when none has it. placeables.2da is `placeables`.
   */
  async twoDa(name: string): Promise<TwoDaTable | undefined> {
    const key = name.toLowerCase().replace(/\.2da$/, '');
    if (key === 'placeables' && this.table) return this.table;
    if (!this.tables.has(key)) this.tables.set(key, await this.findTable(key));
    return this.tables.get(key)?.table;
  }

  /** Where a 2DA read through twoDa() came from. */
  twoDaSource(name: string): string | undefined {
    const key = name.toLowerCase().replace(/\.2da$/, '');
    return key === 'placeables' && this.table ? this.tableSource : this.tables.get(key)?.from;
  }

  /** The model of a placeables.2da row with its walkmeshes, or undefined when it cannot be found. */
  async resolve(appearance: number): Promise<PlaceableModel | undefined> {
    const name = this.modelName(appearance);
    if (!name) {
      this.lookups.push({ appearance, model: undefined, from: undefined });
      return undefined;
    }
    const key = name.toLowerCase();
    if (!this.models.has(key)) this.models.set(key, await this.load(name, key));
    const model = this.models.get(key) ?? undefined;
    this.lookups.push({ appearance, model: name, from: model ? this.sourceOf.get(key) : undefined });
    return model;
  }

  /**
   * Resolves every row in `appearances` (for a synchronous bake): returns a lookup that
   * answers from what was loaded.
   */
  async preload(appearances: Iterable<number>): Promise<(appearance: number) => PlaceableModel | undefined> {
    const done = new Map<number, PlaceableModel | undefined>();
    for (const a of appearances) if (!done.has(a)) done.set(a, await this.resolve(a));
    return (a) => done.get(a);
  }

  /**
   * A door's model (door-walkmesh.ts): its doortypes.2da or genericdoors.2da row, the model
   * that row names, and that model when found. Recorded in `doorLookups`.
   */
  async resolveDoor(door: GitDoor): Promise<DoorModelLookup> {
    const doortypes = door.appearance !== 0 ? await this.twoDa('doortypes') : undefined;
    const genericdoors = door.appearance === 0 ? await this.twoDa('genericdoors') : undefined;
    const found = doorModelName(door, { ...(doortypes ? { doortypes } : {}), ...(genericdoors ? { genericdoors } : {}) });
    const model = found.modelName !== undefined ? await this.model(found.modelName) : undefined;
    const lookup: DoorModelLookup = { ...found, ...(model ? { model } : {}) };
    this.doorLookups.push({ ...lookup, index: door.index, from: model && found.modelName ? this.sourceOf.get(found.modelName.trim().toLowerCase()) : undefined });
    return lookup;
  }

  /** Resolves every door (for a synchronous bake): returns a lookup by the door's position in the Door List. */
  async preloadDoors(doors: readonly GitDoor[]): Promise<(door: GitDoor) => DoorModelLookup | undefined> {
    const done = new Map<number, DoorModelLookup>();
    for (const d of doors) if (!done.has(d.index)) done.set(d.index, await this.resolveDoor(d));
    return (d) => done.get(d.index);
  }

  private async load(name: string, key: string): Promise<PlaceableModel | null> {
    const file = this.loose.get(key);
    if (file) {
      this.sourceOf.set(key, file);
      const bytes = await readBytes(file);
      return { name, walkmeshes: named(file, () => readMdbWalkmeshes(bytes)) };
    }
    for (const a of this.archives) {
      const index = await this.archive(a);
      const r = index?.get(name, Nwn2ResType.MDB);
      if (r) {
        const from = `${a}:${r.resRef}.mdb`;
        this.sourceOf.set(key, from);
        return { name, walkmeshes: named(from, () => readMdbWalkmeshes(r.data)) };
      }
    }
    const hit = this.game?.find(name, 'mdb');
    if (hit) {
      this.sourceOf.set(key, hit.from);
      return { name, walkmeshes: named(hit.from, () => readMdbWalkmeshes(hit.bytes)) };
    }
    return null;
  }

  private async archive(file: string): Promise<ErfIndex | undefined> {
    if (!this.opened.has(file)) {
      let doc: ErfDocument | undefined;
      try {
        doc = readErf(await readBytes(file));
      } catch (e) {
        // A damaged archive does not stop the search for models in the others, but it is
        // named (the bake's and the import's reports list it), never skipped in silence.
        if (!isMalformedInputError(e) && !(e instanceof FileAccessError)) throw e;
        doc = undefined;
        this.damagedHere.push({ file, reason: isMalformedInputError(e) ? e.withFile(file).message : e.message });
      }
      if (doc) this.opened.set(file, new ErfIndex(doc));
      else this.opened.set(file, null);
    }
    return this.opened.get(file) ?? undefined;
  }

  private async findPlaceablesTable(files: readonly string[]): Promise<void> {
    this.files = files;
    const found = await this.findTable('placeables');
    if (found) {
      this.table = found.table;
      this.tableSource = found.from;
    }
  }

  private files: readonly string[] = [];
  private twoDaDir: string | undefined;
  private twoDaFiles: readonly string[] = [];

  /** `<name>.2da`: the 2DA folder, loose in the model folders, in their archives, then in the game. */
  private async findTable(name: string): Promise<{ table: TwoDaTable; from: string } | null> {
    const fileName = `${name}.2da`;
    const loose = (this.twoDaDir !== undefined ? this.twoDaFiles : []).find((f) => path.basename(f).toLowerCase() === fileName) ?? this.files.find((f) => path.basename(f).toLowerCase() === fileName);
    if (loose) {
      const bytes = await readBytes(loose);
      return { table: named(loose, () => readTwoDaText(bytes)), from: loose };
    }
    for (const a of this.archives) {
      const r = (await this.archive(a))?.get(name, Nwn2ResType.TWODA);
      if (r) {
        const from = `${a}:${r.resRef}.2da`;
        return { table: named(from, () => readTwoDaText(r.data)), from };
      }
    }
    const hit = this.game?.find(name, '2da');
    if (hit) return { table: named(hit.from, () => readTwoDaText(hit.bytes)), from: hit.from };
    return null;
  }
}

/** Runs a reader of an input of the bake, naming that input (`file` or `archive:resource`) in a MalformedInputError. */
function named<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw isMalformedInputError(e) ? e.withFile(file) : e;
  }
}

/**
 * Regular files below `dir` (recursively unless told otherwise). Only regular files are
 * listed: FIFOs, devices, sockets and symbolic links in the folders are never opened.
 */
async function listFiles(dir: string, recursive = true): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOTDIR') {
      const s = await stat(dir).catch(() => null);
      throw new FileAccessError(dir, `is ${s ? fileTypeName(s) : 'not a folder'}, not a folder`);
    }
    throw new FileAccessError(dir, code === 'ENOENT' ? 'no such folder' : e instanceof Error ? e.message : String(e));
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (recursive) out.push(...(await listFiles(full)));
    } else if (e.isFile()) out.push(full);
  }
  return out;
}
