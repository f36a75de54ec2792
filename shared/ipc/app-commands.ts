/**
 * Commands of the Electron application menu that the page carries out (`app.command`
 * event): the menu's accelerators take the keys before the page sees them, so the page
 * must act on the command instead. Browser mode has no menu; the page binds its own keys.
 */
import * as s from './schema';

export const appCommands = [
  'undo',
  'redo',
  'save-as',
  'export',
  'frame-all',
  'top-view',
  'frame-selection',
  'toggle-jobs',
  'bake-all',
  'new-project',
  'add-to-project',
] as const;

export type AppCommand = (typeof appCommands)[number];

export const appCommandSchema = s.object({ command: s.literal(...appCommands) });
