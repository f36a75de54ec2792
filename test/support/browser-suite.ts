import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startBrowserApp, type BrowserApp } from './browser-app';

/**
 * One renderer build and one Chromium for a browser suite: built before its tests, closed
 * and removed after them. Read `rendererDir` and `browser` inside the tests.
 */
export function browserSuite(tempPrefix: string): { readonly rendererDir: string; readonly browser: Browser } {
  let app: BrowserApp | undefined;
  beforeAll(async () => {
    app = await startBrowserApp(tempPrefix);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });
  const started = (): BrowserApp => {
    if (!app) throw new Error('the browser suite has not started (read rendererDir and browser inside a test)');
    return app;
  };
  return {
    get rendererDir() {
      return started().rendererDir;
    },
    get browser() {
      return started().browser;
    },
  };
}
