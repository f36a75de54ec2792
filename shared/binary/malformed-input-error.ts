/**
 * The one error type for malformed input. Every reader throws it, so the CLI, the app
 * and the fuzzer can tell "this file is bad" (expected, reported in one line) apart from a
 * bug in Walkbench (unexpected, reported with a stack).
 */
export interface MalformedInputDetails {
  /** Format identifier, e.g. `source-nav`. */
  format: string;
  /** Byte offset in the file where the problem was found. */
  offset: number;
  /** The field being read, e.g. `area[12].connections[N].count`. */
  field: string;
  /** What the format requires there. */
  expected: string;
  /** What the file holds there. */
  found: string;
  /** File name, when known. */
  file?: string;
}

export class MalformedInputError extends Error {
  readonly format: string;
  readonly offset: number;
  readonly field: string;
  readonly expected: string;
  readonly found: string;
  readonly file: string | undefined;

  constructor(details: MalformedInputDetails) {
    super(formatMessage(details));
    this.name = 'MalformedInputError';
    this.format = details.format;
    this.offset = details.offset;
    this.field = details.field;
    this.expected = details.expected;
    this.found = details.found;
    this.file = details.file;
  }

  /** The same error naming the file it came from (readers rarely know the name). */
  withFile(file: string): MalformedInputError {
    if (this.file === file) return this;
    return new MalformedInputError({ ...this.details(), file });
  }

  details(): MalformedInputDetails {
    const d: MalformedInputDetails = {
      format: this.format,
      offset: this.offset,
      field: this.field,
      expected: this.expected,
      found: this.found,
    };
    if (this.file !== undefined) d.file = this.file;
    return d;
  }
}

function formatMessage(d: MalformedInputDetails): string {
  const where = d.file !== undefined ? `${d.file}: ` : '';
  return `${where}${d.format} at offset ${d.offset} (0x${d.offset.toString(16)}), ${d.field}: expected ${d.expected}, found ${d.found}`;
}

export function isMalformedInputError(e: unknown): e is MalformedInputError {
  return e instanceof MalformedInputError;
}
