import { MalformedInputError } from './malformed-input-error';

/**
 * How much one input may make a reader decompress. A reader's memory is otherwise bounded
 * by its input's size (each documents its bound); decompression is the one place a small
 * file can justify a large document, so its total is capped per file.
 */
export interface ReadLimits {
  /**
   * Bytes a file's compressed parts may inflate to, in all (ASWM packets of a TRN/TRX,
   * compressed records of a Skyrim plugin). The effective budget of a file is the larger of
   * this and `maxDecompressedPerInputByte` × its size. Default 256 MiB
   * (DEFAULT_MAX_DECOMPRESSED_BYTES): twice the 128 MiB a single NWN2 walkmesh may take.
   */
  maxDecompressedBytes?: number;
  /**
   * Decompressed bytes allowed per byte of the file (default 8): large files compressed at
   * ordinary ratios keep a budget that grows with them, while a small file stays at the
   * absolute budget. Measured on the fixtures: the 30 NWN2 TRN/TRX inflate 1.9× their size
   * in all, at most 5.1× (dm_dungeon.trx); the 3 Skyrim plugins at most 0.7× (only some
   * records are compressed). Nothing real came near 8.
   */
  maxDecompressedPerInputByte?: number;
  /**
   * How the user raises the budget where these readers run, said in the error (the CLI and
   * the services: the WALKBENCH_MAX_DECOMPRESSED_MB environment variable).
   */
  howToRaise?: string;
}

export const DEFAULT_MAX_DECOMPRESSED_BYTES = 256 * 1024 * 1024;
export const DEFAULT_MAX_DECOMPRESSED_PER_INPUT_BYTE = 8;

/** The decompression budget of one file (see ReadLimits). */
export function decompressionBudgetOf(inputLength: number, limits: ReadLimits | undefined): number {
  const absolute = limits?.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES;
  const perByte = limits?.maxDecompressedPerInputByte ?? DEFAULT_MAX_DECOMPRESSED_PER_INPUT_BYTE;
  return Math.max(absolute, perByte * inputLength);
}

/**
 * The running total of what one file has decompressed (and, for readers that charge them,
 * the model objects made from decompressed data). Every inflate is charged with its
 * declared size before it runs, so a file over its budget is refused before the bytes
 * exist, with a MalformedInputError naming the size field.
 */
export class DecompressionBudget {
  readonly limit: number;
  private used = 0;
  private readonly howToRaise: string;

  constructor(inputLength: number, limits?: ReadLimits) {
    this.limit = decompressionBudgetOf(inputLength, limits);
    this.howToRaise = limits?.howToRaise ?? 'raise FormatEnvironment.limits.maxDecompressedBytes to read larger files';
  }

  /** Bytes charged so far. */
  get charged(): number {
    return this.used;
  }

  /** Bytes left. */
  get remaining(): number {
    return this.limit - this.used;
  }

  /**
   * Charges `bytes`; throws a MalformedInputError at `offset` naming `field` (the size
   * field that declared them; a function is called only for the error) when the file's
   * budget would be passed.
   */
  charge(bytes: number, format: string, offset: number, field: string | (() => string)): void {
    if (bytes > this.limit - this.used) {
      throw new MalformedInputError({
        format,
        offset,
        field: typeof field === 'string' ? field : field(),
        expected:
          `at most ${Math.max(0, this.limit - this.used)} more byte(s): the file's decompression budget is ${this.limit} bytes ` +
          `(${this.used} already used; ${this.howToRaise})`,
        found: String(bytes),
      });
    }
    this.used += bytes;
  }
}

/**
 * A reader's stated memory bound: one read allocates (garbage included) at most
 * `perInputByte` × the input's size + `perDecompressedByte` × the bytes it inflates (which
 * its decompression budget caps) + READ_MEMORY_ALLOWANCE. Each reader exports its bound
 * and states it in its doc comment; test/unit/hostile/reader-memory-bounds.test.ts measures
 * it on real and crafted files, and the fuzz targets (test/fuzz) hold every mutated input
 * to it.
 */
export interface ReadMemoryBound {
  perInputByte: number;
  perDecompressedByte: number;
}

/** What a read may allocate whatever its size (V8 compiling code, small fixed objects). */
export const READ_MEMORY_ALLOWANCE = 1024 * 1024;
