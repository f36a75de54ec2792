import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { inspectInput } from '../inspect-input';
import { terminalText as t } from '../terminal-text';

export const infoUsage = 'walkbench info FILE… [--json]   format, version and counts of each file';

export async function infoCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, [], ['json']);
  if (args.positional.length === 0) throw new UsageError('info needs at least one FILE');
  const json = args.flags.has('json');
  const results: Record<string, unknown>[] = [];
  let status: number = ExitCode.ok;
  for (const file of args.positional) {
    const input = await inspectInput(file, io);
    if (input.failure) {
      status = ExitCode.failed;
      results.push({ file, format: input.failure.format, ok: false, error: input.failure.message, offset: input.failure.offset });
      continue;
    }
    const { report, bytes } = input;
    const summary = report.summary!;
    results.push({ file, format: report.format, game: report.game, ok: true, version: summary.version, counts: summary.counts, details: summary.details, size: bytes.length });
    if (!json) {
      // The file's name and what it holds (names, strings) are shown with control characters escaped.
      io.out(`${t(file)}: ${report.format}, version ${t(summary.version)}, ${bytes.length} bytes\n`);
      io.out(`  ${Object.entries(summary.counts).map(([k, v]) => `${t(k)} ${v}`).join(', ')}\n`);
      for (const [k, v] of Object.entries(summary.details)) if (v !== '') io.out(`  ${t(k)}: ${t(v)}\n`);
    }
  }
  if (json) io.out(`${JSON.stringify(results, null, 2)}\n`);
  return status;
}
