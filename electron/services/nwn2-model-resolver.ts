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
import { FileAccessError, fileTypeName, readBytes } from './file-access';

/** Column of placeables.2da that names a placeable's MDB model (spec §5.5). */
export const MODEL_COLUMN = 'NWN2_ModelName';
const ARCHIVE_EXTENSIONS = ['.hak', '.mod', '.erf'];

export interface ModelResolverOptions {
  /** Folders searched (with their sub-folders) for `<model>.mdb` and for .hak/.mod/.erf archives holding it. */
  modelDirs: readonly string[];
  /** Folder holding placeables.2da; when absent it is looked for in the model folders and their archives. */
  twoDaDir?: string;
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
 * order; an archive is read only when a model is not found loose). Models are read and
 * their WALK packets parsed once each.
 */
export class Nwn2ModelResolver {
  private readonly loose = new Map<string, string>();
  private readonly archives: string[] = [];
  private readonly opened = new Map<string, ErfIndex | null>();
  private readonly models = new Map<string, PlaceableModel | null>();
  private readonly sourceOf = new Map<string, string>();
  readonly lookups: ModelLookup[] = [];
  /** The archives searched that could not be read (a damaged .hak…), each once. */
  readonly damaged: DamagedArchive[] = [];

  private table: TwoDaTable | undefined;
  private tableSource: string | undefined;

  private constructor() {}

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
    if (options.twoDaDir !== undefined) {
      const f = (await listFiles(options.twoDaDir, false)).find((p) => path.basename(p).toLowerCase() === 'placeables.2da');
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
        this.damaged.push({ file, reason: isMalformedInputError(e) ? e.withFile(file).message : e.message });
      }
      if (doc) this.opened.set(file, new ErfIndex(doc));
      else this.opened.set(file, null);
    }
    return this.opened.get(file) ?? undefined;
  }

  private async findPlaceablesTable(files: readonly string[]): Promise<void> {
    const loose = files.find((f) => path.basename(f).toLowerCase() === 'placeables.2da');
    if (loose) {
      const bytes = await readBytes(loose);
      this.table = named(loose, () => readTwoDaText(bytes));
      this.tableSource = loose;
      return;
    }
    for (const a of this.archives) {
      const r = (await this.archive(a))?.get('placeables', Nwn2ResType.TWODA);
      if (r) {
        const from = `${a}:${r.resRef}.2da`;
        this.table = named(from, () => readTwoDaText(r.data));
        this.tableSource = from;
        return;
      }
    }
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
