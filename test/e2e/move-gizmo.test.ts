import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import { walkmeshGrid } from '../../shared/edits/selection';
import { dropToSurface } from '../../shared/edits/vertex-placement';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { loadDocument } from '../../shared/formats/inspect-file';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { buildRenderer, openProjectPage } from '../support/browser-app';
import { editShown } from '../support/edit-waits';
import { fixturesRoot, readFixture } from '../support/fixtures';

/** A KotOR room: its vertices may move freely (shared/edits/game-edit-rules.ts). */
const ROOM = 'm10aa_09a.wok';
const STEP = 0.5;
type P3 = [number, number, number];
type Handle = 'x' | 'y' | 'z' | 'xy' | 'xz' | 'yz' | 'centre';
interface GizmoState {
  centre: P3;
  length: number;
  handles: Partial<Record<Handle, [number, number]>>;
}

function vertex(m: Walkmesh, v: number): P3 {
  return [m.positions[v * 3]!, m.positions[v * 3 + 1]!, m.positions[v * 3 + 2]!];
}

function centroid(m: Walkmesh, f: number): P3 {
  const out: P3 = [0, 0, 0];
  for (let k = 0; k < 3; k++) for (let c = 0; c < 3; c++) out[c] += vertex(m, m.triangles[f * 3 + k]!)[c]! / 3;
  return out;
}

function cornersOf(m: Walkmesh, faces: readonly number[]): number[] {
  return [...new Set(faces.flatMap((f) => [0, 1, 2].map((k) => m.triangles[f * 3 + k]!)))].sort((a, b) => a - b);
}

function meanOf(m: Walkmesh, vertices: readonly number[]): P3 {
  const out: P3 = [0, 0, 0];
  for (const v of vertices) for (let c = 0; c < 3; c++) out[c] += m.positions[v * 3 + c]! / vertices.length;
  return out;
}

function areaXY(m: Walkmesh, f: number): number {
  const [a, b, c] = [0, 1, 2].map((k) => vertex(m, m.triangles[f * 3 + k]!)) as [P3, P3, P3];
  return Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2;
}

/** Walkable faces whose centroid no other face lies over, largest first: a top-view click takes them. */
function clearFaces(m: Walkmesh): number[] {
  const out: number[] = [];
  for (let f = 0; f < faceCount(m); f++) {
    if (!m.faceWalkable[f] || areaXY(m, f) < 0.5) continue;
    const [x, y, z] = centroid(m, f);
    let alone = true;
    for (let g = 0; g < faceCount(m) && alone; g++) {
      if (g === f) continue;
      const [a, b, c] = [0, 1, 2].map((k) => vertex(m, m.triangles[g * 3 + k]!)) as [P3, P3, P3];
      const s = (p: P3, q: P3) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
      const d1 = s(a, b), d2 = s(b, c), d3 = s(c, a);
      const inside = (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0);
      if (inside && Math.max(a[2], b[2], c[2]) > z + 0.01) alone = false;
    }
    if (alone) out.push(f);
  }
  return out.sort((a, b) => areaXY(m, b) - areaXY(m, a));
}

/** The room as the project's edits hold it now (the imported model with the history replayed). */
function editedMesh(project: string, fileId: number): Walkmesh {
  const store = ProjectStore.open(project);
  try {
    return new ProjectEdits(store, env).meshes(fileId)[0]!;
  } finally {
    store.close();
  }
}

function historyLength(project: string): number {
  const store = ProjectStore.open(project);
  try {
    return store.listHistory().length;
  } finally {
    store.close();
  }
}

const onStep = (v: number) => Math.abs(v / STEP - Math.round(v / STEP)) < 1e-4;

