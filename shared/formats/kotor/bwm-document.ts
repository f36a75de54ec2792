/**
 * A KotOR BWM V1.0 walkmesh (`.wok` room, `.pwk` placeable, `.dwk` door) as typed-array
 * columns. Floats are kept as their bit patterns (Uint32Array) so an unedited file is
 * written back byte for byte; `positionsOf` gives them as numbers.
 */
export const BWM_FORMAT = 'kotor-bwm';
export const BWM_HEADER_SIZE = 136;
/** Header value at 0x08: 1 for a room walkmesh in world coordinates with an AABB tree. */
export const BWM_TYPE_AREA = 1;
export const BWM_TYPE_OBJECT = 0;
/** Bytes per AABB node and its 11 words: min xyz, max xyz, face, unknown (4), plane, child 1, child 2. */
export const AABB_NODE_SIZE = 44;
export const AABB_NODE_WORDS = 11;
export const AABB_NO_CHILD = 0xffffffff;
export const AABB_UNKNOWN_VALUE = 4;
export const NO_TRANSITION = -1;

/** Sections after the header, in file order. */
export const BWM_SECTIONS = ['vertices', 'faces', 'materials', 'normals', 'planes', 'aabb', 'adjacency', 'edges', 'perimeters'] as const;
export type BwmSectionName = (typeof BWM_SECTIONS)[number];

/**
 * How an empty section's offset was stored: `zero` (MDLEdit) or `running` (the end of the
 * data so far, as the PyKotor forks write). Kept so either style is written back exactly.
 */
export type EmptyOffsetStyle = 'zero' | 'running';

export interface BwmDocument {
  /** 0x08: 1 = area (WOK), 0 = placeable or door (PWK/DWK). */
  type: number;
  /**
   * 0x0C–0x47 as 15 float bit patterns: relative use point 1, relative use point 2,
   * absolute use point 1, absolute use point 2, position (3 words each).
   */
  hooks: Uint32Array;
  /** 0x6C ("aabb root" in the PyKotor notes), 0 in every known file. */
  aabbRoot: number;
  /** x, y, z bit patterns per vertex. */
  vertices: Uint32Array;
  /** Three vertex indices per face. */
  faces: Uint32Array;
  /** Surface material id per face (a row of surfacemat.2da). */
  materials: Uint32Array;
  /** Unit normal bit patterns, three per face. */
  normals: Uint32Array;
  /** Planar distance bit pattern per face (d = −n·v1). */
  planes: Uint32Array;
  /** AABB_NODE_WORDS words per node. */
  aabb: Uint32Array;
  /** Three entries per walkable face: neighbourFace*3 + neighbourEdge, or −1. */
  adjacency: Int32Array;
  /** face*3 + localEdge per perimeter edge. */
  edgeIndex: Uint32Array;
  /** Transition (LYT room index) per perimeter edge, −1 for none. */
  edgeTransition: Int32Array;
  /** Cumulative, 1-based end of each perimeter loop in the edge table. */
  perimeters: Uint32Array;
  /** Stored offset style of each empty section (only those that were empty). */
  emptyOffsets: Partial<Record<BwmSectionName, EmptyOffsetStyle>>;
  /** Bytes after the last section (none in known files). */
  trailing: Uint8Array;
  /**
   * The file as read, kept only when its sections are not packed the way the writer packs
   * them (other offsets, order, gaps or overlaps): written back as is while the content is
   * unchanged, so an unedited file from any tool round-trips byte for byte.
   */
  original?: Uint8Array;
}

/** Header hook slots, in word units inside `hooks`. */
export const HOOK_USE1_RELATIVE = 0;
export const HOOK_USE2_RELATIVE = 3;
export const HOOK_USE1_ABSOLUTE = 6;
export const HOOK_USE2_ABSOLUTE = 9;
export const HOOK_POSITION = 12;

export function bwmFaceCount(doc: BwmDocument): number {
  return doc.faces.length / 3;
}

export function bwmVertexCount(doc: BwmDocument): number {
  return doc.vertices.length / 3;
}

export function bwmAabbCount(doc: BwmDocument): number {
  return doc.aabb.length / AABB_NODE_WORDS;
}

/** Float values of float bit patterns (a copy). */
export function floatsOf(bits: Uint32Array): Float32Array {
  return new Float32Array(bits.slice().buffer);
}

/** Bit patterns of float values (a copy). */
export function bitsOf(values: Float32Array): Uint32Array {
  return new Uint32Array(values.slice().buffer);
}

/** A hook point as three numbers. */
export function hookPoint(doc: BwmDocument, slot: number): [number, number, number] {
  const f = floatsOf(doc.hooks.subarray(slot, slot + 3));
  return [f[0]!, f[1]!, f[2]!];
}

export function emptyBwmDocument(type: number): BwmDocument {
  return {
    type,
    hooks: new Uint32Array(15),
    aabbRoot: 0,
    vertices: new Uint32Array(0),
    faces: new Uint32Array(0),
    materials: new Uint32Array(0),
    normals: new Uint32Array(0),
    planes: new Uint32Array(0),
    aabb: new Uint32Array(0),
    adjacency: new Int32Array(0),
    edgeIndex: new Uint32Array(0),
    edgeTransition: new Int32Array(0),
    perimeters: new Uint32Array(0),
    emptyOffsets: {},
    trailing: new Uint8Array(0),
  };
}
