import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import { NAV_FORMAT, readNav } from '../../shared/formats/source/nav-reader';
import { navToWalkmesh } from '../../shared/formats/source/nav-walkmesh';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../shared/formats/kotor/bwm-reader';
import { bwmToWalkmesh } from '../../shared/formats/kotor/bwm-walkmesh';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { ProjectStore } from '../../electron/services/project/project-store';
import { openProjectPage } from '../support/browser-app';
import { browserSuite } from '../support/browser-suite';
import { pageActions } from '../support/page-actions';
import { centroid, clearFaces } from '../support/walkmesh-probes';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { BLACK_VULKAR_ROOMS, blackVulkarLyt, blackVulkarWok } from '../unit/kotor-area/black-vulkar-area';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import { PLUGIN_FORMAT } from '../../shared/formats/skyrim/plugin-document';
import { readPlugin } from '../../shared/formats/skyrim/plugin-reader';
import { pluginToWalkmeshes } from '../../shared/formats/skyrim/skyrim-walkmesh';
import { portableEnvironment } from '../../shared/formats/format-environment';

/**
 * Issue 16 §3, the viewport's seeing aids: the wheel zooms towards the cursor, "Go to
 * face/area N" selects and frames it (and says when there is none), and x-ray makes the
 * faces see-through.
 */

const app = browserSuite('walkbench-e2e-view-tools-renderer-');
const shotsDir = process.env['WALKBENCH_SCREENSHOTS'];

/** With `WALKBENCH_SCREENSHOTS=DIR`, the page as it is now, written to DIR. */
async function shot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  mkdirSync(shotsDir, { recursive: true });
  writeFileSync(path.join(shotsDir, `${name}.png`), await page.screenshot());
}

type V3 = [number, number, number];
interface CameraHook {
  __walkbench: { camera(): { target: V3; radius: number }; toScreen(x: number, y: number, z: number): [number, number] | null };
}

interface Opened {
  tmp: string;
  server: BrowserServer;
  page: Page;
}

async function openProject(game: 'kotor' | 'skyrim' | 'source', fill: (store: ProjectStore) => void, problems: string[]): Promise<Opened> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-view-tools-'));
  const project = path.join(tmp, `${game}.wbproj`);
  const store = ProjectStore.create(project, { name: `View tools ${game}`, game });
  try {
    fill(store);
  } finally {
    store.close();
  }
  const { server, page } = await openProjectPage(project, app.rendererDir, problems, { requests: false }, { browser: app.browser });
  return { tmp, server, page };
}

async function closeProject(o: Opened | undefined): Promise<void> {
  await o?.page.close();
  await o?.server.close();
  if (o?.tmp) rmSync(o.tmp, { recursive: true, force: true });
}

const camera = (page: Page) => page.evaluate(() => (window as unknown as CameraHook).__walkbench.camera());
const toScreen = (page: Page, p: V3) => page.evaluate(([x, y, z]) => (window as unknown as CameraHook).__walkbench.toScreen(x!, y!, z!), p);
const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** Waits until the camera stops gliding (two reads a few frames apart agree). */
async function settled(page: Page): Promise<{ target: V3; radius: number }> {
  let last = await camera(page);
  for (let i = 0; i < 50; i++) {
    await page.waitForTimeout(100);
    const now = await camera(page);
    if (dist(now.target, last.target) === 0 && now.radius === last.radius) return now;
    last = now;
  }
  throw new Error('the camera never stopped moving');
}

function centreOfFace(mesh: Walkmesh, f: number): V3 {
  const c: V3 = [0, 0, 0];
  for (let k = 0; k < 3; k++) for (let a = 0; a < 3; a++) c[a] += mesh.positions[mesh.triangles[f * 3 + k]! * 3 + a]! / 3;
  return c;
}

