import { BinaryReader } from '../../binary/binary-reader';
import { bytesEqual, fourCC } from './le-words';

/** `NWN2` as a little-endian u32 (Skywing compares `'2NWN'`). */
export const NWN2_MAGIC = 0x324e574e;
export const CONTAINER_HEADER_BYTES = 12;
export const PACKET_ENTRY_BYTES = 8;
export const PACKET_HEADER_BYTES = 8;

export interface Nwn2RawPacket {
  /** Four characters as written (Latin-1). */
  type: string;
  /** A copy of the payload bytes. */
  payload: Uint8Array;
  /** Where the payload starts in the file (after the 8-byte packet header). */
  payloadOffset: number;
}

export interface Nwn2Container {
  versionMajor: number;
  versionMinor: number;
  /** In packet-table order. */
  packets: Nwn2RawPacket[];
  /**
   * The whole file when its packets are not stored back to back in table order right after
   * the table (never seen in toolset files); written back unchanged while no payload changes.
   */
  irregularLayout: Uint8Array | null;
}

/**
 * Reads the `NWN2` packet container shared by TRN, TRX and MDB files (spec §2.1): header,
 * packet table, then for each entry the packet `type`, `u32 size`, payload. The type in the
 * table must equal the type at the offset (all readers check this).
 *
 * Packets may not overlap: no two table entries may name the same packet or bytes of
 * another one (the toolset writes them back to back; Skywing and xoreos read each entry's
 * packet once). So every byte of the file is copied into at most one payload.
 *
 * Memory bound: the payloads are copies of disjoint parts of the file (at most its size in
 * all), plus one copy of the whole file for an irregular layout, plus a packet object of
 * about 300 bytes per table entry (each entry holds 16 bytes of the file): at most
 * 24 bytes per input byte. Checked by test/unit/hostile/ and the `trx`/`mdb` fuzz targets.
 */
export function readNwn2Container(bytes: Uint8Array, format: string): Nwn2Container {
  const r = new BinaryReader(bytes, format);
  const magic = r.u32('magic');
  if (magic !== NWN2_MAGIC) throw r.error('magic', '"NWN2"', JSON.stringify(fourCC(bytes, 0)), 0);
  const versionMajor = r.u16('version_major');
  const versionMinor = r.u16('version_minor');
  const count = r.checkCount(r.u32('packet_count'), PACKET_ENTRY_BYTES + PACKET_HEADER_BYTES, 'packet_count');
  const tableEnd = r.offset + count * PACKET_ENTRY_BYTES;
  // First pass: every entry names a packet inside the file; nothing is copied yet, and no
  // field name is built unless it is needed for an error (a table may have 65,000 entries).
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const typeNames = new Map<number, string>();
  const types: string[] = new Array<string>(count);
  const starts = new Float64Array(count);
  const sizes = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const entryAt = CONTAINER_HEADER_BYTES + i * PACKET_ENTRY_BYTES;
    const typeWord = dv.getUint32(entryAt, true);
    let type = typeNames.get(typeWord);
    if (type === undefined) typeNames.set(typeWord, (type = fourCC(bytes, entryAt)));
    const offset = dv.getUint32(entryAt + 4, true);
    if (offset < tableEnd || offset > bytes.length - PACKET_HEADER_BYTES) {
      throw r.error(
        `packet table entry #${i} (${type}) offset`,
        `an offset from ${tableEnd} (the end of the packet table) to ${bytes.length - PACKET_HEADER_BYTES}`,
        String(offset),
        entryAt + 4,
      );
    }
    if (dv.getUint32(offset, true) !== typeWord) {
      throw r.error(`packet #${i} type`, `"${type}" as in the packet table`, JSON.stringify(fourCC(bytes, offset)), offset);
    }
    const size = dv.getUint32(offset + 4, true);
    if (size > bytes.length - offset - PACKET_HEADER_BYTES) {
      throw r.error(`packet #${i} (${type}) payload`, `${size} more byte(s)`, `${bytes.length - offset - PACKET_HEADER_BYTES} byte(s) before the end of the data`, offset + PACKET_HEADER_BYTES);
    }
    types[i] = type;
    starts[i] = offset;
    sizes[i] = size;
  }
  checkDisjoint(bytes, format, types, starts, sizes, tableEnd);
  const packets: Nwn2RawPacket[] = [];
  let regular = true;
  let expectedOffset = tableEnd;
  for (let i = 0; i < count; i++) {
    const offset = starts[i]!;
    const size = sizes[i]!;
    packets.push({ type: types[i]!, payload: bytes.slice(offset + PACKET_HEADER_BYTES, offset + PACKET_HEADER_BYTES + size), payloadOffset: offset + PACKET_HEADER_BYTES });
    if (offset !== expectedOffset) regular = false;
    expectedOffset = offset + PACKET_HEADER_BYTES + size;
  }
  if (expectedOffset !== bytes.length) regular = false;
  return { versionMajor, versionMinor, packets, irregularLayout: regular ? null : bytes.slice() };
}

