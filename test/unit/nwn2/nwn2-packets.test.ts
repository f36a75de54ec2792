import { describe, expect, it } from 'vitest';
import { BinaryWriter } from '../../../shared/binary/binary-writer';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { detectFormat } from '../../../shared/formats/format-registry';
import { mdbFormat } from '../../../shared/formats/nwn2/mdb-format';
import { readMdb, readMdbWalkmeshes } from '../../../shared/formats/nwn2/mdb-reader';
import { readNwn2Container, writeNwn2Container } from '../../../shared/formats/nwn2/nwn2-container';
import { readTrrn } from '../../../shared/formats/nwn2/trrn-packet';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { validateTrx } from '../../../shared/formats/nwn2/trx-validate';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { readFixture } from '../../support/fixtures';
import { env, firstDifference, fixture, loadTrx, trxFiles } from './nwn2-fixtures';

const BALCONY = 'nwn-lib-d/PLC_MC_BALCONY3.MDB';

function name(w: BinaryWriter, text: string, size: number): void {
  const b = new Uint8Array(size);
  for (let i = 0; i < text.length; i++) b[i] = text.charCodeAt(i);
  w.bytes(b);
}

/** A TRRN payload laid out as spec §2.3 says (exteriors are not among the fixtures). */
function trrnPayload(opts: { badIndex?: boolean } = {}): Uint8Array {
  const w = new BinaryWriter();
  name(w, 'megatile', 128);
  for (let i = 0; i < 6; i++) name(w, `tex${i}`, 32);
  for (let i = 0; i < 18; i++) w.f32(i / 18);
  w.u32(4); // vertices
  w.u32(2); // triangles
  for (let v = 0; v < 4; v++) {
    w.f32(v % 2 === 0 ? 0 : 40); // x
    w.f32(v < 2 ? 0 : 40); // y
    w.f32(v * 0.5); // z
    for (const n of [0, 0, 1]) w.f32(n); // normal
    w.bytes(new Uint8Array([10, 20, 30, 255])); // BGRA tint
    for (const uv of [v % 2, v >> 1]) w.f32(uv);
    for (const weight of [0.25, 0.75]) w.f32(weight);
  }
  for (const i of [0, 1, 2, 2, 1, opts.badIndex ? 9 : 3]) w.u16(i);
  w.u32(5); // DDS A
  w.bytes(new Uint8Array([68, 68, 83, 32, 1]));
  w.u32(3); // DDS B
  w.bytes(new Uint8Array([68, 68, 83]));
  w.u32(1); // grass
  name(w, 'grass', 32);
  name(w, 'grass_tex', 32);
  w.u32(2);
  for (let i = 0; i < 18; i++) w.f32(i);
  return w.finish();
}

/** Mord Mansion's TRX with a TRRN packet after the TRWH. */
function withTrrn(payload: Uint8Array): Uint8Array {
  const bytes = readFixture(fixture('mordmansion/CSLMordMansion.TRX'));
  const c = readNwn2Container(bytes, 'nwn2-trx');
  const packets = c.packets.map((p) => ({ type: p.type, payload: p.payload }));
  packets.splice(1, 0, { type: 'TRRN', payload });
  return writeNwn2Container(c, packets);
}

describe('NWN2 terrain and water packets', () => {
  it('parses every WATR packet of the fixtures as the spec lays it out', () => {
    let count = 0;
    for (const file of trxFiles) {
      for (const p of readTrx(readFixture(file), env).packets) {
        if (p.kind !== 'watr') continue;
        count++;
        expect(p.parseError).toBeNull();
        const w = p.watr!;
        expect([w.positions.length / 3, w.triangles.length / 3, w.triangleFlags.length, w.dds.length, w.trailingBytes]).toEqual([625, 1152, 1152, 16512, 0]);
        expect(w.triangleFlags.every((f) => f === 0 || f === 1)).toBe(true);
        expect(w.textures).toHaveLength(3);
      }
    }
    expect(count).toBeGreaterThan(100);
  });

  it('parses a TRRN megatile, keeps its bytes and checks its indices', () => {
    const t = readTrrn(trrnPayload());
    expect(t.textureNames).toEqual(['tex0', 'tex1', 'tex2', 'tex3', 'tex4', 'tex5']);
    expect(Array.from(t.positions.subarray(9, 12))).toEqual([40, 40, 1.5]);
    expect(Array.from(t.tints.subarray(0, 4))).toEqual([10, 20, 30, 255]);
    expect(Array.from(t.triangles)).toEqual([0, 1, 2, 2, 1, 3]);
    expect([t.ddsA.length, t.ddsB.length, t.trailingBytes]).toEqual([5, 3, 0]);
    expect(t.grass).toHaveLength(1);
    expect(t.grass[0]).toMatchObject({ name: 'grass', texture: 'grass_tex' });
    expect(t.grass[0]!.blades).toHaveLength(18);

    const file = withTrrn(trrnPayload());
    const doc = readTrx(file, env);
    expect(doc.packets.map((p) => p.kind)).toEqual(['trwh', 'trrn', 'aswm']);
    expect(firstDifference(writeTrx(doc, env), file)).toBeNull();
    expect(validateTrx(doc).filter((f) => f.severity === 'error')).toEqual([]);

    const bad = readTrx(withTrrn(trrnPayload({ badIndex: true })), env);
    expect(validateTrx(bad).filter((f) => f.code === 'nwn2.trrn.vertex-out-of-range')).toHaveLength(1);
  });

  it('keeps a TRRN packet it cannot parse and says so', () => {
    const payload = trrnPayload().subarray(0, 500);
    expect(() => readTrrn(payload)).toThrow(/TRRN/);
    const file = withTrrn(payload);
    const doc = readTrx(file, env);
    const p = doc.packets[1]!;
    expect(p.kind === 'trrn' && p.trrn === null && p.parseError).toMatch(/nwn2-trrn at offset \d+/);
    expect(firstDifference(writeTrx(doc, env), file)).toBeNull();
    expect(validateTrx(doc).map((f) => f.code)).toContain('nwn2.trrn.unparsed');
  });
});

