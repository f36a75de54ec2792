import { describe, expect, it } from 'vitest';
import { isMalformedInputError, type MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { readBsp } from '../../../shared/formats/source/bsp-reader';
import { VBSP_LUMP } from '../../../shared/formats/source/vbsp-reader';
import { fixturesRoot, readFixture } from '../../support/fixtures';

/**
 * Broken maps are refused with an error naming the file, the offset and the field: a
 * real GoldSrc and a real Source map, each damaged in one place (copies in memory).
 */
const goldsrc = () => readFixture(`${fixturesRoot}/source-maps/cs16-cslinux/aim_map.bsp`).slice();
const vbsp = () => readFixture(`${fixturesRoot}/source-maps/tf2-bsp_tool/test2.bsp`).slice();
const dv = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

function refusal(bytes: Uint8Array, name = 'maps/broken.bsp'): MalformedInputError {
  try {
    readBsp(bytes, name);
  } catch (e) {
    if (isMalformedInputError(e)) return e;
    throw e;
  }
  throw new Error('readBsp accepted the damaged map');
}

/** Offset/length of GoldSrc lump i, Source lump i. */
const gsLump = (b: Uint8Array, i: number) => ({ offset: dv(b).getInt32(4 + i * 8, true), length: dv(b).getInt32(8 + i * 8, true) });
const vLump = (b: Uint8Array, i: number) => ({ offset: dv(b).getInt32(8 + i * 16, true), length: dv(b).getInt32(12 + i * 16, true) });

describe('readBsp refuses damaged maps', () => {
  it('names an unknown version', () => {
    const b = goldsrc();
    dv(b).setInt32(0, 29, true);
    const e = refusal(b);
    expect(e.file).toBe('maps/broken.bsp');
    expect(e.field).toBe('version');
    expect(e.message).toMatch(/maps\/broken\.bsp: .*version 30/);
  });

  it('refuses a VBSP version outside 19–21', () => {
    const b = vbsp();
    dv(b).setInt32(4, 23, true);
    expect(refusal(b).field).toBe('version');
  });

  it('refuses a truncated header and a lump past the end of the file', () => {
    expect(refusal(goldsrc().subarray(0, 40)).field).toBe('header');
    expect(refusal(vbsp().subarray(0, 500)).field).toBe('header');
    const b = goldsrc().subarray(0, 200_000);
    const e = refusal(b);
    expect(e.field).toMatch(/^lump \d+ \(\w+\) offset\/length$/);
    expect(e.offset).toBeLessThan(4 + 15 * 8);
  });

  it('refuses a lump that is not a whole number of entries', () => {
    const b = goldsrc();
    dv(b).setInt32(8 + 7 * 8, gsLump(b, 7).length - 3, true);
    const e = refusal(b);
    expect(e.field).toBe('lump 7 (faces).length');
    expect(e.expected).toMatch(/multiple of the 20-byte entry/);
  });

  it('names the face whose edge run leaves the surfedges', () => {
    const b = goldsrc();
    const faces = gsLump(b, 7);
    dv(b).setInt32(faces.offset + 5 * 20 + 4, 1 << 28, true);
    const e = refusal(b);
    expect(e.field).toBe('lump 7 (faces)[5].firstEdge/numEdges');
    expect(e.offset).toBe(faces.offset + 5 * 20);
  });

  it('names an edge that points past the vertices and a surfedge past the edges', () => {
    const b = vbsp();
    const edges = vLump(b, VBSP_LUMP.edges);
    dv(b).setUint16(edges.offset + 4 * 4 + 2, 0xffff, true);
    expect(refusal(b).field).toBe('lump 12 (edges)[4].vertex[1]');
    const c = vbsp();
    const se = vLump(c, VBSP_LUMP.surfedges);
    dv(c).setInt32(se.offset + 8, -100000, true);
    expect(refusal(c).field).toBe('lump 13 (surfedges)[2]');
  });

  it('names a displacement whose vertex run leaves disp_verts, and a bad power', () => {
    const b = vbsp();
    const info = vLump(b, VBSP_LUMP.dispinfo);
    dv(b).setInt32(info.offset + 176 + 12, 1_000_000, true);
    expect(refusal(b).field).toBe('lump 26 (dispinfo)[1].DispVertStart');
    const c = vbsp();
    dv(c).setInt32(info.offset + 20, 9, true);
    expect(refusal(c).field).toBe('lump 26 (dispinfo)[0].power');
  });

  it('refuses faces sharing an edge run, models sharing faces and faces sharing a displacement (what is drawn stays bounded by the file)', () => {
    const b = goldsrc();
    const faces = gsLump(b, 7);
    // Every face claims the longest run the surfedges allow.
    for (let f = 0; f < faces.length / 20; f++) {
      dv(b).setInt32(faces.offset + f * 20 + 4, 0, true);
      dv(b).setInt16(faces.offset + f * 20 + 8, 64, true);
    }
    expect(refusal(b).field).toMatch(/^lump 7 \(faces\)\[\d+\]\.numEdges$/);
    const c = goldsrc();
    const models = gsLump(c, 14);
    const faceCount = gsLump(c, 7).length / 20;
    dv(c).setInt32(models.offset + 64 + 56, 0, true);
    dv(c).setInt32(models.offset + 64 + 60, faceCount, true);
    expect(refusal(c).field).toBe('lump 14 (models)[1].numfaces');
    const d = vbsp();
    const vfaces = vLump(d, VBSP_LUMP.faces);
    const info = vLump(d, VBSP_LUMP.dispinfo);
    const face0 = dv(d).getUint16(info.offset + 36, true);
    const other = face0 === 0 ? 1 : 0;
    dv(d).setInt16(vfaces.offset + other * 56 + 12, 0, true);
    expect(refusal(d).field).toBe(`lump 7 (faces)[${Math.max(face0, other)}].dispinfo`);
  });

  it('names the lump whose LZMA header does not hold a stream', () => {
    const b = vbsp();
    const faces = vLump(b, VBSP_LUMP.faces);
    b.set([0x4c, 0x5a, 0x4d, 0x41], faces.offset);
    dv(b).setUint32(faces.offset + 4, 1000, true);
    dv(b).setUint32(faces.offset + 8, 200, true);
    const e = refusal(b);
    expect(e.field).toBe('lump 7 (faces) LZMA stream');
    expect(e.offset).toBeGreaterThanOrEqual(faces.offset + 17);
  });

  it('refuses a texdata naming a string past the table', () => {
    const b = vbsp();
    const td = vLump(b, VBSP_LUMP.texdata);
    dv(b).setInt32(td.offset + 32 + 12, 5000, true);
    expect(refusal(b).field).toBe('lump 2 (texdata)[1].nameStringTableID');
  });
});
