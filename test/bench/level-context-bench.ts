/**
 * Issue 19: the level around the walkmesh, for the largest inputs at hand: a synthetic
 * 100 MB Source map (test/support/big-bsp.ts) under a `.nav`, and a generated 400-megatile
 * NWN2 exterior (20 × 20 megatiles of TRRN terrain, test/support/nwn2-exterior-generator.ts).
 * In Chromium (software WebGL), from opening the file in the project tree: the time to the
 * walkmesh's first frame, to the first frame with the whole context, the longest main-thread
 * task while the context streamed in (how interactive the page stayed), the page's JS heap,
 * and the services' own figures (context read on the worker; cached answer) with the Node
 * process's peak RSS (services and worker share it). Printed, never asserted.
 * Run alone with `node --import tsx test/bench/level-context-bench.ts [--bsp-mb N --megatiles N]`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { startBrowserServer } from '../../electron/services/browser-server';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { TRX_FORMAT } from '../../shared/formats/nwn2/trx-document';
import { NAV_FORMAT } from '../../shared/formats/source/nav-reader';
import { createEventHub } from '../../shared/ipc/event-hub';
import { levelContextTriangleCount } from '../../shared/model/level-context';
import { syntheticVbsp } from '../support/big-bsp';
import { buildRenderer, launchChromium } from '../support/browser-app';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { generateExteriorTrxBytes } from '../support/nwn2-exterior-generator';
import { peakRss } from './measure';
import { renderTable } from './text-table';

export interface LevelContextBenchOptions {
  bspMb?: number;
  megatiles?: number;
  out?: (text: string) => void;
}

interface PageFigures {
  firstFrameMs: number;
  contextFrameMs: number;
  contextTriangles: number;
  longestTaskMs: number;
  /**
   * The long tasks split by the long-animation-frame entries' script runs: the longest
   * run of the page's own script (one callback or task), and the longest part of a long
   * task that no script run explains. With software WebGL that is a frame's commit, whose
   * software compositor reads the drawn frame back (GLES2::ReadPixels waiting for
   * SwiftShader to draw it: a Chromium trace shows it), not the page's code.
   */
  longestScriptMs: number;
  longestOtherMs: number;
  /** Frames the viewport drew from the click to the context's first frame. */
  openFrames: number;
  heapMb: number | null;
  /** Frames drawn over 2 s with the page idle, once the context is shown. */
  idleFrames: number;
}

interface Timings {
  firstFrameMs: number | null;
  contextFrameMs?: number;
  contextTriangles?: number;
}

async function openAndMeasure(page: Page, name: string): Promise<PageFigures> {
  // Long tasks of the page's main thread from the click on: the walkmesh, then the context.
  await page.evaluate(() => {
    const w = window as unknown as { __tasks: [number, number][]; __scripts: [number, number][]; __frames0: number; __walkbench?: { frames?: number } };
    w.__tasks = [];
    w.__scripts = [];
    w.__frames0 = w.__walkbench?.frames ?? 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__tasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: false });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { scripts: PerformanceEntry[] })[]) for (const x of e.scripts) w.__scripts.push([x.startTime, x.duration]);
    }).observe({ type: 'long-animation-frame', buffered: false });
  });
  await page.locator(`[data-testid="tree-file"][data-file-name="${name}"]`).click();
  const timing = () => page.evaluate((file) => (window as unknown as { __walkbench?: { timings: (Timings & { file: string })[] } }).__walkbench?.timings.find((t) => t.file === file) ?? null, name);
  await page.waitForFunction((file) => (window as unknown as { __walkbench?: { timings: (Timings & { file: string })[] } }).__walkbench?.timings.some((t) => t.file === file && t.contextFrameMs !== undefined), name, { timeout: 900_000, polling: 200 });
  const t = (await timing())!;
  const { longestTaskMs, longestScriptMs, longestOtherMs, openFrames } = await page.evaluate(() => {
    const w = window as unknown as { __tasks: [number, number][]; __scripts: [number, number][]; __frames0: number; __walkbench?: { frames?: number } };
    let longestTask = 0;
    let longestOther = 0;
    for (const [start, duration] of w.__tasks) {
      longestTask = Math.max(longestTask, duration);
      let script = 0;
      for (const [s, d] of w.__scripts) script += Math.max(0, Math.min(start + duration, s + d) - Math.max(start, s));
      longestOther = Math.max(longestOther, duration - script);
    }
    const longestScript = w.__scripts.reduce((m, [, d]) => Math.max(m, d), 0);
    return { longestTaskMs: longestTask, longestScriptMs: longestScript, longestOtherMs: longestOther, openFrames: (w.__walkbench?.frames ?? 0) - w.__frames0 };
  });
  // The level check runs on a page worker after the context is drawn; idle frames are counted once it is done.
  await page.waitForFunction(() => document.querySelector('[data-testid="level-findings"]')?.getAttribute('data-checking') !== 'true', undefined, { timeout: 900_000, polling: 500 });
  await page.waitForTimeout(1_000);
  const frames = () => page.evaluate(() => (window as unknown as { __walkbench?: { frames?: number } }).__walkbench?.frames ?? 0);
  const before = await frames();
  await page.waitForTimeout(2_000);
  const idleFrames = (await frames()) - before;
  const heap = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? null);
  return { firstFrameMs: t.firstFrameMs ?? NaN, contextFrameMs: t.contextFrameMs ?? NaN, contextTriangles: t.contextTriangles ?? 0, longestTaskMs, longestScriptMs, longestOtherMs, openFrames, heapMb: heap === null ? null : heap / 1e6, idleFrames };
}

