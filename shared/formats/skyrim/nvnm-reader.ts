import { BinaryReader } from '../../binary/binary-reader';
import { NVNM_FORMAT } from './plugin-document';
import type { NvnmDocument } from './nvnm-document';

/** Reads `count` i16 after checking they fit. */
function i16s(r: BinaryReader, count: number, field: string): Int16Array {
  r.need(count * 2, field);
  const out = new Int16Array(count);
  for (let i = 0; i < count; i++) out[i] = r.i16(field);
  return out;
}

function counted(r: BinaryReader, itemSize: number, field: string): number {
  return r.checkCount(r.u32(`${field}.count`), itemSize, `${field}.count`);
}

/**
 * Parses an NVNM v12 payload at `start`..`end` of `bytes` (the file or a decompressed
 * record). `where` names the record in error fields, e.g. `NAVM 0x01000D62 (decompressed)`.
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

  const nt = counted(r, 16, f('triangles'));
  const triVertices = new Uint16Array(nt * 3);
  const triEdges = new Int16Array(nt * 3);
  const triFlags = new Uint16Array(nt);
  const triCover = new Uint16Array(nt);
  for (let t = 0; t < nt; t++) {
    const field = f(`triangles[${t}]`);
    for (let k = 0; k < 3; k++) triVertices[t * 3 + k] = r.u16(field);
    for (let k = 0; k < 3; k++) triEdges[t * 3 + k] = r.i16(field);
    triFlags[t] = r.u16(field);
    triCover[t] = r.u16(field);
  }

  const nl = counted(r, 10, f('edgeLinks'));
  const edgeLinkType = new Uint32Array(nl);
  const edgeLinkNavmesh = new Uint32Array(nl);
  const edgeLinkTriangle = new Int16Array(nl);
  for (let i = 0; i < nl; i++) {
    edgeLinkType[i] = r.u32(f(`edgeLinks[${i}].type`));
    edgeLinkNavmesh[i] = r.u32(f(`edgeLinks[${i}].navmesh`));
    edgeLinkTriangle[i] = r.i16(f(`edgeLinks[${i}].triangle`));
  }

  const nd = counted(r, 10, f('doorLinks'));
  const doorTriangle = new Int16Array(nd);
  const doorHash = new Uint32Array(nd);
  const doorRef = new Uint32Array(nd);
  for (let i = 0; i < nd; i++) {
    doorTriangle[i] = r.i16(f(`doorLinks[${i}].triangle`));
    doorHash[i] = r.u32(f(`doorLinks[${i}].hash`));
    doorRef[i] = r.u32(f(`doorLinks[${i}].door`));
  }

  const nc = counted(r, 2, f('coverTriangles'));
  const coverTriangles = i16s(r, nc, f('coverTriangles'));

  const divisorOffset = r.offset;
  const gridDivisor = r.u32(f('grid.divisor'));
  const gridBounds = new Uint32Array(8);
  r.words32(gridBounds, 0, 8, f('grid.bounds'));
  // Each cell holds at least its u32 count, so divisor² cells must fit in what is left.
  const cells = gridDivisor * gridDivisor;
  r.checkCount(cells, 4, f('grid.divisor'), divisorOffset);
  const gridCellCounts = new Uint32Array(cells);
  const parts: Int16Array[] = [];
  let total = 0;
  for (let c = 0; c < cells; c++) {
    const n = counted(r, 2, f(`grid.cells[${c}]`));
    gridCellCounts[c] = n;
    parts.push(i16s(r, n, f(`grid.cells[${c}]`)));
    total += n;
  }
  const gridTriangles = new Int16Array(total);
  let o = 0;
  for (const p of parts) {
    gridTriangles.set(p, o);
    o += p.length;
  }
  const trailing = r.bytesCopy(r.remaining, f('trailing'));
  return {
    version, pathingCellHash, worldspace, parent, vertices, triVertices, triEdges, triFlags, triCover,
    edgeLinkType, edgeLinkNavmesh, edgeLinkTriangle, doorTriangle, doorHash, doorRef, coverTriangles,
    gridDivisor, gridBounds, gridCellCounts, gridTriangles, trailing,
  };
}
