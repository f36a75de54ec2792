import { describe, expect, it } from 'vitest';
import { readErf } from '../../../shared/formats/aurora/erf-reader';
import { GffType, type GffStruct } from '../../../shared/formats/aurora/gff-document';
import { readGff, sniffGff } from '../../../shared/formats/aurora/gff-reader';
import { encodeGffCanonical, writeGff } from '../../../shared/formats/aurora/gff-writer';
import { fixtureName, fixturesRoot, readFixture } from '../../support/fixtures';
import { firstDifference, gffFixtures, u32At } from './aurora-test-support';

const files = gffFixtures();

function countTree(root: GffStruct): { structs: number; fields: number } {
  let structs = 0;
  let fields = 0;
  const stack = [root];
  while (stack.length > 0) {
    const s = stack.pop()!;
    structs++;
    for (const f of s.fields) {
      fields++;
      if (f.type === GffType.Struct) stack.push(f.value);
      else if (f.type === GffType.List) stack.push(...f.value);
    }
  }
  return { structs, fields };
}

describe('GFF V3.2 round trip', () => {
  it('finds the GIT, ARE and GIC fixtures of both games', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    expect(files.some((f) => f.includes('kotor'))).toBe(true);
  });

  it.each(files.map((f) => [fixtureName(f), f]))('%s is written back byte for byte by the canonical writer', (_name, file) => {
    const bytes = readFixture(file);
    const doc = readGff(bytes);
    expect(doc.version).toBe('V3.2');
    expect(['GIT ', 'ARE ', 'GIC ']).toContain(doc.fileType);
    // Reproduced from the layout rules alone, not from kept bytes.
    expect(doc.preserved).toBeUndefined();
    expect(firstDifference(encodeGffCanonical(doc), bytes)).toBeNull();
    expect(firstDifference(writeGff(doc), bytes)).toBeNull();
    // Every struct and field of the file is in the tree (header counts at 12 and 20).
    expect(countTree(doc.root)).toEqual({ structs: u32At(bytes, 12), fields: u32At(bytes, 20) });
  });

  it('reads KotOR Orientation and Vector fields (types 16, 17) from test.git', () => {
    const doc = readGff(readFixture(`${fixturesRoot}/kotor/pykotor/test.git`));
    const types = new Set<number>();
    const stack = [doc.root];
    while (stack.length > 0) {
      const s = stack.pop()!;
      for (const f of s.fields) {
        types.add(f.type);
        if (f.type === GffType.Struct) stack.push(f.value);
        if (f.type === GffType.List) stack.push(...f.value);
        if (f.type === GffType.Orientation) expect(f.value).toHaveLength(4);
        if (f.type === GffType.Vector) expect(f.value).toHaveLength(3);
      }
    }
    expect(types.has(GffType.Orientation)).toBe(true);
    expect(types.has(GffType.Vector)).toBe(true);
  });

  const archived = ['nwn2/nwn-lib-d/module.mod', 'kotor/pykotor/capsule.mod'].flatMap((name) =>
    readErf(readFixture(`${fixturesRoot}/${name}`))
      .resources.filter((r) => sniffGff(r.data))
      .map((r) => [`${name}: ${r.resRef} (${r.type})`, r.data] as const),
  );

  it('finds the GFF resources inside the archive fixtures (IFO, DLG, UTC, JRL, FAC, ARE, GIT, PTH)', () => {
    expect(archived.length).toBe(8);
  });

  it.each(archived)('%s is written back byte for byte', (_name, data) => {
    const doc = readGff(data);
    expect(firstDifference(writeGff(doc), data)).toBeNull();
  });

  it('keeps the original bytes of a GFF in another layout (001ebo.pth: structs not in pre-order)', () => {
    const pth = archived.find(([name]) => name.includes('001ebo (3003)'))![1];
    const doc = readGff(pth);
    expect(doc.preserved).toBeDefined();
    expect(firstDifference(encodeGffCanonical(doc), pth)).not.toBeNull();
    expect(firstDifference(writeGff(doc), pth)).toBeNull();
  });
});