describe('Source map: wheel zoom towards the cursor, go to area N, x-ray', () => {
  const NAV = 'de_shortnuke.nav';
  const bytes = readFixture(path.join(fixturesRoot, 'source', 'csgo', NAV));
  const doc = readNav(bytes);
  const mesh = navToWalkmesh(doc, NAV);
  let o: Opened | undefined;
  const problems: string[] = [];
  const ui = pageActions(() => o!.page);

  beforeAll(async () => {
    o = await openProject('source', (store) => {
      store.upsertFile({ module: 'csgo', area: 'de_shortnuke', name: NAV, kind: 'walkmesh', format: NAV_FORMAT, bytes });
    }, problems);
  }, 120_000);
  afterAll(() => closeProject(o));

  it('zooms towards the point under the cursor: the target moves to it and the point stays under the cursor', async () => {
    const page = o!.page;
    await ui.openFromTree(NAV, faceCount(mesh));
    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    const before = await settled(page);
    // A point of the plane through the target, up and left of it (top view: north is up).
    const step = before.radius * 0.15;
    const p: V3 = [before.target[0] - step, before.target[1] + step, before.target[2]];
    const at = (await toScreen(page, p))!;
    const centre = (await toScreen(page, before.target))!;
    expect(Math.hypot(at[0] - centre[0], at[1] - centre[1])).toBeGreaterThan(40);
    expect(at[0]).toBeGreaterThan(0);
    expect(at[1]).toBeGreaterThan(0);
    await page.mouse.move(box.x + at[0], box.y + at[1], { steps: 4 });
    for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -240);
    const after = await settled(page);
    expect(after.radius).toBeLessThan(before.radius * 0.9);
    // A zoom to the centre would leave the target where it was.
    expect(dist(after.target, p)).toBeLessThan(dist(before.target, p) * 0.8);
    const still = (await toScreen(page, p))!;
    expect(Math.hypot(still[0] - at[0], still[1] - at[1])).toBeLessThan(6);
  });

  it('goes to area N: selects a face of that area and frames it; an unknown area says so', async () => {
    const page = o!.page;
    const id = doc.areas.id[Math.floor(doc.areas.id.length / 2)]!;
    const faces = [...mesh.faceOwner.keys()].filter((f) => mesh.faceOwner[f] === id);
    expect(faces.length).toBeGreaterThan(0);
    await page.getByTestId('frame-all').click();
    const before = await settled(page);
    await page.getByTestId('goto-input').fill(String(id));
    await page.getByTestId('goto-go').click();
    await expect.poll(() => ui.text('inspector-face')).not.toBe('');
    expect(faces.map(String)).toContain(await ui.text('inspector-face'));
    const after = await settled(page);
    const c = centreOfFace(mesh, Number(await ui.text('inspector-face')));
    expect(after.radius).toBeLessThan(before.radius);
    expect(dist(after.target, c)).toBeLessThan(dist(before.target, c));
    const missing = Math.max(...Array.from(doc.areas.id)) + 1;
    await page.getByTestId('goto-input').fill(String(missing));
    await page.getByTestId('goto-go').click();
    await expect.poll(() => ui.text('goto-message')).toBe(`No area ${missing} in this map.`);
  });

  it('isolates the selected face: only it is drawn, and Show all draws every face again', async () => {
    const page = o!.page;
    const viewport = page.getByTestId('viewport');
    const total = String(faceCount(mesh));
    await expect.poll(() => viewport.getAttribute('data-drawn-faces')).toBe(total);
    await page.getByTestId('goto-input').fill(String(doc.areas.id[0]));
    await page.getByTestId('goto-go').click();
    await expect.poll(() => ui.text('inspector-face')).not.toBe('');
    const canvas = page.getByTestId('viewport-canvas');
    await settled(page);
    const all = await canvas.screenshot();
    await page.getByTestId('isolate-selection').click();
    await expect.poll(() => viewport.getAttribute('data-drawn-faces')).toBe('1');
    await shot(page, 'view-tools-isolated-face');
    expect(await page.getByTestId('isolate-selection').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => (await canvas.screenshot()).equals(all)).toBe(false);
    await page.getByTestId('isolate-selection').click();
    await expect.poll(() => viewport.getAttribute('data-drawn-faces')).toBe(total);
    expect(await page.getByTestId('isolate-selection').getAttribute('aria-pressed')).toBe('false');
    await expect.poll(async () => (await canvas.screenshot()).equals(all)).toBe(true);
  });

  it('x-ray makes the faces see-through and off makes them solid again', async () => {
    const page = o!.page;
    const canvas = page.getByTestId('viewport-canvas');
    await page.getByTestId('frame-all').click();
    await settled(page);
    const solid = await canvas.screenshot();
    await page.getByTestId('xray-toggle').check();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-xray')).toBe('true');
    await expect.poll(async () => (await canvas.screenshot()).equals(solid)).toBe(false);
    await shot(page, 'view-tools-xray');
    await page.getByTestId('xray-toggle').uncheck();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-xray')).toBe('false');
    await expect.poll(async () => (await canvas.screenshot()).equals(solid)).toBe(true);
    expect(problems).toEqual([]);
  });

  it('measures between two picked points: distance, horizontal distance and height, with a line; Esc clears', async () => {
    const page = o!.page;
    const area = (f: number) => {
      const c = [0, 1, 2].map((k) => mesh.triangles[f * 3 + k]! * 3);
      const [ax, ay, bx, by, cx, cy] = [mesh.positions[c[0]!]!, mesh.positions[c[0]! + 1]!, mesh.positions[c[1]!]!, mesh.positions[c[1]! + 1]!, mesh.positions[c[2]!]!, mesh.positions[c[2]! + 1]!];
      return Math.abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2;
    };
    const big = clearFaces(mesh).sort((a, b) => area(b) - area(a)).slice(0, 60);
    const low = big.reduce((m, f) => (centroid(mesh, f)[2] < centroid(mesh, m)[2] ? f : m));
    const high = big.reduce((m, f) => (centroid(mesh, f)[2] > centroid(mesh, m)[2] ? f : m));
    const a = centroid(mesh, low);
    const b = centroid(mesh, high);
    const horizontal = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const height = b[2] - a[2];
    expect(horizontal).toBeGreaterThan(50);
    await page.getByTestId('frame-all').click();
    await page.getByTestId('top-view').click();
    await settled(page);
    const selectedBefore = await ui.text('inspector-face');
    await page.getByTestId('measure-toggle').check();
    const readout = page.getByTestId('measure-readout');
    expect((await readout.textContent())?.trim()).toBe('Click the first point');
    const canvas = page.getByTestId('viewport-canvas');
    await ui.clickAt(a);
    await expect.poll(async () => (await readout.textContent())?.trim()).toBe('Click the second point');
    const one = await canvas.screenshot();
    await ui.clickAt(b);
    await expect.poll(() => readout.getAttribute('data-distance')).not.toBe('');
    // One pixel of the top view of the whole map is a few units: the picks land that close to the centroids.
    const tol = 0.02 * horizontal + 30;
    expect(Math.abs(Number(await readout.getAttribute('data-horizontal')) - horizontal)).toBeLessThan(tol);
    expect(Math.abs(Number(await readout.getAttribute('data-height')) - height)).toBeLessThan(tol);
    expect(Math.abs(Number(await readout.getAttribute('data-distance')) - Math.hypot(horizontal, height))).toBeLessThan(tol);
    expect(await readout.textContent()).toMatch(/distance [\d,.]+ · horizontal [\d,.]+ · height [+-][\d,.]+/);
    // The clicks measured: the selection stayed as it was.
    expect(await ui.text('inspector-face')).toBe(selectedBefore);
    expect(selectedBefore).not.toBe('');
    await expect.poll(async () => (await canvas.screenshot()).equals(one)).toBe(false);
    await shot(page, 'view-tools-measure');
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await readout.textContent())?.trim()).toBe('Click the first point');
    await page.getByTestId('measure-toggle').uncheck();
    await expect.poll(() => readout.count()).toBe(0);
    expect(problems).toEqual([]);
  });
});

