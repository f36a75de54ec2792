import path from 'node:path';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { resourceTypes } from '../../../shared/formats/aurora/resource-types';
import { KotorResourceResolver } from '../../../shared/formats/kotor/kotor-resource-resolver';
import { readBytes, readBytesSync } from '../file-access';
import { kotorObjectWalkmeshes, type ImportCandidate } from './game-layout-import';
import { roomsOfLayoutBytes } from './kotor-room-layout';
import type { ProjectStore } from './project-store';
import type { FileKind, FileRecord } from './project-types';

/** The module a KotOR resource names: its resref, in lower case as the game's files spell it (kotor-bwm.md §8.4). */
export function kotorResRefModule(fileName: string): string {
  const base = path.basename(fileName);
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).toLowerCase();
}

const extension = (name: string) => path.extname(name).toLowerCase();

const readSync = readBytesSync;

/**
 * Which KotOR module each imported file belongs to, by the game's names rather than the
 * folders the files came from (override, a `.rim`/`.mod` capsule, chitin.key, any folder):
 *
 * - a LYT, GIT or ARE: the module of its own resref (`m10aa.lyt` → `m10aa`);
 * - a room walkmesh (`.wok`): the module of the layout that lists the room, one of the
 *   imported LYTs first, else one the project already holds (room names without case);
 * - a placeable or door template, the 2DA naming its model and the model's PWK/DWKs,
 *   when an imported GIT places the object (template → Appearance → 2DA → model, as the
 *   game-folder import follows it, through the imported files and then the templates and
 *   2DAs the project holds): that GIT's module;
 * - anything else, and whatever no layout or GIT names: the folder rule (the candidate's
 *   `module`: the archive's or the folder's name), as before modules were the game's.
 *
 * When two files claim one name (two LYTs listing one room, two GITs placing one
 * template), the first imported wins: the order of the sources as given.
 *
 * Reads the imported LYTs and GITs now (the bytes are kept on the candidate, so the import
 * does not read them twice), the project's LYTs, and the templates and 2DAs the GITs name;
 * a GIT, template or 2DA that does not parse names nothing.
 */
export async function kotorModuleNamer(
  store: ProjectStore,
  candidates: readonly ImportCandidate[],
  projectFiles: readonly FileRecord[],
): Promise<(candidate: ImportCandidate, kind: FileKind | null) => string> {
  const bytesOf = async (c: ImportCandidate) => (c.bytes ??= await readBytes(c.path));
  const roomModule = new Map<string, string>();
  const claimRooms = (rooms: readonly string[], module: string) => {
    for (const room of rooms) if (!roomModule.has(room)) roomModule.set(room, module);
  };

  // A malformed LYT lists no rooms here; the import classifies and reports it on its own.
  for (const c of candidates) {
    if (c.skip === undefined && extension(c.name) === '.lyt') claimRooms(roomsOfLayoutBytes(await bytesOf(c)) ?? [], kotorResRefModule(c.name));
  }
  for (const f of projectFiles) if (f.kind === 'lyt') claimRooms(roomsOfLayoutBytes(store.loadCurrentBytes(f)) ?? [], f.module);

  const objectModule = new Map<string, string>();
  const gits = candidates.filter((c) => c.skip === undefined && extension(c.name) === '.git');
  if (gits.length > 0) {
    // The imported files stand for the game's override folder (names are resref.ext), then
    // the templates and tables the project holds already.
    const byName = new Map<string, () => Uint8Array>();
    for (const c of candidates) {
      if (c.skip === undefined && !byName.has(c.name.toLowerCase())) byName.set(c.name.toLowerCase(), () => (c.bytes ??= readSync(c.path)));
    }
    for (const f of projectFiles) {
      if ((f.kind === '2da' || f.kind === 'template') && !byName.has(f.name.toLowerCase())) byName.set(f.name.toLowerCase(), () => store.loadCurrentBytes(f));
    }
    const resolver = new KotorResourceResolver({ override: { files: [...byName.keys()], read: (name) => byName.get(name.toLowerCase())!() } });
    const types = resourceTypes('kotor');
    for (const git of gits) {
      let wanted: [string, number][];
      try {
        wanted = kotorObjectWalkmeshes(resolver, await bytesOf(git), git.path);
      } catch (e) {
        if (isMalformedInputError(e)) continue; // classified and reported by the import itself
        throw e;
      }
      for (const [resRef, type] of wanted) {
        const name = `${resRef}.${types.extension(type) ?? ''}`.toLowerCase();
        if (!objectModule.has(name)) objectModule.set(name, kotorResRefModule(git.name));
      }
    }
  }

  return (c, kind) => {
    if (kind === 'lyt' || kind === 'git' || kind === 'are') return kotorResRefModule(c.name);
    if (kind === 'walkmesh' && extension(c.name) === '.wok') return roomModule.get(kotorResRefModule(c.name)) ?? c.module;
    if (kind !== null) return objectModule.get(c.name.toLowerCase()) ?? c.module;
    return c.module;
  };
}
