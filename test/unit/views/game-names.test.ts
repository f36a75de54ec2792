import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectDocument, loadDocument } from '../../../shared/formats/inspect-file';
import { readSurfaceMaterials, SURFACE_MATERIAL_LABELS } from '../../../shared/formats/kotor/surface-materials';
import { floatView, KNOWN_TRIANGLE_FLAGS, TriangleFlag } from '../../../shared/formats/nwn2/aswm-document';
import { validateTrx } from '../../../shared/formats/nwn2/trx-validate';
import type { OpenedFile } from '../../../shared/ipc/contract';
import type { GameId } from '../../../shared/model/walkmesh';
import {
  choiceBits, gameValueNames, kotorMaterialNames, rawValue, skyrimCoverName, SWATCHES, valueColour, valueName,
} from '../../../shared/views/game-attribute-names';
import { islandName, ownerName } from '../../../shared/views/game-place-names';
import { colourFaces, MATERIAL_COLOURS } from '../../../renderer/src/viewport/face-colours';
import { faceInfo } from '../../../renderer/src/viewport/face-info';
import { FileViewData } from '../../../renderer/src/viewport/file-view-data';
import { bitState, bitsSummary, chosenLabel, chosenValue, cycleBit, pickValue, type PaintFields } from '../../../renderer/src/tools/paint-fields';
import { infoCommand } from '../../../electron/cli/commands/info-command';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { commandRunner } from '../../support/run-command';
import { loadTrx } from '../nwn2/nwn2-fixtures';

const GAMES: GameId[] = ['kotor', 'nwn2', 'skyrim', 'source'];

function openFixture(rel: string): OpenedFile {
  const file = path.join(fixturesRoot, rel);
  const bytes = readFixture(file);
  const loaded = loadDocument(file, bytes);
  return { name: path.basename(file), path: file, byteLength: bytes.length, report: inspectDocument(file, loaded), walkmeshes: loaded.handler.toWalkmeshes(loaded.document, 'x') };
}

describe('game value names', () => {
  it('names every KotOR surfacemat row, and says "unknown" with the number past the table', () => {
    const names = gameValueNames('kotor');
    SURFACE_MATERIAL_LABELS.forEach((label, row) => {
      expect(valueName(names, row)).toBe(label);
      expect(rawValue(names, row)).toBe(String(row));
    });
    expect(valueName(names, 4)).toBe('Stone');
    expect(valueName(names, 99)).toBe('unknown material 99');
  });

  it("takes a project's own surfacemat.2da labels when it has one", () => {
    const text = '2DA V2.0\n\n   label       Walk\n0  Undefined   0\n1  Gravel      1\n2  Ice         1\n';
    const table = readSurfaceMaterials(new TextEncoder().encode(text), 'surfacemat.2da');
    const names = kotorMaterialNames(table.labels, table.source);
    expect(names.choices.map((c) => c.name)).toEqual(['Undefined', 'Gravel', 'Ice']);
    expect(valueName(names, 2)).toBe('Ice');
    expect(valueName(names, 3)).toBe('unknown material 3');
    expect(names.source).toBe('surfacemat.2da');
  });

  it('names every NWN2 flag bit the spec knows, materials first, and shows unknown bits raw', () => {
    const names = gameValueNames('nwn2');
    let covered = 0;
    for (const b of names.bits) covered |= b.value;
    expect(covered).toBe(KNOWN_TRIANGLE_FLAGS);
    expect(valueName(names, TriangleFlag.walkable | TriangleFlag.stone)).toBe('Stone, walkable');
    // The winding bit is the format's business: in the raw value only.
    expect(valueName(names, TriangleFlag.walkable | TriangleFlag.clockwise | TriangleFlag.wood)).toBe('Wood, walkable');
    expect(rawValue(names, 0x41)).toBe('0x41');
    expect(valueName(names, 0x4000 | TriangleFlag.walkable)).toBe('walkable, unknown 0x4000');
    expect(valueName(names, 0)).toBe('not walkable');
    expect(valueName(names, TriangleFlag.clockwise | TriangleFlag.stone)).toBe('Stone, not walkable');
    // Choosing Stone sets its bit and clears every other surface.
    const { setBits, clearBits } = choiceBits(names, TriangleFlag.stone);
    expect(setBits).toBe(TriangleFlag.stone);
    expect(clearBits & TriangleFlag.wood).toBe(TriangleFlag.wood);
    expect(clearBits & (TriangleFlag.stone | TriangleFlag.walkable)).toBe(0);
  });

  it('names the Skyrim triangle flags and cover words of the spec', () => {
    const names = gameValueNames('skyrim');
    expect(valueName(names, 0x840)).toBe('preferred');
    expect(valueName(names, 0xc00)).toBe('door');
    expect(valueName(names, 0x210 | 0x800)).toBe('no large creatures, water');
    expect(valueName(names, 0x800)).toBe('no flags');
    expect(valueName(names, 0x1000)).toBe('unknown 0x1000');
    expect(skyrimCoverName(0)).toBe('no cover');
    expect(skyrimCoverName(0x4000)).toBe('no cover (autogen marker)');
    // Edge 0-1 ledge cover on the left; edge 1-2 a covered wall of height 64 + 11·16 = 240 (max) on the right.
    expect(skyrimCoverName(0x2 | 0x10 | (15 << 6) | 0x800)).toBe('edge 0-1: ledge cover, left; edge 1-2: wall cover 240 (max), right');
  });

  it('names the Source area attributes of NavAttributeType', () => {
    const names = gameValueNames('source');
    const expected = ['crouch', 'jump', 'precise', 'no jump', 'stop', 'run', 'walk', 'avoid', 'transient', "don't hide", 'stand', 'no hostages', 'stairs', 'no merge', 'obstacle top', 'cliff'];
    expected.forEach((name, i) => expect(valueName(names, 1 << i)).toBe(name));
    expect(valueName(names, 0x1 | 0x2)).toBe('crouch, jump');
    expect(valueName(names, 0)).toBe('no attributes');
    expect(valueName(names, 0x20000)).toBe('game-specific 0x20000');
    // CS:GO files carry runtime bits: NAV_BLOCKER stays in the raw value; 0x10000000 has no documented name.
    expect(valueName(names, 0x80000000 | 0x8)).toBe('no jump');
    expect(valueName(names, 0x90000000 | 0x8)).toBe('no jump, unknown 0x10000000');
    expect(rawValue(names, 0x90000008)).toBe('0x90000008');
    expect(valueName(names, 0x08000000)).toBe('unknown 0x8000000');
  });

  it('gives every value a colour of the checked material palette', () => {
    const palette = new Set(MATERIAL_COLOURS.map((c) => c.join()));
    for (const c of Object.values(SWATCHES)) expect(palette.has(c.join())).toBe(true);
    for (const game of GAMES) {
      const names = gameValueNames(game);
      for (let v = 0; v < 0x10000; v += 7) expect(palette.has(valueColour(names, v).join()), `${game} ${v}`).toBe(true);
    }
    // Designers' expectations: water is blue, grass green, and NWN2 unwalkable reads as blocked.
    expect(valueColour(gameValueNames('kotor'), 6)).toEqual(SWATCHES.blue);
    expect(valueColour(gameValueNames('nwn2'), TriangleFlag.walkable | TriangleFlag.grass)).toEqual(SWATCHES.green);
    expect(valueColour(gameValueNames('nwn2'), TriangleFlag.grass)).toEqual(SWATCHES.vermilion);
  });
});

