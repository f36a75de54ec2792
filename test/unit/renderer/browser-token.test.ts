import { describe, expect, it } from 'vitest';
import { createHttpTransport, takeToken } from '../../../renderer/src/transport/http-transport';

/** A tab: its address, its history and its sessionStorage. */
function fakeWindow(href: string) {
  const storage = new Map<string, string>();
  const replaced: string[] = [];
  const win = {
    location: new URL(href) as unknown as Location,
    history: {
      state: { page: 1 },
      replaceState(_state: unknown, _title: string, url: string) {
        replaced.push(url);
        win.location = new URL(url, href) as unknown as Location;
      },
    } as unknown as History,
    sessionStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
    } as unknown as Storage,
  };
  return { win, storage, replaced };
}

describe('the browser-mode token', () => {
  it('is taken from the address once, then removed from the address bar, and kept for this tab only', () => {
    const { win, storage, replaced } = fakeWindow('http://127.0.0.1:4321/?token=s3cret&x=1#view');
    expect(takeToken(win)).toBe('s3cret');
    expect(replaced).toEqual(['/?x=1#view']);
    expect(win.location.href).toBe('http://127.0.0.1:4321/?x=1#view');
    expect([...storage.values()]).toEqual(['s3cret']);
    // A reload: the address no longer has it, the tab still does.
    expect(takeToken(win)).toBe('s3cret');
    expect(replaced).toHaveLength(1);
  });

  it('is absent in a new tab opened without it', () => {
    expect(takeToken(fakeWindow('http://127.0.0.1:4321/').win)).toBeNull();
  });

  it('travels in the X-Walkbench-Token header of every call, with cookies left out', async () => {
    const seen: RequestInit[] = [];
    const fetchFn = (async (_url: string, init: RequestInit) => {
      seen.push(init);
      return new Response(JSON.stringify({ error: { code: 'forbidden', message: 'no' } }), { status: 403, headers: { 'Content-Type': 'application/json' } });
    }) as unknown as typeof fetch;
    await createHttpTransport('http://127.0.0.1:4321', 's3cret', fetchFn).invoke('app.info', {});
    expect(seen).toHaveLength(1);
    expect((seen[0]!.headers as Record<string, string>)['X-Walkbench-Token']).toBe('s3cret');
    expect(seen[0]!.credentials).toBe('omit');
  });
});
