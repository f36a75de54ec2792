import { bakeBwm, bakeInputOf, type BwmBakeTimings } from '../../../shared/bakers/kotor/bwm-bake';
import { compareBwm, type BwmComparison } from '../../../shared/bakers/kotor/bwm-compare';
import { loadDocument } from '../../../shared/formats/inspect-file';
import { BWM_FORMAT, type BwmDocument } from '../../../shared/formats/kotor/bwm-document';
import { writeBwm } from '../../../shared/formats/kotor/bwm-writer';
import {
  DEFAULT_WALKABILITY,
  readSurfaceMaterials,
  walkabilityDisagreements,
  type WalkabilityDisagreement,
  type WalkabilityTable,
} from '../../../shared/formats/kotor/surface-materials';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { readBytes, writeFileAtomic } from '../../services/file-access';
import { nodeFormatEnvironment as env } from '../../services/node-format-environment';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { expectedErrorMessage } from '../expected-errors';

export const kotorBakeUsage =
  'walkbench bake ROOM.wok -o OUT.wok [--compare REF.wok] [--surfacemat surfacemat.2da] [--json]   rebuild face order, normals, planes, AABB tree, adjacency, edges and perimeters from the geometry; --compare reports per section whether the bytes are identical';

/** Why each section can differ from a game file even when Walkbench's derivation is right. */
const SECTION_NOTES: Partial<Record<keyof BwmComparison, string>> = {
  normals: "the game computed normals from the model's local coordinates before the room offset was added; from world vertices some come out 1 ulp apart (and degenerate faces have no defined normal)",
  planes: 'follows the normals: d = −n·v1 from the stored normal reproduces every game file',
  aabb: "BioWare's split-axis rule is not reproducible from the files (spec §14) and its boxes were computed from pre-transform coordinates; Walkbench builds MDLEdit's tree (longest axis, exact median, ±0.01 leaves, positive flags)",
};

interface KotorBakeReport {
  document: BwmDocument;
  walkableFaces: number;
  table: WalkabilityTable;
  disagreements: WalkabilityDisagreement[];
  timings: BwmBakeTimings & { read: number; write: number };
  comparison?: BwmComparison;
}

const clock = (): number => performance.now();

/**
 * `walkbench bake X.wok|.pwk|.dwk -o OUT`: rebuilds every derived section of a KotOR
 * walkmesh from its vertices, faces, materials and per-edge transitions (shared/bakers/kotor)
 * and, with --compare, reports per section whether the rebuilt bytes equal the reference's.
 */
