/** An NWN2 model (MDB): the `NWN2` container (version 1.12) with its packets (spec §2.1, §5.5). */
export const MDB_FORMAT = 'nwn2-mdb';

/** A WALK packet: a placeable's or door's walkmesh in the model's local coordinates. */
export interface MdbWalkmesh {
  /** The name as text (up to the first NUL; ends in `_W`). */
  name: string;
  /** The 32 name bytes as stored. */
  nameBytes: Uint8Array;
  uiFlags: number;
  /** x, y, z per vertex (bits as stored; z = −1,000,000 marks a downward "curtain" wall). */
  positions: Float32Array;
  /** Three u16 vertex indices per face. */
  faces: Uint16Array;
  /** Per face, the same bits as ASWM triangle flags (0x01 walkable, surface bits). */
  faceFlags: Uint32Array;
  /** Bytes after the faces (none expected). */
  trailing: Uint8Array;
}

export interface MdbPacket {
  type: string;
  /** The payload as read; written back unchanged for every packet but WALK. */
  payload: Uint8Array;
  /** The parsed walkmesh of a WALK packet, else null. */
  walk: MdbWalkmesh | null;
}

export interface MdbDocument {
  versionMajor: number;
  versionMinor: number;
  packets: MdbPacket[];
  irregularLayout: Uint8Array | null;
}

/** Flag value of the −1,000,000 curtain vertices' z (and anything lower than this). */
export const CURTAIN_Z = -100000;

/** WALK packet layout: 32-byte name, u32 ui_flags, u32 vertex count, u32 face count. */
export const WALK_HEADER_BYTES = 44;
/** float32 x, y, z. */
export const WALK_VERTEX_BYTES = 12;
/** Three u16 vertex indices and a u32 flag set. */
export const WALK_FACE_BYTES = 10;
