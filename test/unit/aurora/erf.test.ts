import { describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { createErfDocument, ErfIndex, findErfResource, putErfResource } from '../../../shared/formats/aurora/erf-document';
import { readErf, sniffErf } from '../../../shared/formats/aurora/erf-reader';
import { encodeErfCanonical, writeErf } from '../../../shared/formats/aurora/erf-writer';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { KOTOR_RESOURCE_TYPES, Nwn2ResType, NWN2_RESOURCE_TYPES } from '../../../shared/formats/aurora/resource-types';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { createRng } from '../../fuzz/prng';
import { caught, firstDifference, u32At, withU32 } from './aurora-test-support';

const archives = ['nwn2/nwn-lib-d/module.mod', 'nwn2/nwn-lib-d/test.hak', 'kotor/pykotor/test.erf', 'kotor/pykotor/capsule.mod'];
const load = (name: string) => readFixture(`${fixturesRoot}/${name}`);

describe('ERF V1.0 / V1.1', () => {
  it.each(archives)('%s is written back byte for byte by the canonical writer', (name) => {
    const bytes = load(name);
    expect(sniffErf(bytes)).toBe(true);
    const doc = readErf(bytes);
    expect(doc.preserved).toBeUndefined();
    expect(firstDifference(encodeErfCanonical(doc), bytes)).toBeNull();
    expect(firstDifference(writeErf(doc), bytes)).toBeNull();
  });

  it('lists the 8 entries of module.mod (MOD V1.1) with their extensions and sizes', () => {
    const doc = readErf(load('nwn2/nwn-lib-d/module.mod'));
    expect([doc.fileType, doc.version]).toEqual(['MOD ', 'V1.1']);
    expect(doc.resources.map((r) => `${r.resRef}.${NWN2_RESOURCE_TYPES.extension(r.type)}`)).toEqual([
      'conversation1.dlg', 'gr_dm1.utc', 'module.ifo', 'module.jrl', 'moduledownloaderresources.xml', 'repute.fac', 'script1.nss', 'servers.xml',
    ]);
    expect(doc.resources.map((r) => r.data.length)).toEqual([835, 20330, 2050, 100, 150, 2117, 0, 314]);
    expect(doc.localizedStrings).toHaveLength(11);
    expect(doc.localizedStrings[0]).toEqual({ language: 0, text: 'module description' });
    expect([doc.buildYear + 1900, doc.buildDay]).toEqual([2016, 160]);
  });

  it('reads KotOR capsule.mod (MOD V1.0) and its GIT without copying the data', () => {
    const bytes = load('kotor/pykotor/capsule.mod');
    const doc = readErf(bytes);
    expect(doc.version).toBe('V1.0');
    expect(doc.resources.map((r) => `${r.resRef}.${KOTOR_RESOURCE_TYPES.extension(r.type)}`)).toEqual(['001ebo.are', '001ebo.git', '001ebo.pth']);
    const git = findErfResource(doc, '001EBO', 2023)!;
    expect(git.data.buffer).toBe(bytes.buffer);
    expect(git.data.byteOffset).toBe(bytes.byteOffset + 5121);
    expect(readGff(git.data).fileType).toBe('GIT ');
  });

  it('looks resources up case-insensitively, by resref and type', () => {
    const doc = readErf(load('nwn2/nwn-lib-d/module.mod'));
    const index = new ErfIndex(doc);
    expect(index.get('MODULE', Nwn2ResType.IFO)?.data.length).toBe(2050);
    expect(index.get('Module', 2056)?.data.length).toBe(100);
    expect(index.get('module', Nwn2ResType.GIT)).toBeUndefined();
    expect(findErfResource(doc, 'Gr_Dm1', 2027)?.resRef).toBe('gr_dm1');
  });

  it('adds and replaces resources, and reads them back', () => {
    const doc = readErf(load('nwn2/nwn-lib-d/test.hak'));
    putErfResource(doc, { resRef: 'newarea', type: Nwn2ResType.TRX, data: Uint8Array.from([1, 2, 3, 4, 5]) });
    putErfResource(doc, { resRef: 'TEST', type: 10, data: Uint8Array.from([0x68, 0x69]) });
    const back = readErf(writeErf(doc));
    // The replaced entry keeps its position and takes the new spelling.
    expect(back.resources.map((r) => r.resRef)).toEqual(['eye', 'TEST', 'newarea']);
    expect(Array.from(findErfResource(back, 'newarea', Nwn2ResType.TRX)!.data)).toEqual([1, 2, 3, 4, 5]);
    expect(Array.from(findErfResource(back, 'test', 10)!.data)).toEqual([0x68, 0x69]);
    expect(findErfResource(back, 'eye', 3)!.data).toEqual(findErfResource(readErf(load('nwn2/nwn-lib-d/test.hak')), 'eye', 3)!.data);
  });

  it('builds a new V1.0 archive and refuses a resref too long for its version', () => {
    const doc = createErfDocument('ERF', 'V1.0');
    doc.resources.push({ resRef: 'a'.repeat(16), type: 2016, data: new Uint8Array(3) });
    expect(readErf(writeErf(doc)).resources[0]!.resRef).toBe('a'.repeat(16));
    doc.resources.push({ resRef: 'b'.repeat(17), type: 2016, data: new Uint8Array(0) });
    expect(() => writeErf(doc)).toThrow(/longer than 16/);
    doc.version = 'V1.1';
    expect(readErf(writeErf(doc)).resources[1]!.resRef).toBe('b'.repeat(17));
  });

  it('keeps a non-canonical archive (a gap before the data) as read until it is edited', () => {
    const canonical = load('kotor/pykotor/test.erf');
    // Move the data 8 bytes further and shift the resource offsets.
    const gapped = new Uint8Array(canonical.length + 8);
    gapped.set(canonical.subarray(0, 256));
    gapped.set(canonical.subarray(256), 264);
    const resources = u32At(canonical, 28);
    let bytes: Uint8Array = gapped;
    for (let i = 0; i < 3; i++) bytes = withU32(bytes, resources + i * 8, u32At(canonical, resources + i * 8) + 8);
    const doc = readErf(bytes);
    expect(doc.preserved).toBeDefined();
    expect(firstDifference(writeErf(doc), bytes)).toBeNull();
    doc.resources[0] = { ...doc.resources[0]!, data: Uint8Array.from([9]) };
    const edited = writeErf(doc);
    expect(edited.length).toBe(canonical.length - 2);
    expect(Array.from(readErf(edited).resources[0]!.data)).toEqual([9]);
  });

  it('refuses test_corrupted.erf with the field and offset', () => {
    const e = caught(() => readErf(load('kotor/pykotor/test_corrupted.erf')));
    expect(e.format).toBe('erf');
    expect(e.offset).toBe(20);
    expect(e.field).toBe('localizedStringsOffset');
    expect(e.message).toMatch(/erf at offset 20 .*localizedStringsOffset/);
  });

  it('refuses an inflated entry count before allocating', () => {
    const e = caught(() => readErf(withU32(load('nwn2/nwn-lib-d/module.mod'), 16, 0x10000000)));
    expect(e.offset).toBe(16);
    expect(e.field).toMatch(/^entryCount/);
  });

  it('refuses a resource running past the end of the file', () => {
    const bytes = load('nwn2/nwn-lib-d/module.mod');
    const resources = u32At(bytes, 28);
    expect(caught(() => readErf(withU32(bytes, resources + 8 + 4, 1 << 20)))).toMatchObject({ offset: resources + 12, field: 'resources[1].size' });
    expect(caught(() => readErf(withU32(bytes, resources, bytes.length + 1)))).toMatchObject({ offset: resources, field: 'resources[0].offset' });
  });

  it('refuses resources that overlap many times over (a rewrite would multiply the size)', () => {
    const doc = createErfDocument('ERF', 'V1.0');
    for (let i = 0; i < 100; i++) doc.resources.push({ resRef: `r${i}`, type: 10, data: new Uint8Array(20) });
    let bytes = writeErf(doc);
    expect(readErf(bytes).resources).toHaveLength(100);
    const resources = u32At(bytes, 28);
    for (let i = 0; i < 100; i++) {
      bytes = withU32(bytes, resources + i * 8, 0);
      bytes = withU32(bytes, resources + i * 8 + 4, bytes.length);
    }
    expect(caught(() => readErf(bytes)).found).toMatch(/overlap/);
  });

  it('refuses a KotOR RIM, whose signature looks like an ERF\'s', () => {
    const rim = load('kotor/pykotor/capsule.rim');
    expect(sniffErf(rim)).toBe(false);
    expect(caught(() => readErf(rim))).toMatchObject({ offset: 0, field: 'fileType' });
  });

  it('refuses other versions and short headers', () => {
    const bytes = load('kotor/pykotor/test.erf').slice();
    bytes.set([0x56, 0x32, 0x2e, 0x30], 4);
    expect(caught(() => readErf(bytes))).toMatchObject({ offset: 4, field: 'version', found: '"V2.0"' });
    expect(caught(() => readErf(bytes.subarray(0, 100)))).toMatchObject({ offset: 0, field: 'header' });
  });

  it('refuses every truncation of test.erf and module.mod\'s header and tables', () => {
    for (const name of ['kotor/pykotor/test.erf', 'nwn2/nwn-lib-d/module.mod']) {
      const bytes = load(name);
      for (let n = 0; n < Math.min(bytes.length, 700); n++) {
        expect(() => readErf(bytes.subarray(0, n)), `${name} cut at ${n}`).toThrow(MalformedInputError);
      }
    }
  });

  it('never crashes on random mutations; what it accepts it writes back as read', () => {
    const original = load('nwn2/nwn-lib-d/module.mod');
    const rng = createRng(2011);
    let refused = 0;
    for (let i = 0; i < 300; i++) {
      let bytes: Uint8Array = original.slice();
      for (let k = 0; k < 3; k++) {
        const at = rng.below(700);
        bytes = withU32(bytes, at, rng.pick([0, 1, 0xffffffff, 0x7fffffff, rng.below(1 << 16), rng.below(bytes.length)]));
      }
      try {
        expect(firstDifference(writeErf(readErf(bytes)), bytes)).toBeNull();
      } catch (e) {
        if (!(e instanceof MalformedInputError)) throw e;
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
  });
});
