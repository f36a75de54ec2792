/** The key of a project file's tab: the project opening (session) and the file id. */
export function projectTabKey(session: string, fileId: number): string {
  return `project:${session}:${fileId}`;
}

/** The project file id of a tab key (`project:<session>:<id>`, see document-store.ts), or null for other tabs. */
export function projectFileIdOf(key: string | null): number | null {
  const m = key ? /^project:[^:]+:(\d+)$/.exec(key) : null;
  return m ? Number(m[1]) : null;
}

/** The project session of a tab key, or null for tabs of files opened from disk or bytes. */
export function projectSessionOf(key: string | null): string | null {
  const m = key ? /^project:([^:]+):\d+$/.exec(key) : null;
  return m ? m[1]! : null;
}
