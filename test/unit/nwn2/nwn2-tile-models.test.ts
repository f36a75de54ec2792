import { describe, expect, it } from 'vitest';
import { MAX_PLACED_MODEL_TRIANGLES, nwn2PlacedModelPieces, nwn2TileModelName, nwn2TileModelPieces, nwn2TilePlacements, tileBearing, type Nwn2TileTables } from '../../../shared/bakers/nwn2/nwn2-model-context';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { readAreTiles, type AreTile } from '../../../shared/formats/aurora/nwn2-are';
import { readTwoDaText } from '../../../shared/formats/aurora/twoda-text';
import { floatView } from '../../../shared/formats/nwn2/aswm-document';
import { checkLevelContextPiece, type LevelContextPiece } from '../../../shared/model/level-context';
import { readFixture } from '../../support/fixtures';
import { metatilesTwoDa, rigidMdb, tilesTwoDa } from '../../support/nwn2-tile-files';
import { fixture, loadTrx } from './nwn2-fixtures';

/**
 * Interior tiles (issue 19) by the rule of xoreos `src/engines/nwn2/area.cpp` (see
 * nwn2-model-context.ts): tiles.2da / metatiles.2da and the tile MDBs are generated here
 * (none is among the fixtures); the ARE tile lists and TRN walkmeshes are the fixtures'.
 */
const AREAS = [
  ['mordmansion/CSLMordMansion.ARE', 'mordmansion/CSLMordMansion.TRN'],
  ['kaedrin/db_templemaiden_int.ARE', 'kaedrin/db_templemaiden_int.TRN'],
  ['kaedrin/enter world.ARE', 'kaedrin/enter world.trn'],
  ['kaedrin/fh_settlement.ARE', 'kaedrin/fh_settlement.TRN'],
  ["kaedrin/harper's hill cave.ARE", "kaedrin/harper's hill cave.TRN"],
  ['kaedrin/md_fancy fox fashions_rlg.ARE', 'kaedrin/md_fancy fox fashions_rlg.TRN'],
] as const;

const tilesOf = (are: string) => readAreTiles(readGff(readFixture(fixture(are))));

/** A generated tiles.2da of `rows` rows: row r is tileset `S<r % 3>`, type `T<r>`. */
function generatedTiles(rows: number): Nwn2TileTables['tiles'] {
  return readTwoDaText(tilesTwoDa(Array.from({ length: rows }, (_, r) => ({ tileSet: `S${r % 3}`, tileType: `T${r}`, variations: 2 }))));
}

const tile = (over: Partial<AreTile>): AreTile => ({ index: 0, appearance: 0, variation: 0, orientation: 0, metaTile: 0, position: [4.5, 4.5, 0], ...over });

/** A tile model: a wall triangle off-centre (turns with the tile) and a floor square named `_F` (stays). */
const WALL = [1, 0, 0, 2, 0, 0, 1, 1, 0.5];
const FLOOR = [3, 2, 0, 4, 2, 0, 4, 3, 0, 3, 3, 0];
const model = (name: string) => rigidMdb([
  { name: `${name}_W01`, positions: WALL, faces: [0, 1, 2] },
  { name: `${name}_F`, positions: FLOOR, faces: [0, 1, 2, 0, 2, 3] },
]);

function vertices(p: LevelContextPiece): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let v = 0; v < p.positions.length; v += 3) out.push([p.positions[v]!, p.positions[v + 1]!, p.positions[v + 2]!]);
  return out;
}

function near(a: readonly number[], b: readonly number[]): boolean {
  return a.every((x, k) => Math.abs(x - b[k]!) < 1e-5);
}

