/**
 * NWN2 line-of-sight report: for every toolset-baked TRX among the fixtures, its tables
 * re-baked by Walkbench (`walkbench bake X.trx --compare X.trx`) against the toolset's, per
 * file and overall: how many reachable tile pairs each sets the line-of-sight bit (0x80)
 * on, and on what fraction of the pairs both tables find reachable the bits agree. A
 * report for reading, not a timed test and not pass/fail:
 * `node --import tsx test/bench/nwn2-los-report.ts [--json]`.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { compareBakes } from '../../shared/bakers/nwn2/bake-compare';
import { storedTileCache } from '../../shared/edits/nwn2-toolset-tile-cache';
import { rebakeAswm } from '../../shared/bakers/nwn2/trx-rebake';
import { aswmPacketOf } from '../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import { fixturesRoot, listFixtures, readFixture } from '../support/fixtures';
import { formatCount, renderTable, type Column } from './text-table';

export interface LosReportRow {
  file: string;
  triangles: number;
  /** Tile pairs reachable in both tables (the pairs the bits are compared on). */
  pairs: number;
  toolset: number;
  ours: number;
  both: number;
  /** Pairs whose bits are equal, of `pairs`. */
  agree: number;
  /** Tiles, and those a re-bake given the file's own stored tables keeps (storedTileCache: all, when its tables are laid out as Walkbench's). */
  tiles: number;
  keptTiles: number;
}

/** Re-bakes each toolset TRX of the fixtures and compares its line-of-sight bits with the toolset's. */
export function lineOfSightReport(files: readonly string[] = listFixtures('nwn2', ['.trx'])): LosReportRow[] {
  const rows: LosReportRow[] = [];
  for (const file of files) {
    const aswm = aswmPacketOf(readTrx(readFixture(file), nodeFormatEnvironment))?.aswm;
    if (!aswm) continue;
    const los = compareBakes(rebakeAswm(aswm).aswm, aswm).counts.lineOfSight;
    // Equal bits = both set + both clear = pairs − (set only in ours) − (set only in theirs).
    const agree = los.comparedPairs - (los.ours - los.both) - (los.reference - los.both);
    const cache = storedTileCache(aswm);
    const keptTiles = cache ? rebakeAswm(aswm, { tileCache: cache }).counts.reusedTiles : 0;
    rows.push({ file: path.relative(fixturesRoot, file), triangles: aswm.triFlags.length, pairs: los.comparedPairs, toolset: los.reference, ours: los.ours, both: los.both, agree, tiles: aswm.tiles.count, keptTiles });
  }
  return rows;
}

export function renderLineOfSightReport(rows: readonly LosReportRow[]): string {
  const ratio = (n: number, d: number) => (d === 0 ? '-' : (n / d).toFixed(4));
  const total = rows.reduce(
    (t, r) => ({
      ...t,
      triangles: t.triangles + r.triangles,
      pairs: t.pairs + r.pairs,
      toolset: t.toolset + r.toolset,
      ours: t.ours + r.ours,
      both: t.both + r.both,
      agree: t.agree + r.agree,
      tiles: t.tiles + r.tiles,
      keptTiles: t.keptTiles + r.keptTiles,
    }),
    { file: `overall (${rows.length} files)`, triangles: 0, pairs: 0, toolset: 0, ours: 0, both: 0, agree: 0, tiles: 0, keptTiles: 0 },
  );
  const columns: Column[] = [
    { header: 'toolset TRX', align: 'left' },
    { header: 'triangles' },
    { header: 'compared pairs' },
    { header: 'LOS toolset' },
    { header: 'LOS ours' },
    { header: 'LOS both' },
    { header: 'agreement' },
    { header: 'recall' },
    { header: 'tiles kept' },
  ];
  const line = (r: LosReportRow) => [
    r.file,
    formatCount(r.triangles),
    formatCount(r.pairs),
    formatCount(r.toolset),
    formatCount(r.ours),
    formatCount(r.both),
    ratio(r.agree, r.pairs),
    ratio(r.both, r.toolset),
    `${formatCount(r.keptTiles)}/${formatCount(r.tiles)}`,
  ];
  const perFileMean = rows.length === 0 ? 0 : rows.reduce((s, r) => s + (r.pairs === 0 ? 1 : r.agree / r.pairs), 0) / rows.length;
  return (
    `${renderTable(columns, [...rows.map(line), line(total)])}\n` +
    `agreement = pairs reachable in both tables whose line-of-sight bits are equal; recall = toolset bits ours also sets;\n` +
    `tiles kept = tiles a re-bake given the file's own tables (storedTileCache) takes from them, as an edit's re-bake does where it left a tile as it was.\n` +
    `mean of the per-file agreements: ${perFileMean.toFixed(4)}\n`
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
  const rows = lineOfSightReport();
  process.stdout.write(values.json ? `${JSON.stringify(rows, null, 2)}\n` : renderLineOfSightReport(rows));
}
