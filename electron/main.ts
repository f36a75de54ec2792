/**
 * The Electron main process: one instance, one window loading the renderer from the app
 * protocol, the contract's IPC handlers, the menu and the open dialog. Everything the
 * app does with files happens in the services, which run the same in browser mode.
 */
import { app, BrowserWindow, dialog, Menu, protocol, screen, session, type IpcMainInvokeEvent } from 'electron';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { eventChannel } from '../shared/ipc/bridge';
import type { EventName, WalkbenchEvents } from '../shared/ipc/contract';
import { APP_ENTRY_URL, isAppUrl, registerAppScheme, serveAppProtocol } from './app-protocol';
import { registerContractHandlers } from './ipc/register-handlers';
import { menuTemplate } from './menu';
import { createWalkbenchService } from './services/walkbench-service';
import { loadWindowState, MIN_WINDOW_SIZE, placeWindow, trackWindowState } from './window-state';
import { formatHandlers } from '../shared/formats/format-registry';

const log = (line: string) => void process.stderr.write(`${line}\n`);

let mainWindow: BrowserWindow | null = null;
/** A file asked for before the window could take it (second instance, macOS open-file). */
let pendingOpen: string | null = null;

/** The first argument that names an existing file, resolved against the caller's folder. */
function fileFromArgs(args: readonly string[], cwd: string): string | null {
  for (const arg of args) {
    if (arg.startsWith('-')) continue;
    const file = path.resolve(cwd, arg);
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      // not a file: an Electron or Chromium argument
    }
  }
  return null;
}

/** Arguments after the executable (and, unpackaged, after the app folder `electron .`). */
function userArgs(argv: readonly string[]): readonly string[] {
  return argv.slice(app.isPackaged ? 1 : 2);
}

function send<E extends EventName>(event: E, payload: WalkbenchEvents[E]): void {
  if (!mainWindow || mainWindow.isDestroyed()) return;
  mainWindow.webContents.send(eventChannel(event), payload);
}

function requestOpen(file: string): void {
  if (mainWindow && !mainWindow.webContents.isLoading()) send('app.openFileRequested', { path: file });
  else pendingOpen = file;
}

async function showOpenDialog(): Promise<void> {
  const extensions = [...new Set(formatHandlers.flatMap((h) => h.extensions.map((e) => e.slice(1))))];
  const options: Electron.OpenDialogOptions = {
    title: 'Open a walkmesh or navmesh',
    properties: ['openFile'],
    filters: [
      { name: 'Walkmeshes and navmeshes', extensions },
      { name: 'All files', extensions: ['*'] },
    ],
  };
  const result = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
  const file = result.filePaths[0];
  if (!result.canceled && file) requestOpen(file);
}

/** The IPC sender check: the app's own top-level page in the main window. */
function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  if (!mainWindow || mainWindow.isDestroyed() || event.sender.id !== mainWindow.webContents.id) return false;
  return isAppUrl(frame.url);
}

function createMainWindow(): BrowserWindow {
  const stateFile = path.join(app.getPath('userData'), 'window-state.json');
  const placement = placeWindow(
    loadWindowState(stateFile),
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    ...(placement.x !== undefined && placement.y !== undefined ? { x: placement.x, y: placement.y } : {}),
    width: placement.width,
    height: placement.height,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title: 'Walkbench',
    show: false,
    backgroundColor: '#1d2127',
    webPreferences: {
      preload: path.join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  if (placement.maximized) win.maximize();
  trackWindowState(win, stateFile, (e) => log(`walkbench: could not save the window state: ${String(e)}`));
  win.once('ready-to-show', () => win.show());
  win.webContents.on('did-finish-load', () => {
    if (pendingOpen) {
      const file = pendingOpen;
      pendingOpen = null;
      send('app.openFileRequested', { path: file });
    }
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(APP_ENTRY_URL);
  return win;
}

function lockDownContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    // The app is one page: no new windows, no navigation away, no embedded web views.
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event, url) => {
      if (url !== contents.getURL()) event.preventDefault();
    });
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

async function start(): Promise<void> {
  const rendererDir = path.join(app.getAppPath(), 'dist', 'renderer');
  if (!existsSync(path.join(rendererDir, 'index.html'))) log(`walkbench: the renderer is not built (${rendererDir}); run npm run build`);
  // Walkbench needs no camera, microphone, notifications or other permission.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  serveAppProtocol(protocol, rendererDir);

  const service = createWalkbenchService({
    version: app.getVersion(),
    startupFile: fileFromArgs(userArgs(process.argv), process.cwd()),
  });
  registerContractHandlers(service, isTrustedSender, log);

  const template = menuTemplate(
    {
      openFile: () => void showOpenDialog().catch((e: unknown) => log(`walkbench: open dialog failed: ${String(e)}`)),
      about: () => app.showAboutPanel(),
    },
    process.platform,
    !app.isPackaged,
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  mainWindow = createMainWindow();
}

if (!app.requestSingleInstanceLock()) {
  // Another Walkbench is running: it receives our arguments through `second-instance`.
  app.quit();
} else {
  registerAppScheme(protocol);
  lockDownContents();
  app.setAboutPanelOptions({ applicationName: 'Walkbench', applicationVersion: app.getVersion() });
  app.on('second-instance', (_event, argv, workingDirectory) => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
    const file = fileFromArgs(userArgs(argv), workingDirectory);
    if (file) requestOpen(file);
  });
  app.on('open-file', (event, file) => {
    event.preventDefault();
    requestOpen(file);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow();
  });
  app.whenReady().then(start, (e: unknown) => {
    log(`walkbench: could not start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    app.exit(1);
  });
}