describe('NWN2 interior tile models: the name rule', () => {
  const tables: Nwn2TileTables = {
    tiles: readTwoDaText(tilesTwoDa([{ tileSet: 'SI', tileType: 'CCCC' }, { tileSet: 'SI', tileType: 'CCCX', variations: 3 }, { tileSet: '', tileType: 'WWXX' }])),
    metatiles: readTwoDaText(metatilesTwoDa([{ tileSet: 'CV', name: 'M0202_Hcurv_01' }])),
  };

  it('names a tile tl_<TileSet>_<Tile_Type>_<Variation + 1, two digits> from its tiles.2da row', () => {
    expect(nwn2TileModelName(tile({ appearance: 0 }), tables)).toEqual({ modelName: 'tl_SI_CCCC_01' });
    expect(nwn2TileModelName(tile({ appearance: 1, variation: 2 }), tables)).toEqual({ modelName: 'tl_SI_CCCX_03' });
    expect(nwn2TileModelName(tile({ appearance: 1, variation: 11 }), tables)).toEqual({ modelName: 'tl_SI_CCCX_12' });
  });

  it('names a meta tile tl_<TileSet>_<Name> from its metatiles.2da row', () => {
    expect(nwn2TileModelName(tile({ appearance: 0, metaTile: 1, variation: 4 }), tables)).toEqual({ modelName: 'tl_CV_M0202_Hcurv_01' });
  });

  it('says why a tile names no model: no table, a row past the end, an empty column', () => {
    expect(nwn2TileModelName(tile({}), {})).toEqual({ why: expect.stringContaining('tiles.2da is not in the module') });
    expect(nwn2TileModelName(tile({ metaTile: 1 }), { tiles: tables.tiles! })).toEqual({ why: expect.stringContaining('metatiles.2da is not in the module') });
    expect(nwn2TileModelName(tile({ appearance: 3 }), tables)).toEqual({ why: 'tiles.2da has no row 3 (it has 3)' });
    expect(nwn2TileModelName(tile({ appearance: 2 }), tables)).toEqual({ why: 'tiles.2da row 2 has no TileSet' });
  });

  it('gathers the tiles of one reason into one gap naming the rows', () => {
    const tiles = [0, 1, 2, 3, 4].map((i) => tile({ index: i, appearance: 7 }));
    const { placed, gaps } = nwn2TilePlacements(tiles, tables);
    expect(placed).toEqual([]);
    expect(gaps).toEqual([{ what: 'tile #0 (tiles.2da row 7), tile #1 (tiles.2da row 7), tile #2 (tiles.2da row 7) and 2 more', why: 'tiles.2da has no row 7 (it has 3)' }]);
  });

  for (const [are] of AREAS) {
    it(`resolves every tile of ${are} to its row's model with a generated tiles.2da`, () => {
      const tiles = tilesOf(are);
      expect(tiles.length).toBeGreaterThan(0);
      const rows = Math.max(...tiles.map((t) => t.appearance)) + 1;
      const { placed, gaps } = nwn2TilePlacements(tiles, { tiles: generatedTiles(rows) });
      expect(gaps).toEqual([]);
      expect(placed).toHaveLength(tiles.length);
      placed.forEach((p, i) => {
        const t = tiles[i]!;
        expect(p.modelName).toBe(`tl_S${t.appearance % 3}_T${t.appearance}_${String(t.variation + 1).padStart(2, '0')}`);
        expect([p.place.x, p.place.y, p.place.z]).toEqual(t.position);
        expect(p.place.bearing).toBeCloseTo(-t.orientation * (Math.PI / 2), 12);
      });
      // With one row fewer in the table, the tiles of the last row are a gap naming it.
      const short = nwn2TilePlacements(tiles, { tiles: generatedTiles(rows - 1) });
      const lastRow = tiles.filter((t) => t.appearance === rows - 1).length;
      expect(short.placed).toHaveLength(tiles.length - lastRow);
      expect(short.gaps).toEqual([{ what: expect.stringContaining(`tiles.2da row ${rows - 1}`), why: `tiles.2da has no row ${rows - 1} (it has ${rows - 1})` }]);
    });
  }

  it('the Mord Mansion tiles name the models of their rows and variations', () => {
    const tiles = tilesOf('mordmansion/CSLMordMansion.ARE');
    const { placed } = nwn2TilePlacements(tiles, { tiles: generatedTiles(50) });
    // TileList #0: row 43, variation 0; #1: row 28, variation 1 (ARE as read by readAreTiles).
    expect(placed[0]!.modelName).toBe('tl_S1_T43_01');
    expect(placed[1]!.modelName).toBe('tl_S1_T28_02');
  });
});

