import { nodeFormatEnvironment } from '../node-format-environment';
import { ProjectEdits, type WriteFailure } from './project-edits';
import type { ProjectStore } from './project-store';

/**
 * Writes the edited bytes an editor left behind (ProjectEdits `writeBehind`: the app
 * marks a file after a paint or a move and writes it when idle; a crash can leave marks).
 * Everything that reads a project's edited bytes itself — bakes, export, the command
 * line — calls this first, so it never reads bytes older than the history. The models are
 * replayed from the history, which holds every edit. Returns the files that could not be
 * written (they keep their mark; their bytes must not be used).
 */
export function writePendingEdits(store: ProjectStore): WriteFailure[] {
  if (store.editWritesPending().length === 0) return [];
  return new ProjectEdits(store, nodeFormatEnvironment).flushWrites();
}
