import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readNav } from '../../../shared/formats/source/nav-reader';
import { FuzzEngine } from '../../fuzz/fuzz-engine';
import { FuzzStats } from '../../fuzz/fuzz-stats';
import { formatTargets } from '../../fuzz/fuzz-targets';
import { GENERIC_MUTATORS } from '../../fuzz/mutators';
import { CANARY_BUGS } from '../../fuzz/targets/canary-target';
import { navTarget } from '../../fuzz/targets/nav-target';
import { fixtureName, listFixtures, readFixture, repoRoot } from '../../support/fixtures';

// Seed inputs up to 300 KB: every game folder is represented and the test stays quick.
const corpus = navTarget.loadCorpus({ maxSize: 300_000, all: false });

describe('nav fuzzing in process', () => {
  it('300 mutated fixtures raise nothing but well-formed malformed-input errors, and are both accepted and rejected', () => {
    const engine = new FuzzEngine(navTarget, corpus, 1);
    const stats = new FuzzStats();
    const failures: string[] = [];
    for (let i = 0; i < 300; i++) {
      const f = engine.run(i, stats);
      if (f) failures.push(`${f.kind} at iteration ${f.iteration} (${f.seedInput}, ${f.mutation}): ${f.message}`);
    }
    expect(failures).toEqual([]);
    expect(stats.completed).toBe(300);
    expect(stats.total('accepted')).toBeGreaterThan(0);
    expect(stats.total('rejected')).toBeGreaterThan(0);
    for (const m of [...GENERIC_MUTATORS, 'non-finite' as const]) expect(stats.count(m, 'accepted') + stats.count(m, 'rejected'), m).toBeGreaterThan(0);
    // Inflated counts must be caught: most count mutations are rejected.
    expect(stats.count('count-inflate', 'rejected')).toBeGreaterThan(stats.count('count-inflate', 'accepted'));
  });

  it('rebuilds any iteration from the seed and its number alone', () => {
    const a = new FuzzEngine(navTarget, corpus, 7);
    const b = new FuzzEngine(navTarget, corpus, 7);
    const other = new FuzzEngine(navTarget, corpus, 8);
    let differs = 0;
    for (const i of [0, 1, 99, 12345, 999_999]) {
      expect(b.plan(i).mutation.description).toBe(a.plan(i).mutation.description);
      expect(Buffer.from(b.input(i)).equals(a.input(i))).toBe(true);
      if (other.plan(i).mutation.description !== a.plan(i).mutation.description) differs++;
    }
    expect(differs).toBeGreaterThan(0);
  });

  it('seeds every old version (1 and 2 generated, 3 and 4 real) and fuzzes them without failures', () => {
    const version = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(4, true);
    const versions = new Set(corpus.map((c) => version(c.bytes)));
    for (const v of [1, 2, 3, 4, 5, 9, 16]) expect(versions.has(v), `a seed of version ${v}`).toBe(true);
    const old = corpus.filter((c) => version(c.bytes) <= 4);
    for (const seed of old) expect(() => navTarget.check?.(navTarget.parse(seed.bytes), seed.bytes), seed.name).not.toThrow();
    const engine = new FuzzEngine(navTarget, old, 3);
    const stats = new FuzzStats();
    const failures: string[] = [];
    for (let i = 0; i < 200; i++) {
      const f = engine.run(i, stats);
      if (f) failures.push(`${f.kind} at iteration ${f.iteration} (${f.seedInput}, ${f.mutation}): ${f.message}`);
    }
    expect(failures).toEqual([]);
    expect(stats.total('accepted')).toBeGreaterThan(0);
    expect(stats.total('rejected')).toBeGreaterThan(0);
  });

  it('finds a count field of every kind the format has, holding the counts the document reads', () => {
    const kinds = new Set<string>();
    for (const file of listFixtures('source', ['.nav']).filter((f) => statSync(f).size < 250_000)) {
      const bytes = readFixture(file);
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const sums = new Map<string, number>();
      const doc = readNav(bytes, {
        onCount(offset, width, field) {
          const value = width === 4 ? dv.getUint32(offset, true) : width === 2 ? dv.getUint16(offset, true) : dv.getUint8(offset);
          sums.set(field, (sums.get(field) ?? 0) + value);
          kinds.add(field);
        },
      });
      const A = doc.areas;
      const name = fixtureName(file);
      expect(sums.get('areas.count'), name).toBe(A.count);
      expect(sums.get('connections.count'), name).toBe(A.connectionTarget.length);
      expect(sums.get('hidingSpots.count'), name).toBe(A.hidingSpotId.length);
      expect((sums.get('approach.count') ?? 0) + (sums.get('custom.approach.count') ?? 0), name).toBe(A.approachHere.length);
      expect(sums.get('encounterPaths.count') ?? 0, name).toBe(A.encounterFrom.length);
      expect(sums.get('encounterPath.spots.count') ?? 0, name).toBe(A.encounterSpotId.length);
      expect(sums.get('visibleAreas.count') ?? 0, name).toBe(A.visibleId.length);
      expect(sums.get('ladders.count') ?? 0, name).toBe(doc.ladders.count);
      expect(sums.get('places.count') ?? 0, name).toBe(doc.places.count);
    }
    for (const k of ['areas.count', 'connections.count', 'hidingSpots.count', 'approach.count', 'custom.approach.count', 'encounterPaths.count', 'places.count', 'ladders.count', 'visibleAreas.count']) {
      expect(kinds, k).toContain(k);
    }
  });
});

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runFuzzCli(args: readonly string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fuzz/fuzz.ts', ...args], { cwd: repoRoot });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('fuzz command (worker and watchdog)', () => {
  it('fuzzes nav in a worker and passes', async () => {
    const r = await runFuzzCli(['nav', '--iterations', '50', '--seed', '1', '--progress', '0']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^mutator +inputs +read OK +rejected +failures$/m);
    expect(r.stdout).toMatch(/^total +50 +/m);
    expect(r.stdout).toContain('fuzz nav: 50 iterations, 0 failure(s)');
    expect(r.code).toBe(0);
  });

  it('runs every format target with `all`, each for a number of iterations (or --minutes), and prints one table of them', async () => {
    const r = await runFuzzCli(['all', '--iterations', '12', '--seed', '1', '--progress', '0']);
    expect(r.stderr).toBe('');
    for (const t of formatTargets) {
      expect(r.stdout).toContain(`fuzz ${t.name}: 12 iterations, 0 failure(s)`);
      expect(r.stdout).toMatch(new RegExp(`^${t.name} +12 +`, 'm'));
    }
    expect(r.stdout).toMatch(/^zlib-bomb +\d+/m);
    expect(r.stdout).toContain(`fuzz all: ${formatTargets.length} targets`);
    expect(r.code).toBe(0);
  }, 240_000);

  it('stops a run when its --minutes are up', async () => {
    const t0 = performance.now();
    const r = await runFuzzCli(['nav', '--minutes', '0.05', '--seed', '1', '--progress', '0']);
    expect(r.stdout).toMatch(/fuzz nav: \d+ iterations, 0 failure\(s\)/);
    expect(r.code).toBe(0);
    expect(performance.now() - t0).toBeLessThan(30_000);
  });

  it('reports every kind of failure planted in the canary target, with a saved input that replays', async () => {
    const r = await runFuzzCli(
      ['canary', '--iterations', '1000', '--seed', '1', '--timeout-ms', '500', '--heap-mb', '64', '--max-failures', '16', '--max-reports', '1', '--progress', '0'],
    );
    expect(r.code).toBe(1);
    for (const kind of CANARY_BUGS) expect(r.stdout, kind).toContain(`FAILURE (${kind}) at seed 1, iteration`);
    const saved = [...r.stdout.matchAll(/saved to: (\S+)/g)].map((m) => m[1]!);
    expect(saved.length).toBeGreaterThanOrEqual(CANARY_BUGS.length);
    for (const file of saved) expect(existsSync(file), file).toBe(true);

    const crash = /FAILURE \(crash\) at seed 1, iteration (\d+)/.exec(r.stdout);
    expect(crash).not.toBeNull();
    const replay = await runFuzzCli(['canary', '--seed', '1', '--start', crash![1]!, '--iterations', '1', '--in-process', '--progress', '0']);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain(`FAILURE (crash) at seed 1, iteration ${crash![1]}`);
    expect(replay.stdout).toContain('fuzz canary: 1 iterations, 1 failure(s)');
  });
});
