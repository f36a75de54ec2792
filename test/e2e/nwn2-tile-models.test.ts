import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserServer } from '../../electron/services/browser-server';
import { ProjectStore } from '../../electron/services/project/project-store';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import { readAreTiles } from '../../shared/formats/aurora/nwn2-are';
import { readGitPlaceables } from '../../shared/formats/aurora/nwn2-git';
import { readTwoDaText } from '../../shared/formats/aurora/twoda-text';
import { TRX_FORMAT } from '../../shared/formats/nwn2/trx-document';
import { openProjectPage } from '../support/browser-app';
import { browserSuite } from '../support/browser-suite';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { rigidMdb, tilesTwoDa, type RigidMeshInput } from '../support/nwn2-tile-files';
import { pageActions } from '../support/page-actions';
import { writeZip } from '../support/zip-writer';

/**
 * Issue 19: an NWN2 interior's tile models drawn under its walkmesh in the app. The area is
 * a real one (Kaedrin's "enter world": 16 tiles of 9 m, a room of 3 × 4 tiles whose walkmesh
 * stops 1 m short of the room's outer tile edges, and a column of 4 unwalkable tiles east of
 * it); the install is generated: Data/2DA.zip holds a tiles.2da naming row r `tl_SI_R<r>_01`
 * and the fixtures' placeables.2da, Data/NWN2_Models.zip the tile and placeable MDBs.
 *
 * Each tile model is a floor slab over its 9 m cell plus 0.6 m thick, 3 m high walls on the
 * sides (in model space) where that tile type's walkmesh ends, read off the walkmesh of the
 * type's tile at Orientation 0 (row 16 has none: it is the south-east corner, Orientation 1,
 * its door opening east), so in a screenshot each turned tile's walls must stand on the
 * room's edges where the walkmesh stops. The centre tiles' model (row 38) is left out and
 * must be listed as not shown. Triangle counts are computed here from the ARE's tile list and
 * the generated models, not read from the page. With `WALKBENCH_SCREENSHOTS=DIR` the
 * screenshots are written there.
 */
const app = browserSuite('walkbench-e2e-nwn2-tile-models-renderer-');
const shotsDir = process.env['WALKBENCH_SCREENSHOTS'];
const DIR = path.join(fixturesRoot, 'nwn2/kaedrin');
const AREA = 'enter world';
const TILE = 9;
const HALF = TILE / 2;
const WALL_HIGH = 3;
/**
 * The walls' inner face 0.6 m in from the tile edge: the area's wall signs hang at 0.72 to
 * 0.80 m from the west edge, and its walkmesh stops 1 m from the room's outer tile edges.
 */
const WALL_THICK = 0.6;

/** An axis-aligned box without its bottom: 5 quads, 10 triangles, faces outwards. */
function box(x0: number, x1: number, y0: number, y1: number, z0: number, z1: number): { positions: number[]; faces: number[] } {
  const positions = [x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0, x0, y0, z1, x1, y0, z1, x1, y1, z1, x0, y1, z1];
  const quads = [[4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]];
  return { positions, faces: quads.flatMap(([a, b, c, d]) => [a!, b!, c!, a!, c!, d!]) };
}

function merged(name: string, parts: readonly { positions: number[]; faces: number[] }[]): RigidMeshInput {
  const positions: number[] = [];
  const faces: number[] = [];
  for (const p of parts) {
    const base = positions.length / 3;
    positions.push(...p.positions);
    faces.push(...p.faces.map((f) => f + base));
  }
  return { name, positions, faces };
}

type Side = 'N' | 'E' | 'S' | 'W';
/** A wall along one side of the cell, inside it (model space: +y north, +x east). */
function wall(side: Side, from = -HALF, to = HALF): { positions: number[]; faces: number[] } {
  const inner = HALF - WALL_THICK;
  switch (side) {
    case 'N': return box(from, to, inner, HALF, 0, WALL_HIGH);
    case 'S': return box(from, to, -HALF, -inner, 0, WALL_HIGH);
    case 'E': return box(inner, HALF, from, to, 0, WALL_HIGH);
    case 'W': return box(-HALF, -inner, from, to, 0, WALL_HIGH);
  }
}

/** A tile model: its floor (name ending `_F`, which the game leaves unturned) and its walls. */
function tileMeshes(model: string, walls: readonly { positions: number[]; faces: number[] }[]): RigidMeshInput[] {
  const floor: RigidMeshInput = { name: `${model.toUpperCase()}_F`, positions: [-HALF, -HALF, 0, HALF, -HALF, 0, HALF, HALF, 0, -HALF, HALF, 0], faces: [0, 1, 2, 0, 2, 3] };
  return walls.length > 0 ? [floor, merged(`${model.toUpperCase()}_W01`, walls)] : [floor];
}

