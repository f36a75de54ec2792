import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import { meshEdgeOfRow } from '../../shared/edits/kotor-transitions';
import { BWM_FORMAT, type BwmDocument } from '../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../shared/formats/kotor/bwm-reader';
import { bwmToWalkmesh } from '../../shared/formats/kotor/bwm-walkmesh';
import { writeBwm } from '../../shared/formats/kotor/bwm-writer';
import { areaFromDocuments } from '../../shared/formats/kotor/kotor-area';
import { roomEdgeChoices } from '../../shared/formats/kotor/kotor-room-links';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import { PLUGIN_FORMAT } from '../../shared/formats/skyrim/plugin-document';
import { cellLabel, pluginCells } from '../../shared/formats/skyrim/plugin-cells';
import { readPlugin } from '../../shared/formats/skyrim/plugin-reader';
import { pluginToWalkmeshes } from '../../shared/formats/skyrim/skyrim-walkmesh';
import { portableEnvironment } from '../../shared/formats/format-environment';
import { placeList, placeName } from '../../shared/formats/source/nav-document';
import { NAV_FORMAT, readNav } from '../../shared/formats/source/nav-reader';
import { navToWalkmesh } from '../../shared/formats/source/nav-walkmesh';
import { faceCount } from '../../shared/model/walkmesh';
import { openProjectPage } from '../support/browser-app';
import { browserSuite } from '../support/browser-suite';
import { pageActions } from '../support/page-actions';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { centroid, clearFaces, withStore } from '../support/walkmesh-probes';
import { ProjectStore } from '../../electron/services/project/project-store';
import { BLACK_VULKAR_ROOMS, blackVulkarLyt, blackVulkarWok } from '../unit/kotor-area/black-vulkar-area';
import { buildKey } from '../unit/kotor-files/key-bif-builder';
import { createRimDocument } from '../../shared/formats/aurora/rim-document';
import { writeRim } from '../../shared/formats/aurora/rim-writer';
import { KotorResType } from '../../shared/formats/aurora/resource-types';

/**
 * Issue 16 §2 and §4: each game's own structure in the app. A KotOR layout opened as its
 * area (every room placed, named by the LYT), a room link set by picking a room name among
 * the rooms sharing the edge, a Skyrim plugin's navmeshes listed by cell with one cell shown
 * alone, and a Source map's places shown as a view and one painted onto an area. With
 * `WALKBENCH_SCREENSHOTS=DIR` the screenshots are written there.
 */

const app = browserSuite('walkbench-e2e-structure-renderer-');
const shotsDir = process.env['WALKBENCH_SCREENSHOTS'];

async function shot(page: Page, name: string): Promise<void> {
  const png = await page.screenshot();
  expect(png.byteLength).toBeGreaterThan(10_000);
  if (shotsDir) {
    mkdirSync(shotsDir, { recursive: true });
    writeFileSync(path.join(shotsDir, `${name}.png`), png);
  }
}

function currentBytes(project: string, fileId: number): Uint8Array {
  return withStore(project, (s) => s.loadEdit(fileId)?.bytes ?? s.loadFileBytes(fileId));
}

interface Opened {
  tmp: string;
  project: string;
  server: BrowserServer;
  page: Page;
}

async function openProject(prefix: string, game: 'kotor' | 'skyrim' | 'source', fill: (store: ProjectStore) => void, problems: string[]): Promise<Opened> {
  const tmp = mkdtempSync(path.join(tmpdir(), prefix));
  const project = path.join(tmp, `${game}.wbproj`);
  const store = ProjectStore.create(project, { name: `Structure ${game}`, game });
  try {
    fill(store);
  } finally {
    store.close();
  }
  const { server, page } = await openProjectPage(project, app.rendererDir, problems, { requests: false }, { browser: app.browser });
  return { tmp, project, server, page };
}

async function closeProject(o: Opened | undefined): Promise<void> {
  await o?.page.close();
  await o?.server.close();
  if (o?.tmp) rmSync(o.tmp, { recursive: true, force: true });
}

