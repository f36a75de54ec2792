import { describe, expect, it } from 'vitest';
import { isMalformedInputError, type MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { lzmaDecode, LzmaError } from '../../../shared/binary/lzma-decoder';
import { bspLevelContextPieces } from '../../../shared/formats/source/bsp-level-context';
import { readBsp } from '../../../shared/formats/source/bsp-reader';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { LZMA_LUMPS, lzmaPropsAndStream, withLzmaLumps } from '../../support/lzma-lumps';

/**
 * LZMA-compressed lumps: the decoder against liblzma's encoder on six real lumps, and a real
 * map rebuilt with those lumps compressed behind Valve's 17-byte `LZMA` header reads the
 * same as the original.
 */
const original = readFixture(`${fixturesRoot}/source-maps/tf2-bsp_tool/test_physcollide.bsp`);
const dv = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

function lumpBytes(bytes: Uint8Array, index: number): Uint8Array {
  const o = dv(bytes).getInt32(8 + index * 16, true);
  return bytes.subarray(o, o + dv(bytes).getInt32(12 + index * 16, true));
}

function compressedMap(edit?: (header: DataView, stream: Uint8Array, index: number) => void): Uint8Array {
  return withLzmaLumps(original, edit);
}

function refusal(bytes: Uint8Array): MalformedInputError {
  try {
    readBsp(bytes, 'maps/packed.bsp');
  } catch (e) {
    if (isMalformedInputError(e)) return e;
    throw e;
  }
  throw new Error('readBsp accepted the damaged map');
}

describe('LZMA lumps', () => {
  it('decodes liblzma streams of six real lumps to the lumps', () => {
    for (const l of LZMA_LUMPS) {
      const ps = lzmaPropsAndStream(l);
      const out = lzmaDecode(ps.subarray(5), ps.subarray(0, 5), l.size);
      expect(Buffer.from(out).equals(lumpBytes(original, l.index)), `lump ${l.index}`).toBe(true);
    }
  });

  it('fails on a cut stream and a bad first byte, never reading past the input', () => {
    const ps = lzmaPropsAndStream(LZMA_LUMPS.find((l) => l.index === 7)!);
    expect(() => lzmaDecode(ps.subarray(5, ps.length - 40), ps.subarray(0, 5), 2464)).toThrow(LzmaError);
    const bad = ps.slice();
    bad[5] = 1;
    expect(() => lzmaDecode(bad.subarray(5), bad.subarray(0, 5), 2464)).toThrow(/first stream byte/);
    expect(() => lzmaDecode(ps.subarray(5), Uint8Array.of(225, 0, 0, 1, 0), 10)).toThrow(LzmaError);
  });

  it('reads a map whose lumps are compressed the same as the original', () => {
    const packed = compressedMap();
    expect(packed.length).not.toBe(original.length);
    const a = readBsp(original, 'maps/test_physcollide.bsp');
    const b = readBsp(packed, 'maps/test_physcollide.bsp');
    expect(LZMA_LUMPS.every((l) => b.lumps[l.index]!.compressed)).toBe(true);
    expect(b.planes).toEqual(a.planes);
    expect(b.vertices).toEqual(a.vertices);
    expect(b.edges).toEqual(a.edges);
    expect(b.surfedges).toEqual(a.surfedges);
    expect(b.faces).toEqual(a.faces);
    expect(b.textures).toEqual(a.textures);
    expect(bspLevelContextPieces(b)).toEqual(bspLevelContextPieces(a));
  });

  it('names the lump of a cut stream, and charges the declared size to the budget first', () => {
    const cut = refusal(compressedMap((h, _s, index) => index === 7 && h.setUint32(8, 100, true)));
    expect(cut.field).toBe('lump 7 (faces) LZMA stream');
    const huge = refusal(compressedMap((h, _s, index) => index === 1 && h.setUint32(4, 0xfffffff0, true)));
    expect(huge.field).toBe('lump 1 (planes).actualSize');
    expect(huge.expected).toMatch(/decompression budget/);
    // Within the budget but more than the stream holds: fails when the stream runs out.
    const over = refusal(compressedMap((h, _s, index) => index === 1 && h.setUint32(4, 100_000_000, true)));
    expect(over.field).toBe('lump 1 (planes) LZMA stream');
    expect(over.found).toMatch(/end marker after 3520 of 100000000 bytes/);
    const long = refusal(compressedMap((h, _s, index) => index === 3 && h.setUint32(8, 1 << 20, true)));
    expect(long.field).toBe('lump 3 (vertexes).lzmaSize');
  });

  it('names the lump when the stream decodes to fewer bytes than its header declares', () => {
    const e = refusal(compressedMap((h, _s, index) => index === 13 && h.setUint32(4, 1092, true)));
    expect(e.field).toBe('lump 13 (surfedges) LZMA stream');
  });
});
