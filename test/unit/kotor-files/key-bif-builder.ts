/**
 * Builds KEY V1 / BIF V1 bytes for tests, straight from the documented layouts (xoreos
 * `keyfile.cpp`/`biffile.cpp`, kotor-bwm.md §8.2; see shared/formats/aurora/key-document.ts
 * and bif-document.ts). Walkbench only reads these formats; no game KEY/BIF is public.
 */

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

export interface BuiltBifEntry {
  type: number;
  data: Uint8Array;
}

/** A BIFF V1 with a 20-byte header, the variable table right after it, then the data. */
export function buildBif(entries: readonly BuiltBifEntry[], bifIndex = 0): Uint8Array {
  const tableBytes = entries.length * 16;
  let total = 20 + tableBytes;
  for (const e of entries) total += e.data.length;
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  out.set(ascii('BIFFV1  '), 0);
  v.setUint32(8, entries.length, true);
  v.setUint32(12, 0, true);
  v.setUint32(16, 20, true);
  let data = 20 + tableBytes;
  entries.forEach((e, i) => {
    const at = 20 + i * 16;
    v.setUint32(at, ((bifIndex << 20) | i) >>> 0, true);
    v.setUint32(at + 4, data, true);
    v.setUint32(at + 8, e.data.length, true);
    v.setUint32(at + 12, e.type, true);
    out.set(e.data, data);
    data += e.data.length;
  });
  return out;
}

export interface BuiltKeyEntry {
  resRef: string;
  type: number;
  bif: number;
  index: number;
}

/** A KEY V1: 64-byte header, file table, BIF names, then the key table. */
export function buildKey(bifNames: readonly string[], keys: readonly BuiltKeyEntry[]): Uint8Array {
  const fileTable = 64;
  let names = fileTable + bifNames.length * 12;
  const nameOffsets: number[] = [];
  for (const n of bifNames) {
    nameOffsets.push(names);
    names += n.length + 1;
  }
  const keyTable = names;
  const out = new Uint8Array(keyTable + keys.length * 22);
  const v = new DataView(out.buffer);
  out.set(ascii('KEY V1  '), 0);
  v.setUint32(8, bifNames.length, true);
  v.setUint32(12, keys.length, true);
  v.setUint32(16, fileTable, true);
  v.setUint32(20, keyTable, true);
  v.setUint32(24, 103, true);
  v.setUint32(28, 150, true);
  bifNames.forEach((n, i) => {
    const at = fileTable + i * 12;
    v.setUint32(at, 1000 + i, true);
    v.setUint32(at + 4, nameOffsets[i]!, true);
    v.setUint16(at + 8, n.length + 1, true);
    v.setUint16(at + 10, 1, true);
    out.set(ascii(n), nameOffsets[i]!);
  });
  keys.forEach((k, i) => {
    const at = keyTable + i * 22;
    out.set(ascii(k.resRef), at);
    v.setUint16(at + 16, k.type, true);
    v.setUint32(at + 18, ((k.bif << 20) | k.index) >>> 0, true);
  });
  return out;
}
