import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import { openErfDirectory, readErfDirectoryEntry, type ErfDirectory } from '../../shared/formats/archives/erf-directory';
import { openZip, readZipEntry, type ZipArchive } from '../../shared/formats/archives/zip-reader';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import { NWN2_RESOURCE_TYPES, Nwn2ResType } from '../../shared/formats/aurora/resource-types';
import { moduleHakList, nwn2DataZipOrder, resourceKey, type Nwn2SourceKind } from '../../shared/formats/nwn2/nwn2-resource-order';
import { FileAccessError, fileTypeName, readBytesSync } from './file-access';
import { FileByteSource } from './file-byte-source';
import { nodeFormatEnvironment as env } from './node-format-environment';

/** The folders an NWN2 lookup reads (see nwn2-resource-order.ts for the order). */
export interface Nwn2GameFolders {
  /** The install folder: `Data/*.zip`, `override/` (and `hak/` when haks are kept there). */
  game?: string;
  /** The module: its folder (with module.ifo) or its .mod. Its haks are looked up by name. */
  module?: string;
  /**
   * The user's NWN2 folder (Documents/Neverwinter Nights 2: `hak/`, `override/`). Default:
   * the folder holding the module's `modules` folder, when the module is in one.
   */
  user?: string;
  /**
   * The resource types (extensions) look-ups will ask for, e.g. `['mdb', '2da']`: zip
   * entries of other types are not kept in memory (an install's Data folder lists well over
   * 100,000 resources, sounds and voices mostly). Default: every type.
   */
  types?: readonly string[];
}

export interface Nwn2ResourceHit {
  bytes: Uint8Array;
  /** Where it was found: a file, or `archive:entry`. */
  from: string;
  kind: Nwn2SourceKind;
}

/** An archive that could not be opened: skipped, and said so in the reports. */
export interface Nwn2DamagedSource {
  file: string;
  reason: string;
}

interface Source {
  kind: Nwn2SourceKind;
  /** The folder or archive. */
  path: string;
  find(resRef: string, ext: string): Nwn2ResourceHit | undefined;
  close(): void;
}

const key = (resRef: string, ext: string) => `${resRef.toLowerCase()}.${ext.toLowerCase()}`;

/**
 * An NWN2 game's resources as the game finds them: the module's haks, the override
 * folders, the module and the install's Data zips, first hit wins, names matched without
 * regard to case. Folders are listed when opened; archives are opened (their directories
 * only) on the first look-up that reaches them, and a resource is read when found. One
 * object serves the CLI's bake and the app's. Files are opened for each read only
 * (file-byte-source.ts), so a lookup kept for a session holds none open; `close()` is
 * there for callers that release what they open.
 */
export class Nwn2GameResources {
  private readonly list: Source[] = [];
  private keep: ((name: string) => boolean) | undefined;
  /** Haks module.ifo names that were found in no hak folder. */
  readonly missingHaks: string[] = [];
  /** Archives that could not be opened (skipped). */
  readonly damaged: Nwn2DamagedSource[] = [];

  private constructor() {}

  /** Where resources are looked for, highest priority first. */
  get sources(): readonly { kind: Nwn2SourceKind; path: string }[] {
    return this.list.map((s) => ({ kind: s.kind, path: s.path }));
  }

