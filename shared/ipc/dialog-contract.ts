/**
 * The native open and save dialogs (contract methods `dialog.*`). In Electron they show the
 * system dialog; browser mode has none and a page cannot learn a file's path, so there
 * every dialog call fails with code `unavailable` and the page asks for a typed path.
 */
import * as s from './schema';

export interface OpenFileDialogParams {
  title?: string;
}

export interface SaveFileDialogParams {
  title?: string;
  /** Suggested file name (or absolute path). */
  defaultPath?: string;
  /** Extensions offered, without the dot, e.g. `["trx"]`. */
  extensions?: string[];
}

/** The chosen path, or null when the user cancelled. */
export interface DialogResult {
  path: string | null;
}

const title = s.optional(s.string({ minLength: 1, maxLength: 200 }));

export const openFileDialogSchema = s.object({ title });
export const openProjectDialogSchema = s.object({ title });
/** A folder (the game folder an export writes into). */
export const openFolderDialogSchema = s.object({ title });
export const saveFileDialogSchema = s.object({
  title,
  defaultPath: s.optional(s.string({ minLength: 1, maxLength: 32_767 })),
  extensions: s.optional(s.array(s.string({ minLength: 1, maxLength: 16 }), { maxLength: 32 })),
});

/** What browser mode answers every dialog call with. */
export function dialogUnavailableMessage(method: string): string {
  return `${method} is not available in browser mode: the browser cannot show a native dialog; type the file's path instead`;
}
