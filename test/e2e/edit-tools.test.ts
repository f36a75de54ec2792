import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../electron/services/browser-server';
import type { JobService } from '../../electron/services/job-service';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { floodSelect } from '../../shared/edits/selection';
import { meshEdgeOfRow, perimeterRow } from '../../shared/edits/kotor-transitions';
import { BWM_FORMAT, type BwmDocument } from '../../shared/formats/kotor/bwm-document';
import { bwmToWalkmesh } from '../../shared/formats/kotor/bwm-walkmesh';
import { DEFAULT_WALKABILITY, isWalkableMaterial } from '../../shared/formats/kotor/surface-materials';
import { inspectBytes, loadDocument } from '../../shared/formats/inspect-file';
import { findField } from '../../shared/formats/aurora/gff-fields';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import { readGitWalkmeshCutters } from '../../shared/formats/aurora/nwn2-git';
import { TRX_FORMAT } from '../../shared/formats/nwn2/trx-document';
import type { NavDocument } from '../../shared/formats/source/nav-document';
import { TRI_WATER } from '../../shared/formats/skyrim/nvnm-document';
import { PLUGIN_FORMAT, type PluginDocument } from '../../shared/formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../../shared/formats/skyrim/plugin-navmeshes';
import { NAV_FORMAT } from '../../shared/formats/source/nav-reader';
import { createEventHub, type EventHub } from '../../shared/ipc/event-hub';
import { faceCount, vertexCount, type Walkmesh } from '../../shared/model/walkmesh';
import { faceIslands } from '../../shared/views/face-islands';
import { buildRenderer, launchChromium, openProjectPage, recordPageProblems } from '../support/browser-app';
import { exportTo, newErrors } from '../support/export-probes';
import { editShown } from '../support/edit-waits';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { areaXY, centroid, clearFaces, coversXY, heightAt, sameFace, vertex, vertexPickPoint, withStore, type P3 } from '../support/walkmesh-probes';

const ROOM = 'm10aa_09a.wok';
/** Three islands (40, 2 and 1 walkable faces): a path between them cannot exist. */
const SPLIT_ROOM = 'm10aa_03a.wok';
const roomPath = (name: string) => path.join(fixturesRoot, 'kotor/k1-blackvulkar', name);

/** The file's walkmesh as the project holds it now: its saved edit, else its imported bytes. */
function projectMesh(project: string, fileId: number): Walkmesh {
  return withStore(project, (s) => {
    const f = s.fileById(fileId)!;
    const bytes = s.loadEdit(fileId)?.bytes ?? s.loadFileBytes(fileId);
    const d = loadDocument(f.name, bytes, env);
    return d.handler.toWalkmeshes(d.document, f.name)[0]!;
  });
}

/**
 * The file's model as the edits hold it (the imported model with the history replayed):
 * what the page shows after a reload, whose face order the saved bytes need not keep.
 */
function editedMesh(project: string, fileId: number): Walkmesh {
  return withStore(project, (s) => new ProjectEdits(s, env).meshes(fileId)[0]!);
}

/** The room's document and model as the project holds them now. */
function projectRoom(project: string, fileId: number): { doc: BwmDocument; mesh: Walkmesh } {
  return withStore(project, (s) => {
    const f = s.fileById(fileId)!;
    const d = loadDocument(f.name, s.loadEdit(fileId)?.bytes ?? s.loadFileBytes(fileId), env);
    return { doc: d.document as BwmDocument, mesh: d.handler.toWalkmeshes(d.document, f.name)[0]! };
  });
}

function facesOn(m: Walkmesh, a: number, b: number): number {
  let n = 0;
  for (let f = 0; f < faceCount(m); f++) {
    const t = [m.triangles[f * 3], m.triangles[f * 3 + 1], m.triangles[f * 3 + 2]];
    if (t.includes(a) && t.includes(b)) n++;
  }
  return n;
}

function cornersOf(m: Walkmesh, f: number): number[] {
  return [0, 1, 2].map((k) => m.triangles[f * 3 + k]!);
}

/** The face on exactly these corners, or -1: no edit renumbers vertices, while deletes renumber faces. */
function faceOn(m: Walkmesh, corners: readonly number[]): number {
  const want = [...corners].sort((x, y) => x - y).join();
  for (let f = 0; f < faceCount(m); f++) if (cornersOf(m, f).sort((x, y) => x - y).join() === want) return f;
  return -1;
}

/** The corner positions from the lowest-keyed one on: the same winding gives the same key. */
function windingKey(m: Walkmesh, f: number): string {
  const keys = cornersOf(m, f).map((v) => vertex(m, v).join(','));
  const k = keys.indexOf([...keys].sort()[0]!);
  return [...keys.slice(k), ...keys.slice(0, k)].join(' ');
}

/** The renderer is built once for both projects below. */
let rendererDir = '';
let rendererTmp = '';
beforeAll(async () => {
  rendererTmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-edit-renderer-'));
  rendererDir = path.join(rendererTmp, 'renderer');
  await buildRenderer(rendererDir);
}, 180_000);
afterAll(() => {
  if (rendererTmp) rmSync(rendererTmp, { recursive: true, force: true });
});

