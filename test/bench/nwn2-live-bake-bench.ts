/**
 * NWN2 live re-bake after a cutter or placeable edit (issue 8: "the affected tiles re-bake
 * in the background and the viewport shows the result within a second for a normal
 * area"). A 2 m square cutter is dragged across each area, one position per edit. Per
 * area, median and worst over the edits, printed, never asserted:
 *  - whole: the GIT edit, the TRN read and a bake of every tile (no earlier tables);
 *  - tiles: the same with the previous bake's tables, so only the tiles whose triangles
 *    changed get new path tables (shared/bakers/nwn2/tile-table-reuse.ts), and how many;
 *  - app: through the edit service as the app runs it: `edits.apply` (its main-thread
 *    time) and the background bake on its worker until `edits.rebakeResult` has the
 *    walkmesh (edit → shown).
 * Run alone with `node --import tsx test/bench/nwn2-live-bake-bench.ts [--runs N]`.
 */
import { projectResolver } from '../support/project-resolver';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEditService } from '../../electron/services/edit-service';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { TileTableCache } from '../../shared/bakers/nwn2/tile-table-reuse';
import { applyDocumentEdit } from '../../shared/edits/apply-document-edit';
import type { DocumentEditCommand } from '../../shared/edits/document-edit-command';
import { rebakeNwn2Area } from '../../shared/edits/nwn2-area-rebake';
import { readGff } from '../../shared/formats/aurora/gff-reader';
import { readGitWalkmeshCutters } from '../../shared/formats/aurora/nwn2-git';
import { portableEnvironment as env } from '../../shared/formats/format-environment';
import { aswmPacketOf } from '../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { median } from './measure';
import { renderTable } from './text-table';

const AREAS = [
  ['mordmansion', 'CSLMordMansion.TRN', 'CSLMordMansion.GIT'],
  ['kaedrin', 'db_templemaiden_int.TRN', 'db_templemaiden_int.GIT'],
  ['kaedrin', 'enter world.trn', 'enter world.GIT'],
  ['kaedrin', 'fh_settlement.TRN', 'fh_settlement.GIT'],
  ['kaedrin', "harper's hill cave.TRN", "harper's hill cave.GIT"],
  ['kaedrin', 'md_fancy fox fashions_rlg.TRN', 'md_fancy fox fashions_rlg.GIT'],
] as const;

export interface LiveBakeRow {
  area: string;
  triangles: number;
  tiles: number;
  edits: number;
  wholeMs: { median: number; worst: number };
  tilesMs: { median: number; worst: number };
  /** Median tiles whose tables were baked again (the rest reused). */
  tilesBaked: number;
  /** The edit call on the main thread. */
  applyMs: { median: number; worst: number };
  /** Edit → re-baked walkmesh in hand, through the service and its worker. */
  shownMs: { median: number; worst: number };
}

const stats = (xs: number[]) => ({ median: median(xs), worst: Math.max(...xs) });

