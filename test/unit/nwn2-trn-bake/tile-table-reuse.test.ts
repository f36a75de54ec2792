import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeTrn } from '../../../shared/bakers/nwn2/trn-bake';
import { rebakeAswm } from '../../../shared/bakers/nwn2/trx-rebake';
import { applyDocumentEdit } from '../../../shared/edits/apply-document-edit';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { bitsOfFloat, floatOfBits, floatView, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { aswmPacketOf } from '../../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { env } from './bake-support';

const AREAS = [
  ['mordmansion', 'CSLMordMansion.TRN', 'CSLMordMansion.GIT'],
  ['kaedrin', 'fh_settlement.TRN', 'fh_settlement.GIT'],
  ['kaedrin', 'enter world.trn', 'enter world.GIT'],
] as const;

/** The centre of the walkable triangle nearest the mean of the vertices (a cutter there changes the area). */
function centreOf(a: AswmDocument): [number, number] {
  const p = floatView(a.vertices);
  const n = p.length / 3;
  let x = 0, y = 0;
  for (let i = 0; i < n; i++) {
    x += p[i * 3]! / n;
    y += p[i * 3 + 1]! / n;
  }
  const c = floatView(a.triCentre);
  let best: [number, number] = [x, y];
  let bestD = Infinity;
  for (let t = 0; t < a.triFlags.length; t++) {
    if (!(a.triFlags[t]! & 1)) continue;
    const d = (c[t * 2]! - x) ** 2 + (c[t * 2 + 1]! - y) ** 2;
    if (d < bestD) {
      bestD = d;
      best = [c[t * 2]!, c[t * 2 + 1]!];
    }
  }
  return best;
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

describe('live re-bake: tiles whose triangles did not change keep their path tables', () => {
  it.each(AREAS)('%s/%s: after a cutter is added, a bake from the previous tables gives the bytes of a whole bake, baking only the touched tiles', (folder, trnName, gitName) => {
    const trnBytes = readFixture(path.join(fixturesRoot, 'nwn2', folder, trnName));
    const git = readGff(readFixture(path.join(fixturesRoot, 'nwn2', folder, gitName)));
    const first = bakeTrn({ trn: readTrx(trnBytes, env), git, options: { keepTileCache: true } });
    expect(first.report.tables.reusedTiles).toBe(0);
    expect(first.tileCache).toBeDefined();

    const [cx, cy] = centreOf(first.aswm);
    applyDocumentEdit({ target: 'git', doc: git }, { kind: 'nwn2-add-cutter', polygon: [cx - 1, cy - 1, cx + 1, cy - 1, cx + 1, cy + 1, cx - 1, cy + 1] });
    const whole = bakeTrn({ trn: readTrx(trnBytes, env), git });
    const reused = bakeTrn({ trn: readTrx(trnBytes, env), git, options: { tileCache: first.tileCache!, keepTileCache: true } });

    expect(same(writeTrx(reused.trx, env), writeTrx(whole.trx, env))).toBe(true);
    expect(reused.report.tables.reachableTilePairs).toBe(whole.report.tables.reachableTilePairs);
    expect(reused.report.tables.lineOfSightPairs).toBe(whole.report.tables.lineOfSightPairs);
    // The cutter changed the area, and a 2 m square lies in few of its tiles.
    expect(whole.report.output.triangles).not.toBe(first.report.output.triangles);
    expect(reused.report.tables.reusedTiles).toBeGreaterThan(0);
    expect(reused.report.tables.reusedTiles).toBeLessThan(reused.report.tables.tiles);
  });

  it('a tile with one vertex moved by 0.1 mm is baked again, and so is every other tile using that vertex; the rest are reused', () => {
    const doc = readTrx(readFixture(path.join(fixturesRoot, 'nwn2', 'kaedrin', 'fh_settlement.trx')), env);
    const source = aswmPacketOf(doc)!.aswm;
    const first = rebakeAswm(source, { keepTileCache: true });
    const a = first.aswm;
    // A vertex of a walkable triangle in some tile.
    let tri = -1;
    for (let t = 0; t < a.triFlags.length && tri < 0; t++) if (a.triFlags[t]! & 1) tri = t;
    const v = a.triVertices[tri * 3]!;
    const vertices = a.vertices.slice();
    vertices[v * 3] = bitsOfFloat(Math.fround(floatOfBits(vertices[v * 3]!) + 1e-4));
    const moved: AswmDocument = { ...a, vertices };
    const tilesUsing = new Set<number>();
    for (let k = 0; k < a.tiles.count; k++) {
      const s = a.tiles.triangleOffset[k]!, n = a.tiles.triangleCount[k]!;
      for (let t = s; t < s + n; t++) if ([0, 1, 2].some((c) => a.triVertices[t * 3 + c] === v)) tilesUsing.add(k);
    }
    expect(tilesUsing.size).toBeGreaterThan(0);

    const whole = rebakeAswm(moved);
    const reused = rebakeAswm(moved, { tileCache: first.tileCache! });
    expect(reused.counts.reusedTiles).toBe(a.tiles.count - tilesUsing.size);
    expect(Array.from(reused.aswm.tiles.nodes)).toEqual(Array.from(whole.aswm.tiles.nodes));
    expect(Array.from(reused.aswm.tiles.localToNode)).toEqual(Array.from(whole.aswm.tiles.localToNode));
    expect(Array.from(reused.aswm.tiles.nodeToLocal)).toEqual(Array.from(whole.aswm.tiles.nodeToLocal));
  });

  it('tables baked without line-of-sight bits, or for another grid, are never reused', () => {
    const doc = readTrx(readFixture(path.join(fixturesRoot, 'nwn2', 'kaedrin', 'fh_settlement.trx')), env);
    const source = aswmPacketOf(doc)!.aswm;
    const noSight = rebakeAswm(source, { keepTileCache: true, lineOfSight: false });
    const withSight = rebakeAswm(source, { tileCache: noSight.tileCache! });
    expect(withSight.counts.reusedTiles).toBe(0);
    expect(withSight.counts.lineOfSightPairs).toBeGreaterThan(0);
    const sameSettings = rebakeAswm(source, { tileCache: noSight.tileCache!, lineOfSight: false });
    expect(sameSettings.counts.reusedTiles).toBe(source.tiles.count);

    const otherGrid = { ...noSight.tileCache!, gridWidth: noSight.tileCache!.gridWidth + 1 };
    expect(rebakeAswm(source, { tileCache: otherGrid, lineOfSight: false }).counts.reusedTiles).toBe(0);
  });
});
