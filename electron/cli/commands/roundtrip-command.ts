import { loadDocument } from '../../../shared/formats/inspect-file';
import { readBytes } from '../../services/file-access';
import { nodeFormatEnvironment as env } from '../../services/node-format-environment';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { expectedErrorMessage } from '../expected-errors';
import { terminalText as t } from '../terminal-text';

export const roundtripUsage = 'walkbench roundtrip FILE… [--json]   read into the model, write back in memory, compare bytes';

export function firstDifference(a: Uint8Array, b: Uint8Array): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? null : n;
}

/**
 * Reads each file into its document and the common model, maps the model back onto the
 * document (as an edit would), writes it in memory, and compares with the original bytes.
 */
export async function roundtripCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, [], ['json']);
  if (args.positional.length === 0) throw new UsageError('roundtrip needs at least one FILE');
  const json = args.flags.has('json');
  const results: Record<string, unknown>[] = [];
  let status: number = ExitCode.ok;
  for (const file of args.positional) {
    try {
      const bytes = await readBytes(file);
      const { handler, document } = loadDocument(file, bytes, env);
      let rebuilt = document;
      if (handler.fromWalkmeshes) rebuilt = handler.fromWalkmeshes(handler.toWalkmeshes(document, file), document);
      const written = handler.write(rebuilt, env);
      const diff = firstDifference(written, bytes);
      const identical = diff === null;
      if (!identical) status = ExitCode.failed;
      const details = handler.roundtripDetails?.(bytes, document, env) ?? {};
      results.push({ file, format: handler.id, ok: identical, identical, firstDifference: diff, size: bytes.length, writtenSize: written.length, ...details });
      if (!json) {
        io.out(identical ? `${t(file)}: identical (${bytes.length} bytes)\n` : `${t(file)}: DIFFERENT from byte ${diff} (read ${bytes.length} bytes, wrote ${written.length})\n`);
      }
    } catch (e) {
      const message = expectedErrorMessage(e, file);
      if (message === undefined) throw e;
      io.err(`walkbench: ${t(message)}\n`);
      results.push({ file, format: null, ok: false, identical: false, firstDifference: null, error: message });
      status = ExitCode.failed;
    }
  }
  if (json) io.out(`${JSON.stringify(results, null, 2)}\n`);
  return status;
}
