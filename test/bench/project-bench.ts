/**
 * Project file timings: a project of 1,000 walkmeshes (real fixture bytes, the small ones,
 * repeated under distinct names) is built once, then opening it and listing its files is
 * timed. The issue asks for under 300 ms; the figures are printed, never asserted.
 * Run alone with `node --import tsx test/bench/project-bench.ts [--walkmeshes N --runs N]`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { detectFormat } from '../../shared/formats/format-registry';
import { ProjectStore } from '../../electron/services/project/project-store';
import { listFixtures, readFixture } from '../support/fixtures';
import { median } from './measure';

export interface ProjectBenchOptions {
  walkmeshes?: number;
  runs?: number;
  out?: (text: string) => void;
}

export interface ProjectBenchResult {
  walkmeshes: number;
  fileBytes: number;
  projectBytes: number;
  insertMs: number;
  /** Median of open + info + list of every file's metadata + close. */
  openAndListMs: number;
  listMs: number;
  loadOneMs: number;
}

/** Walkmesh fixtures of at most 64 KB, so a 1,000-file project stays a few tens of MB. */
function smallWalkmeshes(): { name: string; format: string; bytes: Uint8Array }[] {
  const files = [...listFixtures('kotor', ['.wok']), ...listFixtures('source', ['.nav']), ...listFixtures('nwn2', ['.trx'])];
  const out: { name: string; format: string; bytes: Uint8Array }[] = [];
  for (const file of files) {
    if (statSync(file).size > 64 * 1024) continue;
    const bytes = readFixture(file);
    const handler = detectFormat(file, bytes);
    if (handler) out.push({ name: path.basename(file), format: handler.id, bytes });
  }
  if (out.length === 0) throw new Error('no walkmesh fixtures of 64 KB or less');
  return out;
}

export function runProjectBench(options: ProjectBenchOptions = {}): ProjectBenchResult {
  const count = options.walkmeshes ?? 1000;
  const runs = options.runs ?? 9;
  const out = options.out ?? ((t: string) => void process.stdout.write(t));
  const dir = mkdtempSync(path.join(tmpdir(), 'walkbench-project-bench-'));
  try {
    const file = path.join(dir, 'bench.wbproj');
    const sources = smallWalkmeshes();
    let fileBytes = 0;
    const t0 = performance.now();
    const store = ProjectStore.create(file, { name: 'bench', game: 'source' });
    store.transaction(() => {
      for (let i = 0; i < count; i++) {
        const s = sources[i % sources.length]!;
        const area = `area-${String(i).padStart(4, '0')}`;
        store.upsertFile({ module: `module-${i % 10}`, name: `${area}-${s.name}`, kind: 'walkmesh', format: s.format, area, bytes: s.bytes });
        fileBytes += s.bytes.length;
      }
    });
    store.close();
    const insertMs = performance.now() - t0;

    const openAndList: number[] = [];
    const list: number[] = [];
    const loadOne: number[] = [];
    for (let r = 0; r < runs; r++) {
      const a = performance.now();
      const s = ProjectStore.open(file);
      s.info();
      const b = performance.now();
      const files = s.listFiles();
      const c = performance.now();
      if (files.length !== count) throw new Error(`listed ${files.length} files, expected ${count}`);
      s.close();
      openAndList.push(performance.now() - a);
      list.push(c - b);
      const again = ProjectStore.open(file);
      const d = performance.now();
      again.loadFileBytes(files[r % files.length]!.id);
      loadOne.push(performance.now() - d);
      again.close();
    }
    const result: ProjectBenchResult = {
      walkmeshes: count,
      fileBytes,
      projectBytes: statSync(file).size,
      insertMs,
      openAndListMs: median(openAndList),
      listMs: median(list),
      loadOneMs: median(loadOne),
    };
    out(`project file: ${count} walkmeshes, ${(fileBytes / 1e6).toFixed(1)} MB of sources, ${(result.projectBytes / 1e6).toFixed(1)} MB file\n`);
    out(`  create + insert all (one commit): ${insertMs.toFixed(0)} ms\n`);
    out(`  open + list all (median of ${runs}): ${result.openAndListMs.toFixed(1)} ms (list alone ${result.listMs.toFixed(1)} ms)\n`);
    out(`  load one file's bytes (median): ${result.loadOneMs.toFixed(2)} ms\n`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { walkmeshes: { type: 'string', default: '1000' }, runs: { type: 'string', default: '9' } } });
  runProjectBench({ walkmeshes: Number(values.walkmeshes), runs: Number(values.runs) });
}
