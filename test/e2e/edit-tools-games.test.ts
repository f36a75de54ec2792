import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import type { JobService } from '../../electron/services/job-service';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { ProjectEdits } from '../../electron/services/project/project-edits';
import { ProjectStore } from '../../electron/services/project/project-store';
import { applyGitEdit } from '../../shared/edits/git-placement-edits';
import { areaConnections } from '../../shared/edits/source-connections';
import { meshEdgeOfRow, perimeterRow } from '../../shared/edits/kotor-transitions';
import { rebakeNwn2Area } from '../../shared/edits/nwn2-area-rebake';
import type { GffDocument } from '../../shared/formats/aurora/gff-document';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import { writeGff } from '../../shared/formats/aurora/gff-writer';
import { readGitPlaceables, readGitWalkmeshCutters } from '../../shared/formats/aurora/nwn2-git';
import { inspectBytes, loadDocument } from '../../shared/formats/inspect-file';
import { BWM_FORMAT, type BwmDocument } from '../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../shared/formats/kotor/bwm-reader';
import { bwmToWalkmesh } from '../../shared/formats/kotor/bwm-walkmesh';
import { writeBwm } from '../../shared/formats/kotor/bwm-writer';
import { areaFromDocuments } from '../../shared/formats/kotor/kotor-area';
import { checkRoomLinks, type RoomLinkFinding } from '../../shared/formats/kotor/kotor-room-links';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import { DEFAULT_WALKABILITY, isWalkableMaterial } from '../../shared/formats/kotor/surface-materials';
import { readMdbWalkmeshes } from '../../shared/formats/nwn2/mdb-reader';
import { TRX_FORMAT } from '../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { TRI_WATER } from '../../shared/formats/skyrim/nvnm-document';
import { PLUGIN_FORMAT, type PluginDocument } from '../../shared/formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../../shared/formats/skyrim/plugin-navmeshes';
import type { NavDocument } from '../../shared/formats/source/nav-document';
import { NAV_FORMAT } from '../../shared/formats/source/nav-reader';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { openProjectPage } from '../support/browser-app';
import { browserSuite } from '../support/browser-suite';
import { exportTo, newErrors } from '../support/export-probes';
import { pageActions } from '../support/page-actions';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { centroid, clearFaces, coversXY, heightAt, sameFace, vertex, vertexPickPoint, withStore, type P3 } from '../support/walkmesh-probes';
import { BLACK_VULKAR_ROOMS, blackVulkarLyt, blackVulkarWok } from '../unit/kotor-area/black-vulkar-area';

/**
 * End-to-end tests (issue 8 §4), beside edit-tools.test.ts: the KotOR room-link fixes (Link
 * back, Unlink), Drop to surface, NWN2 placeable move and turn, Source split and merge, and
 * a second area of each game for the brush, nudge, split edge, delete, flip, NWN2 cutters,
 * Source attributes and connections, Skyrim flags and cover. Each edit is made through the page, checked in the project,
 * undone, redone, kept over a reload, then baked, exported and read back with the readers
 * and validators. One renderer build and one Chromium serve every suite.
 */

const app = browserSuite('walkbench-e2e-games-renderer-');

/** The model of a file as the project's edits hold it (imported model with the history replayed). */
function editedMesh(project: string, fileId: number): Walkmesh {
  return withStore(project, (s) => new ProjectEdits(s, env).meshes(fileId)[0]!);
}

function currentBytes(project: string, fileId: number): Uint8Array {
  return withStore(project, (s) => s.loadEdit(fileId)?.bytes ?? s.loadFileBytes(fileId));
}


