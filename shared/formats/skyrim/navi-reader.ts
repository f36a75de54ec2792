import { BinaryReader } from '../../binary/binary-reader';
import type { NvmiEntry, NvmiIsland } from './navi-document';
import { NVNM_FORMAT } from './plugin-document';

function u32List(r: BinaryReader, itemWords: number, field: string): Uint32Array {
  const n = r.checkCount(r.u32(`${field}.count`), itemWords * 4, `${field}.count`);
  const out = new Uint32Array(n * itemWords);
  r.words32(out, 0, n * itemWords, field);
  return out;
}

/**
 * Parses one NVMI payload at `start`..`end` of `bytes`; `where` names the NAVI record.
 * Memory bound (part of PLUGIN_READ_MEMORY): every list count is checked against the bytes
 * left and read into a column of its own size; an entry (at least 49 bytes) is an object
 * and six columns of about 600 bytes.
 */
export function readNvmi(bytes: Uint8Array, start: number, end: number, where: string): NvmiEntry {
  const r = new BinaryReader(bytes, NVNM_FORMAT, start, end);
  const f = (name: string) => `${where} NVMI.${name}`;
  const navmesh = r.u32(f('navmesh'));
  const category = r.u32(f('category'));
  const floats = new Uint32Array(4);
  r.words32(floats, 0, 4, f('position'));
  const edgeLinks = u32List(r, 1, f('edgeLinks'));
  const preferredEdgeLinks = u32List(r, 1, f('preferredEdgeLinks'));
  const doors = u32List(r, 2, f('doors'));
  const islandFlag = r.u8(f('hasIslandData'));
  let island: NvmiIsland | undefined;
  if (islandFlag !== 0) {
    const bounds = new Uint32Array(6);
    r.words32(bounds, 0, 6, f('island.bounds'));
    const nt = r.checkCount(r.u32(f('island.triangles.count')), 6, f('island.triangles.count'));
    const triangles = new Uint16Array(nt * 3);
    for (let i = 0; i < nt * 3; i++) triangles[i] = r.u16(f('island.triangles'));
    const vertices = u32List(r, 3, f('island.vertices'));
    island = { bounds, triangles, vertices };
  }
  const pathingCellHash = r.u32(f('pathingCellHash'));
  const worldspace = r.u32(f('worldspace'));
  const parent = r.u32(f('parent'));
  const trailing = r.bytesCopy(r.remaining, f('trailing'));
  return { navmesh, category, floats, edgeLinks, preferredEdgeLinks, doors, islandFlag, island, pathingCellHash, worldspace, parent, trailing };
}
