import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { bakeBwm, bakeInputOf, type BwmBakeResult, type BwmBakeTimings } from '../../../shared/bakers/kotor/bwm-bake';
import { bakeBwmWithModel, type BwmModelUse } from '../../../shared/bakers/kotor/bwm-model-bake';
import { readKotorModel } from '../../../shared/formats/kotor/mdl-reader';
import { compareBwm, type BwmComparison } from '../../../shared/bakers/kotor/bwm-compare';
import { normalRuleAgreement, NORMAL_RULE_LABEL, type BwmNormalRule } from '../../../shared/bakers/kotor/bwm-normals';
import { loadDocument } from '../../../shared/formats/inspect-file';
import { BWM_FORMAT, floatsOf, type BwmDocument } from '../../../shared/formats/kotor/bwm-document';
import { writeBwm } from '../../../shared/formats/kotor/bwm-writer';
import {
  DEFAULT_WALKABILITY,
  isWalkableMaterial,
  OTHER_TOOL_TABLES,
  walkabilityDisagreements,
  walkabilityFromTwoDa,
  type WalkabilityDisagreement,
  type WalkabilityTable,
} from '../../../shared/formats/kotor/surface-materials';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { readAnyTwoDa } from '../../../shared/formats/aurora/twoda-binary';
import { KotorResType } from '../../../shared/formats/aurora/resource-types';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { FileAccessError, readBytes, readIfPresentSync, writeFileAtomic } from '../../services/file-access';
import { openKotorModule, resolveGamePath, scanKotorGameFolder } from '../../services/kotor-game-folder';
import { nodeFormatEnvironment as env } from '../../services/node-format-environment';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { expectedErrorMessage } from '../expected-errors';

export const kotorBakeUsage =
  "walkbench bake ROOM.wok [-o OUT.wok] [--model ROOM.mdl] [--compare REF.wok] [--surfacemat surfacemat.2da | --game GAMEDIR] [--game-version 1|2] [--json]   rebuild face order, normals, planes, AABB tree, adjacency, edges and perimeters from the geometry, with walkability from the given surfacemat.2da (text or binary) or the game folder's (override, the room's module, chitin.key), else the default table; lists each material's walkability in every tool's table; normals follow the arithmetic of the game the room comes from: --game-version 1 (KotOR) or 2 (TSL), else the --game folder's game (swkotor2.exe or StreamVoice/ = TSL, swkotor.exe or StreamWaves/ = KotOR), else the game whose arithmetic the input's own normals follow (the app does the same with the file it edits); --model takes the face order and the AABB tree from the room's model (its walkmesh node; ROOM.mdx beside it is read when present), which the WOK alone does not keep: with it, BioWare's rooms come back identical; --compare reports per section whether the bytes are identical (-o or --compare is needed)";

/** Why each section can differ from a game file even when Walkbench's derivation is right. */
const SECTION_NOTES: Partial<Record<keyof BwmComparison, string>> = {
  normals: "Walkbench computes normals as BioWare's tools do, KotOR 1's or TSL's arithmetic by the room's game (identical on every game room); files saved by other tools (MDLEdit, KOTORMax, PyKotor) computed theirs differently, and a room baked with the other game's rule differs by an ulp on a few faces",
  planes: 'follows the normals: d = −n·v1 from the stored normal reproduces every game file',
  aabb: "the AABB section depends on the room model (BioWare compiled it from the model's walkmesh node: its face list and coordinates, which the WOK does not keep), so give --model ROOM.mdl to get the game's tree; the tree built from the WOK alone is still a valid tree that the game queries correctly (every face in one leaf, boxes around their faces; seeded ray and point queries answer as the stored tree does). Walkbench builds BioWare's tree (longest axis, centroid order as its qsort leaves it, median split, flag of the widest gap between the children's centres); it starts from the WOK's face order, while BioWare started from the model's face list, which the WOK does not keep (in most game rooms the non-walkable block sat elsewhere among the walkable faces); its boxes came from the model's coordinates, up to ~1e-4 from the WOK's",
};

