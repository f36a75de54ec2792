/**
 * The Electron main process: one instance, one window loading the renderer from the app
 * protocol, the contract's IPC handlers, the menu with its dialogs and recent projects.
 * Everything the app does with files happens in the services, which run the same in
 * browser mode; events they push (bake progress) reach the page over IPC.
 */
import { app, BrowserWindow, Menu, protocol, screen, session, type IpcMainInvokeEvent } from 'electron';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppCommand } from '../shared/ipc/app-commands';
import { eventChannel } from '../shared/ipc/bridge';
import type { EventName, WalkbenchEvents } from '../shared/ipc/contract';
import { createEventHub } from '../shared/ipc/event-hub';
import { APP_ENTRY_URL, registerAppScheme, serveAppProtocol } from './app-protocol';
import { registerContractHandlers } from './ipc/register-handlers';
import { electronDialogs } from './main-dialogs';
import { menuTemplate } from './menu';
import { isProjectFile } from './services/project-file-sniff';
import { createRecentProjects } from './services/recent-projects';
import { createWalkbenchService } from './services/walkbench-service';
import { denyPermissions, guardContents, isTrustedSender, secureWebPreferences } from './window-security';
import { loadWindowState, MIN_WINDOW_SIZE, placeWindow, trackWindowState } from './window-state';

const log = (line: string) => void process.stderr.write(`${line}\n`);

let mainWindow: BrowserWindow | null = null;
/** Events for the page sent before it had loaded (second instance, macOS open-file). */
const pending: { event: 'app.openFileRequested' | 'app.openProjectRequested'; path: string }[] = [];
/** Shuts the services down: edits written behind written, exports and bakes ended, the project closed. */
let closeServices: (() => Promise<void>) | undefined;
const recent = createRecentProjects(path.join(app.getPath('userData'), 'recent-projects.json'));

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

function pageReady(): boolean {
  return mainWindow !== null && !mainWindow.isDestroyed() && !mainWindow.webContents.isLoading();
}

function rebuildMenu(): void {
  const template = menuTemplate(
    {
      openProject: () => void chooseAndOpen('dialog.openProject'),
      openFile: () => void chooseAndOpen('dialog.openFile'),
      openRecent: (file) => requestOpenProject(file),
      reopenLast: () => {
        const last = recent.list()[0];
        if (last !== undefined) requestOpenProject(last);
      },
      clearRecent: () => {
        recent.clear();
        rebuildMenu();
      },
      command: (command: AppCommand) => send('app.command', { command }),
      about: () => app.showAboutPanel(),
    },
    { recentProjects: recent.list() },
    process.platform,
    !app.isPackaged,
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function requestOpen(event: 'app.openFileRequested' | 'app.openProjectRequested', file: string): void {
  if (pageReady()) send(event, { path: file });
  else pending.push({ event, path: file });
}

/** Called by the project service once a project is open (it has put it first in `recent`), however the page opened it. */
function rememberProject(): void {
  rebuildMenu();
}

function requestOpenProject(file: string): void {
  requestOpen('app.openProjectRequested', file);
}

/** A file from the command line, a second launch or the OS: a project or a walkmesh. */
function openFromOutside(file: string): void {
  isProjectFile(file).then(
    (project) => (project ? requestOpenProject(file) : requestOpen('app.openFileRequested', file)),
    () => requestOpen('app.openFileRequested', file),
  );
}

async function chooseAndOpen(which: 'dialog.openFile' | 'dialog.openProject'): Promise<void> {
  try {
    const { path: chosen } = await dialogs[which]({});
    if (chosen === null) return;
    if (which === 'dialog.openProject') requestOpenProject(chosen);
    else requestOpen('app.openFileRequested', chosen);
  } catch (e) {
    log(`walkbench: the open dialog failed: ${String(e)}`);
  }
}

const dialogs = electronDialogs(() => mainWindow);

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
    webPreferences: secureWebPreferences(path.join(__dirname, 'preload.cjs')),
  });
  if (placement.maximized) win.maximize();
  trackWindowState(win, stateFile, (e) => log(`walkbench: could not save the window state: ${String(e)}`));
  win.once('ready-to-show', () => win.show());
  win.webContents.on('did-finish-load', () => {
    for (const p of pending.splice(0)) send(p.event, { path: p.path });
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(APP_ENTRY_URL);
  return win;
}

/**
 * The bake worker is its own ES module bundle beside the main one (dist/workers). Worker
 * threads cannot load from inside the asar archive, so the packaged app unpacks it
 * (asarUnpack in build/electron-builder.yml).
 */
function bakeWorkerUrl(): URL {
  const file = path.join(__dirname, '..', 'workers', 'bake-worker.mjs');
  return pathToFileURL(file.replace(`${path.sep}app.asar${path.sep}`, `${path.sep}app.asar.unpacked${path.sep}`));
}

async function start(): Promise<void> {
  const rendererDir = path.join(app.getAppPath(), 'dist', 'renderer');
  if (!existsSync(path.join(rendererDir, 'index.html'))) log(`walkbench: the renderer is not built (${rendererDir}); run npm run build`);
  denyPermissions(session.defaultSession);
  serveAppProtocol(protocol, rendererDir);

  const events = createEventHub((e) => log(`walkbench: an event listener failed: ${String(e)}`));
  events.subscribe((event, payload) => send(event, payload));
  const startupFile = fileFromArgs(userArgs(process.argv), process.cwd());
  const startupProject = startupFile !== null && (await isProjectFile(startupFile).catch(() => false)) ? startupFile : null;
  const service = createWalkbenchService({
    version: app.getVersion(),
    startupFile,
    startupIsProject: startupProject !== null,
    events,
    dialogs,
    bakePool: { entry: { file: bakeWorkerUrl() } },
    onClose: (close) => (closeServices = close),
    onProjectOpened: () => rememberProject(),
    recentProjects: recent,
  });
  registerContractHandlers(service, (event: IpcMainInvokeEvent) => isTrustedSender(event, mainWindow && !mainWindow.isDestroyed() ? mainWindow.webContents.id : null), log);
  rebuildMenu();
  mainWindow = createMainWindow();
}

if (!app.requestSingleInstanceLock()) {
  // Another Walkbench is running: it receives our arguments through `second-instance`.
  app.quit();
} else {
  registerAppScheme(protocol);
  app.on('web-contents-created', (_event, contents) => guardContents(contents, log));
  app.setAboutPanelOptions({ applicationName: 'Walkbench', applicationVersion: app.getVersion() });
  app.on('second-instance', (_event, argv, workingDirectory) => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
    const file = fileFromArgs(userArgs(argv), workingDirectory);
    if (file) openFromOutside(file);
  });
  app.on('open-file', (event, file) => {
    event.preventDefault();
    openFromOutside(file);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow();
  });
  let quitting = false;
  app.on('will-quit', (event) => {
    // Running bakes hold worker threads, and edits may be written behind: end and write
    // them, and close the project, before the process goes.
    if (quitting || !closeServices) return;
    event.preventDefault();
    quitting = true;
    void closeServices().finally(() => app.quit());
  });
  app.whenReady().then(start).catch((e: unknown) => {
    log(`walkbench: could not start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    app.exit(1);
  });
}
