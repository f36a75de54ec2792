import { isMalformedInputError } from '../binary/malformed-input-error';
import type { FileReport } from './file-report';
import type { FormatHandler } from './format-handler';
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
export function loadDocument(file: string, bytes: Uint8Array): LoadedDocument {
  const handler = detectFormat(file, bytes);
  if (!handler) throw new UnknownFormatError(file);
  try {
    return { handler, document: handler.read(bytes) };
  } catch (e) {
    if (isMalformedInputError(e)) throw e.withFile(file);
    throw e;
  }
}

/** Reads and validates a file's bytes into a report; never throws for bad input. */
export function inspectBytes(file: string, bytes: Uint8Array): FileReport {
  const handler = detectFormat(file, bytes);
  const report: FileReport = {
    file,
    format: handler?.id ?? null,
    game: handler?.game ?? null,
    ok: false,
    summary: null,
    errors: [],
    warnings: [],
    readFailure: null,
  };
  if (!handler) {
    report.readFailure = { message: new UnknownFormatError(file).message, offset: null, field: null };
    return report;
  }
  let doc: unknown;
  try {
    doc = handler.read(bytes);
  } catch (e) {
    if (!isMalformedInputError(e)) throw e;
    const err = e.withFile(file);
    report.readFailure = { message: err.message, offset: err.offset, field: err.field };
    return report;
  }
  report.summary = handler.summarize(doc);
  for (const f of handler.validate(doc)) (f.severity === 'error' ? report.errors : report.warnings).push(f);
  report.ok = report.errors.length === 0;
  return report;
}
