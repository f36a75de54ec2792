import { describe, expect, it } from 'vitest';
import { EditError } from '../../../shared/edits/edit-error';
import { gffStructFromJson, gffStructToJson } from '../../../shared/edits/gff-struct-json';
import { encodeGffCanonical } from '../../../shared/formats/aurora/gff-writer';
import { createGffDocument, type GffStruct } from '../../../shared/formats/aurora/gff-document';
import { gff } from '../../../shared/formats/aurora/gff-fields';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { fixturesRoot, readFixture } from '../../support/fixtures';

function encode(s: GffStruct): Uint8Array {
  return encodeGffCanonical(createGffDocument('GIT ', s));
}

describe('GFF structs as JSON for the edit history', () => {
  it('every field type survives a trip through JSON text, bit for bit', () => {
    const s: GffStruct = {
      type: 7,
      fields: [
        gff.byte('B', 255),
        gff.char('C', -3),
        gff.word('W', 65535),
        gff.short('S', -32768),
        gff.dword('D', 0xffffffff),
        gff.int('I', -2147483648),
        gff.dword64('D64', 0xffffffffffffffffn),
        gff.int64('I64', -9007199254740993n),
        gff.float('F', -0),
        gff.float('Fnan', Number.NaN),
        gff.float('Fsmall', 1.401298464324817e-45),
        gff.double('Dbl', Math.PI),
        gff.exoString('E', 'héllo'),
        gff.resRef('R', 'plc_mc_balcony3'),
        gff.locString('L', { strRef: 0xffffffff, strings: [{ id: 0, text: 'Walkmesh cutter' }] }),
        gff.void('V', new Uint8Array([0, 1, 254, 255])),
        gff.struct('St', { type: 3, fields: [gff.float('PointX', 1.5)] }),
        gff.list('Li', [{ type: 3, fields: [gff.float('PointY', -2.25)] }, { type: 3, fields: [] }]),
        gff.orientation('O', [0, 0, Math.fround(0.7071068), Math.fround(0.7071068)]),
        gff.vector('Vec', [1, -0, Math.fround(1e-7)]),
      ],
    };
    const back = gffStructFromJson(JSON.parse(JSON.stringify(gffStructToJson(s))), 'test');
    expect(Buffer.compare(encode(back), encode(s))).toBe(0);
    expect(Object.is((back.fields.find((f) => f.label === 'F')!.value as number), -0)).toBe(true);
  });

  it('every placeable of a real GIT comes back as it was', () => {
    const git = readGff(readFixture(`${fixturesRoot}/nwn2/mordmansion/CSLMordMansion.GIT`));
    const list = git.root.fields.find((f) => f.label === 'Placeable List')!.value as GffStruct[];
    expect(list.length).toBeGreaterThan(0);
    for (const p of list) expect(Buffer.compare(encode(gffStructFromJson(JSON.parse(JSON.stringify(gffStructToJson(p))), 'p')), encode(p))).toBe(0);
  });

  it('a damaged entry names the field and what was expected', () => {
    expect(() => gffStructFromJson({ type: 1, fields: [{ label: 'X', type: 8, value: 'a' }] }, 'history')).toThrow(EditError);
    expect(() => gffStructFromJson({ type: 1, fields: [{ label: 'X', type: 8, value: 'a' }] }, 'history')).toThrow(/history\.fields\[0\] \(X\)/);
    expect(() => gffStructFromJson({ type: 1, fields: [{ label: 'X', type: 99, value: 1 }] }, 'h')).toThrow(/known GFF field type/);
    expect(() => gffStructFromJson([], 'h')).toThrow(/expected \{ type, fields/);
  });
});
