/**
 * Random access to a file that may be far larger than what a reader should hold in memory
 * (an NWN2 install's Data zips are hundreds of MB each): archive readers read their
 * directories through it and one resource at a time. Node code backs it with a file
 * descriptor (electron/services/file-byte-source.ts); tests and the fuzzer with bytes.
 */
export interface ByteSource {
  /** What errors name: the file's path. */
  readonly name: string;
  readonly size: number;
  /** Exactly `length` bytes at `offset`; callers check the range against `size` first. */
  read(offset: number, length: number): Uint8Array;
}

/** A ByteSource over bytes already in memory. */
export function bytesSource(bytes: Uint8Array, name: string): ByteSource {
  return {
    name,
    size: bytes.length,
    read: (offset, length) => {
      if (offset < 0 || length < 0 || offset + length > bytes.length) throw new RangeError(`${name}: read of ${length} byte(s) at ${offset} is outside the ${bytes.length}-byte file`);
      return bytes.subarray(offset, offset + length);
    },
  };
}
