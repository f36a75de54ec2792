import { readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { MalformedInputError } from '../../shared/binary/malformed-input-error';
import type { BifDocument } from '../../shared/formats/aurora/bif-document';
import { readBif } from '../../shared/formats/aurora/bif-reader';
import { readErf } from '../../shared/formats/aurora/erf-reader';
import type { KeyBif, KeyDocument } from '../../shared/formats/aurora/key-document';
import { readKey } from '../../shared/formats/aurora/key-reader';
import { readRim } from '../../shared/formats/aurora/rim-reader';
import {
  KotorResourceResolver,
  moduleCapsuleOrder,
  type ModuleArchiveSource,
  type ResourceArchive,
} from '../../shared/formats/kotor/kotor-resource-resolver';
import { FileAccessError, readBytes, readBytesSync } from './file-access';

/**
 * A KotOR / TSL install as Walkbench sees it: `override/`, `modules/`, `chitin.key` and the
 * BIFs it names (`data/*.bif`). Every name is matched without regard to case, so installs
 * copied to case-sensitive file systems (Linux, macOS ports: `Override/`, `Modules/`,
 * `Chitin.key`, `data\2DA.bif` in the key) work as on Windows (kotor-bwm.md §8.4).
 */
export interface KotorGameFolder {
  root: string;
  /** Absolute path of the override folder, when present. */
  overrideDir: string | undefined;
  /** File names (as on disk) directly in the override folder. */
  overrideFiles: string[];
  modulesDir: string | undefined;
  /** File names (as on disk) directly in the modules folder. */
  moduleFiles: string[];
  chitinKey: string | undefined;
}

interface DirEntryLike {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
}

function findEntry(entries: readonly DirEntryLike[], name: string, kind: 'file' | 'dir'): DirEntryLike | undefined {
  const want = name.toLowerCase();
  return entries.find((e) => e.name.toLowerCase() === want && (kind === 'file' ? e.isFile() : e.isDirectory()));
}

async function listDir(dir: string): Promise<DirEntryLike[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (e) {
    throw new FileAccessError(dir, e instanceof Error ? e.message : String(e));
  }
}

/** Lists the parts of a game folder that resource look-up uses. */
export async function scanKotorGameFolder(root: string): Promise<KotorGameFolder> {
  const top = await listDir(root);
  const overrideEntry = findEntry(top, 'override', 'dir');
  const modulesEntry = findEntry(top, 'modules', 'dir');
  const keyEntry = findEntry(top, 'chitin.key', 'file');
  const overrideDir = overrideEntry ? path.join(root, overrideEntry.name) : undefined;
  const modulesDir = modulesEntry ? path.join(root, modulesEntry.name) : undefined;
  const filesIn = async (dir: string | undefined) => (dir === undefined ? [] : (await listDir(dir)).filter((e) => e.isFile()).map((e) => e.name).sort());
  return {
    root,
    overrideDir,
    overrideFiles: await filesIn(overrideDir),
    modulesDir,
    moduleFiles: await filesIn(modulesDir),
    chitinKey: keyEntry ? path.join(root, keyEntry.name) : undefined,
  };
}

/** Module resrefs with a capsule in `modules/` (`m01aa` for m01aa.mod / .rim / _s.rim / _dlg.erf), sorted. */
export function kotorModuleNames(folder: KotorGameFolder): string[] {
  const names = new Set<string>();
  for (const f of folder.moduleFiles) {
    const m = /^(.+?)(_s\.rim|_dlg\.erf|\.rim|\.mod)$/i.exec(f);
    if (m) names.add(m[1]!.toLowerCase());
  }
  return [...names].sort();
}

/**
 * The path of a file named relative to the game folder (e.g. a KEY's `data\2da.bif`),
 * resolving each component without regard to case; undefined when it does not exist.
 */
export function resolveGamePath(root: string, relative: string): string | undefined {
  let dir = root;
  const parts = relative.split(/[\\/]+/).filter((p) => p.length > 0 && p !== '.');
  for (let i = 0; i < parts.length; i++) {
    let entries: DirEntryLike[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    const hit = findEntry(entries, parts[i]!, i === parts.length - 1 ? 'file' : 'dir');
    if (hit === undefined) return undefined;
    dir = path.join(dir, hit.name);
  }
  return parts.length > 0 ? dir : undefined;
}

/** A regular file's bytes; a FIFO, device or socket (or a link to one) is refused unread. */
const readSync = readBytesSync;

function named<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw e instanceof MalformedInputError ? e.withFile(file) : e;
  }
}

async function readCapsule(file: string): Promise<ResourceArchive> {
  const bytes = await readBytes(file);
  return named(file, () => (file.toLowerCase().endsWith('.rim') ? readRim(bytes) : readErf(bytes)));
}

export interface OpenedKotorModule {
  resolver: KotorResourceResolver;
  /** The capsules searched, in order (file names as on disk). */
  capsules: string[];
  key: KeyDocument | undefined;
}

/**
 * A resolver for one module of the game folder: override, then the module's capsules
 * (`<m>.mod`, else `<m>.rim` + `<m>_s.rim` + `<m>_dlg.erf`), then chitin.key and its BIFs.
 * Capsules and the key are read now; override files and BIFs when first needed. Malformed
 * files fail with MalformedInputError naming the file; a BIF the key lists but the folder
 * lacks fails with FileAccessError.
 */
export async function openKotorModule(folder: KotorGameFolder, moduleName: string): Promise<OpenedKotorModule> {
  const capsules = folder.modulesDir === undefined ? [] : moduleCapsuleOrder(moduleName, folder.moduleFiles);
  const modules: ModuleArchiveSource[] = [];
  for (const name of capsules) modules.push({ name, archive: await readCapsule(path.join(folder.modulesDir!, name)) });
  let key: KeyDocument | undefined;
  if (folder.chitinKey !== undefined) {
    const keyPath = folder.chitinKey;
    const bytes = await readBytes(keyPath);
    key = named(keyPath, () => readKey(bytes));
  }
  const overrideDir = folder.overrideDir;
  const loadBif = (bif: KeyBif): BifDocument => {
    const file = resolveGamePath(folder.root, bif.fileName);
    if (file === undefined) throw new FileAccessError(path.join(folder.root, bif.fileName.replace(/\\/g, '/')), 'no such file (listed in chitin.key)');
    const bytes = readSync(file);
    return named(file, () => readBif(bytes));
  };
  const resolver = new KotorResourceResolver({
    override: overrideDir === undefined ? undefined : { files: folder.overrideFiles, read: (f) => readSync(path.join(overrideDir, f)) },
    modules,
    chitin: key === undefined ? undefined : { key, loadBif },
  });
  return { resolver, capsules, key };
}
