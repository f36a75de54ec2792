import { describe, expect, it } from 'vitest';
import { KOTOR_RESOURCE_TYPES, KotorResType, Nwn2ResType, NWN2_RESOURCE_TYPES, resourceTypes } from '../../../shared/formats/aurora/resource-types';

describe('resource type tables', () => {
  it('covers the NWN2 ids of the spec (nwn2-trn-trx.md §8.3)', () => {
    const ids: [string, number][] = [
      ['mod', 2011], ['are', 2012], ['ifo', 2014], ['2da', 2017], ['git', 2023], ['utt', 2032], ['dds', 2033], ['gff', 2037],
      ['utp', 2044], ['gic', 2046], ['dwk', 2052], ['pwk', 2053], ['trn', 3002], ['cam', 3008], ['wlk', 3020], ['xml', 3021],
      ['trx', 3035], ['tro', 3036], ['try', 3037], ['mdb', 4000], ['gr2', 4003], ['pwc', 4008], ['hak', 2061], ['erf', 9997],
    ];
    for (const [ext, id] of ids) {
      expect(NWN2_RESOURCE_TYPES.extension(id)).toBe(ext);
      expect(NWN2_RESOURCE_TYPES.typeId(ext)).toBe(id);
    }
  });

  it('covers the KotOR ids of the spec (kotor-bwm.md §8.3)', () => {
    const ids: [string, number][] = [
      ['mdl', 2002], ['are', 2012], ['ifo', 2014], ['wok', 2016], ['2da', 2017], ['git', 2023], ['utd', 2042], ['utp', 2044],
      ['dwk', 2052], ['pwk', 2053], ['lyt', 3000], ['vis', 3001], ['rim', 3002], ['pth', 3003], ['tpc', 3007], ['mdx', 3008],
    ];
    for (const [ext, id] of ids) {
      expect(KOTOR_RESOURCE_TYPES.extension(id)).toBe(ext);
      expect(KOTOR_RESOURCE_TYPES.typeId(ext)).toBe(id);
    }
  });

  it('keeps the ids the two games use differently apart', () => {
    expect(Nwn2ResType.TRN).toBe(KotorResType.RIM);
    expect(resourceTypes('nwn2').extension(3002)).toBe('trn');
    expect(resourceTypes('kotor').extension(3002)).toBe('rim');
    expect(resourceTypes('nwn2').extension(3008)).toBe('cam');
    expect(resourceTypes('kotor').extension(3008)).toBe('mdx');
    expect(KOTOR_RESOURCE_TYPES.typeId('trx')).toBeUndefined();
    expect(NWN2_RESOURCE_TYPES.typeId('.TRX')).toBe(3035);
    expect(NWN2_RESOURCE_TYPES.extension(65535)).toBeUndefined();
  });
});