/** The AABB note when the model gave the tree. */
const MODEL_AABB_NOTE =
  "the tree is the model's (its walkmesh node's tree, leaves re-indexed to the WOK's faces, boxes moved by the LYT position); where it differs, it is a plane flag at a node whose two children have exactly the same box, which neither file decides (4 of 751 nodes over the 8 game rooms checked)";

/** A material of the file with its face count and its walkability in the table in use and in each tool's table. */
interface MaterialWalkability {
  material: number;
  label: string;
  faces: number;
  walkable: boolean;
  /** Walkability by table source: default (kotorblender), MDLEdit, PyKotor. */
  tools: Record<string, boolean>;
}

/** Whose arithmetic the normals followed and how that was decided. */
interface NormalRuleChoice {
  rule: BwmNormalRule;
  source: 'option' | 'game folder' | 'input normals';
  /** For `input normals`: faces each rule reproduces, out of `faces`. */
  agreement?: Record<BwmNormalRule, number>;
  faces?: number;
}

interface KotorBakeReport {
  document: BwmDocument;
  normals: NormalRuleChoice;
  walkableFaces: number;
  table: WalkabilityTable;
  disagreements: WalkabilityDisagreement[];
  materials: MaterialWalkability[];
  timings: BwmBakeTimings & { read: number; write: number };
  comparison?: BwmComparison;
  /** What the room model gave, with --model. */
  model?: BwmModelUse & { file: string };
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
    ['output', 'compare', 'surfacemat', 'game', 'game-version', 'model'],
    ['json'],
  );
  if (args.positional.length !== 1) throw new UsageError('bake needs exactly one walkmesh file (.wok, .pwk or .dwk)');
  const input = args.positional[0]!;
  const outputFlag = args.flags.get('output');
  const compareWith = args.flags.get('compare');
  if (typeof outputFlag !== 'string' && typeof compareWith !== 'string') throw new UsageError('bake needs -o OUT.wok, the file to write (or --compare REF.wok to compare only)');
  const output = typeof outputFlag === 'string' ? outputFlag : undefined;
  const modelFlag = args.flags.get('model');
  const modelFile = typeof modelFlag === 'string' ? modelFlag : undefined;
  const surfacemat = args.flags.get('surfacemat');
  const game = args.flags.get('game');
  if (typeof surfacemat === 'string' && typeof game === 'string') throw new UsageError('give either --surfacemat or --game, not both');
  const json = args.flags.has('json');
  const version = args.flags.get('game-version');
  if (version !== undefined && version !== '1' && version !== '2') throw new UsageError(`--game-version takes 1 (KotOR) or 2 (TSL), not ${String(version)}`);
  try {
    const table = typeof surfacemat === 'string' ? await tableFromFile(surfacemat) : typeof game === 'string' ? await tableFromGame(game, input) : DEFAULT_WALKABILITY;
    const rule: NormalRuleChoice | undefined =
      version !== undefined
        ? { rule: version === '2' ? 'kotor2' : 'kotor1', source: 'option' }
        : typeof game === 'string'
          ? await ruleOfGameFolder(game)
          : undefined;
    const report = await bake(input, output, typeof compareWith === 'string' ? compareWith : undefined, table, rule, modelFile);
    if (json) io.out(`${JSON.stringify([jsonEntry(input, output, typeof compareWith === 'string' ? compareWith : undefined, report)], null, 2)}\n`);
    else io.out(describe(input, output, report, typeof compareWith === 'string' ? compareWith : ''));
    return ExitCode.ok;
  } catch (e) {
    const message = e instanceof TableError ? e.message : expectedErrorMessage(e, input);
    if (message === undefined) throw e;
    io.err(`walkbench: ${message}\n`);
    if (json) io.out(`${JSON.stringify([{ file: input, format: null, ok: false, output: output ?? null, error: message }], null, 2)}\n`);
    return ExitCode.failed;
  }
}

/** A bad or missing surfacemat.2da, already named in its message (not the walkmesh's fault). */
class TableError extends Error {}

