import type { MenuItemConstructorOptions } from 'electron';
import type { AppCommand } from '../shared/ipc/app-commands';

export interface MenuActions {
  openProject(): void;
  openFile(): void;
  /** Opens a project of the Recent Projects submenu. */
  openRecent(file: string): void;
  /** Opens the most recent project (File ▸ Reopen Last Project). */
  reopenLast(): void;
  clearRecent(): void;
  /** A command the page carries out (sent as the `app.command` event). */
  command(command: AppCommand): void;
  about(): void;
}

export interface MenuState {
  /** Most recent first. */
  recentProjects: readonly string[];
}

/** The text of a recent project's menu item: its name, then its folder. `&` would mark a mnemonic. */
function recentLabel(file: string): string {
  const slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  const label = slash >= 0 ? `${file.slice(slash + 1)} — ${file.slice(0, slash)}` : file;
  return label.replaceAll('&', '&&');
}

/**
 * The application menu with the usual shortcuts. Undo and Redo are commands of the page
 * (the model's history, not a text field's): a menu accelerator takes the key before the
 * page sees it. On macOS the first menu is the app menu and closing a window does not
 * quit; elsewhere File ends with Quit. Developer tools only in development builds.
 */
export function menuTemplate(actions: MenuActions, state: MenuState, platform: string, developer: boolean): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const recent: MenuItemConstructorOptions[] =
    state.recentProjects.length === 0
      ? [{ label: 'No recent projects', enabled: false }]
      : [
          ...state.recentProjects.map((file, i): MenuItemConstructorOptions => ({
            label: `${i < 9 ? `&${i + 1} ` : ''}${recentLabel(file)}`,
            click: () => actions.openRecent(file),
          })),
          { type: 'separator' },
          { label: '&Clear Recent Projects', click: () => actions.clearRecent() },
        ];
  const view: MenuItemConstructorOptions[] = [
    // F and T are the viewport's own keys: shown here, not taken from the page.
    { label: '&Frame All', accelerator: 'F', registerAccelerator: false, click: () => actions.command('frame-all') },
    { label: '&Top View', accelerator: 'T', registerAccelerator: false, click: () => actions.command('top-view') },
    { label: 'Frame &Selection', click: () => actions.command('frame-selection') },
    { label: 'Toggle &Jobs Panel', accelerator: 'CmdOrCtrl+J', click: () => actions.command('toggle-jobs') },
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (developer) view.push({ type: 'separator' }, { role: 'reload' }, { role: 'toggleDevTools' });
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    {
      label: '&File',
      submenu: [
        // New Project and Add to Project are dialogs of the page (game, folders, progress, what was found).
        { label: '&New Project…', accelerator: 'CmdOrCtrl+N', click: () => actions.command('new-project') },
        { label: 'Open &Project…', accelerator: 'CmdOrCtrl+Shift+O', click: () => actions.openProject() },
        { label: '&Open File…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFile() },
        { label: 'Open &Recent', submenu: recent },
        { label: 'Reopen &Last Project', enabled: state.recentProjects.length > 0, click: () => actions.reopenLast() },
        { type: 'separator' },
        { label: '&Import into Project…', accelerator: 'CmdOrCtrl+I', click: () => actions.command('add-to-project') },
        { type: 'separator' },
        { label: 'Save Project &As…', accelerator: 'CmdOrCtrl+Shift+S', click: () => actions.command('save-as') },
        { label: '&Export…', accelerator: 'CmdOrCtrl+E', click: () => actions.command('export') },
        { type: 'separator' },
        { label: '&Bake Everything', accelerator: 'CmdOrCtrl+B', click: () => actions.command('bake-all') },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: '&Edit',
      submenu: [
        { label: '&Undo', accelerator: 'CmdOrCtrl+Z', click: () => actions.command('undo') },
        { label: '&Redo', accelerator: mac ? 'Cmd+Shift+Z' : 'Ctrl+Y', click: () => actions.command('redo') },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    { label: '&View', submenu: view },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: '&About Walkbench', click: () => actions.about() }] },
  ];
}