describe('KotOR: a layout opens as its assembled area with room names; room links are picked by room name', () => {
  const MODULE = 'm10aa';
  const HUB = 'm10aa_09a';
  const lyt = blackVulkarLyt();
  const docs = new Map<string, BwmDocument>(BLACK_VULKAR_ROOMS.map((n) => [n, readBwm(blackVulkarWok(n))]));
  const hub = BLACK_VULKAR_ROOMS.indexOf(HUB);
  const hubDoc = docs.get(HUB)!;
  const hubMesh = bwmToWalkmesh(hubDoc, HUB);
  // A linked edge of the hub on a face that can be clicked, whose target shares the edge: imported with its link cleared.
  const choices = roomEdgeChoices(areaFromDocuments(lyt, docs), hub);
  const clear = clearFaces(hubMesh);
  const pick = choices.find((c) => c.current >= 0 && c.rooms.includes(c.current) && clear.includes(c.face))!;
  const row = hubDoc.edgeIndex.indexOf(pick.face * 3 + pick.edge);
  const imported: BwmDocument = { ...hubDoc, edgeTransition: hubDoc.edgeTransition.slice() };
  imported.edgeTransition[row] = -1;
  const targetName = lyt.rooms[pick.current]!.name;
  const ids = new Map<string, number>();
  let o: Opened | undefined;
  const problems: string[] = [];
  const ui = pageActions(() => o!.page);

  beforeAll(async () => {
    expect(pick, 'the hub has a linked edge, shared by its target, on a face that can be clicked').toBeDefined();
    o = await openProject('walkbench-e2e-structure-kotor-', 'kotor', (store) => {
      store.upsertFile({ module: MODULE, area: MODULE, name: `${MODULE}.lyt`, kind: 'lyt', bytes: writeLyt(lyt) });
      for (const n of BLACK_VULKAR_ROOMS) {
        const bytes = n === HUB ? writeBwm(imported) : blackVulkarWok(n);
        ids.set(n, store.upsertFile({ module: MODULE, area: MODULE, name: `${n}.wok`, kind: 'walkmesh', format: BWM_FORMAT, bytes }).fileId);
      }
    }, problems);
  }, 120_000);
  afterAll(() => closeProject(o));

  it('opening the LYT shows all 8 rooms placed by the layout, each named by its LYT room name', async () => {
    const page = o!.page;
    const faces = BLACK_VULKAR_ROOMS.reduce((n, r) => n + docs.get(r)!.faces.length / 3, 0);
    await ui.openFromTree(`${MODULE}.lyt`, faces);
    expect(await page.getByTestId('viewport').getAttribute('data-mesh-count')).toBe(String(BLACK_VULKAR_ROOMS.length));
    const file = page.locator('[data-testid="tree-file"][data-file-name="m10aa.lyt"]').locator('xpath=..');
    const names = (await file.getByTestId('tree-child').allTextContents()).map((t) => t.trim());
    expect(names).toEqual(lyt.rooms.map((r, i) => `${r.name} (room ${i})`));
    await page.getByTestId('colour-mode-owner').click();
    // The legend of the room colouring names each room as the layout does.
    const entries = (await page.getByTestId('legend-entry').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(entries).toHaveLength(lyt.rooms.length);
    for (const [i, r] of lyt.rooms.entries()) expect(entries.some((e) => e.startsWith(`${r.name} (room ${i})`))).toBe(true);
    await shot(page, 'kotor-assembled-area');
  });

  it('a room link is set by picking the room name among the rooms that share the edge; undo and redo', async () => {
    const page = o!.page;
    await ui.openFromTree(`${HUB}.wok`, faceCount(hubMesh));
    await page.getByTestId('tool-select').click();
    await ui.clickAt(centroid(hubMesh, pick.face));
    await expect.poll(() => ui.text('inspector-face')).toBe(String(pick.face));
    const edge = page.locator(`[data-testid="room-link-edge"][data-edge="${pick.edge}"]`);
    expect(await edge.getAttribute('data-link')).toBe('');
    const select = edge.getByTestId('room-link-target');
    // Only "no link" and the rooms sharing the edge are offered, by name.
    const offered = (await select.locator('option').allTextContents()).map((t) => t.trim());
    expect(offered).toEqual(['no link', ...pick.rooms.map((r) => `${lyt.rooms[r]!.name} (room ${r})`)]);
    await select.selectOption({ label: `${targetName} (room ${pick.current})` });
    await shot(page, 'kotor-room-link-picker');
    await ui.edited(() => edge.getByTestId('room-link-set').click());
    await expect.poll(() => edge.getAttribute('data-link')).toBe(`to room ${pick.current}`);
    expect((await edge.getByTestId('room-link-label').textContent())?.trim()).toBe(`Edge ${pick.edge}: to ${targetName} (room ${pick.current})`);
    const linkNow = () => {
      const doc = readBwm(currentBytes(o!.project, ids.get(HUB)!));
      return doc.edgeTransition[row];
    };
    expect(linkNow()).toBe(pick.current);
    expect(meshEdgeOfRow(readBwm(currentBytes(o!.project, ids.get(HUB)!)), row, hubMesh)).toEqual({ face: pick.face, edge: pick.edge });
    await ui.undo();
    await expect.poll(() => edge.getAttribute('data-link')).toBe('');
    expect(linkNow()).toBe(-1);
    await ui.redo();
    expect(linkNow()).toBe(pick.current);
    expect(problems).toEqual([]);
  });
});

describe('Skyrim: navmeshes listed by cell in the tree; one cell shown alone', () => {
  const ESP = 'DawnOfTheSilverHand.esp';
  const bytes = readFixture(path.join(fixturesRoot, 'skyrim', ESP));
  const doc = readPlugin(bytes, portableEnvironment);
  const cells = pluginCells(doc);
  const meshes = pluginToWalkmeshes(doc, ESP);
  const cell = cells.find((c) => !c.interior && c.navmeshes.length > 1)!;
  let o: Opened | undefined;
  const problems: string[] = [];
  const ui = pageActions(() => o!.page);

  beforeAll(async () => {
    o = await openProject('walkbench-e2e-structure-skyrim-', 'skyrim', (store) => {
      store.upsertFile({ module: 'plugins', area: 'DawnOfTheSilverHand', name: ESP, kind: 'walkmesh', format: PLUGIN_FORMAT, bytes });
    }, problems);
  }, 120_000);
  afterAll(() => closeProject(o));

  it('lists the 17 navmeshes under their cells by EditorID and grid, and isolates one cell', async () => {
    const page = o!.page;
    await ui.openFromTree(ESP);
    const listed = page.getByTestId('tree-cell');
    await expect.poll(() => listed.count()).toBe(cells.length);
    const labels = await listed.evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')));
    expect(labels).toEqual(cells.map(cellLabel));
    expect(await page.getByTestId('tree-navmesh').count()).toBe(17);
    expect(await page.getByTestId('viewport').getAttribute('data-shown-meshes')).toBe(String(meshes.length));
    const row = page.locator(`[data-testid="tree-cell"][data-cell="${cellLabel(cell)}"]`);
    await row.getByTestId('tree-cell-isolate').click();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-shown-meshes')).toBe(String(cell.navmeshes.length));
    expect((await page.getByTestId('tree-isolated').textContent())?.trim()).toBe(`Showing ${cellLabel(cell)} alone`);
    await shot(page, 'skyrim-cell-isolated');
    // A navmesh alone, then everything again.
    await row.getByTestId('tree-navmesh').first().click();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-shown-meshes')).toBe('1');
    await page.getByTestId('tree-show-all').click();
    await expect.poll(() => page.getByTestId('viewport').getAttribute('data-shown-meshes')).toBe(String(meshes.length));
    expect(problems).toEqual([]);
  });
});

describe('Source: places shown as a view with their names, and painted onto an area', () => {
  const NAV = 'de_shortnuke.nav';
  const bytes = readFixture(path.join(fixturesRoot, 'source', 'csgo', NAV));
  const doc = readNav(bytes);
  const mesh = navToWalkmesh(doc, NAV);
  const names = placeList(doc.places).map((p) => placeName(p));
  // A clickable face whose area's place is not the one painted.
  const PAINT = 1;
  const clear = clearFaces(mesh);
  const face = clear.find((f) => {
    const a = Array.from(doc.areas.id).indexOf(mesh.faceOwner[f]!);
    return a >= 0 && doc.areas.place[a] !== PAINT;
  })!;
  const areaId = mesh.faceOwner[face]!;
  const areaRow = Array.from(doc.areas.id).indexOf(areaId);
  let navId = 0;
  let o: Opened | undefined;
  const problems: string[] = [];
  const ui = pageActions(() => o!.page);

  beforeAll(async () => {
    o = await openProject('walkbench-e2e-structure-source-', 'source', (store) => {
      navId = store.upsertFile({ module: 'csgo', area: 'de_shortnuke', name: NAV, kind: 'walkmesh', format: NAV_FORMAT, bytes }).fileId;
    }, problems);
  }, 120_000);
  afterAll(() => closeProject(o));

  it('lists the map\'s places with area counts, colours faces by place with a named legend', async () => {
    const page = o!.page;
    expect(names.length).toBeGreaterThan(1);
    await ui.openFromTree(NAV, faceCount(mesh));
    const rows = page.getByTestId('place-row');
    await expect.poll(() => rows.count()).toBe(names.length + 1);
    const shown = await rows.evaluateAll((els) => els.map((e) => [e.getAttribute('data-name'), Number(e.getAttribute('data-areas'))]));
    const counts = (p: number) => Array.from(doc.areas.place).filter((v) => v === p).length;
    expect(shown).toEqual([...names.map((n, i) => [n, counts(i + 1)]), ['no place', counts(0)]]);
    await page.getByTestId('places-toggle').check();
    // The colour legend under the viewport now names places.
    const legend = (await page.getByTestId('legend').textContent()) ?? '';
    for (const n of names.filter((_, i) => counts(i + 1) > 0).slice(0, 3)) expect(legend).toContain(n);
    // The legend highlights the colouring shown (places), not the one underneath it.
    const checked = () => page.locator('[data-testid^="colour-mode-"][aria-checked="true"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    await expect.poll(checked).toEqual(['colour-mode-places']);
    // Every place the map uses has its own colour, in the legend and in the Places panel alike.
    const swatches = await page.getByTestId('legend-entry').evaluateAll((els) => els.map((e) => getComputedStyle(e.querySelector('.swatch')!).backgroundColor));
    expect(new Set(swatches).size).toBe(swatches.length);
    const rowSwatches = await rows.evaluateAll((els) => els.map((e) => getComputedStyle(e.querySelector('.swatch')!).backgroundColor));
    expect(new Set(rowSwatches).size).toBe(rowSwatches.length);
    await shot(page, 'source-places');
    // Choosing the colouring already underneath ends the places view; the legend's Places button brings it back.
    await page.getByTestId('colour-mode-walkable').click();
    await expect.poll(checked).toEqual(['colour-mode-walkable']);
    expect(await page.getByTestId('places-toggle').isChecked()).toBe(false);
    await page.getByTestId('colour-mode-places').click();
    await expect.poll(checked).toEqual(['colour-mode-places']);
    expect(await page.getByTestId('places-toggle').isChecked()).toBe(true);
  });

  it('paints a place onto the clicked area: only that area\'s place changes; undo and redo', async () => {
    const page = o!.page;
    await page.getByTestId('tool-select').click();
    await ui.clickAt(centroid(mesh, face));
    await expect.poll(() => ui.text('inspector-face')).toBe(String(face));
    const before = doc.areas.place[areaRow]!;
    expect((await page.getByTestId('place-clicked').textContent())?.trim()).toBe(`Area ${areaId}: ${before === 0 ? 'no place' : names[before - 1]}`);
    await page.locator(`[data-testid="place-row"][data-place="${PAINT}"]`).getByTestId('place-brush').check();
    await ui.edited(() => page.getByTestId('place-paint').click());
    const placesNow = () => readNav(currentBytes(o!.project, navId)).areas.place;
    const after = placesNow();
    expect(after[areaRow]).toBe(PAINT);
    for (let a = 0; a < doc.areas.count; a++) if (a !== areaRow) expect(after[a]).toBe(doc.areas.place[a]);
    await expect.poll(async () => (await page.getByTestId('place-clicked').textContent())?.trim()).toBe(`Area ${areaId}: ${names[PAINT - 1]}`);
    await shot(page, 'source-place-painted');
    await ui.undo();
    expect(placesNow()[areaRow]).toBe(before);
    await ui.redo();
    expect(placesNow()[areaRow]).toBe(PAINT);
    expect(problems).toEqual([]);
  });
});

describe('KotOR: a game folder\'s modules and their rooms browsable in the tree, one added to the project', () => {
  const lyt = blackVulkarLyt();
  let game = '';
  let o: Opened | undefined;
  const problems: string[] = [];
  const ui = pageActions(() => o!.page);

  beforeAll(async () => {
    // A game folder as the game lays it out: chitin.key (naming no BIF here) and modules/ with the module's capsule.
    o = await openProject('walkbench-e2e-structure-gamefolder-', 'kotor', (store) => {
      game = path.join(path.dirname(store.file), 'game');
      mkdirSync(path.join(game, 'Modules'), { recursive: true });
      writeFileSync(path.join(game, 'chitin.key'), buildKey([], []));
      const rim = createRimDocument();
      rim.resources.push({ resRef: 'm10aa', type: KotorResType.LYT, data: writeLyt(lyt) });
      // The last room's walkmesh is left out: the tree says so.
      for (const room of BLACK_VULKAR_ROOMS.slice(0, -1)) rim.resources.push({ resRef: room, type: KotorResType.WOK, data: blackVulkarWok(room) });
      writeFileSync(path.join(game, 'Modules', 'm10aa_s.rim'), writeRim(rim));
      // A second module with no layout.
      writeFileSync(path.join(game, 'Modules', 'm99zz.rim'), writeRim(createRimDocument()));
      store.addGameFolder(game);
    }, problems);
  }, 120_000);
  afterAll(() => closeProject(o));

  it('lists the folder\'s modules, a module\'s rooms by LYT name, and adds the module, which opens as its assembled area', async () => {
    const page = o!.page;
    await page.getByTestId('game-folder-toggle').click();
    const modules = page.getByTestId('game-module');
    await expect.poll(() => modules.evaluateAll((els) => els.map((e) => e.getAttribute('data-module')))).toEqual(['m10aa', 'm99zz']);
    const m10aa = page.locator('[data-testid="game-module"][data-module="m10aa"]');
    await m10aa.getByTestId('game-module-toggle').click();
    const rooms = m10aa.getByTestId('game-module-room');
    await expect.poll(() => rooms.count()).toBe(lyt.rooms.length);
    const texts = (await rooms.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(texts).toEqual(lyt.rooms.map((r, i) => `${r.name} (room ${i})${i === lyt.rooms.length - 1 ? ', no walkmesh' : ''}`));
    const m99 = page.locator('[data-testid="game-module"][data-module="m99zz"]');
    await m99.getByTestId('game-module-toggle').click();
    await expect.poll(async () => (await m99.textContent()) ?? '').toContain('no layout (.lyt) found');
    await shot(page, 'kotor-game-folder-modules');
    await m10aa.getByTestId('game-module-add').click();
    await page.locator('[data-testid="tree-file"][data-file-name="m10aa.lyt"]').waitFor({ timeout: 60_000 });
    const faces = BLACK_VULKAR_ROOMS.slice(0, -1).reduce((n, r) => n + readBwm(blackVulkarWok(r)).faces.length / 3, 0);
    await ui.openFromTree('m10aa.lyt', faces);
    expect(await page.getByTestId('viewport').getAttribute('data-mesh-count')).toBe(String(BLACK_VULKAR_ROOMS.length - 1));
    // The room the layout lists without a walkmesh is named in the report.
    await expect.poll(async () => (await page.getByTestId('findings').textContent()) ?? '').toContain(lyt.rooms[lyt.rooms.length - 1]!.name);
    expect(problems).toEqual([]);
  });
});
