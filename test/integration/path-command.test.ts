import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import { main } from '../../electron/cli/walkbench';
import { floatView, NONE16, TriangleFlag } from '../../shared/formats/nwn2/aswm-document';
import { aswmPacketOf } from '../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { fixturesRoot, readFixture, repoRoot } from '../support/fixtures';
import { commandRunner, type CommandRun } from '../support/run-command';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import { BLACK_VULKAR_ROOMS, blackVulkarArea, blackVulkarLyt } from '../unit/kotor-area/black-vulkar-area';

const run = commandRunner(main);
const mord = path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.TRX');
const itemtest = path.join(fixturesRoot, 'source/tf2/itemtest.nav');
const silverHand = path.join(fixturesRoot, 'skyrim/DawnOfTheSilverHand.esp');
const json = (r: CommandRun) => JSON.parse(r.out) as Record<string, unknown>;
const xyz = (p: number[]) => p.join(',');

/** Triangle centres of the Mord Mansion TRX picked from its own island tables: a reachable and an unreachable pair. */
function mordPairs(): { reachable: [number[], number[]]; unreachable: [number[], number[]]; islands: [number, number] } {
  const a = aswmPacketOf(readTrx(readFixture(mord), nodeFormatEnvironment))!.aswm;
  const p = floatView(a.vertices);
  const centre = (t: number) => [0, 1, 2].map((c) => [0, 1, 2].reduce((s, k) => s + p[a.triVertices[t * 3 + k]! * 3 + c]!, 0) / 3);
  const n = a.islands.count;
  const firstOf = new Map<number, number>();
  for (let t = 0; t < a.triFlags.length; t++) if (a.triFlags[t]! & TriangleFlag.walkable && a.triIsland[t] !== NONE16 && !firstOf.has(a.triIsland[t]!)) firstOf.set(a.triIsland[t]!, t);
  let reachable: [number[], number[]] | undefined;
  let unreachable: [number[], number[]] | undefined;
  let islands: [number, number] = [0, 0];
  for (let i = 0; i < n && !(reachable && unreachable); i++) {
    for (let j = 0; j < n; j++) {
      if (i === j || !firstOf.has(i) || !firstOf.has(j)) continue;
      const next = a.islandPaths.next[i * n + j];
      if (next === NONE16 && !unreachable) {
        unreachable = [centre(firstOf.get(i)!), centre(firstOf.get(j)!)];
        islands = [i, j];
      }
      if (next !== NONE16 && !reachable && Math.hypot(...centre(firstOf.get(i)!).map((v, k) => v - centre(firstOf.get(j)!)[k]!)) > 10) reachable = [centre(firstOf.get(i)!), centre(firstOf.get(j)!)];
    }
  }
  return { reachable: reachable!, unreachable: unreachable!, islands };
}

