import { deflateSync } from 'node:zlib';
import pako from 'pako';

/**
 * Hostile inputs built from real files: the attacks of issue 14 ("Hostile input") as
 * byte-level edits of a valid seed. The structure-aware fuzz mutators (structure-mutators.ts)
 * and the memory-cap test (test/unit/hostile/) both build their inputs here, so the test
 * pins exactly what the fuzzer throws at the readers. Every function takes a valid file
 * of its format and returns a new array; nothing is edited in place.
 */

/** A zlib deflate (pako by default, as the fuzzer uses; the test may pass a faster one). */
export type Deflate = (data: Uint8Array, level: number) => Uint8Array;
export const pakoDeflate: Deflate = (data, level) => pako.deflate(data, { level: level as 1 });
/** node's zlib: builds the big bombs of the tests about five times faster than pako. */
export const nodeDeflate: Deflate = (data, level) => {
  const b = deflateSync(data, { level });
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
};

const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at, true);
function setU32(b: Uint8Array, at: number, v: number): void {
  new DataView(b.buffer, b.byteOffset, b.byteLength).setUint32(at, v >>> 0, true);
}
const fourCC = (b: Uint8Array, at: number) => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// NWN2 container (TRN, TRX, MDB): header, packet table {type, offset}, packets {type, size, payload}

export interface PacketSpan {
  index: number;
  type: string;
  /** Where the table entry is. */
  entryAt: number;
  /** Where the packet (its 8-byte header) is. */
  offset: number;
  /** Payload size. */
  size: number;
}

/** The packets of a valid NWN2 container, in table order. */
export function containerPackets(bytes: Uint8Array): PacketSpan[] {
  const count = u32(bytes, 8);
  const out: PacketSpan[] = [];
  for (let i = 0; i < count; i++) {
    const entryAt = 12 + i * 8;
    const offset = u32(bytes, entryAt + 4);
    out.push({ index: i, type: fourCC(bytes, entryAt), entryAt, offset, size: u32(bytes, offset + 4) });
  }
  return out;
}

/** The largest packet of the container (of `type`, when given). */
export function largestPacket(bytes: Uint8Array, type?: string): PacketSpan | undefined {
  let best: PacketSpan | undefined;
  for (const p of containerPackets(bytes)) if ((type === undefined || p.type === type) && (!best || p.size > best.size)) best = p;
  return best;
}

/**
 * The container with `times` more table entries naming packet `packet` (the table grows,
 * the packets move down by 8 × times bytes, every offset follows). The attack of the
 * 540 KB TRX: one packet read, copied and decompressed once per entry.
 */
export function repeatPacketEntries(bytes: Uint8Array, packet: number, times: number): Uint8Array {
  const packets = containerPackets(bytes);
  const target = packets[packet]!;
  const shift = times * 8;
  const tableEnd = 12 + packets.length * 8;
  const out = new Uint8Array(bytes.length + shift);
  out.set(bytes.subarray(0, 12));
  setU32(out, 8, packets.length + times);
  for (const p of packets) {
    out.set(bytes.subarray(p.entryAt, p.entryAt + 4), p.entryAt);
    setU32(out, p.entryAt + 4, p.offset + shift);
  }
  for (let k = 0; k < times; k++) {
    const at = tableEnd + k * 8;
    out.set(bytes.subarray(target.entryAt, target.entryAt + 4), at);
    setU32(out, at + 4, target.offset + shift);
  }
  out.set(bytes.subarray(tableEnd), tableEnd + shift);
  return out;
}

/** The most entries repeatPacketEntries can add while every entry still has its 16 bytes in the file. */
export function maxRepeats(bytes: Uint8Array): number {
  return Math.max(0, Math.floor((bytes.length - 12 - 16 * u32(bytes, 8)) / 8) - 1);
}

/** Table entry `entry` made a second entry of packet `packet` (same type and offset; the file keeps its size). */
export function duplicatePacketEntry(bytes: Uint8Array, entry: number, packet: number): Uint8Array {
  const packets = containerPackets(bytes);
  const out = bytes.slice();
  out.set(bytes.subarray(packets[packet]!.entryAt, packets[packet]!.entryAt + 8), packets[entry]!.entryAt);
  return out;
}

