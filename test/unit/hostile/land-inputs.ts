import { portableEnvironment as env } from '../../../shared/formats/format-environment';
import { RECORD_HEADER_SIZE, walkRecords, type PluginRecord, type RawSubrecord } from '../../../shared/formats/skyrim/plugin-document';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { recordBody } from '../../../shared/formats/skyrim/plugin-writer';
import { fixtureInputs } from './reader-memory';

/**
 * Inputs of readLandRecord for the memory bounds: a LAND record's body (its subrecords,
 * uncompressed, as the reader sees them) from the fixtures' plugins, and hostile bodies of
 * about 1 MiB (at up to 20 bytes a byte, the per-byte term dwarfs the fixed allowance) flooding each kind of
 * subrecord the reader allocates for. The reader takes a parsed record, not bytes: each
 * body is parsed here by the plugin reader (its own bound is PLUGIN_READ_MEMORY), outside
 * the measured read, and found again by `landRecordOf`.
 */
const parsed = new WeakMap<Uint8Array, PluginRecord>();

/** The LAND record `landInputs` parsed from this body. */
export function landRecordOf(body: Uint8Array): PluginRecord {
  const record = parsed.get(body);
  if (!record) throw new Error('landRecordOf: not a body made by landInputs');
  return record;
}

const FLOOD_BYTES = 1024 * 1024;
const REFUSED_BYTES = 64 * 1024;

function sub(signature: string, data: Uint8Array): RawSubrecord {
  return { kind: 'raw', signature, data };
}

function bytesOf(values: number[]): Uint8Array {
  return Uint8Array.from(values);
}

/** A TES4 header with no subrecords, then one uncompressed LAND record holding `body`. */
function landPlugin(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(2 * RECORD_HEADER_SIZE + body.length);
  const v = new DataView(out.buffer);
  out.set([0x54, 0x45, 0x53, 0x34], 0);
  out.set([0x4c, 0x41, 0x4e, 0x44], RECORD_HEADER_SIZE);
  v.setUint32(RECORD_HEADER_SIZE + 4, body.length, true);
  v.setUint32(RECORD_HEADER_SIZE + 12, 0x0001abcd, true);
  v.setUint16(RECORD_HEADER_SIZE + 20, 44, true);
  out.set(body, 2 * RECORD_HEADER_SIZE);
  return out;
}

function input(name: string, subrecords: RawSubrecord[]): { name: string; bytes: Uint8Array } {
  const record: PluginRecord = { kind: 'record', signature: 'LAND', flags: 0, formId: 0x0001abcd, versionControl1: 0, formVersion: 44, versionControl2: 0, compressed: false, subrecords, sourceOffset: -1 };
  const body = recordBody(record);
  const read = readPlugin(landPlugin(body), env).items[1];
  if (read?.kind !== 'record' || read.signature !== 'LAND') throw new Error(`${name}: the LAND record did not read back`);
  parsed.set(body, read);
  return { name, bytes: body };
}

/** `unit` repeated until the body is about `bytes`, then `tail`. */
function flood(name: string, unit: RawSubrecord[], tail: RawSubrecord[] = [], bytes = FLOOD_BYTES): { name: string; bytes: Uint8Array } {
  const size = unit.reduce((n, s) => n + 6 + s.data.length, 0);
  const out: RawSubrecord[] = [];
  for (let i = 0; i < Math.floor(bytes / size); i++) out.push(...unit);
  return input(name, [...out, ...tail]);
}

const LAND_VERTICES = 33 * 33;
/** ATXT: LTEX FormID, quadrant, unknown byte, layer. */
const atxt = (quadrant = 1) => sub('ATXT', bytesOf([0x34, 0x12, 0, 0, quadrant, 0, 2, 0]));
const vtxt = (points: number) => sub('VTXT', new Uint8Array(points * 8).fill(1));
const vhgt = (offset = 0) => {
  const d = new Uint8Array(4 + LAND_VERTICES + 3);
  new DataView(d.buffer).setFloat32(0, offset, true);
  return sub('VHGT', d);
};

export function landInputs(): { name: string; bytes: Uint8Array }[] {
  const real: { name: string; bytes: Uint8Array }[] = [];
  for (const folder of ['skyrim-land', 'skyrim']) {
    for (const plugin of fixtureInputs(folder, ['.esp', '.esm'])) {
      let n = 0;
      for (const { record } of walkRecords(readPlugin(plugin.bytes, env).items)) {
        if (record.signature !== 'LAND') continue;
        const raw = record.subrecords.filter((s): s is RawSubrecord => s.kind === 'raw');
        real.push(input(`${plugin.name} LAND ${n++}`, raw));
      }
    }
  }
  return [
    ...real,
    flood('ATXT + one-point VTXT pairs', [atxt(), vtxt(1)]),
    flood('ATXT and BTXT layers', [atxt(), sub('BTXT', bytesOf([0, 0, 0, 0, 2, 0, 0xff, 0xff]))]),
    flood('VHGT heights again and again', [vhgt(12)]),
    flood('VNML and VCLR again and again', [sub('VNML', new Uint8Array(LAND_VERTICES * 3)), sub('VCLR', new Uint8Array(LAND_VERTICES * 3))]),
    flood('empty unknown subrecords and 1-byte DATA', [sub('MPCD', new Uint8Array(0)), sub('DATA', bytesOf([1]))]),
    input('one ATXT with a 1 MiB VTXT', [atxt(), vtxt(FLOOD_BYTES / 8)]),
    // Refused (a MalformedInputError) after what comes before the bad subrecord was read:
    // smaller floods (64 KiB), which keep the test's heap and its collections small.
    flood('ATXT + VTXT pairs, then a VTXT of 7 bytes', [atxt(), vtxt(1)], [atxt(), sub('VTXT', new Uint8Array(7))], REFUSED_BYTES),
    flood('ATXT + VTXT pairs, then quadrant 4', [atxt(), vtxt(1)], [atxt(4)], REFUSED_BYTES),
    flood('ATXT + VTXT pairs, then a second VTXT', [atxt(), vtxt(1)], [vtxt(1)], REFUSED_BYTES),
    flood('VHGTs, then a VHGT one byte short', [vhgt()], [sub('VHGT', new Uint8Array(4 + LAND_VERTICES + 2))], REFUSED_BYTES),
    flood('VHGTs, then a NaN height offset', [vhgt()], [vhgt(Number.NaN)], REFUSED_BYTES),
  ];
}
