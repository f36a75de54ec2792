import { describe, expect, it } from 'vitest';
import { readErf } from '../../../shared/formats/aurora/erf-reader';
import {
  createGffDocument,
  createGffStruct,
  GffType,
  type GffDocument,
  type GffField,
  type GffStruct,
} from '../../../shared/formats/aurora/gff-document';
import { getFloat, getList, getStruct, gff, setField } from '../../../shared/formats/aurora/gff-fields';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { encodeGffCanonical, writeGff } from '../../../shared/formats/aurora/gff-writer';
import { readGitWalkmeshCutters } from '../../../shared/formats/aurora/nwn2-git';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { firstDifference, u32At } from './aurora-test-support';

/** The tree without the reader's file offsets, for deep comparison with a built tree. */
function plain(s: GffStruct): unknown {
  return {
    type: s.type,
    fields: s.fields.map((f) =>
      f.type === GffType.Struct ? { ...f, value: plain(f.value) } : f.type === GffType.List ? { ...f, value: f.value.map(plain) } : f,
    ),
  };
}

function everyType(): GffDocument {
  const nested = createGffStruct(7, [gff.float('x', 1.5), gff.float('y', -0), gff.float('z', Math.fround(1e-45))]);
  const root = createGffStruct(0xffffffff, [
    gff.byte('Byte', 255),
    gff.char('Char', -128),
    gff.word('Word', 65535),
    gff.short('Short', -32768),
    gff.dword('Dword', 0xffffffff),
    gff.int('Int', -0x80000000),
    gff.dword64('Dword64', (1n << 64n) - 1n),
    gff.int64('Int64', -(1n << 63n)),
    gff.float('Float', Number.POSITIVE_INFINITY),
    gff.double('Double', Math.PI),
    gff.exoString('ExoString', 'caf\xe9 \xff\x80 with spaces'),
    gff.resRef('ResRef', ''),
    gff.locString('LocString', { strRef: 0xffffffff, strings: [{ id: 0, text: 'English' }, { id: 3, text: 'Fran\xe7aise' }] }),
    gff.void('Void', Uint8Array.from([0, 1, 2, 254, 255])),
    gff.struct('Struct', nested),
    gff.list('EmptyList', []),
    gff.list('List', [createGffStruct(1, [gff.int('A', 1)]), createGffStruct(2)]),
    gff.orientation('Orientation', [0, 0, Math.fround(Math.SQRT1_2), Math.fround(Math.SQRT1_2)]),
    gff.vector('Vector', [1, -2, 3.25]),
    gff.exoString('SixteenCharLabel', 'labels may use all 16 bytes'),
  ]);
  return createGffDocument('TST ', root);
}

