/**
 * The project as the app's tree shows it (contract methods `project.*`): modules, their
 * areas, and each area's files with their kind and game. File bytes never travel here;
 * `project.openFile` reads one file (its saved edit when there is one) into the model.
 */
import type { EditRefusals } from '../edits/edit-capabilities';
import type { GameId } from '../model/walkmesh';
import * as s from './schema';

/**
 * Whether the project holds a bake of exactly what a file is baked from now: one fact,
 * shown the same way in the tree, the tab and the export's dry run. Files the project
 * bakes are NWN2 TRX (from the TRX, or from the area's TRN + GIT once either was edited),
 * KotOR walkmeshes and Skyrim plugins; an NWN2 TRN or GIT shows its area's TRX's state.
 */
export interface BakeState {
  /**
   * `baked`: the project holds the bake of the current inputs (export writes it);
   * `unbaked`: it has none (never baked, or changed since); `blocked`: it cannot be baked
   * as it stands (the reason says why).
   */
  status: 'baked' | 'unbaked' | 'blocked';
  /** The file whose bake this is (`module/name`): the file itself, or an NWN2 area's TRX. */
  file: string;
  /** What the bake is made from: the imported bytes, the saved edit, or an NWN2 area's TRN and GIT. */
  source: 'import' | 'edit' | 'trn+git';
  /** One line for the user, e.g. "Baked from the edited TRN + GIT" or "Not baked since its last edit". */
  label: string;
  /** When the bake was recorded (ISO time), for `baked`. */
  bakedAt: string | null;
  /** The bake's own counts (path tables, islands…), as `walkbench info` gives them, for `baked`. */
  counts: Record<string, number> | null;
}

/** A project file's state as the app shows it, after any change (edit, undo, bake). */
export interface ProjectFileState {
  fileId: number;
  /** Grows with every change of the file's edited model; an edit names the revision it was made on. */
  revision: number;
  edited: boolean;
  bake: BakeState | null;
  /**
   * The edit tools the file does not offer, with the reasons: they change with other files
   * (an NWN2 TRX takes no walkmesh edit once its area's GIT or TRN is edited).
   */
  refusals: EditRefusals;
}

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
  revision: number;
  bake: BakeState | null;
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
  /**
   * This opening of the project: every request about it carries it, and the services
   * refuse one whose session is not the project open now (another project was opened since).
   */
  session: string;
  /** The project file. */
  path: string;
  name: string;
  game: GameId;
  modules: ProjectTreeModule[];
}

/** MAX_PATH_LENGTH of contract.ts, which imports this file (a cycle would leave it undefined here). */
const MAX_PATH_LENGTH = 32_767;

/**
 * What a project file's tab knows besides the file: which project opening it belongs to,
 * the revision it shows, what its undo covers, its bake state and the tools it offers.
 */
export interface ProjectFileView {
  session: string;
  fileId: number;
  /** `module/name`. */
  label: string;
  kind: string;
  revision: number;
  /** The project holds edits of the file. */
  edited: boolean;
  /**
   * The files whose edits this tab undoes and redoes: the file itself and, for an NWN2
   * area's TRN or TRX, the area's GIT (its cutters and placeables are edited from the tab).
   */
  undoScope: number[];
  /** The other files of undoScope with their revisions (the GIT the NWN2 tools edit). */
  related: { fileId: number; kind: string; label: string; revision: number }[];
  bake: BakeState | null;
  /** The edit tools this file does not offer, each with the reason (shared/edits/edit-capabilities.ts). */
  refusals: EditRefusals;
}

/** A project the app has open, named by the session its `project.open` answer gave. */
export const sessionSchema = s.string({ minLength: 8, maxLength: 128 });

export const projectOpenSchema = s.object({ path: s.string({ minLength: 1, maxLength: MAX_PATH_LENGTH }) });
export const projectFileSchema = s.object({ session: sessionSchema, fileId: s.number({ min: 1, max: Number.MAX_SAFE_INTEGER, integer: true }) });
/**
 * Save Project As. An existing file at `path` is replaced only when `overwrite` is true
 * (the user said so); otherwise the call fails with `exists` and nothing is written.
 */
export const projectSaveAsSchema = s.object({
  session: sessionSchema,
  path: s.string({ minLength: 1, maxLength: MAX_PATH_LENGTH }),
  overwrite: s.optional(s.boolean()),
});
export const projectStateSchema = s.object({
  session: sessionSchema,
  /** Only these files (default: every file of the project). */
  fileIds: s.optional(s.array(s.number({ min: 1, max: Number.MAX_SAFE_INTEGER, integer: true }), { maxLength: 100_000 })),
});
