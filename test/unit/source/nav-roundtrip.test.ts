import { describe, expect, it } from 'vitest';
import { readNav } from '../../../shared/formats/source/nav-reader';
import { writeNav } from '../../../shared/formats/source/nav-writer';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';

const files = listFixtures('source', ['.nav']);

function firstDifference(a: Uint8Array, b: Uint8Array): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? null : n;
}

describe('Source .nav round trip', () => {
  it('finds the fixtures of every game', () => {
    expect(files.length).toBeGreaterThanOrEqual(26);
  });

  it.each(files.map((f) => [fixtureName(f), f]))('%s is written back byte for byte', (_name, file) => {
    const bytes = readFixture(file);
    const doc = readNav(bytes);
    expect(doc.areas.count).toBeGreaterThan(0);
    expect(firstDifference(writeNav(doc), bytes)).toBeNull();
  });
});
