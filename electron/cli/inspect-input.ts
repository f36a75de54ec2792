import type { FileReport } from '../../shared/formats/file-report';
import { inspectBytes } from '../../shared/formats/inspect-file';
import { readBytes } from '../services/file-access';
import { nodeFormatEnvironment } from '../services/node-format-environment';
import type { CliIo } from './cli-io';
import { expectedErrorMessage } from './expected-errors';
import { terminalText } from './terminal-text';

export type InspectedInput =
  | { file: string; bytes: Uint8Array; report: FileReport; failure?: undefined }
  | { file: string; failure: { message: string; offset: number | null; format: string | null } };

/** A file's bytes, or why they could not be read: a read started ahead never rejects unobserved. */
export type InputRead = { bytes: Uint8Array } | { error: unknown };

export function readInput(file: string): Promise<InputRead> {
  return readBytes(file).then(
    (bytes) => ({ bytes }),
    (error: unknown) => ({ error }),
  );
}

/**
 * Reads and inspects one input file for `info` and `validate`. A file that cannot be read
 * (missing, malformed, unknown format) comes back as a failure whose one-line message has
 * already been printed on standard error. `read` is the file's read when the caller
 * started it ahead (the next file is read while this one is checked).
 */
export async function inspectInput(file: string, io: CliIo, read: Promise<InputRead> = readInput(file)): Promise<InspectedInput> {
  const r = await read;
  if (!('bytes' in r)) {
    const e = r.error;
    const message = expectedErrorMessage(e, file);
    if (message === undefined) throw e;
    io.err(`walkbench: ${terminalText(message)}\n`);
    return { file, failure: { message, offset: null, format: null } };
  }
  const bytes = r.bytes;
  const report = inspectBytes(file, bytes, nodeFormatEnvironment);
  if (report.readFailure) {
    io.err(`walkbench: ${terminalText(report.readFailure.message)}\n`);
    return { file, failure: { message: report.readFailure.message, offset: report.readFailure.offset, format: report.format } };
  }
  return { file, bytes, report };
}

/**
 * The inputs of `info` and `validate` inspected in order, each file's read started while
 * the one before is checked (its read waits on the disk meanwhile).
 */
export async function* inspectInputs(files: readonly string[], io: CliIo): AsyncGenerator<InspectedInput> {
  let next = files.length > 0 ? readInput(files[0]!) : undefined;
  for (let i = 0; i < files.length; i++) {
    const read = next!;
    if (i + 1 < files.length) next = readInput(files[i + 1]!);
    yield await inspectInput(files[i]!, io, read);
  }
}
