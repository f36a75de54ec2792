import { describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { readBif } from '../../../shared/formats/aurora/bif-reader';
import { readErf } from '../../../shared/formats/aurora/erf-reader';
import { readKey } from '../../../shared/formats/aurora/key-reader';
import { KotorResType } from '../../../shared/formats/aurora/resource-types';
import { createRimDocument, putRimResource } from '../../../shared/formats/aurora/rim-document';
import { readRim } from '../../../shared/formats/aurora/rim-reader';
import { KotorResourceResolver, moduleCapsuleOrder, type KotorResourceSources } from '../../../shared/formats/kotor/kotor-resource-resolver';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { buildBif, buildKey } from './key-bif-builder';

const bytesOf = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const textOf = (b: Uint8Array) => new TextDecoder().decode(b);

/** Three layers that each hold a `room01.wok`, plus resources only one layer has. */
function layers(loads: string[]): KotorResourceSources {
  const overrideFiles: Record<string, string> = { 'ROOM01.WOK': 'from override', 'Extra.PWK': 'override pwk' };
  const rim = createRimDocument();
  putRimResource(rim, { resRef: 'Room01', type: KotorResType.WOK, data: bytesOf('from rim') });
  putRimResource(rim, { resRef: 'room02', type: KotorResType.WOK, data: bytesOf('room02 from rim') });
  const rimS = createRimDocument();
  putRimResource(rimS, { resRef: 'room02', type: KotorResType.WOK, data: bytesOf('room02 from _s') });
  putRimResource(rimS, { resRef: 'm01aa', type: KotorResType.LYT, data: bytesOf('layout from _s') });
  const key = readKey(buildKey(['data\\models.bif'], [
    { resRef: 'ROOM01', type: KotorResType.WOK, bif: 0, index: 0 },
    { resRef: 'room03', type: KotorResType.WOK, bif: 0, index: 1 },
    { resRef: 'room04', type: KotorResType.WOK, bif: 0, index: 7 },
  ]));
  const bif = buildBif([
    { type: KotorResType.WOK, data: bytesOf('room01 from bif') },
    { type: KotorResType.WOK, data: bytesOf('room03 from bif') },
  ]);
  return {
    override: {
      files: Object.keys(overrideFiles),
      read: (f) => {
        loads.push(`override/${f}`);
        return bytesOf(overrideFiles[f]!);
      },
    },
    modules: [{ name: 'm01aa.rim', archive: rim }, { name: 'm01aa_s.rim', archive: rimS }],
    chitin: {
      key,
      loadBif: (b) => {
        loads.push(b.fileName);
        return readBif(bif);
      },
    },
  };
}

describe('KotorResourceResolver', () => {
  it('searches override, then the module capsules in order, then chitin.key, ignoring case', () => {
    const loads: string[] = [];
    const r = new KotorResourceResolver(layers(loads));
    const room01 = r.resolve('room01', KotorResType.WOK)!;
    expect([textOf(room01.data), room01.origin]).toEqual(['from override', { kind: 'override', file: 'ROOM01.WOK' }]);
    expect(textOf(r.resolve('ROOM02', KotorResType.WOK)!.data)).toBe('room02 from rim');
    expect(r.resolve('M01AA', KotorResType.LYT)!.origin).toEqual({ kind: 'module', archive: 'm01aa_s.rim' });
    const room03 = r.resolve('Room03', KotorResType.WOK)!;
    expect([textOf(room03.data), room03.origin]).toEqual(['room03 from bif', { kind: 'chitin', bif: 'data\\models.bif', index: 1 }]);
    expect(r.resolve('extra', KotorResType.PWK)!.origin.kind).toBe('override');
    expect(r.resolve('extra', KotorResType.DWK)).toBeUndefined();
    expect(r.resolve('nothing', KotorResType.WOK)).toBeUndefined();
    expect(loads).toEqual(['override/ROOM01.WOK', 'data\\models.bif', 'override/Extra.PWK']);
  });

  it('falls through to chitin.key when override and modules lack a resource, loading each BIF once', () => {
    const loads: string[] = [];
    const sources = layers(loads);
    const r = new KotorResourceResolver({ chitin: sources.chitin! });
    expect(textOf(r.resolve('room01', KotorResType.WOK)!.data)).toBe('room01 from bif');
    expect(textOf(r.resolve('room03', KotorResType.WOK)!.data)).toBe('room03 from bif');
    expect(loads).toEqual(['data\\models.bif']);
    expect(r.locate('ROOM01', KotorResType.WOK)).toEqual({ kind: 'chitin', bif: 'data\\models.bif', index: 0 });
  });

  it('reports a key entry past the end of its BIF as a malformed BIF', () => {
    const r = new KotorResourceResolver(layers([]));
    let thrown: unknown;
    try {
      r.resolve('room04', KotorResType.WOK);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(MalformedInputError);
    expect((thrown as MalformedInputError).file).toBe('data\\models.bif');
  });

  it('locates without reading override files or BIFs', () => {
    const loads: string[] = [];
    const r = new KotorResourceResolver(layers(loads));
    expect(r.locate('room01', KotorResType.WOK)).toEqual({ kind: 'override', file: 'ROOM01.WOK' });
    expect(r.locate('room02', KotorResType.WOK)).toEqual({ kind: 'module', archive: 'm01aa.rim' });
    expect(r.locate('room03', KotorResType.WOK)?.kind).toBe('chitin');
    expect(loads).toEqual([]);
  });

  it('reads the GIT of the real capsules, .mod and .rim alike', () => {
    const mod = readErf(readFixture(`${fixturesRoot}/kotor/pykotor/capsule.mod`));
    const rim = readRim(readFixture(`${fixturesRoot}/kotor/pykotor/capsule.rim`));
    const r = new KotorResourceResolver({ modules: [{ name: 'capsule.mod', archive: mod }, { name: 'capsule.rim', archive: rim }] });
    const git = r.resolve('001EBO', KotorResType.GIT)!;
    expect(git.origin).toEqual({ kind: 'module', archive: 'capsule.mod' });
    expect(textOf(git.data.subarray(0, 8))).toBe('GIT V3.2');
    const ifo = r.resolve('MODULE', KotorResType.IFO)!;
    expect(ifo.origin).toEqual({ kind: 'module', archive: 'capsule.rim' });
    expect(textOf(ifo.data.subarray(0, 4))).toBe('IFO ');
    const onlyRim = new KotorResourceResolver({ modules: [{ name: 'capsule.rim', archive: rim }] });
    expect(textOf(onlyRim.resolve('m13aa', KotorResType.GIT)!.data.subarray(0, 8))).toBe('GIT V3.2');
  });

  it('chooses <m>.mod alone when present, else the RIM set', () => {
    expect(moduleCapsuleOrder('M01aa', ['m01aa.rim', 'M01AA.MOD', 'm01aa_s.rim'])).toEqual(['M01AA.MOD']);
    expect(moduleCapsuleOrder('m01aa', ['m01aa_dlg.erf', 'M01aa_s.rim', 'm01aa.rim', 'm01ab.rim'])).toEqual(['m01aa.rim', 'M01aa_s.rim', 'm01aa_dlg.erf']);
    expect(moduleCapsuleOrder('m99zz', ['m01aa.rim'])).toEqual([]);
  });
});