describe('paint pickers write the raw fields', () => {
  const empty: PaintFields = { material: '', setBits: '', clearBits: '' };

  it('picks a KotOR material by name into the material field', () => {
    const names = gameValueNames('kotor');
    const f = pickValue(names, empty, 4);
    expect(f.material).toBe('4');
    expect(chosenValue(names, f)).toBe(4);
    expect(chosenLabel(names, f)).toBe('Stone (4)');
    expect(chosenLabel(names, pickValue(names, f, null))).toBe('keep');
  });

  it('picks an NWN2 surface as set and clear masks and reads it back, keeping other bits', () => {
    const names = gameValueNames('nwn2');
    const withWalk = cycleBit(empty, TriangleFlag.walkable);
    const f = pickValue(names, withWalk, TriangleFlag.stone);
    expect(Number(f.setBits)).toBe(TriangleFlag.stone | TriangleFlag.walkable);
    expect(Number(f.clearBits)).toBe(choiceBits(names, TriangleFlag.stone).clearBits);
    expect(chosenValue(names, f)).toBe(TriangleFlag.stone);
    expect(chosenLabel(names, f)).toBe('Stone');
    // A typed mask that sets two surfaces is no single choice.
    expect(chosenValue(names, { ...f, setBits: '0x60' })).toBeNull();
  });

  it('cycles a flag chip keep, set, clear, keep and summarises by name', () => {
    const names = gameValueNames('source');
    let f = cycleBit(empty, 0x1);
    expect(bitState(f, 0x1)).toBe('set');
    f = cycleBit(f, 0x2);
    f = cycleBit(f, 0x2);
    expect(bitState(f, 0x2)).toBe('clear');
    expect(f).toEqual({ material: '', setBits: '0x1', clearBits: '0x2' });
    expect(bitsSummary(names, f)).toBe('+crouch −jump');
    expect(bitState(cycleBit(f, 0x2), 0x2)).toBe('keep');
    expect(bitsSummary(names, empty)).toBe('keep');
  });
});

