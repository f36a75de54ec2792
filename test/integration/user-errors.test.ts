import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../electron/cli/walkbench';
import { ProjectStore } from '../../electron/services/project/project-store';
import { readBwm } from '../../shared/formats/kotor/bwm-reader';
import { writeBwm } from '../../shared/formats/kotor/bwm-writer';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { commandRunner, type CommandRun } from '../support/run-command';

/**
 * Bad input is the user's error, never Walkbench's: one line naming the file and what is
 * wrong, exit status 1, no stack, never "internal error" (exit 70), as a review found for
 * a WOK whose faces name missing vertices, NaN geometry and damaged project files.
 */
const run = commandRunner(main);
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-user-errors-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const room = path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_09a.wok');

function expectUserError(r: CommandRun, file: string, what: RegExp): void {
  expect(r.status).toBe(1);
  const lines = r.err.trimEnd().split('\n');
  expect(lines, r.err).toHaveLength(1);
  expect(lines[0]).toContain(file);
  expect(lines[0]).toMatch(what);
  expect(r.err).not.toMatch(/internal error|\n\s+at /);
}

/** The room with its first face naming a vertex past the end (written through the writer, read back fine). */
function wokWithMissingVertex(): string {
  const doc = readBwm(readFixture(room));
  doc.faces[0] = 999_999;
  delete doc.original;
  const file = path.join(tmp, 'missing-vertex.wok');
  writeFileSync(file, writeBwm(doc));
  return file;
}

describe('a WOK whose face names a missing vertex', () => {
  it('roundtrip and convert report it as the file\'s fault, naming file and face', async () => {
    const bad = wokWithMissingVertex();
    expectUserError(await run('roundtrip', bad), bad, /face 0 uses vertex 999999 but the mesh has \d+ vertices/);
    expectUserError(await run('convert', bad, path.join(tmp, 'out.obj')), bad, /face 0 uses vertex 999999/);
    const json = await run('roundtrip', '--json', bad);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.out)).toEqual([expect.objectContaining({ file: bad, ok: false, error: expect.stringContaining('face 0 uses vertex 999999') })]);
  });
});

describe('NaN geometry', () => {
  it('convert to OBJ names the file, the walkmesh and the vertex', async () => {
    const doc = readBwm(readFixture(room));
    doc.vertices[4] = 0x7fc00000; // vertex 1's y: a quiet NaN
    delete doc.original;
    const bad = path.join(tmp, 'nan.wok');
    writeFileSync(bad, writeBwm(doc));
    expectUserError(await run('convert', bad, path.join(tmp, 'nan.obj')), bad, /vertex 1 is \(.*NaN.*\): a coordinate is not a finite number/);
  });

  it('convert from OBJ to a walkmesh format refuses an infinite coordinate, naming the OBJ', async () => {
    const obj = path.join(tmp, 'huge.obj');
    writeFileSync(obj, 'v 1e39 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    expectUserError(await run('convert', obj, path.join(tmp, 'huge.wok')), obj, /vertex 0 is \(Infinity, 0, 0\)/);
  });
});

describe('damaged and foreign project files', () => {
  const whole = path.join(tmp, 'whole.wbproj');
  const store = ProjectStore.create(whole, { name: 'whole', game: 'source' });
  for (let i = 0; i < 40; i++) store.upsertFile({ module: 'm', name: `f${i}.nav`, kind: 'walkmesh', format: 'source-nav', bytes: new Uint8Array(8192).fill(i) });
  store.close();

  it('a truncated project: one line naming it as damaged, exit 1', async () => {
    const truncated = path.join(tmp, 'truncated.wbproj');
    writeFileSync(truncated, readFileSync(whole).subarray(0, 40_000));
    for (const sub of ['info', 'rebake']) expectUserError(await run('project', sub, truncated), truncated, /is damaged/);
    expectUserError(await run('project', 'export', truncated, '--to', tmp), truncated, /is damaged/);
  });

  it('a project damaged inside (its length intact): the query that meets the bad page names the file', async () => {
    const garbled = path.join(tmp, 'garbled.wbproj');
    const bytes = Buffer.from(readFileSync(whole));
    for (let at = 4096; at < bytes.length; at += 4096) bytes.fill(0xa5, at, at + 200);
    writeFileSync(garbled, bytes);
    expectUserError(await run('project', 'info', garbled), garbled, /is damaged: database disk image is malformed/);
  });

  it('a foreign file and an empty one: not a Walkbench project', async () => {
    const foreign = path.join(tmp, 'foreign.wbproj');
    writeFileSync(foreign, 'hello\n');
    expectUserError(await run('project', 'info', foreign), foreign, /is not a Walkbench project/);
    const empty = path.join(tmp, 'empty.wbproj');
    writeFileSync(empty, '');
    expectUserError(await run('project', 'info', empty), empty, /is empty, not a Walkbench project/);
  });
});
