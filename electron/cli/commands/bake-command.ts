import { compareBakes, type BakeComparison } from '../../../shared/bakers/nwn2/bake-compare';
import { rebakeTrx, type BakeCounts, type BakeTimings } from '../../../shared/bakers/nwn2/trx-rebake';
import { loadDocument } from '../../../shared/formats/inspect-file';
import { aswmPacketOf, TRX_FORMAT, type TrxDocument } from '../../../shared/formats/nwn2/trx-document';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { readBytes, writeFileAtomic } from '../../services/file-access';
import { nodeFormatEnvironment as env } from '../../services/node-format-environment';
import { bakeTrnFiles, type TrnBakeFiles } from '../../services/nwn2-trn-bake-service';
import { bakeWokCommand, kotorBakeUsage } from './kotor-bake';
import { bakePluginCommand, skyrimBakeUsage } from './skyrim-bake';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { expectedErrorMessage } from '../expected-errors';

const KOTOR_WALKMESH = /\.(wok|pwk|dwk)$/i;
const SKYRIM_PLUGIN = /\.(esp|esm)$/i;

export const bakeUsage = [
  'walkbench bake AREA.trx -o OUT.trx [--compare REF.trx] [--no-line-of-sight] [--json]   re-bake edges, path tables and islands from the mesh; --compare reports agreement with REF',
  '  walkbench bake AREA.trn --git AREA.git [--models DIR…] [--2da DIR] -o AREA.trx [--compare TOOLSET.trx] [--json]   full bake: borders, walkmesh cutters, placeable walkmeshes, tiles, tables',
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
    ['output', 'compare', 'git', '2da'],
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
    return bakeTrnCommand(
      { trn: input, git, modelDirs: args.lists.get('models')!, ...(typeof twoDa === 'string' ? { twoDaDir: twoDa } : {}), ...(typeof compareWith === 'string' ? { compare: compareWith } : {}) },
      output,
      json,
      io,
    );
  }
  if (args.lists.get('models')!.length > 0 || args.flags.has('2da')) throw new UsageError('--models and --2da go with --git (the full bake of a TRN)');
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

/** The full bake of a TRN with its GIT (shared/bakers/nwn2/trn-bake.ts through the service). */
async function bakeTrnCommand(files: TrnBakeFiles, output: string, json: boolean, io: CliIo): Promise<number> {
  try {
    const t0 = performance.now();
    const result = await bakeTrnFiles(files);
    await writeFileAtomic(output, result.bytes);
    const r = result.report;
    const cmp = result.comparison;
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
        placeables: { inGit: r.placeables.inGit, skippedWalkable: r.placeables.skippedWalkable.length, missingModel: r.placeables.missingModel.length, noWalkmesh: r.placeables.noWalkmesh.length },
        border: r.border,
        slivers: r.slivers,
        overlaps: r.overlaps,
        retile: r.retile,
      },
      damagedArchives: result.damagedArchives,
      timings: { totalMs: Math.round((performance.now() - t0) * 10) / 10, bakeMs: Math.round(r.timings.total * 10) / 10 },
    };
    if (json) io.out(`${JSON.stringify([entry], null, 2)}\n`);
    else {
      const o = r.output;
      const lines = [
        `${files.trn} + ${files.git} → ${output}: ${n(o.triangles)} triangles (${n(o.walkableTriangles)} walkable), ${n(o.islands)} islands, ${o.walkableArea.toFixed(2)} m² walkable, in ${r.timings.total.toFixed(0)} ms`,
        `  ${r.cutters.inGit} walkmesh cutter(s); placeables: ${r.placeables.inGit} in the GIT, ${r.placeables.skippedWalkable.length} walk-through, ${r.placeables.missingModel.length} without a model found, ${r.placeables.noWalkmesh.length} without a WALK packet`,
        `  slivers under ${r.slivers.threshold} m: ${r.slivers.count}; overlapping pairs: ${r.overlaps.pairs}`,
        ...result.damagedArchives.map((d) => `  warning: skipped a damaged archive of the model folders: ${d.reason}`),
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