describe('KotOR: go to face N in a room, and each room of a layout hidden from the tree', () => {
  const NAME = 'm10aa_09a.wok';
  const bytes = blackVulkarWok('m10aa_09a');
  const mesh = bwmToWalkmesh(readBwm(bytes), NAME);
  let o: Opened | undefined;
  const problems: string[] = [];
  const ui = pageActions(() => o!.page);

  beforeAll(async () => {
    o = await openProject('kotor', (store) => {
      store.upsertFile({ module: 'm10aa', area: 'm10aa', name: 'm10aa.lyt', kind: 'lyt', bytes: writeLyt(blackVulkarLyt()) });
      for (const n of BLACK_VULKAR_ROOMS) store.upsertFile({ module: 'm10aa', area: 'm10aa', name: `${n}.wok`, kind: 'walkmesh', format: BWM_FORMAT, bytes: blackVulkarWok(n) });
    }, problems);
  }, 120_000);
  afterAll(() => closeProject(o));

  it('selects face N in the inspector', async () => {
    const page = o!.page;
    await ui.openFromTree(NAME, faceCount(mesh));
    const n = faceCount(mesh) - 1;
    await page.getByTestId('goto-input').fill(String(n));
    await page.getByTestId('goto-go').click();
    await expect.poll(() => ui.text('inspector-face')).toBe(String(n));
    await page.getByTestId('goto-input').fill(String(n + 1));
    await page.getByTestId('goto-go').click();
    await expect.poll(() => ui.text('goto-message')).toContain(`no face ${n + 1}`);
    expect(problems).toEqual([]);
  });

  it('hides one room of the assembled layout with its eye in the tree, and shows it again', async () => {
    const page = o!.page;
    const faces = BLACK_VULKAR_ROOMS.reduce((n, r) => n + faceCount(bwmToWalkmesh(readBwm(blackVulkarWok(r)), r)), 0);
    await ui.openFromTree('m10aa.lyt', faces);
    const viewport = page.getByTestId('viewport');
    const eyes = page.getByTestId('tree-child-visible');
    await expect.poll(() => eyes.count()).toBe(BLACK_VULKAR_ROOMS.length);
    expect(await viewport.getAttribute('data-shown-meshes')).toBe(String(BLACK_VULKAR_ROOMS.length));
    const canvas = page.getByTestId('viewport-canvas');
    await settled(page);
    const all = await canvas.screenshot();
    await eyes.nth(4).uncheck();
    await expect.poll(() => viewport.getAttribute('data-shown-meshes')).toBe(String(BLACK_VULKAR_ROOMS.length - 1));
    await expect.poll(async () => (await canvas.screenshot()).equals(all)).toBe(false);
    await shot(page, 'view-tools-room-hidden');
    await eyes.nth(4).check();
    await expect.poll(() => viewport.getAttribute('data-shown-meshes')).toBe(String(BLACK_VULKAR_ROOMS.length));
    await expect.poll(async () => (await canvas.screenshot()).equals(all)).toBe(true);
    expect(problems).toEqual([]);
  });
});

