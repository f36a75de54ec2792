/**
 * The level around a walkmesh (issue 19): `context.load` assembles, off the main thread,
 * the terrain, room models, world brushes and placed models of a file of the open project
 * from the files the designer has (the project, the files it was imported from, its game
 * folders), and answers with them as a LevelContext (shared/model/level-context.ts). Its
 * progress arrives as `context.progress` events. The answer is cached in the project by
 * the hash of everything it was read from, so a second open costs a look-up.
 */
import type { LevelContext } from '../model/level-context';
import * as s from './schema';

export interface ContextLoadParams {
  /** The project open in the app (ProjectTree.session). */
  session: string;
  fileId: number;
}

export interface ContextLoadResult {
  /** The file the context is of (the page keeps only the answer for the tab it asked for). */
  fileId: number;
  context: LevelContext;
  /** What the context was read from, for the designer: `maps/aim_map.bsp (beside the .nav)`. */
  sources: string[];
  /** Served from the project's cache (same inputs, same reader version). */
  cached: boolean;
  /** Time spent reading and converting, in ms (0 for a cached answer's conversion). */
  elapsedMs: number;
}

export interface ContextProgress {
  session: string;
  fileId: number;
  /** What is being done: `reading maps/aim_map.bsp`, `room m10aa_01c`. */
  stage: string;
  /** 0–1. */
  fraction: number;
}

const id = s.number({ integer: true, min: 1, max: Number.MAX_SAFE_INTEGER });
const session = s.string({ minLength: 8, maxLength: 128 });

export const contextLoadSchema = s.object({ session, fileId: id });

export const contextProgressSchema = s.object({
  session: s.string({ maxLength: 128 }),
  fileId: id,
  stage: s.string({ maxLength: 4096 }),
  fraction: s.number({ min: 0, max: 1 }),
});
