import type { ReadMemoryBound } from '../../binary/read-budget';
import { BinaryReader } from '../../binary/binary-reader';
import { MalformedInputError } from '../../binary/malformed-input-error';
import {
  AABB_NODE_SIZE,
  AABB_NODE_WORDS,
  BWM_FORMAT,
  BWM_HEADER_SIZE,
  type BwmDocument,
  type BwmSectionName,
  type EmptyOffsetStyle,
} from './bwm-document';

/** readBwm's memory bound (see ReadMemoryBound). */
export const BWM_READ_MEMORY: ReadMemoryBound = { perInputByte: 4, perDecompressedByte: 0 };

const MAGIC = 0x204d5742; // "BWM "
const VERSION = 0x302e3156; // "V1.0"

interface SectionRef {
  name: BwmSectionName;
  count: number;
  offset: number;
  /** Bytes per element. */
  size: number;
  /** Header offset of the count field (for error messages). */
  countAt: number;
}

/** Header position of each section's offset field. */
const HEADER_OFFSET_FIELD: Record<BwmSectionName, number> = {
  vertices: 0x4c,
  faces: 0x54,
  materials: 0x58,
  normals: 0x5c,
  planes: 0x60,
  aabb: 0x68,
  adjacency: 0x74,
  edges: 0x7c,
  perimeters: 0x84,
};

/**
 * Reads a BWM V1.0 file. Every count and offset is checked against the file size before
 * anything is allocated, and sections may not overlap, so garbage headers fail with a
 * MalformedInputError naming the field; content that is merely wrong (bad edge indices,
 * inverted boxes, a zero perimeter count) is read as stored and left to validation.
 *
 * Memory bound: the sections are disjoint parts of the file and each is read into columns
 * of its own size (the edges twice: 16 bytes per 8-byte edge), plus a copy of the file
 * when its layout is not canonical and of the bytes after the last section: at most
 * 4 bytes per input byte, nothing decompressed (BWM_READ_MEMORY).
 */
