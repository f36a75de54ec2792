import { describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { validateBwm } from '../../../shared/formats/kotor/bwm-validate';
import { writeBwm } from '../../../shared/formats/kotor/bwm-writer';
import { fixturesRoot, readFixture } from '../../support/fixtures';

const wok = (): Uint8Array => readFixture(`${fixturesRoot}/kotor/pykotor/test.wok`).slice();

function malformed(bytes: Uint8Array): MalformedInputError {
  try {
    readBwm(bytes);
  } catch (e) {
    if (e instanceof MalformedInputError) return e;
    throw e;
  }
  throw new Error('expected a MalformedInputError');
}

const codes = (bytes: Uint8Array): string[] => validateBwm(readBwm(bytes)).map((f) => f.code);

describe('malformed BWM input', () => {
  it('refuses a short header', () => {
    const e = malformed(wok().subarray(0, 100));
    expect(e.format).toBe('kotor-bwm');
    expect(e.field).toBe('header');
    expect(e.offset).toBe(0);
  });

  it('refuses a wrong magic and version, naming the field', () => {
    const b = wok();
    b[0] = 0x58;
    expect(malformed(b).field).toBe('magic');
    const c = wok();
    c[6] = 0x39; // "V1.9"... not V1.0
    expect(malformed(c)).toMatchObject({ field: 'version', offset: 4 });
  });

  it('checks a huge count against the file before allocating', () => {
    const b = wok();
    new DataView(b.buffer).setUint32(0x48, 0x40000000, true);
    const e = malformed(b);
    expect(e.field).toBe('vertices count');
    expect(e.offset).toBe(0x48);
    expect(e.found).toBe(String(0x40000000));
  });

  it('refuses an offset past the end of the file', () => {
    const b = wok();
    new DataView(b.buffer).setUint32(0x7c, b.length + 8, true);
    expect(malformed(b)).toMatchObject({ field: 'edgesOffset', offset: 0x7c });
  });

  it('a truncated file fails at the first section that no longer fits', () => {
    const b = wok();
    expect(malformed(b.subarray(0, b.length - 4)).field).toBe('perimeters count');
  });

  it('reads garbage edge indices (face*6 + edge) and validation names them', () => {
    const doc = readBwm(wok());
    for (let i = 0; i < doc.edgeIndex.length; i++) {
      const f = Math.floor(doc.edgeIndex[i]! / 3);
      doc.edgeIndex[i] = f * 6 + (doc.edgeIndex[i]! % 3);
    }
    const findings = validateBwm(readBwm(writeBwm(doc)));
    const wrong = findings.find((f) => f.code === 'bwm.edges.not-perimeter');
    expect(wrong?.subject?.kind).toBe('edge');
    expect(wrong?.message).toMatch(/^face \d+ edge \d/);
    expect(findings.map((f) => f.code)).toContain('bwm.edges.missing');
    doc.edgeIndex[0] = 1_000_000;
    expect(codes(writeBwm(doc))).toContain('bwm.edges.index');
  });

  it('reads a zero perimeter count and validation reports it', () => {
    const doc = readBwm(wok());
    doc.perimeters = new Uint32Array(0);
    expect(codes(writeBwm(doc))).toContain('bwm.perimeters.missing');
  });

  it('reads z-inverted AABB boxes and validation reports them', () => {
    const doc = readBwm(wok());
    const f = new Float32Array(doc.aabb.buffer);
    for (let k = 0; k < doc.aabb.length / 11; k++) {
      f[k * 11 + 2] = f[k * 11 + 2]! + 10;
      f[k * 11 + 5] = f[k * 11 + 5]! - 10;
    }
    expect(codes(writeBwm(doc))).toContain('bwm.aabb.inverted');
  });

  it('reads 1-based AABB children and validation reports them', () => {
    const doc = readBwm(wok());
    for (let k = 0; k < doc.aabb.length / 11; k++) {
      if (doc.aabb[k * 11 + 6] === 0xffffffff) {
        doc.aabb[k * 11 + 9]!++;
        doc.aabb[k * 11 + 10]!++;
      }
    }
    const found = codes(writeBwm(doc));
    expect(found.some((c) => c === 'bwm.aabb.child' || c === 'bwm.aabb.parents')).toBe(true);
  });

  it('rejects out-of-range face vertex indices in validation without crashing', () => {
    const doc = readBwm(wok());
    doc.faces[4] = 999999;
    const findings = validateBwm(doc);
    expect(findings[0]).toMatchObject({ code: 'bwm.face.vertex-index', subject: { kind: 'face', id: 1 } });
  });

  it('any garbage in a header count or offset either reads or fails with MalformedInputError, and validation never throws', () => {
    let seed = 12345;
    const random = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    let failures = 0;
    for (let trial = 0; trial < 400; trial++) {
      const b = wok();
      const field = 0x48 + 4 * Math.floor(random() * 16);
      const value = [0, 1, 0xffffffff, Math.floor(random() * b.length), Math.floor(random() * 2 ** 32)][trial % 5]!;
      new DataView(b.buffer).setUint32(field, value, true);
      let doc;
      try {
        doc = readBwm(b);
      } catch (e) {
        expect(e).toBeInstanceOf(MalformedInputError);
        failures++;
        continue;
      }
      expect(() => validateBwm(doc)).not.toThrow();
    }
    expect(failures).toBeGreaterThan(0);
  });
});
