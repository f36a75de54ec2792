import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { bytesSource } from '../../../shared/formats/archives/byte-source';
import { crc32 } from '../../../shared/formats/archives/crc32';
import { openZip, readZipEntry, type ZipArchive } from '../../../shared/formats/archives/zip-reader';
import { portableEnvironment } from '../../../shared/formats/format-environment';
import { nodeFormatEnvironment } from '../../../electron/services/node-format-environment';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { writeZip } from '../../support/zip-writer';

const balcony = readFixture(path.join(fixturesRoot, 'nwn2/nwn-lib-d/PLC_MC_BALCONY3.MDB'));
const doortypes = readFixture(path.join(fixturesRoot, 'nwn2/2da/doortypes.2da'));

function open(bytes: Uint8Array, name = 'Data/test.zip'): ZipArchive {
  return openZip(bytesSource(bytes, name));
}

function entry(zip: ZipArchive, name: string) {
  const e = zip.entries.find((x) => x.name === name);
  if (!e) throw new Error(`no entry ${name}`);
  return e;
}

/** The MalformedInputError a read throws (fails the test when it throws anything else or nothing). */
function malformed(read: () => unknown): { message: string; offset: number; field: string; file: string | undefined } {
  try {
    read();
  } catch (e) {
    if (isMalformedInputError(e)) return { message: e.message, offset: e.offset, field: e.field, file: e.file };
    throw e;
  }
  throw new Error('read did not throw');
}

