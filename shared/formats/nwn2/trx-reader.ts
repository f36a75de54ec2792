import type { ReadMemoryBound } from '../../binary/read-budget';
import { DecompressionBudget } from '../../binary/read-budget';
import type { FormatEnvironment } from '../format-environment';
import { decodeAswmPayload } from './aswm-packet';
import { readNwn2Container } from './nwn2-container';
import { readTrrn } from './trrn-packet';
import { readTrwh } from './trwh-packet';
import { readWatr } from './watr-packet';
import { TRX_FORMAT, type TrxDocument, type TrxPacket } from './trx-document';

/** readTrx's memory bound (see ReadMemoryBound). */
export const TRX_READ_MEMORY: ReadMemoryBound = { perInputByte: 32, perDecompressedByte: 6 };

/**
 * Reads a TRN or TRX file (spec §2, §3). The container, TRWH and ASWM must parse (else
 * MalformedInputError); a terrain or water packet is parsed when first read (lazyParse),
 * and one that does not parse is kept as bytes with its error, since Walkbench never rewrites those and exterior layouts are only
 * known from code (validation reports it).
 *
 * Memory bound (TRX_READ_MEMORY): the container takes at most 24 bytes per input byte
 * (nwn2-container.ts: packets never overlap), terrain and water about one byte per payload
 * byte: 32 per input byte in all; each ASWM walkmesh takes up to 6 bytes per decompressed
 * byte (the inflated bytes kept to tell an unedited walkmesh, the typed columns of about
 * their size, and the inflater's chunks until they are collected; about 3 measured). The
 * decompressed total is capped by the file's decompression budget (`env.limits`, default
 * max(256 MiB, 8 × the file size); shared/binary/read-budget.ts), so a small file takes at
 * most 32 × its size + 6 × 256 MiB, whatever it declares. A 130 KB TRX may legitimately
 * inflate to Skywing's 128 MiB; several such packets pass the budget and are refused
 * before they inflate.
 */
export function readTrx(bytes: Uint8Array, env: FormatEnvironment): TrxDocument {
  const c = readNwn2Container(bytes, TRX_FORMAT);
  const budget = new DecompressionBudget(bytes.length, env.limits);
  const packets = c.packets.map((p): TrxPacket => {
    switch (p.type) {
      case 'TRWH':
        return { kind: 'trwh', type: p.type, payload: p.payload, trwh: readTrwh(p.payload, p.payloadOffset, TRX_FORMAT) };
      case 'ASWM': {
        const d = decodeAswmPayload(p.payload, p.payloadOffset, env, budget);
        return { kind: 'aswm', type: p.type, payload: p.payload, aswm: d.aswm, compressed: d.compressed, inflated: d.inflated };
      }
      case 'TRRN': {
        const parsed = lazyParse(() => readTrrn(p.payload, p.payloadOffset));
        return {
          kind: 'trrn', type: p.type, payload: p.payload,
          get trrn() { return parsed().value; },
          get parseError() { return parsed().error; },
        };
      }
      case 'WATR': {
        const parsed = lazyParse(() => readWatr(p.payload, p.payloadOffset));
        return {
          kind: 'watr', type: p.type, payload: p.payload,
          get watr() { return parsed().value; },
          get parseError() { return parsed().error; },
        };
      }
      default:
        return { kind: 'unknown', type: p.type, payload: p.payload };
    }
  });
  return { versionMajor: c.versionMajor, versionMinor: c.versionMinor, packets, irregularLayout: c.irregularLayout };
}

/**
 * Terrain and water are parsed on first use: a bake, a round trip or `info` never look at
 * them (issue 18: 18 ms of the largest fixture's 595 ms re-bake went to WATR alone), while
 * validation and the level layer read them as before. The packet's bytes are written as
 * read either way.
 */
function lazyParse<T>(parse: () => T): () => { value: T | null; error: string | null } {
  let done: { value: T | null; error: string | null } | undefined;
  return () => {
    if (!done) {
      try {
        done = { value: parse(), error: null };
      } catch (e) {
        done = { value: null, error: messageOf(e) };
      }
    }
    return done;
  };
}

function messageOf(e: unknown): string {
  if (e instanceof RangeError || (e instanceof Error && e.name === 'MalformedInputError')) return e.message;
  throw e;
}
