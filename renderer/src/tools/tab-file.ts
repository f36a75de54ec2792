/** The project file id of a tab key (`project:<id>`, see document-store.ts), or null for other tabs. */
export function projectFileIdOf(key: string | null): number | null {
  const m = key ? /^project:(\d+)$/.exec(key) : null;
  return m ? Number(m[1]) : null;
}