/** Packet `packet`'s size stretched to the end of the file, so that it overlaps every packet after it. */
export function overlapPacket(bytes: Uint8Array, packet: number): Uint8Array {
  const p = containerPackets(bytes)[packet]!;
  const out = bytes.slice();
  setU32(out, p.offset + 4, bytes.length - p.offset - 8);
  return out;
}

/** A container with the same header and these packets back to back. */
export function buildContainer(like: Uint8Array, packets: readonly { type: string; payload: Uint8Array }[]): Uint8Array {
  const tableEnd = 12 + packets.length * 8;
  const out = new Uint8Array(tableEnd + packets.reduce((s, p) => s + 8 + p.payload.length, 0));
  out.set(like.subarray(0, 8));
  setU32(out, 8, packets.length);
  let o = tableEnd;
  packets.forEach((p, i) => {
    for (let k = 0; k < 4; k++) out[12 + i * 8 + k] = out[o + k] = p.type.charCodeAt(k);
    setU32(out, 12 + i * 8 + 4, o);
    setU32(out, o + 4, p.payload.length);
    out.set(p.payload, o + 8);
    o += 8 + p.payload.length;
  });
  return out;
}

/** Every packet of the container with its payload (a view). */
export function containerPayloads(bytes: Uint8Array): { type: string; payload: Uint8Array }[] {
  return containerPackets(bytes).map((p) => ({ type: p.type, payload: bytes.subarray(p.offset + 8, p.offset + 8 + p.size) }));
}

const COMP = 0x504d4f43;

/** The walkmesh bytes of an ASWM payload (inflated when `COMP`-wrapped). */
export function aswmRaw(payload: Uint8Array): Uint8Array {
  if (payload.length < 12 || u32(payload, 0) !== COMP) return payload;
  return pako.inflate(payload.subarray(12, 12 + u32(payload, 4)));
}

/** A `COMP` payload for `raw`; `declared` overrides the stored uncompressed size (a lie). */
export function compPayload(raw: Uint8Array, deflate: Deflate = pakoDeflate, level = 6, declared = raw.length): Uint8Array {
  const stream = deflate(raw, level);
  const out = new Uint8Array(12 + stream.length);
  setU32(out, 0, COMP);
  setU32(out, 4, stream.length);
  setU32(out, 8, declared);
  out.set(stream, 12);
  return out;
}

/**
 * A TRX whose ASWM walkmesh carries `zeros` more (trailing) bytes, re-compressed: a zlib
 * bomb that is still a valid file (up to the 128 MiB a walkmesh may take). `copies` more
 * ASWM packets with the same payload are appended (each its own bytes, no overlap), for the
 * whole-file decompression budget.
 */
export function trxWithAswmBomb(bytes: Uint8Array, zeros: number, copies = 0, deflate: Deflate = pakoDeflate): Uint8Array {
  const packets = containerPayloads(bytes);
  const i = packets.findIndex((p) => p.type === 'ASWM');
  const raw = aswmRaw(packets[i]!.payload);
  const grown = new Uint8Array(raw.length + zeros);
  grown.set(raw);
  const payload = compPayload(grown, deflate, 1);
  packets[i] = { type: 'ASWM', payload };
  for (let k = 0; k < copies; k++) packets.push({ type: 'ASWM', payload: payload.slice() });
  return buildContainer(bytes, packets);
}

/** A TRX whose ASWM stream inflates to `zeros` more bytes than its COMP header declares. */
export function trxWithLyingAswmSize(bytes: Uint8Array, zeros: number, deflate: Deflate = pakoDeflate): Uint8Array {
  const packets = containerPayloads(bytes);
  const i = packets.findIndex((p) => p.type === 'ASWM');
  const raw = aswmRaw(packets[i]!.payload);
  const grown = new Uint8Array(raw.length + zeros);
  grown.set(raw);
  packets[i] = { type: 'ASWM', payload: compPayload(grown, deflate, 1, raw.length) };
  return buildContainer(bytes, packets);
}

/** A TRX with its ASWM walkmesh replaced by `edit(raw)`, re-compressed as the toolset does. */
export function trxWithAswm(bytes: Uint8Array, edit: (raw: Uint8Array) => Uint8Array, deflate: Deflate = pakoDeflate): Uint8Array {
  const packets = containerPayloads(bytes);
  const i = packets.findIndex((p) => p.type === 'ASWM');
  const payload = packets[i]!.payload;
  const compressed = payload.length >= 12 && u32(payload, 0) === COMP;
  const raw = edit(aswmRaw(payload).slice());
  packets[i] = { type: 'ASWM', payload: compressed ? compPayload(raw, deflate, 1) : raw };
  return buildContainer(bytes, packets);
}

