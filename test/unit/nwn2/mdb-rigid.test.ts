import { describe, expect, it } from 'vitest';
import { applyPlaceables } from '../../../shared/bakers/nwn2/placeable-walkmesh';
import { nwn2PlacedModelPieces, nwn2TileModelPieces, placeableModelNameIn } from '../../../shared/bakers/nwn2/nwn2-model-context';
import { PLACEABLE_SOURCE, type TrnSurface } from '../../../shared/bakers/nwn2/trn-surface';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { readAreTiles } from '../../../shared/formats/aurora/nwn2-are';
import { readGitDoors, readGitPlaceables } from '../../../shared/formats/aurora/nwn2-git';
import { doorModelName } from '../../../shared/bakers/nwn2/door-walkmesh';
import { readTwoDaText } from '../../../shared/formats/aurora/twoda-text';
import { readMdbWalkmeshes } from '../../../shared/formats/nwn2/mdb-reader';
import { mdbMeshes } from '../../../shared/formats/nwn2/mdb-rigid';
import { checkLevelContextPiece } from '../../../shared/model/level-context';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import { fixture } from './nwn2-fixtures';

const balcony = () => readFixture(fixture('nwn-lib-d/PLC_MC_BALCONY3.MDB'));

describe('NWN2 MDB meshes (RIGD, SKIN, COL2, COL3)', () => {
  // Counts as the packet headers give them; each payload is exactly header + vertices + faces.
  const expected: Record<string, string[]> = {
    'PLC_MC_BALCONY3.MDB': ['RIGD PLC_MC_BALCONY3 1783/847', 'COL2 PLC_MC_BALCONY3_C2 120/60', 'COL3 PLC_MC_BALCONY3_C3 61/49'],
    'plc_cus_cliffcc_01.MDB': ['COL3 PLC_CUS_CLIFFCC_01_C3 16/12', 'RIGD PLC_CUS_CLIFFCC_01 202/342', 'COL2 PLC_CUS_CLIFFCC_01_C2 24/12'],
    'plc_cus_cliffcv_01.MDB': ['RIGD PLC_CUS_CLIFFCV_01_03 18/14', 'COL2 PLC_CUS_CLIFFCV_01_C2 24/12', 'RIGD PLC_CUS_CLIFFCV_01 202/342'],
    'plc_cus_cliffst_01.MDB': ['COL2 PLC_CUS_CLIFFST_01_C2 24/12', 'COL3 PLC_CUS_CLIFFST_01_C3 4/2', 'RIGD PLC_CUS_CLIFFST_01 414/696'],
  };
  for (const file of listFixtures('nwn2', ['.mdb'])) {
    const base = fixtureName(file).split('/').pop()!;
    it(`reads the meshes of ${fixtureName(file)}`, () => {
      const meshes = mdbMeshes(readFixture(file));
      if (expected[base]) expect(meshes.map((m) => `${m.kind} ${m.name} ${m.positions.length / 3}/${m.faces.length / 3}`)).toEqual(expected[base]);
      for (const m of meshes) {
        expect(m.positions.every(Number.isFinite)).toBe(true);
        for (const v of m.faces) expect(v).toBeLessThan(m.positions.length / 3);
      }
    });
  }

  it('refuses a face count past the packet, with the file offset', () => {
    const bytes = balcony().slice();
    const dv = new DataView(bytes.buffer);
    // The first packet (RIGD): table entry 0's offset, + 8 (type, size) + 200 (name, material, vertex count).
    const rigd = dv.getUint32(16, true);
    dv.setUint32(rigd + 8 + 200, 0x7fffffff, true);
    let error: unknown;
    try {
      mdbMeshes(bytes);
    } catch (e) {
      error = e;
    }
    expect(isMalformedInputError(error)).toBe(true);
    expect((error as Error).message).toContain('RIGD packet #0 face count');
  });
});