export async function runNwn2LiveBakeBench(options: { runs?: number; out?: (text: string) => void } = {}): Promise<LiveBakeRow[]> {
  const runs = options.runs ?? 5;
  const out = options.out ?? ((t: string) => void process.stdout.write(t));
  const rows: LiveBakeRow[] = [];
  const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-live-bake-bench-'));
  try {
    for (const [folder, trnName, gitName] of AREAS) {
      const trnBytes = readFixture(path.join(fixturesRoot, 'nwn2', folder, trnName));
      const gitBytes = readFixture(path.join(fixturesRoot, 'nwn2', folder, gitName));
      const git = readGff(gitBytes);
      const aswm = aswmPacketOf(readTrx(trnBytes, env))?.aswm;
      let cx = 0, cy = 0;
      if (aswm) {
        const n = aswm.vertices.length / 3;
        const P = new Float32Array(aswm.vertices.buffer, aswm.vertices.byteOffset, aswm.vertices.length);
        for (let i = 0; i < n; i++) {
          cx += P[i * 3]! / n;
          cy += P[i * 3 + 1]! / n;
        }
      }
      const square = (dx: number) => [cx + dx - 1, cy - 1, cx + dx + 1, cy - 1, cx + dx + 1, cy + 1, cx + dx - 1, cy + 1];
      applyDocumentEdit({ target: 'git', doc: git }, { kind: 'nwn2-add-cutter', polygon: square(0) });
      const index = readGitWalkmeshCutters(git).at(-1)!.index;

      const whole: number[] = [];
      const tiled: number[] = [];
      const baked: number[] = [];
      let cache: TileTableCache | undefined;
      let triangles = 0;
      let tiles = 0;
      for (let k = 0; k < runs + 1; k++) {
        const edit: DocumentEditCommand = { kind: 'nwn2-set-cutter', index, polygon: square(k * 0.5) };
        applyDocumentEdit({ target: 'git', doc: git }, edit);
        let t0 = performance.now();
        const w = rebakeNwn2Area(readTrx(trnBytes, env), git, trnName);
        const wholeMs = performance.now() - t0;
        t0 = performance.now();
        const r = rebakeNwn2Area(readTrx(trnBytes, env), git, trnName, undefined, cache);
        const tiledMs = performance.now() - t0;
        cache = r.tileCache;
        triangles = w.walkmesh.triangles.length / 3;
        tiles = r.report.tables.tiles;
        // The first run warms the compiler up and has no earlier tables.
        if (k > 0) {
          whole.push(wholeMs);
          tiled.push(tiledMs);
          baked.push(tiles - r.report.tables.reusedTiles);
        }
      }

      // Through the service: a project holding the TRN and the GIT, edits one after the other.
      const file = path.join(tmp, `${rows.length}.walkbench`);
      const store = ProjectStore.create(file, { name: folder, game: 'nwn2' });
      store.upsertFile({ module: folder, area: trnName, name: trnName, kind: 'trn', bytes: trnBytes });
      const gitId = store.upsertFile({ module: folder, area: trnName, name: trnName.replace(/\.trn$/i, '.GIT'), kind: 'git', bytes: gitBytes }).fileId;
      store.close();
      const service = createEditService({ resolveProject: projectResolver(() => file) });
      const applied: number[] = [];
      const shown: number[] = [];
      try {
        await service.handlers['edits.apply']({ fileId: gitId, command: { kind: 'nwn2-add-cutter', polygon: square(0) } }).then((o) => service.handlers['edits.rebakeResult']({ ticket: o.rebakePending!.ticket }));
        // The service's GIT got the same cutter as the one edited above: the same index.
        for (let k = 0; k < runs + 1; k++) {
          const t0 = performance.now();
          const o = await service.handlers['edits.apply']({ fileId: gitId, command: { kind: 'nwn2-set-cutter', index, polygon: square(k * 0.5) } });
          const t1 = performance.now();
          const r = await service.handlers['edits.rebakeResult']({ ticket: o.rebakePending!.ticket });
          const t2 = performance.now();
          if (r.status !== 'done') throw new Error(`${trnName}: the live bake ended ${r.status}: ${r.error ?? ''}`);
          if (k > 0) {
            applied.push(t1 - t0);
            shown.push(t2 - t0);
          }
        }
      } finally {
        await service.close();
      }
      rows.push({ area: `${folder}/${trnName}`, triangles, tiles, edits: whole.length, wholeMs: stats(whole), tilesMs: stats(tiled), tilesBaked: median(baked), applyMs: stats(applied), shownMs: stats(shown) });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const ms = (x: { median: number; worst: number }) => `${x.median.toFixed(0)} / ${x.worst.toFixed(0)}`;
  out('nwn2 live re-bake after a cutter edit, median / worst ms (whole: every tile baked; tiles: unchanged tiles keep their tables; app: edit service + bake worker, edit → walkmesh in hand; the issue asks for under 1 s)\n');
  out(
    `${renderTable(
      [{ header: 'area', align: 'left' }, { header: 'triangles' }, { header: 'tiles' }, { header: 'edits' }, { header: 'whole ms' }, { header: 'tiles ms' }, { header: 'tiles baked' }, { header: 'app: edit call ms' }, { header: 'app: shown ms' }, { header: 'under 1 s' }],
      rows.map((r) => [r.area, String(r.triangles), String(r.tiles), String(r.edits), ms(r.wholeMs), ms(r.tilesMs), `${r.tilesBaked} of ${r.tiles}`, ms(r.applyMs), ms(r.shownMs), r.shownMs.worst < 1000 ? 'yes' : 'no']),
    )}\n`,
  );
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  await runNwn2LiveBakeBench({ runs: Number(values.runs) });
}
