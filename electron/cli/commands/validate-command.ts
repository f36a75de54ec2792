import type { Finding } from '../../../shared/validation/finding';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { inspectInput } from '../inspect-input';

export const validateUsage = 'walkbench validate FILE… [--json] [--max N]   findings; exit status 1 if any file is invalid';

const findingJson = (f: Finding) => ({ message: f.message, code: f.code, ...(f.subject ? { subject: f.subject } : {}) });

export async function validateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['max'], ['json']);
  if (args.positional.length === 0) throw new UsageError('validate needs at least one FILE');
  const json = args.flags.has('json');
  const maxRaw = args.flags.get('max');
  const max = maxRaw === undefined ? 50 : Number(maxRaw);
  if (!Number.isInteger(max) || max < 0) throw new UsageError('--max takes a whole number of findings to print per file');
  const results: Record<string, unknown>[] = [];
  let status: number = ExitCode.ok;
  for (const file of args.positional) {
    const input = await inspectInput(file, io);
    if (input.failure) {
      results.push({ file, format: input.failure.format, ok: false, errors: [{ message: input.failure.message, offset: input.failure.offset }], warnings: [] });
      status = ExitCode.failed;
      continue;
    }
    const { report } = input;
    if (!report.ok) status = ExitCode.failed;
    results.push({ file, format: report.format, ok: report.ok, errors: report.errors.map(findingJson), warnings: report.warnings.map(findingJson) });
    if (!json) {
      const verdict = report.ok ? 'valid' : 'INVALID';
      io.out(`${file}: ${verdict} (${report.errors.length} error(s), ${report.warnings.length} warning(s))\n`);
      const all = [...report.errors, ...report.warnings];
      for (const f of all.slice(0, max)) io.out(`  ${f.severity}: ${f.message} [${f.code}]\n`);
      if (all.length > max) io.out(`  … and ${all.length - max} more (use --max or --json)\n`);
    }
  }
  if (json) io.out(`${JSON.stringify(results, null, 2)}\n`);
  return status;
}
