import { describe, expect, it } from 'vitest';
import { cellFloat, cellInteger } from '../../../shared/formats/aurora/twoda-table';
import { parseTwoDaText, readTwoDaText, sniffTwoDaText, TwoDaText, writeTwoDaText } from '../../../shared/formats/aurora/twoda-text';
import { fixtureName, fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';
import { caught, firstDifference } from './aurora-test-support';

const files = listFixtures('nwn2/2da', ['.2da']);
const text = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

describe('2DA V2.0 text', () => {
  it('finds the 2DA fixtures', () => {
    expect(files.map(fixtureName)).toEqual(['nwn2/2da/doortypes.2da', 'nwn2/2da/placeables.2da', 'nwn2/2da/terrainmaterials.2da']);
  });

  it.each(files.map((f) => [fixtureName(f), f]))('%s is written back byte for byte', (_name, file) => {
    const bytes = readFixture(file);
    expect(sniffTwoDaText(bytes)).toBe(true);
    const table = readTwoDaText(bytes);
    expect(table.rowCount).toBeGreaterThan(500);
    expect(table.rowLabel(table.rowCount - 1)).toBe(String(table.rowCount - 1));
    expect(firstDifference(writeTwoDaText(table), bytes)).toBeNull();
  });

  describe('placeables.2da', () => {
    const table = readTwoDaText(readFixture(`${fixturesRoot}/nwn2/2da/placeables.2da`));

    it('has 25 columns and 12,722 rows', () => {
      expect(table.columns).toHaveLength(25);
      expect(table.columns[0]).toBe('Label');
      expect(table.columns[24]).toBe('SELECTION_SIZE');
      expect(table.rowCount).toBe(12722);
    });

    it('maps appearances to their NWN2 model (the GIT placeables of the fixtures)', () => {
      expect(table.cell(687, 'NWN2_ModelName')).toBe('PLC_MC_STAGE01');
      expect(table.cell(687, 'Label')).toBe('CityMStage');
      expect(table.cell(1597, 'NWN2_ModelName')).toBe('PLC_MC_BALCONY1');
      expect(table.cell(12721, 'NWN2_ModelName')).toBe('plc_qk_qkoon05c');
      expect(table.cell(12721, 'ModelName')).toBe('RESERVED');
    });

    it('looks columns up case-insensitively and by position', () => {
      expect(table.columnIndex('nwn2_modelname')).toBe(4);
      expect(table.cell(687, 'nwn2_MODELNAME')).toBe('PLC_MC_STAGE01');
      expect(table.cell(687, 4)).toBe('PLC_MC_STAGE01');
      expect(table.columnIndex('NoSuchColumn')).toBe(-1);
      expect(table.cell(687, 'NoSuchColumn')).toBeUndefined();
    });

    it('returns undefined for ****, for cells missing from short rows and past the last row', () => {
      expect(table.cell(0, 'NWN2_ModelName')).toBeUndefined();
      expect(table.cell(0, 'ModelName')).toBe('RESERVED');
      // Row 7502 stops after the Reflection column.
      expect(table.cell(7502, 'NWN2_ModelName')).toBe('PLC_BC_PLANK01');
      expect(table.cell(7502, 'StrRef')).toBe('110597');
      expect(table.cell(7502, 'BlockLOS')).toBeUndefined();
      expect(table.cell(12722, 'Label')).toBeUndefined();
      expect(table.rowLabel(-1)).toBeUndefined();
      expect(cellInteger(table, 7502, 'StrRef')).toBe(110597);
    });
  });

  it('parses spaces, tabs, quotes, DEFAULT, blank lines, LF and wrong row labels', () => {
    const t = parseTwoDaText('2DA V2.0\nDEFAULT: 7\n\n   Name      "Long Col"   Size\n0  a  "two words"  1.5\n\n5\tb\t****\n2 "" x 3 extra\n3 c\n');
    expect(t.defaultValue).toBe('7');
    expect(t.columns).toEqual(['Name', 'Long Col', 'Size']);
    expect(t.rowCount).toBe(4);
    expect(t.cell(0, 'long col')).toBe('two words');
    expect(cellFloat(t, 0, 'Size')).toBe(1.5);
    expect(t.rowLabel(1)).toBe('5');
    expect(t.cell(1, 'Name')).toBe('b');
    expect(t.cell(1, 'Long Col')).toBeUndefined();
    expect(t.cellOrDefault(1, 'Long Col')).toBe('7');
    expect(t.cell(2, 'Name')).toBe('');
    expect(t.extraCells(2)).toEqual(['extra']);
    expect(t.cell(3, 'Size')).toBeUndefined();
  });

  it('edits a cell, adds a row and changes only those lines', () => {
    const source = '2DA V2.0\r\n\r\n\tLabel\tModel\tScale\r\n0\tA\tm_a\t1\r\n1\tB\t****\t2\r\n';
    const t = readTwoDaText(text(source));
    t.setCell(1, 'model', 'new model');
    expect(t.addRow({ Label: 'C', Scale: '3' })).toBe(2);
    const written = String.fromCharCode(...writeTwoDaText(t));
    expect(written).toBe('2DA V2.0\r\n\r\n\tLabel\tModel\tScale\r\n0\tA\tm_a\t1\r\n1\tB\t"new model"\t2\r\n2\tC\t****\t3\r\n');
    const back = parseTwoDaText(written);
    expect(back.cell(1, 'Model')).toBe('new model');
    expect(back.cell(2, 'Model')).toBeUndefined();
    expect(back.cell(2, 'Label')).toBe('C');
  });

  it('edits placeables.2da and reads the edit back, every other row unchanged', () => {
    const bytes = readFixture(`${fixturesRoot}/nwn2/2da/placeables.2da`);
    const t = readTwoDaText(bytes);
    t.setCell(687, 'NWN2_ModelName', 'PLC_EDITED');
    const back = readTwoDaText(writeTwoDaText(t));
    expect(back.rowCount).toBe(t.rowCount);
    expect(back.cell(687, 'NWN2_ModelName')).toBe('PLC_EDITED');
    expect(back.cell(687, 'Label')).toBe('CityMStage');
    back.setCell(687, 'NWN2_ModelName', 'PLC_MC_STAGE01');
    expect(firstDifference(writeTwoDaText(back), bytes)).toBeNull();
  });

  it('creates a table in the game files\' layout', () => {
    const t = TwoDaText.create(['Label', 'Value']);
    t.addRow(['first', '1']);
    t.addRow(['second', undefined]);
    expect(t.toText()).toBe('2DA\tV2.0\r\n\r\n\tLabel\tValue\r\n0\tfirst\t1\r\n1\tsecond\t****\r\n');
  });

  it('refuses cells it cannot write and unknown columns', () => {
    const t = TwoDaText.create(['A']);
    t.addRow(['x']);
    expect(() => t.setCell(0, 'A', 'say "hi"')).toThrow(RangeError);
    expect(() => t.setCell(0, 'B', 'y')).toThrow(RangeError);
    expect(() => t.setCell(5, 'A', 'y')).toThrow(RangeError);
  });

  it('refuses files that are not text 2DAs, with the offending field', () => {
    expect(caught(() => parseTwoDaText('GFF V3.2\n'))).toMatchObject({ format: '2da', field: 'signature', offset: 0 });
    const binary = caught(() => parseTwoDaText('2DA V2.b\n'));
    expect(binary).toMatchObject({ field: 'version', found: '"V2.b"' });
    expect(binary.expected).toMatch(/binary 2DA of KotOR/);
    expect(caught(() => parseTwoDaText('2DA V2.0\r\n\r\n'))).toMatchObject({ field: 'columns' });
    expect(sniffTwoDaText(text('2DA V2.b'))).toBe(false);
  });
});
