import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openFile(): void;
  about(): void;
}

/**
 * The application menu with the usual shortcuts. On macOS the first menu is the app
 * menu and closing a window does not quit; elsewhere File ends with Quit.
 */
export function menuTemplate(actions: MenuActions, platform: string, developer: boolean): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (developer) view.unshift({ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' });
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    {
      label: '&File',
      submenu: [
        { label: '&Open…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFile() },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { label: '&View', submenu: view },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: '&About Walkbench', click: () => actions.about() }] },
  ];
}
