import { describe, expect, it } from 'vitest';
import { floatView, MAX_TILE_NODES, TriangleFlag } from '../../../shared/formats/nwn2/aswm-document';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { bakeTrn } from '../../../shared/bakers/nwn2/trn-bake';
import { walkableAreaOf } from '../../../shared/bakers/nwn2/trn-bake-compare';
import { assignTiles, retile } from '../../../shared/bakers/nwn2/retile';
import { surfaceFromAswm } from '../../../shared/bakers/nwn2/trn-surface';
import { toTrxWinding, trxWindingViolations } from '../../../shared/bakers/nwn2/trx-winding';
import { aswmOf, centres, errorsOf, syntheticGit, syntheticTrn } from './bake-support';

const WOOD = TriangleFlag.walkable | TriangleFlag.wood;

describe('re-tiling: at most 127 walkable triangles per tile', () => {
  it('re-triangulates flat tiles of 162 walkable triangles into few, keeping the shape', () => {
    // 2 × 2 tiles of 9 m, each cut into 9 × 9 cells: 162 walkable triangles per tile.
    const trn = syntheticTrn({ grid: 2, tileWidth: 9, border: 0, cellsPerTile: 9, flags: () => WOOD });
    const r = bakeTrn({ trn, git: syntheticGit([]) });
    console.log(`flat 2×2: ${r.report.input.triangles} → ${r.report.output.triangles} triangles; re-triangulated ${r.report.retile.simplifiedTiles.join(', ')}`);
    expect(r.report.input.triangles).toBe(648);
    expect(r.report.retile.simplifiedTiles).toEqual(['tile 0,0', 'tile 1,0', 'tile 0,1', 'tile 1,1']);
    expect(r.report.retile.maxWalkablePerTile).toBeLessThanOrEqual(MAX_TILE_NODES);
    expect(walkableAreaOf(r.aswm)).toBeCloseTo(324, 6);
    expect(r.report.overlaps.pairs).toBe(0);
    expect(r.report.tables.crowdedEdgePairs).toBe(0);
    expect(r.aswm.islands.count).toBe(4);
    expect(errorsOf(r.trx)).toEqual([]);
  });

  it('fails naming the tile when its walkable triangles cannot be merged (no two in one plane)', () => {
    // Heights from a hash: every cell triangle in its own plane.
    const bumpy = (x: number, y: number) => ((Math.sin(x * 12.9898 + y * 78.233) * 43758.5453) % 1) * 0.2;
    const trn = syntheticTrn({ grid: 2, tileWidth: 9, border: 0, cellsPerTile: 9, height: bumpy, flags: (cx, cy) => (cx < 9 && cy < 9 ? WOOD : 0) });
    let error: unknown;
    try {
      bakeTrn({ trn, git: syntheticGit([]) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelMappingError);
    expect((error as Error).message).toMatch(/^tile 0,0 holds 162 walkable triangles \(no walkmesh cutter and no placeable or door walkmesh in it\): a tile holds at most 127 walkable triangles/);
  });

  it('puts every triangle in the tile holding its float32 centre and drops none inside the grid', () => {
    const trn = syntheticTrn({ grid: 3, tileWidth: 9, border: 0, cellsPerTile: 2, flags: () => WOOD });
    const s = surfaceFromAswm(aswmOf(trn));
    const r = retile(s, { gridWidth: 3, gridHeight: 3, tileWidth: 9 });
    expect(r.report.outsideGrid).toBe(0);
    expect(r.surface.flags.length).toBe(s.flags.length);
    const tiles = assignTiles(r.surface, { gridWidth: 3, gridHeight: 3, tileWidth: 9 });
    expect([...tiles.walkable]).toEqual(new Array(9).fill(8));
  });
});

describe('TRX winding', () => {
  it('turns counter-clockwise triangles clockwise and sets flag 0x04 on all of them', () => {
    const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0];
    const triangles = Uint32Array.from([0, 1, 2, 1, 2, 3]); // counter-clockwise, then clockwise
    const flags = Uint16Array.from([WOOD, 0]);
    const w = toTrxWinding(positions, triangles, flags);
    expect([...w.triangles]).toEqual([0, 2, 1, 1, 2, 3]);
    expect([...w.flags]).toEqual([WOOD | TriangleFlag.clockwise, TriangleFlag.clockwise]);
  });

  it('leaves a baked TRN clockwise throughout, with centres and normals derived for that winding', () => {
    const trn = syntheticTrn({ grid: 2, tileWidth: 9, border: 0, cellsPerTile: 3, height: (x, y) => 0.2 * x - 0.1 * y, flags: () => WOOD });
    // The TRN is counter-clockwise: every triangle breaks the TRX rule before the bake.
    expect(trxWindingViolations(aswmOf(trn)).length).toBe(aswmOf(trn).triFlags.length);
    const r = bakeTrn({ trn, git: syntheticGit([]) });
    expect(trxWindingViolations(r.aswm)).toEqual([]);
    const n = floatView(r.aswm.triNormal);
    for (let t = 0; t < r.aswm.triFlags.length; t++) expect(n[t * 3 + 2]!).toBeGreaterThan(0);
    const c = centres(r.aswm);
    expect(c.length).toBe(r.aswm.triFlags.length * 2);
  });
});
