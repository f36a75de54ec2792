import { dialog, type BrowserWindow, type OpenDialogOptions, type SaveDialogOptions } from 'electron';
import { formatHandlers } from '../shared/formats/format-registry';
import type { DialogHandlers } from './services/browser-dialogs';

/** Extensions of every format the services read, without the dot, for the open dialog's filter. */
function walkmeshExtensions(): string[] {
  return [...new Set(formatHandlers.flatMap((h) => h.extensions.map((e) => e.replace(/^\./, ''))))];
}

/**
 * The contract's dialogs as Electron's native ones, attached to the app window so they
 * are modal to it. A cancelled dialog answers `{ path: null }`.
 */
export function electronDialogs(window: () => BrowserWindow | null): DialogHandlers {
  const showOpen = async (options: OpenDialogOptions) => {
    const win = window();
    const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return { path: result.canceled ? null : (result.filePaths[0] ?? null) };
  };
  return {
    'dialog.openFile': ({ title }) =>
      showOpen({
        title: title ?? 'Open a walkmesh or navmesh',
        properties: ['openFile'],
        filters: [
          { name: 'Walkmeshes and navmeshes', extensions: walkmeshExtensions() },
          { name: 'All files', extensions: ['*'] },
        ],
      }),
    'dialog.openProject': ({ title }) =>
      showOpen({ title: title ?? 'Open a Walkbench project', properties: ['openFile'], filters: [{ name: 'All files', extensions: ['*'] }] }),
    'dialog.openFolder': ({ title }) => showOpen({ title: title ?? 'Choose a folder', properties: ['openDirectory'] }),
    'dialog.saveFile': async ({ title, defaultPath, extensions }) => {
      const options: SaveDialogOptions = {
        title: title ?? 'Save as',
        ...(defaultPath !== undefined ? { defaultPath } : {}),
        filters: [...(extensions && extensions.length > 0 ? [{ name: extensions.map((e) => `.${e}`).join(', '), extensions }] : []), { name: 'All files', extensions: ['*'] }],
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      };
      const win = window();
      const result = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      return { path: result.canceled || !result.filePath ? null : result.filePath };
    },
  };
}
