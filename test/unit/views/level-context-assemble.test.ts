import { describe, expect, it } from 'vitest';
import { nodeFormatEnvironment as env } from '../../../electron/services/node-format-environment';
import { decodeLevelContext, encodeLevelContextInput, levelContextJob } from '../../../electron/services/bake-pool/level-context-job';
import { readKotorModel } from '../../../shared/formats/kotor/mdl-reader';
import { kotorModelContextPieces } from '../../../shared/formats/kotor/mdl-level-context';
import { floatsOf } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { levelContextTriangleCount } from '../../../shared/model/level-context';
import { assembleLevelContext, type LevelContextInput } from '../../../shared/views/level-context-assemble';
import { levelContextReaders } from '../../../shared/views/level-context-readers';
import { fixturesRoot, readFixture } from '../../support/fixtures';

const MODELS = `${fixturesRoot}/kotor/k1-blackvulkar-models`;
const WOKS = `${fixturesRoot}/kotor/k1-blackvulkar`;
const ROOMS = ['m10aa_01c', 'm10aa_03a', 'm10aa_05a', 'm10aa_06a', 'm10aa_08a', 'm10aa_08b', 'm10aa_09a', 'm10aa_09b'];

function room(name: string, place = { x: 0, y: 0, z: 0, bearing: 0 }, placeByWalkmesh = true): NonNullable<LevelContextInput['kotorRooms']>[number] {
  return { label: `room ${name}`, mdl: { name: `${name}.mdl`, bytes: readFixture(`${MODELS}/${name}.mdl`) }, mdx: readFixture(`${MODELS}/${name}.mdx`), place, wok: readFixture(`${WOKS}/${name}.wok`), placeByWalkmesh };
}

function minOf(p: Float32Array): number[] {
  const m = [Infinity, Infinity, Infinity];
  for (let i = 0; i < p.length; i += 3) for (let k = 0; k < 3; k++) m[k] = Math.min(m[k]!, p[i + k]!);
  return m;
}

function maxOf(p: Float32Array): number[] {
  const m = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) for (let k = 0; k < 3; k++) m[k] = Math.max(m[k]!, p[i + k]!);
  return m;
}

describe('assembleLevelContext', () => {
  it('a file that does not read is a gap naming it; the other parts are still read', () => {
    const input: LevelContextInput = {
      game: 'kotor',
      gaps: [{ what: 'm10aa_99z.mdl', why: 'not found' }],
      kotorRooms: [{ ...room('m10aa_09a'), mdl: { name: 'broken.mdl', bytes: new Uint8Array(40) } }, room('m10aa_03a')],
    };
    const c = assembleLevelContext(input, levelContextReaders(env));
    expect(c.pieces.map((p) => p.label)).toEqual(['room m10aa_03a']);
    expect(c.gaps[0]).toEqual({ what: 'm10aa_99z.mdl', why: 'not found' });
    expect(c.gaps[1]!.what).toBe('broken.mdl');
    expect(c.gaps[1]!.why).toContain('broken.mdl');
  });

  it('a part whose reader this build lacks is a gap, not a silent omission', () => {
    const c = assembleLevelContext({ game: 'source', gaps: [], bsp: { name: 'maps/x.bsp', bytes: new Uint8Array(8) } }, {});
    expect(c.pieces).toEqual([]);
    expect(c.gaps).toEqual([{ what: 'maps/x.bsp', why: 'no BSP reader in this build' }]);
  });

  it('places each Black Vulkar room model where its WOK puts the model\'s walkmesh, all rooms on one floor level', () => {
    const zs = new Set<string>();
    for (const name of ROOMS) {
      const c = assembleLevelContext({ game: 'kotor', gaps: [], kotorRooms: [room(name)] }, levelContextReaders(env));
      expect(c.gaps).toEqual([]);
      const placed = c.pieces[0]!;
      const model = readKotorModel(readFixture(`${MODELS}/${name}.mdl`), readFixture(`${MODELS}/${name}.mdx`), name);
      const atOrigin = kotorModelContextPieces(model, { x: 0, y: 0, z: 0 }, 'origin')[0]!;
      // The same mesh moved by one offset; the offset is the room's place, z shared by the area's rooms.
      const offset = [0, 1, 2].map((k) => placed.positions[k]! - atOrigin.positions[k]!);
      expect(placed.positions.length).toBe(atOrigin.positions.length);
      for (let i = 0; i < placed.positions.length; i += 997) expect(Math.abs(placed.positions[i]! - atOrigin.positions[i]! - offset[i % 3]!)).toBeLessThan(1e-3);
      zs.add(offset[2]!.toFixed(3));
      // The walkmesh lies inside the placed room's footprint (x, y), and the floor within a few centimetres of its lowest corner.
      const wok = floatsOf(readBwm(readFixture(`${WOKS}/${name}.wok`)).vertices);
      const [wMin, wMax, mMin, mMax] = [minOf(wok), maxOf(wok), minOf(placed.positions), maxOf(placed.positions)];
      for (const k of [0, 1]) {
        expect(wMin[k]!).toBeGreaterThan(mMin[k]! - 0.5);
        expect(wMax[k]!).toBeLessThan(mMax[k]! + 0.5);
      }
      expect(Math.abs(mMin[2]! - wMin[2]!)).toBeLessThan(0.05);
    }
    expect([...zs]).toEqual(['2.250']);
  });

  it('a layout position the WOK disagrees with is drawn where the layout says, and reported', () => {
    const c = assembleLevelContext({ game: 'kotor', gaps: [], kotorRooms: [room('m10aa_09a', { x: 0, y: 0, z: 0, bearing: 0 }, false)] }, levelContextReaders(env));
    expect(c.pieces).toHaveLength(1);
    expect(c.gaps).toHaveLength(1);
    expect(c.gaps[0]!.why).toMatch(/the WOK and the layout disagree by \d+\.\d\d/);
  });

  it('the worker job gives the same context as the direct call, through its frames', () => {
    const input: LevelContextInput = { game: 'kotor', gaps: [], kotorRooms: [room('m10aa_05a')] };
    const direct = assembleLevelContext(input, levelContextReaders(env));
    const stages: string[] = [];
    const out = levelContextJob(encodeLevelContextInput(input), null, (stage) => stages.push(stage));
    const viaJob = decodeLevelContext(out.output);
    expect(levelContextTriangleCount(viaJob)).toBe(levelContextTriangleCount(direct));
    expect(Array.from(viaJob.pieces[0]!.positions)).toEqual(Array.from(direct.pieces[0]!.positions));
    expect(out.summary).toEqual({ pieces: 1, triangles: levelContextTriangleCount(direct), gaps: 0 });
    expect(stages).toEqual(['room model m10aa_05a.mdl', 'done']);
  });
});
