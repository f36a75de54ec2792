import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectCommand } from '../../electron/cli/commands/project-command';
import { UsageError } from '../../electron/cli/cli-io';
import { ProjectStore } from '../../electron/services/project/project-store';
import { TRX_FORMAT } from '../../shared/formats/nwn2/trx-document';
import { fixturesRoot, readFixture, repoRoot } from '../support/fixtures';
import { commandRunner } from '../support/run-command';

const run = commandRunner(projectCommand);

interface RebakeJson {
  counts: { baked: number; skipped: number; failed: number };
  files: { file: string; status: string; reason?: string; outputSha256?: string }[];
}

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-rebake-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const project = path.join(tmp, 'rebake.wbproj');
let kaedrinTrx = 0;

beforeAll(async () => {
  // The built CLI (bin.mjs runs dist/cli/walkbench.mjs) must find dist/workers/bake-worker.mjs beside its
  // bundle. `npm test` builds dist before the suite; rebuilding it here would race the other tests that
  // run the built CLI at the same time, so a missing build is reported instead.
  const worker = path.join(repoRoot, 'dist/workers/bake-worker.mjs');
  if (!existsSync(worker)) throw new Error(`${worker} is missing: run \`npm run build:node\` (npm test does) before this test`);
  expect((await run('create', project, '--game', 'nwn2')).status).toBe(0);
  expect((await run('import', project, path.join(fixturesRoot, 'nwn2/kaedrin'))).status).toBe(0);
  expect((await run('import', project, path.join(fixturesRoot, 'nwn2/mordmansion'), '--module', 'mord')).status).toBe(0);
  const store = ProjectStore.open(project);
  try {
    kaedrinTrx = store.listFiles({ module: 'kaedrin', kind: 'walkmesh' }).filter((f) => f.format === TRX_FORMAT).length;
  } finally {
    store.close();
  }
});

describe('walkbench project rebake', () => {
  it('bakes one module from the built CLI, then everything else in-process, then skips all of it', async () => {
    const cli = spawnSync(process.execPath, [path.join(repoRoot, 'electron/cli/bin.mjs'), 'project', 'rebake', project, '--module', 'mord', '--jobs', '1'], {
      encoding: 'utf8',
    });
    expect(cli.stderr).toMatch(/rebake: 1\/1 mord\/CSLMordMansion\.TRX baked in \d+ ms/);
    expect(cli.stdout).toContain(`${project}: 1 baked, 0 skipped (unchanged), 0 failed`);
    expect(cli.status).toBe(0);

    expect(kaedrinTrx).toBeGreaterThan(10);
    const first = await run('rebake', project, '--jobs', '2', '--json');
    expect(first.status).toBe(0);
    const report = JSON.parse(first.out) as RebakeJson;
    expect(report.counts).toEqual({ baked: kaedrinTrx, skipped: 1, failed: 0 });
    expect(report.files.find((f) => f.file === 'mord/CSLMordMansion.TRX')?.status).toBe('skipped');

    const second = await run('rebake', project, '--jobs', '2');
    expect(second.status).toBe(0);
    expect(second.out).toBe(`${project}: 0 baked, ${kaedrinTrx + 1} skipped (unchanged), 0 failed\n`);
    expect(second.err.match(/unchanged\n/g)).toHaveLength(kaedrinTrx + 1);
  }, 180_000);

  it('re-bakes with --force to the same recorded bytes', async () => {
    const before = ProjectStore.open(project);
    const sha = before.listBakes().find((b) => b.inputs[0]?.name === 'mord/CSLMordMansion.TRX')?.outputSha256;
    before.close();
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    const forced = JSON.parse((await run('rebake', project, '--module', 'mord', '--force', '--json')).out) as RebakeJson;
    expect(forced.counts).toEqual({ baked: 1, skipped: 0, failed: 0 });
    expect(forced.files[0]).toMatchObject({ file: 'mord/CSLMordMansion.TRX', status: 'baked', outputSha256: sha });
  });

  it('re-bakes a changed file only, and reports a file that cannot be baked with its reason', async () => {
    const trx = readFixture(path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.TRX'));
    const store = ProjectStore.open(project);
    try {
      store.upsertFile({ module: 'broken', name: 'cut.trx', kind: 'walkmesh', format: TRX_FORMAT, bytes: trx.slice(0, 200) });
      store.upsertFile({ module: 'broken', name: 'whole.trx', kind: 'walkmesh', format: TRX_FORMAT, bytes: trx });
    } finally {
      store.close();
    }
    const r = await run('rebake', project, '--module', 'broken', '--jobs', '2');
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/^failed broken\/cut\.trx: .+/m);
    expect(r.out).toContain(`${project}: 1 baked, 0 skipped (unchanged), 1 failed`);
    // whole.trx has the same bytes as the mord file but another name: its own bake, now recorded.
    const again = await run('rebake', project, '--module', 'broken');
    expect(again.out).toContain(`${project}: 0 baked, 1 skipped (unchanged), 1 failed`);
    // New bytes under the same name: baked again.
    const other = ProjectStore.open(project);
    try {
      other.upsertFile({ module: 'broken', name: 'whole.trx', kind: 'walkmesh', format: TRX_FORMAT, bytes: readFixture(path.join(fixturesRoot, 'nwn2/kaedrin/enter world.trx')) });
    } finally {
      other.close();
    }
    const changed = JSON.parse((await run('rebake', project, '--module', 'broken', '--json')).out) as RebakeJson;
    expect(changed.counts).toEqual({ baked: 1, skipped: 0, failed: 1 });
    expect(changed.files.map((f) => [f.file, f.status])).toEqual([
      ['broken/cut.trx', 'failed'],
      ['broken/whole.trx', 'baked'],
    ]);
  });

  it('refuses a wrong --jobs', async () => {
    await expect(run('rebake', project, '--jobs', '0')).rejects.toThrow(UsageError);
    await expect(run('rebake', project, '--jobs', 'many')).rejects.toThrow(UsageError);
    await expect(run('rebake')).rejects.toThrow(UsageError);
  });
});
