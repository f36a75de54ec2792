import { loadDocument } from '../../../shared/formats/inspect-file';
import { gameValueNames, namedValueCounts } from '../../../shared/views/game-attribute-names';
import { nodeFormatEnvironment } from '../../services/node-format-environment';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { inspectInputs } from '../inspect-input';
import { terminalText as t } from '../terminal-text';

export const infoUsage = "walkbench info FILE… [--names] [--json]   format, version and counts of each file; --names: faces per material, flags or attributes, named as the game names them";

/** Per walkmesh of the file, its faces per value with the game's names (`--names`). */
function namedValues(file: string, bytes: Uint8Array): { walkmesh: string; noun: string; values: { name: string; raw: string; faces: number }[] }[] {
  const loaded = loadDocument(file, bytes, nodeFormatEnvironment);
  return loaded.handler.toWalkmeshes(loaded.document, file).map((m) => ({
    walkmesh: m.name,
    noun: gameValueNames(m.game).noun,
    values: namedValueCounts(m).map(({ name, raw, faces }) => ({ name, raw, faces })),
  }));
}

export async function infoCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, [], ['json', 'names']);
  if (args.positional.length === 0) throw new UsageError('info needs at least one FILE');
  const json = args.flags.has('json');
  const withNames = args.flags.has('names');
  const results: Record<string, unknown>[] = [];
  let status: number = ExitCode.ok;
  for await (const input of inspectInputs(args.positional, io)) {
    const file = input.file;
    if (input.failure) {
      status = ExitCode.failed;
      results.push({ file, format: input.failure.format, ok: false, error: input.failure.message, offset: input.failure.offset });
      continue;
    }
    const { report, bytes } = input;
    const summary = report.summary!;
    const names = withNames ? namedValues(file, bytes) : undefined;
    results.push({ file, format: report.format, game: report.game, ok: true, version: summary.version, counts: summary.counts, details: summary.details, size: bytes.length, ...(names ? { names } : {}) });
    if (!json) {
      // The file's name and what it holds (names, strings) are shown with control characters escaped.
      io.out(`${t(file)}: ${report.format}, version ${t(summary.version)}, ${bytes.length} bytes\n`);
      io.out(`  ${Object.entries(summary.counts).map(([k, v]) => `${t(k)} ${v}`).join(', ')}\n`);
      for (const [k, v] of Object.entries(summary.details)) if (v !== '') io.out(`  ${t(k)}: ${t(v)}\n`);
      for (const n of names ?? []) io.out(`  ${t(n.walkmesh)} faces by ${n.noun}: ${n.values.map((v) => `${t(v.name)} ${v.faces} (${v.raw})`).join(', ')}\n`);
    }
  }
  if (json) io.out(`${JSON.stringify(results, null, 2)}\n`);
  return status;
}
