import fc from 'fast-check';
import pako from 'pako';
import { describe, expect, it } from 'vitest';
import { isMalformedInputError, type MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { writeAswm } from '../../../shared/formats/nwn2/aswm-writer';
import { readNwn2Container, writeNwn2Container } from '../../../shared/formats/nwn2/nwn2-container';
import { aswmPacketOf } from '../../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { summarizeTrx } from '../../../shared/formats/nwn2/trx-summary';
import { validateTrx } from '../../../shared/formats/nwn2/trx-validate';
import { trxToWalkmeshes } from '../../../shared/formats/nwn2/trx-walkmesh';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { env, firstDifference, loadTrx } from './nwn2-fixtures';

const SMALL = 'kaedrin/dm001_cargohold.trx';

function readError(bytes: Uint8Array): MalformedInputError {
  try {
    readTrx(bytes, env);
  } catch (e) {
    if (isMalformedInputError(e)) return e;
    throw e;
  }
  throw new Error('the file was read without error');
}

/** The small fixture with its ASWM payload replaced. */
function withAswmPayload(payload: Uint8Array): { file: Uint8Array; payloadOffset: number } {
  const { bytes } = loadTrx(SMALL);
  const c = readNwn2Container(bytes, 'nwn2-trx');
  const file = writeNwn2Container(c, c.packets.map((p) => ({ type: p.type, payload: p.type === 'ASWM' ? payload : p.payload })));
  const payloadOffset = readNwn2Container(file, 'nwn2-trx').packets.find((p) => p.type === 'ASWM')!.payloadOffset;
  return { file, payloadOffset };
}

function comp(raw: Uint8Array, compressedSize?: number, rawSize = raw.length): Uint8Array {
  const stream = pako.deflate(raw, { level: 6 });
  const out = new Uint8Array(12 + stream.length);
  const dv = new DataView(out.buffer);
  out.set([0x43, 0x4f, 0x4d, 0x50]);
  dv.setUint32(4, compressedSize ?? stream.length, true);
  dv.setUint32(8, rawSize, true);
  out.set(stream, 12);
  return out;
}

function smallRaw(): Uint8Array {
  return writeAswm(loadTrx(SMALL).aswm.aswm);
}

function setU32(bytes: Uint8Array, offset: number, v: number): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(offset, v, true);
  return out;
}

