import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optList } from '../../../shared/formats/aurora/gff-fields';
import { readGitDoors, type GitDoor } from '../../../shared/formats/aurora/nwn2-git';
import { readTwoDaText } from '../../../shared/formats/aurora/twoda-text';
import { floatView, TriangleFlag, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { readMdbWalkmeshes } from '../../../shared/formats/nwn2/mdb-reader';
import { planeHeight, TriangleGrid } from '../../../shared/geometry/triangle-grid';
import { overlappingTriangles } from '../../../shared/geometry/triangle-overlap';
import { doorModelName, missingDoorModels } from '../../../shared/bakers/nwn2/door-walkmesh';
import { ReachabilityOracle } from '../../../shared/bakers/nwn2/point-reachability';
import { bakeTrn, type TrnBakeResult } from '../../../shared/bakers/nwn2/trn-bake';
import { compareTrnBake } from '../../../shared/bakers/nwn2/trn-bake-compare';
import { Nwn2ModelResolver } from '../../../electron/services/nwn2-model-resolver';
import { bakeTrnFiles } from '../../../electron/services/nwn2-trn-bake-service';
import { bakeCommand } from '../../../electron/cli/commands/bake-command';
import { readFixture } from '../../support/fixtures';
import { commandRunner } from '../../support/run-command';
import { aswmOf, errorsOf, kaedrinAreas, kaedrinDir, libdDir, loadArea, mordDir, syntheticGit, syntheticTrn, twoDaDir, type Area } from './bake-support';
import { doorFrameMdb, doorSillMdb, HALF_DEPTH, JAMB, OPENING, SILL_Z, SILL_FLAGS, withDoors } from './door-support';

const doortypes = readTwoDaText(readFixture(path.join(twoDaDir, 'doortypes.2da')));
const temp = mkdtempSync(path.join(tmpdir(), 'walkbench-doors-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A fresh folder holding one generated door model as `name`.mdb (lower case, as the resolver ignores case). */
function modelFolder(label: string, name: string, bytes: Uint8Array): string {
  const dir = mkdtempSync(path.join(temp, `${label}-`));
  writeFileSync(path.join(dir, `${name.toLowerCase()}.mdb`), bytes);
  return dir;
}

/** World position of a door-local point (hinge at the origin), as the bake places it. */
function worldOf(d: Pick<GitDoor, 'x' | 'y' | 'bearing' | 'scale'>, lx: number, ly: number): [number, number] {
  const c = Math.cos(d.bearing);
  const s = Math.sin(d.bearing);
  return [d.x + c * lx * d.scale.x - s * ly * d.scale.y, d.y + s * lx * d.scale.x + c * ly * d.scale.y];
}

/** The triangle under (x, y) whose height is nearest z, with its height and flags. */
function triangleAt(a: AswmDocument, grid: TriangleGrid, pos: Float64Array, x: number, y: number, z: number): { t: number; z: number; flags: number } | undefined {
  let best: { t: number; z: number; flags: number } | undefined;
  grid.forEachContaining(x, y, (t) => {
    const h = planeHeight(pos, a.triVertices, t, x, y);
    if (!best || Math.abs(h - z) < Math.abs(best.z - z)) best = { t, z: h, flags: a.triFlags[t]! };
  }, 1e-6);
  return best;
}

describe("a door's model from its 2DA row (doortypes.2da, genericdoors.2da)", () => {
  it('reads NWN2_ModelName of the doortypes.2da row given by Appearance', () => {
    expect(doorModelName({ appearance: 382, genericType: 0 }, { doortypes })).toEqual({ row: { table: 'doortypes', row: 382 }, modelName: doortypes.cell(382, 'NWN2_ModelName'), invisible: false });
    expect(doortypes.cell(382, 'NWN2_ModelName')).toBe('PLC_DT_STDINT03');
  });

  it('falls back to the NWN1 Model column (an NWN1 tileset door row), and reads VisibleModel 0 as invisible', () => {
    expect(doortypes.cell(1, 'NWN2_ModelName')).toBeUndefined();
    expect(doorModelName({ appearance: 1, genericType: 0 }, { doortypes }).modelName).toBe(doortypes.cell(1, 'Model'));
    const invisibleRow = Array.from({ length: doortypes.rowCount }, (_, r) => r).find((r) => doortypes.cell(r, 'VisibleModel') === '0')!;
    expect(invisibleRow).toBeGreaterThan(0);
    expect(doorModelName({ appearance: invisibleRow, genericType: 0 }, { doortypes })).toMatchObject({ invisible: true, modelName: undefined });
  });

  it('takes a generic door (Appearance 0) from genericdoors.2da by GenericType, and says why there is no model', () => {
    expect(doorModelName({ appearance: 0, genericType: 4 }, { doortypes })).toEqual({ row: { table: 'genericdoors', row: 4 }, modelName: undefined, invisible: false, reason: 'no genericdoors.2da found' });
    expect(doorModelName({ appearance: 0, genericType: 2 }, { doortypes, genericdoors: doortypes })).toMatchObject({ row: { table: 'genericdoors', row: 2 }, modelName: doortypes.cell(2, 'Model') });
    expect(doorModelName({ appearance: doortypes.rowCount, genericType: 0 }, { doortypes }).reason).toBe(`doortypes.2da has no row ${doortypes.rowCount} (${doortypes.rowCount} rows)`);
    expect(doorModelName({ appearance: 0, genericType: 0 }, { doortypes, genericdoors: doortypes }).reason).toMatch(/^genericdoors\.2da row 0 names no model/);
  });
});

describe('the fixture areas with doors: every door found, its row resolved, its missing model named', () => {
  const areas: { dir: string; base: string }[] = [{ dir: mordDir, base: 'CSLMordMansion' }, ...kaedrinAreas.map((base) => ({ dir: kaedrinDir, base }))];

  for (const { dir, base } of areas) {
    it(base, async () => {
      const area = loadArea(dir, base);
      const listed = optList(area.git.root, 'Door List').length;
      const doors = readGitDoors(area.git);
      expect(doors.length).toBe(listed);
      const resolver = await Nwn2ModelResolver.open({ modelDirs: [libdDir], twoDaDir });
      const doorModels = await resolver.preloadDoors(doors);
      const result = bakeTrn({ trn: area.trn, git: area.git, doorModels });
      const r = result.report.doors;
      expect(r.inGit).toBe(listed);
      // No public door model: every door is listed, none skipped in silence.
      expect(r.stats).toBeNull();
      expect(r.missingModel.length + r.noWalkmesh.length + r.invisible.length).toBe(listed);
      for (const d of doors) {
        const m = r.missingModel.find((x) => x.index === d.index);
        expect(m, `door ${d.index}`).toBeDefined();
        // The row the game reads, and the model it names in the fixture table.
        expect(m!.row).toEqual({ table: 'doortypes', row: d.appearance });
        expect(m!.model).toBe(doortypes.cell(d.appearance, 'NWN2_ModelName'));
        expect(m!.reason).toBe(`model ${m!.model} not found`);
        expect(m!.tag).toBe(d.tag);
      }
      const named = missingDoorModels(r);
      expect(named.reduce((n, g) => n + g.doors.length, 0)).toBe(listed);
      expect(named.every((g) => g.model !== undefined)).toBe(true);
      expect(resolver.doorLookups.length).toBe(listed);
      expect(errorsOf(result.trx)).toEqual([]);
      if (listed > 0) console.log(`${base}: ${listed} doors, models not found: ${named.map((g) => `${g.model} ×${g.doors.length}`).join(', ')}`);
    });
  }

  it('counts the Mord Mansion doors by model as the fixture GIT has them', async () => {
    const area = loadArea(mordDir, 'CSLMordMansion');
    const resolver = await Nwn2ModelResolver.open({ modelDirs: [libdDir], twoDaDir });
    const result = bakeTrn({ trn: area.trn, git: area.git, doorModels: await resolver.preloadDoors(readGitDoors(area.git)) });
    expect(missingDoorModels(result.report.doors).map((g) => [g.model, g.doors.length])).toEqual([
      ['PLC_DT_STDINT03', 5],
      ['PLC_DT_DoorSC', 3],
      ['PLC_DT_Estate2', 2],
      ['PLC_DT_CRSECRET1', 1],
      ['PLC_DT_StdInt01', 1],
    ]);
  });

  it('without a model lookup still lists every door, with the reason', () => {
    const area = loadArea(mordDir, 'CSLMordMansion');
    const r = bakeTrn({ trn: area.trn, git: area.git }).report.doors;
    expect(r.missingModel.map((m) => m.index)).toEqual(readGitDoors(area.git).map((d) => d.index));
    expect(new Set(r.missingModel.map((m) => m.reason))).toEqual(new Set(['no model lookup given']));
  });
});

describe('a generated door MDB (WALK packet built to the spec) applied at the doors', () => {
  const frame = doorFrameMdb('PLC_DT_STDINT03');

  it('reads back through the MDB reader as one WALK packet of 8 vertices and 6 faces', () => {
    const [w] = readMdbWalkmeshes(frame);
    expect(w!.name).toBe('PLC_DT_STDINT03_W');
    expect(w!.positions.length).toBe(8 * 3);
    expect(Array.from(w!.faceFlags)).toEqual([0, 0, SILL_FLAGS, SILL_FLAGS, 0, 0]);
  });

  describe('in a flat synthetic room, turned 0.6 rad and scaled 1.25', () => {
    let result: TrnBakeResult;
    let pos: Float64Array;
    let grid: TriangleGrid;
    const door = { x: 13.3, y: 16.1, bearing: 0.6, scale: { x: 1.25, y: 1.25, z: 1.25 } };

    beforeAll(async () => {
      const trn = syntheticTrn({ grid: 4, tileWidth: 9, border: 0, cellsPerTile: 2 });
      const git = withDoors(syntheticGit([]), [{ appearance: 382, x: door.x, y: door.y, bearing: door.bearing, scale: 1.25 }]);
      const resolver = await Nwn2ModelResolver.open({ modelDirs: [modelFolder('room', 'PLC_DT_STDINT03', frame)], twoDaDir });
      result = bakeTrn({ trn, git, doorModels: await resolver.preloadDoors(readGitDoors(git)) });
      pos = Float64Array.from(floatView(result.aswm.vertices));
      grid = new TriangleGrid(pos, result.aswm.triVertices);
    });

    it('applies it, with its 6 faces (2 walkable), and validates with no errors and no overlaps', () => {
      const r = result.report.doors;
      expect(r.missingModel).toEqual([]);
      expect(r.stats!.applied).toHaveLength(1);
      expect(r.stats!.applied[0]).toMatchObject({ index: 0, model: 'PLC_DT_STDINT03', faces: 6, walkableFaces: 2 });
      expect(r.stats!.applied[0]!.footprintArea).toBeCloseTo((OPENING + 2 * JAMB) * 2 * HALF_DEPTH * 1.25 * 1.25, 6);
      expect(errorsOf(result.trx)).toEqual([]);
      expect(overlappingTriangles(pos, result.aswm.triVertices, 1e-6)).toEqual([]);
    });

    it('puts the walkable metal sill where the bearing and scale place it, its outline joined to the floor', () => {
      for (const [lx, ly] of [[0.1, 0], [0.9, 0.2], [1.7, -0.25], [0.5, -0.1]] as const) {
        const at = triangleAt(result.aswm, grid, pos, ...worldOf(door, lx, ly), 0);
        expect(at, `local (${lx}, ${ly})`).toBeDefined();
        expect(at!.flags & ~TriangleFlag.clockwise).toBe(SILL_FLAGS);
        // Its corners are all on the outline, 6 cm above the floor: within a step, so they
        // take the floor's vertices (placeable-walkmesh.ts rule 6).
        expect(at!.z).toBeCloseTo(0, 5);
      }
      // Just outside the sill, the room's own dirt floor.
      expect(triangleAt(result.aswm, grid, pos, ...worldOf(door, 0.9, HALF_DEPTH + 0.1), 0)!.flags & ~TriangleFlag.clockwise).toBe(TriangleFlag.walkable | TriangleFlag.dirt);
    });

    it('blocks the floor under the jambs and keeps it walkable just outside the frame', () => {
      for (const lx of [-JAMB / 2, OPENING + JAMB / 2]) {
        for (const ly of [-0.2, 0, 0.2]) expect(triangleAt(result.aswm, grid, pos, ...worldOf(door, lx, ly), SILL_Z)!.flags & TriangleFlag.walkable).toBe(0);
      }
      expect(triangleAt(result.aswm, grid, pos, ...worldOf(door, -JAMB - 0.2, 0), 0)!.flags & TriangleFlag.walkable).toBe(TriangleFlag.walkable);
    });

    it('joins the sill to the floor on both sides: one can walk through the door', () => {
      const o = new ReachabilityOracle(result.aswm);
      const front = o.groupAt(...worldOf(door, 0.9, -1.5), 0);
      const sill = o.groupAt(...worldOf(door, 0.9, 0), SILL_Z * 1.25);
      const back = o.groupAt(...worldOf(door, 0.9, 1.5), 0);
      expect(o.reachable(front, sill)).toBe(true);
      expect(o.reachable(sill, back)).toBe(true);
    });
  });

  describe('in the Mord Mansion, at its five PLC_DT_STDINT03 doors (doortypes row 382)', () => {
    let area: Area;
    let before: TrnBakeResult;
    let after: TrnBakeResult;
    let doors: GitDoor[];

    beforeAll(async () => {
      area = loadArea(mordDir, 'CSLMordMansion');
      doors = readGitDoors(area.git);
      const resolver = await Nwn2ModelResolver.open({ modelDirs: [modelFolder('mord', 'PLC_DT_STDINT03', frame)], twoDaDir });
      before = bakeTrn({ trn: area.trn, git: area.git });
      after = bakeTrn({ trn: area.trn, git: area.git, doorModels: await resolver.preloadDoors(doors) });
    });

    it('applies the five and names the seven others as missing', () => {
      const r = after.report.doors;
      const row382 = doors.filter((d) => d.appearance === 382).map((d) => d.index);
      expect(row382).toHaveLength(5);
      expect(r.stats!.applied.map((a) => a.index)).toEqual(row382);
      expect(r.missingModel.map((m) => m.index).sort((a, b) => a - b)).toEqual(doors.filter((d) => d.appearance !== 382).map((d) => d.index));
      expect(errorsOf(after.trx)).toEqual([]);
      expect(after.report.overlaps.pairs).toBe(0);
    });

    it("has each sill's walkable metal at the door's position and height, inside the area", () => {
      const a = after.aswm;
      const pos = Float64Array.from(floatView(a.vertices));
      const grid = new TriangleGrid(pos, a.triVertices);
      const extent = a.gridHeight * 9;
      let checked = 0;
      for (const d of doors.filter((x) => x.appearance === 382)) {
        for (const [lx, ly] of [[0.3, -0.2], [0.9, 0], [1.5, 0.2], [1.2, -0.1]] as const) {
          const [x, y] = worldOf(d, lx, ly);
          if (y >= extent) continue; // the part of a door on the area's edge that reaches out is cut off
          const at = triangleAt(a, grid, pos, x, y, d.z);
          expect(at, `door ${d.index} local (${lx}, ${ly})`).toBeDefined();
          // The door's Z, give or take the 5 cm sill and where the floor under the door
          // stands (1.6 cm above Z at one door): the outline took the floor's vertices.
          expect(Math.abs(at!.z - d.z)).toBeLessThan(SILL_Z + 0.02);
          expect(at!.flags & ~TriangleFlag.clockwise, `door ${d.index} local (${lx}, ${ly})`).toBe(SILL_FLAGS);
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(16);
      // Nothing is left beyond the grid (two of the doors stand on the area's north edge).
      for (let v = 1; v < pos.length; v += 3) expect(pos[v]!).toBeLessThanOrEqual(extent + 1e-4);
    });

    it('reports point reachability against the toolset TRX before and after', () => {
      const ref = aswmOf(area.trx);
      const trn = aswmOf(area.trn);
      const b = compareTrnBake(before.aswm, ref, { trn });
      const c = compareTrnBake(after.aswm, ref, { trn });
      console.log(
        `Mord Mansion, door frames at 5 doors: point reachability ${b.agreement.pointReachability.toFixed(4)} → ${c.agreement.pointReachability.toFixed(4)} ` +
          `(on the toolset's surface ${b.agreement.details.agreementOnReference.toFixed(5)} → ${c.agreement.details.agreementOnReference.toFixed(5)}); ` +
          `triangles ${before.report.output.triangles} → ${after.report.output.triangles}`,
      );
      // The jambs block 2 × 0.15 m² beside each opening, where the toolset's floor is walkable.
      expect(c.agreement.pointReachability).toBeGreaterThan(b.agreement.pointReachability - 0.001);
    });
  });

  it('a sill-only door at the same five doors does not lower reachability on the toolset surface (same points)', async () => {
    const area = loadArea(mordDir, 'CSLMordMansion');
    const doors = readGitDoors(area.git);
    const resolver = await Nwn2ModelResolver.open({ modelDirs: [modelFolder('sill', 'PLC_DT_STDINT03', doorSillMdb('PLC_DT_STDINT03'))], twoDaDir });
    const before = bakeTrn({ trn: area.trn, git: area.git });
    const after = bakeTrn({ trn: area.trn, git: area.git, doorModels: await resolver.preloadDoors(doors) });
    expect(after.report.doors.stats!.applied).toHaveLength(5);
    const ref = aswmOf(area.trx);
    const trn = aswmOf(area.trn);
    for (const seed of [1, 2, 3]) {
      // Points drawn on the toolset's surface are the same before and after (a paired
      // comparison); those drawn on the baked surface move with its triangles.
      const b = compareTrnBake(before.aswm, ref, { trn, seed }).agreement.details;
      const c = compareTrnBake(after.aswm, ref, { trn, seed }).agreement.details;
      // The draws stop at a number of pairs, so the toolset-side prefix can be a pair or two
      // longer after: allow that one pair, no more.
      expect(c.agreementOnReference, `seed ${seed}`).toBeGreaterThanOrEqual(b.agreementOnReference - 1 / (b.pairs / 2));
      console.log(`sill-only doors, seed ${seed}: on the toolset's surface ${b.agreementOnReference.toFixed(5)} → ${c.agreementOnReference.toFixed(5)}, overall ${b.agreement.toFixed(4)} → ${c.agreement.toFixed(4)}`);
    }
  });

  it('goes through the bake service (file paths in): doors resolved and applied, counts in the report', async () => {
    const area = loadArea(mordDir, 'CSLMordMansion');
    const r = await bakeTrnFiles({ trn: area.trnFile, git: area.gitFile, modelDirs: [modelFolder('service', 'PLC_DT_STDINT03', frame)], twoDaDir });
    expect(r.report.doors.inGit).toBe(12);
    expect(r.report.doors.stats!.applied).toHaveLength(5);
    expect(missingDoorModels(r.report.doors).map((g) => g.model)).toEqual(['PLC_DT_DoorSC', 'PLC_DT_Estate2', 'PLC_DT_CRSECRET1', 'PLC_DT_StdInt01']);
  });

  it('is counted in the command line report, text and --json', async () => {
    const area = loadArea(mordDir, 'CSLMordMansion');
    const models = modelFolder('cli', 'PLC_DT_STDINT03', frame);
    const run = commandRunner(bakeCommand);
    const args = [area.trnFile, '--git', area.gitFile, '--2da', twoDaDir, '--models', models, '-o', path.join(temp, 'cli.trx')];
    const text = await run(...args);
    expect(text.status).toBe(0);
    expect(text.out).toContain('doors: 12 in the GIT, 5 applied, 7 without a model found, 0 without a WALK packet');
    expect(text.out).toContain('doors without a model found: PLC_DT_DoorSC ×3, PLC_DT_Estate2 ×2, PLC_DT_CRSECRET1, PLC_DT_StdInt01');
    const json = await run(...args, '--json');
    expect(json.status).toBe(0);
    const [entry] = JSON.parse(json.out) as { report: { doors: Record<string, unknown> } }[];
    expect(entry!.report.doors).toMatchObject({ inGit: 12, applied: 5, invisible: 0, missingModel: 7, noWalkmesh: 0 });
    expect((entry!.report.doors.missingModels as { model: string; rows: string[]; doors: number[] }[])[0]).toEqual({
      model: 'PLC_DT_DoorSC',
      rows: ['doortypes.2da row 362'],
      doors: [6, 7, 9],
      reason: 'model PLC_DT_DoorSC not found',
    });
  });
});