describe('KotOR: Link back and Unlink of one-sided room links, Drop to surface and geometry tools in one area; bake and export', () => {
  const MODULE = 'm10aa';
  /** The room whose links are broken on its side; the two rooms it leads to; a room with a roof over floor. */
  const HUB = 'm10aa_09a', BACK = 'm10aa_05a', UNLINK = 'm10aa_09b', ROOF = 'm10aa_03a';
  const ROOMS = [HUB, BACK, UNLINK, ROOF];
  const room = (name: string) => BLACK_VULKAR_ROOMS.indexOf(name as (typeof BLACK_VULKAR_ROOMS)[number]);
  const lyt = blackVulkarLyt();
  const fixtureDocs = new Map(ROOMS.map((n) => [n, readBwm(blackVulkarWok(n))]));
  const meshOf = (n: string) => bwmToWalkmesh(fixtureDocs.get(n)!, n);
  const hubDoc = fixtureDocs.get(HUB)!;

  /**
   * A row of the hub that links to `to` whose far side can be clicked: with that row cleared,
   * the far side is a one-way link of a face nothing covers from above.
   */
  function oneSided(to: string): { row: number; far: RoomLinkFinding } {
    const clear = clearFaces(meshOf(to));
    for (let row = 0; row < hubDoc.edgeTransition.length; row++) {
      if (hubDoc.edgeTransition[row] !== room(to)) continue;
      const broken = { ...hubDoc, edgeTransition: hubDoc.edgeTransition.slice() };
      broken.edgeTransition[row] = -1;
      const far = checkRoomLinks(areaFromDocuments(lyt, new Map(fixtureDocs).set(HUB, broken))).find(
        (f): f is RoomLinkFinding => f.code === 'kotor.link.one-way' && (f as RoomLinkFinding).room === room(to),
      );
      if (far && clear.includes(far.face)) return { row, far };
    }
    throw new Error(`${HUB} has no link to ${to} whose far side can be clicked`);
  }
  const back = oneSided(BACK);
  const unlink = oneSided(UNLINK);
  /** The hub as imported: both links cleared on its side, so the far sides are one-sided. */
  const importedHub: BwmDocument = { ...hubDoc, edgeTransition: hubDoc.edgeTransition.slice() };
  importedHub.edgeTransition[back.row] = -1;
  importedHub.edgeTransition[unlink.row] = -1;

  const roofMesh = meshOf(ROOF);
  const floorBelow = (m: Walkmesh, corners: number[], v: number): number | undefined => {
    const [x, y, z] = vertex(m, v);
    let best: number | undefined;
    for (let g = 0; g < faceCount(m); g++) {
      if ([0, 1, 2].some((k) => corners.includes(m.triangles[g * 3 + k]!)) || !coversXY(m, g, x, y)) continue;
      const h = heightAt(m, g, x, y);
      if (h <= z + 1e-4 && (best === undefined || h > best)) best = h;
    }
    return best;
  };
  const cornersOf = (m: Walkmesh, f: number) => [0, 1, 2].map((k) => m.triangles[f * 3 + k]!);
  /** The largest roof face (not walkable, nothing above) whose three corners all have floor below. */
  const ROOF_FACE = clearFaces(roofMesh, false).find((f) => !roofMesh.faceWalkable[f] && cornersOf(roofMesh, f).every((v) => (floorBelow(roofMesh, cornersOf(roofMesh, f), v) ?? Infinity) < vertex(roofMesh, v)[2] - 0.5)) ?? -1;

  let tmp = '';
  let project = '';
  const ids = new Map<string, number>();
  let server: BrowserServer | undefined;
  let jobs: JobService | undefined;
  let page: Page;
  const problems: string[] = [];
  const ui = pageActions(() => page);

  const roomDoc = (n: string) => readBwm(currentBytes(project, ids.get(n)!));
  /** The area as the project holds it now: the layout and every room's current bytes. */
  const projectLinks = () => checkRoomLinks(areaFromDocuments(lyt, new Map(ROOMS.map((n) => [n, roomDoc(n)]))));
  const oneWayFrom = (findings: RoomLinkFinding[], n: string) => findings.filter((f) => f.code === 'kotor.link.one-way' && f.room === room(n));
  /** The far room's own row of the one-sided edge (its faces are the fixture's until it is baked). */
  const farRow = (n: string, far: RoomLinkFinding) => fixtureDocs.get(n)!.edgeIndex.indexOf(far.face * 3 + far.edge);
  const edgeRow = (f: RoomLinkFinding) => page.locator(`[data-testid="room-link-edge"][data-edge="${f.edge}"]`);

  /** The one-way link findings the findings panel lists, as "face F edge E" of the open room. */
  async function oneWayShown(): Promise<string[]> {
    const out: string[] = [];
    for (const t of await page.getByTestId('finding').filter({ hasText: 'kotor.link.one-way' }).allTextContents()) {
      const m = /^\s*\S+\s*room \d+ \([^)]*\) (face \d+ edge \d+)/.exec(t);
      out.push(m ? m[1]! : t);
    }
    return out;
  }

  async function showFace(n: string, face: number, tool: 'select' | 'move' = 'select'): Promise<void> {
    await ui.openFromTree(`${n}.wok`, faceCount(meshOf(n)));
    await page.getByTestId(`tool-${tool}`).click();
    await ui.clickAt(centroid(meshOf(n), face));
    await expect.poll(() => ui.text('inspector-face')).toBe(String(face));
  }

  beforeAll(async () => {
    expect(ROOF_FACE, `${ROOF} has a roof face over floor`).toBeGreaterThanOrEqual(0);
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-games-kotor-'));
    project = path.join(tmp, 'kotor.wbproj');
    const store = ProjectStore.create(project, { name: 'Room links', game: 'kotor' });
    try {
      store.upsertFile({ module: MODULE, area: MODULE, name: `${MODULE}.lyt`, kind: 'lyt', bytes: writeLyt(lyt) });
      for (const n of ROOMS) {
        const bytes = n === HUB ? writeBwm(importedHub) : blackVulkarWok(n);
        ids.set(n, store.upsertFile({ module: MODULE, area: MODULE, name: `${n}.wok`, kind: 'walkmesh', format: BWM_FORMAT, bytes }).fileId);
      }
    } finally {
      store.close();
    }
    ({ server, page } = await openProjectPage(project, app.rendererDir, problems, { requests: false }, { browser: app.browser, onJobService: (j) => (jobs = j) }));
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await jobs?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('the project starts with two one-sided links, reported by the area check', () => {
    const found = projectLinks();
    expect(oneWayFrom(found, BACK).map((f) => [f.face, f.edge])).toEqual([[back.far.face, back.far.edge]]);
    expect(oneWayFrom(found, UNLINK).map((f) => [f.face, f.edge])).toEqual([[unlink.far.face, unlink.far.edge]]);
  });

  it('Link back on the far side sets the hub edge to lead back; undo and redo', async () => {
    await showFace(BACK, back.far.face);
    const edge = edgeRow(back.far);
    expect(await edge.getAttribute('data-link')).toBe(`to room ${room(HUB)}`);
    // The findings panel of the room shows its one-sided link.
    await expect.poll(() => oneWayShown()).toEqual([`face ${back.far.face} edge ${back.far.edge}`]);
    await ui.edited(() => edge.getByTestId('room-link-fix').click());
    expect(await ui.text('edit-message')).toContain(`Link back to face ${back.far.face} edge ${back.far.edge} of ${BACK}.wok`);
    expect(roomDoc(HUB).edgeTransition[back.row]).toBe(room(BACK));
    expect(oneWayFrom(projectLinks(), BACK)).toEqual([]);
    // The far room itself is not changed: only the hub's edge table row.
    expect(withStore(project, (s) => s.loadEdit(ids.get(BACK)!))).toBeUndefined();
    await expect.poll(() => oneWayShown()).toEqual([]);
    await ui.undo();
    expect(roomDoc(HUB).edgeTransition[back.row]).toBe(-1);
    expect(oneWayFrom(projectLinks(), BACK)).toHaveLength(1);
    await expect.poll(() => oneWayShown()).toEqual([`face ${back.far.face} edge ${back.far.edge}`]);
    await ui.redo();
    expect(roomDoc(HUB).edgeTransition[back.row]).toBe(room(BACK));
    await expect.poll(() => oneWayShown()).toEqual([]);
  });

  it('Unlink on the far side clears that edge; undo and redo, and the editor shows each state', async () => {
    await showFace(UNLINK, unlink.far.face);
    const edge = edgeRow(unlink.far);
    const row = farRow(UNLINK, unlink.far);
    expect(await edge.getAttribute('data-link')).toBe(`to room ${room(HUB)}`);
    const shown = `face ${unlink.far.face} edge ${unlink.far.edge}`;
    await expect.poll(() => oneWayShown()).toEqual([shown]);
    await ui.edited(() => edge.getByTestId('room-link-unlink').click());
    await expect.poll(() => edge.getAttribute('data-link')).toBe('');
    await expect.poll(() => oneWayShown()).toEqual([]);
    expect(roomDoc(UNLINK).edgeTransition[row]).toBe(-1);
    expect(oneWayFrom(projectLinks(), UNLINK)).toEqual([]);
    // With no link left the buttons that fix one are off.
    expect(await edge.getByTestId('room-link-unlink').isDisabled()).toBe(true);
    await ui.undo();
    await expect.poll(() => edge.getAttribute('data-link')).toBe(`to room ${room(HUB)}`);
    await expect.poll(() => oneWayShown()).toEqual([shown]);
    expect(roomDoc(UNLINK).edgeTransition[row]).toBe(room(HUB));
    await ui.redo();
    await expect.poll(() => edge.getAttribute('data-link')).toBe('');
    expect(roomDoc(UNLINK).edgeTransition[row]).toBe(-1);
  });

  it('Drop to surface lowers the corners of a selected roof face onto the floor below; undo and redo', async () => {
    const m = roofMesh;
    const corners = cornersOf(m, ROOF_FACE);
    const floor = corners.map((v) => floorBelow(m, corners, v)!);
    // The move tool picks what it moves by a click, as the select tool does.
    await showFace(ROOF, ROOF_FACE, 'move');
    await expect.poll(() => ui.text('edit-selection')).toBe('1 face');
    await ui.edited(() => page.getByTestId('drop-to-surface').click());
    const dropped = editedMesh(project, ids.get(ROOF)!);
    corners.forEach((v, i) => {
      expect(dropped.positions[v * 3]).toBe(m.positions[v * 3]);
      expect(dropped.positions[v * 3 + 1]).toBe(m.positions[v * 3 + 1]);
      expect(dropped.positions[v * 3 + 2]).toBeCloseTo(floor[i]!, 3);
    });
    // Only the three corners moved.
    let moved = 0;
    for (let i = 0; i < m.positions.length; i++) if (dropped.positions[i] !== m.positions[i]) moved++;
    expect(moved).toBe(3);
    await ui.undo();
    expect(Array.from(editedMesh(project, ids.get(ROOF)!).positions)).toEqual(Array.from(m.positions));
    await ui.redo();
    expect(editedMesh(project, ids.get(ROOF)!).positions[corners[0]! * 3 + 2]).toBeCloseTo(floor[0]!, 3);
  });

  /**
   * Walkable faces of the roof room that share no corner with the roof face or each other:
   * one to delete, one to flip, one to paint with the brush, one to nudge up, one whose edge is split.
   */
  const [GONE, FLIP, BRUSH, NUDGE, SPLIT] = (() => {
    const used = new Set(cornersOf(roofMesh, ROOF_FACE));
    const out: number[] = [];
    for (const f of clearFaces(roofMesh)) {
      if (out.length === 5) break;
      if (cornersOf(roofMesh, f).some((v) => used.has(v))) continue;
      out.push(f);
      for (const v of cornersOf(roofMesh, f)) used.add(v);
    }
    return out;
  })();
  /** The blocked material the brush paints (KotOR takes walkability from the material). */
  const BLOCKED = [...Array(20).keys()].find((x) => !isWalkableMaterial(DEFAULT_WALKABILITY, x))!;
  const facesOnEdge = (m: Walkmesh, a: number, b: number) => {
    let n = 0;
    for (let f = 0; f < faceCount(m); f++) if (cornersOf(m, f).includes(a) && cornersOf(m, f).includes(b)) n++;
    return n;
  };
  const [SPLIT_A, SPLIT_B] = SPLIT === undefined ? [0, 0] : cornersOf(roofMesh, SPLIT);
  const windingKey = (m: Walkmesh, f: number) => {
    // The corners from the lowest-keyed one on, so the same winding gives the same key.
    const keys = cornersOf(m, f).map((v) => vertex(m, v).join(','));
    const k = keys.indexOf([...keys].sort()[0]!);
    return [...keys.slice(k), ...keys.slice(0, k)].join(' ');
  };

  it('deletes one face and flips another in the same room; undo and redo', async () => {
    expect(GONE).toBeDefined();
    expect(FLIP).toBeDefined();
    const F = faceCount(roofMesh);
    await showFace(ROOF, GONE!);
    await ui.edited(() => page.getByTestId('delete-faces').click());
    await expect.poll(ui.faceCountShown).toBe(String(F - 1));
    expect(() => sameFace(editedMesh(project, ids.get(ROOF)!), roofMesh, GONE!)).toThrow();
    await ui.undo();
    await expect.poll(ui.faceCountShown).toBe(String(F));
    await ui.redo();
    await expect.poll(ui.faceCountShown).toBe(String(F - 1));
    const now = editedMesh(project, ids.get(ROOF)!);
    const flip = sameFace(now, roofMesh, FLIP!);
    await ui.clickAt(centroid(now, flip));
    await expect.poll(() => ui.text('inspector-face')).toBe(String(flip));
    await ui.edited(() => page.getByTestId('flip-faces').click());
    const flipped = editedMesh(project, ids.get(ROOF)!);
    expect(windingKey(flipped, flip)).not.toBe(windingKey(roofMesh, FLIP!));
    await ui.undo();
    expect(windingKey(editedMesh(project, ids.get(ROOF)!), flip)).toBe(windingKey(roofMesh, FLIP!));
    await ui.redo();
    expect(windingKey(editedMesh(project, ids.get(ROOF)!), flip)).toBe(windingKey(flipped, flip));
  });

  it('paints with the brush, nudges a face up and splits an edge in the same room', async () => {
    expect(SPLIT).toBeDefined();
    const room = () => editedMesh(project, ids.get(ROOF)!);
    const before = room();
    // Brush: one stroke over one face.
    await page.getByTestId('paint-material').fill(String(BLOCKED));
    await page.getByTestId('brush-radius').fill('0.01');
    await page.getByTestId('tool-paint').click();
    await ui.edited(() => ui.clickAt(centroid(before, sameFace(before, roofMesh, BRUSH!))));
    await page.getByTestId('paint-material').fill('');
    const brushed = () => room().faceMaterial[sameFace(room(), roofMesh, BRUSH!)];
    expect(brushed()).toBe(BLOCKED);
    await ui.undo();
    expect(brushed()).toBe(roofMesh.faceMaterial[BRUSH!]);
    await ui.redo();
    expect(brushed()).toBe(BLOCKED);

    // Nudge: the face's corners half a unit up.
    await page.getByTestId('tool-select').click();
    const n = sameFace(before, roofMesh, NUDGE!);
    await ui.clickAt(centroid(before, n));
    await expect.poll(() => ui.text('inspector-face')).toBe(String(n));
    await page.getByTestId('grid-step').fill('0.5');
    await ui.edited(() => page.getByTestId('nudge-up').click());
    const nudgedZ = () => cornersOf(roofMesh, NUDGE!).map((v) => room().positions[v * 3 + 2]! - roofMesh.positions[v * 3 + 2]!);
    for (const dz of nudgedZ()) expect(dz).toBeCloseTo(0.5, 4);
    await ui.undo();
    expect(nudgedZ()).toEqual([0, 0, 0]);
    await ui.redo();
    for (const dz of nudgedZ()) expect(dz).toBeCloseTo(0.5, 4);
    await page.keyboard.press('Escape');

    // Split: two picked corners, a new vertex in the middle of their edge.
    const m = room();
    const F = faceCount(m);
    const gained = facesOnEdge(m, SPLIT_A, SPLIT_B);
    await page.getByTestId('tool-vertices').click();
    for (const v of [SPLIT_A, SPLIT_B]) {
      const p = vertexPickPoint(m, v, -1);
      expect(p, `vertex ${v} can be picked`).not.toBeNull();
      await ui.clickAt(p!);
    }
    await expect.poll(() => ui.text('edit-selection')).toMatch(new RegExp(`· vertices ${SPLIT_A}, ${SPLIT_B}$`));
    await ui.edited(() => page.getByTestId('split-edge').click());
    expect(faceCount(room())).toBe(F + gained);
    expect(room().positions.length).toBe(m.positions.length + 3);
    await ui.undo();
    expect(faceCount(room())).toBe(F);
    await ui.redo();
    expect(faceCount(room())).toBe(F + gained);
    await page.getByTestId('tool-select').click();
  });

  it('keeps all of them over a reload, and the history still undoes and redoes', async () => {
    await ui.reload();
    expect(roomDoc(HUB).edgeTransition[back.row]).toBe(room(BACK));
    expect(roomDoc(UNLINK).edgeTransition[farRow(UNLINK, unlink.far)]).toBe(-1);
    const corner = cornersOf(roofMesh, ROOF_FACE)[0]!;
    const droppedZ = editedMesh(project, ids.get(ROOF)!).positions[corner * 3 + 2]!;
    expect(droppedZ).toBeLessThan(roofMesh.positions[corner * 3 + 2]! - 0.5);
    await showFace(UNLINK, unlink.far.face);
    expect(await edgeRow(unlink.far).getAttribute('data-link')).toBe('');
    await showFace(BACK, back.far.face);
    await expect.poll(() => page.getByTestId('findings-title').isVisible()).toBe(true);
    expect(await oneWayShown()).toEqual([]);
    const kept = editedMesh(project, ids.get(ROOF)!);
    const split = facesOnEdge(roofMesh, SPLIT_A, SPLIT_B);
    expect(faceCount(kept)).toBe(faceCount(roofMesh) - 1 + split);
    const flip = sameFace(kept, roofMesh, FLIP!);
    expect(windingKey(kept, flip)).not.toBe(windingKey(roofMesh, FLIP!));
    expect(kept.faceMaterial[sameFace(kept, roofMesh, BRUSH!)]).toBe(BLOCKED);
    for (const v of cornersOf(roofMesh, NUDGE!)) expect(kept.positions[v * 3 + 2]! - roofMesh.positions[v * 3 + 2]!).toBeCloseTo(0.5, 4);
    // Undo is per file: in the roof's tab the last step was the split (in BACK's tab it
    // would be the link back asked there).
    await ui.openFromTree(`${ROOF}.wok`, faceCount(kept));
    await ui.undo();
    expect(faceCount(editedMesh(project, ids.get(ROOF)!))).toBe(faceCount(roofMesh) - 1);
    await ui.redo();
    expect(faceCount(editedMesh(project, ids.get(ROOF)!))).toBe(faceCount(kept));
  });

  it('bakes from the jobs panel and exports WOKs that validate and carry the edits', async () => {
    await page.getByTestId('bake-all').click();
    await expect.poll(() => page.getByTestId('job').first().getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    const game = path.join(tmp, 'swkotor');
    mkdirSync(path.join(game, 'override'), { recursive: true });
    const result = await exportTo(project, game);
    expect(result.plan.refused).toEqual([]);
    expect(result.status).toBe('done');
    const exported = new Map<string, BwmDocument>();
    for (const n of ROOMS) {
      const bytes = new Uint8Array(readFileSync(path.join(game, 'override', `${n}.wok`)));
      const report = inspectBytes(`${n}.wok`, bytes, env);
      expect(report.readFailure, n).toBeNull();
      expect(report.format).toBe(BWM_FORMAT);
      expect(newErrors(report.errors, inspectBytes(`${n}.wok`, blackVulkarWok(n), env).errors), n).toEqual([]);
      exported.set(n, readBwm(bytes));
    }
    // The baked rooms may order faces differently: edges are found by their end points.
    const linkOf = (n: string, from: BwmDocument, row: number) => {
      const doc = exported.get(n)!;
      const mesh = bwmToWalkmesh(doc, n);
      const at = meshEdgeOfRow(from, row, mesh)!;
      expect(at, `${n}: the edge of row ${row} is in the export`).toBeDefined();
      return doc.edgeTransition[perimeterRow(doc, at.face, at.edge, 'test', mesh)];
    };
    expect(linkOf(HUB, hubDoc, back.row)).toBe(room(BACK));
    expect(linkOf(HUB, hubDoc, unlink.row)).toBe(-1);
    expect(linkOf(UNLINK, fixtureDocs.get(UNLINK)!, farRow(UNLINK, unlink.far))).toBe(-1);
    // The area check of the exported rooms: no one-sided link and no error the fixtures lacked.
    const area = checkRoomLinks(areaFromDocuments(lyt, exported));
    expect(area.filter((f) => f.code === 'kotor.link.one-way')).toEqual([]);
    expect(newErrors(area, checkRoomLinks(areaFromDocuments(lyt, fixtureDocs)))).toEqual([]);
    // The roof face, with its corners on the floor, is in the exported room; so is the flipped
    // face, turned, and the deleted one is not.
    const roof = bwmToWalkmesh(exported.get(ROOF)!, ROOF);
    const model = editedMesh(project, ids.get(ROOF)!);
    expect(faceCount(roof)).toBe(faceCount(model));
    // A deleted face moves the later ones down by one.
    expect(sameFace(roof, model, ROOF_FACE - (GONE! < ROOF_FACE ? 1 : 0))).toBeGreaterThanOrEqual(0);
    expect(() => sameFace(roof, roofMesh, GONE!)).toThrow();
    const flip = sameFace(model, roofMesh, FLIP!);
    expect(windingKey(roof, sameFace(roof, model, flip))).toBe(windingKey(model, flip));
    expect(windingKey(model, flip)).not.toBe(windingKey(roofMesh, FLIP!));
    // The brushed face keeps its material; the nudged face is there where it was moved; the split edge's middle is a vertex.
    expect(roof.faceMaterial[sameFace(roof, roofMesh, BRUSH!)]).toBe(BLOCKED);
    const nudgeCorners = cornersOf(roofMesh, NUDGE!).sort().join();
    const nudged = [...Array(faceCount(model)).keys()].find((f) => cornersOf(model, f).sort().join() === nudgeCorners)!;
    expect(model.positions[cornersOf(model, nudged)[0]! * 3 + 2]).not.toBe(roofMesh.positions[cornersOf(model, nudged)[0]! * 3 + 2]);
    expect(sameFace(roof, model, nudged)).toBeGreaterThanOrEqual(0);
    const mid = [0, 1, 2].map((c) => Math.fround((roofMesh.positions[SPLIT_A * 3 + c]! + roofMesh.positions[SPLIT_B * 3 + c]!) / 2));
    let found = false;
    for (let v = 0; v < roof.positions.length / 3 && !found; v++) found = [0, 1, 2].every((c) => Math.abs(roof.positions[v * 3 + c]! - mid[c]!) < 1e-3);
    expect(found, 'the exported room has a vertex in the middle of the split edge').toBe(true);
  }, 180_000);

  it('ran without console errors or page errors', () => {
    expect(problems).toEqual([]);
  });
});

describe('NWN2: move and turn a placeable and add a cutter from the toolbar, the area re-baked live; bake and export the TRX and the GIT', () => {
  const AREA = 'enter world';
  const MODULE = 'kaedrin';
  const dir = path.join(fixturesRoot, 'nwn2/kaedrin');
  const modelDir = path.join(fixturesRoot, 'nwn2/nwn-lib-d');
  const twoDaDir = path.join(fixturesRoot, 'nwn2/2da');
  /** Row 1599 of placeables.2da is PLC_MC_BALCONY3, the one placeable model among the fixtures. */
  const BALCONY = 1599;
  const balcony = { name: 'PLC_MC_BALCONY3', walkmeshes: readMdbWalkmeshes(readFixture(path.join(modelDir, 'PLC_MC_BALCONY3.MDB'))) };
  const models = (appearance: number) => (appearance === BALCONY ? balcony : undefined);
  const trn = readTrx(readFixture(path.join(dir, `${AREA}.trn`)), env);
  const ground = (() => {
    const d = loadDocument(`${AREA}.trn`, readFixture(path.join(dir, `${AREA}.trn`)), env);
    return d.handler.toWalkmeshes(d.document, `${AREA}.trn`)[0]!;
  })();
  /** The balcony starts on the largest clear piece of ground and is moved to another, far from it (see `target`). */
  const start = centroid(ground, clearFaces(ground)[0]!);
  let target: P3 = start;
  /** The area's GIT with the balcony added: its index is the list's last. */
  const importedGit = readGff(readFixture(path.join(dir, `${AREA}.GIT`)));
  const INDEX = readGitPlaceables(importedGit).length;
  applyGitEdit(importedGit, { kind: 'nwn2-add-placeable', appearance: BALCONY, templateResRef: 'plc_mc_balcony3', position: start });
  const importedGitBytes = writeGff(importedGit);

  let tmp = '';
  let project = '';
  let gitId = 0;
  let server: BrowserServer | undefined;
  let page: Page;
  const problems: string[] = [];
  const ui = pageActions(() => page);
  const gitNow = (): GffDocument => readGff(currentBytes(project, gitId));
  const placeable = () => readGitPlaceables(gitNow())[INDEX]!;
  const cutters = () => readGitWalkmeshCutters(gitNow()).length;
  const CUTTERS = readGitWalkmeshCutters(importedGit).length;
  /** The oracle: the area baked with the GIT as the project holds it (the balcony's model given directly). */
  const bakedNow = () => rebakeNwn2Area(trn, gitNow(), `${AREA}.trn`, models).walkmesh;

  /** A GIT edit, undo or redo: done, and the area's re-bake (in the background or not) shown. */
  async function rebaked(action: () => Promise<void>): Promise<void> {
    await ui.edited(action, 60_000);
    await expect.poll(() => ui.text('edit-message'), { timeout: 60_000 }).toMatch(/area re-baked in \d+ ms/);
    await expect.poll(() => page.getByTestId('rebake-status').count(), { timeout: 60_000 }).toBe(0);
  }
  const undo = () => rebaked(() => page.getByTestId('undo').click());
  const redo = () => rebaked(() => page.getByTestId('redo').click());

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-games-nwn2-'));
    project = path.join(tmp, 'nwn2.wbproj');
    const store = ProjectStore.create(project, { name: 'Placeables', game: 'nwn2' });
    try {
      store.upsertFile({ module: MODULE, area: AREA, name: `${AREA}.trn`, kind: 'trn', format: TRX_FORMAT, bytes: readFixture(path.join(dir, `${AREA}.trn`)) });
      // The toolset's TRX, as a module folder holds it: what the export replaces.
      store.upsertFile({ module: MODULE, area: AREA, name: `${AREA}.trx`, kind: 'walkmesh', format: TRX_FORMAT, bytes: readFixture(path.join(dir, `${AREA}.trx`)) });
      gitId = store.upsertFile({ module: MODULE, area: AREA, name: `${AREA}.GIT`, kind: 'git', format: null, bytes: importedGitBytes }).fileId;
      store.upsertFile({ module: MODULE, area: null, name: 'placeables.2da', kind: '2da', bytes: readFixture(path.join(twoDaDir, 'placeables.2da')) });
      store.upsertFile({ module: MODULE, area: null, name: 'PLC_MC_BALCONY3.MDB', kind: 'mdb', bytes: readFixture(path.join(modelDir, 'PLC_MC_BALCONY3.MDB')) });
    } finally {
      store.close();
    }
    ({ server, page } = await openProjectPage(project, app.rendererDir, problems, { requests: false }, { browser: app.browser }));
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('moves the placeable to a point placed on the ground and turns it; each re-bakes the area, undoes and redoes', async () => {
    const before = placeable();
    expect(before.appearance).toBe(BALCONY);
    const atStart = bakedNow();
    await ui.openFromTree(`${AREA}.trn`);
    expect(await page.getByTestId('nwn2-tools').innerText()).toContain('(GIT)');

    // The farthest clear ground from the start that the colour legend does not cover on screen.
    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    const legend = (await page.getByTestId('legend').boundingBox())!;
    const far = clearFaces(ground).map((f) => centroid(ground, f)).sort((a, b) => Math.hypot(b[0] - start[0], b[1] - start[1]) - Math.hypot(a[0] - start[0], a[1] - start[1]));
    for (const p of far) {
      const sp = await ui.screenOf(p);
      const inside = (r: { x: number; y: number; width: number; height: number }, m: number) => sp.x >= r.x - m && sp.x <= r.x + r.width + m && sp.y >= r.y - m && sp.y <= r.y + r.height + m;
      if (inside(box, -8) && !inside(legend, 8)) {
        target = p;
        break;
      }
    }
    expect(Math.hypot(target[0] - start[0], target[1] - start[1])).toBeGreaterThan(5);
    await page.getByTestId('tool-place').click();
    await ui.clickAt(target);
    await expect.poll(() => ui.text('placed-count')).toBe('1 point');
    await page.getByTestId('placeable-index').fill(String(INDEX));
    await rebaked(() => page.getByTestId('move-placeable').click());
    const moved = placeable();
    expect(Math.hypot(moved.x - target[0], moved.y - target[1])).toBeLessThan(0.1);
    expect(Math.abs(moved.z - target[2])).toBeLessThan(0.1);
    const atTarget = bakedNow();
    // The balcony cuts the ground where it now stands: the bake differs and the page shows it.
    expect(Array.from(atTarget.positions)).not.toEqual(Array.from(atStart.positions));
    expect(await ui.faceCountShown()).toBe(String(faceCount(atTarget)));

    await page.getByTestId('placeable-bearing').fill('90');
    await rebaked(() => page.getByTestId('rotate-placeable').click());
    expect(placeable().bearing).toBeCloseTo(Math.PI / 2, 5);
    expect(placeable().x).toBe(moved.x);
    const turned = bakedNow();
    expect(Array.from(turned.positions)).not.toEqual(Array.from(atTarget.positions));
    expect(await ui.faceCountShown()).toBe(String(faceCount(turned)));

    await undo();
    expect(placeable().bearing).toBe(before.bearing);
    expect(await ui.faceCountShown()).toBe(String(faceCount(atTarget)));
    await undo();
    expect([placeable().x, placeable().y, placeable().z]).toEqual([before.x, before.y, before.z]);
    expect(await ui.faceCountShown()).toBe(String(faceCount(atStart)));
    await redo();
    await redo();
    expect(placeable().x).toBe(moved.x);
    expect(placeable().bearing).toBeCloseTo(Math.PI / 2, 5);
    expect(await ui.faceCountShown()).toBe(String(faceCount(turned)));
  }, 180_000);

  it('adds a cutter on points placed on the ground; undo and redo', async () => {
    const face = clearFaces(ground)[0]!;
    const c = centroid(ground, face);
    await page.getByTestId('tool-place').click();
    for (let k = 0; k < 3; k++) {
      const v = vertex(ground, ground.triangles[face * 3 + k]!);
      await ui.clickAt([v[0] * 0.6 + c[0] * 0.4, v[1] * 0.6 + c[1] * 0.4, v[2] * 0.6 + c[2] * 0.4]);
    }
    await expect.poll(() => ui.text('placed-count')).toBe('3 points');
    await rebaked(() => page.getByTestId('add-cutter').click());
    expect(cutters()).toBe(CUTTERS + 1);
    expect(await ui.faceCountShown()).toBe(String(faceCount(bakedNow())));
    await undo();
    expect(cutters()).toBe(CUTTERS);
    await redo();
    expect(cutters()).toBe(CUTTERS + 1);
  }, 120_000);

  it('keeps the move, the turn and the cutter over a reload, and the history still undoes and redoes', async () => {
    const now = placeable();
    await ui.reload();
    expect(placeable()).toEqual(now);
    expect(cutters()).toBe(CUTTERS + 1);
    await ui.openFromTree(`${AREA}.trn`);
    await undo();
    expect(cutters()).toBe(CUTTERS);
    await undo();
    expect(placeable().bearing).not.toBeCloseTo(Math.PI / 2, 5);
    await redo();
    await redo();
    expect(placeable()).toEqual(now);
    expect(cutters()).toBe(CUTTERS + 1);
  }, 120_000);

  it('bakes from the jobs panel and exports a TRX baked from the TRN and the edited GIT, which validates, and the GIT with the placeable where it was moved', async () => {
    await page.getByTestId('bake-all').click();
    await expect.poll(() => page.getByTestId('job').first().getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    const game = path.join(tmp, 'nwn2module');
    mkdirSync(game, { recursive: true });
    const result = await exportTo(project, game);
    expect(result.plan.refused).toEqual([]);
    expect(result.status).toBe('done');
    expect(result.plan.entries.map((e) => e.file).sort()).toEqual([`${MODULE}/${AREA}.GIT`, `${MODULE}/${AREA}.trx`]);

    const trx = path.join(game, `${AREA}.trx`);
    const bytes = new Uint8Array(readFileSync(trx));
    const report = inspectBytes(trx, bytes, env);
    expect(report.readFailure).toBeNull();
    expect(report.format).toBe(TRX_FORMAT);
    const original = readFixture(path.join(dir, `${AREA}.trx`));
    expect(newErrors(report.errors, inspectBytes('original.trx', original, env).errors)).toEqual([]);
    // The exported walkmesh is the area as the viewport showed it after the last edit.
    const d = loadDocument(trx, bytes, env);
    const mesh = d.handler.toWalkmeshes(d.document, trx)[0]!;
    const live = bakedNow();
    expect(faceCount(mesh)).toBe(faceCount(live));
    expect(Array.from(mesh.positions).sort((x, y) => x - y)).toEqual(Array.from(live.positions).sort((x, y) => x - y));
    const o = loadDocument('original.trx', original, env);
    expect(faceCount(mesh)).not.toBe(faceCount(o.handler.toWalkmeshes(o.document, 'original.trx')[0]!));
    const gitOut = readGff(new Uint8Array(readFileSync(path.join(game, `${AREA}.GIT`))));
    const written = readGitPlaceables(gitOut)[INDEX]!;
    expect(Math.hypot(written.x - target[0], written.y - target[1])).toBeLessThan(0.1);
    expect(written.bearing).toBeCloseTo(Math.PI / 2, 5);
    expect(readGitWalkmeshCutters(gitOut)).toHaveLength(CUTTERS + 1);
  }, 180_000);

  it('ran without console errors or page errors', () => {
    expect(problems).toEqual([]);
  });
});

describe('Source: split an area and merge it back, paint and connect areas from the inspector; export', () => {
  const NAV = 'source/csgo/2nd_mythic_town_v5.nav';
  const NAV_NAME = path.basename(NAV);
  const imported = readFixture(path.join(fixturesRoot, NAV));
  const original = (() => {
    const d = loadDocument(NAV_NAME, imported, env);
    return { doc: d.document as NavDocument, mesh: d.handler.toWalkmeshes(d.document, NAV_NAME)[0]! };
  })();
  const F = faceCount(original.mesh);
  const FACE = clearFaces(original.mesh)[0]!;
  const AREA = original.mesh.faceOwner[FACE]!;
  const NEW = Math.max(...Array.from(original.doc.areas.id)) + 1;

  let tmp = '';
  let project = '';
  let navId = 0;
  let server: BrowserServer | undefined;
  let page: Page;
  const problems: string[] = [];
  const ui = pageActions(() => page);
  const nav = (bytes = currentBytes(project, navId)) => {
    const d = loadDocument(NAV_NAME, bytes, env);
    return { doc: d.document as NavDocument, mesh: d.handler.toWalkmeshes(d.document, NAV_NAME)[0]! };
  };
  /** [minX, maxX, minY, maxY] of an area's faces, or null when it has none. */
  const bounds = (m: Walkmesh, id: number): number[] | null => {
    const b = [Infinity, -Infinity, Infinity, -Infinity];
    let any = false;
    for (let f = 0; f < faceCount(m); f++) {
      if (m.faceOwner[f] !== id) continue;
      any = true;
      for (const [x, y] of [0, 1, 2].map((k) => vertex(m, m.triangles[f * 3 + k]!))) {
        b[0] = Math.min(b[0]!, x);
        b[1] = Math.max(b[1]!, x);
        b[2] = Math.min(b[2]!, y);
        b[3] = Math.max(b[3]!, y);
      }
    }
    return any ? b : null;
  };
  const whole = bounds(original.mesh, AREA)!;
  const middle = Math.fround((whole[0]! + whole[1]!) / 2);

  async function exported(folder: string): Promise<{ doc: NavDocument; mesh: Walkmesh }> {
    const game = path.join(tmp, folder);
    mkdirSync(path.join(game, 'maps'), { recursive: true });
    const result = await exportTo(project, game);
    expect(result.plan.refused).toEqual([]);
    expect(result.status).toBe('done');
    const written = new Uint8Array(readFileSync(path.join(game, 'maps', NAV_NAME)));
    const report = inspectBytes(NAV_NAME, written, env);
    expect(report.readFailure).toBeNull();
    expect(report.format).toBe(NAV_FORMAT);
    expect(newErrors(report.errors, inspectBytes(NAV_NAME, imported, env).errors)).toEqual([]);
    return nav(written);
  }

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-games-source-'));
    project = path.join(tmp, 'source.wbproj');
    const store = ProjectStore.create(project, { name: 'Source areas', game: 'source' });
    try {
      navId = store.upsertFile({ module: 'csgo', area: '2nd_mythic_town_v5', name: NAV_NAME, kind: 'walkmesh', format: NAV_FORMAT, bytes: imported }).fileId;
    } finally {
      store.close();
    }
    ({ server, page } = await openProjectPage(project, app.rendererDir, problems, { requests: false }, { browser: app.browser }));
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('splits the clicked area at its middle: a new area takes the east half; undo and redo', async () => {
    expect(original.doc.areas.id).not.toContain(NEW);
    await ui.openFromTree(NAV_NAME, F);
    await page.getByTestId('tool-select').click();
    await ui.clickAt(centroid(original.mesh, FACE));
    await expect.poll(() => ui.text('inspector-face')).toBe(String(FACE));
    expect(await page.getByTestId('game-edit').innerText()).toContain(`Area ${AREA}`);
    expect(await page.getByTestId('source-split-at').getAttribute('placeholder')).toBe(middle.toFixed(2));
    await ui.edited(() => page.getByTestId('source-split').click());
    await expect.poll(ui.faceCountShown).toBe(String(F + 2));
    const split = nav();
    expect(Array.from(split.doc.areas.id)).toContain(NEW);
    expect(bounds(split.mesh, AREA)).toEqual([whole[0], middle, whole[2], whole[3]]);
    expect(bounds(split.mesh, NEW)).toEqual([middle, whole[1], whole[2], whole[3]]);
    await ui.undo();
    await expect.poll(ui.faceCountShown).toBe(String(F));
    expect(Array.from(nav().doc.areas.id)).not.toContain(NEW);
    expect(bounds(nav().mesh, AREA)).toEqual(whole);
    await ui.redo();
    expect(bounds(nav().mesh, NEW)).toEqual([middle, whole[1], whole[2], whole[3]]);
  });

  it('keeps the split over a reload, and exports a map that validates and has both halves', async () => {
    await ui.reload();
    await ui.openFromTree(NAV_NAME, F + 2);
    expect(bounds(nav().mesh, NEW)).toEqual([middle, whole[1], whole[2], whole[3]]);
    const out = await exported('split');
    expect(out.doc.areas.count).toBe(original.doc.areas.count + 1);
    expect(bounds(out.mesh, AREA)).toEqual([whole[0], middle, whole[2], whole[3]]);
    expect(bounds(out.mesh, NEW)).toEqual([middle, whole[1], whole[2], whole[3]]);
  }, 60_000);

  it('merges the new area back into the clicked one; undo and redo; kept over a reload; the export has one area again', async () => {
    // The clicked face is the kept (west) half now.
    await page.getByTestId('tool-select').click();
    await ui.clickAt(centroid(editedMesh(project, navId), FACE));
    await expect.poll(() => ui.text('inspector-face')).toBe(String(FACE));
    await page.getByTestId('source-other-area').fill(String(NEW));
    await ui.edited(() => page.getByTestId('source-merge').click());
    await expect.poll(ui.faceCountShown).toBe(String(F));
    expect(bounds(nav().mesh, NEW)).toBeNull();
    expect(bounds(nav().mesh, AREA)).toEqual(whole);
    await ui.undo();
    expect(bounds(nav().mesh, NEW)).toEqual([middle, whole[1], whole[2], whole[3]]);
    await ui.redo();
    expect(bounds(nav().mesh, NEW)).toBeNull();
    await ui.reload();
    await ui.openFromTree(NAV_NAME, F);
    expect(bounds(nav().mesh, AREA)).toEqual(whole);
    const out = await exported('merged');
    expect(out.doc.areas.count).toBe(original.doc.areas.count);
    expect(Array.from(out.doc.areas.id)).not.toContain(NEW);
    expect(bounds(out.mesh, AREA)).toEqual(whole);
  }, 60_000);

  it('paints an area attribute and connects two areas; undo, redo, reload, export', async () => {
    const attributes = () => {
      const d = nav().doc;
      return d.areas.attributes[Array.from(d.areas.id).indexOf(AREA)]!;
    };
    const before = attributes();
    const bit = (before & 0x8) === 0 ? 0x8 : 0x10;
    const linked = new Set(areaConnections(original.doc, AREA).flat());
    const other = Array.from(original.doc.areas.id).find((id) => id !== AREA && !linked.has(id))!;
    expect(other).toBeDefined();
    await page.getByTestId('tool-select').click();
    await ui.clickAt(centroid(editedMesh(project, navId), FACE));
    await expect.poll(() => ui.text('inspector-face')).toBe(String(FACE));
    await page.getByTestId('paint-set-bits').fill(`0x${bit.toString(16)}`);
    await ui.edited(() => page.getByTestId('paint-fill').click());
    await page.getByTestId('paint-set-bits').fill('');
    expect(attributes()).toBe(before | bit);
    await ui.undo();
    expect(attributes()).toBe(before);
    await ui.redo();
    expect(attributes()).toBe(before | bit);
    await page.getByTestId('source-other-area').fill(String(other));
    await page.getByTestId('source-direction').selectOption('1');
    await ui.edited(() => page.getByTestId('source-connect').click());
    expect(areaConnections(nav().doc, AREA)[1]).toContain(other);
    expect(areaConnections(nav().doc, other)[3]).toContain(AREA);

    await ui.reload();
    await ui.openFromTree(NAV_NAME, F);
    expect(attributes()).toBe(before | bit);
    expect(areaConnections(nav().doc, AREA)[1]).toContain(other);
    await ui.undo();
    expect(areaConnections(nav().doc, AREA)[1]).not.toContain(other);
    await ui.redo();
    const out = await exported('attributes');
    expect(out.doc.areas.attributes[Array.from(out.doc.areas.id).indexOf(AREA)]).toBe(before | bit);
    expect(areaConnections(out.doc, AREA)[1]).toContain(other);
    expect(areaConnections(out.doc, other)[3]).toContain(AREA);
  }, 60_000);

  it('ran without console errors or page errors', () => {
    expect(problems).toEqual([]);
  });
});

describe('Skyrim: a triangle flag and a cover word kept over a reload, then export', () => {
  const ESP = 'FreeCamera.esp';
  const fixture = path.join(fixturesRoot, 'skyrim', ESP);
  let tmp = '';
  let project = '';
  let espId = 0;
  let server: BrowserServer | undefined;
  let page: Page;
  const problems: string[] = [];
  const ui = pageActions(() => page);
  const navmeshOf = (bytes: Uint8Array) => pluginNavmeshes(loadDocument(ESP, bytes, env).document as PluginDocument).find((n) => n.nvnm && !n.deleted)!.nvnm!;
  const saved = () => navmeshOf(currentBytes(project, espId));
  const mesh = (() => {
    const d = loadDocument(ESP, readFixture(fixture), env);
    return d.handler.toWalkmeshes(d.document, ESP)[0]!;
  })();
  const nvnm = navmeshOf(readFixture(fixture));

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-games-skyrim-'));
    project = path.join(tmp, 'skyrim.wbproj');
    const store = ProjectStore.create(project, { name: 'Skyrim flags', game: 'skyrim' });
    try {
      espId = store.upsertFile({ module: 'plugins', area: 'FreeCamera', name: ESP, kind: 'walkmesh', format: PLUGIN_FORMAT, bytes: readFixture(fixture) }).fileId;
    } finally {
      store.close();
    }
    ({ server, page } = await openProjectPage(project, app.rendererDir, problems, { requests: false }, { browser: app.browser }));
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('sets water and a cover word on a clicked triangle; undo and redo; both kept over a reload and in the exported plugin', async () => {
    await ui.openFromTree(ESP, faceCount(mesh));
    // A dry triangle whose centroid the colour legend does not cover on screen.
    const legend = (await page.getByTestId('legend').boundingBox())!;
    let face = -1;
    for (const f of clearFaces(mesh)) {
      if ((nvnm.triFlags[f]! & TRI_WATER) !== 0) continue;
      const s = await ui.screenOf(centroid(mesh, f));
      if (s.x >= legend.x - 4 && s.x <= legend.x + legend.width + 4 && s.y >= legend.y - 4 && s.y <= legend.y + legend.height + 4) continue;
      face = f;
      break;
    }
    expect(face).toBeGreaterThanOrEqual(0);
    await page.getByTestId('tool-select').click();
    await ui.clickAt(centroid(mesh, face));
    await expect.poll(() => ui.text('inspector-face')).toBe(String(face));
    await ui.edited(() => page.getByTestId('skyrim-set-water').click());
    expect(saved().triFlags[face]! & TRI_WATER).toBe(TRI_WATER);
    const cover = nvnm.triCover[face] === 0x21 ? 0x12 : 0x21;
    await page.getByTestId('skyrim-cover').fill(`0x${cover.toString(16)}`);
    await ui.edited(() => page.getByTestId('skyrim-cover-set').click());
    expect(saved().triCover[face]).toBe(cover);

    await ui.reload();
    await ui.openFromTree(ESP, faceCount(mesh));
    expect(saved().triFlags[face]! & TRI_WATER).toBe(TRI_WATER);
    expect(saved().triCover[face]).toBe(cover);
    await page.getByTestId('tool-select').click();
    await ui.clickAt(centroid(mesh, face));
    await expect.poll(() => ui.text('inspector-material')).toContain('water');
    await ui.undo();
    expect(saved().triCover[face]).toBe(nvnm.triCover[face]);
    await ui.redo();
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
    expect(newErrors(report.errors, inspectBytes(ESP, readFixture(fixture), env).errors)).toEqual([]);
    const exported = navmeshOf(written);
    expect(exported.triFlags[face]! & TRI_WATER).toBe(TRI_WATER);
    expect(exported.triCover[face]).toBe(cover);
  }, 120_000);

  it('ran without console errors or page errors', () => {
    expect(problems).toEqual([]);
  });
});