describe('Skyrim plugin: go to triangle N of the navmesh shown alone', () => {
  const ESP = 'DawnOfTheSilverHand.esp';
  const bytes = readFixture(path.join(fixturesRoot, 'skyrim', ESP));
  const meshes = pluginToWalkmeshes(readPlugin(bytes, portableEnvironment), ESP);
  let o: Opened | undefined;
  const problems: string[] = [];
  const ui = pageActions(() => o!.page);

  beforeAll(async () => {
    o = await openProject('skyrim', (store) => {
      store.upsertFile({ module: 'plugins', area: 'DawnOfTheSilverHand', name: ESP, kind: 'walkmesh', format: PLUGIN_FORMAT, bytes });
    }, problems);
  }, 120_000);
  afterAll(() => closeProject(o));

  it('numbers triangles within the navmesh, as the NVNM lists them', async () => {
    const page = o!.page;
    await ui.openFromTree(ESP);
    const navmesh = page.locator('[data-testid="tree-navmesh"]:not([disabled])').nth(1);
    const hex = (await navmesh.getAttribute('data-formid'))!.toLowerCase();
    const mesh = meshes.find((m) => m.name.toLowerCase().includes(hex))!;
    expect(mesh).toBeDefined();
    await navmesh.click();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-shown-meshes')).toBe('1');
    expect((await page.getByTestId('view-tools').textContent())).toContain('Go to triangle');
    const n = faceCount(mesh) - 1;
    await page.getByTestId('goto-input').fill(String(n));
    await page.getByTestId('goto-go').click();
    await expect.poll(() => ui.text('inspector-face')).toBe(String(n));
    expect((await ui.text('inspector-mesh')).toLowerCase()).toContain(hex);
    await page.getByTestId('goto-input').fill(String(n + 1));
    await page.getByTestId('goto-go').click();
    await expect.poll(() => ui.text('goto-message')).toContain(`no triangle ${n + 1}`);
    expect(problems).toEqual([]);
  });
});
