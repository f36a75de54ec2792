import type { Mutation, StructureMutatorName } from './mutators';
import type { Rng } from './prng';

/**
 * What the fuzzer needs to know about one format: its seed inputs, where their count
 * fields are, how to parse, and what must hold for an input the parser accepts. The nav
 * target is the first; NWN2 TRX, KotOR WOK, Skyrim ESP… add a target to fuzz-targets.ts.
 */
export interface CorpusEntry {
  /** Display name (the fixture path below the fixtures folder). */
  name: string;
  bytes: Uint8Array;
}

export interface CorpusOptions {
  /** Largest seed input to use, in bytes (keeps long runs fast). */
  maxSize: number;
  /** Use every seed input regardless of size. */
  all: boolean;
}

/** A count field: `byteWidth` bytes (1, 2 or 4, little-endian) at `offset`. */
export interface CountField {
  offset: number;
  byteWidth: number;
  /**
   * What it counts (e.g. `connections.count`). Mutations pick a kind first, so the one
   * area count weighs as much as the thousands of per-area list counts.
   */
  kind: string;
}

export interface FuzzTarget<Parsed> {
  /** The name given on the command line. */
  name: string;
  description: string;
  /** The MalformedInputError `format` the parser reports, when it has one. */
  format?: string;
  loadCorpus(options: CorpusOptions): CorpusEntry[];
  /** The count fields of a valid seed input, for the `count-inflate` mutator. */
  countFields?(bytes: Uint8Array): CountField[];
  /**
   * Parses untrusted bytes. Throws MalformedInputError on input the format does not
   * allow; any other throw is a bug. The result stays alive until memory is measured.
   */
  parse(bytes: Uint8Array): Parsed;
  /** Properties of an accepted input (round trip, validation); any throw is a failure. */
  check?(parsed: Parsed, bytes: Uint8Array): void;
  /**
   * Memory bound factor for this format (default MEMORY_FACTOR): compressed formats read
   * into documents several times their file size (an NWN2 TRX inflates about 3x, and its
   * typed columns take about 5x the file), so their honest bound is larger.
   */
  memoryFactor?: number;
  /**
   * Memory bound per byte the parse inflated through fuzzEnvironment (fuzz-env.ts), on top
   * of `memoryFactor` per input byte (default 4: the inflated bytes, the document made from
   * them and the inflater's chunks).
   */
  inflatedFactor?: number;
  /** What the structure mutators need to know of a seed input (computed once per seed). */
  structure?(bytes: Uint8Array): unknown;
  /** The format's structure-aware mutators (mutators.ts STRUCTURE_MUTATORS). */
  structureMutators?: readonly StructureMutator[];
}

/**
 * One structure-aware mutator of a target: plans a mutation of a seed from its structure,
 * or gives undefined when the seed has nothing it can attack (then a byte-level mutator
 * is used). The planned mutation must be a function of `rng` and the seed alone.
 */
export interface StructureMutator {
  name: StructureMutatorName;
  /** Relative frequency among the target's structure mutators. */
  weight: number;
  plan(rng: Rng, base: Uint8Array, structure: unknown): Mutation | undefined;
}
