import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTwoDaText } from '../../../shared/formats/aurora/twoda-text';
import { TriangleFlag } from '../../../shared/formats/nwn2/aswm-document';
import { nwn2BakedIslandName } from '../../../shared/formats/nwn2/tile-name';
import { validateTrx } from '../../../shared/formats/nwn2/trx-validate';
import { inspectDocument, loadDocument } from '../../../shared/formats/inspect-file';
import type { OpenedFile } from '../../../shared/ipc/contract';
import {
  gameValueNames, nwn2TerrainMaterialNames, projectValueNames, SKYRIM_COVER_TYPES, skyrimCoverEdges, skyrimCoverName, skyrimCoverWord, valueName,
} from '../../../shared/views/game-attribute-names';
import { documentStructure } from '../../../shared/views/game-structure';
import { colourFaces } from '../../../renderer/src/viewport/face-colours';
import { faceInfo } from '../../../renderer/src/viewport/face-info';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { loadTrx } from '../nwn2/nwn2-fixtures';

/** terrainmaterials.2da's (Terrain, Material) rows, as the project service sends them. */
function terrainRows(): [string, string][] {
  const t = readTwoDaText(readFixture(path.join(fixturesRoot, 'nwn2/2da/terrainmaterials.2da')));
  const rows: [string, string][] = [];
  for (let r = 0; r < t.rowCount; r++) {
    const a = t.cell(r, 'Terrain');
    const b = t.cell(r, 'Material');
    if (a !== undefined && b !== undefined) rows.push([a, b]);
  }
  return rows;
}

describe("the game's own tables name the pickers", () => {
  it('NWN2: terrainmaterials.2da orders the surfaces and lists the terrain textures of each', () => {
    const rows = terrainRows();
    expect(rows.length).toBeGreaterThan(100);
    const names = nwn2TerrainMaterialNames(rows, 'terrainmaterials.2da (project)');
    expect(names.source).toBe('terrainmaterials.2da (project)');
    // The first row is TT_GD_Dirt_01 → Dirt: Dirt comes first and names its textures.
    expect(names.choices[0]!.name).toBe('Dirt');
    expect(names.choices[0]!.value).toBe(TriangleFlag.dirt);
    const dirtRows = rows.filter(([, m]) => m.toLowerCase() === 'dirt').length;
    expect(names.choices[0]!.detail).toMatch(new RegExp(`^${dirtRows} terrain textures: TT_GD_Dirt_01, TT_GD_Dirt_02, TT_GD_Dirt_03, …$`));
    // Every built-in surface stays pickable, once; the bits still include walkable.
    expect(names.choices.map((c) => c.value).sort((a, b) => a - b)).toEqual(gameValueNames('nwn2').choices.map((c) => c.value).sort((a, b) => a - b));
    expect(names.bits.some((b) => b.name === 'walkable')).toBe(true);
    // Values read alike with either table.
    expect(valueName(names, TriangleFlag.walkable | TriangleFlag.stone)).toBe(valueName(gameValueNames('nwn2'), TriangleFlag.walkable | TriangleFlag.stone));
    // "Rock" is the stone bit; a material without a bit is reported, not guessed.
    const odd = nwn2TerrainMaterialNames([['TT_A', 'Rock'], ['TT_B', 'Lava']], 'x');
    expect(odd.choices[0]!.value).toBe(TriangleFlag.stone);
    expect(odd.unmatched).toEqual(['Lava']);
  });

  it("KotOR: a project's surfacemat labels name the picker, hover and legend; without tables the defaults", () => {
    const file = path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_03a.wok');
    const loaded = loadDocument(file, readFixture(file));
    const mesh = loaded.handler.toWalkmeshes(loaded.document, 'room')[0]!;
    const row = mesh.faceMaterial[0]!;
    const labels = gameValueNames('kotor').choices.map((c) => c.name);
    labels[row] = 'Flagstone';
    const tables = { kotorSurfacemat: { labels, source: 'surfacemat.2da (project, module m10aa)' } };
    const names = projectValueNames('kotor', tables);
    expect(names.choices[row]!.name).toBe('Flagstone');
    expect(names.source).toBe('surfacemat.2da (project, module m10aa)');
    expect(projectValueNames('kotor', undefined)).toBe(gameValueNames('kotor'));
    expect(faceInfo(mesh, 0, undefined, [mesh], { tables })!.material).toBe('Flagstone');
    expect(faceInfo(mesh, 0, undefined, [mesh])!.material).toBe(gameValueNames('kotor').choices[row]!.name);
    expect(colourFaces([mesh], 'material', [], tables).legend.map((e) => e.label)).toContain('Flagstone');
  });
});

