import { readdirSync } from 'node:fs';
import path from 'node:path';
import { compareBakes, type BakeComparison } from '../../../shared/bakers/nwn2/bake-compare';
import { rebakeTrx, type BakeCounts, type BakeTimings } from '../../../shared/bakers/nwn2/trx-rebake';
import { missingDoorModels } from '../../../shared/bakers/nwn2/door-walkmesh';
import type { TrnBakeReport } from '../../../shared/bakers/nwn2/trn-bake';
import { loadDocument } from '../../../shared/formats/inspect-file';
import { aswmPacketOf, TRX_FORMAT, type TrxDocument } from '../../../shared/formats/nwn2/trx-document';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { readBytes, writeFileAtomic } from '../../services/file-access';
import { nodeFormatEnvironment as env } from '../../services/node-format-environment';
import type { Nwn2GameFolders } from '../../services/nwn2-game-resources';
import type { MissingModel } from '../../services/nwn2-model-resolver';
import { bakeTrnFiles, type TrnBakeFiles } from '../../services/nwn2-trn-bake-service';
import { bakeWokCommand, kotorBakeUsage } from './kotor-bake';
import { bakePluginCommand, skyrimBakeUsage } from './skyrim-bake';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { expectedErrorMessage } from '../expected-errors';

const KOTOR_WALKMESH = /\.(wok|pwk|dwk)$/i;
const SKYRIM_PLUGIN = /\.(esp|esm)$/i;

export const bakeUsage = [
  'walkbench bake AREA.trx -o OUT.trx [--compare REF.trx] [--no-line-of-sight] [--json]   re-bake edges, path tables and islands from the mesh; --compare reports agreement with REF',
  '  walkbench bake AREA.trn --git AREA.git [--models DIR…] [--2da DIR] [--game NWN2_DIR [--module MODULE_DIR|MODULE.mod]] -o AREA.trx [--compare TOOLSET.trx] [--json]   full bake: borders, walkmesh cutters, placeable and door walkmeshes, tiles, tables; models and 2DAs from the folders, then the game (the module\'s haks, override, the module, Data/*.zip; the module defaults to the TRN\'s folder when it holds module.ifo)',
  `  ${kotorBakeUsage}`,
  `  ${skyrimBakeUsage}`,
].join('\n');

interface BakeReport {
  document: TrxDocument;
  counts: BakeCounts;
  timings: BakeTimings & { read: number; write: number; compare?: number };
  comparison?: BakeComparison;
}

/**
 * `walkbench bake`: reads a TRN/TRX, re-bakes its walkmesh (shared/bakers/nwn2), writes
 * the result and, with --compare, reports how far the new tables agree with a reference
 * bake of the same mesh (usually the input itself: the toolset's own tables).
 */
export async function bakeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  // KotOR walkmeshes have their own derivation (shared/bakers/kotor).
  const firstFile = argv.find((a) => !a.startsWith('-'));
  if (firstFile !== undefined && KOTOR_WALKMESH.test(firstFile)) return bakeWokCommand(argv, io);
  if (firstFile !== undefined && SKYRIM_PLUGIN.test(firstFile)) return bakePluginCommand(argv, io);
  const args = parseArgs(
    argv.map((a) => (a === '-o' ? '--output' : a)),
    ['output', 'compare', 'git', '2da', 'game', 'module'],
    ['json', 'no-line-of-sight'],
    ['models'],
  );
  if (args.positional.length !== 1) throw new UsageError('bake needs exactly one AREA file (a .trx or .trn)');
  const input = args.positional[0]!;
  const output = args.flags.get('output');
  if (typeof output !== 'string') throw new UsageError('bake needs -o OUT.trx, the file to write');
  const compareWith = args.flags.get('compare');
  const json = args.flags.has('json');
  const lineOfSight = !args.flags.has('no-line-of-sight');
  const git = args.flags.get('git');
  if (typeof git === 'string') {
    const twoDa = args.flags.get('2da');
    const game = gameFoldersOf(input, args.flags.get('game'), args.flags.get('module'));
    return bakeTrnCommand(
      {
        trn: input,
        git,
        modelDirs: args.lists.get('models')!,
        ...(typeof twoDa === 'string' ? { twoDaDir: twoDa } : {}),
        ...(game ? { game } : {}),
        ...(typeof compareWith === 'string' ? { compare: compareWith } : {}),
      },
      output,
      json,
      io,
    );
  }
  if (args.lists.get('models')!.length > 0 || args.flags.has('2da') || args.flags.has('game') || args.flags.has('module')) {
    throw new UsageError('--models, --2da, --game and --module go with --git (the full bake of a TRN)');
  }
  try {
    const report = await bake(input, output, typeof compareWith === 'string' ? compareWith : undefined, lineOfSight);
    const entry = {
      file: input,
      format: TRX_FORMAT,
      ok: true,
      output,
      ...(report.comparison ? { compare: compareWith, agreement: report.comparison.agreement, reference: report.comparison.reference } : {}),
      counts: report.comparison ? { ...report.counts, comparison: report.comparison.counts } : report.counts,
      timings: roundTimings(report.timings),
    };
    if (json) io.out(`${JSON.stringify([entry], null, 2)}\n`);
    else io.out(describe(input, output, report, typeof compareWith === 'string' ? compareWith : ''));
    return ExitCode.ok;
  } catch (e) {
    const message = expectedErrorMessage(e, input);
    if (message === undefined) throw e;
    io.err(`walkbench: ${message}\n`);
    if (json) io.out(`${JSON.stringify([{ file: input, format: null, ok: false, output, error: message }], null, 2)}\n`);
    return ExitCode.failed;
  }
}

