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
 */
export function readNwn2Container(bytes: Uint8Array, format: string): Nwn2Container {
  const r = new BinaryReader(bytes, format);
  const magic = r.u32('magic');
  if (magic !== NWN2_MAGIC) throw r.error('magic', '"NWN2"', JSON.stringify(fourCC(bytes, 0)), 0);
  const versionMajor = r.u16('version_major');
  const versionMinor = r.u16('version_minor');
  const count = r.checkCount(r.u32('packet_count'), PACKET_ENTRY_BYTES + PACKET_HEADER_BYTES, 'packet_count');
  const tableEnd = r.offset + count * PACKET_ENTRY_BYTES;
  const packets: Nwn2RawPacket[] = [];
  let regular = true;
  let expectedOffset = tableEnd;
  for (let i = 0; i < count; i++) {
    const entryAt = r.offset;
    r.need(PACKET_ENTRY_BYTES, `packet table entry #${i}`);
    const type = fourCC(bytes, r.offset);
    r.offset += 4;
    const offset = r.u32(`packet table entry #${i} (${type}) offset`);
    const p = new BinaryReader(bytes, format, 0);
    if (offset < tableEnd || offset > bytes.length - PACKET_HEADER_BYTES) {
      throw p.error(
        `packet table entry #${i} (${type}) offset`,
        `an offset from ${tableEnd} (the end of the packet table) to ${bytes.length - PACKET_HEADER_BYTES}`,
        String(offset),
        entryAt + 4,
      );
    }
    const typeAtOffset = fourCC(bytes, offset);
    if (typeAtOffset !== type) {
      throw p.error(`packet #${i} type`, `"${type}" as in the packet table`, JSON.stringify(typeAtOffset), offset);
    }
    p.offset = offset + 4;
    const size = p.u32(`packet #${i} (${type}) payload size`);
    p.need(size, `packet #${i} (${type}) payload`);
    packets.push({ type, payload: bytes.slice(offset + PACKET_HEADER_BYTES, offset + PACKET_HEADER_BYTES + size), payloadOffset: offset + PACKET_HEADER_BYTES });
    if (offset !== expectedOffset) regular = false;
    expectedOffset = offset + PACKET_HEADER_BYTES + size;
  }
  if (expectedOffset !== bytes.length) regular = false;
  return { versionMajor, versionMinor, packets, irregularLayout: regular ? null : bytes.slice() };
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
