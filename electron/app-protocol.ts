import type { Protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { SECURITY_HEADERS } from './services/content-security-policy';
import { resolveRendererFile } from './services/static-files';

/**
 * The renderer is loaded from `walkbench://app/…` rather than file://: a custom standard
 * scheme gives the page a real origin for the CSP's 'self', lets the handler send the
 * security headers, and lets the IPC handlers recognise their own page by URL.
 */
export const APP_SCHEME = 'walkbench';
export const APP_HOST = 'app';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** True for a URL of the app's own pages (the sender check of every IPC handler). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

/** Must run before the app is ready. */
export function registerAppScheme(protocol: Protocol): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Serves dist/renderer under the app scheme, with the CSP on every response. */
export function serveAppProtocol(protocol: Protocol, rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const found = url.host === APP_HOST && request.method === 'GET' ? await resolveRendererFile(rendererDir, url.pathname) : null;
    if (!found) return new Response('not found', { status: 404, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain' } });
    const body = await readFile(found.file);
    return new Response(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), {
      status: 200,
      headers: { ...SECURITY_HEADERS, 'Content-Type': found.contentType, 'Cache-Control': 'no-store' },
    });
  });
}
