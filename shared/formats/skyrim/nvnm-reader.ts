import type { ReadMemoryBound } from '../../binary/read-budget';
import { BinaryReader } from '../../binary/binary-reader';
import { NVNM_FORMAT } from './plugin-document';
import type { NvnmDocument } from './nvnm-document';

/** readNvnm's memory bound (see ReadMemoryBound). */
export const NVNM_READ_MEMORY: ReadMemoryBound = { perInputByte: 8, perDecompressedByte: 0 };

/** Reads `count` i16 after checking they fit. */
function i16s(r: BinaryReader, count: number, field: string): Int16Array {
  r.need(count * 2, field);
  const dv = new DataView(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
  const out = new Int16Array(count);
  for (let i = 0; i < count; i++) out[i] = dv.getInt16(r.offset + i * 2, true);
  r.offset += count * 2;
  return out;
}

function counted(r: BinaryReader, itemSize: number, field: string): number {
  return r.checkCount(r.u32(`${field}.count`), itemSize, `${field}.count`);
}

/**
 * Parses an NVNM v12 payload at `start`..`end` of `bytes` (the file or a decompressed
 * record). `where` names the record in error fields, e.g. `NAVM 0x01000D62 (decompressed)`.
 *
 * Memory bound: every list is sized by a count checked against the bytes left, and each
 * entry's columns take its bytes (12 per vertex, 16 per triangle, 10 per link, 2 per cover
 * or grid entry); the grid is sparse (only non-empty cells, 8 bytes each, every one
 * backed by at least 6 bytes), so its divisor² costs nothing beyond its bytes; no field
 * name is built per item: about 1.5 bytes per input byte once the reader is optimised. Its
 * garbage counts too: in some engine states (seen by 15- and 30-minute fuzz runs after
 * thousands of other inputs, never on a fresh start) the walk over a grid of empty cells
 * runs unoptimised long enough to leave about 24 bytes per 4-byte cell: 6 bytes per input
 * byte. The stated bound is 8 (NVNM_READ_MEMORY).
 */
export function readNvnm(bytes: Uint8Array, start: number, end: number, where: string): NvnmDocument {
  const r = new BinaryReader(bytes, NVNM_FORMAT, start, end);
  const f = (name: string) => `${where} NVNM.${name}`;
  const version = r.u32(f('version'));
  const pathingCellHash = r.u32(f('pathingCellHash'));
  const worldspace = r.u32(f('worldspace'));
  const parent = r.u32(f('parent'));

  const nv = counted(r, 12, f('vertices'));
  const vertices = new Uint32Array(nv * 3);
  r.words32(vertices, 0, nv * 3, f('vertices'));

  // Each list's count was checked to fit in the bytes left (counted), so its items are
  // read straight from the bytes, with no field name built per item.
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nt = counted(r, 16, f('triangles'));
  const triVertices = new Uint16Array(nt * 3);
  const triEdges = new Int16Array(nt * 3);
  const triFlags = new Uint16Array(nt);
  const triCover = new Uint16Array(nt);
  for (let t = 0, o = r.offset; t < nt; t++, o += 16) {
    for (let k = 0; k < 3; k++) triVertices[t * 3 + k] = dv.getUint16(o + k * 2, true);
    for (let k = 0; k < 3; k++) triEdges[t * 3 + k] = dv.getInt16(o + 6 + k * 2, true);
    triFlags[t] = dv.getUint16(o + 12, true);
    triCover[t] = dv.getUint16(o + 14, true);
  }
  r.offset += nt * 16;

  const nl = counted(r, 10, f('edgeLinks'));
  const edgeLinkType = new Uint32Array(nl);
  const edgeLinkNavmesh = new Uint32Array(nl);
  const edgeLinkTriangle = new Int16Array(nl);
  for (let i = 0, o = r.offset; i < nl; i++, o += 10) {
    edgeLinkType[i] = dv.getUint32(o, true);
    edgeLinkNavmesh[i] = dv.getUint32(o + 4, true);
    edgeLinkTriangle[i] = dv.getInt16(o + 8, true);
  }
  r.offset += nl * 10;

  const nd = counted(r, 10, f('doorLinks'));
  const doorTriangle = new Int16Array(nd);
  const doorHash = new Uint32Array(nd);
  const doorRef = new Uint32Array(nd);
  for (let i = 0, o = r.offset; i < nd; i++, o += 10) {
    doorTriangle[i] = dv.getInt16(o, true);
    doorHash[i] = dv.getUint32(o + 2, true);
    doorRef[i] = dv.getUint32(o + 6, true);
  }
  r.offset += nd * 10;

  const nc = counted(r, 2, f('coverTriangles'));
  const coverTriangles = i16s(r, nc, f('coverTriangles'));

  const divisorOffset = r.offset;
  const gridDivisor = r.u32(f('grid.divisor'));
  const gridBounds = new Uint32Array(8);
  r.words32(gridBounds, 0, 8, f('grid.bounds'));
  // Each cell holds at least its u32 count, so divisor² cells must fit in what is left.
  const cells = gridDivisor * gridDivisor;
  r.checkCount(cells, 4, f('grid.divisor'), divisorOffset);
  // Sparse: one pass counts the non-empty cells and their entries (checking each list
  // fits), the second copies them; empty cells cost nothing.
  const gridAt = r.offset;
  let used = 0;
  let total = 0;
  for (let c = 0; c < cells; c++) {
    const countAt = r.offset;
    if (r.end - countAt < 4) r.need(4, f(`grid.cells[${c}].count`));
    const n = dv.getUint32(countAt, true);
    r.offset += 4;
    if (n === 0) continue;
    r.checkCount(n, 2, f(`grid.cells[${c}].count`), countAt);
    r.offset += n * 2;
    used++;
    total += n;
  }
  const gridCells = new Uint32Array(used);
  const gridCellStart = new Uint32Array(used + 1);
  const gridTriangles = new Int16Array(total);
  for (let c = 0, o = gridAt, k = 0, e = 0; k < used; c++) {
    const n = dv.getUint32(o, true);
    o += 4;
    if (n === 0) continue;
    gridCells[k] = c;
    gridCellStart[k] = e;
    for (let i = 0; i < n; i++, o += 2) gridTriangles[e++] = dv.getInt16(o, true);
    gridCellStart[++k] = e;
  }
  const trailing = r.bytesCopy(r.remaining, f('trailing'));
  return {
    version, pathingCellHash, worldspace, parent, vertices, triVertices, triEdges, triFlags, triCover,
    edgeLinkType, edgeLinkNavmesh, edgeLinkTriangle, doorTriangle, doorHash, doorRef, coverTriangles,
    gridDivisor, gridBounds, gridCells, gridCellStart, gridTriangles, trailing,
  };
}
