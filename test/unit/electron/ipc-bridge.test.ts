import { describe, expect, it, vi, beforeEach } from 'vitest';
import type { WalkbenchBridge } from '../../../shared/ipc/bridge';
import { methods, type ContractHandlers } from '../../../shared/ipc/contract';

// Electron's API cannot load outside Electron; these tests drive the main-process IPC
// wiring and the preload through a recording fake of the few calls they make.
type Handler = (event: unknown, ...args: unknown[]) => unknown;
const fake = vi.hoisted(() => ({
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  listeners: new Map<string, Set<(event: unknown, ...args: unknown[]) => unknown>>(),
  invoked: [] as { channel: string; args: unknown[] }[],
  exposed: new Map<string, unknown>(),
}));

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: Handler) => {
      if (fake.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      fake.handlers.set(channel, fn);
    },
    removeHandler: (channel: string) => fake.handlers.delete(channel),
  },
  ipcRenderer: {
    invoke: async (channel: string, ...args: unknown[]) => {
      fake.invoked.push({ channel, args });
      return { ok: true, value: 'from main' };
    },
    on: (channel: string, fn: Handler) => {
      const set = fake.listeners.get(channel) ?? new Set();
      set.add(fn);
      fake.listeners.set(channel, set);
    },
    removeListener: (channel: string, fn: Handler) => fake.listeners.get(channel)?.delete(fn),
  },
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => fake.exposed.set(key, api) },
}));

const { registerContractHandlers } = await import('../../../electron/ipc/register-handlers');
const { isAppUrl, APP_ENTRY_URL } = await import('../../../electron/app-protocol');

function service(calls: string[]): ContractHandlers {
  const unused = () => Promise.reject(new Error('not used'));
  return {
    ...(Object.fromEntries(methods.map((m) => [m, unused])) as unknown as ContractHandlers),
    'app.info': async () => {
      calls.push('app.info');
      return { name: 'Walkbench', version: 't', formats: [], startupFile: null, maxFileBytes: 1 };
    },
    'files.inspect': async ({ path }) => {
      calls.push(`inspect ${path}`);
      return { file: path, format: null, game: null, ok: false, summary: null, errors: [], warnings: [], readFailure: null };
    },
    'files.open': async () => Promise.reject(new Error('not used')),
    'files.openBytes': async () => Promise.reject(new Error('not used')),
  };
}

const fromApp = { senderFrame: { url: APP_ENTRY_URL } };
const trusted = (event: unknown) => (event as typeof fromApp).senderFrame.url === APP_ENTRY_URL;

describe('main-process IPC handlers', () => {
  beforeEach(() => fake.handlers.clear());

  it('registers one handler per contract method and removes them again', () => {
    const dispose = registerContractHandlers(service([]), trusted, () => {});
    expect([...fake.handlers.keys()].sort()).toEqual(methods.map((m) => `walkbench:call:${m}`).sort());
    expect(fake.handlers.has('walkbench:call:jobs.bake')).toBe(true);
    dispose();
    expect(fake.handlers.size).toBe(0);
  });

  it('refuses a sender that is not the app page before looking at the arguments', async () => {
    const calls: string[] = [];
    const log: string[] = [];
    registerContractHandlers(service(calls), trusted, (l) => log.push(l));
    const outcome = await fake.handlers.get('walkbench:call:files.inspect')!({ senderFrame: { url: 'https://evil.example/' } }, { path: '/etc/passwd' });
    expect(outcome).toEqual({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('files.inspect') } });
    expect(calls).toEqual([]);
    expect(log[0]).toContain('https://evil.example/');
  });

  it('validates the arguments of the app page before the service sees them', async () => {
    const calls: string[] = [];
    registerContractHandlers(service(calls), trusted, () => {});
    const inspect = fake.handlers.get('walkbench:call:files.inspect')!;
    expect(await inspect(fromApp, { path: ['/a'] })).toMatchObject({ ok: false, error: { code: 'invalid-params', parameter: 'params.path' } });
    expect(await inspect(fromApp, undefined)).toMatchObject({ ok: false, error: { code: 'invalid-params', parameter: 'params' } });
    expect(calls).toEqual([]);
    expect(await inspect(fromApp, { path: '/a.nav' })).toMatchObject({ ok: true, value: { file: '/a.nav' } });
    expect(calls).toEqual(['inspect /a.nav']);
  });
});

describe('app URL check', () => {
  it('accepts only the app protocol and host', () => {
    expect(isAppUrl(APP_ENTRY_URL)).toBe(true);
    expect(isAppUrl('walkbench://app/assets/x.js')).toBe(true);
    for (const url of ['file:///index.html', 'walkbench://other/index.html', 'https://app/index.html', 'walkbench://user@app/', 'not a url', 'about:blank']) {
      expect(isAppUrl(url), url).toBe(false);
    }
  });
});

describe('preload bridge', () => {
  it('exposes only invoke and on, and keeps calls and events inside the contract', async () => {
    await import('../../../electron/preload');
    const bridge = fake.exposed.get('walkbench') as WalkbenchBridge;
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on']);

    expect(await bridge.invoke('app.info', {})).toEqual({ ok: true, value: 'from main' });
    expect(fake.invoked).toEqual([{ channel: 'walkbench:call:app.info', args: [{}] }]);
    const bogus = await (bridge.invoke as (m: string, p: unknown) => Promise<unknown>)('shell.openExternal', {});
    expect(bogus).toMatchObject({ ok: false, error: { code: 'unknown-method' } });
    expect(fake.invoked).toHaveLength(1);
    expect(() => (bridge.on as (e: string, l: () => void) => void)('ipc.raw', () => {})).toThrow(/not a Walkbench event/);

    const seen: unknown[] = [];
    const off = bridge.on('app.openFileRequested', (p) => seen.push(p));
    const [listener] = fake.listeners.get('walkbench:event:app.openFileRequested')!;
    listener!({}, { path: '/levels/a.nav' });
    listener!({}, { path: 42 });
    listener!({}, { path: '/b.nav', extra: true });
    expect(seen).toEqual([{ path: '/levels/a.nav' }]);
    off();
    expect(fake.listeners.get('walkbench:event:app.openFileRequested')!.size).toBe(0);
  });
});
