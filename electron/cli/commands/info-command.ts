import { inspectBytes } from '../../../shared/formats/inspect-file';
import { readBytes } from '../../services/file-access';
import { nodeFormatEnvironment } from '../../services/node-format-environment';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { expectedErrorMessage } from '../expected-errors';

export const infoUsage = 'walkbench info FILE… [--json]   format, version and counts of each file';

export async function infoCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, [], ['json']);
  if (args.positional.length === 0) throw new UsageError('info needs at least one FILE');
  const json = args.flags.has('json');
  const results: Record<string, unknown>[] = [];
  let status: number = ExitCode.ok;
  for (const file of args.positional) {
    let bytes: Uint8Array;
    try {
      bytes = await readBytes(file);
    } catch (e) {
      const message = expectedErrorMessage(e, file);
      if (message === undefined) throw e;
      results.push({ file, format: null, ok: false, error: message });
      io.err(`walkbench: ${message}\n`);
      status = ExitCode.failed;
      continue;
    }
    const report = inspectBytes(file, bytes, nodeFormatEnvironment);
    if (report.readFailure) {
      status = ExitCode.failed;
      io.err(`walkbench: ${report.readFailure.message}\n`);
      results.push({ file, format: report.format, ok: false, error: report.readFailure.message, offset: report.readFailure.offset });
      continue;
    }
    const summary = report.summary!;
    results.push({ file, format: report.format, game: report.game, ok: true, version: summary.version, counts: summary.counts, details: summary.details, size: bytes.length });
    if (!json) {
      io.out(`${file}: ${report.format}, version ${summary.version}, ${bytes.length} bytes\n`);
      io.out(`  ${Object.entries(summary.counts).map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
      for (const [k, v] of Object.entries(summary.details)) if (v !== '') io.out(`  ${k}: ${v}\n`);
    }
  }
  if (json) io.out(`${JSON.stringify(results, null, 2)}\n`);
  return status;
}
