import path from 'node:path';
import { DecompressionBudget } from '../../../shared/binary/read-budget';
import { bytesSource } from '../../../shared/formats/archives/byte-source';
import { openZip, readZipEntry, ZIP_FORMAT, ZIP_READ_MEMORY } from '../../../shared/formats/archives/zip-reader';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { writeZip } from '../../support/zip-writer';
import { fuzzEnvironment as env } from '../fuzz-env';
import type { FuzzTarget } from '../fuzz-target';

/**
 * The zip reader of NWN2 Data archives (shared/formats/archives/zip-reader.ts): the seeds
 * are zips built from fixture resources the way the install packs them (deflated MDB and
 * 2DAs in folders, a stored entry, a ZIP64 end record), since no zip is among the fixtures.
 * The directory is read whole; then entries are read as a look-up reads them, a few per
 * archive: the first 8 and the last 8 (inflated, CRC-checked) under one budget. Reading
 * all of them is not what any caller does, and each inflate holds a zlib state (~20-40 KB
 * of native memory until collected) that a directory of 1,000 entries sharing one local
 * header would multiply past any per-byte bound.
 */
const ENTRIES_READ = 8;
export const zipTarget: FuzzTarget<unknown> = {
  name: 'zip',
  description: 'zip archive reader (central directory, stored/deflate entries, ZIP64), every entry read',
  format: ZIP_FORMAT,
  memoryFactor: ZIP_READ_MEMORY.perInputByte,
  inflatedFactor: ZIP_READ_MEMORY.perDecompressedByte,
  loadCorpus: () => {
    const fixture = (p: string) => readFixture(path.join(fixturesRoot, p));
    const mdb = fixture('nwn2/nwn-lib-d/PLC_MC_BALCONY3.MDB');
    const doors = fixture('nwn2/2da/doortypes.2da');
    const terrain = fixture('nwn2/2da/terrainmaterials.2da');
    return [
      { name: 'NWN2_Models.zip (built: deflated MDB and 2DA)', bytes: writeZip([{ name: 'NWN2_Models/PLC_MC_BALCONY3.MDB', data: mdb }, { name: '2DA/doortypes.2da', data: doors }]) },
      { name: '2DA.zip (built: stored and deflated)', bytes: writeZip([{ name: '2DA/terrainmaterials.2da', data: terrain, method: 'stored' }, { name: '2DA/doortypes.2da', data: doors }]) },
      { name: 'zip64.zip (built: ZIP64 end record)', bytes: writeZip([{ name: 'terrainmaterials.2da', data: terrain }], { zip64: true, comment: 'NWN2' }) },
      // Many small entries, as in the templates and scripts zips: most bytes are directory
      // and headers, where a mutation can leave an archive that still reads.
      { name: 'Templates.zip (built: 300 small entries)', bytes: writeZip(Array.from({ length: 300 }, (_, i) => ({ name: `Templates/t${i}.uti`, data: doors.subarray(i * 64, i * 64 + 64), method: i % 2 ? 'deflate' : 'stored' }))) },
    ];
  },
  parse: (bytes) => {
    const zip = openZip(bytesSource(bytes, 'fuzz.zip'));
    const budget = new DecompressionBudget(bytes.length, env.limits);
    let total = 0;
    const n = zip.entries.length;
    const picked = n <= 2 * ENTRIES_READ ? zip.entries : [...zip.entries.slice(0, ENTRIES_READ), ...zip.entries.slice(n - ENTRIES_READ)];
    for (const e of picked) total += readZipEntry(zip, e, env, budget).length;
    return { entries: zip.entries.length, total };
  },
};