export async function bakeWokCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(
    argv.map((a) => (a === '-o' ? '--output' : a)),
    ['output', 'compare', 'surfacemat'],
    ['json'],
  );
  if (args.positional.length !== 1) throw new UsageError('bake needs exactly one walkmesh file (.wok, .pwk or .dwk)');
  const input = args.positional[0]!;
  const output = args.flags.get('output');
  if (typeof output !== 'string') throw new UsageError('bake needs -o OUT.wok, the file to write');
  const compareWith = args.flags.get('compare');
  const surfacemat = args.flags.get('surfacemat');
  const json = args.flags.has('json');
  try {
    const report = await bake(input, output, typeof compareWith === 'string' ? compareWith : undefined, typeof surfacemat === 'string' ? surfacemat : undefined);
    if (json) io.out(`${JSON.stringify([jsonEntry(input, output, typeof compareWith === 'string' ? compareWith : undefined, report)], null, 2)}\n`);
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

async function bake(input: string, output: string, compareWith: string | undefined, surfacemat: string | undefined): Promise<KotorBakeReport> {
  const table = surfacemat !== undefined ? readSurfaceMaterials(await readBytes(surfacemat), surfacemat) : DEFAULT_WALKABILITY;
  const t0 = clock();
  const document = loadBwm(input, await readBytes(input));
  const t1 = clock();
  const baked = bakeBwm(bakeInputOf(document), table, clock);
  const t2 = clock();
  await writeFileAtomic(output, writeBwm(baked.document));
  const t3 = clock();
  const report: KotorBakeReport = {
    document: baked.document,
    walkableFaces: baked.walkableCount,
    table,
    disagreements: walkabilityDisagreements(table, document.materials),
    timings: { read: t1 - t0, ...baked.timings, write: t3 - t2 },
  };
  if (compareWith !== undefined) {
    const reference = compareWith === input ? document : loadBwm(compareWith, await readBytes(compareWith));
    report.comparison = compareBwm(baked.document, reference);
  }
  return report;
}

function loadBwm(file: string, bytes: Uint8Array): BwmDocument {
  const { handler, document } = loadDocument(file, bytes, env);
  if (handler.id !== BWM_FORMAT) throw new ModelMappingError(`this is a ${handler.label} file; this bake reads KotOR .wok, .pwk and .dwk files`);
  return document as BwmDocument;
}

function jsonEntry(input: string, output: string, compareWith: string | undefined, r: KotorBakeReport): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    file: input,
    format: BWM_FORMAT,
    ok: true,
    output,
    walkability: r.table.source,
    walkabilityDisagreements: r.disagreements,
    counts: {
      faces: r.document.faces.length / 3,
      walkableFaces: r.walkableFaces,
      aabbNodes: r.document.aabb.length / 11,
      edges: r.document.edgeIndex.length,
      perimeters: r.document.perimeters.length,
    },
    timings: Object.fromEntries(Object.entries(r.timings).map(([k, v]) => [`${k}Ms`, Math.round(v * 100) / 100])),
  };
  if (r.comparison && compareWith !== undefined) {
    entry.compare = compareWith;
    entry.identical = Object.values(r.comparison).every((s) => s.identical);
    entry.sections = Object.fromEntries(
      Object.entries(r.comparison).map(([name, s]) => [
        name,
        { identical: s.identical, maxDifference: s.maxDifference, count: s.count, referenceCount: s.referenceCount, differing: s.differing, ...(s.identical ? {} : { note: SECTION_NOTES[name as keyof BwmComparison] ?? null }) },
      ]),
    );
  }
  return entry;
}

function describe(input: string, output: string, r: KotorBakeReport, reference: string): string {
  const t = r.timings;
  const lines = [
    `${input} → ${output}: ${r.document.faces.length / 3} faces (${r.walkableFaces} walkable by ${r.table.source}), ${r.document.aabb.length / 11} AABB nodes, ${r.document.edgeIndex.length} perimeter edges in ${r.document.perimeters.length} loop(s)`,
    `  order ${t.order.toFixed(2)} ms, planes ${t.planes.toFixed(2)} ms, aabb ${t.aabb.toFixed(2)} ms, adjacency ${t.adjacency.toFixed(2)} ms, perimeters ${t.perimeters.toFixed(2)} ms (read ${t.read.toFixed(1)} ms, write ${t.write.toFixed(1)} ms)`,
  ];
  for (const d of r.disagreements) {
    lines.push(`  material ${d.material} (${d.label}) is ${d.used ? 'walkable' : 'not walkable'} in ${r.table.source} but the opposite in ${d.otherTools.join(', ')}`);
  }
  if (r.comparison) {
    lines.push(`compared with ${reference}:`);
    for (const [name, s] of Object.entries(r.comparison)) {
      const diff = s.maxDifference !== null ? `, largest difference ${s.maxDifference.toExponential(2)}` : '';
      const what = s.identical
        ? 'identical'
        : s.count !== s.referenceCount
          ? `differs: ${s.count} entries here, ${s.referenceCount} in the reference`
          : `differs in ${s.differing} of ${s.count} entries${diff}`;
      lines.push(`  ${name.padEnd(10)} ${what}`);
      const note = SECTION_NOTES[name as keyof BwmComparison];
      if (!s.identical && note) lines.push(`             (${note})`);
    }
  }
  return `${lines.join('\n')}\n`;
}
