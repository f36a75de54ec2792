import path from 'node:path';
import type { GameId } from '../../../shared/model/walkmesh';
import type { ImportCandidate } from './game-layout-import';
import { kotorModuleNamer } from './kotor-import-modules';
import type { ProjectStore } from './project-store';
import type { FileKind, FileRecord } from './project-types';

/** The module an imported file goes to, once its kind is known (null: a file the import skips). */
export type ModuleNamer = (candidate: ImportCandidate, kind: FileKind | null) => string;

const SKYRIM_PLUGINS = new Set(['.esp', '.esm', '.esl']);
const SOURCE_MAP_FILES = new Set(['.nav', '.bsp']);

const stem = (name: string) => path.basename(name, path.extname(name));

/**
 * Modules are the game's modules, not the folders the files came from:
 *
 * - with `--module`, the module named, for every file (the user's word wins);
 * - NWN2: the module the sources name, found while collecting them: a `.mod` by its name,
 *   a module folder (the one holding `module.ifo`) by its name, wherever the import
 *   started; areas are the files' resrefs;
 * - KotOR: the module of the LYT/GIT/ARE resref, a room by the layout listing it, objects
 *   by the GIT placing them (see kotorModuleNamer);
 * - Skyrim: each plugin is its own module, named by its file name without the extension
 *   (`Dawnguard.esm` → `Dawnguard`). Masters too: to the game a master is a plugin like
 *   any other, named by its file name in the MAST lists of the plugins that need it, and a
 *   shared module would put unrelated files together;
 * - Source: a map's files go to the module of the map (`de_dust2.nav`, `de_dust2.bsp` →
 *   `de_dust2`), not to `maps/`.
 *
 * Whatever no game rule names keeps the folder rule of earlier versions (a loose file's
 * folder, the folder walked, an archive's name): a hak's models, KotOR files no layout or
 * GIT names, files a game does not use.
 */
export async function importModuleNamer(
  store: ProjectStore,
  candidates: readonly ImportCandidate[],
  options: { game: GameId; named: boolean; projectFiles: readonly FileRecord[] },
): Promise<ModuleNamer> {
  if (options.named) return (c) => c.module;
  switch (options.game) {
    case 'kotor':
      return kotorModuleNamer(store, candidates, options.projectFiles);
    case 'skyrim':
      return (c) => (SKYRIM_PLUGINS.has(path.extname(c.name).toLowerCase()) ? stem(c.name) : c.module);
    case 'source':
      return (c) => (SOURCE_MAP_FILES.has(path.extname(c.name).toLowerCase()) ? stem(c.name) : c.module);
    case 'nwn2':
      return (c) => c.module;
  }
}