describe('NWN2 placed model pieces', () => {
  const twoDa = readTwoDaText(readFixture(fixture('2da/placeables.2da')));
  const git = readGitPlaceables(readGff(readFixture(fixture('nwn-lib-d/WalkmeshObjects.git'))));

  it('places the balcony like the walkmesh bake: its rigid mesh contains its placed WALK walkmesh', () => {
    // The GIT's balcony (row 1597, PLC_MC_BALCONY1, not public) stands in for row 1599
    // (PLC_MC_BALCONY3, the fixture), turned and scaled so the transform is tested.
    const placed = { ...git[0]!, appearance: 1599, bearing: 0.7, scale: { x: 1.2, y: 0.9, z: 1.1 }, z: 2 };
    expect(placeableModelNameIn(twoDa)(1599)).toBe('PLC_MC_BALCONY3');
    const { pieces, gaps } = nwn2PlacedModelPieces({
      placeables: [placed],
      placeableModelName: placeableModelNameIn(twoDa),
      resolve: (name) => (name.toLowerCase() === 'plc_mc_balcony3' ? balcony() : null),
    });
    expect(gaps).toEqual([]);
    expect(pieces).toHaveLength(1);
    const piece = pieces[0]!;
    checkLevelContextPiece(piece);
    expect(piece.kind).toBe('model');
    expect(piece.triangles.length / 3).toBe(847);
    // The bake's placement of the WALK packet on a flat ground at the placeable's height.
    const ground: TrnSurface = {
      positions: new Float64Array([0, 0, 2, 300, 0, 2, 300, 300, 2, 0, 300, 2]),
      triangles: new Uint32Array([0, 1, 2, 0, 2, 3]),
      flags: new Uint16Array([1, 1]),
      source: new Uint32Array([0, 1]),
    };
    const baked = applyPlaceables(ground, [{ placeable: placed, model: { name: 'PLC_MC_BALCONY3', walkmeshes: readMdbWalkmeshes(balcony()) } }]).surface;
    // Back to model space by the inverse of the bake's rule (placeable-walkmesh.ts rule 2).
    const cos = Math.cos(placed.bearing);
    const sin = Math.sin(placed.bearing);
    const toModel = (x: number, y: number, z: number) => {
      const dx = x - placed.x;
      const dy = y - placed.y;
      return [(cos * dx + sin * dy) / placed.scale.x, (-sin * dx + cos * dy) / placed.scale.y, (z - placed.z) / placed.scale.z];
    };
    // The piece is the RIGD mesh moved by exactly that rule.
    const rigd = mdbMeshes(balcony(), ['RIGD'])[0]!;
    for (let v = 0; v < rigd.positions.length / 3; v++) {
      const m = toModel(piece.positions[v * 3]!, piece.positions[v * 3 + 1]!, piece.positions[v * 3 + 2]!);
      for (let a = 0; a < 3; a++) expect(m[a]!).toBeCloseTo(rigd.positions[v * 3 + a]!, 3);
    }
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < rigd.positions.length; i++) {
      lo[i % 3] = Math.min(lo[i % 3]!, rigd.positions[i]!);
      hi[i % 3] = Math.max(hi[i % 3]!, rigd.positions[i]!);
    }
    // And the walkmesh the bake put in the area, brought back the same way, lies inside the
    // rigid mesh's box: the balcony's WALK reaches up to 0.17 m beyond its RIGD (x −2.45..2.42
    // against −2.29..2.29), so 0.2 m of slack; its draped curtain vertices are on the ground (z 0).
    const slack = 0.2;
    let checked = 0;
    for (let t = 0; t < baked.flags.length; t++) {
      if (baked.source[t] !== (PLACEABLE_SOURCE | 0) >>> 0) continue;
      for (let k = 0; k < 3; k++) {
        const v = baked.triangles[t * 3 + k]!;
        const m = toModel(baked.positions[v * 3]!, baked.positions[v * 3 + 1]!, baked.positions[v * 3 + 2]!);
        for (let a = 0; a < 3; a++) {
          expect(m[a]!).toBeGreaterThanOrEqual(lo[a]! - slack);
          expect(m[a]!).toBeLessThanOrEqual(hi[a]! + slack);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('reports the models it cannot find, once per reason', () => {
    const { pieces, gaps } = nwn2PlacedModelPieces({ placeables: git, placeableModelName: placeableModelNameIn(twoDa), resolve: () => null });
    expect(pieces).toEqual([]);
    expect(gaps.map((g) => g.why).sort()).toEqual([
      'model PLC_MC_BALCONY1.mdb is not in the module, its haks or the install\'s Data',
      'model plc_mc_hsign118.mdb is not in the module, its haks or the install\'s Data',
    ]);
  });

  it('places doors by their doortypes.2da model, like the door walkmesh bake', () => {
    const doors = readGitDoors(readGff(readFixture(fixture('mordmansion/CSLMordMansion.GIT'))));
    expect(doors.length).toBeGreaterThan(0);
    const doortypes = readTwoDaText(readFixture(fixture('2da/doortypes.2da')));
    const names = new Set<string>();
    const { pieces, gaps } = nwn2PlacedModelPieces({
      placeables: [],
      doors,
      placeableModelName: () => undefined,
      doorModelName: (d) => doorModelName(d, { doortypes }),
      // Every door model stands in as the balcony (no door MDB is public): the placement is what is tested.
      resolve: (name) => {
        names.add(name);
        return balcony();
      },
    });
    const named = doors.filter((d) => doorModelName(d, { doortypes }).modelName !== undefined);
    expect(pieces).toHaveLength(named.length);
    expect(names.size).toBeGreaterThan(0);
    for (const p of pieces) checkLevelContextPiece(p);
    // Each door's piece is centred near the door's position (the balcony's origin is its centre).
    pieces.forEach((p, i) => {
      const d = named[i]!;
      let cx = 0;
      for (let v = 0; v < p.positions.length; v += 3) cx += p.positions[v]!;
      expect(Math.abs(cx / (p.positions.length / 3) - d.x)).toBeLessThan(3);
    });
    // Doors without a row model are gaps with the 2DA's reason.
    expect(gaps.length > 0).toBe(named.length < doors.length);
  });

  it('reports the interior tiles as one gap without tiles.2da, and places their models with it', () => {
    const tiles = readAreTiles(readGff(readFixture(fixture('mordmansion/CSLMordMansion.ARE'))));
    expect(tiles).toHaveLength(36);
    const none = nwn2TileModelPieces(tiles, {}, () => null);
    expect(none.pieces).toEqual([]);
    expect(none.gaps).toHaveLength(1);
    expect(none.gaps[0]!.what).toContain('and 33 more');
    expect(none.gaps[0]!.why).toContain('tiles.2da is not in the module');
    // With a tiles.2da naming every row, each tile's model (here the balcony) sits at its centre.
    const table = readTwoDaText(new TextEncoder().encode(`2DA V2.0\n\nLABEL TILESET TILE_TYPE\n${Array.from({ length: 50 }, (_, i) => `${i} t${i} SI R${i}`).join('\n')}\n`));
    const placed = nwn2TileModelPieces(tiles.slice(0, 2), { tiles: table }, () => balcony());
    expect(placed.pieces).toHaveLength(2);
    expect(placed.pieces.map((p) => p.label)).toEqual(['tile tl_SI_R43_01 #0', 'tile tl_SI_R28_02 #1']);
    const p1 = placed.pieces[1]!;
    expect(p1.kind).toBe('room');
    // Tile 1 is at (4.5, 40.5) with orientation 3: the mesh's box centre is near there.
    let cx = 0;
    let cy = 0;
    for (let v = 0; v < p1.positions.length; v += 3) {
      cx += p1.positions[v]!;
      cy += p1.positions[v + 1]!;
    }
    const n = p1.positions.length / 3;
    expect(Math.abs(cx / n - 4.5)).toBeLessThan(3);
    expect(Math.abs(cy / n - 40.5)).toBeLessThan(3);
  });
});
