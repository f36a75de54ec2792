import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import type { CorpusEntry, FuzzTarget } from '../fuzz-target';

/**
 * The fuzzer's self-test: a tiny format ("CNRY", u32 count, count one-byte tags) with a
 * planted bug of every kind the fuzzer must catch. Tags from 0x80 up trigger a bug (see
 * canaryBug); the seed inputs hold only tags below 0x80, so only mutations (a flipped top
 * bit, an overwritten or inserted byte) reach them. `npm run fuzz -- canary` must
 * therefore fail, and the unit test checks that every kind is reported.
 */
export const CANARY_BUGS = ['hang', 'crash', 'memory', 'bad-error', 'out-of-memory', 'check'] as const;
export type CanaryBug = (typeof CANARY_BUGS)[number];

/** The bug a tag triggers: tags from 0x80 up, in turn. */
export function canaryBug(tag: number): CanaryBug | undefined {
  return tag < 0x80 ? undefined : CANARY_BUGS[tag % CANARY_BUGS.length];
}

const MAGIC = 0x59524e43; // "CNRY"
const FORMAT = 'canary';

/** Kept alive on purpose by the out-of-memory bug. */
const leaked: number[][] = [];

interface CanaryDoc {
  tags: Uint8Array;
  /** Held so the memory bug's allocation stays alive until measured. */
  ballast: Uint8Array | undefined;
  broken: boolean;
}

function malformed(offset: number, field: string, expected: string, found: string): MalformedInputError {
  return new MalformedInputError({ format: FORMAT, offset, field, expected, found });
}

export const canaryTarget: FuzzTarget<CanaryDoc> = {
  name: 'canary',
  description: 'the fuzzer\'s self-test: a toy format with one planted bug per failure kind',
  format: FORMAT,
  loadCorpus() {
    const corpus: CorpusEntry[] = [];
    for (let n = 32; n <= 96; n += 32) {
      const bytes = new Uint8Array(8 + n);
      const dv = new DataView(bytes.buffer);
      dv.setUint32(0, MAGIC, true);
      dv.setUint32(4, n, true);
      for (let i = 0; i < n; i++) bytes[8 + i] = 0x10 + i;
      corpus.push({ name: `canary-${n}`, bytes });
    }
    return corpus;
  },
  countFields: () => [{ offset: 4, byteWidth: 4, kind: 'count' }],
  parse(bytes) {
    if (bytes.length < 8) throw malformed(bytes.length, 'header', '8 bytes', `${bytes.length}`);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (dv.getUint32(0, true) !== MAGIC) throw malformed(0, 'magic', '"CNRY"', 'something else');
    const n = dv.getUint32(4, true);
    if (n > bytes.length - 8) throw malformed(4, 'count', `at most ${bytes.length - 8}`, String(n));
    const doc: CanaryDoc = { tags: bytes.slice(8, 8 + n), ballast: undefined, broken: false };
    for (const tag of doc.tags) {
      switch (canaryBug(tag)) {
        case 'hang':
          for (;;) doc.broken = !doc.broken;
        case 'crash':
          return (undefined as unknown as { field: CanaryDoc }).field;
        case 'memory':
          doc.ballast = new Uint8Array(32 * 1024 * 1024).fill(1);
          break;
        case 'bad-error':
          throw malformed(-1, '', 'a planted bad error', 'it');
        case 'out-of-memory':
          for (;;) leaked.push(new Array<number>(100_000).fill(tag + leaked.length)); // 0.8 MB of JS heap each
        case 'check':
          doc.broken = true;
          break;
        case undefined:
          break;
      }
    }
    return doc;
  },
  check(doc) {
    if (doc.broken) throw new Error('the planted check failure');
  },
};
