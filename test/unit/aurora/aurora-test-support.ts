import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { listFixtures } from '../../support/fixtures';

/** Every GFF fixture (GIT, ARE, GIC) of both games. */
export function gffFixtures(): string[] {
  return [...listFixtures('nwn2', ['.git', '.are', '.gic']), ...listFixtures('kotor', ['.git'])];
}

export function firstDifference(a: Uint8Array, b: Uint8Array): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? null : n;
}

/** The MalformedInputError `fn` throws; fails the test if it throws nothing or something else. */
export function caught(fn: () => unknown): MalformedInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof MalformedInputError) return e;
    throw e;
  }
  throw new Error('expected a MalformedInputError, nothing was thrown');
}

export function u32At(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, true);
}

export function withU32(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(at, value >>> 0, true);
  return copy;
}
