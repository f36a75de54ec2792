import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { roundtripBytes, type RoundtripOutcome } from '../../../shared/formats/document-roundtrip';
import { readBytes } from '../../services/file-access';
import { nodeFormatEnvironment as env } from '../../services/node-format-environment';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { expectedErrorMessage } from '../expected-errors';
import { terminalText as t } from '../terminal-text';

export { firstDifference } from '../../../shared/formats/document-roundtrip';

export const roundtripUsage = 'walkbench roundtrip FILE… [--json]   read into the document (walkmeshes: and the model), write back in memory, compare bytes';

/** A file passes when it comes back byte for byte and so does every resource it holds that Walkbench reads. */
function passed(o: RoundtripOutcome): boolean {
  return o.identical && (o.resourceProblems?.length ?? 0) === 0;
}

function line(file: string, o: RoundtripOutcome): string {
  const head = o.identical
    ? `${t(file)}: identical (${o.format}, ${o.size} bytes)`
    : `${t(file)}: DIFFERENT from byte ${o.firstDifference} (${o.format}, read ${o.size} bytes, wrote ${o.writtenSize})`;
  if (o.resourcesTried === undefined) return `${head}\n`;
  if (o.resourcesTried === 0) return `${head}; it holds no resource of a format Walkbench reads\n`;
  let out = `${head}; ${o.resourcesIdentical} of ${o.resourcesTried} held resource(s) identical\n`;
  for (const p of o.resourceProblems ?? []) {
    out += p.error !== undefined ? `  ${t(p.error)}\n` : `  ${t(p.name)}: DIFFERENT from byte ${p.firstDifference} (${p.format})\n`;
  }
  return out;
}

/**
 * Reads each file into its document (walkmesh formats: and the common model, mapped back
 * onto the document as an edit would), writes it in memory and compares with the original
 * bytes; archives (ERF/MOD/HAK, RIM, BIF) also round-trip each resource they hold (KotOR's KEY, an index, only itself).
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
      const o = roundtripBytes(file, bytes, env);
      const ok = passed(o);
      if (!ok) status = ExitCode.failed;
      const archive = o.resourcesTried === undefined ? {} : { resourcesTried: o.resourcesTried, resourcesIdentical: o.resourcesIdentical, resourceProblems: o.resourceProblems };
      results.push({ file, format: o.format, ok, identical: o.identical, firstDifference: o.firstDifference, size: o.size, writtenSize: o.writtenSize, throughModel: o.throughModel, ...archive, ...o.details });
      if (!json) io.out(line(file, o));
    } catch (e) {
      const message = expectedErrorMessage(e, file);
      if (message === undefined) throw e;
      io.err(`walkbench: ${t(message)}\n`);
      // A malformed file names its format and the offset of the fault (also in the message).
      const where = isMalformedInputError(e) ? { format: e.format, offset: e.offset } : { format: null };
      results.push({ file, ...where, ok: false, identical: false, firstDifference: null, error: message });
      status = ExitCode.failed;
    }
  }
  if (json) io.out(`${JSON.stringify(results, null, 2)}\n`);
  return status;
}