describe('GFF editing and writing', () => {
  it('writes and reads back every field type with its extreme values', () => {
    const doc = everyType();
    const back = readGff(writeGff(doc));
    expect(back.fileType).toBe('TST ');
    expect(plain(back.root)).toEqual(plain(doc.root));
    // -0 and the smallest denormal survive as float32 bit patterns.
    const nested = getStruct(back.root, 'Struct');
    expect(Object.is(getFloat(nested, 'y'), -0)).toBe(true);
    expect(getFloat(nested, 'z')).toBe(2 ** -149);
  });

  it('writes a struct without fields with data 0xFFFFFFFF and count 0', () => {
    const bytes = writeGff(everyType());
    const structOffset = u32At(bytes, 8);
    const structCount = u32At(bytes, 12);
    const empty: number[] = [];
    for (let i = 0; i < structCount; i++) if (u32At(bytes, structOffset + i * 12 + 8) === 0) empty.push(u32At(bytes, structOffset + i * 12 + 4));
    expect(empty).toEqual([0xffffffff]);
  });

  it('changes one placeable coordinate in CSLMordMansion.GIT and changes nothing else', () => {
    const original = readFixture(`${fixturesRoot}/nwn2/mordmansion/CSLMordMansion.GIT`);
    const doc = readGff(original);
    const placeable = getList(doc.root, 'Placeable List')[3]!;
    const x = getFloat(placeable, 'X');
    setField(placeable, gff.float('X', x + 10));
    const written = writeGff(doc);
    expect(written.length).toBe(original.length);
    expect(firstDifference(written, original)).not.toBeNull();

    const back = readGff(written);
    const again = getList(back.root, 'Placeable List')[3]!;
    expect(getFloat(again, 'X')).toBe(Math.fround(x + 10));
    setField(again, gff.float('X', x));
    expect(firstDifference(writeGff(back), original)).toBeNull();
  });

  it('adds a walkmesh cutter to the TriggerList of WalkmeshObjects.git', () => {
    const doc = readGff(readFixture(`${fixturesRoot}/nwn2/nwn-lib-d/WalkmeshObjects.git`));
    const before = readGitWalkmeshCutters(doc).length;
    const square = [[0, 0], [4, 0], [4, 3], [0, 3]].map(([px, py]) =>
      createGffStruct(3, [gff.float('PointX', px!), gff.float('PointY', py!), gff.float('PointZ', 0)]),
    );
    getList(doc.root, 'TriggerList').push(
      createGffStruct(1, [
        gff.int('Type', 3),
        gff.exoString('Tag', 'NewCutter'),
        gff.float('XPosition', 20),
        gff.float('YPosition', 30),
        gff.float('ZPosition', 0),
        gff.list('Geometry', square),
      ]),
    );
    const back = readGff(writeGff(doc));
    const cutters = readGitWalkmeshCutters(back);
    expect(cutters).toHaveLength(before + 1);
    const added = cutters[cutters.length - 1]!;
    expect(added.tag).toBe('NewCutter');
    expect(Array.from(added.polygon)).toEqual([20, 30, 24, 30, 24, 33, 20, 33]);
    expect(back.preserved).toBeUndefined();
  });

  it('writes an edited non-canonical GFF in the canonical layout, holding the edit', () => {
    const capsule = readErf(readFixture(`${fixturesRoot}/kotor/pykotor/capsule.mod`));
    const pthBytes = capsule.resources.find((r) => r.type === 3003)!.data;
    const doc = readGff(pthBytes);
    expect(doc.preserved).toBeDefined();
    const point = getList(doc.root, 'Path_Points')[0]!;
    setField(point, gff.float('X', 123.5));
    const written = writeGff(doc);
    expect(firstDifference(written, pthBytes)).not.toBeNull();
    const back = readGff(written);
    expect(back.preserved).toBeUndefined();
    expect(getFloat(getList(back.root, 'Path_Points')[0]!, 'X')).toBe(123.5);
    expect(firstDifference(encodeGffCanonical(back), encodeGffCanonical(doc))).toBeNull();
  });

  it('nests 20,000 structs deep without overflowing the call stack', () => {
    const root = createGffStruct(0xffffffff);
    let s = root;
    for (let i = 0; i < 20000; i++) {
      const child = createGffStruct(i);
      s.fields.push(gff.struct('Child', child));
      s = child;
    }
    const back = readGff(writeGff(createGffDocument('DEEP', root)));
    let depth = 0;
    let t = back.root;
    while (t.fields.length > 0) {
      t = getStruct(t, 'Child');
      depth++;
    }
    expect(depth).toBe(20000);
    expect(t.type).toBe(19999);
  });

  it.each<[string, () => GffField]>([
    ['a BYTE of 256', () => gff.byte('B', 256)],
    ['a CHAR of 128', () => gff.char('C', 128)],
    ['an INT of 2^31', () => gff.int('I', 2 ** 31)],
    ['a fractional DWORD', () => gff.dword('D', 1.5)],
    ['a DWORD64 of -1', () => gff.dword64('Q', -1n)],
    ['a label of 17 characters', () => gff.int('SeventeenCharsXYZ', 1)],
    ['a non-byte character', () => gff.exoString('S', 'snow \u2603')],
    ['a ResRef of 256 bytes', () => gff.resRef('R', 'r'.repeat(256))],
    ['a 2-component Vector', () => ({ label: 'V', type: GffType.Vector, value: [1, 2] as unknown as [number, number, number] })],
  ])('refuses to write %s', (_what, make) => {
    const doc = createGffDocument('TST ', createGffStruct(0xffffffff, [make()]));
    expect(() => writeGff(doc)).toThrow(RangeError);
  });

  it('refuses to write a struct that contains itself', () => {
    const root = createGffStruct(0xffffffff);
    const child = createGffStruct(1);
    child.fields.push(gff.list('Loop', [child]));
    root.fields.push(gff.struct('Child', child));
    expect(() => writeGff(createGffDocument('TST ', root))).toThrow(/contains itself/);
  });
});
