/**
 * NWN2 live re-bake after a cutter or placeable edit (issue 8: the viewport shows the
 * result within a second for a normal area). Each row times what the edit service does
 * after a GIT edit: the edit itself on the GIT, the TRN read and the whole-area bake into
 * the walkmesh the viewport draws (shared/edits/nwn2-area-rebake.ts). Median and worst of
 * N edits, printed, never asserted. The bake is per area, not per tile (see
 * nwn2-area-rebake.ts for why).
 * Run alone with `node --import tsx test/bench/nwn2-live-bake-bench.ts [--runs N]`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
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
  cutters: number;
  edits: number;
  medianMs: number;
  worstMs: number;
}

export function runNwn2LiveBakeBench(options: { runs?: number; out?: (text: string) => void } = {}): LiveBakeRow[] {
  const runs = options.runs ?? 5;
  const out = options.out ?? ((t: string) => void process.stdout.write(t));
  const rows: LiveBakeRow[] = [];
  for (const [folder, trnName, gitName] of AREAS) {
    const trnBytes = readFixture(path.join(fixturesRoot, 'nwn2', folder, trnName));
    const git = readGff(readFixture(path.join(fixturesRoot, 'nwn2', folder, gitName)));
    const aswm = aswmPacketOf(readTrx(trnBytes, env))?.aswm;
    // A 2 m square cutter dragged across the area, one position per edit.
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
    const times: number[] = [];
    let triangles = 0;
    let cutters = 0;
    for (let k = 0; k < runs + 1; k++) {
      const edit: DocumentEditCommand = { kind: 'nwn2-set-cutter', index, polygon: square(k * 0.5) };
      const t0 = performance.now();
      applyDocumentEdit({ target: 'git', doc: git }, edit);
      const r = rebakeNwn2Area(readTrx(trnBytes, env), git, trnName);
      const ms = performance.now() - t0;
      triangles = r.walkmesh.triangles.length / 3;
      cutters = r.cutters;
      if (k > 0) times.push(ms); // the first run warms the compiler up
    }
    rows.push({ area: `${folder}/${trnName}`, triangles, cutters, edits: times.length, medianMs: median(times), worstMs: Math.max(...times) });
  }
  out('nwn2 live re-bake after a cutter edit (GIT edit + TRN read + whole-area bake → walkmesh); the issue asks for under 1 s\n');
  out(
    `${renderTable(
      [{ header: 'area', align: 'left' }, { header: 'triangles out' }, { header: 'cutters' }, { header: 'edits' }, { header: 'median ms' }, { header: 'worst ms' }, { header: 'under 1 s' }],
      rows.map((r) => [r.area, String(r.triangles), String(r.cutters), String(r.edits), r.medianMs.toFixed(0), r.worstMs.toFixed(0), r.worstMs < 1000 ? 'yes' : 'no']),
    )}\n`,
  );
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  runNwn2LiveBakeBench({ runs: Number(values.runs) });
}
