/**
 * A project file's name as the tab and the summary show it. The service names a file
 * "NAME (edited)" when it is opened with edits; undoing back to the imported bytes (or a
 * first edit after opening) changes that while the tab stays open, so the mark follows the
 * file's newest known state, not the state it was opened in.
 */
export function liveFileName(name: string, edited: boolean | undefined): string {
  if (edited === undefined) return name;
  const base = name.replace(/ \(edited\)$/, '');
  return edited ? `${base} (edited)` : base;
}
