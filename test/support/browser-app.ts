import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startBrowserServer, type BrowserServer } from '../../electron/services/browser-server';
import type { JobService } from '../../electron/services/job-service';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { createEventHub } from '../../shared/ipc/event-hub';
import { repoRoot } from './fixtures';

/** Debian's Chromium; the tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless, no GPU: WebGL runs on SwiftShader, slow but the same on every machine. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

/** Builds the renderer from the current sources into `outDir`, so nothing stale is served. */
export async function buildRenderer(outDir: string): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'renderer/vite.config.ts', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: repoRoot, maxBuffer: 16 << 20 },
  );
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`the browser tests need Chromium at ${CHROMIUM} (Debian: apt-get install chromium); it is missing`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** A renderer built into a temporary folder (unless `rendererDir` names a built one) and a Chromium. */
export interface BrowserApp {
  rendererDir: string;
  browser: Browser;
  /** Closes the browser and removes the temporary renderer. */
  close(): Promise<void>;
}

export async function startBrowserApp(tempPrefix: string, rendererDir?: string): Promise<BrowserApp> {
  let tmp = '';
  let dir = rendererDir ?? '';
  if (!dir) {
    tmp = mkdtempSync(path.join(tmpdir(), tempPrefix));
    dir = path.join(tmp, 'renderer');
    await buildRenderer(dir);
  }
  try {
    const browser = await launchChromium();
    return {
      rendererDir: dir,
      browser,
      async close() {
        await browser.close();
        if (tmp) rmSync(tmp, { recursive: true, force: true });
      },
    };
  } catch (e) {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

export interface PageProblemOptions {
  /** Also count failed requests (default true), except those this says to ignore. */
  requests?: boolean;
  ignoreFailedRequest?: (url: string) => boolean;
}

/**
 * Collects into `problems` what means the page is broken: console errors, uncaught page
 * errors and failed requests. Each test ends by asserting the list is empty.
 */
export function recordPageProblems(page: Page, problems: string[], options: PageProblemOptions = {}): void {
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  if (options.requests === false) return;
  page.on('requestfailed', (r) => {
    if (!options.ignoreFailedRequest?.(r.url())) problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`);
  });
}

export interface ProjectPageOptions {
  /** A browser to open the page in (several suites share one); else one is launched. */
  browser?: Browser;
  /** Handed the app's job service (bakes), which the caller then closes. */
  onJobService?: (jobs: JobService) => void;
}

/**
 * Serves a project file in browser mode with the app opening it at start, and opens it in
 * Chromium once the project tree is shown. The caller closes browser (or the page, when
 * the browser is shared), server and job service.
 */
export async function openProjectPage(
  project: string,
  rendererDir: string,
  problems: string[],
  problemOptions: PageProblemOptions = {},
  app: ProjectPageOptions = {},
): Promise<{ server: BrowserServer; browser: Browser; page: Page }> {
  const events = createEventHub();
  const service = createWalkbenchService({ startupFile: project, startupIsProject: true, events, ...(app.onJobService ? { onJobService: app.onJobService } : {}) });
  const server = await startBrowserServer({ service, events, rendererDir });
  const browser = app.browser ?? (await launchChromium());
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  recordPageProblems(page, problems, problemOptions);
  const response = await page.goto(server.url);
  if (response?.status() !== 200) throw new Error(`${server.url}: the app answered ${response?.status() ?? 'nothing'}, expected 200`);
  await page.getByTestId('project-tree').waitFor({ timeout: 30_000 });
  return { server, browser, page };
}
