import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WALKABILITY,
  isWalkableMaterial,
  readSurfaceMaterials,
  walkabilityDisagreements,
} from '../../../shared/formats/kotor/surface-materials';

const twoDa = (rows: string[]): Uint8Array =>
  new TextEncoder().encode(['2DA V2.0', '', '   label    Walk  WalkCheck  LineOfSight', ...rows, ''].join('\r\n'));

describe('surface materials', () => {
  it('the default table is kotorblender\'s', () => {
    for (const m of [1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 16, 18, 20, 21, 22]) expect(isWalkableMaterial(DEFAULT_WALKABILITY, m)).toBe(true);
    for (const m of [0, 2, 7, 8, 15, 17, 19, 23, 30, 1000]) expect(isWalkableMaterial(DEFAULT_WALKABILITY, m)).toBe(false);
  });

  it('reads the Walk column of surfacemat.2da', () => {
    const table = readSurfaceMaterials(twoDa(['0 NotDefined 1 1 0', '1 Dirt 1 1 0', '2 Obscuring 0 0 1', '3 Grass **** 1 0']), 'surfacemat.2da');
    expect(table.source).toBe('surfacemat.2da');
    expect(Array.from(table.walkable)).toEqual([1, 1, 0, 0]);
    expect(table.labels[2]).toBe('Obscuring');
    expect(isWalkableMaterial(table, 4)).toBe(false);
  });

  it('refuses a 2DA without a Walk column', () => {
    const bytes = new TextEncoder().encode('2DA V2.0\n\nlabel Sound\n0 a b\n');
    expect(() => readSurfaceMaterials(bytes, 'x.2da')).toThrow(/Walk/);
  });

  it('lists where the tools disagree for the materials a file uses', () => {
    const d = walkabilityDisagreements(DEFAULT_WALKABILITY, [4, 4, 16, 0, 7, 20]);
    expect(d.map((x) => x.material)).toEqual([0, 16, 20]);
    expect(d.find((x) => x.material === 16)).toMatchObject({ used: true, otherTools: ['PyKotor'] });
    expect(d.find((x) => x.material === 0)).toMatchObject({ used: false, otherTools: ['MDLEdit'] });
  });
});
