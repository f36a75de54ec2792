import { describe, expect, it } from 'vitest';
import { createGffStruct, GffType } from '../../../shared/formats/aurora/gff-document';
import {
  findField,
  getField,
  getFloat,
  getInteger,
  getInteger64,
  getList,
  getLocString,
  getNumber,
  getResRef,
  getText,
  gff,
  optFloat,
  optInteger,
  optList,
  removeField,
  setField,
} from '../../../shared/formats/aurora/gff-fields';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { caught } from './aurora-test-support';

describe('GFF field access', () => {
  const s = createGffStruct(9, [
    gff.byte('Static', 1),
    gff.dword('Appearance', 687),
    gff.float('X', 40.5),
    gff.resRef('TemplateResRef', 'plc_mc_stage01'),
    gff.exoString('Tag', 'PLC_MC_STAGE01'),
    gff.list('VarTable', []),
  ]);

  it('finds fields by label and reads them with typed getters', () => {
    expect(findField(s, 'X')?.type).toBe(GffType.Float);
    expect(findField(s, 'x')).toBeUndefined();
    expect(getInteger(s, 'Appearance')).toBe(687);
    expect(getInteger(s, 'Static')).toBe(1);
    expect(getInteger64(s, 'Appearance')).toBe(687n);
    expect(getFloat(s, 'X')).toBe(40.5);
    expect(getNumber(s, 'Appearance')).toBe(687);
    expect(getResRef(s, 'TemplateResRef')).toBe('plc_mc_stage01');
    expect(getText(s, 'Tag')).toBe('PLC_MC_STAGE01');
    expect(getList(s, 'VarTable')).toEqual([]);
  });

  it('gives defaults for missing optional fields but still checks types', () => {
    expect(optFloat(s, 'Bearing', 0.25)).toBe(0.25);
    expect(optInteger(s, 'IsWalkable', 0)).toBe(0);
    expect(optList(s, 'ItemList')).toEqual([]);
    expect(() => optFloat(s, 'Tag', 0)).toThrow(/'Tag'.*expected FLOAT or DOUBLE, found CExoString/);
  });

  it('names the label, the struct and both types when a getter fails', () => {
    const e = caught(() => getFloat(s, 'Appearance'));
    expect(e).toMatchObject({ format: 'gff', field: "'Appearance' in struct type 9", expected: 'FLOAT or DOUBLE', found: 'DWORD' });
    expect(caught(() => getField(s, 'Bearing'))).toMatchObject({ field: "'Bearing' in struct type 9", found: 'no such field' });
    expect(caught(() => getLocString(s, 'Tag'))).toMatchObject({ expected: 'CExoLocString', found: 'CExoString' });
  });

  it('points a getter error at the struct entry in the file it came from', () => {
    const doc = readGff(readFixture(`${fixturesRoot}/nwn2/mordmansion/CSLMordMansion.GIT`));
    const placeable = getList(doc.root, 'Placeable List')[0]!;
    expect(placeable.fileOffset).toBeGreaterThan(56);
    expect(caught(() => getFloat(placeable, 'Tag')).offset).toBe(placeable.fileOffset);
  });

  it('replaces a field in place, appends a new one and removes one', () => {
    const t = createGffStruct(1, [gff.int('A', 1), gff.int('B', 2)]);
    setField(t, gff.int('A', 10));
    setField(t, gff.float('C', 3));
    expect(t.fields.map((f) => [f.label, f.value])).toEqual([['A', 10], ['B', 2], ['C', 3]]);
    expect(removeField(t, 'B')).toBe(true);
    expect(removeField(t, 'B')).toBe(false);
    expect(t.fields.map((f) => f.label)).toEqual(['A', 'C']);
  });
});
