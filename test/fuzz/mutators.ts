import type { CountField } from './fuzz-target';
import type { Rng } from './prng';

/** Byte-level mutators: any format, any seed. */
export const GENERIC_MUTATORS = ['bit-flip', 'byte-overwrite', 'truncate', 'insert', 'delete', 'count-inflate', 'count-zero-fill'] as const;
/**
 * Structure-aware mutators (issue 14): the attacks a format's structure allows, planned by
 * each target (structure-mutators.ts) from what it knows of its seed:
 * - `table-repeat`: a table entry repeated (a packet, resource or struct named many times);
 * - `table-overlap`: table entries or sections laid over each other's bytes;
 * - `sparse-inflate`: a sparse structure's dimensions inflated (a navmesh grid of millions of
 *   empty cells, a tile grid), its bytes provided;
 * - `zlib-bomb`: highly compressible data inside a compressed packet or record (made with
 *   pako), or a compressed size that lies;
 * - `non-finite`: NaN or ±Infinity written into geometry (vertices, normals, plane distances).
 * SQLite files (Walkbench projects) have their own, page-aware attacks:
 * - `cut-at-page`: the file cut at a page boundary (a copy interrupted between pages) or
 *   inside a page;
 * - `zero-page`: one page zeroed (a sector lost, a sparse file's hole);
 * - `header-field`: a field of the 100-byte database header changed (application_id,
 *   user_version, page size, page count, freelist, file format versions…);
 * - `cut-tail`: a few trailing bytes dropped (an interrupted copy's last write).
 */
export const STRUCTURE_MUTATORS = ['table-repeat', 'table-overlap', 'sparse-inflate', 'zlib-bomb', 'non-finite', 'cut-at-page', 'zero-page', 'header-field', 'cut-tail'] as const;
export const MUTATORS = [...GENERIC_MUTATORS, ...STRUCTURE_MUTATORS] as const;
export type MutatorName = (typeof MUTATORS)[number];
export type GenericMutatorName = (typeof GENERIC_MUTATORS)[number];
export type StructureMutatorName = (typeof STRUCTURE_MUTATORS)[number];

/** Relative frequency; count fields get the most, as that is where readers over-allocate. */
const WEIGHTS: Record<GenericMutatorName, number> = {
  'bit-flip': 18,
  'byte-overwrite': 14,
  truncate: 10,
  insert: 9,
  delete: 9,
  'count-inflate': 30,
  'count-zero-fill': 10,
};

const COUNT_MUTATORS: readonly GenericMutatorName[] = ['count-inflate', 'count-zero-fill'];

/** Most bytes an insertion adds (the scratch buffer is sized by it). */
export const MAX_INSERT = 64;

/** One planned edit of a seed input. Planning and writing are separate so any iteration can be rebuilt. */
export interface Mutation {
  mutator: MutatorName;
  description: string;
  /** The kind of count field a count mutator changed. */
  countKind?: string;
  /** Length of the mutated input (a structure mutation builds its input to know it). */
  readonly length: number;
  /** Writes the mutated input to `out[0, length)`; `out` must not be `base`. */
  write(base: Uint8Array, out: Uint8Array): void;
}

/**
 * A mutation whose input is built whole by `build` (a structure mutation: re-compressing,
 * rebuilding a table), once, on first use: planning stays cheap for the iterations the main
 * thread only describes.
 */
export function builtMutation(mutator: StructureMutatorName, description: string, build: () => Uint8Array): Mutation {
  let built: Uint8Array | undefined;
  const bytes = () => (built ??= build());
  return {
    mutator,
    description,
    get length() {
      return bytes().length;
    },
    write(_base, out) {
      out.set(bytes());
    },
  };
}

const hex = (n: number) => `0x${n.toString(16)}`;

/**
 * Plans one mutation of `base`. `counts` holds its count fields grouped by kind, for the
 * count mutators.
 */
export function planMutation(rng: Rng, base: Uint8Array, counts: readonly (readonly CountField[])[]): Mutation {
  const names = GENERIC_MUTATORS.filter((m) => (!COUNT_MUTATORS.includes(m) || counts.length > 0) && (base.length > 0 || m === 'insert'));
  let roll = rng.next() * names.reduce((s, m) => s + WEIGHTS[m], 0);
  let name = names[names.length - 1]!;
  for (const m of names) {
    roll -= WEIGHTS[m];
    if (roll < 0) {
      name = m;
      break;
    }
  }
  switch (name) {
    case 'bit-flip':
      return bitFlip(rng, base);
    case 'byte-overwrite':
      return byteOverwrite(rng, base);
    case 'truncate':
      return truncate(rng, base);
    case 'insert':
      return insert(rng, base);
    case 'delete':
      return remove(rng, base);
    case 'count-inflate':
      return countInflate(rng, base, counts, false);
    case 'count-zero-fill':
      return countInflate(rng, base, counts, true);
  }
}

/** 1 to 4 edits, with one the most likely (small changes get deepest into the format). */
function editCount(rng: Rng): number {
  const r = rng.next();
  return r < 0.5 ? 1 : r < 0.75 ? 2 : r < 0.9 ? 3 : 4;
}