/** The tile types of the area (tiles.2da rows) and their walls in model space. */
const TILE_WALLS: Record<number, { positions: number[]; faces: number[] }[]> = {
  35: [wall('N'), wall('W')], // a corner: at Orientation 0 the room's north-west one
  37: [wall('N')], // an edge: at Orientation 0 the room's north edge
  38: [], // the centre (left out of the install)
  39: [], // the unwalkable column east of the room: floor only
  16: [wall('N', -HALF, -1), wall('N', 1, HALF), wall('E')], // the south-east corner at Orientation 1: a door 2 m wide in the wall turned to the east
};
const LEFT_OUT = 38;
const modelName = (row: number, variation: number) => `tl_SI_R${row}_${String(variation + 1).padStart(2, '0')}`;

/** Placeable models (placeables.2da `NWN2_ModelName`) given to the install; the area's others stay missing. */
const PLACEABLE_MESHES: Record<string, RigidMeshInput[]> = {
  PLC_MR_BNCH02: [merged('PLC_MR_BNCH02_SEAT', [box(-0.9, 0.9, -0.25, 0.25, 0, 0.45)])],
  PLC_MC_SIGN07: [merged('PLC_MC_SIGN07_BOARD', [box(-0.5, 0.5, -0.05, 0.05, 1.8, 2.4), box(-0.05, 0.05, -0.05, 0.05, 2.4, 2.8)])],
  PLC_MC_SIGN12: [merged('PLC_MC_SIGN12_BOARD', [box(-0.6, 0.6, -0.05, 0.05, 1.8, 2.5)])],
};

const triangleCount = (meshes: readonly RigidMeshInput[]) => meshes.reduce((n, m) => n + m.faces.length / 3, 0);

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const png = await page.screenshot();
  expect(png.byteLength).toBeGreaterThan(10_000);
  if (shotsDir) {
    mkdirSync(shotsDir, { recursive: true });
    writeFileSync(path.join(shotsDir, `${name}.png`), png);
  }
}

