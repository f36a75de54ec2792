import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreLastExport } from '../../electron/services/project/export-backups';
import { exportProject } from '../../electron/services/project/project-export';
import { importSources } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import { fixturesRoot, repoRoot } from '../support/fixtures';
import { mulberry32 } from '../support/seeded-random';

/**
 * Kills `walkbench project rebake` and `project export` with SIGKILL at 20 random moments
 * each (issue 6 §5) and checks what a crash may leave: the project opens, SQLite's
 * integrity check passes, every recorded bake holds the bytes its hash names, every game
 * file is whole (its old bytes or its new ones), and running the command again completes.
 */

const KILLS = 20;
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-kill-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');


interface ChildRun {
  /** Milliseconds from spawn to exit. */
  ms: number;
  killed: boolean;
  code: number | null;
  stderr: string;
}

/**
 * Runs the built CLI (bin.mjs and dist/, which `npm test` builds first: from source, tsx
 * would compile the CLI and each bake worker at every start, and the kills would mostly
 * land in start-up); kills it `killAfterMs` after spawn (never, when undefined).
 */
function runCli(args: readonly string[], killAfterMs?: number): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [path.join(repoRoot, 'electron/cli/bin.mjs'), ...args], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - t0, killed: signal === 'SIGKILL', code, stderr });
    });
  });
}

beforeAll(() => {
  // Not rebuilt here: other tests run the built CLI at the same time (see project-rebake.test.ts).
  for (const built of ['dist/cli/walkbench.mjs', 'dist/workers/bake-worker.mjs']) {
    if (!existsSync(path.join(repoRoot, built))) throw new Error(`${built} is missing: run \`npm run build:node\` (npm test does) before this test`);
  }
});

function expectProjectIntact(file: string): void {
  const raw = new Database(file);
  try {
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(raw.pragma('foreign_key_check')).toEqual([]);
  } finally {
    raw.close();
  }
  const store = ProjectStore.open(file);
  try {
    for (const bake of store.listBakes()) {
      const bytes = store.loadBakeOutput(bake.id);
      expect(bytes.length).toBe(bake.outputSize);
      expect(sha(bytes)).toBe(bake.outputSha256);
    }
    // The project still takes writes.
    store.pushHistory({ label: 'after a kill', command: {}, inverse: {}, files: [1] });
  } finally {
    store.close();
  }
}

describe('walkbench project killed with SIGKILL', () => {
  it(`rebake: ${KILLS} kills at random moments leave an intact project, and a rerun bakes everything`, async () => {
    const project = path.join(tmp, 'rebake.wbproj');
    const store = ProjectStore.create(project, { name: 'kill', game: 'nwn2' });
    const kaedrin = path.join(fixturesRoot, 'nwn2/kaedrin');
    // Small areas, so that 20 runs stay quick while each still bakes for a few seconds.
    const files = ['a winding path.trx', 'daggerdale_scorps_lv1.trx', 'fh_settlement.trx', 'cormanthyr - starwoodtunnel.trx', 'enter world.trx', 'dm001_cargohold.trx'];
    try {
      await importSources(store, files.map((f) => path.join(kaedrin, f)), { module: 'k' });
    } finally {
      store.close();
    }
    const full = await runCli(['project', 'rebake', project, '--jobs', '2', '--force']);
    expect(full.code, full.stderr).toBe(0);
    const next = mulberry32(0x5eed1);
    const lastBakeId = () => {
      const s = ProjectStore.open(project);
      try {
        return Math.max(0, ...s.listBakes().map((b) => b.id));
      } finally {
        s.close();
      }
    };
    let kills = 0;
    let cutMidway = 0;
    for (let attempt = 0; kills < KILLS && attempt < KILLS * 3; attempt++) {
      const before = lastBakeId();
      // Every other run records each bake as it lands (--record-batch 1), so kills land between
      // two commits; the others use the default batches, whose kills must leave it intact too.
      const batch = attempt % 2 === 0 ? ['--record-batch', '1'] : [];
      const r = await runCli(['project', 'rebake', project, '--jobs', '2', '--force', ...batch], next() * full.ms);
      if (r.killed) kills++;
      else expect(r.code, r.stderr).toBe(0);
      expectProjectIntact(project);
      // A forced rebake records every bake anew; a kill between the first and the last leaves some recorded.
      const recorded = lastBakeId() - before;
      if (r.killed && recorded > 0 && recorded < files.length) cutMidway++;
    }
    expect(kills).toBe(KILLS);
    expect(cutMidway).toBeGreaterThan(0);
    const again = await runCli(['project', 'rebake', project, '--jobs', '2']);
    expect(again.code, again.stderr).toBe(0);
    const after = ProjectStore.open(project);
    try {
      expect(new Set(after.listBakes().map((b) => b.inputs[0]!.name))).toEqual(new Set(files.map((f) => `k/${f}`)));
    } finally {
      after.close();
    }
  }, 600_000);

  it(`export: ${KILLS} kills at random moments leave every game file whole, a rerun completes, and restore puts the old files back`, async () => {
    const project = path.join(tmp, 'export.wbproj');
    const store = ProjectStore.create(project, { name: 'kill', game: 'source' });
    try {
      await importSources(store, ['css', 'cs16', 'hl2dm'].map((d) => path.join(fixturesRoot, 'source', d)), { module: 'maps' });
      const game = path.join(tmp, 'game');
      const maps = path.join(game, 'maps');
      mkdirSync(maps, { recursive: true });
      const navs = store.listFiles().map((f) => ({ name: f.name, sha: f.sha256 }));
      const names = navs.map((n) => n.name).sort();
      const resetOld = (round: number) => {
        for (const n of navs) writeFileSync(path.join(maps, n.name), `round ${round}: the old ${n.name}`);
      };
      resetOld(-1);
      const full = await runCli(['project', 'export', project, '--to', game]);
      expect(full.code, full.stderr).toBe(0);

      const next = mulberry32(0x5eed2);
      let kills = 0;
      let cutMidway = 0;
      for (let round = 0; kills < KILLS && round < KILLS * 3; round++) {
        resetOld(round);
        const r = await runCli(['project', 'export', project, '--to', game], next() * full.ms);
        if (r.killed) kills++;
        else expect(r.code, r.stderr).toBe(0);
        expectProjectIntact(project);
        // Every game file is its old bytes or its new ones; only our temporary files may be extra.
        expect(readdirSync(maps).filter((f) => !f.endsWith('.walkbench-tmp')).sort()).toEqual(names);
        let fresh = 0;
        for (const n of navs) {
          const now = sha(readFileSync(path.join(maps, n.name)));
          expect([n.sha, sha(`round ${round}: the old ${n.name}`)], n.name).toContain(now);
          if (now === n.sha) fresh++;
        }
        if (fresh > 0 && fresh < navs.length) cutMidway++;

        const rerun = await exportProject(store, { to: game });
        expect(rerun.status).toBe('done');
        expect(readdirSync(maps).sort()).toEqual(names);
        for (const n of navs) expect(sha(readFileSync(path.join(maps, n.name))), n.name).toBe(n.sha);
        // The killed run and its rerun are undone together: every file gets its old bytes back.
        restoreLastExport(store, game);
        for (const n of navs) expect(readFileSync(path.join(maps, n.name), 'utf8')).toBe(`round ${round}: the old ${n.name}`);
      }
      expect(kills).toBe(KILLS);
      // Random moments, not all before the first file or after the last.
      expect(cutMidway).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  }, 600_000);
});
