import pako from 'pako';
import { crc32 } from '../../shared/formats/archives/crc32';

export interface ZipInput {
  name: string;
  data: Uint8Array;
  /** Deflate (method 8, pako 2.1.0 raw deflate) or store (method 0). Default deflate. */
  method?: 'deflate' | 'stored';
}

export interface ZipWriteOptions {
  /** Write the ZIP64 end record and locator (with the classic record's fields saturated). */
  zip64?: boolean;
  comment?: string;
}

/**
 * A minimal zip writer for tests (APPNOTE 6.3: local headers, central directory, end
 * record; optional ZIP64 end record), so archives shaped like an NWN2 install's Data zips
 * can be built from fixtures in a temp folder.
 */
export function writeZip(entries: readonly ZipInput[], options: ZipWriteOptions = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  const enc = new TextEncoder();
  for (const e of entries) {
    const name = enc.encode(e.name);
    const stored = e.method === 'stored';
    const body = stored ? e.data : pako.deflateRaw(e.data, { level: 6 });
    const crc = crc32(e.data);
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, stored ? 0 : 8, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, body.length, true);
    lv.setUint32(22, e.data.length, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const cd = new Uint8Array(46 + name.length);
    const cv = new DataView(cd.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, stored ? 0 : 8, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, body.length, true);
    cv.setUint32(24, e.data.length, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    cd.set(name, 46);
    parts.push(local, body);
    central.push(cd);
    offset += local.length + body.length;
  }
  const cdOffset = offset;
  const cdSize = central.reduce((n, c) => n + c.length, 0);
  parts.push(...central);
  offset += cdSize;
  if (options.zip64) {
    const z = new Uint8Array(56 + 20);
    const zv = new DataView(z.buffer);
    zv.setUint32(0, 0x06064b50, true);
    zv.setBigUint64(4, 44n, true);
    zv.setUint16(12, 45, true);
    zv.setUint16(14, 45, true);
    zv.setBigUint64(24, BigInt(entries.length), true);
    zv.setBigUint64(32, BigInt(entries.length), true);
    zv.setBigUint64(40, BigInt(cdSize), true);
    zv.setBigUint64(48, BigInt(cdOffset), true);
    zv.setUint32(56, 0x07064b50, true);
    zv.setBigUint64(64, BigInt(offset), true);
    zv.setUint32(72, 1, true);
    parts.push(z);
  }
  const comment = enc.encode(options.comment ?? '');
  const end = new Uint8Array(22 + comment.length);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, options.zip64 ? 0xffff : entries.length, true);
  ev.setUint16(10, options.zip64 ? 0xffff : entries.length, true);
  ev.setUint32(12, options.zip64 ? 0xffffffff : cdSize, true);
  ev.setUint32(16, options.zip64 ? 0xffffffff : cdOffset, true);
  ev.setUint16(20, comment.length, true);
  end.set(comment, 22);
  parts.push(end);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
