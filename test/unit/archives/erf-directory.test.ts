import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { bytesSource } from '../../../shared/formats/archives/byte-source';
import { openErfDirectory, readErfDirectoryEntry } from '../../../shared/formats/archives/erf-directory';
import { readErf } from '../../../shared/formats/aurora/erf-reader';
import { fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';

/** The lazy ERF directory (haks and .mod files of a game lookup) agrees with the full reader. */
describe('ERF directory read through a ByteSource', () => {
  const files = listFixtures('nwn2', ['.mod', '.hak', '.erf']);

  it('lists the same resources with the same bytes as readErf, on every fixture NWN2 archive', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFixture(file);
      const full = readErf(bytes);
      const dir = openErfDirectory(bytesSource(bytes, file));
      expect(dir.entries.map((e) => [e.resRef, e.type]), file).toEqual(full.resources.map((r) => [r.resRef, r.type]));
      dir.entries.forEach((e, i) => expect(readErfDirectoryEntry(dir, e), `${file} ${e.resRef}`).toEqual(full.resources[i]!.data));
    }
  });

  it('refuses a truncated archive, naming the file and the field', () => {
    const file = path.join(fixturesRoot, 'nwn2/nwn-lib-d/test.hak');
    const bytes = readFixture(file);
    const cut = bytes.subarray(0, 200);
    let error: unknown;
    try {
      openErfDirectory(bytesSource(cut, 'cut.hak'));
    } catch (e) {
      error = e;
    }
    expect(isMalformedInputError(error)).toBe(true);
    expect((error as Error).message).toContain('cut.hak');
    expect(() => openErfDirectory(bytesSource(new Uint8Array(100), 'tiny.hak'))).toThrow(/tiny\.hak/);
  });
});