export function readBwm(bytes: Uint8Array): BwmDocument {
  const r = new BinaryReader(bytes, BWM_FORMAT);
  if (bytes.length < BWM_HEADER_SIZE) {
    throw r.error('header', `${BWM_HEADER_SIZE} bytes`, `${bytes.length} byte(s)`, 0);
  }
  const magic = r.u32('magic');
  if (magic !== MAGIC) throw r.error('magic', '"BWM "', JSON.stringify(ascii(bytes, 0)), 0);
  const version = r.u32('version');
  if (version !== VERSION) throw r.error('version', '"V1.0"', JSON.stringify(ascii(bytes, 4)), 4);
  const type = r.u32('type');
  const hooks = new Uint32Array(15);
  r.words32(hooks, 0, 15, 'use points and position');
  const vertexCount = r.u32('vertexCount');
  const vertexOffset = r.u32('vertexOffset');
  const faceCount = r.u32('faceCount');
  const faceOffset = r.u32('faceOffset');
  const materialOffset = r.u32('materialOffset');
  const normalOffset = r.u32('normalOffset');
  const planeOffset = r.u32('planeOffset');
  const aabbCount = r.u32('aabbCount');
  const aabbOffset = r.u32('aabbOffset');
  const aabbRoot = r.u32('aabbRoot');
  const adjacencyCount = r.u32('adjacencyCount');
  const adjacencyOffset = r.u32('adjacencyOffset');
  const edgeCount = r.u32('edgeCount');
  const edgeOffset = r.u32('edgeOffset');
  const perimeterCount = r.u32('perimeterCount');
  const perimeterOffset = r.u32('perimeterOffset');

  const sections: SectionRef[] = [
    { name: 'vertices', count: vertexCount, offset: vertexOffset, size: 12, countAt: 0x48 },
    { name: 'faces', count: faceCount, offset: faceOffset, size: 12, countAt: 0x50 },
    { name: 'materials', count: faceCount, offset: materialOffset, size: 4, countAt: 0x50 },
    { name: 'normals', count: faceCount, offset: normalOffset, size: 12, countAt: 0x50 },
    { name: 'planes', count: faceCount, offset: planeOffset, size: 4, countAt: 0x50 },
    { name: 'aabb', count: aabbCount, offset: aabbOffset, size: AABB_NODE_SIZE, countAt: 0x64 },
    { name: 'adjacency', count: adjacencyCount, offset: adjacencyOffset, size: 12, countAt: 0x70 },
    { name: 'edges', count: edgeCount, offset: edgeOffset, size: 8, countAt: 0x78 },
    { name: 'perimeters', count: perimeterCount, offset: perimeterOffset, size: 4, countAt: 0x80 },
  ];
  const emptyOffsets: Partial<Record<BwmSectionName, EmptyOffsetStyle>> = {};
  let end = BWM_HEADER_SIZE;
  for (const s of sections) {
    if (s.count === 0) {
      emptyOffsets[s.name] = s.offset === 0 ? 'zero' : 'running';
      continue;
    }
    if (s.offset < BWM_HEADER_SIZE || s.offset > bytes.length) {
      throw new MalformedInputError({ format: BWM_FORMAT, offset: s.countAt + 4, field: `${s.name}Offset`, expected: `an offset between ${BWM_HEADER_SIZE} and the file size ${bytes.length}`, found: String(s.offset) });
    }
    if (s.count * s.size > bytes.length - s.offset) {
      throw new MalformedInputError({ format: BWM_FORMAT, offset: s.countAt, field: `${s.name} count`, expected: `a count whose ${s.size}-byte items fit in the ${bytes.length - s.offset} byte(s) after offset ${s.offset}`, found: String(s.count) });
    }
    end = Math.max(end, s.offset + s.count * s.size);
  }
  // Sections may not share bytes (no writer lays one table over another): each file byte
  // is then read into at most one column.
  const filled = sections.filter((s) => s.count > 0).sort((a, b) => a.offset - b.offset);
  for (let i = 1; i < filled.length; i++) {
    const prev = filled[i - 1]!;
    const s = filled[i]!;
    if (s.offset < prev.offset + prev.count * prev.size) {
      const later = sections.indexOf(s) > sections.indexOf(prev) ? s : prev;
      const other = later === s ? prev : s;
      throw new MalformedInputError({
        format: BWM_FORMAT,
        offset: HEADER_OFFSET_FIELD[later.name],
        field: `${later.name}Offset`,
        expected: `a section of its own: the ${later.name} (${later.count} × ${later.size} bytes) may not overlap the ${other.name} at ${other.offset}..${other.offset + other.count * other.size}`,
        found: String(later.offset),
      });
    }
  }

  const words = (s: SectionRef, perItem: number): Uint32Array => {
    const out = new Uint32Array(s.count * perItem);
    if (s.count > 0) new BinaryReader(bytes, BWM_FORMAT, s.offset).words32(out, 0, out.length, s.name);
    return out;
  };
  const [vs, fs, ms, ns, ps, as, adj, es, pe] = sections as [SectionRef, SectionRef, SectionRef, SectionRef, SectionRef, SectionRef, SectionRef, SectionRef, SectionRef];
  const edgeWords = words(es, 2);
  const edgeIndex = new Uint32Array(edgeCount);
  const edgeTransition = new Int32Array(edgeCount);
  for (let i = 0; i < edgeCount; i++) {
    edgeIndex[i] = edgeWords[2 * i]!;
    edgeTransition[i] = edgeWords[2 * i + 1]! | 0;
  }
  // The writer packs sections in this order right after the header; anything else is kept.
  let packed = BWM_HEADER_SIZE;
  let canonical = true;
  for (const s of sections) {
    if (s.count === 0) {
      if (s.offset !== 0 && s.offset !== packed) canonical = false;
      continue;
    }
    if (s.offset !== packed) canonical = false;
    packed += s.count * s.size;
  }
  if (packed !== end) canonical = false;
  return {
    ...(canonical ? {} : { original: bytes.slice() }),
    type,
    hooks,
    aabbRoot,
    vertices: words(vs, 3),
    faces: words(fs, 3),
    materials: words(ms, 1),
    normals: words(ns, 3),
    planes: words(ps, 1),
    aabb: words(as, AABB_NODE_WORDS),
    adjacency: new Int32Array(words(adj, 3).buffer),
    edgeIndex,
    edgeTransition,
    perimeters: words(pe, 1),
    emptyOffsets,
    trailing: bytes.slice(end),
  };
}

function ascii(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + 4));
}
