import type { ReadLimits } from '../../shared/binary/read-budget';
import type { FormatEnvironment } from '../../shared/formats/format-environment';
import { nodeZlibCodec } from './node-zlib-codec';

export const MAX_DECOMPRESSED_VARIABLE = 'WALKBENCH_MAX_DECOMPRESSED_MB';

/**
 * The readers' decompression budget per file (shared/binary/read-budget.ts), raised by
 * WALKBENCH_MAX_DECOMPRESSED_MB (MiB; the default is 256 MiB or 8 × the file's size): an
 * environment variable, so that the CLI, the services and their worker threads, which
 * inherit it, read with one budget. A value that is not a positive number is ignored.
 */
export function readLimitsOf(env: Readonly<Record<string, string | undefined>>): ReadLimits {
  const howToRaise = `set ${MAX_DECOMPRESSED_VARIABLE} (MiB) to read larger files`;
  const raw = env[MAX_DECOMPRESSED_VARIABLE];
  const mb = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(mb) && mb > 0 ? { maxDecompressedBytes: Math.floor(mb * 1024 * 1024), howToRaise } : { howToRaise };
}

/** The environment of format code running in the main process, workers and the CLI. */
export const nodeFormatEnvironment: FormatEnvironment = { zlib: nodeZlibCodec, limits: readLimitsOf(process.env) };
