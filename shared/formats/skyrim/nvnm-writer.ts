import { BinaryWriter } from '../../binary/binary-writer';
import { gridCellCountOf, type NvnmDocument } from './nvnm-document';

/** Serialises an NVNM v12 payload (the mirror of readNvnm). */
export function writeNvnm(n: NvnmDocument): Uint8Array {
  const nt = n.triFlags.length;
  const cells = gridCellCountOf(n);
  const w = new BinaryWriter(64 + n.vertices.length * 4 + nt * 16 + n.gridTriangles.length * 2 + Math.min(cells, 1 << 24) * 4);
  w.u32(n.version);
  w.u32(n.pathingCellHash);
  w.u32(n.worldspace);
  w.u32(n.parent);
  w.u32(n.vertices.length / 3);
  w.words32(n.vertices, 0, n.vertices.length);
  w.u32(nt);
  for (let t = 0; t < nt; t++) {
    for (let k = 0; k < 3; k++) w.u16(n.triVertices[t * 3 + k]!);
    for (let k = 0; k < 3; k++) w.i16(n.triEdges[t * 3 + k]!);
    w.u16(n.triFlags[t]!);
    w.u16(n.triCover[t]!);
  }
  w.u32(n.edgeLinkType.length);
  for (let i = 0; i < n.edgeLinkType.length; i++) {
    w.u32(n.edgeLinkType[i]!);
    w.u32(n.edgeLinkNavmesh[i]!);
    w.i16(n.edgeLinkTriangle[i]!);
  }
  w.u32(n.doorTriangle.length);
  for (let i = 0; i < n.doorTriangle.length; i++) {
    w.i16(n.doorTriangle[i]!);
    w.u32(n.doorHash[i]!);
    w.u32(n.doorRef[i]!);
  }
  w.u32(n.coverTriangles.length);
  for (const t of n.coverTriangles) w.i16(t);
  w.u32(n.gridDivisor);
  w.words32(n.gridBounds, 0, 8);
  // Every cell is written, the empty ones (not held, see NvnmDocument.gridCells) with count 0.
  let k = 0;
  for (let c = 0; c < cells; c++) {
    if (k < n.gridCells.length && n.gridCells[k] === c) {
      const from = n.gridCellStart[k]!;
      const to = n.gridCellStart[k + 1]!;
      w.u32(to - from);
      for (let i = from; i < to; i++) w.i16(n.gridTriangles[i]!);
      k++;
    } else w.u32(0);
  }
  if (k !== n.gridCells.length) throw new RangeError(`NVNM grid: cell ${n.gridCells[k]} is not one of the ${cells} cells of divisor ${n.gridDivisor} (or the cells are not ascending)`);
  w.bytes(n.trailing);
  return w.finish();
}