function tableFromBytes(bytes: Uint8Array, file: string, source: string): WalkabilityTable {
  try {
    return walkabilityFromTwoDa(readAnyTwoDa(bytes), source);
  } catch (e) {
    if (isMalformedInputError(e)) throw new TableError(e.withFile(file).message);
    if (e instanceof RangeError) throw new TableError(`${file}: ${e.message}`);
    throw e;
  }
}

async function tableFromFile(file: string): Promise<WalkabilityTable> {
  try {
    return tableFromBytes(await readBytes(file), file, file);
  } catch (e) {
    if (e instanceof FileAccessError) throw new TableError(e.message);
    throw e;
  }
}

/**
 * The game's own surfacemat.2da, found as the engine would while the room's module is
 * loaded: override first, then the module capsules, then chitin.key (spec §8.1). The
 * module is the room name's part before the first underscore (m10aa_01c → m10aa).
 */
async function tableFromGame(root: string, room: string): Promise<WalkabilityTable> {
  try {
    const folder = await scanKotorGameFolder(root);
    const moduleName = path.basename(room).replace(/\.[^.]*$/, '').split('_')[0] ?? '';
    const { resolver } = await openKotorModule(folder, moduleName);
    const hit = resolver.resolve('surfacemat', KotorResType.TWODA);
    if (hit === undefined) throw new TableError(`${root}: no surfacemat.2da in override/, the ${moduleName} module capsules or chitin.key`);
    const o = hit.origin;
    const where =
      o.kind === 'override'
        ? path.join(folder.overrideDir ?? root, o.file)
        : o.kind === 'module'
          ? path.join(folder.modulesDir ?? root, o.archive)
          : (resolveGamePath(root, o.bif) ?? path.join(root, o.bif));
    return tableFromBytes(hit.data, where, `surfacemat.2da from ${where}`);
  } catch (e) {
    if (e instanceof FileAccessError || isMalformedInputError(e)) throw new TableError(e.message);
    throw e;
  }
}

/**
 * The game of an install folder, for the normals' arithmetic: the Windows executable
 * (swkotor.exe / swkotor2.exe), else the voice-over folder, StreamWaves in KotOR and
 * StreamVoice in TSL (ports without the .exe keep it). Names are matched without regard to
 * case. Undefined when the folder shows neither.
 */
export async function kotorGameOfFolder(root: string): Promise<BwmNormalRule | undefined> {
  let names: string[];
  try {
    names = (await readdir(root)).map((n) => n.toLowerCase());
  } catch (e) {
    throw new TableError(`${root}: cannot list the game folder (${e instanceof Error ? e.message : String(e)})`);
  }
  const has = (n: string): boolean => names.includes(n);
  if (has('swkotor2.exe')) return 'kotor2';
  if (has('swkotor.exe')) return 'kotor1';
  if (has('streamvoice')) return 'kotor2';
  if (has('streamwaves')) return 'kotor1';
  return undefined;
}

async function ruleOfGameFolder(root: string): Promise<NormalRuleChoice | undefined> {
  const rule = await kotorGameOfFolder(root);
  return rule === undefined ? undefined : { rule, source: 'game folder' };
}

/** Every material the file uses, with what each table says about it. */
function materialWalkability(table: WalkabilityTable, materials: Uint32Array): MaterialWalkability[] {
  const counts = new Map<number, number>();
  for (const m of materials) counts.set(m, (counts.get(m) ?? 0) + 1);
  const tools = [DEFAULT_WALKABILITY, ...OTHER_TOOL_TABLES];
  return [...counts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([material, faces]) => ({
      material,
      label: table.labels[material] ?? `material ${material}`,
      faces,
      walkable: isWalkableMaterial(table, material),
      tools: Object.fromEntries(tools.map((t) => [t.source, isWalkableMaterial(t, material)])),
    }));
}

/**
 * The room model of --model: ROOM.mdl with the ROOM.mdx beside it when there is one (PC
 * models keep a copy of the positions in the MDL, so the MDX is optional).
 */
async function loadModel(file: string): Promise<ReturnType<typeof readKotorModel>> {
  const mdl = await readBytes(file);
  const mdx = /\.mdl$/i.test(file) ? readIfPresentSync(file.replace(/\.mdl$/i, /\.MDL$/.test(file) ? '.MDX' : '.mdx')) : undefined;
  try {
    return readKotorModel(mdl, mdx ?? null, path.basename(file));
  } catch (e) {
    if (isMalformedInputError(e)) throw new TableError(e.withFile(file).message);
    throw e;
  }
}