describe('NWN2: an interior\'s tile models from the install, placed by its ARE, under its walkmesh', () => {
  const tiles = readAreTiles(readGff(readFixture(path.join(DIR, `${AREA}.ARE`))));
  const placeables = readGitPlaceables(readGff(readFixture(path.join(DIR, `${AREA}.GIT`))));
  const placeablesTable = readFixture(path.join(fixturesRoot, 'nwn2/2da/placeables.2da'));
  const placeablesRows = readTwoDaText(placeablesTable);
  const placeableModel = (appearance: number) => placeablesRows.cell(appearance, 'NWN2_ModelName')?.trim() ?? '';
  let tmp = '';
  let server: BrowserServer | undefined;
  let page: Page | undefined;
  const problems: string[] = [];
  const ui = pageActions(() => page!);

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-e2e-nwn2-tile-models-'));
    const install = path.join(tmp, 'Neverwinter Nights 2');
    mkdirSync(path.join(install, 'Data'), { recursive: true });
    const rows = Math.max(...tiles.map((t) => t.appearance)) + 1;
    writeFileSync(path.join(install, 'Data', '2DA.zip'), writeZip([
      { name: '2DA/tiles.2da', data: tilesTwoDa(Array.from({ length: rows }, (_, r) => ({ tileSet: 'SI', tileType: `R${r}` }))) },
      { name: '2DA/placeables.2da', data: placeablesTable },
    ]));
    const models = [...new Set(tiles.map((t) => t.appearance))].filter((r) => r !== LEFT_OUT).map((r) => ({ name: `NWN2_Models/${modelName(r, 0).toUpperCase()}.MDB`, data: rigidMdb(tileMeshes(modelName(r, 0), TILE_WALLS[r]!)) }));
    for (const [n, meshes] of Object.entries(PLACEABLE_MESHES)) models.push({ name: `NWN2_Models/${n}.MDB`, data: rigidMdb(meshes) });
    writeFileSync(path.join(install, 'Data', 'NWN2_Models.zip'), writeZip(models));
    const project = path.join(tmp, 'nwn2.wbproj');
    const store = ProjectStore.create(project, { name: 'Tile models', game: 'nwn2' });
    try {
      store.addGameFolder(install);
      const MODULE = 'kaedrin';
      store.upsertFile({ module: MODULE, area: AREA, name: `${AREA}.ARE`, kind: 'are', bytes: readFixture(path.join(DIR, `${AREA}.ARE`)) });
      store.upsertFile({ module: MODULE, area: AREA, name: `${AREA}.trn`, kind: 'trn', format: TRX_FORMAT, bytes: readFixture(path.join(DIR, `${AREA}.trn`)) });
      store.upsertFile({ module: MODULE, area: AREA, name: `${AREA}.trx`, kind: 'walkmesh', format: TRX_FORMAT, bytes: readFixture(path.join(DIR, `${AREA}.trx`)) });
      store.upsertFile({ module: MODULE, area: AREA, name: `${AREA}.GIT`, kind: 'git', format: null, bytes: readFixture(path.join(DIR, `${AREA}.GIT`)) });
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

  it('shows the tile models and the placeables\' models with their triangle counts, and names the tile model left out', async () => {
    const p = page!;
    // Every tile of the area is of a type modelled above (the test knows the area it draws).
    expect(tiles.every((t) => t.metaTile === 0 && t.variation === 0 && t.appearance in TILE_WALLS)).toBe(true);
    const drawnTiles = tiles.filter((t) => t.appearance !== LEFT_OUT);
    const leftOut = tiles.length - drawnTiles.length;
    expect(leftOut).toBeGreaterThan(0);
    const roomTriangles = drawnTiles.reduce((n, t) => n + triangleCount(tileMeshes(modelName(t.appearance, 0), TILE_WALLS[t.appearance]!)), 0);
    const shownPlaceables = placeables.filter((q) => placeableModel(q.appearance) in PLACEABLE_MESHES);
    const modelTriangles = shownPlaceables.reduce((n, q) => n + triangleCount(PLACEABLE_MESHES[placeableModel(q.appearance)]!), 0);
    expect(shownPlaceables.length).toBeGreaterThan(0);
    expect(shownPlaceables.length).toBeLessThan(placeables.length);

    await ui.openFromTree(`${AREA}.trx`);
    const view = p.getByTestId('view-level-context');
    await expect.poll(() => view.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
    const entries = await p.getByTestId('level-context-legend-entry').evaluateAll((els) => els.map((e) => ({ kind: e.getAttribute('data-kind'), triangles: Number(e.getAttribute('data-triangles')), label: (e as HTMLElement).innerText.replace(/\s+/g, ' ').trim(), title: e.getAttribute('title') })));
    expect(entries.map((e) => [e.kind, e.triangles])).toEqual([['room', roomTriangles], ['model', modelTriangles]]);
    const room = entries.find((e) => e.kind === 'room')!;
    expect(room.label).toBe(`Room models ${roomTriangles.toLocaleString('en-US')} triangles`);
    expect(room.title).toBe(`${drawnTiles.length} pieces`);
    expect(entries.find((e) => e.kind === 'model')!.title).toBe(`${shownPlaceables.length} pieces`);
    await expect.poll(() => p.getByTestId('viewport').getAttribute('data-context-triangles'), { timeout: 30_000 }).toBe(String(roomTriangles + modelTriangles));
    expect(await p.getByTestId('level-context-legend').getAttribute('data-total')).toBe(String(roomTriangles + modelTriangles));

    const gaps = (await p.getByTestId('level-context-gap').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(gaps).toContain(`${modelName(LEFT_OUT, 0)}.mdb: ${leftOut} tiles of ${AREA}.ARE use it; not in the project or its game folders`);
    // No other tile is listed: every other tile model was found in the install.
    expect(gaps.filter((g) => /^tl_|tiles? of /i.test(g))).toHaveLength(1);
    // The placeables whose models the install lacks are listed by model.
    const missingPlaceables = new Set(placeables.map((q) => placeableModel(q.appearance)).filter((n) => !(n in PLACEABLE_MESHES)));
    for (const n of missingPlaceables) expect(gaps.some((g) => g.startsWith(`${n}.mdb:`)), n).toBe(true);
    const sources = await p.getByTestId('level-context-sources').getAttribute('title');
    expect(sources).toContain(`kaedrin/${AREA}.ARE (${tiles.length} interior tiles, by tiles.2da)`);

    await view.scrollIntoViewIfNeeded();
    await p.getByTestId('frame-all').click();
    await shot(p, 'nwn2-enter-world-tiles-oblique');
    await p.getByTestId('top-view').click();
    await shot(p, 'nwn2-enter-world-tiles-top');
    await p.getByTestId('xray-toggle').check();
    await shot(p, 'nwn2-enter-world-tiles-top-xray');
    await p.getByTestId('xray-toggle').uncheck();
    // Close up on the south-east corner tile (row 16, turned once): its door opening is in the east wall, where the GIT's door stands.
    const door = await ui.screenOf([27, 4.5, 0]);
    await p.mouse.move(door.x, door.y);
    for (let i = 0; i < 6; i++) await p.mouse.wheel(0, -240);
    await shot(p, 'nwn2-enter-world-tiles-door-corner');
    expect(problems).toEqual([]);
  }, 180_000);
});
