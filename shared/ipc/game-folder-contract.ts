/**
 * KotOR: the modules of a project's game folders and their rooms, browsed from the tree
 * (issue 16 §4) before one is added with `import.start`. Nothing is imported here.
 */
import { sessionSchema } from './project-contract';
import * as s from './schema';

/** MAX_PATH_LENGTH of contract.ts, which imports this file (a cycle would leave it undefined here). */
const MAX_PATH_LENGTH = 32_767;

export interface GameFolderModules {
  /** A KotOR game folder of the project and its modules (resrefs with a capsule in modules/), sorted. */
  folders: { path: string; modules: string[]; error: string | null }[];
}

export interface KotorModuleRoomsParams {
  session: string;
  /** One of the project's game folders. */
  folder: string;
  module: string;
}

export interface KotorModuleRooms {
  /** The module's LYT as the game resolves it (override, capsules, chitin), or null when none is found. */
  layout: string | null;
  /** Its rooms in LYT order, each with whether the game has its walkmesh. */
  rooms: { name: string; walkmesh: boolean }[];
}

export const gameFolderModulesSchema = s.object({ session: sessionSchema });
export const kotorModuleRoomsSchema = s.object({
  session: sessionSchema,
  folder: s.string({ minLength: 1, maxLength: MAX_PATH_LENGTH }),
  module: s.string({ minLength: 1, maxLength: 64 }),
});