describe('one naming of tiles and islands', () => {
  it('names the same NWN2 face alike in the hover, the legend and a finding', () => {
    const rel = 'mordmansion/CSLMordMansion.TRX';
    const file = openFixture(`nwn2/${rel}`);
    const mesh = file.walkmeshes[0]!;
    expect(mesh.tileGridWidth).toBeGreaterThan(0);
    // The fullest tile is first in the owner legend.
    const counts = new Map<number, number>();
    for (const o of mesh.faceOwner) counts.set(o, (counts.get(o) ?? 0) + 1);
    const [tile] = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]!;
    const face = mesh.faceOwner.indexOf(tile);
    const islands = new FileViewData(file).islandIds();
    const info = faceInfo(mesh, face, islands[0])!;
    const w = mesh.tileGridWidth!;
    expect(info.owner).toBe(`tile ${tile % w},${Math.floor(tile / w)}`);
    const legend = colourFaces(file.walkmeshes, 'owner').legend;
    expect(legend[0]!.label).toBe(info.owner);
    // A finding about that triangle's tile: move its stored centre out of the tile.
    const { doc, aswm } = loadTrx(rel);
    floatView(aswm.aswm.triCentre)[face * 2] = -1e6;
    const finding = validateTrx(doc).find((f) => f.code === 'nwn2.triangle.outside-tile' && f.message.startsWith(`triangle ${face}'s`));
    expect(finding?.message).toContain(`outside ${info.owner} that stores it`);
    // Islands: the legend's entry and the hover say the same rank.
    const walkable = mesh.faceWalkable.indexOf(1);
    const islandLegend = colourFaces(file.walkmeshes, 'island', islands).legend.map((e) => e.label);
    const hoverIsland = faceInfo(mesh, walkable, islands[0])!.island;
    expect(hoverIsland).toBe(islandName(islands[0]![walkable]!));
    if (islands[0]![walkable]! < 12) expect(islandLegend).toContain(hoverIsland);
    expect(islandLegend[0]).toBe('island #1');
  });

  it('names owners per game and says "unknown" for nothing', () => {
    expect(ownerName({ game: 'nwn2', tileGridWidth: 8 }, 83)).toBe('tile 3,10');
    expect(ownerName({ game: 'source' }, 1042)).toBe('area 1042');
    expect(ownerName({ game: 'kotor' }, 3)).toBe('room 3');
    expect(islandName(-1)).toBe('no island (not walkable)');
    expect(islandName(0)).toBe('island #1');
  });

  it('names materials in the legend as the hover does, with the raw value kept for experts', () => {
    const file = openFixture('kotor/k1-blackvulkar/m10aa_03a.wok');
    const mesh = file.walkmeshes[0]!;
    const legend = colourFaces(file.walkmeshes, 'material').legend;
    const info = faceInfo(mesh, 39, undefined)!;
    const entry = legend.find((e) => e.raw === info.raw);
    expect(entry?.label).toBe(info.material);
    expect(legend.every((e) => !/0x/.test(e.label))).toBe(true);
  });
});

describe('the command line speaks the same names', () => {
  const run = commandRunner(infoCommand);

  it('walkbench info --names lists faces per material, flags or attributes by name, raw value beside', async () => {
    const wok = path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_03a.wok');
    const trx = path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.TRX');
    const r = await run('--names', wok, trx);
    expect(r.status).toBe(0);
    const kotor = openFixture('kotor/k1-blackvulkar/m10aa_03a.wok').walkmeshes[0]!;
    const names = gameValueNames('kotor');
    const first = kotor.faceMaterial[0]!;
    const faces = kotor.faceMaterial.filter((v) => v === first).length;
    expect(r.out).toContain(`faces by material: `);
    expect(r.out).toContain(`${valueName(names, first)} ${faces} (${first})`);
    expect(r.out).toMatch(/faces by flags: .*Stone, walkable \d+ \(0x25\)/);
    const j = await run('--names', '--json', wok);
    const parsed = JSON.parse(j.out) as { names: { noun: string; values: { name: string; raw: string; faces: number }[] }[] }[];
    const values = parsed[0]!.names[0]!.values;
    expect(values.reduce((n, v) => n + v.faces, 0)).toBe(kotor.faceMaterial.length);
    expect(values.find((v) => v.raw === String(first))?.name).toBe(valueName(names, first));
  });
});

describe('the legend reads as the game names values', () => {
  it('merges Skyrim values that differ only in edge-link bits into one named entry', () => {
    const file = openFixture('skyrim/DwemerSecrets.esp');
    const legend = colourFaces(file.walkmeshes, 'material').legend;
    const labels = legend.map((e) => e.label);
    expect(new Set(labels).size).toBe(labels.length);
    const names = gameValueNames('skyrim');
    const byName = new Map<string, number>();
    for (const m of file.walkmeshes) for (const v of m.faceMaterial) byName.set(valueName(names, v), (byName.get(valueName(names, v)) ?? 0) + 1);
    for (const e of legend) if (!/ other values$/.test(e.label)) expect(e.faces, e.label).toBe(byName.get(e.label));
    // Every stored value behind an entry is listed for experts.
    for (const e of legend) for (const raw of e.raw?.split(', ') ?? []) expect(valueName(names, Number(raw))).toBe(e.label);
  });
});
