import type { FormatEnvironment } from '../format-environment';
import { decodeAswmPayload } from './aswm-packet';
import { readNwn2Container } from './nwn2-container';
import { readTrrn } from './trrn-packet';
import { readTrwh } from './trwh-packet';
import { readWatr } from './watr-packet';
import { TRX_FORMAT, type TrxDocument, type TrxPacket } from './trx-document';

/**
 * Reads a TRN or TRX file (spec §2, §3). The container, TRWH and ASWM must parse (else
 * MalformedInputError); a terrain or water packet that does not parse is kept as bytes
 * with its error, since Walkbench never rewrites those and exterior layouts are only
 * known from code (validation reports it).
 */
export function readTrx(bytes: Uint8Array, env: FormatEnvironment): TrxDocument {
  const c = readNwn2Container(bytes, TRX_FORMAT);
  const packets = c.packets.map((p): TrxPacket => {
    switch (p.type) {
      case 'TRWH':
        return { kind: 'trwh', type: p.type, payload: p.payload, trwh: readTrwh(p.payload, p.payloadOffset, TRX_FORMAT) };
      case 'ASWM': {
        const d = decodeAswmPayload(p.payload, p.payloadOffset, env);
        return { kind: 'aswm', type: p.type, payload: p.payload, aswm: d.aswm, compressed: d.compressed, inflated: d.inflated };
      }
      case 'TRRN':
        try {
          return { kind: 'trrn', type: p.type, payload: p.payload, trrn: readTrrn(p.payload, p.payloadOffset), parseError: null };
        } catch (e) {
          return { kind: 'trrn', type: p.type, payload: p.payload, trrn: null, parseError: messageOf(e) };
        }
      case 'WATR':
        try {
          return { kind: 'watr', type: p.type, payload: p.payload, watr: readWatr(p.payload, p.payloadOffset), parseError: null };
        } catch (e) {
          return { kind: 'watr', type: p.type, payload: p.payload, watr: null, parseError: messageOf(e) };
        }
      default:
        return { kind: 'unknown', type: p.type, payload: p.payload };
    }
  });
  return { versionMajor: c.versionMajor, versionMinor: c.versionMinor, packets, irregularLayout: c.irregularLayout };
}

function messageOf(e: unknown): string {
  if (e instanceof RangeError || (e instanceof Error && e.name === 'MalformedInputError')) return e.message;
  throw e;
}
