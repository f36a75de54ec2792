/**
 * The security settings of the app's window and the guards on its web contents, kept
 * apart from main.ts so a plain-Node test can check them with stand-ins for Electron's
 * objects (only types are imported from 'electron', and they vanish when compiled).
 */
import type { Event, IpcMainEvent, IpcMainInvokeEvent, Session, WebContents, WebPreferences } from 'electron';
import { isAppUrl } from './app-protocol';

/**
 * The renderer runs like a web page: isolated from the preload, in Chromium's sandbox,
 * without Node, with the same-origin policy, and without <webview>. Everything it may do
 * goes through the typed bridge of the preload.
 */
export function secureWebPreferences(preloadFile: string): WebPreferences {
  return {
    preload: preloadFile,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    enableBlinkFeatures: '',
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  };
}

/** The part of WebContents the guards use. */
export type GuardedContents = Pick<WebContents, 'setWindowOpenHandler' | 'on' | 'getURL'>;

/**
 * The app is one page: it opens no windows, never navigates away (a link or a dropped
 * file would otherwise replace the app with a page that keeps the bridge), follows no
 * redirect and embeds no web view. Reloading the app's own page stays allowed.
 */
export function guardContents(contents: GuardedContents, log: (line: string) => void = () => {}): void {
  contents.setWindowOpenHandler(({ url }) => {
    log(`walkbench: refused to open a window for ${url}`);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event: Event, url: string) => {
    if (url === contents.getURL() && isAppUrl(url)) return;
    log(`walkbench: refused to navigate to ${url}`);
    event.preventDefault();
  });
  contents.on('will-redirect', (event: Event) => event.preventDefault());
  contents.on('will-attach-webview', (event: Event) => event.preventDefault());
}

/** Walkbench needs no camera, microphone, location, notification or other permission. */
export function denyPermissions(session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/** What the sender check reads of an IPC event. */
export type SenderEvent = Pick<IpcMainInvokeEvent | IpcMainEvent, 'sender' | 'senderFrame'>;

/**
 * The IPC sender check: the app's own top-level page (not a frame inside it, not a page
 * it was navigated to) in the app's window. `windowContentsId` is the main window's
 * webContents id, or null when there is no window.
 */
export function isTrustedSender(event: SenderEvent, windowContentsId: number | null): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  if (windowContentsId === null || event.sender.id !== windowContentsId) return false;
  return isAppUrl(frame.url);
}
