import { BinaryWriter } from '../../binary/binary-writer';
import type { NvmiEntry } from './navi-document';

/** Serialises one NVMI payload (the mirror of readNvmi). */
export function writeNvmi(e: NvmiEntry): Uint8Array {
  const w = new BinaryWriter(64 + (e.island ? e.island.vertices.length * 4 + e.island.triangles.length * 2 : 0));
  w.u32(e.navmesh);
  w.u32(e.category);
  w.words32(e.floats, 0, 4);
  w.u32(e.edgeLinks.length);
  w.words32(e.edgeLinks, 0, e.edgeLinks.length);
  w.u32(e.preferredEdgeLinks.length);
  w.words32(e.preferredEdgeLinks, 0, e.preferredEdgeLinks.length);
  w.u32(e.doors.length / 2);
  w.words32(e.doors, 0, e.doors.length);
  w.u8(e.islandFlag);
  if (e.island) {
    w.words32(e.island.bounds, 0, 6);
    w.u32(e.island.triangles.length / 3);
    for (const v of e.island.triangles) w.u16(v);
    w.u32(e.island.vertices.length / 3);
    w.words32(e.island.vertices, 0, e.island.vertices.length);
  }
  w.u32(e.pathingCellHash);
  w.u32(e.worldspace);
  w.u32(e.parent);
  w.bytes(e.trailing);
  return w.finish();
}