describe('Skyrim cover by name', () => {
  it('splits and rebuilds every cover word of two edges, keeping the Autogen marker', () => {
    for (let w = 0; w <= 0xffff; w += 7) {
      const { edges, other } = skyrimCoverEdges(w);
      expect(skyrimCoverWord(edges, other)).toBe(w & 0xffff & ~0x3000 | (w & 0x3000));
    }
    // Edge 0-1 a wall cover of height 128 (type 8) on the left; edge 1-2 ledge cover on the right.
    const w = skyrimCoverWord([{ type: 8, left: true, right: false }, { type: 2, left: false, right: true }], 0x4000);
    expect(w).toBe(0x8 | 0x10 | (2 << 6) | 0x800 | 0x4000);
    expect(skyrimCoverName(w)).toBe('edge 0-1: wall cover 128, left; edge 1-2: ledge cover, right');
    // The picker offers every type but the unused 3, named as the name function names them.
    expect(SKYRIM_COVER_TYPES.map((t) => t.value)).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(SKYRIM_COVER_TYPES.at(-1)!.name).toBe('wall cover 240 (max)');
    expect(skyrimCoverName(skyrimCoverWord([{ type: 15, left: true, right: true }, { type: 0, left: false, right: false }]))).toBe('edge 0-1: wall cover 240 (max), left and right');
  });
});

describe('NWN2 stored islands: one name in messages, hover and inspector', () => {
  it('names a triangle\'s stored island as the validator and the path messages do', () => {
    const rel = 'nwn2/mordmansion/CSLMordMansion.TRX';
    const file = path.join(fixturesRoot, rel);
    const bytes = readFixture(file);
    const loaded = loadDocument(file, bytes);
    const mesh = loaded.handler.toWalkmeshes(loaded.document, 'x')[0]!;
    const structure = documentStructure(loaded.handler.id, loaded.document)!;
    const stored = structure.bakedIslands!.faceIsland;
    expect(stored.length).toBe(mesh.faceWalkable.length);
    const t = stored.findIndex((v) => v !== 0xffff && v > 0);
    expect(t).toBeGreaterThanOrEqual(0);
    const opened: OpenedFile = { name: 'x', path: file, byteLength: bytes.length, report: inspectDocument(file, loaded), walkmeshes: [mesh], structure };
    const info = faceInfo(mesh, t, undefined, opened.walkmeshes, opened.structure)!;
    expect(info.bakedIsland).toBe(`baked island ${stored[t]}`);
    expect(nwn2BakedIslandName(0xffff)).toBe('no baked island');
    // A finding about that island names it the same way.
    const { doc, aswm } = loadTrx('mordmansion/CSLMordMansion.TRX');
    aswm.aswm.islands.index[stored[t]!] = 9999;
    const finding = validateTrx(doc).find((f) => f.code === 'nwn2.island.index');
    expect(finding?.message.startsWith(`${info.bakedIsland} says its index is 9999`)).toBe(true);
    // Other games have no stored islands.
    expect(faceInfo({ ...mesh, game: 'kotor' }, t, undefined)!.bakedIsland).toBeNull();
  });
});