  /**
   * Lists the folders and reads module.ifo (for the hak list). A folder given that does
   * not exist is a FileAccessError; an install without `Data` or `override` is fine (a
   * partial copy), but one with neither is refused as not an NWN2 install.
   */
  static open(folders: Nwn2GameFolders): Nwn2GameResources {
    const r = new Nwn2GameResources();
    if (folders.types) {
      const types = new Set(folders.types.map((t) => t.toLowerCase().replace(/^\./, '')));
      r.keep = (name) => types.has(resourceKey(name)?.ext ?? '');
    }
    const game = folders.game;
    const module = folders.module;
    if (game !== undefined) checkFolder(game);
    let moduleSource: Source | undefined;
    let haks: string[] = [];
    if (module !== undefined) {
      const isFolder = statOf(module).isDirectory();
      moduleSource = isFolder ? looseSource('module', module, true) : r.archiveSource('module', module);
      haks = moduleHaksOf(moduleSource);
    }
    const user = folders.user ?? (module !== undefined ? userFolderOf(module) : undefined);
    const hakDirs = [user && childFolder(user, 'hak'), game && childFolder(game, 'hak')].filter((d): d is string => d !== undefined);
    const hakFiles = new Map<string, string>();
    // Later folders fill in what earlier ones lack; within a folder a hak in a sub-folder
    // comes before one at the top (the wiki's load priority lists haks/subdir first).
    for (const dir of hakDirs) for (const f of listLoose(dir, true)) if (path.extname(f.name).toLowerCase() === '.hak' && !hakFiles.has(f.name.toLowerCase())) hakFiles.set(f.name.toLowerCase(), f.path);
    for (const h of haks) {
      const file = hakFiles.get(`${h.toLowerCase()}.hak`);
      if (file) r.list.push(r.archiveSource('hak', file));
      else r.missingHaks.push(h);
    }
    for (const dir of [user && childFolder(user, 'override'), game && childFolder(game, 'override')]) if (dir) r.list.push(looseSource('override', dir, true));
    if (moduleSource) r.list.push(moduleSource);
    const data = game && childFolder(game, 'data');
    if (data) {
      const zips = listLoose(data, false).filter((f) => path.extname(f.name).toLowerCase() === '.zip');
      const byName = new Map(zips.map((z) => [z.name, z.path]));
      for (const name of nwn2DataZipOrder([...byName.keys()])) r.list.push(r.archiveSource('data', byName.get(name)!));
    }
    if (game !== undefined && !data && !childFolder(game, 'override')) {
      throw new FileAccessError(game, 'is not an NWN2 install: it has neither a Data folder (the game\'s zips) nor an override folder');
    }
    return r;
  }

  /** The first `resRef.ext` in the game's order, or undefined. A damaged entry in an archive throws (MalformedInputError naming the archive). */
  find(resRef: string, ext: string): Nwn2ResourceHit | undefined {
    for (const s of this.list) {
      const hit = s.find(resRef.toLowerCase(), ext.toLowerCase());
      if (hit) return hit;
    }
    return undefined;
  }

  close(): void {
    for (const s of this.list) s.close();
  }

  /** An ERF (.hak, .mod) or zip, opened on first use; a damaged one is skipped and named. */
  private archiveSource(kind: Nwn2SourceKind, file: string): Source {
    let file_: FileByteSource | undefined;
    let index: ArchiveIndex | null | undefined;
    const open = (): ArchiveIndex | null => {
      if (index !== undefined) return index;
      try {
        file_ = FileByteSource.open(file);
        index = path.extname(file).toLowerCase() === '.zip' ? zipIndex(openZip(file_, this.keep ? { keep: this.keep } : {})) : erfIndex(openErfDirectory(file_));
      } catch (e) {
        if (!isMalformedInputError(e) && !(e instanceof FileAccessError)) throw e;
        file_?.close();
        index = null;
        this.damaged.push({ file, reason: isMalformedInputError(e) ? e.withFile(file).message : e.message });
      }
      return index;
    };
    return {
      kind,
      path: file,
      find: (resRef, ext) => {
        const bytes = open()?.read(key(resRef, ext));
        return bytes ? { bytes, from: `${file}:${resRef}.${ext}`, kind } : undefined;
      },
      close: () => file_?.close(),
    };
  }
}

/** An archive's resources by lower-case `resref.ext`: entry positions only (a Data zip may list tens of thousands). */
interface ArchiveIndex {
  read(key: string): Uint8Array | undefined;
}