async function bake(input: string, output: string | undefined, compareWith: string | undefined, table: WalkabilityTable, given: NormalRuleChoice | undefined, modelFile?: string): Promise<KotorBakeReport> {
  const t0 = clock();
  const document = loadBwm(input, await readBytes(input));
  const model = modelFile !== undefined ? await loadModel(modelFile) : undefined;
  const t1 = clock();
  const normals = given ?? ruleOfNormals(document);
  let baked: BwmBakeResult;
  let modelUse: KotorBakeReport['model'];
  if (model && modelFile !== undefined) {
    try {
      const withModel = bakeBwmWithModel(document, model, table, normals.rule, clock);
      baked = withModel;
      modelUse = { ...withModel.model, file: modelFile };
    } catch (e) {
      if (e instanceof ModelMappingError) throw new TableError(`${input} with ${modelFile}: ${e.message}`);
      throw e;
    }
  } else baked = bakeBwm(bakeInputOf(document, normals.rule), table, clock);
  const t2 = clock();
  if (output !== undefined) await writeFileAtomic(output, writeBwm(baked.document));
  const t3 = clock();
  const report: KotorBakeReport = {
    document: baked.document,
    normals,
    walkableFaces: baked.walkableCount,
    table,
    disagreements: walkabilityDisagreements(table, document.materials),
    materials: materialWalkability(table, document.materials),
    timings: { read: t1 - t0, ...baked.timings, write: t3 - t2 },
    ...(modelUse ? { model: modelUse } : {}),
  };
  if (compareWith !== undefined) {
    const reference = compareWith === input ? document : loadBwm(compareWith, await readBytes(compareWith));
    report.comparison = compareBwm(baked.document, reference);
  }
  return report;
}

/** The rule the input's own stored normals follow (KotOR 1 on a tie). */
function ruleOfNormals(doc: BwmDocument): NormalRuleChoice {
  const faces = doc.faces.length / 3;
  const vertices = doc.vertices.length / 3;
  // Faces naming missing vertices are refused by the bake itself, with its own message.
  if (doc.faces.some((v) => v >= vertices)) return { rule: 'kotor1', source: 'input normals' };
  const agreement = normalRuleAgreement(floatsOf(doc.vertices), doc.faces, doc.normals);
  return { rule: agreement.kotor2 > agreement.kotor1 ? 'kotor2' : 'kotor1', source: 'input normals', agreement, faces };
}

function describeRule(n: NormalRuleChoice): string {
  const why =
    n.source === 'option'
      ? '--game-version'
      : n.source === 'game folder'
        ? 'the --game folder'
        : `the input's own normals: ${n.agreement!.kotor1} of ${n.faces} faces follow KotOR 1's, ${n.agreement!.kotor2} TSL's`;
  return `normals by ${NORMAL_RULE_LABEL[n.rule]} arithmetic (from ${why})`;
}

function loadBwm(file: string, bytes: Uint8Array): BwmDocument {
  const { handler, document } = loadDocument(file, bytes, env);
  if (handler.id !== BWM_FORMAT) throw new ModelMappingError(`this is a ${handler.label} file; this bake reads KotOR .wok, .pwk and .dwk files`);
  return document as BwmDocument;
}

function sectionNote(r: KotorBakeReport, name: string): string | undefined {
  if (name === 'aabb' && r.model?.aabb === 'model') return MODEL_AABB_NOTE;
  return SECTION_NOTES[name as keyof BwmComparison];
}

function modelJson(m: NonNullable<KotorBakeReport['model']>): Record<string, unknown> {
  return {
    file: m.file,
    node: m.node,
    aabb: m.aabb,
    ...(m.why ? { why: m.why } : {}),
    lytPosition: m.match.lyt,
    nodePosition: m.match.nodePosition,
    maxVertexDistance: m.match.maxVertexDistance,
    materialChanges: m.match.materialChanges,
  };
}