describe('the move gizmo in browser mode', () => {
  let tmp = '';
  let project = '';
  let roomId = 0;
  let server: BrowserServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];
  const original = (() => {
    const d = loadDocument(ROOM, readFixture(path.join(fixturesRoot, 'kotor/k1-blackvulkar', ROOM)), env);
    return d.handler.toWalkmeshes(d.document, ROOM)[0]!;
  })();
  const [A, B] = clearFaces(original) as [number, number];
  const moved = cornersOf(original, [A, B]);

  const gizmo = () => page.evaluate(() => (window as unknown as { __walkbench: { gizmo?: () => GizmoState | null } }).__walkbench.gizmo?.() ?? null);
  const canvasBox = async () => (await page.getByTestId('viewport-canvas').boundingBox())!;

  /** One edit, undo or redo made by `action`, shown by the page (test/support/edit-waits.ts). */
  const edited = (action: () => Promise<void>) => editShown(page, action);

  async function nextFrames(): Promise<void> {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }

  async function openRoom(): Promise<void> {
    await page.locator(`[data-testid="tree-file"][data-file-name="${ROOM}"]`).click();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-face-count'), { timeout: 30_000 }).toBe(String(faceCount(original)));
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await page.getByTestId('frame-all').click();
    await page.getByTestId('top-view').click();
    await nextFrames();
  }

  async function clickAt(p: P3, modifiers: 'Shift'[] = []): Promise<void> {
    const box = await canvasBox();
    const s = await page.evaluate(([x, y, z]) => (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] | null } }).__walkbench.toScreen(x!, y!, z!), p);
    expect(s, `point ${p.join(', ')} is in front of the camera`).not.toBeNull();
    for (const m of modifiers) await page.keyboard.down(m);
    await page.mouse.click(box.x + s![0], box.y + s![1]);
    for (const m of modifiers) await page.keyboard.up(m);
  }

  /** Selects faces A and B (top view), takes the move tool and turns to the oblique view where every arrow shows. */
  async function selectAndMoveTool(): Promise<GizmoState> {
    await page.getByTestId('tool-select').click();
    await clickAt(centroid(original, A));
    await clickAt(centroid(original, B), ['Shift']);
    await expect.poll(async () => (await page.getByTestId('edit-selection').textContent())?.trim()).toBe('2 faces');
    await page.getByTestId('tool-move').click();
    await page.getByTestId('frame-all').click();
    await nextFrames();
    await expect.poll(gizmo).not.toBeNull();
    return (await gizmo())!;
  }

  /**
   * Presses on a handle, drags `pixels` along its arrow as drawn (or straight up for a
   * square), and returns the displacement the readout showed before the release.
   */
  async function dragHandle(handle: Handle, pixels: number, finish: 'release' | 'escape'): Promise<P3> {
    const g = (await gizmo())!;
    const h = g.handles[handle];
    expect(h, `handle ${handle} is offered (${Object.keys(g.handles).join(', ')})`).toBeDefined();
    const c = g.handles.centre!;
    const len = Math.hypot(h![0] - c[0], h![1] - c[1]);
    const dir = handle.length === 1 ? [(h![0] - c[0]) / len, (h![1] - c[1]) / len] : [0, -1];
    const box = await canvasBox();
    const x0 = box.x + h![0], y0 = box.y + h![1];
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.mouse.move(x0 + dir[0]! * pixels, y0 + dir[1]! * pixels, { steps: 8 });
    const readout = page.getByTestId('gizmo-readout');
    await expect.poll(() => readout.getAttribute('data-handle')).toBe(handle);
    const delta = await Promise.all(['dx', 'dy', 'dz'].map(async (k) => Number(await readout.getAttribute(`data-${k}`)))) as P3;
    expect(await readout.textContent()).toContain(`Move ${handle.toUpperCase()}`);
    if (finish === 'escape') {
      await page.keyboard.press('Escape');
      await page.mouse.up();
    } else await edited(() => page.mouse.up());
    return delta;
  }

  async function expectGizmoAt(m: Walkmesh): Promise<void> {
    const want = meanOf(m, moved);
    await expect.poll(async () => {
      const g = await gizmo();
      return g ? Math.max(...[0, 1, 2].map((k) => Math.abs(g.centre[k]! - want[k]!))) : Infinity;
    }).toBeLessThan(1e-3);
  }

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-gizmo-'));
    const rendererDir = path.join(tmp, 'renderer');
    mkdirSync(rendererDir);
    await buildRenderer(rendererDir);
    project = path.join(tmp, 'gizmo.wbproj');
    const store = ProjectStore.create(project, { name: 'Move gizmo', game: 'kotor' });
    try {
      roomId = store.upsertFile({ module: 'blackvulkar', area: 'm10aa', name: ROOM, kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(path.join(fixturesRoot, 'kotor/k1-blackvulkar', ROOM)) }).fileId;
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

  it('moves the selected corners along Z and X with the arrows and in the XY square, snapped; Esc cancels; undo, redo and reload keep it; drop beside it', async () => {
    expect(roomId).toBeGreaterThan(0);
    expect(moved.length).toBeGreaterThanOrEqual(4);
    await openRoom();
    await page.getByTestId('grid-step').fill(String(STEP));
    await page.getByTestId('grid-snap').check();
    // No gizmo before the move tool is taken.
    expect(await gizmo()).toBeNull();
    const g = await selectAndMoveTool();
    await expectGizmoAt(original);
    // Every handle can be taken in the oblique view, and the gizmo is one size on screen.
    expect(Object.keys(g.handles).sort()).toEqual(['centre', 'x', 'xy', 'xz', 'y', 'yz', 'z']);
    const arrowPixels = Math.hypot(g.handles.z![0] - g.handles.centre![0], g.handles.z![1] - g.handles.centre![1]);
    expect(arrowPixels).toBeGreaterThan(30);
    await page.mouse.move((await canvasBox()).x + 5, (await canvasBox()).y + 300);
    await page.mouse.wheel(0, 400);
    await nextFrames();
    await expect.poll(async () => (await gizmo())!.length).not.toBeCloseTo(g.length, 3);
    const zoomed = (await gizmo())!;
    const zoomedPixels = Math.hypot(zoomed.handles.z![0] - zoomed.handles.centre![0], zoomed.handles.z![1] - zoomed.handles.centre![1]);
    expect(Math.abs(zoomedPixels - arrowPixels)).toBeLessThan(3);
    await page.getByTestId('frame-all').click();
    await nextFrames();

    // Esc during a drag: nothing is sent, the corners stay.
    const history0 = historyLength(project);
    await dragHandle('x', 70, 'escape');
    await expect.poll(() => page.getByTestId('gizmo-readout').count()).toBe(0);
    await nextFrames();
    expect(historyLength(project)).toBe(history0);
    expect(Array.from(editedMesh(project, roomId).positions)).toEqual(Array.from(original.positions));
    await expectGizmoAt(original);

    // Z arrow: only Z changes, by the whole steps the readout showed, one edit.
    const dz = (await dragHandle('z', 90, 'release'))[2];
    expect(dz).toBeGreaterThan(0);
    expect(onStep(dz)).toBe(true);
    expect(historyLength(project)).toBe(history0 + 1);
    const afterZ = editedMesh(project, roomId);
    for (let v = 0; v < original.positions.length / 3; v++) {
      const [x, y, z] = vertex(original, v);
      const [x1, y1, z1] = vertex(afterZ, v);
      expect(x1).toBe(x);
      expect(y1).toBe(y);
      if (moved.includes(v)) expect(z1).toBeCloseTo(z + dz, 4);
      else expect(z1).toBe(z);
    }
    await expectGizmoAt(afterZ);

    // X arrow: X moves by the readout's steps and lands on the grid; Y and Z stay exactly.
    const dx = (await dragHandle('x', 80, 'release'))[0];
    expect(dx).not.toBe(0);
    expect(onStep(dx)).toBe(true);
    const afterX = editedMesh(project, roomId);
    for (const v of moved) {
      const [x, y, z] = vertex(afterZ, v);
      const [x1, y1, z1] = vertex(afterX, v);
      expect(x1).toBeCloseTo(Math.round((x + dx) / STEP) * STEP, 4);
      expect(onStep(x1)).toBe(true);
      expect(y1).toBe(y);
      expect(z1).toBe(z);
    }
    expect(historyLength(project)).toBe(history0 + 2);
    await expectGizmoAt(afterX);

    // Undo twice gives the fixture's positions back; the gizmo follows each step.
    await edited(() => page.getByTestId('undo').click());
    expect(Array.from(editedMesh(project, roomId).positions)).toEqual(Array.from(afterZ.positions));
    await expectGizmoAt(afterZ);
    await edited(() => page.getByTestId('undo').click());
    expect(Array.from(editedMesh(project, roomId).positions)).toEqual(Array.from(original.positions));
    await expectGizmoAt(original);
    await edited(() => page.getByTestId('redo').click());
    await edited(() => page.getByTestId('redo').click());
    expect(Array.from(editedMesh(project, roomId).positions)).toEqual(Array.from(afterX.positions));
    await expectGizmoAt(afterX);

    // After a reload the page shows the moved corners: the gizmo sits on them again.
    await page.reload();
    await page.getByTestId('project-tree').waitFor({ timeout: 30_000 });
    await openRoom();
    expect(Array.from(editedMesh(project, roomId).positions)).toEqual(Array.from(afterX.positions));
    await page.getByTestId('tool-select').click();
    await clickAt(centroid(afterX, A));
    await clickAt(centroid(afterX, B), ['Shift']);
    await expect.poll(async () => (await page.getByTestId('edit-selection').textContent())?.trim()).toBe('2 faces');
    await page.getByTestId('tool-move').click();
    await expectGizmoAt(afterX);

    // Drop to surface, beside the gizmo: each corner lands on what is below it, in one edit.
    const history1 = historyLength(project);
    await edited(() => page.getByTestId('gizmo-drop').click());
    const dropped = editedMesh(project, roomId);
    const want = dropToSurface(afterX, walkmeshGrid(afterX), moved);
    // (In this small room the faces below the moved corners share them, so most stay put.)
    moved.forEach((v, i) => expect(vertex(dropped, v)).toEqual(want.positions.slice(i * 3, i * 3 + 3)));
    expect(historyLength(project)).toBe(history1 + 1);
    await expectGizmoAt(dropped);

    // The XY square (the top view offers it, not the upright ones): X and Y on the grid, Z kept.
    // The reload reset the snap setting.
    await page.getByTestId('grid-step').fill(String(STEP));
    await page.getByTestId('grid-snap').check();
    expect(Object.keys((await gizmo())!.handles).sort()).toEqual(['centre', 'x', 'xy', 'y']);
    const [, dy] = await dragHandle('xy', 70, 'release');
    expect(dy).toBeGreaterThan(0);
    const afterXY = editedMesh(project, roomId);
    for (const v of moved) {
      const [x, y, z] = vertex(dropped, v);
      const [x1, y1, z1] = vertex(afterXY, v);
      expect(onStep(x1) && onStep(y1)).toBe(true);
      expect(x1).toBeCloseTo(Math.round(x / STEP) * STEP, 4);
      expect(y1).toBeCloseTo(Math.round((y + dy) / STEP) * STEP, 4);
      expect(z1).toBe(z);
    }
    // Another tool: no gizmo.
    await page.getByTestId('tool-select').click();
    await expect.poll(gizmo).toBeNull();
    expect(await page.getByTestId('gizmo-panel').count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});
