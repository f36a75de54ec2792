import { writeNwn2Container } from '../../shared/formats/nwn2/nwn2-container';

/**
 * Generated NWN2 tile files for tests (no tiles.2da and no tile MDB is among the fixtures):
 * MDBs of rigid (RIGD) meshes laid out as shared/formats/nwn2/mdb-rigid.ts reads them, and
 * tiles.2da / metatiles.2da texts with the columns the tile rule reads
 * (shared/bakers/nwn2/nwn2-model-context.ts).
 */
export interface RigidMeshInput {
  name: string;
  diffuseMap?: string;
  /** x, y, z per vertex. */
  positions: readonly number[];
  /** Three vertex indices per face. */
  faces: readonly number[];
}

const NAME_BYTES = 32;
const MATERIAL_BYTES = 164;
const RIGD_VERTEX_BYTES = 60;
const FACE_BYTES = 6;

function putName(out: Uint8Array, at: number, name: string): void {
  for (let i = 0; i < Math.min(name.length, NAME_BYTES - 1); i++) out[at + i] = name.charCodeAt(i) & 0x7f;
}

/** The payload of one RIGD packet: name, material (diffuse map first), counts, 60-byte vertices, u16 faces. */
export function rigidPacket(m: RigidMeshInput): Uint8Array {
  const V = m.positions.length / 3;
  const F = m.faces.length / 3;
  const out = new Uint8Array(NAME_BYTES + MATERIAL_BYTES + 8 + V * RIGD_VERTEX_BYTES + F * FACE_BYTES);
  const dv = new DataView(out.buffer);
  putName(out, 0, m.name);
  putName(out, NAME_BYTES, m.diffuseMap ?? `${m.name}_tex`);
  let o = NAME_BYTES + MATERIAL_BYTES;
  dv.setUint32(o, V, true);
  dv.setUint32(o + 4, F, true);
  o += 8;
  for (let v = 0; v < V; v++, o += RIGD_VERTEX_BYTES) {
    for (let k = 0; k < 3; k++) dv.setFloat32(o + k * 4, m.positions[v * 3 + k]!, true);
  }
  for (let i = 0; i < m.faces.length; i++) dv.setUint16(o + i * 2, m.faces[i]!, true);
  return out;
}

/** An MDB (NWN2 container 1.12) holding these rigid meshes. */
export function rigidMdb(meshes: readonly RigidMeshInput[]): Uint8Array {
  return writeNwn2Container({ versionMajor: 1, versionMinor: 12, irregularLayout: null }, meshes.map((m) => ({ type: 'RIGD', payload: rigidPacket(m) })));
}

/** A 2DA V2.0 text: `columns`, then one row per entry (cells joined by spaces; '' is written `****`). */
export function twoDaText(columns: readonly string[], rows: readonly (readonly string[])[]): Uint8Array {
  const lines = ['2DA V2.0', '', `   ${columns.join(' ')}`];
  rows.forEach((r, i) => lines.push(`${i} ${r.map((c) => (c === '' ? '****' : c)).join(' ')}`));
  return new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
}

/** tiles.2da with the columns the NWN2 wiki's "Tileset creation" page shows (LABEL STRING_REF TILESET TILE_TYPE VARIATIONS). */
export function tilesTwoDa(rows: readonly { tileSet: string; tileType: string; variations?: number }[]): Uint8Array {
  return twoDaText(['LABEL', 'STRING_REF', 'TILESET', 'TILE_TYPE', 'VARIATIONS'], rows.map((r, i) => [`Tile_${i}`, '****', r.tileSet, r.tileType, String(r.variations ?? 1)]));
}

/** metatiles.2da with the columns xoreos reads (TileSet, Name). */
export function metatilesTwoDa(rows: readonly { tileSet: string; name: string }[]): Uint8Array {
  return twoDaText(['LABEL', 'STRING_REF', 'TileSet', 'Name'], rows.map((r, i) => [`Meta_${i}`, '****', r.tileSet, r.name]));
}
