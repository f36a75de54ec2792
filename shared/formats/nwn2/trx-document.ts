import type { AswmDocument } from './aswm-document';
import type { TrrnPayload } from './trrn-packet';
import type { Trwh } from './trwh-packet';
import type { WatrPayload } from './watr-packet';

export const TRX_FORMAT = 'nwn2-trx';
/** Container version of every TRN/TRX (xoreos accepts nothing else). */
export const TRX_VERSION_MAJOR = 2;
export const TRX_VERSION_MINOR = 3;

interface PacketBase {
  /** The four-character type as written. */
  type: string;
  /** The payload as read (what an unedited packet is written back as). */
  payload: Uint8Array;
}

export interface TrwhPacket extends PacketBase {
  kind: 'trwh';
  /** Written from these fields. */
  trwh: Trwh;
}

export interface TrrnPacket extends PacketBase {
  kind: 'trrn';
  /** The parsed terrain, or null when the payload did not parse (kept and written as read). */
  trrn: TrrnPayload | null;
  parseError: string | null;
}

export interface WatrPacket extends PacketBase {
  kind: 'watr';
  watr: WatrPayload | null;
  parseError: string | null;
}

export interface AswmPacket extends PacketBase {
  kind: 'aswm';
  /** Written from this document: as `payload` while it serialises to `inflated`, else re-compressed. */
  aswm: AswmDocument;
  /** The payload was a `COMP` zlib wrapper. */
  compressed: boolean;
  /** The walkmesh bytes as read (decompressed), to tell an unedited walkmesh. */
  inflated: Uint8Array;
}

export interface UnknownPacket extends PacketBase {
  kind: 'unknown';
}

export type TrxPacket = TrwhPacket | TrrnPacket | WatrPacket | AswmPacket | UnknownPacket;

/**
 * A TRN or TRX file: the NWN2 container with its packets in their original order. Terrain
 * and water packets are parsed for inspection but written back byte for byte; the TRWH
 * size and the ASWM walkmesh are written from their parsed fields.
 */
export interface TrxDocument {
  versionMajor: number;
  versionMinor: number;
  packets: TrxPacket[];
  /** The file as read when its packets were not back to back in table order (see nwn2-container). */
  irregularLayout: Uint8Array | null;
}

/** The first ASWM packet (a valid file has exactly one). */
export function aswmPacketOf(doc: TrxDocument): AswmPacket | undefined {
  for (const p of doc.packets) if (p.kind === 'aswm') return p;
  return undefined;
}

export function trwhPacketOf(doc: TrxDocument): TrwhPacket | undefined {
  for (const p of doc.packets) if (p.kind === 'trwh') return p;
  return undefined;
}

/** A new TRX holding only TRWH (area size) and an ASWM packet, compressed when written. */
export function newTrxDocument(aswm: AswmDocument, size: { width: number; height: number }): TrxDocument {
  const empty = new Uint8Array(0);
  return {
    versionMajor: TRX_VERSION_MAJOR,
    versionMinor: TRX_VERSION_MINOR,
    irregularLayout: null,
    packets: [
      { kind: 'trwh', type: 'TRWH', payload: empty, trwh: { width: size.width, height: size.height, id: 0 } },
      { kind: 'aswm', type: 'ASWM', payload: empty, aswm, compressed: true, inflated: empty },
    ],
  };
}