/**
 * Throws when two packets share bytes: the later table entry of the first such pair (in
 * table order) is named, with the packet it runs into.
 */
function checkDisjoint(bytes: Uint8Array, format: string, types: readonly string[], starts: Float64Array, sizes: Float64Array, tableEnd: number): void {
  const count = types.length;
  if (count < 2) return;
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  order.sort((a, b) => starts[a]! - starts[b]! || a - b);
  let worst = -1;
  let other = -1;
  for (let k = 1; k < count; k++) {
    const a = order[k - 1]!;
    const b = order[k]!;
    if (starts[b]! < starts[a]! + PACKET_HEADER_BYTES + sizes[a]!) {
      const later = Math.max(a, b);
      if (worst < 0 || later < worst) {
        worst = later;
        other = Math.min(a, b);
      }
    }
  }
  if (worst < 0) return;
  const end = (i: number) => starts[i]! + PACKET_HEADER_BYTES + sizes[i]!;
  const what = starts[worst] === starts[other] ? `the packet of entry #${other} (${types[other]}) again` : `bytes ${starts[worst]}..${end(worst)} overlapping entry #${other} (${types[other]}) at ${starts[other]}..${end(other)}`;
  throw new BinaryReader(bytes, format).error(
    `packet table entry #${worst} (${types[worst]}) offset`,
    `a packet of its own: no other packet table entry may name or overlap its bytes (packets lie between ${tableEnd} and ${bytes.length})`,
    what,
    CONTAINER_HEADER_BYTES + worst * PACKET_ENTRY_BYTES + 4,
  );
}

/**
 * Writes the container with the packets back to back in table order. A file read with an
 * irregular layout is given back as read while every payload is unchanged.
 */
export function writeNwn2Container(
  c: Pick<Nwn2Container, 'versionMajor' | 'versionMinor' | 'irregularLayout'>,
  packets: readonly { type: string; payload: Uint8Array }[],
  originals?: readonly Uint8Array[],
): Uint8Array {
  if (c.irregularLayout && originals && originals.length === packets.length && packets.every((p, i) => bytesEqual(p.payload, originals[i]!))) {
    return c.irregularLayout.slice();
  }
  const tableEnd = CONTAINER_HEADER_BYTES + packets.length * PACKET_ENTRY_BYTES;
  let size = tableEnd;
  for (const p of packets) size += PACKET_HEADER_BYTES + p.payload.length;
  if (size > 0xffffffff) throw new RangeError(`the file would be ${size} bytes; packet offsets are 32-bit`);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, NWN2_MAGIC, true);
  dv.setUint16(4, c.versionMajor, true);
  dv.setUint16(6, c.versionMinor, true);
  dv.setUint32(8, packets.length, true);
  let o = tableEnd;
  packets.forEach((p, i) => {
    if (p.type.length !== 4) throw new RangeError(`packet type ${JSON.stringify(p.type)} is not four characters`);
    const e = CONTAINER_HEADER_BYTES + i * PACKET_ENTRY_BYTES;
    for (let k = 0; k < 4; k++) {
      out[e + k] = p.type.charCodeAt(k) & 0xff;
      out[o + k] = p.type.charCodeAt(k) & 0xff;
    }
    dv.setUint32(e + 4, o, true);
    dv.setUint32(o + 4, p.payload.length, true);
    out.set(p.payload, o + PACKET_HEADER_BYTES);
    o += PACKET_HEADER_BYTES + p.payload.length;
  });
  return out;
}
