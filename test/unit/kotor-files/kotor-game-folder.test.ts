import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MalformedInputError } from '../../../shared/binary/malformed-input-error';
import { KotorResType } from '../../../shared/formats/aurora/resource-types';
import { createRimDocument, putRimResource } from '../../../shared/formats/aurora/rim-document';
import { writeRim } from '../../../shared/formats/aurora/rim-writer';
import { FileAccessError } from '../../../electron/services/file-access';
import { kotorModuleNames, openKotorModule, resolveGamePath, scanKotorGameFolder } from '../../../electron/services/kotor-game-folder';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { buildBif, buildKey } from './key-bif-builder';

const bytesOf = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const textOf = (b: Uint8Array) => new TextDecoder().decode(b);

let root = '';

/** A miniature install with the mixed-case names seen on case-sensitive file systems. */
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'walkbench-kotor-'));
  mkdirSync(path.join(root, 'Override'));
  mkdirSync(path.join(root, 'Modules'));
  mkdirSync(path.join(root, 'Data'));
  writeFileSync(path.join(root, 'Override', 'M01AA_01A.wok'), 'override wok');
  const rim = createRimDocument();
  putRimResource(rim, { resRef: 'm01aa', type: KotorResType.GIT, data: bytesOf('rim git') });
  putRimResource(rim, { resRef: 'm01aa_01a', type: KotorResType.WOK, data: bytesOf('rim wok') });
  writeFileSync(path.join(root, 'Modules', 'M01AA.rim'), writeRim(rim));
  const rimS = createRimDocument();
  putRimResource(rimS, { resRef: 'm01aa', type: KotorResType.LYT, data: bytesOf('layout') });
  writeFileSync(path.join(root, 'Modules', 'm01aa_s.rim'), writeRim(rimS));
  writeFileSync(path.join(root, 'Modules', 'm13aa.MOD'), readFixture(`${fixturesRoot}/kotor/pykotor/capsule.mod`));
  writeFileSync(path.join(root, 'Modules', 'm13aa.rim'), readFixture(`${fixturesRoot}/kotor/pykotor/capsule.rim`));
  writeFileSync(path.join(root, 'Modules', 'broken.rim'), readFixture(`${fixturesRoot}/kotor/pykotor/test_corrupted.rim`));
  writeFileSync(path.join(root, 'chitin.KEY'), buildKey(['data\\models.bif', 'data\\missing.bif'], [
    { resRef: 'm01aa_01b', type: KotorResType.WOK, bif: 0, index: 0 },
    { resRef: 'm01aa_01a', type: KotorResType.WOK, bif: 0, index: 1 },
    { resRef: 'gone', type: KotorResType.WOK, bif: 1, index: 0 },
  ]));
  writeFileSync(path.join(root, 'Data', 'Models.BIF'), buildBif([
    { type: KotorResType.WOK, data: bytesOf('bif 01b') },
    { type: KotorResType.WOK, data: bytesOf('bif 01a') },
  ]));
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('KotOR game folder', () => {
  it('finds override, modules and chitin.key whatever their case', async () => {
    const folder = await scanKotorGameFolder(root);
    expect(folder.overrideDir).toBe(path.join(root, 'Override'));
    expect(folder.overrideFiles).toEqual(['M01AA_01A.wok']);
    expect(folder.chitinKey).toBe(path.join(root, 'chitin.KEY'));
    expect(kotorModuleNames(folder)).toEqual(['broken', 'm01aa', 'm13aa']);
    expect(resolveGamePath(root, 'data\\MODELS.bif')).toBe(path.join(root, 'Data', 'Models.BIF'));
    expect(resolveGamePath(root, 'data\\none.bif')).toBeUndefined();
  });

  it('resolves in game order: override, the module RIMs, then chitin.key BIFs', async () => {
    const { resolver, capsules } = await openKotorModule(await scanKotorGameFolder(root), 'm01aa');
    expect(capsules).toEqual(['M01AA.rim', 'm01aa_s.rim']);
    const wok = resolver.resolve('m01aa_01a', KotorResType.WOK)!;
    expect([textOf(wok.data), wok.origin.kind]).toEqual(['override wok', 'override']);
    expect(resolver.resolve('M01AA', KotorResType.LYT)!.origin).toEqual({ kind: 'module', archive: 'm01aa_s.rim' });
    const fromBif = resolver.resolve('M01AA_01B', KotorResType.WOK)!;
    expect([textOf(fromBif.data), fromBif.origin]).toEqual(['bif 01b', { kind: 'chitin', bif: 'data\\models.bif', index: 0 }]);
    expect(() => resolver.resolve('gone', KotorResType.WOK)).toThrow(FileAccessError);
  });

  it('uses <m>.mod alone when a module has one', async () => {
    const { resolver, capsules } = await openKotorModule(await scanKotorGameFolder(root), 'M13AA');
    expect(capsules).toEqual(['m13aa.MOD']);
    expect(resolver.resolve('001ebo', KotorResType.GIT)!.origin).toEqual({ kind: 'module', archive: 'm13aa.MOD' });
    expect(resolver.locate('m13aa', KotorResType.GIT)).toBeUndefined();
  });

  it('names the file when a capsule is corrupted', async () => {
    const folder = await scanKotorGameFolder(root);
    const e = await openKotorModule(folder, 'broken').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(MalformedInputError);
    expect((e as MalformedInputError).file).toBe(path.join(root, 'Modules', 'broken.rim'));
    expect((e as MalformedInputError).format).toBe('rim');
  });
});