describe('NWN2 interior tile models: placement', () => {
  const tables: Nwn2TileTables = { tiles: readTwoDaText(tilesTwoDa([{ tileSet: 'SI', tileType: 'CCCC' }])), metatiles: readTwoDaText(metatilesTwoDa([{ tileSet: 'SI', name: 'M0202_A' }])) };
  const files = new Map([['tl_si_cccc_01', model('TL_SI_CCCC_01')], ['tl_si_m0202_a', model('TL_SI_M0202_A')]]);
  const resolve = (name: string) => files.get(name.toLowerCase()) ?? null;

  it('puts the model origin at the tile centre and turns it Orientation quarter turns clockwise; a plain tile\'s floor stays unturned', () => {
    const centre: [number, number, number] = [13.5, 4.5, 0.25];
    for (const orientation of [0, 1, 2, 3]) {
      const { pieces, gaps } = nwn2TileModelPieces([tile({ index: 5, position: centre, orientation })], tables, resolve);
      expect(gaps).toEqual([]);
      expect(pieces).toHaveLength(1);
      const p = pieces[0]!;
      checkLevelContextPiece(p);
      expect(p.kind).toBe('room');
      expect(p.label).toBe('tile tl_SI_CCCC_01 #5');
      const v = vertices(p);
      // Clockwise quarter turns: (x, y) → (y, −x) per turn.
      const turn = (x: number, y: number): [number, number] => {
        let [a, b] = [x, y];
        for (let k = 0; k < orientation; k++) [a, b] = [b, -a];
        return [a, b];
      };
      for (let i = 0; i < 3; i++) {
        const [x, y] = turn(WALL[i * 3]!, WALL[i * 3 + 1]!);
        expect(v.some((q) => near(q, [centre[0] + x, centre[1] + y, centre[2] + WALL[i * 3 + 2]!]))).toBe(true);
      }
      for (let i = 0; i < 4; i++) expect(v.some((q) => near(q, [centre[0] + FLOOR[i * 3]!, centre[1] + FLOOR[i * 3 + 1]!, centre[2]]))).toBe(true);
      expect(p.triangles.length / 3).toBe(3);
      expect(p.surfaces).toEqual(['TL_SI_CCCC_01_W01_tex', 'TL_SI_CCCC_01_F_tex']);
    }
  });

  it('turns a meta tile\'s floor with the rest of it', () => {
    const { pieces } = nwn2TileModelPieces([tile({ metaTile: 1, position: [9, 9, 0], orientation: 2 })], tables, resolve);
    const v = vertices(pieces[0]!);
    for (let i = 0; i < 4; i++) expect(v.some((q) => near(q, [9 - FLOOR[i * 3]!, 9 - FLOOR[i * 3 + 1]!, 0]))).toBe(true);
  });

  it('a model not found is a gap naming it and the tiles using it', () => {
    const { pieces, gaps } = nwn2TileModelPieces([tile({ index: 2 }), tile({ index: 3 })], tables, () => null);
    expect(pieces).toEqual([]);
    expect(gaps).toEqual([{ what: 'tile tl_SI_CCCC_01 #2, tile tl_SI_CCCC_01 #3', why: "model tl_SI_CCCC_01.mdb is not in the module, its haks or the install's Data" }]);
  });

  it('places models up to the triangle budget and names how many more there were', () => {
    // Each tile's model is 3 triangles: a budget of 7 takes two tiles of the four.
    const four = nwn2TilePlacements([0, 1, 2, 3].map((index) => tile({ index, position: [4.5 + 9 * index, 4.5, 0] })), tables).placed;
    const { pieces, gaps } = nwn2PlacedModelPieces({ placeables: [], tiles: four, placeableModelName: () => undefined, resolve, maxTriangles: 7 });
    expect(pieces.map((p) => p.label)).toEqual(['tile tl_SI_CCCC_01 #0', 'tile tl_SI_CCCC_01 #1']);
    expect(gaps).toEqual([{ what: '2 more placed model(s)', why: 'over the budget of 7 model triangles for one area' }]);
    // The default budget leaves a real area's worth alone.
    expect(nwn2PlacedModelPieces({ placeables: [], tiles: four, placeableModelName: () => undefined, resolve }).pieces).toHaveLength(4);
    expect(MAX_PLACED_MODEL_TRIANGLES).toBeGreaterThan(2_000_000);
  });

  it('tile centres are the centres of the TRN tile cells holding the tiles\' walkmesh triangles (6 fixture interiors)', () => {
    for (const [are, trn] of AREAS) {
      const tiles = tilesOf(are);
      const rows = Math.max(...tiles.map((t) => t.appearance)) + 1;
      const a = loadTrx(trn).aswm.aswm;
      const { placed } = nwn2TilePlacements(tiles, { tiles: generatedTiles(rows) });
      const byCell = new Map(placed.map((p) => [`${Math.floor(p.place.x / 9)},${Math.floor(p.place.y / 9)}`, p]));
      const V = floatView(a.vertices);
      let inside = 0;
      for (let t = 0; t < a.triFlags.length; t++) {
        const c = [0, 1].map((k) => (V[a.triVertices[t * 3]! * 3 + k]! + V[a.triVertices[t * 3 + 1]! * 3 + k]! + V[a.triVertices[t * 3 + 2]! * 3 + k]!) / 3);
        const p = byCell.get(`${Math.floor(c[0]! / 9)},${Math.floor(c[1]! / 9)}`);
        expect(p, `${trn} triangle ${t} lies in a cell of no ARE tile`).toBeDefined();
        expect(Math.abs(c[0]! - p!.place.x)).toBeLessThanOrEqual(4.5);
        expect(Math.abs(c[1]! - p!.place.y)).toBeLessThanOrEqual(4.5);
        inside++;
      }
      expect(inside, trn).toBeGreaterThan(100);
    }
  });
});

