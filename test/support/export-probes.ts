import { exportProject } from '../../electron/services/project/project-export';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { Finding } from '../../shared/validation/finding';

/** Exports the project into a game folder (the store is closed once the export has finished). */
export async function exportTo(project: string, game: string): Promise<Awaited<ReturnType<typeof exportProject>>> {
  const store = ProjectStore.open(project);
  try {
    return await exportProject(store, { to: game });
  } finally {
    store.close();
  }
}

/** Error codes of `now` that `before` did not have (warnings may come and go with an edit). */
export function newErrors(now: readonly Finding[], before: readonly Finding[]): string[] {
  const had = new Set(before.filter((f) => f.severity === 'error').map((f) => f.code));
  return now.filter((f) => f.severity === 'error' && !had.has(f.code)).map((f) => `${f.code}: ${f.message}`);
}