/**
 * `--game DIR` and `--module DIR|FILE` as the resolver takes them; without --module, the
 * TRN's folder is the module when it holds a module.ifo (a module kept as a folder, as
 * the toolset saves it), so its haks are found.
 */
function gameFoldersOf(trn: string, game: string | true | undefined, module: string | true | undefined): Nwn2GameFolders | undefined {
  if (game === true) throw new UsageError('--game needs the NWN2 install folder (the one holding Data/ and override/)');
  if (module === true) throw new UsageError('--module needs the module folder or .mod file');
  if (game === undefined && module === undefined) return undefined;
  if (module !== undefined) return { ...(game !== undefined ? { game } : {}), module };
  const folder = path.dirname(path.resolve(trn));
  let hasIfo = false;
  try {
    hasIfo = readdirSync(folder, { withFileTypes: true }).some((e) => e.isFile() && e.name.toLowerCase() === 'module.ifo');
  } catch {
    hasIfo = false;
  }
  return { ...(game !== undefined ? { game } : {}), ...(hasIfo ? { module: folder } : {}) };
}

async function bake(input: string, output: string, compareWith: string | undefined, lineOfSight: boolean): Promise<BakeReport> {
  const t0 = performance.now();
  const document = loadTrx(input, await readBytes(input));
  const t1 = performance.now();
  const baked = rebakeTrx(document, { lineOfSight });
  const t2 = performance.now();
  await writeFileAtomic(output, writeTrx(baked.document, env));
  const t3 = performance.now();
  const timings: BakeReport['timings'] = { read: t1 - t0, ...baked.timings, write: t3 - t2 };
  let comparison: BakeComparison | undefined;
  if (compareWith !== undefined) {
    const reference = compareWith === input ? document : loadTrx(compareWith, await readBytes(compareWith));
    const t4 = performance.now();
    comparison = compareBakes(baked.aswm, aswmOf(reference, compareWith));
    timings.compare = performance.now() - t4;
  }
  return { document: baked.document, counts: baked.counts, timings, comparison };
}

/** Reads a TRN/TRX; any other format is refused in one line. */
function loadTrx(file: string, bytes: Uint8Array): TrxDocument {
  const { handler, document } = loadDocument(file, bytes, env);
  if (handler.id !== TRX_FORMAT) throw new ModelMappingError(`this is a ${handler.label} file; bake reads NWN2 .trx and .trn files`);
  return document as TrxDocument;
}

function aswmOf(doc: TrxDocument, file: string) {
  const p = aswmPacketOf(doc);
  if (!p) throw new ModelMappingError(`${file} has no ASWM walkmesh packet to compare with`);
  return p.aswm;
}

function roundTimings(t: BakeReport['timings']): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(t)) if (typeof v === 'number') out[`${k}Ms`] = Math.round(v * 10) / 10;
  return out;
}

const n = (x: number) => x.toLocaleString('en-US');

/** Walkable triangles per tile against the budget, the fullest tiles, and what the merge of flat regions saved. */
function tileBudgetLine(t: TrnBakeReport['retile']): string {
  const fullest = t.fullestTiles.map((f) => `${f.column},${f.row}: ${f.walkable}`).join('; ');
  const m = t.merged;
  const merged = m.regions > 0 ? `; ${m.regions} flat region(s) merged, ${n(m.trianglesBefore)} → ${n(m.trianglesAfter)} triangles` : '';
  const whole = t.simplifiedTiles.length > 0 ? `; merged whole to fit: ${t.simplifiedTiles.join(', ')}` : '';
  return `  walkable triangles per tile: at most ${t.maxWalkablePerTile} of ${t.budget} (fullest tiles, column,row: ${fullest || 'none'})${merged}${whole}`;
}
const f = (x: number) => x.toFixed(4);

