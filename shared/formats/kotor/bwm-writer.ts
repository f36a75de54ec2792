import { BinaryWriter } from '../../binary/binary-writer';
import { readBwm } from './bwm-reader';
import {
  AABB_NODE_SIZE,
  AABB_NODE_WORDS,
  BWM_HEADER_SIZE,
  type BwmDocument,
  type BwmSectionName,
} from './bwm-document';

const MAGIC = 0x204d5742;
const VERSION = 0x302e3156;

/**
 * Writes a BWM V1.0 file: header, then the sections packed in the game's order. An empty
 * section's offset is written in the style the document recorded (0 or the running end),
 * so files from either writer family come back byte for byte.
 */
export function writeBwm(doc: BwmDocument): Uint8Array {
  if (doc.original && sameContent(doc, readBwm(doc.original))) return doc.original.slice();
  const faceCount = doc.faces.length / 3;
  if (doc.materials.length !== faceCount || doc.normals.length !== faceCount * 3 || doc.planes.length !== faceCount) {
    throw new RangeError(`BWM per-face columns disagree with ${faceCount} faces`);
  }
  if (doc.edgeIndex.length !== doc.edgeTransition.length) throw new RangeError('BWM edge columns differ in length');
  const counts: Record<BwmSectionName, [number, number]> = {
    vertices: [doc.vertices.length / 3, 12],
    faces: [faceCount, 12],
    materials: [faceCount, 4],
    normals: [faceCount, 12],
    planes: [faceCount, 4],
    aabb: [doc.aabb.length / AABB_NODE_WORDS, AABB_NODE_SIZE],
    adjacency: [doc.adjacency.length / 3, 12],
    edges: [doc.edgeIndex.length, 8],
    perimeters: [doc.perimeters.length, 4],
  };
  const offsets = {} as Record<BwmSectionName, number>;
  let at = BWM_HEADER_SIZE;
  for (const name of Object.keys(counts) as BwmSectionName[]) {
    const [count, size] = counts[name];
    offsets[name] = count === 0 && doc.emptyOffsets[name] === 'zero' ? 0 : at;
    at += count * size;
  }
  const w = new BinaryWriter(at + doc.trailing.length);
  w.u32(MAGIC);
  w.u32(VERSION);
  w.u32(doc.type);
  w.words32(doc.hooks, 0, 15);
  w.u32(counts.vertices[0]);
  w.u32(offsets.vertices);
  w.u32(faceCount);
  w.u32(offsets.faces);
  w.u32(offsets.materials);
  w.u32(offsets.normals);
  w.u32(offsets.planes);
  w.u32(counts.aabb[0]);
  w.u32(offsets.aabb);
  w.u32(doc.aabbRoot);
  w.u32(counts.adjacency[0]);
  w.u32(offsets.adjacency);
  w.u32(counts.edges[0]);
  w.u32(offsets.edges);
  w.u32(counts.perimeters[0]);
  w.u32(offsets.perimeters);
  w.words32(doc.vertices, 0, doc.vertices.length);
  w.words32(doc.faces, 0, doc.faces.length);
  w.words32(doc.materials, 0, doc.materials.length);
  w.words32(doc.normals, 0, doc.normals.length);
  w.words32(doc.planes, 0, doc.planes.length);
  w.words32(doc.aabb, 0, doc.aabb.length);
  w.words32(new Uint32Array(doc.adjacency.buffer, doc.adjacency.byteOffset, doc.adjacency.length), 0, doc.adjacency.length);
  for (let i = 0; i < doc.edgeIndex.length; i++) {
    w.u32(doc.edgeIndex[i]!);
    w.i32(doc.edgeTransition[i]!);
  }
  w.words32(doc.perimeters, 0, doc.perimeters.length);
  w.bytes(doc.trailing);
  return w.finish();
}

/** True when two documents hold the same values in every field the file stores. */
function sameContent(a: BwmDocument, b: BwmDocument): boolean {
  const same = (x: ArrayLike<number>, y: ArrayLike<number>) => x.length === y.length && Array.prototype.every.call(x, (v: number, i: number) => v === y[i]);
  return (
    a.type === b.type &&
    a.aabbRoot === b.aabbRoot &&
    same(a.hooks, b.hooks) &&
    same(a.vertices, b.vertices) &&
    same(a.faces, b.faces) &&
    same(a.materials, b.materials) &&
    same(a.normals, b.normals) &&
    same(a.planes, b.planes) &&
    same(a.aabb, b.aabb) &&
    same(a.adjacency, b.adjacency) &&
    same(a.edgeIndex, b.edgeIndex) &&
    same(a.edgeTransition, b.edgeTransition) &&
    same(a.perimeters, b.perimeters) &&
    same(a.trailing, b.trailing)
  );
}
