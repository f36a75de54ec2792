import { isMalformedInputError } from '../binary/malformed-input-error';
import { ModelMappingError } from '../model/model-mapping-error';
import { auroraCodecs } from './aurora/aurora-codecs';
import type { DocumentCodec } from './document-codec';
import type { FormatEnvironment } from './format-environment';
import type { FormatHandler } from './format-handler';
import { extensionOf, formatHandlers } from './format-registry';
import { UnknownFormatError } from './inspect-file';

/**
 * Every format Walkbench reads and writes as a document: the walkmesh formats first (they
 * also go through the common model), then the resource formats around them.
 */
export const documentCodecs: readonly DocumentCodec<unknown>[] = [...formatHandlers, ...auroraCodecs];

/**
 * The codec for a file, as format-registry's detectFormat picks a handler: a codec of the
 * file's extension whose signature matches, else any codec whose signature matches, else
 * the extension's codec (whose reader then names what is wrong).
 */
export function detectDocumentCodec(fileName: string, bytes: Uint8Array): DocumentCodec<unknown> | undefined {
  const ext = extensionOf(fileName);
  const byExtension = documentCodecs.filter((c) => c.extensions.includes(ext));
  return byExtension.find((c) => c.sniff(bytes)) ?? documentCodecs.find((c) => c.sniff(bytes)) ?? byExtension[0];
}

/** The walkmesh handler a codec is, or undefined for a resource format. */
function walkmeshHandler(codec: DocumentCodec<unknown>): FormatHandler<unknown> | undefined {
  return formatHandlers.find((h) => h === codec);
}

export function firstDifference(a: Uint8Array, b: Uint8Array): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? null : n;
}

/** One resource of an archive that did not come back as read. */
export interface ResourceRoundtripProblem {
  name: string;
  format: string | null;
  /** First differing byte offset in the resource, or null when it could not be read. */
  firstDifference: number | null;
  /** The reader's or mapper's message for a resource that could not be read. */
  error?: string;
}

export interface RoundtripOutcome {
  format: string;
  identical: boolean;
  firstDifference: number | null;
  size: number;
  writtenSize: number;
  /** True when the document was mapped to the common model and back before writing. */
  throughModel: boolean;
  details: Record<string, unknown>;
  /** For archives: how many held resources of a format Walkbench reads were round-tripped. */
  resourcesTried?: number;
  resourcesIdentical?: number;
  /** Held resources that differ or could not be read (the archive itself may still be identical). */
  resourceProblems?: ResourceRoundtripProblem[];
}

export interface RoundtripOptions {
  /** Map walkmesh formats to the common model and back (default true), as every edit does. */
  throughModel?: boolean;
  /** Round-trip the resources an archive holds (default true). */
  resources?: boolean;
}

/** Archives inside archives are followed this deep (a HAK holding an ERF…), no deeper. */
const MAX_NESTING = 2;

/**
 * Reads a file into its document, for walkmesh formats maps it to the common model and
 * back onto the document (as an edit would), writes it in memory and compares the bytes.
 * Archives also round-trip each resource they hold whose format Walkbench reads.
 *
 * Throws UnknownFormatError, MalformedInputError (naming `file`) and ModelMappingError:
 * the input's faults, which callers report in one line.
 */
export function roundtripBytes(file: string, bytes: Uint8Array, env: FormatEnvironment, options: RoundtripOptions = {}): RoundtripOutcome {
  return roundtripAt(file, bytes, env, options, 0);
}

function roundtripAt(file: string, bytes: Uint8Array, env: FormatEnvironment, options: RoundtripOptions, depth: number): RoundtripOutcome {
  const codec = detectDocumentCodec(file, bytes);
  if (!codec) throw new UnknownFormatError(file);
  let document: unknown;
  try {
    document = codec.read(bytes, env);
  } catch (e) {
    if (isMalformedInputError(e)) throw e.withFile(file);
    throw e;
  }
  let rebuilt = document;
  const handler = options.throughModel === false ? undefined : walkmeshHandler(codec);
  const throughModel = handler?.fromWalkmeshes !== undefined;
  if (handler?.fromWalkmeshes) rebuilt = handler.fromWalkmeshes(handler.toWalkmeshes(document, file), document);
  const written = codec.write(rebuilt, env);
  const diff = firstDifference(written, bytes);
  const outcome: RoundtripOutcome = {
    format: codec.id,
    identical: diff === null,
    firstDifference: diff,
    size: bytes.length,
    writtenSize: written.length,
    throughModel,
    details: codec.roundtripDetails?.(bytes, document, env) ?? {},
  };
  if (codec.resources && options.resources !== false && depth < MAX_NESTING) {
    const problems: ResourceRoundtripProblem[] = [];
    let tried = 0;
    let identical = 0;
    for (const r of codec.resources(document)) {
      const name = `${file}/${r.name}`;
      if (!detectDocumentCodec(r.name, r.data)) continue;
      tried++;
      try {
        const inner = roundtripAt(name, r.data, env, options, depth + 1);
        const innerProblems = inner.resourceProblems ?? [];
        if (inner.identical && innerProblems.length === 0) identical++;
        if (!inner.identical) problems.push({ name, format: inner.format, firstDifference: inner.firstDifference });
        problems.push(...innerProblems);
      } catch (e) {
        const message = isMalformedInputError(e) ? e.withFile(name).message : e instanceof ModelMappingError || e instanceof UnknownFormatError ? e.message : undefined;
        if (message === undefined) throw e;
        problems.push({ name, format: detectDocumentCodec(r.name, r.data)?.id ?? null, firstDifference: null, error: message });
      }
    }
    outcome.resourcesTried = tried;
    outcome.resourcesIdentical = identical;
    outcome.resourceProblems = problems;
  }
  return outcome;
}