/** Quiet NaN, +Infinity and −Infinity as f32 bit patterns. */
export const NON_FINITE_BITS = [0x7fc00000, 0x7f800000, 0xff800000] as const;

/** Decompressed ASWM: the vertex table (header 53 bytes, 12 bytes per vertex). */
export function aswmVertexRange(raw: Uint8Array): { at: number; count: number } {
  return { at: 53, count: u32(raw, 37) };
}

/** Decompressed ASWM with every vertex coordinate set to `bits` (NaN by default). */
export function aswmWithNonFiniteVertices(raw: Uint8Array, bits: number = NON_FINITE_BITS[0], every = 1): Uint8Array {
  const out = raw.slice();
  const { at, count } = aswmVertexRange(raw);
  for (let v = 0; v < count; v += every) for (let k = 0; k < 3; k++) setU32(out, at + v * 12 + k * 4, bits);
  return out;
}

/** MDB: every vertex of every WALK packet set to `bits`. */
export function mdbWithNonFiniteWalk(bytes: Uint8Array, bits: number = NON_FINITE_BITS[0]): Uint8Array {
  const out = bytes.slice();
  for (const p of containerPackets(bytes)) {
    if (p.type !== 'WALK') continue;
    const start = p.offset + 8;
    const count = u32(bytes, start + 36);
    for (let i = 0; i < count * 3; i++) setU32(out, start + 44 + i * 4, bits);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// KotOR BWM: header counts and offsets at 0x48–0x87

/** The BWM header's section table: name, count offset, offset field, item size. */
export const BWM_SECTION_FIELDS = [
  { name: 'vertices', countAt: 0x48, offsetAt: 0x4c, size: 12 },
  { name: 'faces', countAt: 0x50, offsetAt: 0x54, size: 12 },
  { name: 'materials', countAt: 0x50, offsetAt: 0x58, size: 4 },
  { name: 'normals', countAt: 0x50, offsetAt: 0x5c, size: 12 },
  { name: 'planes', countAt: 0x50, offsetAt: 0x60, size: 4 },
  { name: 'aabb', countAt: 0x64, offsetAt: 0x68, size: 44 },
  { name: 'adjacency', countAt: 0x70, offsetAt: 0x74, size: 12 },
  { name: 'edges', countAt: 0x78, offsetAt: 0x7c, size: 8 },
  { name: 'perimeters', countAt: 0x80, offsetAt: 0x84, size: 4 },
] as const;

/** Section `section`'s offset made equal to section `onto`'s: two tables over one stretch of bytes. */
export function bwmOverlappingSections(bytes: Uint8Array, section: number, onto: number): Uint8Array {
  const out = bytes.slice();
  setU32(out, BWM_SECTION_FIELDS[section]!.offsetAt, u32(bytes, BWM_SECTION_FIELDS[onto]!.offsetAt));
  return out;
}

/** BWM with its vertices (and, with `derived`, normals and plane distances) set to `bits`. */
export function bwmWithNonFinite(bytes: Uint8Array, bits: number = NON_FINITE_BITS[0], derived = false): Uint8Array {
  const out = bytes.slice();
  const fill = (s: number, words: number) => {
    const f = BWM_SECTION_FIELDS[s]!;
    const at = u32(bytes, f.offsetAt);
    const n = u32(bytes, f.countAt) * words;
    for (let i = 0; i < n; i++) setU32(out, at + i * 4, bits);
  };
  fill(0, 3);
  if (derived) {
    fill(3, 3);
    fill(4, 1);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Skyrim plugins: records and groups, compressed record bodies, NVNM

export interface PluginRecordSpan {
  signature: string;
  /** Offset of the 24-byte record header. */
  offset: number;
  /** Data size (stored bytes after the header). */
  size: number;
  flags: number;
  formId: number;
  /** Offsets of the enclosing GRUP headers, outermost first. */
  groups: number[];
}

const COMPRESSED = 0x00040000;

/** Every record of a valid plugin, in file order. */
export function pluginRecords(bytes: Uint8Array): PluginRecordSpan[] {
  const out: PluginRecordSpan[] = [];
  const walk = (start: number, end: number, groups: number[]) => {
    let o = start;
    while (o < end) {
      const sig = fourCC(bytes, o);
      const size = u32(bytes, o + 4);
      if (sig === 'GRUP') {
        walk(o + 24, o + size, [...groups, o]);
        o += size;
      } else {
        out.push({ signature: sig, offset: o, size, flags: u32(bytes, o + 8), formId: u32(bytes, o + 12), groups });
        o += 24 + size;
      }
    }
  };
  walk(0, bytes.length, []);
  return out;
}

/** The compressed NAVM records of a plugin. */
export function compressedNavmeshes(bytes: Uint8Array): PluginRecordSpan[] {
  return pluginRecords(bytes).filter((r) => r.signature === 'NAVM' && (r.flags & COMPRESSED) !== 0 && r.size > 4);
}

/** The body (subrecords) of a record, inflated when compressed. */
export function recordBody(bytes: Uint8Array, r: PluginRecordSpan): Uint8Array {
  const data = bytes.subarray(r.offset + 24, r.offset + 24 + r.size);
  return r.flags & COMPRESSED ? pako.inflate(data.subarray(4)) : data.slice();
}

export interface RawSubrecord {
  signature: string;
  data: Uint8Array;
}

/** The subrecords of a record body (XXXX sizes applied). */
export function bodySubrecords(body: Uint8Array): RawSubrecord[] {
  const out: RawSubrecord[] = [];
  let o = 0;
  let overflow: number | undefined;
  while (o < body.length) {
    const signature = fourCC(body, o);
    const size = body[o + 4]! | (body[o + 5]! << 8);
    o += 6;
    if (signature === 'XXXX' && overflow === undefined) {
      overflow = u32(body, o);
      o += 4;
      continue;
    }
    const n = overflow ?? size;
    overflow = undefined;
    out.push({ signature, data: body.subarray(o, o + n) });
    o += n;
  }
  return out;
}

/** A record body from subrecords (XXXX before any over 65,535 bytes). */
export function buildBody(subrecords: readonly RawSubrecord[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const s of subrecords) {
    const head = new Uint8Array(s.data.length > 0xffff ? 16 : 6);
    let o = 0;
    if (s.data.length > 0xffff) {
      head.set([0x58, 0x58, 0x58, 0x58, 4, 0], 0);
      setU32(head, 6, s.data.length);
      o = 10;
    }
    for (let k = 0; k < 4; k++) head[o + k] = s.signature.charCodeAt(k);
    const size = s.data.length > 0xffff ? 0 : s.data.length;
    head[o + 4] = size & 0xff;
    head[o + 5] = size >> 8;
    parts.push(head, s.data);
  }
  return concat(parts);
}

/** The plugin with record `r`'s stored data replaced (record and enclosing group sizes follow). */
export function replaceRecordData(bytes: Uint8Array, r: PluginRecordSpan, data: Uint8Array): Uint8Array {
  const delta = data.length - r.size;
  const out = concat([bytes.subarray(0, r.offset + 24), data, bytes.subarray(r.offset + 24 + r.size)]);
  setU32(out, r.offset + 4, data.length);
  for (const g of r.groups) setU32(out, g + 4, u32(bytes, g + 4) + delta);
  return out;
}

/** Stored data of a compressed record: u32 body size, zlib stream. */
export function compressedRecordData(body: Uint8Array, deflate: Deflate = pakoDeflate, level = 9): Uint8Array {
  const stream = deflate(body, level);
  const out = new Uint8Array(4 + stream.length);
  setU32(out, 0, body.length);
  out.set(stream, 4);
  return out;
}

/**
 * The plugin with the NVNM of each of `records` replaced by `edit(nvnm)`, re-compressed
 * (records processed from the last, so the earlier offsets stay valid).
 */
export function pluginWithNvnm(bytes: Uint8Array, records: readonly PluginRecordSpan[], edit: (nvnm: Uint8Array, index: number) => Uint8Array, deflate: Deflate = pakoDeflate, level = 9): Uint8Array {
  let out = bytes;
  const sorted = records.map((r, index) => ({ r, index })).sort((a, b) => b.r.offset - a.r.offset);
  for (const { r, index } of sorted) {
    const subs = bodySubrecords(recordBody(bytes, r)).map((s) => (s.signature === 'NVNM' ? { signature: 'NVNM', data: edit(s.data, index) } : s));
    out = replaceRecordData(out, r, compressedRecordData(buildBody(subs), deflate, level));
  }
  return out;
}

/** The byte offset of an NVNM v12's grid divisor (after vertices, triangles, links, doors and cover list). */
export function nvnmGridOffset(nvnm: Uint8Array): number {
  let o = 16;
  const skip = (item: number) => {
    o += 4 + u32(nvnm, o) * item;
  };
  skip(12);
  skip(16);
  skip(10);
  skip(10);
  skip(2);
  return o;
}

/**
 * The NVNM with a grid of divisor² empty cells (each a zero u32 count): a sparse
 * structure whose size comes from the file. `divisor` 5,000 is 100 MB of zeros that
 * compress to about 100 KB.
 */
export function nvnmWithHugeGrid(nvnm: Uint8Array, divisor: number): Uint8Array {
  const g = nvnmGridOffset(nvnm);
  const out = new Uint8Array(g + 36 + divisor * divisor * 4);
  out.set(nvnm.subarray(0, g + 36));
  setU32(out, g, divisor);
  return out;
}

/** The NVNM with every `every`-th vertex's coordinates set to `bits` (all by default). */
export function nvnmWithNonFiniteVertices(nvnm: Uint8Array, bits: number = NON_FINITE_BITS[0], every = 1): Uint8Array {
  const out = nvnm.slice();
  const nv = u32(nvnm, 16);
  for (let v = 0; v < nv; v += every) for (let k = 0; k < 3; k++) setU32(out, 20 + v * 12 + k * 4, bits);
  return out;
}

/** The NVNM with `zeros` more trailing bytes (kept by the reader): a plain zlib bomb. */
export function nvnmWithTrailingZeros(nvnm: Uint8Array, zeros: number): Uint8Array {
  const out = new Uint8Array(nvnm.length + zeros);
  out.set(nvnm);
  return out;
}

// ---------------------------------------------------------------------------------------
// Aurora archives and GFF

/**
 * An ERF with `times` more entries (key and resource entries moved to the end of the file),
 * each naming resource `resource`'s data: one stretch of bytes listed thousands of times.
 */
export function erfRepeatedEntries(bytes: Uint8Array, resource: number, times: number): Uint8Array {
  const n = u32(bytes, 16);
  const keyOffset = u32(bytes, 24);
  const resourceOffset = u32(bytes, 28);
  const keyBytes = fourCC(bytes, 4) === 'V1.1' ? 40 : 24;
  const total = n + times;
  const out = new Uint8Array(bytes.length + total * (keyBytes + 8));
  out.set(bytes);
  const keys = bytes.length;
  const list = keys + total * keyBytes;
  setU32(out, 16, total);
  setU32(out, 24, keys);
  setU32(out, 28, list);
  for (let i = 0; i < total; i++) {
    const from = i < n ? i : resource;
    out.set(bytes.subarray(keyOffset + from * keyBytes, keyOffset + (from + 1) * keyBytes), keys + i * keyBytes);
    setU32(out, keys + i * keyBytes + keyBytes - 8, i);
    out.set(bytes.subarray(resourceOffset + from * 8, resourceOffset + from * 8 + 8), list + i * 8);
  }
  return out;
}

/** The index of an ERF's largest resource. */
export function erfLargestResource(bytes: Uint8Array): number {
  const n = u32(bytes, 16);
  const list = u32(bytes, 28);
  let big = 0;
  for (let i = 1; i < n; i++) if (u32(bytes, list + i * 8 + 4) > u32(bytes, list + big * 8 + 4)) big = i;
  return big;
}

/**
 * A GFF whose first list of two or more structs names its first struct in every entry (a
 * struct reached many times: a DAG, which a tree reader would expand), or undefined when
 * the file has no such list.
 */
export function gffSharedListStructs(bytes: Uint8Array): Uint8Array | undefined {
  const li = u32(bytes, 48);
  const size = u32(bytes, 52);
  for (let o = 0; o + 4 <= size; ) {
    const n = u32(bytes, li + o);
    if (4 + n * 4 > size - o) return undefined;
    if (n >= 2) {
      const out = bytes.slice();
      for (let i = 1; i < n; i++) setU32(out, li + o + 4 + i * 4, u32(bytes, li + o + 4));
      return out;
    }
    o += 4 + n * 4;
  }
  return undefined;
}
