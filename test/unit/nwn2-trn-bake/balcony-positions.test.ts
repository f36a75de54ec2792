import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GffDocument } from '../../../shared/formats/aurora/gff-document';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { writeGff } from '../../../shared/formats/aurora/gff-writer';
import { readGitPlaceables } from '../../../shared/formats/aurora/nwn2-git';
import { readMdbWalkmeshes } from '../../../shared/formats/nwn2/mdb-reader';
import { applyGitEdit } from '../../../shared/edits/git-placement-edits';
import { bakeTrn, type TrnBakeResult } from '../../../shared/bakers/nwn2/trn-bake';
import type { TileTableCache } from '../../../shared/bakers/nwn2/tile-table-reuse';
import { trxToWalkmeshes } from '../../../shared/formats/nwn2/trx-walkmesh';
import { readFixture } from '../../support/fixtures';
import { centroid, clearFaces } from '../../support/walkmesh-probes';
import { aswmOf, errorsOf, kaedrinDir, libdDir, loadArea } from './bake-support';
import { mulberry32 } from '../../support/seeded-random';

/** placeables.2da row whose NWN2_ModelName is PLC_MC_BALCONY3 (the fixture copy of the table). */
const BALCONY_ROW = 1599;

/**
 * PLC_MC_BALCONY3 moved about Kaedrin's "enter world". Near the area's edge the bake cuts
 * the model off at the grid bounds, which can leave a sliver a few millimetres wide whose
 * two outline corners both snap to one ground vertex; the bake used to keep that triangle
 * with one vertex twice, and the topology step refused the whole area.
 */
describe('placeable walkmesh: PLC_MC_BALCONY3 moved about enter world', () => {
  const area = loadArea(kaedrinDir, 'enter world');
  const balcony = { name: 'PLC_MC_BALCONY3', walkmeshes: readMdbWalkmeshes(readFixture(path.join(libdDir, 'PLC_MC_BALCONY3.MDB'))) };
  const models = (appearance: number) => (appearance === BALCONY_ROW ? balcony : undefined);
  const index = readGitPlaceables(area.git).length;
  const base = writeGff(area.git);
  let cache: TileTableCache | undefined;

  function bakeAt(x: number, y: number, z: number, bearing: number): TrnBakeResult {
    const git: GffDocument = readGff(base);
    applyGitEdit(git, { kind: 'nwn2-add-placeable', appearance: BALCONY_ROW, templateResRef: 'plc_mc_balcony3', position: [x, y, z] });
    if (bearing !== 0) applyGitEdit(git, { kind: 'nwn2-rotate-placeable', index, bearing });
    expect(readGitPlaceables(git)[index]!.appearance).toBe(BALCONY_ROW);
    const r = bakeTrn({ trn: area.trn, git, placeableModels: models, options: { keepTileCache: true, ...(cache ? { tileCache: cache } : {}) } });
    cache = r.tileCache;
    return r;
  }

  function expectValid(r: TrnBakeResult, where: string): void {
    const a = aswmOf(r.trx);
    const T = a.triFlags.length;
    const repeated: number[] = [];
    for (let t = 0; t < T; t++) {
      const [p, q, s] = [a.triVertices[t * 3]!, a.triVertices[t * 3 + 1]!, a.triVertices[t * 3 + 2]!];
      if (p === q || q === s || p === s) repeated.push(t);
    }
    expect(repeated, where).toEqual([]);
    expect(r.report.placeables.stats?.applied.length, where).toBe(1);
    expect(r.report.overlaps.pairs, where).toBe(0);
    expect(errorsOf(r.trx), where).toEqual([]);
  }

  // The three positions a random sweep of 1,398 placements found refused.
  it.each([
    [15.6126, 33.6043, Math.PI / 2],
    [1.7243, 29.6096, Math.PI / 2],
    [8.2195, 34.1878, 0.3],
  ])('bakes the balcony at (%f, %f) bearing %f', (x, y, bearing) => {
    expectValid(bakeAt(x, y, 0, bearing), `(${x}, ${y}) bearing ${bearing}`);
  });

  it('bakes the balcony at 200 seeded jittered positions on clear ground', () => {
    const ground = trxToWalkmeshes(area.trn, 'enter world.trn')[0]!;
    const faces = clearFaces(ground);
    expect(faces.length).toBeGreaterThan(20);
    const random = mulberry32(0x5eed);
    const bearings = [0, Math.PI / 2, 0.3, Math.PI, 2.1];
    for (let i = 0; i < 200; i++) {
      const c = centroid(ground, faces[Math.floor(random() * faces.length)]!);
      const x = c[0] + (random() - 0.5) * 0.4;
      const y = c[1] + (random() - 0.5) * 0.4;
      const bearing = bearings[i % bearings.length]!;
      const where = `(${x}, ${y}, ${c[2]}) bearing ${bearing}`;
      let r: TrnBakeResult;
      try {
        r = bakeAt(x, y, c[2], bearing);
      } catch (e) {
        throw new Error(`${where}: ${(e as Error).message}`);
      }
      expectValid(r, where);
    }
  }, 60_000);
});