describe('edit tools and path preview in browser mode', () => {
  let tmp = '';
  let project = '';
  let server: BrowserServer | undefined;
  let jobs: JobService | undefined;
  let browser: Browser | undefined;
  let events: EventHub;
  let page: Page;
  let roomId = 0;
  let splitId = 0;
  const problems: string[] = [];
  const original = (() => {
    const d = loadDocument(ROOM, readFixture(roomPath(ROOM)), env);
    return d.handler.toWalkmeshes(d.document, ROOM)[0]!;
  })();
  const F = faceCount(original);
  /** The face the tests click: the largest walkable face nothing else overlaps. */
  const A = clearFaces(original)[0]!;
  /** The face the brush paints. */
  const B = clearFaces(original)[1]!;
  /**
   * Each tool works on its own face so that every edit stays in the history to the end and
   * the reload and the export can check them all: A is painted and moved, X deleted and
   * filled again, Y flipped, Z split, welded, deleted and created again.
   */
  const X = clearFaces(original).find((f) => f !== B && !cornersOf(original, f).some((v) => cornersOf(original, A).includes(v)))!;
  const [Z, Y] = clearFaces(original).filter((f) => ![A, B, X].includes(f)) as [number, number];
  /** What the edits left, recorded as they are made for the reload and export checks. */
  const kept = { painted: -1, blocked: -1, moved: [] as P3[], filledKey: '', flippedKey: '', welded: -1, link: undefined as { doc: BwmDocument; row: number } | undefined };

  /** Every edit the suite keeps in the history, as model `m` (the page's, or the exported file's) holds it. */
  function expectKeptEdits(m: Walkmesh): void {
    expect(faceCount(m)).toBe(F);
    const a = faceOn(m, cornersOf(original, A));
    expect(m.faceMaterial[a], 'the material painted on A').toBe(kept.painted);
    expect(cornersOf(original, A).map((v) => vertex(m, v))).toEqual(kept.moved.map((p) => p.map((c) => expect.closeTo(c, 4))));
    const b = faceOn(m, cornersOf(original, B));
    expect(m.faceMaterial[b], 'the material brushed on B').toBe(kept.blocked);
    expect(m.faceWalkable[b]).toBe(0);
    const x = faceOn(m, cornersOf(original, X));
    expect(x, 'the face filling the hole X left').toBeGreaterThanOrEqual(0);
    expect(windingKey(m, x)).toBe(kept.filledKey);
    expect(windingKey(m, faceOn(m, cornersOf(original, Y))), 'Y flipped').toBe(kept.flippedKey);
    expect(faceOn(m, cornersOf(original, Z)), 'Z created again').toBeGreaterThanOrEqual(0);
    expect(Array.from(m.triangles).includes(kept.welded), 'the split vertex welded away').toBe(false);
  }

  const text = async (id: string) => (await page.getByTestId(id).first().textContent())?.trim() ?? '';
  const faceCountShown = () => page.getByTestId('viewport').getAttribute('data-face-count');

  async function openFromTree(name: string, faces: number): Promise<void> {
    await page.locator(`[data-testid="tree-file"][data-file-name="${name}"]`).click();
    await expect.poll(() => page.getByTestId('tab').filter({ hasText: name }).getAttribute('data-active'), { timeout: 30_000 }).toBe('true');
    await expect.poll(faceCountShown, { timeout: 30_000 }).toBe(String(faces));
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await page.getByTestId('frame-all').click();
    await page.getByTestId('top-view').click();
    // One frame with the new camera before anything is projected.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }

  async function screenOf(p: P3): Promise<{ x: number; y: number }> {
    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    const s = await page.evaluate(([x, y, z]) => (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] | null } }).__walkbench.toScreen(x!, y!, z!), p);
    expect(s, `point ${p.join(', ')} is in front of the camera`).not.toBeNull();
    return { x: box.x + s![0], y: box.y + s![1] };
  }

  async function clickAt(p: P3, modifiers: ('Shift' | 'Control')[] = []): Promise<void> {
    const s = await screenOf(p);
    for (const m of modifiers) await page.keyboard.down(m);
    await page.mouse.click(s.x, s.y);
    for (const m of modifiers) await page.keyboard.up(m);
  }

  /**
   * Clicks beside corner `v` inside a walkable face that uses it with nothing above (not
   * `avoid`), so the vertex tool picks `v` and not a wall's corner above it.
   */
  async function pickVertex(m: Walkmesh, v: number, avoid: number): Promise<void> {
    const p = vertexPickPoint(m, v, avoid);
    expect(p, `vertex ${v} has a face to click on`).not.toBeNull();
    await clickAt(p!);
  }

  /** One edit, undo or redo made by `action`, shown by the page (test/support/edit-waits.ts). */
  const edited = (action: () => Promise<void>) => editShown(page, action);

  const undo = () => edited(() => page.getByTestId('undo').click());
  const redo = () => edited(() => page.getByTestId('redo').click());

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-edit-'));
    project = path.join(tmp, 'edit.wbproj');
    const store = ProjectStore.create(project, { name: 'Edit tools', game: 'kotor' });
    try {
      roomId = store.upsertFile({ module: 'blackvulkar', area: 'm10aa', name: ROOM, kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(roomPath(ROOM)) }).fileId;
      splitId = store.upsertFile({ module: 'blackvulkar', area: 'm10aa', name: SPLIT_ROOM, kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(roomPath(SPLIT_ROOM)) }).fileId;
    } finally {
      store.close();
    }
    events = createEventHub();
    server = await startBrowserServer({
      service: createWalkbenchService({ startupFile: project, startupIsProject: true, events, onJobService: (j) => (jobs = j) }),
      events,
      rendererDir,
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    recordPageProblems(page, problems, { requests: false });
    expect((await page.goto(server.url))?.status()).toBe(200);
    await page.getByTestId('project-tree').waitFor({ timeout: 30_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await jobs?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('selects by click, adds with Shift, toggles with Ctrl and grows by flood fill', async () => {
    expect(roomId).toBeGreaterThan(0);
    await openFromTree(ROOM, F);
    expect(await text('edit-selection')).toBe('0 faces');
    await page.getByTestId('tool-select').click();
    await clickAt(centroid(original, A));
    await expect.poll(() => text('inspector-face')).toBe(String(A));
    expect(await text('edit-selection')).toBe('1 face');
    const B = clearFaces(original)[1]!;
    await clickAt(centroid(original, B), ['Shift']);
    await expect.poll(() => text('edit-selection')).toBe('2 faces');
    await clickAt(centroid(original, B), ['Control']);
    await expect.poll(() => text('edit-selection')).toBe('1 face');
    // Same island: every walkable face joined to A across edges.
    await page.getByTestId('flood-rule').selectOption('island');
    await page.getByTestId('grow').click();
    const island = floodSelect(original, [A], 'island');
    expect(island.length).toBeGreaterThan(1);
    await expect.poll(() => text('edit-selection')).toBe(`${island.length} faces`);
    await page.getByTestId('flood-rule').selectOption('connected');
    await page.getByTestId('grow').click();
    await expect.poll(() => text('edit-selection')).toBe(`${floodSelect(original, [A], 'connected').length} faces`);
  });

  it('selects the faces inside a box and inside a lasso', async () => {
    const c = await screenOf(centroid(original, A));
    // The faces whose centroids the page puts inside a 60-pixel square round A's centroid.
    const inside: number[] = [];
    for (let f = 0; f < F; f++) {
      const s = await screenOf(centroid(original, f));
      if (Math.abs(s.x - c.x) <= 30 && Math.abs(s.y - c.y) <= 30) inside.push(f);
    }
    expect(inside).toContain(A);
    await page.getByTestId('tool-box').click();
    await page.mouse.move(c.x - 30, c.y - 30);
    await page.mouse.down();
    await page.mouse.move(c.x + 30, c.y + 30, { steps: 5 });
    expect(await page.getByTestId('drag-shape').count()).toBe(1);
    await page.mouse.up();
    await expect.poll(() => text('edit-selection')).toBe(`${inside.length} face${inside.length === 1 ? '' : 's'}`);
    // A lasso round the whole canvas takes every face (the top view frames them all).
    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    await page.getByTestId('tool-lasso').click();
    await page.mouse.move(box.x + 3, box.y + 3);
    await page.mouse.down();
    for (const [x, y] of [[box.width - 3, 3], [box.width - 3, box.height - 3], [3, box.height - 3], [3, 4]] as const) await page.mouse.move(box.x + x, box.y + y, { steps: 3 });
    await page.mouse.up();
    await expect.poll(() => text('edit-selection')).toBe(`${F} faces`);
    // The camera did not orbit during the drags: A is still where it was.
    const again = await screenOf(centroid(original, A));
    expect(Math.hypot(again.x - c.x, again.y - c.y)).toBeLessThan(1);
    await page.getByTestId('tool-select').click();
  });

  it('paints a material on the selection; undo, redo and the Electron menu commands', async () => {
    await page.getByTestId('tool-select').click();
    await clickAt(centroid(original, A));
    await expect.poll(() => text('edit-selection')).toBe('1 face');
    const before = original.faceMaterial[A]!;
    const material = [...Array(20).keys()].find((m) => m !== before && isWalkableMaterial(DEFAULT_WALKABILITY, m))!;
    await page.getByTestId('paint-material').fill(String(material));
    await edited(() => page.getByTestId('paint-fill').click());
    await expect.poll(() => text('inspector-raw')).toBe(String(material));
    expect(projectMesh(project, roomId).faceMaterial[A]).toBe(material);
    await undo();
    await expect.poll(() => text('inspector-raw')).toBe(String(before));
    expect(projectMesh(project, roomId).faceMaterial[A]).toBe(before);
    await redo();
    await expect.poll(() => text('inspector-raw')).toBe(String(material));
    // Keyboard and the Electron menu's app.command take the same way.
    await edited(() => page.keyboard.press('Control+z'));
    expect(projectMesh(project, roomId).faceMaterial[A]).toBe(before);
    await edited(async () => events.emit('app.command', { command: 'redo' }));
    await expect.poll(() => text('inspector-raw')).toBe(String(material));
    expect(projectMesh(project, roomId).faceMaterial[A]).toBe(material);
    kept.painted = material;
    await page.getByTestId('paint-material').fill('');
  });

  it('paints with the brush: one stroke, one edit over the faces under it; undo and redo', async () => {
    const m = projectMesh(project, roomId);
    // KotOR takes walkability from the material: paint one that is not walkable.
    const blocked = [...Array(20).keys()].find((x) => !isWalkableMaterial(DEFAULT_WALKABILITY, x))!;
    await page.getByTestId('paint-material').fill(String(blocked));
    await page.getByTestId('brush-radius').fill('0.01');
    await page.getByTestId('tool-paint').click();
    const historyBefore = withStore(project, (s) => s.listHistory().length);
    await edited(() => clickAt(centroid(m, B)));
    const brushed = projectMesh(project, roomId);
    // The WOK writer puts walkable faces first, so the saved face is found by its corners.
    const saved = sameFace(brushed, m, B);
    expect(brushed.faceWalkable[saved]).toBe(0);
    expect(brushed.faceMaterial[saved]).toBe(blocked);
    expect(withStore(project, (s) => s.listHistory().length)).toBe(historyBefore + 1);
    // The legend counts the face as not walkable now.
    const blockedFaces = brushed.faceWalkable.filter((w) => w === 0).length;
    expect(blockedFaces).toBe(original.faceWalkable.filter((w) => w === 0).length + 1);
    const legendBlocked = () => page.getByTestId('legend-entry').filter({ hasText: 'not walkable' }).innerText();
    await expect.poll(legendBlocked).toMatch(new RegExp(`${blockedFaces} faces`));
    await undo();
    const back = projectMesh(project, roomId);
    expect(back.faceWalkable[sameFace(back, m, B)]).toBe(1);
    expect(back.faceMaterial[sameFace(back, m, B)]).toBe(m.faceMaterial[B]);
    await expect.poll(legendBlocked).toMatch(new RegExp(`\\b${blockedFaces - 1} faces?\\b`));
    await redo();
    const again = projectMesh(project, roomId);
    expect(again.faceWalkable[sameFace(again, m, B)]).toBe(0);
    expect(again.faceMaterial[sameFace(again, m, B)]).toBe(blocked);
    expect(withStore(project, (s) => s.listHistory().length)).toBe(historyBefore + 1);
    await expect.poll(legendBlocked).toMatch(new RegExp(`${blockedFaces} faces`));
    kept.blocked = blocked;
    await page.getByTestId('paint-material').fill('');
    await page.getByTestId('tool-select').click();
  });

  it('moves the corners of a face with nudges and snapping, and by dragging; undo and redo', async () => {
    // The model, not the saved file: the brushed face went last in the WOK, renumbering faces.
    const m = editedMesh(project, roomId);
    const corners = cornersOf(m, A);
    const at = (w: Walkmesh) => corners.map((v) => vertex(w, v));
    await clickAt(centroid(m, A));
    await expect.poll(() => text('edit-selection')).toBe('1 face');
    await page.getByTestId('grid-step').fill('0.5');
    await edited(() => page.getByTestId('nudge-up').click());
    const up = editedMesh(project, roomId);
    for (const v of corners) {
      expect(up.positions[v * 3 + 2]).toBeCloseTo(m.positions[v * 3 + 2]! + 0.5, 4);
      expect(up.positions[v * 3]).toBe(m.positions[v * 3]);
    }
    const onGrid = (w: Walkmesh) => {
      for (const v of corners) for (const c of [0, 1]) expect(Math.abs(w.positions[v * 3 + c]! / 0.5 - Math.round(w.positions[v * 3 + c]! / 0.5))).toBeLessThan(1e-4);
    };
    await edited(() => page.getByTestId('snap-now').click());
    const snapped = editedMesh(project, roomId);
    onGrid(snapped);
    await undo();
    await undo();
    expect(Array.from(editedMesh(project, roomId).positions)).toEqual(Array.from(m.positions));
    await redo();
    expect(at(editedMesh(project, roomId))).toEqual(at(up));
    await redo();
    const resnapped = editedMesh(project, roomId);
    onGrid(resnapped);
    expect(Array.from(resnapped.positions)).toEqual(Array.from(snapped.positions));
    // The nudge and the snap stay: the reload and the export look for A's corners here.
    kept.moved = at(snapped);

    // The move tool: drag the face one unit east on the ground, snapped to the 0.5 step.
    await page.getByTestId('grid-snap').check();
    await page.getByTestId('tool-move').click();
    const c = centroid(snapped, A);
    const from = await screenOf(c);
    const to = await screenOf([c[0] + 1, c[1], c[2]]);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 6 });
    await edited(() => page.mouse.up());
    const dragged = editedMesh(project, roomId);
    const expectDragged = (w: Walkmesh) => {
      for (const v of corners) {
        const x = w.positions[v * 3]!, y = w.positions[v * 3 + 1]!;
        expect(Math.abs(x - (snapped.positions[v * 3]! + 1))).toBeLessThanOrEqual(0.3);
        expect(Math.abs(y - snapped.positions[v * 3 + 1]!)).toBeLessThanOrEqual(0.3);
        expect(Math.abs(x / 0.5 - Math.round(x / 0.5))).toBeLessThan(1e-4);
        expect(w.positions[v * 3 + 2]).toBe(snapped.positions[v * 3 + 2]);
      }
    };
    expectDragged(dragged);
    await undo();
    expect(Array.from(editedMesh(project, roomId).positions)).toEqual(Array.from(snapped.positions));
    await redo();
    const redragged = editedMesh(project, roomId);
    expectDragged(redragged);
    expect(Array.from(redragged.positions)).toEqual(Array.from(dragged.positions));
    // The drag is undone again: a face dragged a unit over its neighbours would fold them
    // under it, and the later tools pick corners on the floor round A.
    await undo();
    expect(Array.from(editedMesh(project, roomId).positions)).toEqual(Array.from(snapped.positions));
    await page.getByTestId('grid-snap').uncheck();
    await page.getByTestId('tool-select').click();
  });

  it('deletes a face, fills the hole it leaves, flips a face; each undoes and redoes', async () => {
    const m = editedMesh(project, roomId);
    const x = faceOn(m, cornersOf(original, X));
    await page.getByTestId('tool-select').click();
    await clickAt(centroid(m, x));
    await expect.poll(() => text('inspector-face')).toBe(String(x));
    expect(await text('edit-selection')).toBe('1 face');
    await edited(() => page.getByTestId('delete-faces').click());
    await expect.poll(faceCountShown).toBe(String(F - 1));
    expect(faceOn(editedMesh(project, roomId), cornersOf(m, x))).toBe(-1);
    expect(faceCount(projectMesh(project, roomId))).toBe(F - 1);
    await undo();
    await expect.poll(faceCountShown).toBe(String(F));
    expect(faceOn(editedMesh(project, roomId), cornersOf(m, x))).toBe(x);
    await redo();
    await expect.poll(faceCountShown).toBe(String(F - 1));
    expect(faceOn(editedMesh(project, roomId), cornersOf(m, x))).toBe(-1);
    // Fill the hole from one of its border edges (two corners of the deleted face).
    const [a, b] = cornersOf(m, x) as [number, number];
    await page.getByTestId('tool-vertices').click();
    await pickVertex(m, a, x);
    await pickVertex(m, b, x);
    await expect.poll(() => text('edit-selection')).toBe(`0 faces · vertices ${a}, ${b}`);
    await edited(() => page.getByTestId('fill-hole').click());
    await expect.poll(faceCountShown).toBe(String(F));
    const filled = editedMesh(project, roomId);
    expect(faceCount(filled)).toBe(F);
    expect(faceCount(projectMesh(project, roomId))).toBe(F);
    expect(facesOn(filled, a, b)).toBe(facesOn(m, a, b));
    // The hole is closed by one face on X's corners, appended, wound the way X was.
    const fill = faceOn(filled, cornersOf(m, x));
    expect(fill).toBe(F - 1);
    expect(windingKey(filled, fill)).toBe(windingKey(m, x));
    await undo();
    await expect.poll(faceCountShown).toBe(String(F - 1));
    expect(faceOn(editedMesh(project, roomId), cornersOf(m, x))).toBe(-1);
    await redo();
    await expect.poll(faceCountShown).toBe(String(F));
    const refilled = editedMesh(project, roomId);
    expect(faceOn(refilled, cornersOf(m, x))).toBe(F - 1);
    expect(windingKey(refilled, F - 1)).toBe(windingKey(filled, fill));
    kept.filledKey = windingKey(filled, fill);

    // Flip: the same corners in the other order.
    const y = faceOn(refilled, cornersOf(original, Y));
    await page.getByTestId('tool-select').click();
    await clickAt(centroid(refilled, y));
    await expect.poll(() => text('inspector-face')).toBe(String(y));
    await edited(() => page.getByTestId('flip-faces').click());
    const flipped = editedMesh(project, roomId);
    expect(cornersOf(flipped, y)).not.toEqual(cornersOf(refilled, y));
    expect(cornersOf(flipped, y).sort()).toEqual(cornersOf(refilled, y).sort());
    expect(windingKey(flipped, y)).not.toBe(windingKey(refilled, y));
    await undo();
    expect(cornersOf(editedMesh(project, roomId), y)).toEqual(cornersOf(refilled, y));
    await redo();
    expect(cornersOf(editedMesh(project, roomId), y)).toEqual(cornersOf(flipped, y));
    kept.flippedKey = windingKey(flipped, y);
  });

  it('splits an edge, welds vertices and creates a face from three picked vertices; each undoes and redoes', async () => {
    const m = editedMesh(project, roomId);
    const z = faceOn(m, cornersOf(original, Z));
    const [a, b, c] = cornersOf(m, z) as [number, number, number];
    const onEdge = facesOn(m, a, b);
    await page.getByTestId('tool-vertices').click();
    await pickVertex(m, a, z);
    await pickVertex(m, b, z);
    await expect.poll(() => text('edit-selection')).toMatch(new RegExp(`· vertices ${a}, ${b}$`));
    await edited(() => page.getByTestId('split-edge').click());
    const split = editedMesh(project, roomId);
    expect(faceCount(split)).toBe(F + onEdge);
    expect(vertexCount(split)).toBe(vertexCount(m) + 1);
    // The new vertex is the edge's middle, on every face the edge had.
    const n = vertexCount(m);
    expect(vertex(split, n)).toEqual([0, 1, 2].map((k) => expect.closeTo((vertex(m, a)[k]! + vertex(m, b)[k]!) / 2, 4)));
    expect(facesOn(split, a, n)).toBe(onEdge);
    expect(facesOn(split, n, b)).toBe(onEdge);
    expect(facesOn(split, a, b)).toBe(0);
    await undo();
    expect(faceCount(editedMesh(project, roomId))).toBe(F);
    expect(facesOn(editedMesh(project, roomId), a, b)).toBe(onEdge);
    await redo();
    const resplit = editedMesh(project, roomId);
    expect(faceCount(resplit)).toBe(F + onEdge);
    expect(Array.from(resplit.triangles)).toEqual(Array.from(split.triangles));

    // Weld the new vertex into a: the halves on a–n collapse, the others close the edge a–b again.
    await page.getByTestId('tool-vertices').click();
    await expect.poll(() => text('edit-selection')).not.toContain('vertices');
    await pickVertex(split, a, z);
    await pickVertex(split, n, z);
    await expect.poll(() => text('edit-selection')).toMatch(new RegExp(`· vertices ${a}, ${n}$`));
    await edited(() => page.getByTestId('weld').click());
    const expectWelded = (w: Walkmesh) => {
      expect(faceCount(w)).toBe(F);
      expect(Array.from(w.triangles)).not.toContain(n);
      expect(facesOn(w, a, b)).toBe(onEdge);
      expect(vertex(w, a)).toEqual(vertex(m, a));
    };
    expectWelded(editedMesh(project, roomId));
    await undo();
    expect(faceCount(editedMesh(project, roomId))).toBe(F + onEdge);
    expect(facesOn(editedMesh(project, roomId), a, n)).toBe(onEdge);
    await redo();
    expectWelded(editedMesh(project, roomId));
    kept.welded = n;

    // Create: delete the face on Z's corners, then make it again on them.
    const welded = editedMesh(project, roomId);
    const again = faceOn(welded, [a, b, c]);
    expect(again).toBeGreaterThanOrEqual(0);
    await page.getByTestId('tool-select').click();
    await clickAt(centroid(welded, again));
    await expect.poll(() => text('inspector-face')).toBe(String(again));
    await edited(() => page.getByTestId('delete-faces').click());
    expect(faceOn(editedMesh(project, roomId), [a, b, c])).toBe(-1);
    await page.getByTestId('tool-vertices').click();
    for (const v of [a, b, c]) await pickVertex(welded, v, again);
    await expect.poll(() => text('edit-selection')).toMatch(new RegExp(`· vertices ${a}, ${b}, ${c}$`));
    await edited(() => page.getByTestId('create-face').click());
    const created = editedMesh(project, roomId);
    expect(faceCount(created)).toBe(F);
    expect(faceOn(created, [a, b, c])).toBeGreaterThanOrEqual(0);
    expect(faceCount(projectMesh(project, roomId))).toBe(F);
    await undo();
    expect(faceOn(editedMesh(project, roomId), [a, b, c])).toBe(-1);
    expect(faceCount(editedMesh(project, roomId))).toBe(F - 1);
    await redo();
    const recreated = editedMesh(project, roomId);
    expect(faceOn(recreated, [a, b, c])).toBeGreaterThanOrEqual(0);
    expect(Array.from(recreated.triangles)).toEqual(Array.from(created.triangles));
    await page.keyboard.press('Escape');
  });

  it('keeps the edits over a reload, and the saved file validates and carries them', async () => {
    const now = editedMesh(project, roomId);
    expectKeptEdits(now);
    // The saved file puts walkable faces first, so its face order is not the model's.
    expect(faceCount(projectMesh(project, roomId))).toBe(faceCount(now));
    await page.reload();
    await page.getByTestId('project-tree').waitFor({ timeout: 30_000 });
    await openFromTree(ROOM, faceCount(now));
    await page.getByTestId('tool-select').click();
    // The page names faces by the model's index, the one the next edit will use: A keeps
    // its paint at its moved corners, B its brushed material.
    const a = faceOn(now, cornersOf(original, A));
    await clickAt(centroid(now, a));
    await expect.poll(() => text('inspector-face')).toBe(String(a));
    expect(await text('inspector-raw')).toBe(String(kept.painted));
    const b = faceOn(now, cornersOf(original, B));
    await clickAt(centroid(now, b));
    await expect.poll(() => text('inspector-face')).toBe(String(b));
    expect(await text('inspector-raw')).toBe(String(kept.blocked));
    // The saved bytes validate as a WOK and read back as the model the page shows.
    const saved = withStore(project, (s) => s.loadEdit(roomId)!.bytes);
    const report = inspectBytes(ROOM, saved, env);
    expect(report.readFailure).toBeNull();
    expect(report.format).toBe(BWM_FORMAT);
    const savedMesh = projectMesh(project, roomId);
    for (let f = 0; f < faceCount(now); f++) expect(savedMesh.faceMaterial[sameFace(savedMesh, now, f)]).toBe(now.faceMaterial[f]);
    const shown = Number(/(\d+) errors?/.exec(await text('findings-title'))?.[1] ?? 0);
    expect(report.errors.length).toBe(shown);
    // The undo history survives the reload: the last edit made Z again.
    await edited(() => page.getByTestId('undo').click());
    expect(faceOn(editedMesh(project, roomId), cornersOf(original, Z))).toBe(-1);
    expect(faceCount(projectMesh(project, roomId))).toBe(F - 1);
    await redo();
    expect(faceCount(projectMesh(project, roomId))).toBe(F);
    expectKeptEdits(editedMesh(project, roomId));
  });

  it('edits a room link of a perimeter edge in the inspector; undo and redo', async () => {
    // The edge table is the saved file's; faces are the model's (the page's), matched by position.
    const doc = projectRoom(project, roomId).doc;
    const mesh = editedMesh(project, roomId);
    const clear = clearFaces(mesh);
    let at: { face: number; edge: number; row: number } | undefined;
    for (let row = 0; row < doc.edgeTransition.length && !at; row++) {
      if (doc.edgeTransition[row] === -1) continue;
      const e = meshEdgeOfRow(doc, row, mesh);
      if (e && clear.includes(e.face)) at = { ...e, row };
    }
    expect(at, 'the room has a linked perimeter edge on a face that can be clicked').toBeDefined();
    const room = doc.edgeTransition[at!.row]!;
    await page.getByTestId('tool-select').click();
    await clickAt(centroid(mesh, at!.face));
    await expect.poll(() => text('inspector-face')).toBe(String(at!.face));
    const edge = page.locator(`[data-testid="room-link-edge"][data-edge="${at!.edge}"]`);
    expect(await edge.getAttribute('data-link')).toBe(`to room ${room}`);
    await edge.getByTestId('room-link-target').fill('-1');
    await edited(() => edge.getByTestId('room-link-set').click());
    await expect.poll(() => edge.getAttribute('data-link')).toBe('');
    const linkNow = () => {
      const r = projectRoom(project, roomId);
      return r.doc.edgeTransition[perimeterRow(r.doc, at!.face, at!.edge, 'test', editedMesh(project, roomId))];
    };
    expect(linkNow()).toBe(-1);
    await undo();
    await expect.poll(() => edge.getAttribute('data-link')).toBe(`to room ${room}`);
    expect(linkNow()).toBe(room);
    await redo();
    await expect.poll(() => edge.getAttribute('data-link')).toBe('');
    expect(linkNow()).toBe(-1);
    kept.link = { doc, row: at!.row };
  });

  it('bakes the project from the jobs panel after the edits', async () => {
    await page.getByTestId('bake-all').click();
    const job = page.getByTestId('job').first();
    await expect.poll(() => job.getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    const bakes = withStore(project, (s) => s.listBakes());
    expect(bakes.some((b) => b.inputs.some((i) => i.name.endsWith(ROOM)))).toBe(true);
  }, 180_000);

  it('exports the baked project into a KotOR game folder: the WOK validates and carries every edit', async () => {
    const game = path.join(tmp, 'swkotor');
    mkdirSync(path.join(game, 'override'), { recursive: true });
    const result = await exportTo(project, game);
    expect(result.plan.refused).toEqual([]);
    expect(result.status).toBe('done');
    const written = new Uint8Array(readFileSync(path.join(game, 'override', ROOM)));
    const report = inspectBytes(ROOM, written, env);
    expect(report.readFailure).toBeNull();
    expect(report.format).toBe(BWM_FORMAT);
    expect(newErrors(report.errors, inspectBytes(ROOM, readFixture(roomPath(ROOM)), env).errors)).toEqual([]);
    const doc = loadDocument(ROOM, written, env).document as BwmDocument;
    const exported = bwmToWalkmesh(doc, ROOM);
    // The writer reorders faces (walkable first), so each face of the model is found by its
    // corner positions and must keep its winding, material and walkability.
    const model = editedMesh(project, roomId);
    expectKeptEdits(model);
    expect(faceCount(exported)).toBe(faceCount(model));
    for (let f = 0; f < faceCount(model); f++) {
      const g = sameFace(exported, model, f);
      expect(windingKey(exported, g), `face ${f}`).toBe(windingKey(model, f));
      expect(exported.faceMaterial[g], `face ${f}`).toBe(model.faceMaterial[f]);
      expect(exported.faceWalkable[g], `face ${f}`).toBe(model.faceWalkable[f]);
    }
    // The edits' marks by position: A's moved corners, no corner on the welded-away middle.
    for (const p of kept.moved) expect(exported.positions.some((_, i) => i % 3 === 0 && [0, 1, 2].every((c) => Math.abs(exported.positions[i + c]! - p[c]!) < 1e-4))).toBe(true);
    const middle = vertex(model, kept.welded);
    for (let f = 0; f < faceCount(exported); f++) for (const v of cornersOf(exported, f)) expect(vertex(exported, v)).not.toEqual(middle);
    // The cleared room link: its edge, found by its end points, leads nowhere.
    const link = kept.link!;
    const at = meshEdgeOfRow(link.doc, link.row, exported);
    expect(at, 'the unlinked edge is in the export').toBeDefined();
    expect(doc.edgeTransition[perimeterRow(doc, at!.face, at!.edge, 'test', exported)]).toBe(-1);
  }, 120_000);

  it('previews a path: its length and faces crossed, or why there is none', async () => {
    const m = editedMesh(project, roomId);
    const island = floodSelect(m, [faceOn(m, cornersOf(original, A))], 'island');
    const clear = clearFaces(m).filter((f) => island.includes(f));
    // The two clear faces of A's island farthest apart.
    let [s, e] = [clear[0]!, clear[1]!];
    for (const f of clear) for (const g of clear) if (Math.hypot(centroid(m, f)[0] - centroid(m, g)[0], centroid(m, f)[1] - centroid(m, g)[1]) > Math.hypot(centroid(m, s)[0] - centroid(m, e)[0], centroid(m, s)[1] - centroid(m, e)[1])) [s, e] = [f, g];
    await page.getByTestId('tool-path').click();
    expect(await text('path-result')).toBe('Click the start point.');
    await clickAt(centroid(m, s));
    await expect.poll(() => text('path-result')).toMatch(/^Start at .*: click the end point\./);
    await clickAt(centroid(m, e));
    await expect.poll(() => page.getByTestId('path-result').getAttribute('data-found')).toBe('true');
    const found = /^Path ([\d.]+) m · (\d+) faces crossed/.exec(await text('path-result'));
    expect(found).not.toBeNull();
    const straight = Math.hypot(centroid(m, s)[0] - centroid(m, e)[0], centroid(m, s)[1] - centroid(m, e)[1]);
    expect(Number(found![1])).toBeGreaterThanOrEqual(straight * 0.9);
    expect(Number(found![2])).toBeGreaterThanOrEqual(2);

    // Cut the floor between them: every other face painted with a material nobody walks on
    // (lasso everything, Ctrl-click the two ends off). Now the page says why and shows the breaks.
    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    await page.getByTestId('tool-lasso').click();
    await page.mouse.move(box.x + 3, box.y + 3);
    await page.mouse.down();
    for (const [x, y] of [[box.width - 3, 3], [box.width - 3, box.height - 3], [3, box.height - 3], [3, 4]] as const) await page.mouse.move(box.x + x, box.y + y, { steps: 3 });
    await page.mouse.up();
    await expect.poll(() => text('edit-selection')).toBe(`${faceCount(m)} faces`);
    await page.getByTestId('tool-select').click();
    await clickAt(centroid(m, s), ['Control']);
    await clickAt(centroid(m, e), ['Control']);
    await expect.poll(() => text('edit-selection')).toBe(`${faceCount(m) - 2} faces`);
    const blocked = [...Array(20).keys()].find((x) => !isWalkableMaterial(DEFAULT_WALKABILITY, x))!;
    await page.getByTestId('paint-material').fill(String(blocked));
    await edited(() => page.getByTestId('paint-fill').click());
    await page.getByTestId('paint-material').fill('');
    const cut = projectMesh(project, roomId);
    expect(cut.faceWalkable.filter((w) => w === 1).length).toBe(2);
    await page.getByTestId('tool-path').click();
    await clickAt(centroid(m, s));
    await clickAt(centroid(m, e));
    await expect.poll(() => page.getByTestId('path-result').getAttribute('data-found')).toBe('false');
    expect(await text('path-result')).toMatch(/^No path: \S.+/);
    expect(['start-off-mesh', 'end-off-mesh']).not.toContain(await page.getByTestId('path-result').getAttribute('data-code'));
    expect(await text('path-breaks')).toMatch(/^· [1-9]\d* break edges? shown in red$/);
    await undo();
    expect(projectMesh(project, roomId).faceWalkable.filter((w) => w === 1).length).toBe(m.faceWalkable.filter((w) => w === 1).length);
    await page.getByTestId('path-clear').click();

    // Across islands of the other room there is no path, and the page says why.
    const d = loadDocument(SPLIT_ROOM, readFixture(roomPath(SPLIT_ROOM)), env);
    const split = d.handler.toWalkmeshes(d.document, SPLIT_ROOM)[0]!;
    await openFromTree(SPLIT_ROOM, faceCount(split));
    const islands = faceIslands(split);
    const first = clearFaces(split).find((f) => islands.faceIsland[f] === 0);
    // The small islands lie under a roof: the click lands on the roof above one.
    const other = [...Array(faceCount(split)).keys()].find((f) => islands.faceIsland[f]! > 0 && areaXY(split, f) > 0.5);
    expect(first !== undefined && other !== undefined, 'both islands have a face').toBe(true);
    const [ox, oy] = centroid(split, other!);
    let top = other!;
    for (let g = 0; g < faceCount(split); g++) if (coversXY(split, g, ox, oy) && heightAt(split, g, ox, oy) > heightAt(split, top, ox, oy)) top = g;
    expect(splitId).toBeGreaterThan(0);
    await page.getByTestId('tool-path').click();
    await clickAt(centroid(split, first!));
    await clickAt([ox, oy, heightAt(split, top, ox, oy)]);
    await expect.poll(() => page.getByTestId('path-result').getAttribute('data-found')).toBe('false');
    expect(await text('path-result')).toMatch(/^No path: \S.+/);
    expect(await page.getByTestId('path-result').getAttribute('data-code')).not.toBe('');
    await page.getByTestId('path-clear').click();
    expect(await text('path-result')).toBe('Click the start point.');
  });

  it('ran without console errors or page errors', () => {
    expect(problems).toEqual([]);
  });
});

/** Connections of area index `a` in direction `d` (0 N, 1 E, 2 S, 3 W), as area IDs. */
function connectionsOf(doc: NavDocument, a: number, d: number): number[] {
  const A = doc.areas;
  return Array.from(A.connectionTarget.subarray(A.connectionStart[4 * a + d]!, A.connectionStart[4 * a + d + 1]!));
}

describe('Source area tools in browser mode, then export', () => {
  const NAV = 'source/csgo/2nd_mythic_town_v5.nav';
  const NAV_NAME = path.basename(NAV);
  let tmp = '';
  let project = '';
  let navId = 0;
  let server: BrowserServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];
  const text = async (id: string) => (await page.getByTestId(id).first().textContent())?.trim() ?? '';
  const nav = (): { doc: NavDocument; mesh: Walkmesh } =>
    withStore(project, (s) => {
      const d = loadDocument(NAV_NAME, s.loadEdit(navId)?.bytes ?? s.loadFileBytes(navId), env);
      return { doc: d.document as NavDocument, mesh: d.handler.toWalkmeshes(d.document, NAV_NAME)[0]! };
    });

  /** One edit, undo or redo made by `action`, shown by the page (test/support/edit-waits.ts). */
  const edited = (action: () => Promise<void>) => editShown(page, action, { drawn: false });

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-edit-source-'));
    project = path.join(tmp, 'source.wbproj');
    const store = ProjectStore.create(project, { name: 'Source edits', game: 'source' });
    try {
      navId = store.upsertFile({ module: 'csgo', area: '2nd_mythic_town_v5', name: NAV_NAME, kind: 'walkmesh', format: NAV_FORMAT, bytes: readFixture(path.join(fixturesRoot, NAV)) }).fileId;
    } finally {
      store.close();
    }
    ({ server, browser, page } = await openProjectPage(project, rendererDir, problems, { requests: false }));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('paints area attributes, connects and disconnects areas from the inspector, and exports a file that validates and carries the edits', async () => {
    const { doc, mesh } = nav();
    await page.locator(`[data-testid="tree-file"][data-file-name="${NAV_NAME}"]`).click();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-face-count'), { timeout: 30_000 }).toBe(String(faceCount(mesh)));
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await page.getByTestId('frame-all').click();
    await page.getByTestId('top-view').click();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const face = clearFaces(mesh)[0]!;
    const areaId = mesh.faceOwner[face]!;
    const a = Array.from(doc.areas.id).indexOf(areaId);
    // Another area that A has no connection to in any direction.
    const linked = new Set([0, 1, 2, 3].flatMap((d) => connectionsOf(doc, a, d)));
    const otherId = Array.from(doc.areas.id).find((id) => id !== areaId && !linked.has(id))!;
    const b = Array.from(doc.areas.id).indexOf(otherId);
    expect(otherId).toBeDefined();

    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    const [x, y, z] = centroid(mesh, face);
    const sp = await page.evaluate(([x, y, z]) => (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] | null } }).__walkbench.toScreen(x!, y!, z!), [x, y, z]);
    await page.mouse.click(box.x + sp![0], box.y + sp![1]);
    await expect.poll(() => text('inspector-face')).toBe(String(face));
    expect(await page.getByTestId('game-edit').innerText()).toContain(`Area ${areaId}`);

    // Attributes: set a flag on the whole area (both of its faces).
    const bit = (doc.areas.attributes[a]! & 0x8) === 0 ? 0x8 : 0x10;
    await page.getByTestId('paint-set-bits').fill(`0x${bit.toString(16)}`);
    await edited(() => page.getByTestId('paint-fill').click());
    await expect.poll(() => text('inspector-raw')).toBe(`0x${(doc.areas.attributes[a]! | bit).toString(16)}`);
    expect(nav().doc.areas.attributes[a]).toBe(doc.areas.attributes[a]! | bit);

    // Connect A east to B both ways, undo, redo, then disconnect and undo that.
    await page.getByTestId('source-other-area').fill(String(otherId));
    await page.getByTestId('source-direction').selectOption('1');
    await edited(() => page.getByTestId('source-connect').click());
    expect(connectionsOf(nav().doc, a, 1)).toContain(otherId);
    expect(connectionsOf(nav().doc, b, 3)).toContain(areaId);
    await edited(() => page.getByTestId('undo').click());
    expect(connectionsOf(nav().doc, a, 1)).not.toContain(otherId);
    await edited(() => page.getByTestId('redo').click());
    expect(connectionsOf(nav().doc, a, 1)).toContain(otherId);
    await edited(() => page.getByTestId('source-disconnect').click());
    const expectLinked = (linked: boolean) => {
      const now = nav().doc;
      expect(connectionsOf(now, a, 1).includes(otherId), `${areaId} east to ${otherId}`).toBe(linked);
      expect(connectionsOf(now, b, 3).includes(areaId), `${otherId} west to ${areaId}`).toBe(linked);
      expect(now.areas.attributes[a]).toBe(doc.areas.attributes[a]! | bit);
    };
    expectLinked(false);
    await edited(() => page.getByTestId('undo').click());
    expectLinked(true);
    await edited(() => page.getByTestId('redo').click());
    expectLinked(false);
    await edited(() => page.getByTestId('undo').click());
    expectLinked(true);

    // A reload shows the attributes again, and the history (with the disconnect to redo) survives it.
    await page.reload();
    await page.getByTestId('project-tree').waitFor({ timeout: 30_000 });
    await page.locator(`[data-testid="tree-file"][data-file-name="${NAV_NAME}"]`).click();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-face-count'), { timeout: 30_000 }).toBe(String(faceCount(mesh)));
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await page.getByTestId('frame-all').click();
    await page.getByTestId('top-view').click();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const again = await page.evaluate(([x, y, z]) => (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] | null } }).__walkbench.toScreen(x!, y!, z!), [x, y, z]);
    await page.mouse.click(box.x + again![0], box.y + again![1]);
    await expect.poll(() => text('inspector-face')).toBe(String(face));
    expect(await page.getByTestId('game-edit').innerText()).toContain(`Area ${areaId}`);
    expect(await text('inspector-raw')).toBe(`0x${(doc.areas.attributes[a]! | bit).toString(16)}`);
    expectLinked(true);
    await edited(() => page.getByTestId('redo').click());
    expectLinked(false);
    await edited(() => page.getByTestId('undo').click());
    expectLinked(true);

    // Export to a game folder: the written map reads back, validates and carries both edits.
    const game = path.join(tmp, 'csgo');
    mkdirSync(path.join(game, 'maps'), { recursive: true });
    const result = await exportTo(project, game);
    expect(result.plan.refused).toEqual([]);
    expect(result.status).toBe('done');
    const written = new Uint8Array(readFileSync(path.join(game, 'maps', NAV_NAME)));
    const report = inspectBytes(NAV_NAME, written, env);
    expect(report.readFailure).toBeNull();
    expect(report.format).toBe(NAV_FORMAT);
    const exported = loadDocument(NAV_NAME, written, env).document as NavDocument;
    expect(exported.areas.attributes[a]).toBe(doc.areas.attributes[a]! | bit);
    expect(connectionsOf(exported, a, 1)).toContain(otherId);
    expect(connectionsOf(exported, b, 3)).toContain(areaId);
  }, 120_000);

  it('ran without console errors or page errors', () => {
    expect(problems).toEqual([]);
  });
});

