import type { AppCommand } from '../../../shared/ipc/app-commands';
import type { Transport } from './transport';

export interface MenuEventHandlers {
  openFile(path: string): void;
  openProject(path: string): void;
  /** Commands the page acts on; the rest are left to whoever subscribes to `app.command`. */
  commands: Partial<Record<AppCommand, () => void>>;
}

/** Input types whose value is text the user types (a checkbox has no undo of its own). */
const TEXT_INPUTS = new Set(['text', 'search', 'url', 'email', 'tel', 'password', 'number']);

/** True when the keyboard focus is in a text field, where Undo and Redo edit the text. */
export function editingText(doc: Pick<Document, 'activeElement'>): boolean {
  const el = doc.activeElement as (Element & { type?: unknown; isContentEditable?: boolean }) | null;
  if (!el) return false;
  if (el.tagName === 'TEXTAREA' || el.isContentEditable === true) return true;
  return el.tagName === 'INPUT' && TEXT_INPUTS.has(String(el.type ?? 'text'));
}

/**
 * What the Electron menu and the OS ask of the page (File ▸ Open…, Open Project…, Recent
 * Projects, a second launch, menu commands). Browser mode has no menu and never sends
 * these. The menu's Undo/Redo accelerators take the keys from text fields too, so while
 * one has the focus the command edits its text instead. Returns the unsubscribe function.
 */
export function bindMenuEvents(client: Pick<Transport, 'on'>, handlers: MenuEventHandlers, doc: Pick<Document, 'activeElement' | 'execCommand'> = document): () => void {
  const offs = [
    client.on('app.openFileRequested', ({ path }) => handlers.openFile(path)),
    client.on('app.openProjectRequested', ({ path }) => handlers.openProject(path)),
    client.on('app.command', ({ command }) => {
      if ((command === 'undo' || command === 'redo') && editingText(doc)) {
        // execCommand is deprecated but still the only way to drive a field's own undo stack.
        doc.execCommand(command);
        return;
      }
      handlers.commands[command]?.();
    }),
  ];
  return () => offs.forEach((off) => off());
}
