import { describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { createGffDocument, createGffStruct } from '../../../shared/formats/aurora/gff-document';
import { gff } from '../../../shared/formats/aurora/gff-fields';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { writeGff } from '../../../shared/formats/aurora/gff-writer';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { createRng } from '../../fuzz/prng';
import { caught, firstDifference, u32At, withU32 } from './aurora-test-support';

/** Root { Name: CExoString, L: List [struct 1 {A: INT}, struct 2 {B: INT}] }. */
function sample(): Uint8Array {
  const root = createGffStruct(0xffffffff, [
    gff.exoString('Name', 'sample'),
    gff.list('L', [createGffStruct(1, [gff.int('A', 1)]), createGffStruct(2, [gff.int('B', 2)])]),
  ]);
  return writeGff(createGffDocument('TST ', root));
}

const header = {
  structOffset: 8,
  structCount: 12,
  fieldOffset: 16,
  fieldCount: 20,
  labelCount: 28,
  fieldDataOffset: 32,
  fieldDataCount: 36,
  listIndicesOffset: 48,
  listIndicesCount: 52,
};

describe('GFF reader errors', () => {
  it('reads the sample it is built on', () => {
    expect(readGff(sample()).root.fields.map((f) => f.label)).toEqual(['Name', 'L']);
  });

  it('refuses a file shorter than the header', () => {
    const e = caught(() => readGff(sample().subarray(0, 40)));
    expect(e.format).toBe('gff');
    expect(e).toMatchObject({ offset: 0, field: 'header' });
  });

  it('refuses another version', () => {
    const bytes = sample();
    bytes.set([0x56, 0x34, 0x2e, 0x30], 4);
    expect(caught(() => readGff(bytes))).toMatchObject({ offset: 4, field: 'version', found: '"V4.0"' });
  });

  it('refuses a file type that is not text', () => {
    const bytes = sample();
    bytes[1] = 0;
    expect(caught(() => readGff(bytes))).toMatchObject({ offset: 0, field: 'fileType' });
  });

  it('checks a struct count against the file size before allocating', () => {
    const e = caught(() => readGff(withU32(sample(), header.structCount, 0x7fffffff)));
    expect(e).toMatchObject({ offset: header.structCount, field: 'structCount', found: String(0x7fffffff) });
  });

  it('refuses a section offset past the end of the file', () => {
    const e = caught(() => readGff(withU32(sample(), header.fieldDataOffset, 1 << 30)));
    expect(e).toMatchObject({ offset: header.fieldDataOffset, field: 'fieldDataOffset' });
  });

  it('refuses a label count past the end of the file', () => {
    expect(caught(() => readGff(withU32(sample(), header.labelCount, 1e6)))).toMatchObject({ field: 'labelCount' });
  });

  it('refuses a list that points back at the root (a cycle)', () => {
    const bytes = sample();
    const list = u32At(bytes, header.listIndicesOffset);
    const e = caught(() => readGff(withU32(bytes, list + 4, 0)));
    expect(e.offset).toBe(list + 4);
    expect(e.field).toContain("'L'");
    expect(e.found).toMatch(/cyclic or shared/);
  });

  it('refuses a struct listed twice (shared)', () => {
    const bytes = sample();
    const list = u32At(bytes, header.listIndicesOffset);
    const e = caught(() => readGff(withU32(bytes, list + 8, u32At(bytes, list + 4))));
    expect(e.offset).toBe(list + 8);
    expect(e.found).toMatch(/already reached/);
  });

  it('refuses a list count larger than the list indices', () => {
    const bytes = sample();
    const list = u32At(bytes, header.listIndicesOffset);
    const e = caught(() => readGff(withU32(bytes, list, 1000)));
    expect(e).toMatchObject({ offset: list, found: '1000' });
    expect(e.field).toMatch(/'L' \(List\)\.count/);
  });

  it('refuses an unknown field type, naming the struct and field', () => {
    const bytes = sample();
    const fields = u32At(bytes, header.fieldOffset);
    const e = caught(() => readGff(withU32(bytes, fields, 99)));
    expect(e).toMatchObject({ offset: fields, field: "structs[0].fields[0] 'Name'.type", expected: 'a field type 0..17', found: '99' });
  });

  it('refuses a label index past the label table', () => {
    const bytes = sample();
    const fields = u32At(bytes, header.fieldOffset);
    const e = caught(() => readGff(withU32(bytes, fields + 4, 50)));
    expect(e).toMatchObject({ offset: fields + 4, field: 'structs[0].fields[0].label', found: '50' });
  });

  it('refuses a string running past the field data', () => {
    const bytes = sample();
    const data = u32At(bytes, header.fieldDataOffset);
    const e = caught(() => readGff(withU32(bytes, data, 5000)));
    expect(e.offset).toBe(data);
    expect(e.field).toBe("structs[0].fields[0] 'Name' (CExoString)");
  });

  it('refuses a struct whose field index is out of range', () => {
    const bytes = sample();
    const structs = u32At(bytes, header.structOffset);
    // Struct 1 has one field: its data is the field index.
    const e = caught(() => readGff(withU32(bytes, structs + 12 + 4, 77)));
    expect(e).toMatchObject({ offset: structs + 16, field: 'structs[1].fieldIndex', found: '77' });
  });

  it('refuses structs that all reuse one field-index block (quadratic blow-up)', () => {
    const items = Array.from({ length: 100 }, (_, i) => createGffStruct(1, [gff.int('A', i), gff.int('B', i)]));
    let bytes = writeGff(createGffDocument('TST ', createGffStruct(0xffffffff, [gff.list('L', items)])));
    const structs = u32At(bytes, header.structOffset);
    const slots = u32At(bytes, 44) / 4;
    for (let i = 1; i <= 100; i++) {
      bytes = withU32(bytes, structs + i * 12 + 4, 0);
      bytes = withU32(bytes, structs + i * 12 + 8, slots);
    }
    expect(caught(() => readGff(bytes)).expected).toBe('each field-index entry used by one struct only');
  });

  it('refuses many fields sharing one large field-data block (memory blow-up)', () => {
    const big = gff.void('Big', new Uint8Array(60000));
    const items = Array.from({ length: 2000 }, () => createGffStruct(1, [gff.void('V', new Uint8Array(4))]));
    let bytes = writeGff(createGffDocument('TST ', createGffStruct(0xffffffff, [big, gff.list('L', items)])));
    const fields = u32At(bytes, header.fieldOffset);
    for (let i = 0; i < u32At(bytes, header.fieldCount); i++) if (u32At(bytes, fields + i * 12) === 13) bytes = withU32(bytes, fields + i * 12 + 8, 0);
    const e = caught(() => readGff(bytes));
    expect(e.found).toMatch(/shared by too many fields/);
  });

  it.each(['nwn2/nwn-lib-d/TestImportExportTRN.git', 'kotor/pykotor/test.git', 'kotor/pykotor/zio001.git'])(
    'never crashes on mutations of %s; what it accepts it writes back as read',
    (name) => {
      const original = readFixture(`${fixturesRoot}/${name}`);
      const rng = createRng(0x6ff + original.length);
      let refused = 0;
      for (let i = 0; i < 300; i++) {
        let bytes: Uint8Array = original.slice();
        if (i % 5 === 0) bytes = bytes.slice(0, rng.below(bytes.length));
        else {
          const edits = 1 + rng.below(4);
          for (let k = 0; k < edits; k++) {
            const at = rng.below(bytes.length - 3);
            if (rng.below(2) === 0) bytes[at] = rng.below(256);
            else bytes = withU32(bytes, at & ~3, rng.pick([0, 1, 0xff, 0xffff, 0x7fffffff, 0xffffffff, rng.below(1 << 20)]));
          }
        }
        try {
          const doc = readGff(bytes);
          expect(firstDifference(writeGff(doc), bytes)).toBeNull();
        } catch (e) {
          if (!(e instanceof MalformedInputError)) throw e;
          expect(e.format).toBe('gff');
          refused++;
        }
      }
      expect(refused).toBeGreaterThan(0);
    },
  );
});