function describeModel(m: NonNullable<KotorBakeReport['model']>): string {
  const tree = m.aabb === 'model' ? "face order and AABB tree from the model's" : `face order from the model's (AABB tree rebuilt: ${m.why ?? ''})`;
  return `  ${tree} walkmesh node ${m.node} in ${m.file}; LYT position (${m.match.lyt.map((v) => v.toFixed(4)).join(', ')}), WOK vertices within ${m.match.maxVertexDistance.toExponential(1)} of the model's`;
}

function jsonEntry(input: string, output: string | undefined, compareWith: string | undefined, r: KotorBakeReport): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    file: input,
    format: BWM_FORMAT,
    ok: true,
    output: output ?? null,
    walkability: r.table.source,
    ...(r.model ? { model: modelJson(r.model) } : {}),
    normals: { rule: r.normals.rule, game: NORMAL_RULE_LABEL[r.normals.rule], from: r.normals.source, ...(r.normals.agreement ? { agreement: r.normals.agreement } : {}) },
    walkabilityDisagreements: r.disagreements,
    materials: r.materials,
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
        {
          identical: s.identical,
          maxDifference: s.maxDifference,
          count: s.count,
          referenceCount: s.referenceCount,
          differing: s.differing,
          ...(s.sameShapeNodes !== undefined ? { sameShapeNodes: s.sameShapeNodes } : {}),
          ...(s.identical ? {} : { note: sectionNote(r, name) ?? null }),
        },
      ]),
    );
  }
  return entry;
}

function describe(input: string, output: string | undefined, r: KotorBakeReport, reference: string): string {
  const t = r.timings;
  const lines = [
    `${input} → ${output ?? '(not written)'}: ${r.document.faces.length / 3} faces (${r.walkableFaces} walkable by ${r.table.source}), ${r.document.aabb.length / 11} AABB nodes, ${r.document.edgeIndex.length} perimeter edges in ${r.document.perimeters.length} loop(s)`,
    `  ${describeRule(r.normals)}`,
    ...(r.model ? [describeModel(r.model)] : []),
    `  order ${t.order.toFixed(2)} ms, planes ${t.planes.toFixed(2)} ms, aabb ${t.aabb.toFixed(2)} ms, adjacency ${t.adjacency.toFixed(2)} ms, perimeters ${t.perimeters.toFixed(2)} ms (read ${t.read.toFixed(1)} ms, write ${t.write.toFixed(1)} ms)`,
  ];
  for (const d of r.disagreements) {
    const faces = r.materials.find((m) => m.material === d.material)?.faces ?? 0;
    lines.push(`  material ${d.material} (${d.label}, ${faces} face(s)) is ${d.used ? 'walkable' : 'not walkable'} in ${r.table.source} but the opposite in ${d.otherTools.join(', ')}`);
  }
  if (r.disagreements.length === 0) {
    const used = r.materials.map((m) => `${m.material} ${m.label}${m.walkable ? ' (walkable)' : ''}`).join(', ');
    lines.push(`  materials ${used}: every tool's table agrees with ${r.table.source}`);
  }
  if (r.comparison) {
    lines.push(`compared with ${reference}:`);
    for (const [name, s] of Object.entries(r.comparison)) {
      const diff = s.maxDifference !== null ? `, largest difference ${s.maxDifference.toExponential(2)}` : '';
      const what = s.identical
        ? 'identical'
        : s.count !== s.referenceCount
          ? `differs: ${s.count} entries here, ${s.referenceCount} in the reference`
          : s.sameShapeNodes !== undefined
            ? `differs in ${s.differing} of ${s.count} entries${diff}; ${s.sameShapeNodes} of ${s.count} nodes (${((100 * s.sameShapeNodes) / s.count).toFixed(1)} %) have the same faces and plane flag`
            : `differs in ${s.differing} of ${s.count} entries${diff}`;
      lines.push(`  ${name.padEnd(10)} ${what}`);
      const note = sectionNote(r, name);
      if (!s.identical && note) lines.push(`             (${note})`);
    }
  }
  return `${lines.join('\n')}\n`;
}