describe('NWN2 container layout', () => {
  it('gives back a file whose packets are not back to back as it was, until a packet changes', () => {
    const { bytes } = loadTrx('mordmansion/CSLMordMansion.TRX');
    // Move the ASWM packet 16 bytes further, leaving a gap of zeros after the TRWH.
    const c = readNwn2Container(bytes, 'nwn2-trx');
    const aswmAt = c.packets[1]!.payloadOffset - 8;
    const gapped = new Uint8Array(bytes.length + 16);
    gapped.set(bytes.subarray(0, aswmAt));
    gapped.set(bytes.subarray(aswmAt), aswmAt + 16);
    new DataView(gapped.buffer).setUint32(12 + 8 + 4, aswmAt + 16, true);
    const doc = readTrx(gapped, env);
    expect(doc.irregularLayout).not.toBeNull();
    expect(firstDifference(writeTrx(doc, env), gapped)).toBeNull();
    const p = doc.packets[0]!;
    if (p.kind !== 'trwh') throw new Error('TRWH expected first');
    p.trwh.id = 0;
    const edited = writeTrx(doc, env);
    expect(edited.length).toBe(bytes.length);
    expect(readTrx(edited, env).irregularLayout).toBeNull();
  });
});

describe('NWN2 MDB walkmeshes', () => {
  it('reads the WALK packet of PLC_MC_BALCONY3.MDB', () => {
    const bytes = readFixture(fixture(BALCONY));
    const doc = readMdb(bytes);
    expect([doc.versionMajor, doc.versionMinor]).toEqual([1, 12]);
    expect(doc.packets.map((p) => p.type)).toEqual(['RIGD', 'WALK', 'COL2', 'COL3']);
    const [walk, ...more] = readMdbWalkmeshes(bytes);
    expect(more).toEqual([]);
    expect(walk!.name).toBe('PLC_MC_BALCONY3_W');
    expect(walk!.positions.length / 3).toBe(33);
    expect(walk!.faceFlags.length).toBe(50);
    expect(walk!.faceFlags.filter((f) => f === 0x41)).toHaveLength(22);
    expect(walk!.faceFlags.filter((f) => f === 0)).toHaveLength(28);
    let curtain = 0;
    for (let v = 2; v < walk!.positions.length; v += 3) if (walk!.positions[v] === -1_000_000) curtain++;
    expect(curtain).toBe(18);
    expect(Math.max(...walk!.faces)).toBeLessThan(33);
  });

  it('writes the model back byte for byte and gives one walkmesh per WALK packet', () => {
    const bytes = readFixture(fixture(BALCONY));
    const doc = mdbFormat.read(bytes, env);
    expect(firstDifference(mdbFormat.write(doc, env), bytes)).toBeNull();
    const [mesh] = mdbFormat.toWalkmeshes(doc, 'balcony');
    expect(mesh!.name).toBe('balcony PLC_MC_BALCONY3_W');
    expect(mesh!.faceWalkable.reduce((n, w) => n + w, 0)).toBe(22);
    expect(mdbFormat.validate(doc)).toEqual([]);
    expect(mdbFormat.summarize(doc).counts).toMatchObject({ walkmeshes: 1, vertices: 33, faces: 50, walkableFaces: 22, curtainVertices: 18 });
  });

  it('reports an inflated WALK count as malformed input at the count', () => {
    const bytes = readFixture(fixture(BALCONY)).slice();
    const walkAt = readNwn2Container(bytes, 'nwn2-mdb').packets[1]!.payloadOffset;
    new DataView(bytes.buffer).setUint32(walkAt + 40, 0x40000000, true);
    try {
      readMdb(bytes);
      expect.unreachable();
    } catch (e) {
      expect(isMalformedInputError(e)).toBe(true);
      expect(e).toMatchObject({ format: 'nwn2-mdb', offset: walkAt + 40, field: 'WALK face count' });
    }
  });

  it('tells models from area files by their header, whatever the extension', () => {
    const mdb = readFixture(fixture(BALCONY));
    const trx = loadTrx('kaedrin/enter world.trn').bytes;
    expect(detectFormat('PLC_MC_BALCONY3.MDB', mdb)?.id).toBe('nwn2-mdb');
    expect(detectFormat('enter world.trn', trx)?.id).toBe('nwn2-trx');
    expect(detectFormat('renamed.trx', mdb)?.id).toBe('nwn2-mdb');
    expect(detectFormat('renamed.mdb', trx)?.id).toBe('nwn2-trx');
    expect(detectFormat("harper's hill cave.TRX", undefined)?.id).toBe('nwn2-trx');
  });
});
