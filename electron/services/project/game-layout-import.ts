import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { readErf, sniffErf } from '../../../shared/formats/aurora/erf-reader';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { readGitPlaceables } from '../../../shared/formats/aurora/nwn2-git';
import { KotorResType, resourceTypes, type AuroraGame } from '../../../shared/formats/aurora/resource-types';
import { readRim, sniffRim } from '../../../shared/formats/aurora/rim-reader';
import { readAnyTwoDa } from '../../../shared/formats/aurora/twoda-binary';
import type { TwoDaTable } from '../../../shared/formats/aurora/twoda-table';
import { readKotorGitPlacements } from '../../../shared/formats/kotor/kotor-git-placement';
import { KOTOR_MODEL_TABLES, kotorTemplateModel } from '../../../shared/formats/kotor/kotor-object-model';
import type { KotorResourceResolver } from '../../../shared/formats/kotor/kotor-resource-resolver';
import { readLyt } from '../../../shared/formats/kotor/lyt-reader';
import type { GameId } from '../../../shared/model/walkmesh';
import { checkRegularFile, FileAccessError, fileTypeName, readBytes } from '../file-access';
import { kotorModuleNames, openKotorModule, scanKotorGameFolder } from '../kotor-game-folder';
import { Nwn2ModelResolver } from '../nwn2-model-resolver';

/**
 * One file to import: a loose file, or a resource inside an archive or a game install
 * (then `path` says where: `module.mod:area.trx`, `chitin.key:data\models.bif:room.wok`).
 */
export interface ImportCandidate {
  path: string;
  /**
   * The module as far as the sources tell (an NWN2 module folder or `.mod`, the module named
   * with `--module`, the KotOR game folder's module), else the folder rule's. The rules of
   * KotOR, Skyrim and Source are applied at import, once each file's kind is known (see
   * import-module-names.ts).
   */
  module: string;
  /**
   * The module by the folder rule of earlier versions (a loose file's folder, the folder
   * walked, an archive's name): the fall-back when no game rule names one, and where a
   * project imported by an earlier version holds the file.
   */
  folderModule: string;
  name: string;
  /** Present when the bytes are already read (archive resources). */
  bytes?: Uint8Array;
  /** Why the file is skipped without reading it. */
  skip?: string;
}

export interface LayoutOptions {
  game: GameId;
  /** Module every file goes to; for a KotOR game folder, the modules to import. */
  module?: string;
  /** NWN2: folders searched for the MDB models (loose or in .hak/.mod/.erf) and placeables.2da the placeables need. */
  modelDirs?: readonly string[];
  /** NWN2: the folder holding placeables.2da, when not among the model folders. */
  twoDaDir?: string;
}

const ARCHIVE_EXTENSIONS = new Set(['.mod', '.erf', '.hak', '.rim']);
const PLUGIN_EXTENSIONS = new Set(['.esp', '.esm', '.esl']);

/**
 * True for a folder, false for a regular file; anything else a source names (a FIFO, a
 * device, a socket, or a link to one) is refused before it is opened.
 */
async function isDir(p: string): Promise<boolean> {
  try {
    if ((await stat(p)).isDirectory()) return true;
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ENOENT') throw new FileAccessError(p, 'no such file or folder');
    throw new FileAccessError(p, e instanceof Error ? e.message : String(e));
  }
  await checkRegularFile(p);
  return false;
}

async function entriesOf(dir: string) {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (e) {
    throw new FileAccessError(dir, e instanceof Error ? e.message : String(e));
  }
}

async function childAnyCase(dir: string, name: string, kind: 'file' | 'dir'): Promise<string | undefined> {
  const want = name.toLowerCase();
  const hit = (await entriesOf(dir)).find((e) => e.name.toLowerCase() === want && (kind === 'dir' ? e.isDirectory() : e.isFile()));
  return hit ? path.join(dir, hit.name) : undefined;
}

/** A regular file's bytes (FIFOs, devices and sockets are refused unread, file-access.ts). */
const readAll = readBytes;

/**
 * Why a folder entry that is neither a folder nor a regular file is skipped: a FIFO, a
 * device or a socket is never opened, and symbolic links are not followed (a link back up
 * the tree would loop); the reason names what the entry is.
 */
