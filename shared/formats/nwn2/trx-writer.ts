import type { FormatEnvironment } from '../format-environment';
import { encodeAswmPayload } from './aswm-packet';
import { writeAswm } from './aswm-writer';
import { bytesEqual } from './le-words';
import { writeNwn2Container } from './nwn2-container';
import { writeTrwh } from './trwh-packet';
import type { TrxDocument, TrxPacket } from './trx-document';

/**
 * Writes a TRN/TRX. An ASWM whose serialisation equals the walkmesh bytes it was read from
 * keeps its original payload (compressed bytes included); an edited one is compressed
 * again with zlib level 6, as the toolset does. The ASWM is written in its document's
 * version: documents read from 0x69–0x6B files stay in their version while unedited, and
 * every edit (fromWalkmeshes, rebuildTopology) upgrades to 0x6C first.
 */
export function writeTrx(doc: TrxDocument, env: FormatEnvironment): Uint8Array {
  const payloads = doc.packets.map((p) => ({ type: p.type, payload: packetPayload(p, env) }));
  return writeNwn2Container(doc, payloads, doc.packets.map((p) => p.payload));
}

export function packetPayload(p: TrxPacket, env: FormatEnvironment): Uint8Array {
  switch (p.kind) {
    case 'trwh':
      return writeTrwh(p.trwh);
    case 'aswm': {
      const raw = writeAswm(p.aswm);
      if (p.payload.length > 0 && bytesEqual(raw, p.inflated)) return p.payload;
      return encodeAswmPayload(raw, env);
    }
    default:
      return p.payload;
  }
}