export async function runLevelContextBench(options: LevelContextBenchOptions = {}): Promise<void> {
  const out = options.out ?? ((t: string) => process.stdout.write(t));
  const bspMb = options.bspMb ?? 100;
  const megatiles = options.megatiles ?? 20;
  const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-level-context-bench-'));
  const rows: string[][] = [];
  try {
    // The map beside a .nav (the nav's own map is another: the context says the sizes differ, and draws it).
    const maps = path.join(tmp, 'maps');
    mkdirSync(maps);
    const map = syntheticVbsp(bspMb * 1e6);
    writeFileSync(path.join(maps, 'aim_map.bsp'), map.bytes);
    const exterior = generateExteriorTrxBytes({ megatiles }, env);
    const project = path.join(tmp, 'bench.wbproj');
    const store = ProjectStore.create(project, { name: 'Level context bench', game: 'source' });
    try {
      store.upsertFile({ module: 'maps', area: 'aim_map', name: 'aim_map.nav', kind: 'walkmesh', format: NAV_FORMAT, bytes: readFixture(path.join(fixturesRoot, 'source-maps/cs16-cslinux/aim_map.nav')), sourcePath: path.join(maps, 'aim_map.nav') });
      store.upsertFile({ module: 'exterior', area: 'exterior', name: 'exterior.trx', kind: 'walkmesh', format: TRX_FORMAT, bytes: exterior });
    } finally {
      store.close();
    }
    const rendererDir = path.join(tmp, 'renderer');
    await buildRenderer(rendererDir);
    const events = createEventHub();
    let closeService: (() => Promise<void>) | undefined;
    const service = createWalkbenchService({ startupFile: project, startupIsProject: true, events, onClose: (c) => (closeService = c) });
    const server = await startBrowserServer({ service, events, rendererDir });
    const browser = await launchChromium();
    try {
      for (const [name, what, bytes] of [
        ['aim_map.nav', `Source: ${(map.bytes.length / 1e6).toFixed(0)} MB synthetic BSP`, map.bytes.length],
        ['exterior.trx', `NWN2: ${megatiles * megatiles}-megatile exterior TRX`, exterior.length],
      ] as const) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        await page.goto(server.url);
        await page.getByTestId('project-tree').waitFor({ timeout: 60_000 });
        const f = await openAndMeasure(page, name);
        await page.close();
        // The services alone: the page's answer was cached in the project; asking again reads the cache.
        const tree = await service['project.open']({ path: project });
        const id = tree.modules.flatMap((m) => [...m.files, ...m.areas.flatMap((x) => x.files)]).find((x) => x.name === name)!.id;
        const cachedStart = performance.now();
        const cached = await service['context.load']({ session: tree.session, fileId: id });
        const cachedMs = performance.now() - cachedStart;
        const mb = (bytes / 1e6).toFixed(1);
        rows.push([what, mb, levelContextTriangleCount(cached.context).toLocaleString('en-US'), 'walkmesh first frame (page)', f.firstFrameMs.toFixed(0)]);
        rows.push(['', '', '', 'context drawn (page, from the open)', f.contextFrameMs.toFixed(0)]);
        rows.push(['', '', '', 'longest main-thread task meanwhile (page)', f.longestTaskMs.toFixed(0)]);
        rows.push(['', '', '', '  of which longest page script run', f.longestScriptMs.toFixed(0)]);
        rows.push(['', '', '', '  longest task part outside scripts (frame read-back)', f.longestOtherMs.toFixed(0)]);
        rows.push(['', '', '', 'frames drawn while opening (count)', String(f.openFrames)]);
        rows.push(['', '', '', `page JS heap after (MB)`, f.heapMb === null ? 'n/a' : f.heapMb.toFixed(0)]);
        rows.push(['', '', '', 'frames drawn in 2 s idle (count)', String(f.idleFrames)]);
        rows.push(['', '', '', `context answer from the project cache (services)`, cached.cached ? cachedMs.toFixed(0) : 'not cached']);
      }
      rows.push(['Node process peak RSS (services + worker), MB', '', '', '', (peakRss() / 1e6).toFixed(0)]);
    } finally {
      await browser.close();
      await server.close();
      await closeService?.();
    }
  } catch (e) {
    rows.push([`level context figures unavailable: ${e instanceof Error ? e.message.split('\n')[0]! : String(e)}`, '', '', '', '']);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  out('level context (issue 19): largest inputs, chromium with software WebGL\n');
  out(`${renderTable([{ header: 'input', align: 'left' }, { header: 'MB' }, { header: 'context triangles' }, { header: 'step', align: 'left' }, { header: 'ms' }], rows)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { 'bsp-mb': { type: 'string', default: '100' }, megatiles: { type: 'string', default: '20' } } });
  await runLevelContextBench({ bspMb: Number(values['bsp-mb']), megatiles: Number(values.megatiles) });
}