function describe(input: string, output: string, r: BakeReport, reference: string): string {
  const c = r.counts;
  const lines = [
    `${input} → ${output}: baked ${n(c.triangles)} triangles (${n(c.walkableTriangles)} walkable) in ${r.timings.total.toFixed(0)} ms`,
    `  ${n(c.tiles)} tiles, ${n(c.reachableTilePairs)} of ${n(c.tilePairs)} tile pairs reachable, ${n(c.lineOfSightPairs)} with line of sight; ${n(c.islands)} islands, ${n(c.reachableIslandPairs)} reachable island pairs`,
    `  edges ${r.timings.edges.toFixed(1)} ms, tile paths ${r.timings.tilePaths.toFixed(1)} ms, line of sight ${r.timings.lineOfSight.toFixed(1)} ms, islands ${r.timings.islands.toFixed(1)} ms, island paths ${r.timings.islandPaths.toFixed(1)} ms (read ${r.timings.read.toFixed(0)} ms, write ${r.timings.write.toFixed(0)} ms)`,
  ];
  if (c.crowdedEdgePairs > 0) lines.push(`  ${n(c.crowdedEdgePairs)} vertex pair(s) shared by 3+ triangles; ${n(c.crowdedEdgePairsKept)} kept the file's pairing`);
  const cmp = r.comparison;
  if (cmp) {
    const a = cmp.agreement;
    const los = cmp.counts.lineOfSight;
    lines.push(
      `agreement with ${reference}:`,
      `  reachability ${f(a.reachability)}, next hop on a shortest path ${f(a.nextHopOnShortestPath)} (reference's own: ${f(cmp.reference.nextHopOnShortestPath)})`,
      `  islands ${f(a.islands)}, island reachability ${f(a.islandReachability)}, island next hop on a shortest path ${f(a.islandNextHopOnShortestPath)} (reference's own: ${f(cmp.reference.islandNextHopOnShortestPath)})`,
      `  line of sight ${f(a.lineOfSight)}: set on ${n(los.ours)} of ${n(los.comparedPairs)} pairs here, ${n(los.reference)} in the reference, ${n(los.both)} in both`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `PLC_A ×3, PLC_B, placeables.2da row 12 (no model named)`: the bake report's missing models, by name. */
function describeMissing(missing: readonly MissingModel[], table: string | null | undefined): string {
  const why = table === undefined ? 'no --models, --2da or --game given' : table === null ? 'no placeables.2da found' : 'no model named there';
  const shown = missing.slice(0, 20).map((m) => {
    const name = m.model ?? `placeables.2da row${m.appearances.length > 1 ? 's' : ''} ${m.appearances.join(', ')} (${why})`;
    return m.count > 1 ? `${name} ×${m.count}` : name;
  });
  return missing.length > 20 ? `${shown.join(', ')} and ${missing.length - 20} more model(s) (--json lists all)` : shown.join(', ');
}

/** The full bake of a TRN with its GIT (shared/bakers/nwn2/trn-bake.ts through the service). */
async function bakeTrnCommand(files: TrnBakeFiles, output: string, json: boolean, io: CliIo): Promise<number> {
  try {
    const t0 = performance.now();
    const result = await bakeTrnFiles(files);
    await writeFileAtomic(output, result.bytes);
    const r = result.report;
    const cmp = result.comparison;
    const searched = (files.modelDirs?.length ?? 0) > 0 || files.game !== undefined;
    const entry = {
      file: files.trn,
      format: TRX_FORMAT,
      ok: true,
      output,
      git: files.git,
      ...(cmp
        ? {
            compare: files.compare,
            agreement: { pointReachability: cmp.agreement.pointReachability, ...(cmp.agreement.allPairs ? { pointReachabilityAllPairs: cmp.agreement.allPairs.agreement } : {}) },
            comparison: { walkableArea: cmp.walkableArea, triangles: cmp.triangles, walkableTriangles: cmp.walkableTriangles, islands: cmp.islands },
          }
        : {}),
      report: {
        output: r.output,
        cutters: r.cutters.inGit,
        placeables: {
          inGit: r.placeables.inGit,
          skippedWalkable: r.placeables.skippedWalkable.length,
          missingModel: r.placeables.missingModel.length,
          missingModels: result.missingModels.map((m) => ({ model: m.model ?? null, placeablesRows: m.appearances, count: m.count })),
          noWalkmesh: r.placeables.noWalkmesh.length,
        },
        doors: {
          inGit: r.doors.inGit,
          applied: r.doors.stats?.applied.length ?? 0,
          invisible: r.doors.invisible.length,
          missingModel: r.doors.missingModel.length,
          missingModels: missingDoorModels(r.doors).map((m) => ({ model: m.model ?? null, rows: m.rows, doors: m.doors, reason: m.reason })),
          noWalkmesh: r.doors.noWalkmesh.length,
          noWalkmeshModels: [...new Set(r.doors.noWalkmesh.map((d) => d.model))],
        },
        border: r.border,
        slivers: r.slivers,
        overlaps: r.overlaps,
        retile: r.retile,
      },
      damagedArchives: result.damagedArchives,
      ...(files.game ? { gameSources: result.gameSources, missingHaks: result.missingHaks } : {}),
      timings: { totalMs: Math.round((performance.now() - t0) * 10) / 10, bakeMs: Math.round(r.timings.total * 10) / 10 },
    };
    if (json) io.out(`${JSON.stringify([entry], null, 2)}\n`);
    else {
      const o = r.output;
      const lines = [
        `${files.trn} + ${files.git} → ${output}: ${n(o.triangles)} triangles (${n(o.walkableTriangles)} walkable), ${n(o.islands)} islands, ${o.walkableArea.toFixed(2)} m² walkable, in ${r.timings.total.toFixed(0)} ms`,
        `  ${r.cutters.inGit} walkmesh cutter(s); placeables: ${r.placeables.inGit} in the GIT, ${r.placeables.skippedWalkable.length} walk-through, ${r.placeables.missingModel.length} without a model found, ${r.placeables.noWalkmesh.length} without a WALK packet`,
        `  doors: ${r.doors.inGit} in the GIT, ${r.doors.stats?.applied.length ?? 0} applied, ${r.doors.missingModel.length} without a model found, ${r.doors.noWalkmesh.length} without a WALK packet` +
          (r.doors.invisible.length > 0 ? `, ${r.doors.invisible.length} invisible` : ''),
        ...(r.doors.missingModel.length > 0 ? [`  doors without a model found: ${missingDoorModels(r.doors).map((m) => `${m.model ?? `${m.rows.join(', ')} (${m.reason})`}${m.doors.length > 1 ? ` ×${m.doors.length}` : ''}`).join(', ')}`] : []),
        `  slivers under ${r.slivers.threshold} m: ${r.slivers.count}; overlapping pairs: ${r.overlaps.pairs}`,
        tileBudgetLine(r.retile),
        ...(result.missingModels.length > 0 ? [`  placeables without a model found: ${describeMissing(result.missingModels, searched ? result.placeablesTable ?? null : undefined)}`] : []),
        ...result.missingHaks.map((h) => `  warning: the module names hak "${h}", which no hak folder holds`),
        ...result.damagedArchives.map((d) => `  warning: skipped a damaged archive of ${result.gameSources.some((g) => g.path === d.file) ? 'the game' : 'the model folders'}: ${d.reason}`),
      ];
      if (cmp) {
        lines.push(
          `compared with ${files.compare}: walkable area ${cmp.walkableArea.baked.toFixed(2)} vs ${cmp.walkableArea.reference.toFixed(2)} m² (ratio ${cmp.walkableArea.ratio.toFixed(4)}), triangles ${cmp.triangles.baked} vs ${cmp.triangles.reference}, islands ${cmp.islands.baked} vs ${cmp.islands.reference}`,
          `  point reachability agreement ${f(cmp.agreement.pointReachability)}${cmp.agreement.allPairs ? ` (${f(cmp.agreement.allPairs.agreement)} counting the reference's placeable surfaces)` : ''}`,
        );
      }
      io.out(`${lines.join('\n')}\n`);
    }
    return ExitCode.ok;
  } catch (e) {
    // Malformed inputs are named by the service (the TRN, the GIT, an MDB, placeables.2da); a
    // bake refused for what the area holds (a NaN vertex, a cutter point…) names the area's files.
    const message = e instanceof ModelMappingError ? `${files.trn} (with ${files.git}): ${e.message}` : expectedErrorMessage(e);
    if (message === undefined) throw e;
    io.err(`walkbench: ${message}\n`);
    if (json) io.out(`${JSON.stringify([{ file: files.trn, format: null, ok: false, output, error: message }], null, 2)}\n`);
    return ExitCode.failed;
  }
}
