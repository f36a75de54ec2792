import path from 'node:path';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import type { TrxDocument } from '../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import { writeTrx } from '../../shared/formats/nwn2/trx-writer';
import { fixtureName, listFixtures, readFixture } from '../support/fixtures';
import type { BenchGroup, BenchSuite } from './bench-suite';

/**
 * NWN2 TRN/TRX fixtures, one row per folder. Reading inflates the ASWM packet (node:zlib,
 * as the main process does); writing re-serialises the walkmesh and, the document being
 * unedited, keeps the original compressed bytes.
 */
export const nwn2Bench: BenchSuite<TrxDocument> = {
  name: 'nwn2 .trn/.trx',
  groups() {
    const byFolder = new Map<string, BenchGroup>();
    for (const file of listFixtures('nwn2', ['.trx', '.trn'])) {
      const label = path.dirname(fixtureName(file)).split(path.sep).slice(1).join('/') || 'nwn2';
      let group = byFolder.get(label);
      if (!group) byFolder.set(label, (group = { label, inputs: [] }));
      group.inputs.push({ name: path.basename(file), bytes: readFixture(file) });
    }
    return [...byFolder.values()].sort((a, b) => a.label.localeCompare(b.label));
  },
  read: (bytes) => readTrx(bytes, env),
  write: (doc) => writeTrx(doc, env),
};
