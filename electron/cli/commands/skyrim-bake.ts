import path from 'node:path';
import { compareRebake, rebakePlugin, type NavmeshAgreementReport, type PluginRebake } from '../../../shared/bakers/skyrim/plugin-rebake';
import { formIdHex, PLUGIN_FORMAT, type PluginDocument } from '../../../shared/formats/skyrim/plugin-document';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { writePlugin } from '../../../shared/formats/skyrim/plugin-writer';
import { readBytes, writeFileAtomic } from '../../services/file-access';
import { nodeFormatEnvironment as env } from '../../services/node-format-environment';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { expectedErrorMessage } from '../expected-errors';
import { validatePlugin } from '../../../shared/formats/skyrim/skyrim-validate';
import type { Finding } from '../../../shared/validation/finding';
import { pluginMasters } from '../../../shared/formats/skyrim/plugin-navmeshes';
import { readMasterPlugins, unlistedMasters } from './skyrim-masters';

export const skyrimBakeUsage =
  'walkbench bake PLUGIN.esp -o OUT.esp [--navmesh FORMID] [--compare REF.esp] [--master MASTER.esm]… [--json]   recompute edge links, cover lists, grids and NAVI entries of the navmeshes; reports per navmesh how far they agree with REF (or the plugin itself), and validates the result (links into --master plugins checked)';

function parseFormId(text: string): number {
  const t = text.trim();
  if (!/^(0x)?[0-9a-f]{1,8}$/i.test(t)) throw new UsageError(`--navmesh needs a FormID in hex (like 0x0200E9CD), not ${JSON.stringify(text)}`);
  return parseInt(t.replace(/^0x/i, ''), 16) >>> 0;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

function navmeshJson(r: NavmeshAgreementReport, rebake: PluginRebake): Record<string, unknown> {
  const baked = rebake.navmeshes.find((n) => n.formId === r.formId)!;
  const c = r.comparison;
  return {
    formId: formIdHex(r.formId),
    cell: r.cellFormId !== undefined ? formIdHex(r.cellFormId) : null,
    agreement: c
      ? { edgeLinks: round(c.agreement.edgeLinks), coverList: round(c.agreement.coverList), grid: round(c.agreement.grid), navi: c.agreement.navi === null ? null : round(c.agreement.navi) }
      : null,
    counts: { ...(c?.counts ?? { triangles: baked.after.triFlags.length }), externalEdges: baked.edges.externalEdges, nonManifoldEdges: baked.edges.nonManifoldEdges },
    ...(c?.navi ? { naviFields: c.navi } : {}),
    rebakeMs: round(baked.milliseconds),
  };
}

function describe(input: string, output: string, reference: string, rebake: PluginRebake, reports: NavmeshAgreementReport[], findings: readonly Finding[]): string {
  const pct = (x: number | null) => (x === null ? '   n/a' : `${(x * 100).toFixed(1).padStart(5)}%`);
  const lines = [`${input} → ${output}: ${rebake.navmeshes.length} navmesh(es) rebaked${rebake.skipped.length ? `, ${rebake.skipped.length} deleted or without NVNM v12 skipped` : ''}`];
  lines.push(`agreement with ${reference}:  formId      edgeLinks coverList  grid   navi`);
  for (const r of reports) {
    const a = r.comparison?.agreement;
    lines.push(a ? `  ${formIdHex(r.formId)}  ${pct(a.edgeLinks)}  ${pct(a.coverList)}  ${pct(a.grid)} ${pct(a.navi)}` : `  ${formIdHex(r.formId)}  not in the reference`);
  }
  const errors = findings.filter((f) => f.severity === 'error');
  lines.push(`validation of ${output}: ${errors.length} error(s), ${findings.length - errors.length} warning(s)`);
  for (const f of [...errors, ...findings.filter((f) => f.severity === 'warning')].slice(0, 20)) lines.push(`  ${f.severity}: ${f.message} [${f.code}]`);
  if (findings.length > 20) lines.push(`  … and ${findings.length - 20} more (use --json)`);
  return `${lines.join('\n')}\n`;
}

const findingJson = (f: Finding) => ({ message: f.message, code: f.code, ...(f.subject ? { subject: f.subject } : {}) });

/**
 * `walkbench bake PLUGIN.esp -o OUT.esp`: recomputes what the Creation Kit derives for every
 * navmesh (or --navmesh FORMID) and writes the plugin; every other record is written back
 * as it was. Agreement is measured against --compare REF.esp, or the input's own data.
 */
export async function bakePluginCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv.map((a) => (a === '-o' ? '--output' : a)), ['output', 'compare', 'navmesh'], ['json'], ['master']);
  if (args.positional.length !== 1) throw new UsageError('bake needs exactly one plugin file (.esp or .esm)');
  const input = args.positional[0]!;
  const output = args.flags.get('output');
  if (typeof output !== 'string') throw new UsageError('bake needs -o OUT.esp, the file to write');
  const compareFlag = args.flags.get('compare');
  const compareWith = typeof compareFlag === 'string' ? compareFlag : undefined;
  const navmeshFlag = args.flags.get('navmesh');
  const navmesh = typeof navmeshFlag === 'string' ? parseFormId(navmeshFlag) : undefined;
  const json = args.flags.has('json');
  let file = input;
  const loaded = await readMasterPlugins(args.lists.get('master') ?? []);
  if ('error' in loaded) {
    io.err(`walkbench: ${loaded.error}\n`);
    if (json) io.out(`${JSON.stringify([{ file: loaded.file, format: null, ok: false, output, error: loaded.error }], null, 2)}\n`);
    return ExitCode.failed;
  }
  try {
    const doc = readPlugin(await readBytes(input), env);
    const rebake = rebakePlugin(doc, { navmesh, clock: () => performance.now() });
    await writeFileAtomic(output, writePlugin(rebake.document, env));
    let reference: PluginDocument | undefined;
    if (compareWith !== undefined) {
      file = compareWith;
      reference = readPlugin(await readBytes(compareWith), env);
    }
    const reports = compareRebake(rebake, reference);
    const findings = [...unlistedMasters(pluginMasters(doc), loaded.masters), ...validatePlugin(rebake.document, loaded.masters, path.basename(input))];
    if (json) {
      const validation = { errors: findings.filter((f) => f.severity === 'error').map(findingJson), warnings: findings.filter((f) => f.severity === 'warning').map(findingJson) };
      const entry = { file: input, format: PLUGIN_FORMAT, ok: true, output, compare: compareWith ?? input, navmeshes: reports.map((r) => navmeshJson(r, rebake)), skipped: rebake.skipped.map(formIdHex), validation };
      io.out(`${JSON.stringify([entry], null, 2)}\n`);
    } else {
      io.out(describe(input, output, compareWith ?? input, rebake, reports, findings));
    }
    return ExitCode.ok;
  } catch (e) {
    const message = expectedErrorMessage(e, file);
    if (message === undefined) throw e;
    io.err(`walkbench: ${message}\n`);
    if (json) io.out(`${JSON.stringify([{ file: input, format: null, ok: false, output, error: message }], null, 2)}\n`);
    return ExitCode.failed;
  }
}