describe('zip reader', () => {
  const bytes = writeZip([
    { name: 'NWN2_Models/PLC_MC_BALCONY3.MDB', data: balcony },
    { name: '2DA/doortypes.2da', data: doortypes, method: 'stored' },
    { name: 'empty.txt', data: new Uint8Array(0) },
  ]);

  it('lists the central directory and reads deflated, stored and empty entries, with pako and with node zlib', () => {
    const zip = open(bytes);
    expect(zip.entries.map((e) => [e.name, e.method])).toEqual([
      ['NWN2_Models/PLC_MC_BALCONY3.MDB', 8],
      ['2DA/doortypes.2da', 0],
      ['empty.txt', 8],
    ]);
    expect(entry(zip, 'NWN2_Models/PLC_MC_BALCONY3.MDB').compressedSize).toBeLessThan(balcony.length);
    for (const env of [portableEnvironment, nodeFormatEnvironment, undefined]) {
      expect(readZipEntry(zip, entry(zip, 'NWN2_Models/PLC_MC_BALCONY3.MDB'), env)).toEqual(balcony);
      expect(readZipEntry(zip, entry(zip, '2DA/doortypes.2da'), env)).toEqual(doortypes);
      expect(readZipEntry(zip, entry(zip, 'empty.txt'), env).length).toBe(0);
    }
  });

  it('reads an archive with a comment and one with ZIP64 end records', () => {
    const commented = open(writeZip([{ name: 'a.2da', data: doortypes }], { comment: 'NWN2 data' }));
    expect(commented.comment).toBe('NWN2 data');
    expect(readZipEntry(commented, commented.entries[0]!)).toEqual(doortypes);
    const z64 = open(writeZip([{ name: 'a.mdb', data: balcony }, { name: 'b.2da', data: doortypes }], { zip64: true }));
    expect(z64.entries.map((e) => e.name)).toEqual(['a.mdb', 'b.2da']);
    expect(readZipEntry(z64, z64.entries[0]!)).toEqual(balcony);
  });

  it('keeps only the entries asked for, each with its place in the directory', () => {
    const zip = openZip(bytesSource(bytes, 'Data/test.zip'), { keep: (name) => name.toLowerCase().endsWith('.2da') });
    expect(zip.entries.map((e) => [e.name, e.index])).toEqual([['2DA/doortypes.2da', 1]]);
    expect(readZipEntry(zip, zip.entries[0]!)).toEqual(doortypes);
  });

  it('checks CRC-32 against the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('refuses what is not a zip, naming the file and the end record', () => {
    const e = malformed(() => open(balcony, 'Data/NWN2_Models.zip'));
    expect(e.file).toBe('Data/NWN2_Models.zip');
    expect(e.field).toBe('end of central directory');
    expect(e.message).toContain('Data/NWN2_Models.zip');
    expect(malformed(() => open(new Uint8Array(5))).field).toBe('end of central directory');
  });

  it('refuses a truncated archive: the directory points past what is left', () => {
    // Cut out the middle: the end record survives but its directory offset no longer fits.
    const cut = new Uint8Array([...bytes.subarray(0, 100), ...bytes.subarray(bytes.length - 200)]);
    const e = malformed(() => open(cut));
    expect(e.message).toMatch(/Data\/test\.zip/);
    expect(e.offset).toBeGreaterThanOrEqual(0);
  });

  it('refuses an entry whose data is corrupted (CRC-32 or deflate), naming the entry and its offset', () => {
    const zip = open(bytes);
    const target = entry(zip, '2DA/doortypes.2da');
    const damaged = bytes.slice();
    damaged[target.localHeaderOffset + 30 + '2DA/doortypes.2da'.length + 10]! ^= 0xff;
    const z = open(damaged);
    const e = malformed(() => readZipEntry(z, entry(z, '2DA/doortypes.2da')));
    expect(e.field).toBe('entries[1] (2DA/doortypes.2da).crc32');
    expect(e.offset).toBe(target.centralOffset + 16);

    const mdb = entry(zip, 'NWN2_Models/PLC_MC_BALCONY3.MDB');
    const garbled = bytes.slice();
    const start = mdb.localHeaderOffset + 30 + mdb.name.length;
    for (let i = 0; i < 64; i++) garbled[start + i] = 0xff;
    const g = open(garbled);
    const d = malformed(() => readZipEntry(g, entry(g, mdb.name), nodeFormatEnvironment));
    expect(d.field).toMatch(/^entries\[0\] \(NWN2_Models\/PLC_MC_BALCONY3\.MDB\)\./);
    expect(d.message).toContain('Data/test.zip');
  });

  it('refuses an entry that claims more than its decompression budget before inflating it', () => {
    const zip = open(bytes);
    const mdb = entry(zip, 'NWN2_Models/PLC_MC_BALCONY3.MDB');
    const lying = bytes.slice();
    new DataView(lying.buffer).setUint32(mdb.centralOffset + 24, 0xfffffff0, true);
    const z = open(lying);
    const e = malformed(() => readZipEntry(z, entry(z, mdb.name), { ...portableEnvironment, limits: { maxDecompressedBytes: 1 << 20 } }));
    expect(e.field).toBe('entries[0] (NWN2_Models/PLC_MC_BALCONY3.MDB).uncompressedSize');
    expect(e.message).toContain('decompression budget');
  });

  it('refuses a directory whose entry count cannot fit, and encrypted or unknown methods', () => {
    const many = bytes.slice();
    const eocd = many.length - 22;
    new DataView(many.buffer).setUint16(eocd + 10, 60000, true);
    expect(malformed(() => open(many)).field).toBe('endRecord.entryCount');

    const zip = open(bytes);
    const mdb = entry(zip, 'NWN2_Models/PLC_MC_BALCONY3.MDB');
    const bzip = bytes.slice();
    new DataView(bzip.buffer).setUint16(mdb.centralOffset + 10, 12, true);
    const b = open(bzip);
    expect(malformed(() => readZipEntry(b, b.entries[0]!)).field).toBe('entries[0] (NWN2_Models/PLC_MC_BALCONY3.MDB).method');
    const enc = bytes.slice();
    new DataView(enc.buffer).setUint16(mdb.centralOffset + 8, 1, true);
    const c = open(enc);
    expect(malformed(() => readZipEntry(c, c.entries[0]!)).field).toBe('entries[0] (NWN2_Models/PLC_MC_BALCONY3.MDB).flags');
  });
});
