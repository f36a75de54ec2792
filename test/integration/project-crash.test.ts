import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/services/project/project-store';
import { listFixtures, repoRoot } from '../support/fixtures';

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-project-crash-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Committed {
  batches: number;
  /** Round and files done of the last batch the child reported committed. */
  round: number;
  done: number;
}

/** Starts the importing child and kills it with SIGKILL after it committed `batches` batches. */
function importThenKill(project: string, batches: number): Promise<Committed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test/integration/project-import-child.ts'), project], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const last: Committed = { batches: 0, round: 0, done: 0 };
    let stderr = '';
    let pending = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const m = /^committed (\d+) (\d+)$/.exec(line);
        if (!m) continue;
        last.batches++;
        last.round = Number(m[1]);
        last.done = Number(m[2]);
      }
      // Killed mid-way through the next batch, not between batches.
      if (last.batches >= batches && !child.killed) setTimeout(() => child.kill('SIGKILL'), 15);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(last);
      else reject(new Error(`child ended with ${code ?? signal} before it was killed: ${stderr}`));
    });
  });
}

describe('project file after a crash', () => {
  it('is intact and keeps every committed file when the importing process is killed', async () => {
    const file = path.join(tmp, 'crash.wbproj');
    ProjectStore.create(file, { name: 'crash', game: 'source' }).close();
    const committed = await importThenKill(file, 3);
    expect(committed.batches).toBeGreaterThanOrEqual(3);
    const perRound = listFixtures('source', ['.nav']).length;

    const raw = new Database(file);
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(raw.pragma('foreign_key_check')).toEqual([]);
    raw.close();

    const store = ProjectStore.open(file);
    try {
      const files = store.listFiles();
      // Every batch reported committed is there; a batch cut short is there whole or not at all.
      expect(files.length).toBeGreaterThanOrEqual(committed.round * perRound + committed.done);
      for (const f of files) {
        const bytes = store.loadFileBytes(f.id);
        expect(bytes.length).toBe(f.size);
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
      }
      store.pushHistory({ label: 'after crash', command: {}, inverse: {}, files: [1] });
      expect(store.listHistory()).toHaveLength(1);
    } finally {
      store.close();
    }
  });
});
