import { isMalformedInputError } from '../binary/malformed-input-error';
import type { FileReport, ReadFailure } from './file-report';
import type { FormatHandler } from './format-handler';
import { portableEnvironment, type FormatEnvironment } from './format-environment';
import { detectFormat } from './format-registry';

export interface LoadedDocument {
  handler: FormatHandler<unknown>;
  document: unknown;
}

export class UnknownFormatError extends Error {
  constructor(readonly file: string) {
    super(`${file}: not a format Walkbench reads (unknown extension and magic number)`);
    this.name = 'UnknownFormatError';
  }
}

/** Detects the format and reads the document; malformed input errors name the file. */
export function loadDocument(file: string, bytes: Uint8Array, env: FormatEnvironment = portableEnvironment): LoadedDocument {
  const handler = detectFormat(file, bytes);
  if (!handler) throw new UnknownFormatError(file);
  try {
    return { handler, document: handler.read(bytes, env) };
  } catch (e) {
    if (isMalformedInputError(e)) throw e.withFile(file);
    throw e;
  }
}

/** Reads and validates a file's bytes into a report; never throws for bad input. */
export function inspectBytes(file: string, bytes: Uint8Array, env: FormatEnvironment = portableEnvironment): FileReport {
  const handler = detectFormat(file, bytes);
  if (!handler) return failedReport(file, null, { message: new UnknownFormatError(file).message, offset: null, field: null });
  let document: unknown;
  try {
    document = handler.read(bytes, env);
  } catch (e) {
    if (!isMalformedInputError(e)) throw e;
    const err = e.withFile(file);
    return failedReport(file, handler, { message: err.message, offset: err.offset, field: err.field });
  }
  return inspectDocument(file, { handler, document });
}

function failedReport(file: string, handler: FormatHandler<unknown> | null, readFailure: ReadFailure): FileReport {
  return {
    file,
    format: handler?.id ?? null,
    game: handler?.game ?? null,
    ok: false,
    summary: null,
    errors: [],
    warnings: [],
    readFailure,
  };
}

/** The report of a document already read (so opening a file parses it only once). */
export function inspectDocument(file: string, loaded: LoadedDocument): FileReport {
  const { handler, document } = loaded;
  const report: FileReport = {
    file,
    format: handler.id,
    game: handler.game,
    ok: false,
    summary: handler.summarize(document),
    errors: [],
    warnings: [],
    readFailure: null,
  };
  for (const f of handler.validate(document)) (f.severity === 'error' ? report.errors : report.warnings).push(f);
  report.ok = report.errors.length === 0;
  return report;
}
