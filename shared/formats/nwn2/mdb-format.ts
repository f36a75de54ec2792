import { ModelMappingError } from '../../model/model-mapping-error';
import { createWalkmesh, NO_OWNER } from '../../model/walkmesh';
import type { FileSummary, FormatHandler } from '../format-handler';
import { KNOWN_TRIANGLE_FLAGS, TriangleFlag } from './aswm-document';
import { hex } from './aswm-layout';
import { FindingSink } from '../../validation/finding-sink';
import { CURTAIN_Z, MDB_FORMAT, type MdbDocument } from './mdb-document';
import { readMdb } from './mdb-reader';
import { writeMdb } from './mdb-writer';
import { NWN2_MAGIC } from './nwn2-container';

/** Packet types only models hold (TRRN occurs in TRN/TRX too). */
const MDB_PACKETS = new Set(['RIGD', 'SKIN', 'COL2', 'COL3', 'HOOK', 'WALK', 'COLS', 'HELM', 'HAIR']);

export { writeMdb };

export function sniffMdb(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== NWN2_MAGIC) return false;
  if (dv.getUint16(4, true) === 1) return true;
  if (bytes.length < 20 || dv.getUint32(8, true) === 0) return false;
  return MDB_PACKETS.has(String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!));
}

/**
 * NWN2 models, for their placeable and door walkmeshes (WALK packets). Read, inspect,
 * validate, export (one walkmesh per WALK packet) and write back unchanged; editing a
 * model's walkmesh is not supported (no fromWalkmeshes), so OBJ cannot be converted to MDB.
 */
export const mdbFormat: FormatHandler<MdbDocument> = {
  id: MDB_FORMAT,
  game: 'nwn2',
  label: 'Neverwinter Nights 2 model (MDB) walkmeshes',
  extensions: ['.mdb'],
  sniff: sniffMdb,
  read: (bytes) => readMdb(bytes),
  write: (doc) => writeMdb(doc),
  summarize(doc): FileSummary {
    const walks = doc.packets.flatMap((p) => (p.walk ? [p.walk] : []));
    const counts: Record<string, number> = { packets: doc.packets.length, walkmeshes: walks.length, vertices: 0, faces: 0, walkableFaces: 0, curtainVertices: 0 };
    for (const p of doc.packets) counts[`packets${p.type}`] = (counts[`packets${p.type}`] ?? 0) + 1;
    for (const w of walks) {
      counts.vertices! += w.positions.length / 3;
      counts.faces! += w.faceFlags.length;
      for (const f of w.faceFlags) if (f & TriangleFlag.walkable) counts.walkableFaces!++;
      for (let v = 2; v < w.positions.length; v += 3) if (w.positions[v]! <= CURTAIN_Z) counts.curtainVertices!++;
    }
    return {
      version: `${doc.versionMajor}.${doc.versionMinor}`,
      counts,
      details: { walkmeshes: walks.map((w) => w.name).join(', '), packetOrder: doc.packets.map((p) => p.type).join(', ') },
    };
  },
  validate(doc) {
    const out = new FindingSink();
    doc.packets.forEach((p, i) => {
      const w = p.walk;
      if (!w) return;
      const what = `WALK packet #${i} (${w.name})`;
      const V = w.positions.length / 3;
      for (let v = 0; v < V; v++) {
        if (!Number.isFinite(w.positions[v * 3]! + w.positions[v * 3 + 1]! + w.positions[v * 3 + 2]!)) out.error('nwn2.mdb.vertex-not-finite', undefined, () => `${what}: vertex ${v} has a coordinate that is not a finite number`);
      }
      for (let f = 0; f < w.faceFlags.length; f++) {
        for (let k = 0; k < 3; k++) {
          if (w.faces[f * 3 + k]! >= V) out.error('nwn2.mdb.face-vertex-out-of-range', { kind: 'face', id: f }, () => `${what}: face ${f} uses vertex ${w.faces[f * 3 + k]}, but the walkmesh has ${V} vertices`);
        }
        const unknown = w.faceFlags[f]! & ~KNOWN_TRIANGLE_FLAGS;
        if (unknown) out.warning('nwn2.mdb.unknown-flags', { kind: 'face', id: f }, () => `${what}: face ${f} has flag bits ${hex(unknown)} with no known meaning`);
      }
      if (w.trailing.length > 0) out.warning('nwn2.mdb.trailing-bytes', undefined, () => `${what} has ${w.trailing.length} byte(s) after its faces`);
    });
    return out.finish();
  },
  toWalkmeshes(doc, name) {
    return doc.packets.flatMap((p) => {
      const w = p.walk;
      if (!w) return [];
      const F = w.faceFlags.length;
      const faceWalkable = new Uint8Array(F);
      for (let f = 0; f < F; f++) faceWalkable[f] = w.faceFlags[f]! & TriangleFlag.walkable;
      const triangles = Uint32Array.from(w.faces);
      const V = w.positions.length / 3;
      const bad = triangles.findIndex((v) => v >= V);
      if (bad >= 0) throw new ModelMappingError(`${w.name}: face ${(bad / 3) | 0} uses vertex ${triangles[bad]}, but the walkmesh has ${V} vertices`);
      return [
        createWalkmesh({
          name: `${name} ${w.name}`,
          game: 'nwn2',
          format: MDB_FORMAT,
          positions: w.positions.slice(),
          triangles,
          faceWalkable,
          faceMaterial: w.faceFlags.slice(),
          faceOwner: new Uint32Array(F).fill(NO_OWNER),
        }),
      ];
    });
  },
};
