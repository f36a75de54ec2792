import { describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { byteStringToBytes } from '../../../shared/formats/aurora/byte-string';
import { cellInteger } from '../../../shared/formats/aurora/twoda-table';
import { TwoDaText } from '../../../shared/formats/aurora/twoda-text';
import { readAnyTwoDa, readTwoDaBinary, sniffTwoDaBinary, TwoDaBinary, writeTwoDaBinary } from '../../../shared/formats/aurora/twoda-binary';
import { createRng } from '../../fuzz/prng';
import { caught, firstDifference } from '../aurora/aurora-test-support';

/**
 * A placeables.2da-like table built by hand from the documented V2.b layout (see
 * twoda-binary.ts), not by the writer: the data block shares "plc_chair" between rows 0
 * and 2 and puts the strings in an order the canonical writer would not choose.
 */
function handBuilt(): Uint8Array {
  const data = 'plc_chair\0Chair\0\0Footlocker\0plc_footlkr\0' + '005\0';
  const at = (s: string) => data.indexOf(`${s}\0`);
  const cells = [
    [at('Chair'), at('plc_chair'), at('005')],
    [at('Footlocker'), at('plc_footlkr'), 16],
    [at('Chair'), at('plc_chair'), 16],
  ];
  const head = byteStringToBytes('2DA V2.b\nlabel\tmodelname\tsoundapptype\t\0', 'head');
  const labels = byteStringToBytes('0\t1\t2\t', 'labels');
  const out = new Uint8Array(head.length + 4 + labels.length + 9 * 2 + 2 + data.length);
  const view = new DataView(out.buffer);
  out.set(head, 0);
  view.setUint32(head.length, 3, true);
  let p = head.length + 4;
  out.set(labels, p);
  p += labels.length;
  for (const o of cells.flat()) {
    view.setUint16(p, o, true);
    p += 2;
  }
  view.setUint16(p, data.length, true);
  out.set(byteStringToBytes(data, 'data'), p + 2);
  return out;
}

describe('2DA V2.b', () => {
  it('reads a hand-built table through the TwoDaTable interface', () => {
    const bytes = handBuilt();
    expect(sniffTwoDaBinary(bytes)).toBe(true);
    const t = readTwoDaBinary(bytes);
    expect(t.columns).toEqual(['label', 'modelname', 'soundapptype']);
    expect(t.rowCount).toBe(3);
    expect([t.rowLabel(2), t.rowLabel(3)]).toEqual(['2', undefined]);
    expect(t.cell(0, 'ModelName')).toBe('plc_chair');
    expect(t.cell(1, 0)).toBe('Footlocker');
    expect(t.cell(1, 'soundapptype')).toBeUndefined();
    expect(cellInteger(t, 0, 'soundapptype')).toBe(5);
    expect(t.cell(2, 'modelname')).toBe('plc_chair');
    expect([t.cell(0, 'nope'), t.cell(9, 0), t.cell(0, 3)]).toEqual([undefined, undefined, undefined]);
    expect(t.columnIndex('SOUNDAPPTYPE')).toBe(2);
  });

  it('writes an unedited table back byte for byte, an edited one canonically', () => {
    const bytes = handBuilt();
    const t = readTwoDaBinary(bytes);
    expect(t.unedited).toBe(true);
    expect(firstDifference(writeTwoDaBinary(t), bytes)).toBeNull();
    const canonical = t.encodeCanonical();
    expect(firstDifference(canonical, bytes)).not.toBeNull();
    const same = readTwoDaBinary(canonical);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) expect(same.cell(r, c)).toBe(t.cell(r, c));

    t.setCell(1, 'soundapptype', '7');
    t.setCell(0, 'label', undefined);
    expect(t.unedited).toBe(false);
    const edited = readTwoDaBinary(writeTwoDaBinary(t));
    expect([edited.cell(1, 'soundapptype'), edited.cell(0, 'label'), edited.cell(2, 'label')]).toEqual(['7', undefined, 'Chair']);
  });

  it('shares equal strings once in the canonical data block', () => {
    const t = TwoDaBinary.create(['a', 'b']);
    t.addRow(['x', 'x']);
    t.addRow({ b: 'yy' });
    t.addRow(['x', undefined], 'last');
    const out = t.write();
    // header 9 + "a\tb\t\0" 5 + rowCount 4 + "0\t1\tlast\t" 9 + 6 offsets × 2 + size 2 + "x\0\0yy\0" 6
    expect(out.length).toBe(9 + 5 + 4 + 9 + 12 + 2 + 6);
    const back = readTwoDaBinary(out);
    expect([back.rowLabel(2), back.cell(1, 'b'), back.cell(1, 'a'), back.cell(2, 0)]).toEqual(['last', 'yy', undefined, 'x']);
  });

  it('refuses text that cannot be stored and data past 65535 bytes', () => {
    const t = TwoDaBinary.create(['a']);
    expect(() => t.addRow(['has\ttab'])).toThrow(RangeError);
    expect(() => TwoDaBinary.create(['\u0100'])).toThrow(RangeError);
    for (let i = 0; i < 70; i++) t.addRow([String(i).padStart(1000, 'x')]);
    expect(() => t.write()).toThrow(RangeError);
  });

  it('readAnyTwoDa reads both encodings', () => {
    const text = TwoDaText.create(['modelname']);
    text.addRow(['plc_chair']);
    const fromText = readAnyTwoDa(byteStringToBytes(text.toText(), 'text'));
    expect(fromText.cell(0, 'modelname')).toBe('plc_chair');
    expect(readAnyTwoDa(handBuilt()).cell(1, 'modelname')).toBe('plc_footlkr');
    expect(caught(() => readAnyTwoDa(new Uint8Array([1, 2, 3]))).field).toBe('signature');
  });

  it('refuses corrupted tables with MalformedInputError naming the field', () => {
    const bytes = handBuilt();
    const view = (b: Uint8Array) => new DataView(b.buffer);
    const rowCountAt = bytes.indexOf(0, 9) + 1;
    const inflated = bytes.slice();
    view(inflated).setUint32(rowCountAt, 0x7fffffff, true);
    expect(caught(() => readTwoDaBinary(inflated)).field).toBe('rowCount');
    const badOffset = bytes.slice();
    const offsetsAt = rowCountAt + 4 + 6;
    view(badOffset).setUint16(offsetsAt + 2, 60000, true);
    expect(caught(() => readTwoDaBinary(badOffset)).field).toBe('cellOffsets[0][1]');
    const badSize = bytes.slice();
    view(badSize).setUint16(offsetsAt + 18, 999, true);
    expect(caught(() => readTwoDaBinary(badSize)).field).toBe('dataSize');
    expect(caught(() => readTwoDaBinary(bytes.subarray(0, 5))).field).toBe('signature');
  });

  it('every truncation and random corruption fails only with MalformedInputError', () => {
    const bytes = handBuilt();
    for (let n = 0; n < bytes.length; n++) {
      expect(caught(() => readTwoDaBinary(bytes.subarray(0, n)))).toBeInstanceOf(MalformedInputError);
    }
    const rng = createRng(0x2da);
    for (let t = 0; t < 2000; t++) {
      const b = bytes.slice();
      for (let k = 0; k < 3; k++) b[rng.below(b.length)] = rng.pick([0, 9, 0xff, rng.below(256)]);
      try {
        readTwoDaBinary(b).encodeCanonical();
      } catch (e) {
        expect(e).toBeInstanceOf(MalformedInputError);
      }
    }
  });
});
