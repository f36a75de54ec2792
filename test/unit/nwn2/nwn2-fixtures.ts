import { portableEnvironment } from '../../../shared/formats/format-environment';
import { aswmPacketOf, type AswmPacket, type TrxDocument } from '../../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { fixtureName, fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';

/** Every TRN and TRX fixture (Kaedrin and Mord Mansion), extensions in either case. */
export const trxFiles = listFixtures('nwn2', ['.trx', '.trn']);

export const env = portableEnvironment;

export function fixture(rel: string): string {
  return `${fixturesRoot}/nwn2/${rel}`;
}

export function loadTrx(rel: string): { bytes: Uint8Array; doc: TrxDocument; aswm: AswmPacket } {
  const bytes = readFixture(fixture(rel));
  const doc = readTrx(bytes, env);
  return { bytes, doc, aswm: aswmPacketOf(doc)! };
}

export const cases = trxFiles.map((f) => [fixtureName(f), f] as const);

export function firstDifference(a: Uint8Array, b: Uint8Array): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? null : n;
}