function bitFlip(rng: Rng, base: Uint8Array): Mutation {
  const flips: [number, number][] = [];
  for (let k = editCount(rng); k > 0; k--) flips.push([rng.below(base.length), rng.below(8)]);
  return {
    mutator: 'bit-flip',
    description: `bit-flip ${flips.map(([at, bit]) => `bit ${bit} of byte ${hex(at)}`).join(', ')}`,
    length: base.length,
    write(b, out) {
      out.set(b);
      for (const [at, bit] of flips) out[at]! ^= 1 << bit;
    },
  };
}

const INTERESTING_BYTES = [0x00, 0xff, 0x7f, 0x80, 0x01, 0xfe];

function randomByte(rng: Rng): number {
  return rng.next() < 0.5 ? rng.pick(INTERESTING_BYTES) : rng.below(256);
}

function byteOverwrite(rng: Rng, base: Uint8Array): Mutation {
  const edits: [number, number][] = [];
  for (let k = editCount(rng); k > 0; k--) edits.push([rng.below(base.length), randomByte(rng)]);
  return {
    mutator: 'byte-overwrite',
    description: `byte-overwrite ${edits.map(([at, v]) => `${hex(at)} := ${hex(v)}`).join(', ')}`,
    length: base.length,
    write(b, out) {
      out.set(b);
      for (const [at, v] of edits) out[at] = v;
    },
  };
}

function truncate(rng: Rng, base: Uint8Array): Mutation {
  const keep = rng.below(base.length);
  return {
    mutator: 'truncate',
    description: `truncate to ${keep} of ${base.length} bytes`,
    length: keep,
    write(b, out) {
      out.set(b.subarray(0, keep));
    },
  };
}

function insert(rng: Rng, base: Uint8Array): Mutation {
  const at = rng.below(base.length + 1);
  const n = 1 + rng.below(rng.next() < 0.7 ? 8 : MAX_INSERT);
  const fill = rng.next() < 0.5 ? randomByte(rng) : -1;
  const added = new Uint8Array(n);
  for (let i = 0; i < n; i++) added[i] = fill >= 0 ? fill : rng.below(256);
  return {
    mutator: 'insert',
    description: `insert ${n} byte(s) ${fill >= 0 ? `of ${hex(fill)}` : 'of random values'} at ${hex(at)}`,
    length: base.length + n,
    write(b, out) {
      out.set(b.subarray(0, at));
      out.set(added, at);
      out.set(b.subarray(at), at + n);
    },
  };
}

function remove(rng: Rng, base: Uint8Array): Mutation {
  const at = rng.below(base.length);
  const n = 1 + rng.below(Math.min(rng.next() < 0.7 ? 8 : MAX_INSERT, base.length - at));
  return {
    mutator: 'delete',
    description: `delete ${n} byte(s) at ${hex(at)}`,
    length: base.length - n,
    write(b, out) {
      out.set(b.subarray(0, at));
      out.set(b.subarray(at + n), at);
    },
  };
}

function readLE(b: Uint8Array, at: number, width: number): number {
  let v = 0;
  for (let i = width - 1; i >= 0; i--) v = v * 256 + b[at + i]!;
  return v;
}

/** Values that break naive readers: the type's extremes, sign-bit edges, powers of two, off-by-one. */
function edgeValues(width: number, current: number): number[] {
  const max = 2 ** (8 * width) - 1;
  const values = [max, Math.floor(max / 2), Math.floor(max / 2) + 1, current + 1, current * 2 + 1, current + 16, 0];
  if (current > 0) values.push(current - 1);
  if (width >= 2) values.push(0x100, 0xfff);
  if (width === 4) values.push(0x10000, 0x1000000, 0x3fffffff, 0x40000000);
  return values.map((v) => Math.min(v, max));
}

/** Sizes of the zeroed run after a count (`Infinity`: to the end of the input). */
const ZERO_RUNS = [16, 256, 4096, 65536, 1 << 18, Infinity];

/**
 * `count-inflate` writes an edge value into a count field. `count-zero-fill` also zeroes
 * the bytes after it, so the inflated count is followed by minimal (all-zero) items: the
 * count then passes a bytes-left check and the reader builds every one of its items,
 * which is where a reader whose items cost more memory than their bytes blows up.
 */
function countInflate(rng: Rng, base: Uint8Array, counts: readonly (readonly CountField[])[], zeroFill: boolean): Mutation {
  const { offset, byteWidth, kind } = rng.pick(rng.pick(counts));
  const current = readLE(base, offset, byteWidth);
  const value = rng.pick(edgeValues(byteWidth, current));
  const after = offset + byteWidth;
  const zeros = zeroFill ? Math.min(base.length - after, rng.pick(ZERO_RUNS)) : 0;
  const mutator: GenericMutatorName = zeroFill ? 'count-zero-fill' : 'count-inflate';
  return {
    mutator,
    countKind: kind,
    description:
      `${mutator} u${byteWidth * 8} ${kind} at ${hex(offset)}: ${current} -> ${value} (${hex(value)})` +
      (zeroFill ? `, then ${zeros} zero byte(s)` : ''),
    length: base.length,
    write(b, out) {
      out.set(b);
      for (let i = 0, v = value; i < byteWidth; i++, v = Math.floor(v / 256)) out[offset + i] = v & 0xff;
      out.fill(0, after, after + zeros);
    },
  };
}