/**
 * The direction of Orientation, checked on the fixtures: tiles of one tiles.2da row and
 * variation at different orientations have TRN walkmeshes (the tile models' walkmeshes as
 * the toolset placed them) that are each other turned about the tile centre by the
 * difference of their tileBearing.
 */
describe('NWN2 interior tile orientation on the fixtures\' walkmeshes', () => {
  /** Walkmesh triangle centres of a tile, relative to its centre. */
  function localCentres(are: string, trn: string): { tiles: AreTile[]; local: (t: AreTile) => number[][] } {
    const tiles = tilesOf(are);
    const a = loadTrx(trn).aswm.aswm;
    const V = floatView(a.vertices);
    const centres: number[][] = [];
    for (let t = 0; t < a.triFlags.length; t++) {
      centres.push([0, 1, 2].map((k) => (V[a.triVertices[t * 3]! * 3 + k]! + V[a.triVertices[t * 3 + 1]! * 3 + k]! + V[a.triVertices[t * 3 + 2]! * 3 + k]!) / 3));
    }
    const local = (t: AreTile) => centres.filter((c) => Math.abs(c[0]! - t.position[0]) < 4.5 && Math.abs(c[1]! - t.position[1]) < 4.5).map((c) => [c[0]! - t.position[0], c[1]! - t.position[1], c[2]! - t.position[2]]);
    return { tiles, local };
  }

  function turned(A: number[][], B: number[][], angle: number): boolean {
    if (A.length === 0 || A.length !== B.length) return false;
    const c = Math.cos(angle), s = Math.sin(angle);
    return A.every((p) => {
      const x = c * p[0]! - s * p[1]!, y = s * p[0]! + c * p[1]!;
      return B.some((q) => Math.abs(q[0]! - x) < 0.02 && Math.abs(q[1]! - y) < 0.02 && Math.abs(q[2]! - p[2]!) < 0.05);
    });
  }

  // The standard interiors (the cave's irregular tiles match neither way in most pairs and are left out).
  const expected: Record<string, number> = { 'kaedrin/db_templemaiden_int.ARE': 31, 'kaedrin/enter world.ARE': 10, 'kaedrin/fh_settlement.ARE': 6, 'kaedrin/md_fancy fox fashions_rlg.ARE': 6 };
  for (const [are, trn] of AREAS.filter(([a]) => a in expected)) {
    it(`${are}: same-row tiles are turned clockwise by their Orientation difference, never counter-clockwise`, () => {
      const { tiles, local } = localCentres(are, trn);
      const groups = new Map<string, AreTile[]>();
      for (const t of tiles) groups.set(`${t.metaTile}:${t.appearance}:${t.variation}`, [...(groups.get(`${t.metaTile}:${t.appearance}:${t.variation}`) ?? []), t]);
      let rule = 0;
      let opposite = 0;
      for (const g of groups.values()) {
        for (let i = 0; i < g.length; i++) {
          for (let j = i + 1; j < g.length; j++) {
            if ((g[j]!.orientation - g[i]!.orientation) % 2 === 0) continue; // half turns cannot tell the direction
            const A = local(g[i]!), B = local(g[j]!);
            const angle = tileBearing(g[j]!.orientation) - tileBearing(g[i]!.orientation);
            const byRule = turned(A, B, angle);
            const byOpposite = turned(A, B, -angle);
            if (byRule && !byOpposite) rule++;
            if (byOpposite && !byRule) opposite++;
          }
        }
      }
      expect(opposite).toBe(0);
      expect(rule).toBe(expected[are]);
    });
  }
});
