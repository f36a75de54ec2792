/**
 * The project as the app's tree shows it (contract methods `project.*`): modules, their
 * areas, and each area's files with their kind and game. File bytes never travel here;
 * `project.openFile` reads one file (its saved edit when there is one) into the model.
 */
import type { GameId } from '../model/walkmesh';
import * as s from './schema';

export interface ProjectTreeFile {
  id: number;
  name: string;
  /** walkmesh, trn, git, are, gic, lyt, 2da, mdb or master (electron/services/project). */
  kind: string;
  format: string | null;
  /** The game of its format, or null for a file no format handler reads (GFF, 2DA). */
  game: GameId | null;
  size: number;
  /** The project holds edits of this file; opening it shows them. */
  edited: boolean;
}

export interface ProjectTreeArea {
  name: string;
  files: ProjectTreeFile[];
}

export interface ProjectTreeModule {
  name: string;
  areas: ProjectTreeArea[];
  /** Files of the module outside any area (2DA tables, models, masters). */
  files: ProjectTreeFile[];
}

export interface ProjectTree {
  /** The project file. */
  path: string;
  name: string;
  game: GameId;
  modules: ProjectTreeModule[];
}

/** MAX_PATH_LENGTH of contract.ts, which imports this file (a cycle would leave it undefined here). */
const MAX_PATH_LENGTH = 32_767;

export const projectOpenSchema = s.object({ path: s.string({ minLength: 1, maxLength: MAX_PATH_LENGTH }) });
export const projectFileSchema = s.object({ fileId: s.number({ min: 1, max: Number.MAX_SAFE_INTEGER, integer: true }) });
