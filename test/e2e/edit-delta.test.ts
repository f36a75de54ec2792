import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectStore } from '../../electron/services/project/project-store';
import { BWM_FORMAT } from '../../shared/formats/kotor/bwm-document';
import { DEFAULT_WALKABILITY, isWalkableMaterial } from '../../shared/formats/kotor/surface-materials';
import { loadDocument } from '../../shared/formats/inspect-file';
import type { EditsOutcome } from '../../shared/ipc/edits-contract';
import { decodeFrame } from '../../shared/ipc/mesh-payload';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { buildRenderer, openProjectPage } from '../support/browser-app';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { centroid, clearFaces, sameFace, withStore, type P3 } from '../support/walkmesh-probes';

const ROOM = 'm10aa_09a.wok';
const roomPath = path.join(fixturesRoot, 'kotor/k1-blackvulkar', ROOM);

interface BuildCounts {
  meshBuilds: number;
  deltaPatches: number;
}

/** The file's walkmesh as the project holds it now: its saved edit, else its imported bytes. */
function projectMesh(project: string, fileId: number): Walkmesh {
  return withStore(project, (s) => {
    const f = s.fileById(fileId)!;
    const d = loadDocument(f.name, s.loadEdit(fileId)?.bytes ?? s.loadFileBytes(fileId), env);
    return d.handler.toWalkmeshes(d.document, f.name)[0]!;
  });
}

/** Decodes a PNG in a blank page (Chromium's decoder): the RGB of its middle pixel. */
async function middlePixel(browser: Browser, png: Buffer): Promise<[number, number, number]> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async (base64: string) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const d = ctx.getImageData(bitmap.width >> 1, bitmap.height >> 1, 1, 1).data;
      return [d[0]!, d[1]!, d[2]!] as [number, number, number];
    }, png.toString('base64'));
  } finally {
    await page.close();
  }
}