async function specialEntryReason(full: string): Promise<string> {
  try {
    const own = await lstat(full);
    if (!own.isSymbolicLink()) return `is ${fileTypeName(own)}, not a regular file`;
    const target = await stat(full).catch(() => null);
    return target === null
      ? 'is a symbolic link to nothing (links are not followed in a folder)'
      : `is a symbolic link to ${fileTypeName(target)} (links are not followed in a folder; name its target as a source)`;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * The module an archive's resources belong to: its name, without `_s` of a `_s.rim` or
 * `_dlg` of a `_dlg.erf` (KotOR's split capsules); an NWN2 `x_s.mod` is module `x_s`.
 */
export function moduleOfArchive(file: string): string {
  return path.basename(file).replace(/(?:_s(?=\.rim$)|_dlg(?=\.erf$))?\.[^.]+$/i, '');
}

/**
 * The resources of an ERF (`.mod`, `.erf`, `.hak`) or RIM as import candidates named
 * `resref.ext`; resource types are those of the project's game (NWN2 and KotOR reuse ids
 * above 3000), or of the archive's version when the project is of neither.
 */
export function archiveCandidates(file: string, bytes: Uint8Array, game: GameId, module: string): ImportCandidate[] {
  try {
    const isRim = sniffRim(bytes);
    const doc = isRim ? readRim(bytes) : readErf(bytes);
    const aurora: AuroraGame = game === 'nwn2' || game === 'kotor' ? game : isRim || (doc as { version?: string }).version === 'V1.0' ? 'kotor' : 'nwn2';
    const types = resourceTypes(aurora);
    return doc.resources.map((r) => {
      const ext = types.extension(r.type);
      const name = `${r.resRef}.${ext ?? `type${r.type}`}`;
      return { path: `${file}:${name}`, module, folderModule: module, name, bytes: r.data };
    });
  } catch (e) {
    if (isMalformedInputError(e)) throw e.withFile(file);
    throw e;
  }
}

function looksLikeArchive(name: string, head: Uint8Array): boolean {
  return ARCHIVE_EXTENSIONS.has(path.extname(name).toLowerCase()) && (sniffErf(head) || sniffRim(head));
}

/** The module of a loose file as far as its folders tell, and by the folder rule. */
type Place = Pick<ImportCandidate, 'module' | 'folderModule'>;

async function walkFolder(folder: string, place: Place, options: LayoutOptions, out: ImportCandidate[]): Promise<void> {
  const entries = await entriesOf(folder);
  // NWN2: a folder holding module.ifo is a module in the toolset's directory mode
  // (`Modules/<name>/`, nwn2-trn-trx.md), so its files belong to that module even when the
  // import starts from the folder above it (the `Modules/` folder itself, say).
  if (options.game === 'nwn2' && options.module === undefined && entries.some((e) => e.isFile() && e.name.toLowerCase() === 'module.ifo')) {
    place = { ...place, module: path.basename(folder) };
  }
  for (const e of entries) {
    const full = path.join(folder, e.name);
    // Symbolic links are not followed, so a link back up the tree cannot loop; they, FIFOs,
    // devices and sockets are listed as skipped with what they are.
    if (e.isDirectory()) await walkFolder(full, place, options, out);
    else if (e.isFile()) await addFile(full, place, options, out, false);
    else out.push({ path: full, ...place, name: e.name, skip: await specialEntryReason(full) });
  }
}

/**
 * Adds a file, or an archive's resources. A damaged archive named as a source stops the
 * import with its error; one met while walking a folder is skipped with the reason, so one
 * bad file in a game folder does not stop the rest.
 */
async function addFile(file: string, place: Place, options: LayoutOptions, out: ImportCandidate[], named: boolean): Promise<void> {
  const name = path.basename(file);
  const ext = path.extname(name).toLowerCase();
  // A Skyrim Data folder holds gigabytes of BSA archives and loose assets: only plugins are read.
  if (options.game === 'skyrim' && !PLUGIN_EXTENSIONS.has(ext)) {
    out.push({ path: file, ...place, name, skip: 'not a Skyrim plugin (.esp, .esm, .esl)' });
    return;
  }
  if (ARCHIVE_EXTENSIONS.has(ext)) {
    const bytes = await readAll(file);
    if (looksLikeArchive(name, bytes)) {
      try {
        out.push(...archiveCandidates(file, bytes, options.game, options.module ?? moduleOfArchive(file)));
      } catch (e) {
        if (named || !isMalformedInputError(e)) throw e;
        out.push({ path: file, ...place, name, skip: `damaged archive: ${e.message}` });
      }
      return;
    }
    out.push({ path: file, ...place, name, bytes });
    return;
  }
  out.push({ path: file, ...place, name });
}

/**
 * KotOR install: for the module asked, its layout (LYT), GIT and ARE, the walkmesh of every
 * room the layout lists and of every placeable and door the GIT places, each found as the
 * game finds it (override, then the module's capsules, then chitin.key and its BIFs), plus
 * the walkmeshes (WOK, PWK, DWK) in the module's own capsules.
 */
async function kotorGameCandidates(root: string, options: LayoutOptions, out: ImportCandidate[]): Promise<void> {
  const folder = await scanKotorGameFolder(root);
  const names = kotorModuleNames(folder);
  if (options.module === undefined) {
    throw new FileAccessError(root, `is a KotOR game folder: name the module to import with --module (one of ${names.slice(0, 12).join(', ')}${names.length > 12 ? ', …' : ''})`);
  }
  const m = options.module.toLowerCase();
  if (!names.includes(m) && folder.chitinKey === undefined) throw new FileAccessError(root, `has no module "${options.module}" in modules/`);
  const opened = await openKotorModule(folder, m);
  const seen = new Set<string>();
  const push = (resRef: string, type: number) => {
    const ext = resourceTypes('kotor').extension(type)!;
    const name = `${resRef}.${ext}`;
    if (seen.has(name.toLowerCase())) return;
    const r = opened.resolver.resolve(resRef, type);
    if (!r) return;
    seen.add(name.toLowerCase());
    const where =
      r.origin.kind === 'override'
        ? path.join(folder.overrideDir!, r.origin.file)
        : r.origin.kind === 'module'
          ? `${path.join(folder.modulesDir!, r.origin.archive)}:${name}`
          : `${folder.chitinKey!}:${r.origin.bif}:${name}`;
    out.push({ path: where, module: options.module!, folderModule: options.module!, name, bytes: r.data });
  };
  push(m, KotorResType.LYT);
  push(m, KotorResType.GIT);
  push(m, KotorResType.ARE);
  const lyt = out.find((c) => c.name.toLowerCase() === `${m}.lyt`);
  if (lyt?.bytes) {
    let rooms: string[] = [];
    try {
      rooms = readLyt(lyt.bytes).rooms.map((r) => r.name);
    } catch (e) {
      if (isMalformedInputError(e)) throw e.withFile(lyt.path);
      throw e;
    }
    for (const room of rooms) push(room, KotorResType.WOK);
  }
  const git = out.find((c) => c.name.toLowerCase() === `${m}.git` && c.module === options.module);
  if (git?.bytes) for (const [resRef, type] of kotorObjectWalkmeshes(opened.resolver, git.bytes, git.path)) push(resRef, type);
  for (const capsule of opened.capsules) {
    for (const c of archiveCandidates(path.join(folder.modulesDir!, capsule), await readAll(path.join(folder.modulesDir!, capsule)), 'kotor', options.module)) {
      const ext = path.extname(c.name).toLowerCase();
      if ((ext === '.wok' || ext === '.pwk' || ext === '.dwk') && !seen.has(c.name.toLowerCase())) {
        seen.add(c.name.toLowerCase());
        out.push(c);
      }
    }
  }
}

/**
 * The PWK of each placeable and the DWKs of each door a KotOR GIT places (kotor-bwm.md
 * §7.4): template (UTP/UTD) → `Appearance` → `modelname` of placeables.2da /
 * genericdoors.2da → `<model>.pwk`, `<model>0.dwk` … `<model>2.dwk` (closed, open one way,
 * the other). Whatever cannot be found is left out: the bake works without it.
 */
export function kotorObjectWalkmeshes(resolver: KotorResourceResolver, gitBytes: Uint8Array, gitPath: string): [string, number][] {
  let placements;
  try {
    placements = readKotorGitPlacements(readGff(gitBytes));
  } catch (e) {
    if (isMalformedInputError(e)) throw e.withFile(gitPath);
    throw e;
  }
  const tables = new Map<string, TwoDaTable | null>();
  const table = (name: string): TwoDaTable | null => {
    if (!tables.has(name)) {
      const r = resolver.resolve(name, KotorResType.TWODA);
      let t: TwoDaTable | null = null;
      try {
        t = r ? readAnyTwoDa(r.data) : null;
      } catch (e) {
        if (!isMalformedInputError(e)) throw e;
      }
      tables.set(name, t);
    }
    return tables.get(name)!;
  };
  // The templates and tables come along too, so the project can name each object's model
  // again later (the footprint view) without the game folder.
  const wanted: [string, number][] = [];
  const modelOf = (template: string | undefined, templateType: number, tableName: string): string | undefined => {
    if (!template) return undefined;
    const r = resolver.resolve(template, templateType);
    if (!r) return undefined;
    const model = kotorTemplateModel(r.data, table(tableName));
    if (model) wanted.push([template, templateType], [tableName, KotorResType.TWODA]);
    return model;
  };
  for (const p of placements.placeables) {
    const model = modelOf(p.templateResRef, KotorResType.UTP, KOTOR_MODEL_TABLES.placeable);
    if (model) wanted.push([model, KotorResType.PWK]);
  }
  for (const d of placements.doors) {
    const model = modelOf(d.templateResRef, KotorResType.UTD, KOTOR_MODEL_TABLES.door);
    if (model) for (const state of ['0', '1', '2']) wanted.push([`${model}${state}`, KotorResType.DWK]);
  }
  return wanted;
}

/**
 * NWN2: the MDB models and placeables.2da that the placeables of the imported GITs need,
 * from the model folders (loose, or inside their .hak/.mod/.erf), each imported once.
 */
async function nwn2ModelCandidates(candidates: readonly ImportCandidate[], options: LayoutOptions, out: ImportCandidate[]): Promise<void> {
  const modelDirs = options.modelDirs ?? [];
  if (modelDirs.length === 0) return;
  const resolver = await Nwn2ModelResolver.open({ modelDirs, ...(options.twoDaDir !== undefined ? { twoDaDir: options.twoDaDir } : {}) });
  const byModule = new Map<string, { appearances: Set<number>; folderModule: string }>();
  for (const c of candidates) {
    if (path.extname(c.name).toLowerCase() !== '.git') continue;
    const bytes = c.bytes ?? (await readAll(c.path));
    let appearances: number[];
    try {
      appearances = readGitPlaceables(readGff(bytes)).map((p) => p.appearance);
    } catch (e) {
      if (isMalformedInputError(e)) continue; // classified and reported by the import itself
      throw e;
    }
    const entry = byModule.get(c.module) ?? { appearances: new Set<number>(), folderModule: c.folderModule };
    for (const a of appearances) entry.appearances.add(a);
    byModule.set(c.module, entry);
  }
  const archives = new Map<string, ImportCandidate[]>();
  // The models go to the module of the GITs that place them.
  const fromSource = async (from: string, { module, folderModule }: Place): Promise<ImportCandidate | undefined> => {
    const colon = from.lastIndexOf(':');
    const archive = colon > 0 ? from.slice(0, colon) : '';
    if (colon > 0 && ARCHIVE_EXTENSIONS.has(path.extname(archive).toLowerCase())) {
      let list = archives.get(archive);
      if (!list) archives.set(archive, (list = archiveCandidates(archive, await readAll(archive), 'nwn2', module)));
      const want = from.slice(colon + 1).toLowerCase();
      const hit = list.find((r) => r.name.toLowerCase() === want);
      return hit && { ...hit, module, folderModule };
    }
    return { path: from, module, folderModule, name: path.basename(from) };
  };
  const damaged = new Set<string>();
  for (const [module, { appearances, folderModule }] of byModule) {
    await resolver.preload(appearances);
    const wanted = new Set<string>();
    if (resolver.placeablesSource) wanted.add(resolver.placeablesSource);
    for (const l of resolver.lookups) if (l.from) wanted.add(l.from);
    for (const from of [...wanted].sort()) {
      const c = await fromSource(from, { module, folderModule });
      if (c) out.push(c);
    }
    // An archive of the model folders that cannot be read is in the report, not skipped in silence.
    for (const d of resolver.damaged) {
      if (damaged.has(d.file)) continue;
      damaged.add(d.file);
      out.push({ path: d.file, module, folderModule, name: path.basename(d.file), skip: `damaged archive, not searched for models: ${d.reason}` });
    }
  }
}

/**
 * Every file to import from the sources, found by what the sources are: a KotOR install
 * (its chitin.key), a Source game folder (its `maps/`), a Skyrim game folder (its `Data/`),
 * a module archive (its resources) or any other folder (walked; archives in it opened),
 * plus, for NWN2, the models the placeables need from the model folders.
 */
export async function collectLayoutCandidates(sources: readonly string[], options: LayoutOptions): Promise<ImportCandidate[]> {
  const out: ImportCandidate[] = [];
  for (const source of sources) {
    const resolved = path.resolve(source);
    if (!(await isDir(resolved))) {
      const module = options.module ?? path.basename(path.dirname(resolved));
      await addFile(resolved, { module, folderModule: module }, options, out, true);
      continue;
    }
    if (options.game === 'kotor' && (await childAnyCase(resolved, 'chitin.key', 'file'))) {
      await kotorGameCandidates(resolved, options, out);
      continue;
    }
    let folder = resolved;
    if (options.game === 'source') folder = (await childAnyCase(resolved, 'maps', 'dir')) ?? resolved;
    if (options.game === 'skyrim') folder = (await childAnyCase(resolved, 'data', 'dir')) ?? resolved;
    const module = options.module ?? path.basename(resolved);
    await walkFolder(folder, { module, folderModule: module }, options, out);
  }
  if (options.game === 'nwn2') await nwn2ModelCandidates([...out], options, out);
  return out;
}