describe('walkbench path', () => {
  const pairs = mordPairs();

  it('prints a NWN2 path the baked tables give as one JSON object', async () => {
    const [from, to] = pairs.reachable;
    const r = await run('path', mord, '--from', xyz(from), '--to', xyz(to), '--json');
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    const o = json(r);
    expect(o).toMatchObject({ file: mord, format: 'nwn2-trx', found: true, reason: null, method: 'nwn2-baked-tables' });
    const points = o.points as number[][];
    expect(points.length).toBeGreaterThanOrEqual(2);
    expect(points[0]![0]).toBeCloseTo(from[0]!, 2);
    expect(points[points.length - 1]![1]).toBeCloseTo(to[1]!, 2);
    let length = 0;
    for (let i = 1; i < points.length; i++) length += Math.hypot(...points[i]!.map((v, k) => v - points[i - 1]![k]!));
    expect(o.length as number).toBeCloseTo(length, 2);
    expect(o.length as number).toBeGreaterThan(10);
    expect(o.facesCrossed as number).toBeGreaterThan(1);
  });

  it('reports no path, naming the islands, where the island path nodes say unreachable', async () => {
    const [from, to] = pairs.unreachable;
    const r = await run('path', mord, '--from', xyz(from), '--to', xyz(to), '--json');
    expect(r.status).toBe(1);
    const o = json(r);
    expect(o).toMatchObject({ found: false, length: null, points: [], code: 'islands-unreachable' });
    expect(o.reason).toContain(`island ${pairs.islands[0]}`);
    expect(o.reason).toContain(`island ${pairs.islands[1]}`);
    expect((o.breaks as unknown[]).length).toBeGreaterThan(0);
    const text = await run('path', mord, '--from', xyz(from), '--to', xyz(to));
    expect(text.status).toBe(1);
    expect(text.out).toMatch(/no path: the island path nodes say baked island \d+/);
    expect(text.out).toMatch(/\n {2}break \(/);
  });

  it('walks a Source nav mesh through its connections', async () => {
    // Both points are on the flat ground floor (z = -191.97) of the TF2 test map, in sight of each other.
    const r = await run('path', itemtest, '--from', '0,-300,-192', '--to', '1037,-450,-192', '--json');
    expect(r.status).toBe(0);
    const o = json(r);
    expect(o).toMatchObject({ format: 'source-nav', found: true, crossed: 'areas', method: 'a-star' });
    expect(o.length as number).toBeCloseTo(Math.hypot(1037, 150), 1);
    expect(o.facesCrossed as number).toBeGreaterThan(1);
    expect((o.start as { label: string }).label).toMatch(/^area \d+$/);
  });

  it('restricts a Skyrim plugin to the navmesh named by --walkmesh', async () => {
    const list = await run('path', silverHand, '--from', '0,0,0', '--to', '1,1,1', '--walkmesh', 'nope');
    expect(list.status).toBe(2);
    expect(list.err).toMatch(/has no walkmesh "nope"; it has \d+: 0: 0x[0-9A-F]{8}/);
    const id = /0: (0x[0-9A-F]{8})/.exec(list.err)![1]!;
    const r = await run('path', silverHand, '--from', '0,0,0', '--to', '1,1,1', '--walkmesh', id, '--tolerance', '100000', '--json');
    const o = json(r);
    expect(o.walkmesh).toContain(id);
    expect((o.start as { label: string }).label).toContain(`NAVM ${id}`);
  });

  it('walks a KotOR area from its .lyt through the room WOKs beside it', async () => {
    // The fixture WOKs are linked (not copied) beside a layout written for them.
    const dir = mkdtempSync(path.join(tmpdir(), 'walkbench-path-'));
    for (const room of BLACK_VULKAR_ROOMS) symlinkSync(path.join(fixturesRoot, 'kotor/k1-blackvulkar', `${room}.wok`), path.join(dir, `${room}.wok`));
    const lyt = path.join(dir, 'm10aa.lyt');
    writeFileSync(lyt, writeLyt(blackVulkarLyt()));
    // Room 2 (08b) to room 0 (06a): through the doorways into 08a, 05a and 06a.
    const list = await run('path', lyt, '--from', '0,0,0', '--to', '0,0,0', '--walkmesh', 'nope');
    expect(list.status).toBe(2);
    expect(list.err).toMatch(/it has 8: 0: 0 \(M10aa_06a\)/);
    // A point on the first walkable face of room 2 and of room 0, in world space.
    const area = blackVulkarArea();
    const point = (room: number) => {
      const doc = area.rooms[room]!.doc!;
      const P = area.rooms[room]!.positions;
      return [0, 1, 2].map((c) => [0, 1, 2].reduce((sum, k) => sum + P[doc.faces[k]! * 3 + c]!, 0) / 3);
    };
    const r = await run('path', lyt, '--from', xyz(point(2)), '--to', xyz(point(0)), '--walkmesh', 'M10aa_08b', '--json');
    expect(r.status).toBe(0);
    const o = json(r);
    expect(o).toMatchObject({ format: 'kotor-lyt', walkmesh: 'M10aa_08b', found: true });
    expect((o.start as { label: string }).label).toContain('room 2 (M10aa_08b)');
    expect((o.end as { label: string }).label).toContain('room 0 (M10aa_06a)');
    expect(o.length as number).toBeGreaterThan(Math.hypot(point(0)[0]! - point(2)[0]!, point(0)[1]! - point(2)[1]!) - 1e-3);
  });

  it('refuses bad coordinates with a usage error', async () => {
    for (const bad of ['1,2', '1,2,x', '', '1,,3', '1,2,3,4']) {
      const r = await run('path', mord, '--from', bad, '--to', '0,0,0');
      expect(r.status).toBe(2);
      expect(r.err).toContain('--from takes three numbers X,Y,Z');
    }
    const missing = await run('path', mord, '--from', '1,2,3');
    expect(missing.status).toBe(2);
    expect(missing.err).toContain('path needs --to X,Y,Z');
    const tol = await run('path', mord, '--from', '1,2,3', '--to', '1,2,3', '--tolerance', '-1');
    expect(tol.status).toBe(2);
    const single = await run('path', mord, '--from', '1,2,3', '--to', '1,2,3', '--walkmesh', '0');
    expect(single.status).toBe(2);
    expect(single.err).toContain('holds one walkmesh');
  });

  it('says when a point is off the walkable surface, and fails on a missing file in one line', async () => {
    const r = await run('path', mord, '--from', '-500,-500,0', '--to', xyz(pairs.reachable[1]), '--json');
    expect(r.status).toBe(1);
    expect(json(r)).toMatchObject({ found: false, code: 'start-off-mesh' });
    expect(json(r).reason).toMatch(/start point \(-500, -500, 0\) is not on a walkable face/);
    const truncated = path.join(mkdtempSync(path.join(tmpdir(), 'walkbench-path-')), 'truncated.trx');
    writeFileSync(truncated, readFixture(mord).subarray(0, 5000));
    const bad = await run('path', truncated, '--from', '0,0,0', '--to', '0,0,0', '--json');
    expect(bad.status).toBe(1);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect(bad.err).toContain(truncated);
    expect(bad.err).not.toMatch(/\n\s+at /);
    expect(json(bad)).toMatchObject({ found: false, code: 'unreadable' });
    const gone = await run('path', path.join(fixturesRoot, 'nwn2/no-such.trx'), '--from', '0,0,0', '--to', '0,0,0');
    expect(gone.status).toBe(1);
    expect(gone.err.trim().split('\n')).toHaveLength(1);
    expect(gone.err).toContain('no-such.trx');
  });

  it('runs from the built command line', () => {
    const launcher = path.join(repoRoot, 'electron/cli/bin.mjs');
    const [from, to] = pairs.reachable;
    const r = spawnSync(process.execPath, [launcher, 'path', mord, '--from', xyz(from), '--to', xyz(to), '--json'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ found: true, method: 'nwn2-baked-tables' });
  });
});
