import { describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { walkRecords, type PluginDocument, type PluginRecord } from '../../../shared/formats/skyrim/plugin-document';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { writePlugin } from '../../../shared/formats/skyrim/plugin-writer';
import { env, firstDifference, readFixturePlugin } from './skyrim-helpers';

/** Reads `bytes`; returns the MalformedInputError it throws, 'ok', or rethrows anything else. */
function outcome(bytes: Uint8Array): MalformedInputError | 'ok' {
  try {
    readPlugin(bytes, env);
    return 'ok';
  } catch (e) {
    if (e instanceof MalformedInputError) return e;
    throw e;
  }
}

function patched(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(offset, value >>> 0, true);
  return out;
}

function firstRecord(doc: PluginDocument, pred: (r: PluginRecord) => boolean): PluginRecord {
  for (const { record } of walkRecords(doc.items)) if (pred(record)) return record;
  throw new Error('no such record');
}

function u32At(bytes: Uint8Array, offset: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(offset, true);
}

describe('malformed Skyrim plugins', () => {
  it('rejects every truncation that cuts a record or group, and only with MalformedInputError', () => {
    const { bytes } = readFixturePlugin('FreeCamera.esp');
    let rejected = 0;
    let tried = 0;
    for (let n = 0; n < bytes.length; n += 37) {
      tried++;
      const r = outcome(bytes.subarray(0, n));
      if (r !== 'ok') {
        rejected++;
        expect(r.format).toBe('skyrim-plugin');
      }
    }
    expect(rejected).toBeGreaterThan(tried * 0.95);
  });

  it('rejects inflated record, group and subrecord sizes', () => {
    const { bytes, doc } = readFixturePlugin('FreeCamera.esp');
    const navm = firstRecord(doc, (r) => r.signature === 'NAVM');
    const e1 = outcome(patched(bytes, navm.sourceOffset + 4, 0x7fffffff));
    expect(e1).toBeInstanceOf(MalformedInputError);
    expect((e1 as MalformedInputError).field).toContain('NAVM 0x01000D69');
    expect((e1 as MalformedInputError).offset).toBe(navm.sourceOffset + 4);
    const groupOffset = bytes.indexOf(0x47, 24); // the first GRUP after the header record
    expect(String.fromCharCode(...bytes.subarray(groupOffset, groupOffset + 4))).toBe('GRUP');
    expect(outcome(patched(bytes, groupOffset + 4, bytes.length))).toBeInstanceOf(MalformedInputError);
    expect(outcome(patched(bytes, groupOffset + 4, 3))).toBeInstanceOf(MalformedInputError);
    // HEDR's u16 size grown past the header record.
    const hedr = bytes.slice();
    hedr[28] = 0xff;
    expect((outcome(hedr) as MalformedInputError).field).toContain('HEDR.size');
  });

  it('rejects a corrupt zlib stream and wrong declared sizes with the record named', () => {
    const { bytes, doc } = readFixturePlugin('FreeCamera.esp');
    const rec = firstRecord(doc, (r) => r.compressed && r.signature === 'NAVM');
    const data = rec.sourceOffset + 24;
    const declared = u32At(bytes, data);
    const corrupt = bytes.slice();
    for (let i = data + 8; i < data + 16; i++) corrupt[i] = corrupt[i]! ^ 0x5a;
    const e = outcome(corrupt);
    expect(e).toBeInstanceOf(MalformedInputError);
    expect((e as MalformedInputError).field).toMatch(/NAVM 0x01000D69 zlib stream/);
    expect(outcome(patched(bytes, data, declared - 1))).toBeInstanceOf(MalformedInputError);
    expect(outcome(patched(bytes, data, declared + 1))).toBeInstanceOf(MalformedInputError);
    const huge = outcome(patched(bytes, data, 0xfffffff0));
    expect((huge as MalformedInputError).field).toContain('uncompressedSize');
  });

  it('rejects NVNM counts larger than the data, naming the decompressed record', () => {
    const { doc } = readFixturePlugin('FreeCamera.esp');
    const navm = firstRecord(doc, (r) => r.signature === 'NAVM');
    // Vertex count (offset 16 in NVNM) set huge inside the compressed record.
    const sub = navm.subrecords[0]!;
    expect(sub.kind).toBe('nvnm');
    if (sub.kind !== 'nvnm') return;
    const original = writePlugin(doc, env);
    navm.subrecords[0] = { kind: 'raw', signature: 'NVNM', data: (() => {
      const d = new Uint8Array(16 + 4);
      new DataView(d.buffer).setUint32(0, 12, true);
      new DataView(d.buffer).setUint32(16, 0x40000000, true);
      return d;
    })() };
    const bad = writePlugin(doc, env);
    expect(firstDifference(bad, original)).not.toBeNull();
    const e = outcome(bad);
    expect(e).toBeInstanceOf(MalformedInputError);
    expect((e as MalformedInputError).format).toBe('skyrim-nvnm');
    expect((e as MalformedInputError).field).toContain('NAVM 0x01000D69 decompressed NVNM.vertices.count');
  });

  it('survives random byte damage with MalformedInputError or a clean read', () => {
    const { bytes } = readFixturePlugin('FreeCamera.esp');
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed / 0x100000000;
    };
    let errors = 0;
    for (let i = 0; i < 150; i++) {
      const b = bytes.slice();
      for (let k = 0; k < 4; k++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
      if (outcome(b) !== 'ok') errors++;
    }
    expect(errors).toBeGreaterThan(0);
  });
});

describe('XXXX size overflow', () => {
  function syntheticPlugin(compressed: boolean): PluginDocument {
    const big = new Uint8Array(70000).map((_, i) => (i * 31) & 0xff);
    const hedr = new Uint8Array(12);
    return {
      items: [
        { kind: 'record', signature: 'TES4', flags: 0, formId: 0, versionControl1: 0, formVersion: 44, versionControl2: 0, compressed: false, sourceOffset: -1, subrecords: [{ kind: 'raw', signature: 'HEDR', data: hedr }] },
        {
          kind: 'group', label: 0x4d54_4154, groupType: 0, timestamp: 0, versionControl: 0, unknown: 0,
          children: [
            { kind: 'record', signature: 'STAT', flags: compressed ? 0x40000 : 0, formId: 0x01000800, versionControl1: 0, formVersion: 44, versionControl2: 0, compressed, sourceOffset: -1, subrecords: [{ kind: 'raw', signature: 'EDID', data: new Uint8Array([0x41, 0]) }, { kind: 'raw', signature: 'DATA', data: big }] },
          ],
        },
      ],
    };
  }

  it.each([false, true])('writes and reads a subrecord over 65,535 bytes (compressed: %s)', (compressed) => {
    const bytes = writePlugin(syntheticPlugin(compressed), env);
    const doc = readPlugin(bytes, env);
    const rec = firstRecord(doc, (r) => r.signature === 'STAT');
    const data = rec.subrecords[1]!;
    expect(data.signature).toBe('DATA');
    expect(data.overflow).toEqual({ sizeField: 0 });
    expect(data.kind === 'raw' && data.data.length).toBe(70000);
    expect(rec.compressed).toBe(compressed);
    if (!compressed) expect(String.fromCharCode(...bytes.subarray(24 + 18 + 24 + 24 + 8, 24 + 18 + 24 + 24 + 12))).toBe('XXXX');
    expect(firstDifference(writePlugin(doc, env), bytes)).toBeNull();
  });

  it('rejects an XXXX with nothing after it', () => {
    const doc = syntheticPlugin(false);
    const bytes = writePlugin(doc, env);
    const cut = bytes.slice(0, 24 + 18 + 24 + 24 + 8 + 10);
    new DataView(cut.buffer).setUint32(24 + 18 + 4, 24 + 24 + 8 + 10, true);
    new DataView(cut.buffer).setUint32(24 + 18 + 24 + 4, 8 + 10, true);
    expect((outcome(cut) as MalformedInputError).field).toContain('XXXX');
  });
});