describe('NWN2 TRN/TRX malformed input', () => {
  it('reports every truncation of the file as malformed input', () => {
    const { bytes } = loadTrx(SMALL);
    for (let n = 0; n < bytes.length; n += 37) {
      const e = readError(bytes.subarray(0, n));
      expect(e.format).toMatch(/^nwn2-/);
      expect(e.offset).toBeGreaterThanOrEqual(0);
      expect(e.offset).toBeLessThanOrEqual(bytes.length);
    }
  });

  it('reports every truncation of the decompressed walkmesh with its position inside the decompressed bytes', () => {
    const raw = smallRaw();
    for (let n = 0; n < raw.length; n += Math.max(1, raw.length >> 6)) {
      const { file, payloadOffset } = withAswmPayload(comp(raw.subarray(0, n)));
      const e = readError(file);
      expect(e.format).toBe('nwn2-aswm');
      expect(e.offset).toBe(payloadOffset);
      expect(e.field).toMatch(/^ASWM\(decompressed\)\+0x[0-9A-F]+ /);
      const inside = parseInt(/\+0x([0-9A-F]+)/.exec(e.field)![1]!, 16);
      expect(inside).toBeLessThanOrEqual(n);
    }
  });

  it('checks the COMP sizes against the packet and the inflated data', () => {
    const raw = smallRaw();
    const stream = pako.deflate(raw, { level: 6 });

    const tooLong = withAswmPayload(comp(raw, stream.length + 1));
    expect(readError(tooLong.file)).toMatchObject({ format: 'nwn2-aswm', offset: tooLong.payloadOffset + 4, field: 'ASWM COMP compressed size' });

    const declaredShort = readError(withAswmPayload(comp(raw, undefined, raw.length - 1)).file);
    expect(declaredShort.field).toMatch(/ASWM COMP (uncompressed size|zlib stream)/);
    const declaredLong = readError(withAswmPayload(comp(raw, undefined, raw.length + 100)).file);
    expect(declaredLong).toMatchObject({ field: 'ASWM COMP uncompressed size' });
    expect(declaredLong.found).toMatch(new RegExp(`${raw.length + 100} declared, ${raw.length} inflated`));

    const huge = readError(withAswmPayload(comp(raw, undefined, 200 * 1024 * 1024)).file);
    expect(huge).toMatchObject({ field: 'ASWM COMP uncompressed size' });
    expect(huge.expected).toMatch(/128 MiB/);

    const corrupt = comp(raw);
    corrupt[12 + 40] ^= 0xff;
    corrupt[12 + 41] ^= 0x55;
    expect(readError(withAswmPayload(corrupt).file).field).toMatch(/^ASWM COMP zlib stream|^ASWM COMP uncompressed size|^ASWM\(decompressed\)/);
  });

  it('never allocates from an inflated count: the count field is named at its offset', () => {
    const raw = smallRaw();
    const cases: [number, string][] = [
      [37, 'header.vertices_count'],
      [41, 'header.edges_count'],
      [45, 'header.triangles_count'],
    ];
    for (const [at, field] of cases) {
      const e = readError(withAswmPayload(comp(setU32(raw, at, 0xfffffff0))).file);
      expect(e.field).toBe(`ASWM(decompressed)+0x${at.toString(16).toUpperCase()} ${field}`);
      expect(e.found).toBe(String(0xfffffff0));
    }
    const a = loadTrx(SMALL).aswm.aswm;
    const tilesAt = 53 + a.vertices.length * 4 + a.edges.length * 4 + a.triFlags.length * 64;
    const grid = readError(withAswmPayload(comp(setU32(raw, tilesAt + 12, 0x10000))).file);
    expect(grid.field).toMatch(/tiles_header\.grid_width × grid_height$/);
    // The first tile's local count (after its 57-byte header and the path-table flags).
    const local = readError(withAswmPayload(comp(setU32(raw, tilesAt + 16 + 57 + 4, 0x7fffffff))).file);
    expect(local.field).toMatch(/tile #0 path_table\.local_count$/);
    // The first island's adjacency count.
    const islandsAt = raw.length - a.islandPaths.next.length * 8 - (a.islands.count * 36 + (a.islands.adjacent.length + a.islands.distance.length + a.islands.exit.length) * 4);
    const adj = readError(withAswmPayload(comp(setU32(raw, islandsAt + 24, 0x40000000))).file);
    expect(adj.field).toMatch(/baked island 0 adjacent_islands\.count$/);
    const version = readError(withAswmPayload(comp(setU32(raw, 0, 0x6d))).file);
    expect(version).toMatchObject({ found: '0x6D' });
    expect(version.expected).toMatch(/0x69, 0x6A, 0x6B or 0x6C/);
  });

  it('refuses compressed path tables, whose layout nobody knows', () => {
    const raw = smallRaw();
    const a = loadTrx(SMALL).aswm.aswm;
    const tilesAt = 53 + a.vertices.length * 4 + a.edges.length * 4 + a.triFlags.length * 64;
    const e = readError(withAswmPayload(comp(setU32(raw, tilesAt + 16 + 57, 2))).file);
    expect(e.field).toMatch(/tile #0 path_table\.flags$/);
    expect(e.expected).toMatch(/compressed path tables are not supported/);
  });

  it('checks the container: magic, packet table, types and TRWH size', () => {
    const { bytes } = loadTrx(SMALL);
    expect(readError(setU32(bytes, 0, 0x4e57_4e31))).toMatchObject({ format: 'nwn2-trx', offset: 0, field: 'magic' });
    expect(readError(setU32(bytes, 8, 0x7fffffff))).toMatchObject({ offset: 8, field: 'packet_count' });
    expect(readError(setU32(bytes, 16, bytes.length + 10)).field).toMatch(/^packet table entry #0 \(TRWH\) offset$/);
    const typo = bytes.slice();
    typo[12] = 'X'.charCodeAt(0);
    expect(readError(typo)).toMatchObject({ field: 'packet #0 type', offset: 28 });
    const c = readNwn2Container(bytes, 'nwn2-trx');
    const shortTrwh = writeNwn2Container(c, c.packets.map((p) => ({ type: p.type, payload: p.type === 'TRWH' ? p.payload.subarray(0, 8) : p.payload })));
    expect(readError(shortTrwh)).toMatchObject({ field: 'TRWH payload size', found: '8 bytes' });
  });

  it('reads any mutation of a raw walkmesh or reports it as malformed, and writes what it reads unchanged', () => {
    // An uncompressed ASWM payload (spec §3.1) lets random mutations reach every field.
    const { file } = withAswmPayload(smallRaw());
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(file.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), (edits) => {
        const bytes = file.slice();
        for (const [at, v] of edits) bytes[at] = v;
        let doc;
        try {
          doc = readTrx(bytes, env);
        } catch (e) {
          expect(isMalformedInputError(e)).toBe(true);
          return;
        }
        expect(firstDifference(writeTrx(doc, env), bytes)).toBeNull();
        expect(() => validateTrx(doc)).not.toThrow();
        expect(() => summarizeTrx(doc)).not.toThrow();
        try {
          trxToWalkmeshes(doc, 'x');
        } catch (e) {
          expect(e).toBeInstanceOf(ModelMappingError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a walkmesh stored uncompressed as it was, and compresses it once edited', () => {
    const { file } = withAswmPayload(smallRaw());
    const doc = readTrx(file, env);
    const p = aswmPacketOf(doc)!;
    expect(p.compressed).toBe(false);
    expect(firstDifference(writeTrx(doc, env), file)).toBeNull();
    p.aswm.triFlags[0] ^= 0x40;
    const edited = readTrx(writeTrx(doc, env), env);
    expect(aswmPacketOf(edited)!.compressed).toBe(true);
    expect(aswmPacketOf(edited)!.aswm.triFlags[0]).toBe(p.aswm.triFlags[0]);
  });
});
