import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { areaOf, classifyInput } from '../../../electron/services/project/input-kind';
import { fixturesRoot, readFixture } from '../../support/fixtures';

const fixture = (p: string) => {
  const file = path.join(fixturesRoot, p);
  return { name: path.basename(file), bytes: readFixture(file) };
};

describe('recognising project inputs by content', () => {
  it.each([
    ['source/tf2/itemtest.nav', 'walkmesh', 'source-nav'],
    ['nwn2/kaedrin/enter world.trx', 'walkmesh', 'nwn2-trx'],
    ['nwn2/kaedrin/enter world.trn', 'trn', 'nwn2-trx'],
    ['nwn2/kaedrin/enter world.GIT', 'git', 'gff-git'],
    ['nwn2/kaedrin/enter world.ARE', 'are', 'gff-are'],
    ['nwn2/nwn-lib-d/TestImportExportTRN.gic', 'gic', 'gff-gic'],
    ['nwn2/nwn-lib-d/PLC_MC_BALCONY3.MDB', 'mdb', 'nwn2-mdb'],
    ['nwn2/2da/placeables.2da', '2da', '2da'],
    ['kotor/pykotor/test.lyt', 'lyt', 'kotor-lyt'],
    ['skyrim/FreeCamera.esp', 'walkmesh', 'skyrim-plugin'],
  ])('%s is a %s (%s)', (file, kind, format) => {
    const { name, bytes } = fixture(file);
    expect(classifyInput(name, bytes)).toEqual({ kind, format });
  });

  it('recognises a file whatever its name says', () => {
    const { bytes } = fixture('nwn2/kaedrin/enter world.GIT');
    expect(classifyInput('renamed.bin', bytes)).toEqual({ kind: 'git', format: 'gff-git' });
    const nav = fixture('source/tf2/itemtest.nav').bytes;
    expect(classifyInput('no-extension', nav)).toEqual({ kind: 'walkmesh', format: 'source-nav' });
  });

  it('takes a Skyrim plugin flagged ESM, or named .esm, as a master', () => {
    const { bytes } = fixture('skyrim/FreeCamera.esp');
    expect(classifyInput('Skyrim.esm', bytes)).toEqual({ kind: 'master', format: 'skyrim-plugin' });
    const flagged = bytes.slice();
    flagged[8]! |= 1;
    expect(classifyInput('FreeCamera.esp', flagged)).toEqual({ kind: 'master', format: 'skyrim-plugin' });
  });

  it('skips archives, strangers, and files whose name claims a format their content does not have', () => {
    expect(classifyInput('module.mod', fixture('nwn2/nwn-lib-d/module.mod').bytes).skip).toMatch(/MOD archive/);
    expect(classifyInput('readme.txt', new TextEncoder().encode('hello')).skip).toBe('not a file Walkbench uses');
    expect(classifyInput('fake.nav', new TextEncoder().encode('not a navmesh at all')).skip).toMatch(/named like .* but its content is not one/);
  });

  it('names the area after the stem of area files only', () => {
    expect(areaOf("harper's hill cave.TRX", 'walkmesh')).toBe("harper's hill cave");
    expect(areaOf('placeables.2da', '2da')).toBeNull();
    expect(areaOf('PLC_MC_BALCONY3.MDB', 'mdb')).toBeNull();
  });
});
