import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { methods } from '../../../shared/ipc/contract';
import { fixturesRoot } from '../../support/fixtures';

// electron/main.ts run against a recording stand-in of the Electron API (the binary
// cannot run here): what it registers, and the window it creates.
type Listener = (...args: unknown[]) => unknown;

const fake = vi.hoisted(() => {
  const userData = { dir: '' };
  const record = {
    appListeners: new Map<string, Listener>(),
    schemes: [] as unknown[],
    protocolHandlers: [] as string[],
    permissionRequest: undefined as Listener | undefined,
    permissionCheck: undefined as Listener | undefined,
    windows: [] as { options: Record<string, unknown>; loaded: string[]; sent: [string, unknown][]; focused: number; listeners: Map<string, Listener> }[],
    menus: [] as unknown[],
    handlers: new Map<string, Listener>(),
    lock: 0,
  };
  return { userData, record };
});

vi.mock('electron', () => {
  const { record, userData } = fake;
  class BrowserWindow {
    static all: BrowserWindow[] = [];
    static getAllWindows = () => BrowserWindow.all;
    readonly entry;
    readonly webContents;
    constructor(options: Record<string, unknown>) {
      const entry = { options, loaded: [] as string[], sent: [] as [string, unknown][], focused: 0, listeners: new Map<string, Listener>() };
      this.entry = entry;
      record.windows.push(entry);
      BrowserWindow.all.push(this);
      this.webContents = {
        id: 41,
        isLoading: () => false,
        send: (channel: string, payload: unknown) => entry.sent.push([channel, payload]),
        on: (name: string, l: Listener) => entry.listeners.set(`contents:${name}`, l),
      };
    }
    on(name: string, l: Listener) {
      this.entry.listeners.set(name, l);
      return this;
    }
    once(name: string, l: Listener) {
      return this.on(name, l);
    }
    loadURL(url: string) {
      this.entry.loaded.push(url);
      return Promise.resolve();
    }
    maximize() {}
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {
      this.entry.focused++;
    }
    isDestroyed() {
      return false;
    }
    isMaximized() {
      return false;
    }
    getNormalBounds() {
      return { x: 0, y: 0, width: 1280, height: 800 };
    }
  }
  return {
    app: {
      isPackaged: false,
      getPath: () => userData.dir,
      getVersion: () => '0.0.0-test',
      getAppPath: () => userData.dir,
      requestSingleInstanceLock: () => {
        record.lock++;
        return true;
      },
      on: (name: string, l: Listener) => record.appListeners.set(name, l),
      setAboutPanelOptions: () => {},
      showAboutPanel: () => {},
      whenReady: () => Promise.resolve(),
      isReady: () => true,
      quit: () => {},
      exit: () => {},
    },
    BrowserWindow,
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: (m: unknown) => record.menus.push(m) },
    protocol: {
      registerSchemesAsPrivileged: (s: unknown) => record.schemes.push(s),
      handle: (scheme: string) => record.protocolHandlers.push(scheme),
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: Listener) => (record.permissionRequest = h),
        setPermissionCheckHandler: (h: Listener) => (record.permissionCheck = h),
      },
    },
    ipcMain: {
      handle: (channel: string, h: Listener) => record.handlers.set(channel, h),
      removeHandler: (channel: string) => record.handlers.delete(channel),
    },
    dialog: { showOpenDialog: () => Promise.resolve({ canceled: true, filePaths: [] }), showSaveDialog: () => Promise.resolve({ canceled: true }) },
  };
});

fake.userData.dir = mkdtempSync(path.join(tmpdir(), 'walkbench-main-'));
afterAll(() => rmSync(fake.userData.dir, { recursive: true, force: true }));
const log: string[] = [];
vi.spyOn(process.stderr, 'write').mockImplementation((line: string | Uint8Array) => log.push(String(line)) > 0);
await import('../../../electron/main');
const { APP_ENTRY_URL } = await import('../../../electron/app-protocol');
const { record } = fake;

describe('the Electron main process', () => {
  it('takes the single-instance lock and registers the app scheme before the app is ready', () => {
    expect(record.lock).toBe(1);
    expect(record.appListeners.has('second-instance')).toBe(true);
    expect(record.schemes).toEqual([[{ scheme: 'walkbench', privileges: expect.objectContaining({ standard: true, secure: true }) }]]);
  });

  it('creates one window with the secure settings and loads the app page', async () => {
    await expect.poll(() => record.windows.length).toBe(1);
    const { options, loaded } = record.windows[0]!;
    expect(options['webPreferences']).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: expect.stringMatching(/preload\.cjs$/),
    });
    expect(loaded).toEqual([APP_ENTRY_URL]);
    expect(record.protocolHandlers).toEqual(['walkbench']);
  });

  it('denies permissions and guards every web contents created', () => {
    let granted: boolean | undefined;
    record.permissionRequest!({}, 'media', (g: boolean) => (granted = g));
    expect(granted).toBe(false);
    expect(record.permissionCheck!({}, 'notifications')).toBe(false);
    let openHandler: Listener | undefined;
    const navigation = new Map<string, Listener>();
    record.appListeners.get('web-contents-created')!({}, {
      getURL: () => APP_ENTRY_URL,
      setWindowOpenHandler: (h: Listener) => (openHandler = h),
      on: (name: string, l: Listener) => navigation.set(name, l),
    });
    expect(openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    let prevented = false;
    navigation.get('will-navigate')!({ preventDefault: () => (prevented = true) }, 'https://evil.example/');
    expect(prevented).toBe(true);
  });

  it('answers the contract over IPC only to the app page of its window', async () => {
    expect([...record.handlers.keys()].sort()).toEqual(methods.map((m) => `walkbench:call:${m}`).sort());
    const info = record.handlers.get('walkbench:call:app.info')!;
    const fromApp = { sender: { id: 41 }, senderFrame: { url: APP_ENTRY_URL, parent: null } };
    expect(await info(fromApp, {})).toMatchObject({ ok: true, value: { name: 'Walkbench', version: '0.0.0-test' } });
    expect(await info({ ...fromApp, senderFrame: { url: 'https://evil.example/', parent: null } }, {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await info({ ...fromApp, senderFrame: { url: APP_ENTRY_URL, parent: {} } }, {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await info({ ...fromApp, sender: { id: 42 } }, {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    // Native dialogs are wired in (cancelled here), not browser mode's refusal.
    expect(await record.handlers.get('walkbench:call:dialog.openFile')!(fromApp, {})).toEqual({ ok: true, value: { path: null } });
  });

  it('sets a menu with recent projects and, in development, the developer tools', () => {
    const menu = JSON.stringify(record.menus.at(-1));
    expect(menu).toContain('Open &Project…');
    expect(menu).toContain('No recent projects');
    expect(menu).toContain('toggleDevTools');
  });

  it('focuses the window on a second launch and forwards the file it names', async () => {
    const file = path.join(fixturesRoot, 'source/tf2/itemtest.nav');
    record.appListeners.get('second-instance')!({}, ['electron', '.', '--some-flag', file], '/');
    const win = record.windows[0]!;
    expect(win.focused).toBe(1);
    await expect.poll(() => win.sent).toContainEqual(['walkbench:event:app.openFileRequested', { path: file }]);
  });
});
