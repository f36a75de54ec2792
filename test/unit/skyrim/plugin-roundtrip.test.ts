import { describe, expect, it } from 'vitest';
import { walkRecords, type PluginItem } from '../../../shared/formats/skyrim/plugin-document';
import { pluginRoundtripDetails } from '../../../shared/formats/skyrim/plugin-roundtrip';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { writePlugin } from '../../../shared/formats/skyrim/plugin-writer';
import { TRI_PREFERRED } from '../../../shared/formats/skyrim/nvnm-document';
import { fixtureName, readFixture } from '../../support/fixtures';
import { env, firstDifference, modelledNavmeshes, pluginFiles, readFixturePlugin } from './skyrim-helpers';

/** Compressed records per fixture, counted from the files' record flags (225 in all). */
const COMPRESSED: Record<string, number> = { 'DawnOfTheSilverHand.esp': 186, 'DwemerSecrets.esp': 32, 'FreeCamera.esp': 7 };

describe('Skyrim plugin round trip', () => {
  it('finds the three fixture plugins', () => {
    expect(pluginFiles.map((f) => f.replace(/^.*[\\/]/, '')).sort()).toEqual(Object.keys(COMPRESSED).sort());
  });

  it.each(pluginFiles.map((f) => [fixtureName(f), f]))('%s is written back byte for byte', (_name, file) => {
    const bytes = readFixture(file);
    const doc = readPlugin(bytes, env);
    expect(firstDifference(writePlugin(doc, env), bytes)).toBeNull();
  });

  it.each(pluginFiles.map((f) => [fixtureName(f), f]))('%s: every compressed record re-encodes to the original bytes', (_name, file) => {
    const bytes = readFixture(file);
    const doc = readPlugin(bytes, env);
    const details = pluginRoundtripDetails(bytes, doc, env);
    const base = file.replace(/^.*[\\/]/, '');
    expect(details.compressedRecords).toBe(COMPRESSED[base]);
    expect(details.compressedRecordsIdentical).toBe(details.compressedRecords);
    expect(details.differingRecords).toEqual([]);
  });

  it('writes unchanged compressed records with the streams they were read with, whatever level made them', () => {
    const { doc } = readFixturePlugin('DwemerSecrets.esp');
    // The same plugin with every compressed record deflated at level 1 (as another tool might).
    const level1 = { ...env, zlib: { ...env.zlib, deflate: (b: Uint8Array) => env.zlib.deflate(b, 1) } };
    // New record objects, so nothing remembers the streams they were read with.
    const copy = (items: readonly PluginItem[]): PluginItem[] => items.map((i) => (i.kind === 'group' ? { ...i, children: copy(i.children) } : { ...i }));
    const other = writePlugin({ items: copy(doc.items) }, level1);
    expect(firstDifference(other, writePlugin(doc, env))).not.toBeNull();
    const reread = readPlugin(other, env);
    expect(firstDifference(writePlugin(reread, env), other)).toBeNull();
    // Re-encoding from the model (the round-trip check) gives level 9 instead.
    expect(pluginRoundtripDetails(other, reread, env).compressedRecordsIdentical).toBe(0);
  });

  it('re-encodes compressed records from the model, not from kept bytes', () => {
    const { bytes, doc } = readFixturePlugin('DwemerSecrets.esp');
    const target = modelledNavmeshes(doc).find((n) => n.record.compressed)!;
    expect(target).toBeDefined();
    target.nvnm.triFlags[0] = target.nvnm.triFlags[0]! ^ TRI_PREFERRED;
    const edited = writePlugin(doc, env);
    expect(firstDifference(edited, bytes)).not.toBeNull();
    const reread = modelledNavmeshes(readPlugin(edited, env)).find((n) => n.formId === target.formId)!;
    expect(reread.nvnm.triFlags[0]).toBe(target.nvnm.triFlags[0]);
    const details = pluginRoundtripDetails(bytes, doc, env);
    expect(details.differingRecords).toEqual([`NAVM 0x${target.formId.toString(16).toUpperCase().padStart(8, '0')}`]);
  });

  it('keeps the form versions of LE (43) and SE (44) records', () => {
    for (const [base, version] of [['DwemerSecrets.esp', 43], ['DawnOfTheSilverHand.esp', 43], ['FreeCamera.esp', 44]] as const) {
      const { doc } = readFixturePlugin(base);
      const header = doc.items[0]!;
      expect(header.kind === 'record' && header.signature).toBe('TES4');
      expect(header.kind === 'record' && header.formVersion).toBe(version);
      for (const { record } of walkRecords(doc.items)) if (record.signature === 'NAVM' && record.subrecords.length > 0) expect(record.formVersion).toBe(version);
    }
  });
});
