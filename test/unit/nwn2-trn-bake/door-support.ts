import { createGffDocument, createGffStruct, type GffDocument, type GffStruct } from '../../../shared/formats/aurora/gff-document';
import { gff, optList, setField } from '../../../shared/formats/aurora/gff-fields';
import { writeNwn2Container } from '../../../shared/formats/nwn2/nwn2-container';

export interface DoorSpec {
  appearance: number;
  genericType?: number;
  x: number;
  y: number;
  z?: number;
  bearing?: number;
  scale?: number;
  tag?: string;
}

/** A `Door List` struct (id 8) with the fields the bake reads, typed as the toolset writes them. */
export function doorStruct(d: DoorSpec): GffStruct {
  const s = d.scale ?? 1;
  return createGffStruct(8, [
    gff.exoString('Tag', d.tag ?? 'TEST_DOOR'),
    gff.dword('Appearance', d.appearance),
    gff.byte('GenericType', d.genericType ?? 0),
    gff.float('X', d.x),
    gff.float('Y', d.y),
    gff.float('Z', d.z ?? 0),
    gff.float('Bearing', d.bearing ?? 0),
    gff.int('Static', 0),
    gff.struct('ModelScale', createGffStruct(0, [gff.float('x', s), gff.float('y', s), gff.float('z', s)])),
  ]);
}

/** A copy of a GIT with its `Door List` replaced (or made) with these doors. */
export function withDoors(git: GffDocument, doors: readonly DoorSpec[], keep = false): GffDocument {
  const root = createGffStruct(git.root.type, git.root.fields.slice());
  setField(root, gff.list('Door List', [...(keep ? optList(git.root, 'Door List') : []), ...doors.map(doorStruct)]));
  return createGffDocument(git.fileType, root);
}

export interface WalkFace {
  a: number;
  b: number;
  c: number;
  flags: number;
}

/**
 * An MDB model holding one WALK packet, encoded by hand from the spec (§5.5): a 32-byte
 * name, u32 ui_flags, u32 vertex and face counts, float3 vertices, faces of three u16
 * indices and a u32 flag set; in the `NWN2` container (version 1.12 as models have it).
 */
export function walkMdb(name: string, vertices: readonly (readonly [number, number, number])[], faces: readonly WalkFace[]): Uint8Array {
  const payload = new Uint8Array(44 + vertices.length * 12 + faces.length * 10);
  const dv = new DataView(payload.buffer);
  for (let i = 0; i < name.length && i < 31; i++) payload[i] = name.charCodeAt(i);
  dv.setUint32(32, 0, true);
  dv.setUint32(36, vertices.length, true);
  dv.setUint32(40, faces.length, true);
  let o = 44;
  for (const [x, y, z] of vertices) {
    dv.setFloat32(o, x, true);
    dv.setFloat32(o + 4, y, true);
    dv.setFloat32(o + 8, z, true);
    o += 12;
  }
  for (const f of faces) {
    dv.setUint16(o, f.a, true);
    dv.setUint16(o + 2, f.b, true);
    dv.setUint16(o + 4, f.c, true);
    dv.setUint32(o + 6, f.flags, true);
    o += 10;
  }
  return writeNwn2Container({ versionMajor: 1, versionMinor: 12, irregularLayout: null }, [{ type: 'WALK', payload }]);
}

/** Height of the generated door's threshold above the door's Z. */
export const SILL_Z = 0.05;
/** Opening width (local x from 0) and half depth (local y) of the generated door, and its jambs' width. */
export const OPENING = 1.8;
export const HALF_DEPTH = 0.3;
export const JAMB = 0.25;
/** Walkable metal (0x01 | 0x100): a material no fixture floor near the doors has, so the sill is told apart. */
export const SILL_FLAGS = 0x101;

/**
 * A door frame's walkmesh in door-local coordinates (hinge at the origin, opening along
 * +x, the wall along the x axis): a walkable metal sill across the 1.8 m opening, 5 cm
 * above the door's Z (within a step of the floor, so its outline joins the floor there),
 * and a non-walkable jamb on each side.
 */
export function doorFrameMdb(name: string): Uint8Array {
  const xs = [-JAMB, 0, OPENING, OPENING + JAMB];
  const vertices: [number, number, number][] = [];
  for (const y of [-HALF_DEPTH, HALF_DEPTH]) for (const x of xs) vertices.push([x, y, SILL_Z]);
  const quad = (i: number, flags: number): WalkFace[] => [
    { a: i, b: i + 1, c: i + 5, flags },
    { a: i, b: i + 5, c: i + 4, flags },
  ];
  return walkMdb(`${name}_W`, vertices, [...quad(0, 0), ...quad(1, SILL_FLAGS), ...quad(2, 0)]);
}

/** The sill alone (walkable metal across the opening, 5 cm up): a door that only adds walkable floor. */
export function doorSillMdb(name: string): Uint8Array {
  const vertices: [number, number, number][] = [
    [0, -HALF_DEPTH, SILL_Z],
    [OPENING, -HALF_DEPTH, SILL_Z],
    [OPENING, HALF_DEPTH, SILL_Z],
    [0, HALF_DEPTH, SILL_Z],
  ];
  return walkMdb(`${name}_W`, vertices, [
    { a: 0, b: 1, c: 2, flags: SILL_FLAGS },
    { a: 0, b: 2, c: 3, flags: SILL_FLAGS },
  ]);
}
