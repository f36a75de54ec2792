import type { FormatHandler } from '../format-handler';
import { NWN2_MAGIC } from './nwn2-container';
import { TRX_FORMAT, type TrxDocument } from './trx-document';
import { trxFromWalkmeshes } from './trx-from-walkmesh';
import { readTrx } from './trx-reader';
import { trxRoundtripDetails } from './trx-roundtrip';
import { summarizeTrx } from './trx-summary';
import { validateTrx } from './trx-validate';
import { trxToWalkmeshes } from './trx-walkmesh';
import { writeTrx } from './trx-writer';

/** Packet types that only TRN/TRX files hold (TRRN also occurs in MDB models). */
const TRX_ONLY_PACKETS = new Set(['TRWH', 'WATR', 'ASWM']);

/** True for an `NWN2` container whose version is 2.x or whose first packet is a TRN/TRX packet. */
export function sniffTrx(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== NWN2_MAGIC) return false;
  if (dv.getUint16(4, true) === 2) return true;
  if (bytes.length < 20 || dv.getUint32(8, true) === 0) return false;
  return TRX_ONLY_PACKETS.has(String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!));
}

/**
 * NWN2 area terrain and walkmesh: `.trn` (the toolset's working file) and `.trx` (the
 * baked file the game loads). See trx-writer.ts for the write rules (original compressed
 * bytes kept while the walkmesh is unedited; version 0x6C and zlib level 6 after an edit).
 */
export const trxFormat: FormatHandler<TrxDocument> = {
  id: TRX_FORMAT,
  game: 'nwn2',
  label: 'Neverwinter Nights 2 area terrain and walkmesh (TRN/TRX)',
  extensions: ['.trx', '.trn'],
  sniff: sniffTrx,
  read: (bytes, env) => readTrx(bytes, env),
  write: (doc, env) => writeTrx(doc, env),
  summarize: summarizeTrx,
  validate: validateTrx,
  toWalkmeshes: trxToWalkmeshes,
  fromWalkmeshes: trxFromWalkmeshes,
  roundtripDetails: (original, doc, env) => ({ ...trxRoundtripDetails(original, doc, env) }),
};
