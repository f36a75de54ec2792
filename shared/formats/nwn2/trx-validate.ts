import type { Finding } from '../../validation/finding';
import { floatOfBits } from './aswm-document';
import { validateAswm } from './aswm-validate';
import { FindingSink } from '../../validation/finding-sink';
import { TRX_VERSION_MAJOR, TRX_VERSION_MINOR, type TrxDocument } from './trx-document';

/**
 * Validates a TRN/TRX: the container (spec §2: one TRWH, one ASWM, known packet types,
 * version 2.3), the terrain and water packets as far as they were parsed, and the
 * walkmesh (aswm-validate.ts).
 */
export function validateTrx(doc: TrxDocument): Finding[] {
  const out = new FindingSink();
  if (doc.versionMajor !== TRX_VERSION_MAJOR || doc.versionMinor !== TRX_VERSION_MINOR) {
    out.warning('nwn2.trx.version', undefined, () => `the container version is ${doc.versionMajor}.${doc.versionMinor}; TRN/TRX files are 2.3 (xoreos refuses anything else)`);
  }
  const trwh = doc.packets.filter((p) => p.kind === 'trwh');
  const aswm = doc.packets.filter((p) => p.kind === 'aswm');
  if (trwh.length === 0) out.error('nwn2.trx.trwh-missing', undefined, () => 'the file has no TRWH (area size) packet; the game needs exactly one');
  if (trwh.length > 1) out.error('nwn2.trx.trwh-duplicate', undefined, () => `the file has ${trwh.length} TRWH (area size) packets; it needs exactly one`);
  if (aswm.length === 0) out.error('nwn2.trx.aswm-missing', undefined, () => 'the file has no ASWM walkmesh packet; the game needs exactly one');
  if (aswm.length > 1) out.error('nwn2.trx.aswm-duplicate', undefined, () => `the file has ${aswm.length} ASWM walkmesh packets; the game refuses more than one ("Duplicate area surface walkmesh")`);

  doc.packets.forEach((p, i) => {
    const what = `packet #${i} (${p.type})`;
    if (p.kind === 'unknown') out.warning('nwn2.trx.unknown-packet', undefined, () => `${what} is not a TRWH, TRRN, WATR or ASWM packet; xoreos refuses unknown packets`);
    if ((p.kind === 'trrn' || p.kind === 'watr') && p.parseError !== null) {
      const kind = p.kind;
      const message = p.parseError;
      out.warning(`nwn2.${kind}.unparsed`, undefined, () => `${what} could not be read (${message}); it is kept and written back unchanged`);
    }
    if (p.kind === 'trrn' && p.trrn) {
      const t = p.trrn;
      checkIndices(out, 'trrn', what, t.triangles, t.positions.length / 3);
      if (t.trailingBytes > 0) out.warning('nwn2.trrn.trailing-bytes', undefined, () => `${what} has ${t.trailingBytes} byte(s) after its grass list`);
    }
    if (p.kind === 'watr' && p.watr) {
      const w = p.watr;
      checkIndices(out, 'watr', what, w.triangles, w.positions.length / 3);
      const odd = w.triangleFlags.findIndex((f) => f !== 0 && f !== 1);
      if (odd >= 0) out.warning('nwn2.watr.triangle-flag', undefined, () => `${what}: water triangle ${odd} has flag ${w.triangleFlags[odd]}; only 0 (water) and 1 (no water) are known`);
      if (w.trailingBytes > 0) out.warning('nwn2.watr.trailing-bytes', undefined, () => `${what} has ${w.trailingBytes} byte(s) after its megatile position`);
    }
  });

  const size = trwh[0]?.trwh;
  for (const p of aswm) {
    const a = p.aswm;
    if (size && !(size.width === a.gridWidth && size.height === a.gridHeight) && !(size.width * 4 === a.gridWidth && size.height * 4 === a.gridHeight)) {
      out.warning('nwn2.trx.size-mismatch', undefined, () =>
        `the TRWH area size is ${size.width} × ${size.height}, but the walkmesh grid is ${a.gridWidth} × ${a.gridHeight} tiles of ${floatOfBits(a.tileWidth)} m (interiors: equal; exteriors: 4 tiles per TRWH megatile)`,
      );
    }
    validateAswm(a, out);
  }
  return out.finish();
}

function checkIndices(out: FindingSink, kind: 'trrn' | 'watr', what: string, triangles: Uint16Array, vertices: number): void {
  for (let i = 0; i < triangles.length; i++) {
    if (triangles[i]! >= vertices) {
      const t = (i / 3) | 0;
      out.error(`nwn2.${kind}.vertex-out-of-range`, undefined, () => `${what}: triangle ${t} uses vertex ${triangles[i]}, but the packet has ${vertices} vertices`);
    }
  }
}