describe('NWN2 walkmesh cutters drawn on the ground, baked again in the background', () => {
  const AREA = 'enter world';
  const dir = path.join(fixturesRoot, 'nwn2/kaedrin');
  let tmp = '';
  let project = '';
  let gitId = 0;
  let server: BrowserServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];
  const faceCountShown = () => page.getByTestId('viewport').getAttribute('data-face-count');
  /** Cutters in the project's GIT as edited. */
  const cutters = () =>
    withStore(project, (s) => {
      const doc = readGff(s.loadEdit(gitId)?.bytes ?? s.loadFileBytes(gitId));
      const list = findField(doc.root, 'TriggerList')?.value;
      return Array.isArray(list) ? list.length : 0;
    });

  /** One edit, undo or redo made by `action`, shown by the page (test/support/edit-waits.ts). */
  const edited = (action: () => Promise<void>) => editShown(page, action, { timeout: 60_000 });

  async function clickAt(p: P3): Promise<void> {
    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    const sp = await page.evaluate(([x, y, z]) => (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] | null } }).__walkbench.toScreen(x!, y!, z!), p);
    await page.mouse.click(box.x + sp![0], box.y + sp![1]);
  }

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-edit-nwn2-'));
    project = path.join(tmp, 'nwn2.wbproj');
    const store = ProjectStore.create(project, { name: 'Cutters', game: 'nwn2' });
    try {
      store.upsertFile({ module: 'kaedrin', area: AREA, name: `${AREA}.trn`, kind: 'trn', format: TRX_FORMAT, bytes: readFixture(path.join(dir, `${AREA}.trn`)) });
      gitId = store.upsertFile({ module: 'kaedrin', area: AREA, name: `${AREA}.GIT`, kind: 'git', format: null, bytes: readFixture(path.join(dir, `${AREA}.GIT`)) }).fileId;
    } finally {
      store.close();
    }
    ({ server, browser, page } = await openProjectPage(project, rendererDir, problems, { requests: false }));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('adds a cutter from points placed on the ground: the GIT holds it and the viewport shows the re-baked area; undo and redo', async () => {
    const d = loadDocument(`${AREA}.trn`, readFixture(path.join(dir, `${AREA}.trn`)), env);
    const mesh = d.handler.toWalkmeshes(d.document, `${AREA}.trn`)[0]!;
    await page.locator(`[data-testid="tree-file"][data-file-name="${AREA}.trn"]`).click();
    await expect.poll(faceCountShown, { timeout: 30_000 }).not.toBe('0');
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await page.getByTestId('frame-all').click();
    await page.getByTestId('top-view').click();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const shownBefore = await faceCountShown();
    const before = cutters();
    expect(await page.getByTestId('nwn2-tools').innerText()).toContain('(GIT)');

    // Three corners inside the largest clear walkable face.
    const face = clearFaces(mesh)[0]!;
    const c = centroid(mesh, face);
    await page.getByTestId('tool-place').click();
    for (let k = 0; k < 3; k++) {
      const v = vertex(mesh, mesh.triangles[face * 3 + k]!);
      await clickAt([v[0] * 0.6 + c[0] * 0.4, v[1] * 0.6 + c[1] * 0.4, v[2] * 0.6 + c[2] * 0.4]);
    }
    await expect.poll(async () => (await page.getByTestId('placed-count').textContent())?.trim()).toBe('3 points');
    await edited(() => page.getByTestId('add-cutter').click());
    expect(cutters()).toBe(before + 1);
    // The re-bake runs on a worker; the message says so until its result is shown.
    await expect.poll(() => page.getByTestId('edit-message').textContent(), { timeout: 30_000 }).toMatch(/area re-baked in \d+ ms \((\d+) of (\d+) tiles' path tables baked\), shown \d+ ms after the edit$/);
    const [, bakedTiles, allTiles] = /\((\d+) of (\d+) tiles/.exec((await page.getByTestId('edit-message').textContent())!)!;
    // Opening the area baked it in the background already, so even the first edit bakes
    // only the tiles the cutter touches.
    expect(Number(bakedTiles)).toBeGreaterThan(0);
    expect(Number(bakedTiles)).toBeLessThan(Number(allTiles));
    await expect.poll(() => page.getByTestId('rebake-status').count()).toBe(0);
    // The area's tab shows the GIT as baked: the tree lists one cutter more.
    const cutterLine = async () => (await page.getByTestId('tree-child').allTextContents()).map((c) => c.trim()).find((c) => c.endsWith('× walkmesh cutter'));
    const walkmeshCutters = () => withStore(project, (st) => readGitWalkmeshCutters(readGff(st.loadEdit(gitId)?.bytes ?? st.loadFileBytes(gitId))).length);
    const cuttersNow = walkmeshCutters();
    await expect.poll(cutterLine).toBe(`${cuttersNow} × walkmesh cutter`);
    const shownCut = await faceCountShown();
    expect(shownCut).not.toBe(shownBefore);
    await expect.poll(async () => (await page.getByTestId('placed-count').textContent())?.trim()).toBe('0 points');

    await edited(() => page.getByTestId('undo').click());
    expect(cutters()).toBe(before);
    await expect.poll(faceCountShown, { timeout: 30_000 }).not.toBe(shownCut);
    await expect.poll(() => page.getByTestId('edit-message').textContent(), { timeout: 30_000 }).toMatch(/^Undone: .* area re-baked in \d+ ms/);
    const [, undoneTiles, tiles] = /\((\d+) of (\d+) tiles/.exec((await page.getByTestId('edit-message').textContent())!)!;
    expect(Number(undoneTiles)).toBeGreaterThan(0);
    expect(Number(undoneTiles)).toBeLessThan(Number(tiles));
    await expect.poll(cutterLine).toBe(`${cuttersNow - 1} × walkmesh cutter`);
    expect(walkmeshCutters()).toBe(cuttersNow - 1);
    await edited(() => page.getByTestId('redo').click());
    expect(cutters()).toBe(before + 1);
    await expect.poll(faceCountShown, { timeout: 30_000 }).toBe(shownCut);
  }, 180_000);

  it('edits a cutter picked from the GIT: its corners are dragged on the ground, updated, then it is deleted; a placeable is copied to a placed point', async () => {
    const gitNow = () => withStore(project, (st) => readGff(st.loadEdit(gitId)?.bytes ?? st.loadFileBytes(gitId)));
    const toScreen = (p: P3) => page.evaluate(([x, y, z]) => (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] | null } }).__walkbench.toScreen(x!, y!, z!), p);
    await page.getByTestId('clear-placed').click().catch(() => undefined);
    const list = readGitWalkmeshCutters(gitNow());
    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    // A cutter whose corners are all on screen.
    let picked: (typeof list)[number] | undefined;
    for (const c of list) {
      let inside = true;
      for (let i = 0; i < c.polygon.length / 2 && inside; i++) {
        const sp = await toScreen([c.polygon[i * 2]!, c.polygon[i * 2 + 1]!, c.position.z]);
        inside = sp !== null && sp[0] > 20 && sp[1] > 20 && sp[0] < box.width - 20 && sp[1] < box.height - 20;
      }
      if (inside) {
        picked = c;
        break;
      }
    }
    expect(picked).toBeDefined();
    const c = picked!;
    await expect.poll(async () => page.getByTestId('cutter-list').locator('option').count()).toBe(list.length + 1);
    await page.getByTestId('cutter-list').selectOption(String(c.index));
    await page.getByTestId('edit-cutter-corners').click();
    const corners = c.polygon.length / 2;
    await expect.poll(async () => (await page.getByTestId('placed-count').textContent())?.trim()).toBe(`${corners} points`);

    // Drag corner 0 by 30 px on screen.
    const sp = (await toScreen([c.polygon[0]!, c.polygon[1]!, c.position.z]))!;
    await page.mouse.move(box.x + sp[0], box.y + sp[1]);
    await page.mouse.down();
    await page.mouse.move(box.x + sp[0] + 15, box.y + sp[1] + 10, { steps: 3 });
    await page.mouse.move(box.x + sp[0] + 30, box.y + sp[1] + 20, { steps: 3 });
    await page.mouse.up();
    // Still the same number of points: the drag moved one, it did not place another.
    expect((await page.getByTestId('placed-count').textContent())?.trim()).toBe(`${corners} points`);
    await edited(() => page.getByTestId('update-cutter').click());
    const updated = readGitWalkmeshCutters(gitNow()).find((x) => x.index === c.index)!;
    expect(Math.hypot(updated.polygon[0]! - c.polygon[0]!, updated.polygon[1]! - c.polygon[1]!)).toBeGreaterThan(0.05);
    expect(Array.from(updated.polygon.slice(2))).toEqual(Array.from(c.polygon.slice(2)).map((v) => expect.closeTo(v, 3)));
    await expect.poll(() => page.getByTestId('edit-message').textContent(), { timeout: 30_000 }).toMatch(/area re-baked in \d+ ms/);

    await edited(() => page.getByTestId('delete-cutter').click());
    expect(readGitWalkmeshCutters(gitNow())).toHaveLength(list.length - 1);
    await expect.poll(async () => page.getByTestId('cutter-list').locator('option').count()).toBe(list.length);
    await edited(() => page.getByTestId('undo').click());
    expect(readGitWalkmeshCutters(gitNow())).toHaveLength(list.length);

    // A copy of placeable 0 where a point is placed.
    const placeablesBefore = findField(gitNow().root, 'Placeable List')?.value;
    const countBefore = Array.isArray(placeablesBefore) ? placeablesBefore.length : 0;
    if (countBefore > 0) {
      const d = loadDocument(`${AREA}.trn`, readFixture(path.join(dir, `${AREA}.trn`)), env);
      const mesh = d.handler.toWalkmeshes(d.document, `${AREA}.trn`)[0]!;
      await page.getByTestId('tool-place').click();
      await clickAt(centroid(mesh, clearFaces(mesh)[1]!));
      await page.getByTestId('placeable-list').selectOption('0');
      await edited(() => page.getByTestId('copy-placeable').click());
      const after = findField(gitNow().root, 'Placeable List')?.value;
      expect(Array.isArray(after) ? after.length : 0).toBe(countBefore + 1);
      await expect.poll(async () => page.getByTestId('placeable-list').locator('option').count()).toBe(countBefore + 1);
    }
  }, 180_000);

  it('ran without console errors or page errors', () => {
    expect(problems).toEqual([]);
  });
});