function zipIndex(zip: ZipArchive): ArchiveIndex {
  const at = new Map<string, number>();
  zip.entries.forEach((e, i) => {
    if (e.name.endsWith('/')) return;
    const k = resourceKey(e.name);
    // The first entry of a name in the directory wins (an archive rarely holds two).
    if (k && !at.has(`${k.resRef}.${k.ext}`)) at.set(`${k.resRef}.${k.ext}`, i);
  });
  return { read: (k) => (at.has(k) ? readZipEntry(zip, zip.entries[at.get(k)!]!, env) : undefined) };
}

function erfIndex(dir: ErfDirectory): ArchiveIndex {
  const at = new Map<string, number>();
  dir.entries.forEach((e, i) => {
    const ext = NWN2_RESOURCE_TYPES.extension(e.type);
    if (ext !== undefined && !at.has(key(e.resRef, ext))) at.set(key(e.resRef, ext), i);
  });
  return { read: (k) => (at.has(k) ? readErfDirectoryEntry(dir, dir.entries[at.get(k)!]!) : undefined) };
}

/** A folder's files by name; with sub-folders, a file deeper down comes before one nearer the top. */
function looseSource(kind: Nwn2SourceKind, dir: string, recursive: boolean): Source {
  const files = new Map<string, string>();
  for (const f of listLoose(dir, recursive)) {
    const k = resourceKey(f.name);
    if (k && !files.has(`${k.resRef}.${k.ext}`)) files.set(`${k.resRef}.${k.ext}`, f.path);
  }
  return {
    kind,
    path: dir,
    find: (resRef, ext) => {
      const file = files.get(key(resRef, ext));
      return file ? { bytes: readBytesSync(file), from: file, kind } : undefined;
    },
    close: () => {},
  };
}

/** The haks a module's IFO names (a module without module.ifo names none). */
function moduleHaksOf(source: Source): string[] {
  const hit = source.find('module', NWN2_RESOURCE_TYPES.extension(Nwn2ResType.IFO)!);
  if (!hit) return [];
  try {
    return moduleHakList(readGff(hit.bytes));
  } catch (e) {
    throw isMalformedInputError(e) ? e.withFile(hit.from) : e;
  }
}

/** `…/Neverwinter Nights 2` when the module is `…/Neverwinter Nights 2/modules/<module>`. */
function userFolderOf(module: string): string | undefined {
  const parent = path.dirname(path.resolve(module));
  return path.basename(parent).toLowerCase() === 'modules' ? path.dirname(parent) : undefined;
}

function statOf(p: string) {
  try {
    return statSync(p);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw new FileAccessError(p, code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file or folder' : e instanceof Error ? e.message : String(e));
  }
}

function checkFolder(dir: string): void {
  const s = statOf(dir);
  if (!s.isDirectory()) throw new FileAccessError(dir, `is ${fileTypeName(s)}, not a folder`);
}

/** `dir/<name>` matched without regard to case (installs copied from Windows spell `Data`, `data`, `Override`…), when it is a folder. */
function childFolder(dir: string, name: string): string | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const hit = entries.find((e) => e.isDirectory() && e.name.toLowerCase() === name);
  return hit ? path.join(dir, hit.name) : undefined;
}

/**
 * Regular files in `dir` (sub-folders first when recursive, each level sorted by name, so
 * the order never depends on the file system). Symbolic links, FIFOs and devices are
 * never listed.
 */
function listLoose(dir: string, recursive: boolean): { name: string; path: string }[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw new FileAccessError(dir, code === 'ENOENT' ? 'no such folder' : e instanceof Error ? e.message : String(e));
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: { name: string; path: string }[] = [];
  if (recursive) for (const e of entries) if (e.isDirectory()) out.push(...listLoose(path.join(dir, e.name), true));
  for (const e of entries) if (e.isFile()) out.push({ name: e.name, path: path.join(dir, e.name) });
  return out;
}
