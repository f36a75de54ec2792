import { inspectBytes } from '../../../shared/formats/inspect-file';
import type { Finding } from '../../../shared/validation/finding';
import { readBytes } from '../../services/file-access';
import { nodeFormatEnvironment } from '../../services/node-format-environment';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { expectedErrorMessage } from '../expected-errors';

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
    let bytes: Uint8Array;
    try {
      bytes = await readBytes(file);
    } catch (e) {
      const message = expectedErrorMessage(e, file);
      if (message === undefined) throw e;
      io.err(`walkbench: ${message}\n`);
      results.push({ file, format: null, ok: false, errors: [{ message }], warnings: [] });
      status = ExitCode.failed;
      continue;
    }
    const report = inspectBytes(file, bytes, nodeFormatEnvironment);
    if (report.readFailure) {
      io.err(`walkbench: ${report.readFailure.message}\n`);
      results.push({ file, format: report.format, ok: false, errors: [{ message: report.readFailure.message, offset: report.readFailure.offset }], warnings: [] });
      status = ExitCode.failed;
      continue;
    }
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