describe('Skyrim triangle flags and cover in the inspector, then export', () => {
  const ESP = 'FreeCamera.esp';
  let tmp = '';
  let project = '';
  let espId = 0;
  let server: BrowserServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];
  const text = async (id: string) => (await page.getByTestId(id).first().textContent())?.trim() ?? '';
  const navmeshOf = (bytes: Uint8Array) => pluginNavmeshes(loadDocument(ESP, bytes, env).document as PluginDocument).find((n) => n.nvnm && !n.deleted)!.nvnm!;
  const saved = () => navmeshOf(withStore(project, (s) => s.loadEdit(espId)?.bytes ?? s.loadFileBytes(espId)));

  /** One edit, undo or redo made by `action`, shown by the page (test/support/edit-waits.ts). */
  const edited = (action: () => Promise<void>) => editShown(page, action, { drawn: false });

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-edit-skyrim-'));
    project = path.join(tmp, 'skyrim.wbproj');
    const store = ProjectStore.create(project, { name: 'Skyrim edits', game: 'skyrim' });
    try {
      espId = store.upsertFile({ module: 'plugins', area: 'FreeCamera', name: ESP, kind: 'walkmesh', format: PLUGIN_FORMAT, bytes: readFixture(path.join(fixturesRoot, 'skyrim', ESP)) }).fileId;
    } finally {
      store.close();
    }
    ({ server, browser, page } = await openProjectPage(project, rendererDir, problems, { requests: false }));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('sets a triangle flag and a cover word on a clicked triangle, undoes and redoes, and exports a plugin that carries them', async () => {
    const d = loadDocument(ESP, readFixture(path.join(fixturesRoot, 'skyrim', ESP)), env);
    const mesh = d.handler.toWalkmeshes(d.document, ESP)[0]!;
    const nvnm = navmeshOf(readFixture(path.join(fixturesRoot, 'skyrim', ESP)));
    await page.locator(`[data-testid="tree-file"][data-file-name="${ESP}"]`).click();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-face-count'), { timeout: 30_000 }).toBe(String(faceCount(mesh)));
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await page.getByTestId('frame-all').click();
    await page.getByTestId('top-view').click();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // A triangle whose centroid the colour legend does not cover on screen.
    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    const legend = (await page.getByTestId('legend').boundingBox())!;
    const toScreen = (p: P3) => page.evaluate(([x, y, z]) => (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] | null } }).__walkbench.toScreen(x!, y!, z!), p);
    let face = -1;
    let at: [number, number] | null = null;
    for (const f of clearFaces(mesh)) {
      if ((nvnm.triFlags[f]! & TRI_WATER) !== 0) continue;
      const sp = await toScreen(centroid(mesh, f));
      const x = box.x + sp![0], y = box.y + sp![1];
      if (x >= legend.x - 4 && x <= legend.x + legend.width + 4 && y >= legend.y - 4 && y <= legend.y + legend.height + 4) continue;
      face = f;
      at = [x, y];
      break;
    }
    expect(face).toBeGreaterThanOrEqual(0);
    await page.mouse.click(at![0], at![1]);
    await expect.poll(() => text('inspector-face')).toBe(String(face));

    await edited(() => page.getByTestId('skyrim-set-water').click());
    await expect.poll(() => text('inspector-material')).toContain('water');
    expect(saved().triFlags[face]! & TRI_WATER).toBe(TRI_WATER);
    await edited(() => page.getByTestId('undo').click());
    await expect.poll(() => text('inspector-material')).not.toContain('water');
    expect(saved().triFlags[face]! & TRI_WATER).toBe(0);
    await edited(() => page.getByTestId('redo').click());
    expect(saved().triFlags[face]! & TRI_WATER).toBe(TRI_WATER);

    const cover = nvnm.triCover[face] === 0x21 ? 0x12 : 0x21;
    await page.getByTestId('skyrim-cover').fill(`0x${cover.toString(16)}`);
    await edited(() => page.getByTestId('skyrim-cover-set').click());
    expect(saved().triCover[face]).toBe(cover);
    await edited(() => page.getByTestId('undo').click());
    expect(saved().triCover[face]).toBe(nvnm.triCover[face]);
    await edited(() => page.getByTestId('redo').click());
    expect(saved().triCover[face]).toBe(cover);

    // An edited plugin is exported as its bake (edge links, cover lists, NAVI rebuilt): bake it from the panel.
    await page.getByTestId('bake-all').click();
    await expect.poll(() => page.getByTestId('job').first().getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    const game = path.join(tmp, 'Skyrim');
    mkdirSync(path.join(game, 'Data'), { recursive: true });
    const result = await exportTo(project, game);
    expect(result.plan.refused).toEqual([]);
    expect(result.status).toBe('done');
    const written = new Uint8Array(readFileSync(path.join(game, 'Data', ESP)));
    const report = inspectBytes(ESP, written, env);
    expect(report.readFailure).toBeNull();
    expect(report.format).toBe(PLUGIN_FORMAT);
    const exported = navmeshOf(written);
    expect(exported.triFlags[face]! & TRI_WATER).toBe(TRI_WATER);
    expect(exported.triCover[face]).toBe(cover);
  }, 120_000);

  it('ran without console errors or page errors', () => {
    expect(problems).toEqual([]);
  });
});