let tmp = '';
let rendererDir = '';
beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-edit-delta-'));
  rendererDir = path.join(tmp, 'renderer');
  await buildRenderer(rendererDir);
}, 180_000);
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('paint strokes come back as deltas in browser mode', () => {
  let server: BrowserServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let project = '';
  let roomId = 0;
  const problems: string[] = [];
  const original = (() => {
    const d = loadDocument(ROOM, readFixture(roomPath), env);
    return d.handler.toWalkmeshes(d.document, ROOM)[0]!;
  })();
  /** The face the test paints: the largest walkable face nothing else overlaps. */
  const A = clearFaces(original)[0]!;

  const text = async (id: string) => (await page.getByTestId(id).first().textContent())?.trim() ?? '';
  const revision = async () => Number(await page.getByTestId('edit-toolbar').getAttribute('data-revision'));
  const counts = () =>
    page.evaluate((file) => {
      const t = (window as unknown as { __walkbench?: { timings: ({ file: string } & BuildCounts)[] } }).__walkbench?.timings.find((x) => x.file === file);
      return t ? { meshBuilds: t.meshBuilds, deltaPatches: t.deltaPatches } : null;
    }, ROOM);

  async function screenOf(p: P3): Promise<{ x: number; y: number }> {
    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    const s = await page.evaluate(([x, y, z]) => (window as unknown as { __walkbench: { toScreen(x: number, y: number, z: number): [number, number] | null } }).__walkbench.toScreen(x!, y!, z!), p);
    expect(s, `point ${p.join(', ')} is in front of the camera`).not.toBeNull();
    return { x: box.x + s![0], y: box.y + s![1] };
  }

  /** The colour drawn at a game-space point, with no hover or selection mark over it. */
  async function colourAt(p: P3): Promise<[number, number, number]> {
    await page.mouse.move(1, 1);
    await page.keyboard.press('Escape');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const s = await screenOf(p);
    return middlePixel(browser!, await page.screenshot({ clip: { x: s.x - 1, y: s.y - 1, width: 3, height: 3 } }));
  }

  /** Runs an action that makes one edit, undo or redo; returns the decoded reply once the page shows it. */
  async function edited(method: 'edits.apply' | 'edits.undo', action: () => Promise<void>): Promise<{ sent: unknown; reply: EditsOutcome }> {
    const before = await revision();
    const answered = page.waitForResponse((r: Response) => r.url().endsWith(`/rpc/${method}`), { timeout: 30_000 });
    await action();
    const response = await answered;
    const sent = decodeFrame(new Uint8Array(response.request().postDataBuffer()!));
    const body = decodeFrame(new Uint8Array(await response.body())) as EditsOutcome | { outcome: EditsOutcome };
    const refused = page.getByTestId('edit-error');
    const outcome = async () => ((await refused.count()) > 0 ? `refused: ${await refused.textContent()}` : (await revision()) > before ? 'done' : 'waiting');
    await expect.poll(outcome, { timeout: 30_000 }).toBe('done');
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    return { sent, reply: 'outcome' in body ? body.outcome : body };
  }

  beforeAll(async () => {
    project = path.join(tmp, 'delta.wbproj');
    const store = ProjectStore.create(project, { name: 'Edit deltas', game: 'kotor' });
    try {
      roomId = store.upsertFile({ module: 'blackvulkar', area: 'm10aa', name: ROOM, kind: 'walkmesh', format: BWM_FORMAT, bytes: readFixture(roomPath) }).fileId;
    } finally {
      store.close();
    }
    ({ server, browser, page } = await openProjectPage(project, rendererDir, problems, { requests: false }));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a brush stroke recolours the face in place (no mesh built), and its undo does too', async () => {
    await page.locator(`[data-testid="tree-file"][data-file-name="${ROOM}"]`).click();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-face-count'), { timeout: 30_000 }).toBe(String(faceCount(original)));
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await page.getByTestId('frame-all').click();
    await page.getByTestId('top-view').click();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

    const opened = await counts();
    expect(opened?.meshBuilds).toBeGreaterThanOrEqual(1);
    const c = centroid(original, A);
    const walkableColour = await colourAt(c);
    // KotOR takes walkability from the material: a non-walkable one turns the face red.
    const blocked = [...Array(20).keys()].find((m) => !isWalkableMaterial(DEFAULT_WALKABILITY, m))!;
    await page.getByTestId('paint-material').fill(String(blocked));
    await page.getByTestId('brush-radius').fill('0.01');
    await page.getByTestId('tool-paint').click();
    const s = await screenOf(c);
    const stroke = await edited('edits.apply', () => page.mouse.click(s.x, s.y));

    // The page asked for a delta and got one: the touched face's new values, no walkmesh.
    expect(stroke.sent).toMatchObject({ fileId: roomId, delta: true, command: { kind: 'paint-faces', material: blocked } });
    expect(stroke.reply.walkmeshes).toEqual([]);
    expect(Array.from(stroke.reply.delta!.faces)).toContain(A);
    expect(stroke.reply.delta!.faceMaterial[Array.from(stroke.reply.delta!.faces).indexOf(A)]).toBe(blocked);
    // The inspector (the brushed face is selected) and the project agree.
    await expect.poll(() => text('inspector-face')).toBe(String(A));
    await expect.poll(() => text('inspector-raw')).toBe(String(blocked));
    const saved = projectMesh(project, roomId);
    expect(saved.faceMaterial[sameFace(saved, original, A)]).toBe(blocked);
    // Patched, not rebuilt: the mesh count stands, one more patch.
    const painted = await counts();
    expect(painted).toEqual({ meshBuilds: opened!.meshBuilds, deltaPatches: opened!.deltaPatches + 1 });
    // And the screen shows it: the walkable green turned to the non-walkable red.
    const paintedColour = await colourAt(c);
    expect(walkableColour[1]).toBeGreaterThan(walkableColour[0] + 40);
    expect(paintedColour[0]).toBeGreaterThan(paintedColour[1] + 40);
    // The legend counts the face with the non-walkable ones.
    const blockedFaces = original.faceWalkable.filter((w) => w === 0).length + 1;
    await expect.poll(() => page.getByTestId('legend-entry').filter({ hasText: 'not walkable' }).innerText()).toMatch(new RegExp(`${blockedFaces} faces`));

    await page.getByTestId('tool-select').click();
    const undo = await edited('edits.undo', () => page.getByTestId('undo').click());
    expect(undo.sent).toMatchObject({ delta: true });
    expect(undo.reply.walkmeshes).toEqual([]);
    expect(Array.from(undo.reply.delta!.faces)).toContain(A);
    expect(await counts()).toEqual({ meshBuilds: opened!.meshBuilds, deltaPatches: opened!.deltaPatches + 2 });
    expect(await colourAt(c)).toEqual(walkableColour);
    const back = projectMesh(project, roomId);
    expect(back.faceMaterial[sameFace(back, original, A)]).toBe(original.faceMaterial[A]);
    // Clicking the face again shows its own material in the inspector.
    await page.mouse.click(s.x, s.y);
    await expect.poll(() => text('inspector-raw')).toBe(String(original.faceMaterial[A]));
    expect(problems).toEqual([]);
  });

  it('a nudge moves the corners in place (no mesh built) and picking still finds the moved face', async () => {
    await page.getByTestId('tool-select').click();
    const c = centroid(original, A);
    const s = await screenOf(c);
    await page.mouse.click(s.x, s.y);
    await expect.poll(() => text('edit-selection')).toBe('1 face');
    const before = (await counts())!;
    await page.getByTestId('grid-step').fill('0.5');
    const nudge = await edited('edits.apply', () => page.getByTestId('nudge-up').click());
    expect(nudge.sent).toMatchObject({ delta: true, command: { kind: 'move-vertices' } });
    expect(nudge.reply.walkmeshes).toEqual([]);
    const corners = [0, 1, 2].map((k) => original.triangles[A * 3 + k]!);
    expect(Array.from(nudge.reply.delta!.vertices).sort()).toEqual(corners.slice().sort());
    const lifted = Array.from(nudge.reply.delta!.positions).filter((_, i) => i % 3 === 2);
    expect(lifted.sort()).toEqual(corners.map((v) => Math.fround(original.positions[v * 3 + 2]! + 0.5)).sort());
    expect(await counts()).toEqual({ meshBuilds: before.meshBuilds, deltaPatches: before.deltaPatches + 1 });
    // The BVH was refitted, not dropped: a click on the lifted face (half a unit higher) picks it.
    const B = clearFaces(original)[1]!;
    const b = await screenOf(centroid(original, B));
    await page.mouse.click(b.x, b.y);
    await expect.poll(() => text('inspector-face')).toBe(String(B));
    const up = await screenOf([c[0], c[1], c[2] + 0.5]);
    await page.mouse.click(up.x, up.y);
    await expect.poll(() => text('inspector-face')).toBe(String(A));
    const undo = await edited('edits.undo', () => page.getByTestId('undo').click());
    expect(undo.reply.walkmeshes).toEqual([]);
    expect(await counts()).toEqual({ meshBuilds: before.meshBuilds, deltaPatches: before.deltaPatches + 2 });
    expect(Array.from(projectMesh(project, roomId).positions)).toEqual(Array.from(original.positions));
    expect(problems).toEqual([]);
  });
});
