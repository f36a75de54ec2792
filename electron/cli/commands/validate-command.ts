import type { Finding } from '../../../shared/validation/finding';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { inspectInputs } from '../inspect-input';
import { readMasterPlugins, reportWithMasters } from './skyrim-masters';
import { terminalText as t } from '../terminal-text';

export const validateUsage = 'walkbench validate FILE… [--json] [--max N] [--master MASTER.esm]…   findings; exit status 1 if any file is invalid. --master: a Skyrim master whose navmeshes the edge links are checked against';

const findingJson = (f: Finding) => ({ message: f.message, code: f.code, ...(f.subject ? { subject: f.subject } : {}) });

export async function validateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['max'], ['json'], ['master']);
  if (args.positional.length === 0) throw new UsageError('validate needs at least one FILE');
  const json = args.flags.has('json');
  const maxRaw = args.flags.get('max');
  const max = maxRaw === undefined ? 50 : Number(maxRaw);
  if (!Number.isInteger(max) || max < 0) throw new UsageError('--max takes a whole number of findings to print per file');
  const loaded = await readMasterPlugins(args.lists.get('master') ?? []);
  if ('error' in loaded) {
    io.err(`walkbench: ${t(loaded.error)}\n`);
    if (json) io.out(`${JSON.stringify([{ file: loaded.file, format: null, ok: false, errors: [{ message: loaded.error, offset: null }], warnings: [] }], null, 2)}\n`);
    return ExitCode.failed;
  }
  const results: Record<string, unknown>[] = [];
  let status: number = ExitCode.ok;
  for await (const input of inspectInputs(args.positional, io)) {
    const file = input.file;
    if (input.failure) {
      results.push({ file, format: input.failure.format, ok: false, errors: [{ message: input.failure.message, offset: input.failure.offset }], warnings: [] });
      status = ExitCode.failed;
      continue;
    }
    const report = reportWithMasters(input.report, input.bytes, loaded.masters);
    if (!report.ok) status = ExitCode.failed;
    results.push({ file, format: report.format, ok: report.ok, errors: report.errors.map(findingJson), warnings: report.warnings.map(findingJson) });
    if (!json) {
      const verdict = report.ok ? 'valid' : 'INVALID';
      io.out(`${t(file)}: ${verdict} (${report.errors.length} error(s), ${report.warnings.length} warning(s))\n`);
      const all = [...report.errors, ...report.warnings];
      // Findings quote the file (names, strings): shown with control characters escaped.
      for (const f of all.slice(0, max)) io.out(`  ${f.severity}: ${t(f.message)} [${f.code}]\n`);
      if (all.length > max) io.out(`  … and ${all.length - max} more (use --max or --json)\n`);
    }
  }
  if (json) io.out(`${JSON.stringify(results, null, 2)}\n`);
  return status;
}
