import { WALK_FACE_BYTES, WALK_HEADER_BYTES, WALK_VERTEX_BYTES, type MdbDocument, type MdbWalkmesh } from './mdb-document';
import { writeNwn2Container } from './nwn2-container';

/**
 * Writes an MDB model, mirroring readMdb: the container with its packets in table order,
 * every packet but WALK written back as its stored payload, WALK packets re-encoded from
 * their parsed walkmesh (name bytes, ui_flags, counts, vertex bits, faces, trailing bytes
 * as read). An unedited model comes back byte for byte (the 4 fixture MDBs: 1 with WALK,
 * 3 with COL2/COL3 and rigid meshes); an irregular container layout is kept while no
 * payload changes (nwn2-container.ts).
 */
export function writeMdb(doc: MdbDocument): Uint8Array {
  const packets = doc.packets.map((p) => ({ type: p.type, payload: p.walk ? writeWalk(p.walk) : p.payload }));
  return writeNwn2Container(doc, packets, doc.packets.map((p) => p.payload));
}

/** The payload of a WALK packet. */
export function writeWalk(w: MdbWalkmesh): Uint8Array {
  const V = w.positions.length / 3;
  const F = w.faceFlags.length;
  if (w.faces.length !== F * 3) throw new RangeError(`WALK ${w.name}: ${w.faces.length} face indices for ${F} faces`);
  const out = new Uint8Array(WALK_HEADER_BYTES + V * WALK_VERTEX_BYTES + F * WALK_FACE_BYTES + w.trailing.length);
  const dv = new DataView(out.buffer);
  out.set(w.nameBytes.subarray(0, 32), 0);
  dv.setUint32(32, w.uiFlags, true);
  dv.setUint32(36, V, true);
  dv.setUint32(40, F, true);
  let o = WALK_HEADER_BYTES;
  const bits = new Uint32Array(w.positions.buffer, w.positions.byteOffset, w.positions.length);
  for (let i = 0; i < bits.length; i++, o += 4) dv.setUint32(o, bits[i]!, true);
  for (let f = 0; f < F; f++, o += WALK_FACE_BYTES) {
    dv.setUint16(o, w.faces[f * 3]!, true);
    dv.setUint16(o + 2, w.faces[f * 3 + 1]!, true);
    dv.setUint16(o + 4, w.faces[f * 3 + 2]!, true);
    dv.setUint32(o + 6, w.faceFlags[f]!, true);
  }
  out.set(w.trailing, o);
  return out;
}
