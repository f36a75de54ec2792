import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL } from '../../../electron/app-protocol';
import { RENDERER_CSP, SECURITY_HEADERS } from '../../../electron/services/content-security-policy';
import { denyPermissions, guardContents, isTrustedSender, secureWebPreferences, type GuardedContents, type SenderEvent } from '../../../electron/window-security';

// The module imports only types from 'electron', so it loads in plain Node; Electron's
// objects are replaced by recording stand-ins of the calls it makes.

type Listener = (event: { preventDefault(): void; defaultPrevented: boolean }, ...args: unknown[]) => void;

function fakeContents(url: string) {
  const listeners = new Map<string, Listener>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  const contents = {
    getURL: () => url,
    setWindowOpenHandler: (h: (details: { url: string }) => { action: string }) => void (openHandler = h),
    on: (name: string, l: Listener) => {
      listeners.set(name, l);
      return contents;
    },
  };
  /** Emits `name` and says whether a listener prevented the default. */
  const emit = (name: string, ...args: unknown[]) => {
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    const l = listeners.get(name);
    if (!l) throw new Error(`no ${name} listener`);
    l(event, ...args);
    return event.defaultPrevented;
  };
  return { contents: contents as unknown as GuardedContents, emit, open: (u: string) => openHandler!({ url: u }) };
}

describe('the window security settings', () => {
  it('isolates the page, sandboxes it and keeps Node out of it', () => {
    const prefs = secureWebPreferences('/app/dist/electron/preload.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/dist/electron/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    });
  });

  it('sends a strict content security policy with the page', () => {
    expect(SECURITY_HEADERS['Content-Security-Policy']).toBe(RENDERER_CSP);
    const directives = new Map(RENDERER_CSP.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    // No inline script, no eval, no remote origin anywhere in the policy.
    expect(RENDERER_CSP).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
  });

  it('blocks new windows, navigation away, redirects and web views', () => {
    const log: string[] = [];
    const { contents, emit, open } = fakeContents(APP_ENTRY_URL);
    guardContents(contents, (l) => log.push(l));
    expect(open('https://evil.example/')).toEqual({ action: 'deny' });
    expect(open(APP_ENTRY_URL)).toEqual({ action: 'deny' });
    expect(emit('will-navigate', 'https://evil.example/')).toBe(true);
    expect(emit('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(emit('will-navigate', 'walkbench://app/other.html')).toBe(true);
    // Reloading the app's own page is not navigation away.
    expect(emit('will-navigate', APP_ENTRY_URL)).toBe(false);
    expect(emit('will-redirect', 'https://evil.example/')).toBe(true);
    expect(emit('will-attach-webview', {}, {})).toBe(true);
    expect(log.join('\n')).toContain('https://evil.example/');
  });

  it('refuses a navigation even to the same URL when the page is not the app', () => {
    const { contents, emit } = fakeContents('https://evil.example/');
    guardContents(contents);
    expect(emit('will-navigate', 'https://evil.example/')).toBe(true);
  });

  it('denies every permission request and check', () => {
    let request: ((c: unknown, p: string, cb: (granted: boolean) => void) => void) | undefined;
    let check: ((...args: unknown[]) => boolean) | undefined;
    denyPermissions({
      setPermissionRequestHandler: (h: typeof request) => void (request = h),
      setPermissionCheckHandler: (h: typeof check) => void (check = h),
    } as unknown as Parameters<typeof denyPermissions>[0]);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      let granted: boolean | undefined;
      request!({}, permission, (g) => (granted = g));
      expect(granted, permission).toBe(false);
      expect(check!({}, permission, 'walkbench://app', {})).toBe(false);
    }
  });
});

describe('the IPC sender check', () => {
  const windowId = 7;
  const event = (senderId: number, url: string, parent: unknown = null): SenderEvent =>
    ({ sender: { id: senderId }, senderFrame: { url, parent } }) as unknown as SenderEvent;

  it('accepts the app page in the app window', () => {
    expect(isTrustedSender(event(windowId, APP_ENTRY_URL), windowId)).toBe(true);
  });

  it('rejects another origin, a sub-frame, another window, a destroyed frame and no window', () => {
    expect(isTrustedSender(event(windowId, 'https://evil.example/'), windowId)).toBe(false);
    expect(isTrustedSender(event(windowId, 'file:///tmp/index.html'), windowId)).toBe(false);
    expect(isTrustedSender(event(windowId, APP_ENTRY_URL, { url: APP_ENTRY_URL }), windowId)).toBe(false);
    expect(isTrustedSender(event(windowId + 1, APP_ENTRY_URL), windowId)).toBe(false);
    expect(isTrustedSender({ sender: { id: windowId }, senderFrame: null } as unknown as SenderEvent, windowId)).toBe(false);
    expect(isTrustedSender(event(windowId, APP_ENTRY_URL), null)).toBe(false);
  });
});
