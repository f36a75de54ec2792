import { describe, expect, it } from 'vitest';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { READ_MEMORY_ALLOWANCE, type ReadMemoryBound } from '../../../shared/binary/read-budget';
import { MDL_READ_MEMORY, readKotorModel } from '../../../shared/formats/kotor/mdl-reader';
import { MDB_FORMAT } from '../../../shared/formats/nwn2/mdb-document';
import { MDB_MESH_READ_MEMORY, mdbMeshes } from '../../../shared/formats/nwn2/mdb-rigid';
import { readNwn2Container } from '../../../shared/formats/nwn2/nwn2-container';
import { bspLevelContextPieces } from '../../../shared/formats/source/bsp-level-context';
import { BSP_LEVEL_CONTEXT_MEMORY, BSP_READ_MEMORY, readBsp } from '../../../shared/formats/source/bsp-reader';
import { LAND_READ_MEMORY, readLandRecord } from '../../../shared/formats/skyrim/land-record';
import { mdlTarget } from '../../fuzz/targets/mdl-target';
import { bspTarget } from '../../fuzz/targets/bsp-target';
import { mdbCountFields } from '../../fuzz/structure-mutators';
import type { CountField } from '../../fuzz/fuzz-target';
import { LZMA_LUMPS, withLzmaLumps } from '../../support/lzma-lumps';
import { DDS_READ_MEMORY, readDds } from '../../../shared/formats/images/dds-reader';
import { readTga, TGA_READ_MEMORY } from '../../../shared/formats/images/tga-reader';
import { ddsTarget, tgaTarget } from '../../fuzz/targets/image-targets';
import { allocation, fixtureInputs } from './reader-memory';
import { landInputs, landRecordOf } from './land-inputs';

/**
 * Each reader's stated memory bound (its exported ReadMemoryBound: per input byte, per
 * decompressed byte, plus READ_MEMORY_ALLOWANCE) measured on the real fixtures and on
 * hostile inputs made from them: every count field the fuzz targets know set to huge
 * values, and crafted worst cases named in the readers' own bound comments. A hostile
 * input may be refused (a MalformedInputError) or read, but either way within the bound.
 */
interface Input {
  name: string;
  bytes: Uint8Array;
  /** Bytes the read decompresses (LZMA lumps). */
  inflated?: number;
}

interface Row {
  reader: string;
  bound: ReadMemoryBound;
  inputs: () => Input[];
  read: (bytes: Uint8Array) => unknown;
}

const u32 = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, true);

/** Copies of `bytes` with each of the first `perKind` fields of every kind set to each value. */
function countAttacks(name: string, bytes: Uint8Array, fields: readonly CountField[], perKind = 2): Input[] {
  const seen = new Map<string, number>();
  const out: Input[] = [];
  for (const f of fields) {
    const n = seen.get(f.kind) ?? 0;
    if (n >= perKind) continue;
    seen.set(f.kind, n + 1);
    for (const value of [0x7fffffff, bytes.length]) {
      const copy = bytes.slice();
      const v = new DataView(copy.buffer);
      if (f.byteWidth === 4) v.setUint32(f.offset, value >>> 0, true);
      else if (f.byteWidth === 2) v.setUint16(f.offset, value & 0xffff, true);
      else copy[f.offset] = value & 0xff;
      out.push({ name: `${name} ${f.kind}@${f.offset}=${value}`, bytes: copy });
    }
  }
  return out;
}

const GOLDSRC_VERSION = 30;

/**
 * readBsp's worst case named in its bound: a GoldSrc texture lump of 1 MiB whose every
 * 4-byte offset names the same 16-byte name (one string per 4 bytes). Appended to a real
 * map, the directory pointing at it; the map's texinfo indices stay below the new count.
 */
function goldsrcNameFlood(map: Uint8Array): Uint8Array {
  const lump = 1024 * 1024;
  const out = new Uint8Array(map.length + lump);
  out.set(map);
  const v = new DataView(out.buffer);
  const count = (lump - 4) / 4;
  v.setInt32(map.length, count, true);
  // Offsets all 0: the name is the lump's first 16 bytes (the count and three offsets).
  v.setInt32(4 + 2 * 8, map.length, true);
  v.setInt32(8 + 2 * 8, lump, true);
  return out;
}

function bspInputs(): Input[] {
  const real = fixtureInputs('source-maps', ['.bsp']);
  const goldsrc = real.filter((r) => u32(r.bytes, 0) === GOLDSRC_VERSION).sort((a, b) => a.bytes.length - b.bytes.length)[0];
  const source = real.filter((r) => u32(r.bytes, 0) !== GOLDSRC_VERSION).sort((a, b) => a.bytes.length - b.bytes.length)[0];
  const out: Input[] = [...real];
  const lzmaBase = real.find((r) => r.name.endsWith('test_physcollide.bsp'));
  if (lzmaBase) out.push({ name: 'test_physcollide with LZMA lumps', bytes: withLzmaLumps(lzmaBase.bytes), inflated: LZMA_LUMPS.reduce((n, l) => n + l.size, 0) });
  // A lying LZMA header: 64 MiB claimed for a 3,520-byte planes lump. Nothing is counted as
  // inflated: the stream ends long before, and the claim alone must not allocate the 64 MiB.
  if (lzmaBase) {
    const lying = withLzmaLumps(lzmaBase.bytes, (h, _s, index) => index === 1 && h.setUint32(4, 64 * 1024 * 1024, true));
    out.push({ name: 'test_physcollide with an LZMA lump claiming 64 MiB', bytes: lying });
  }
  if (goldsrc) out.push({ name: `${goldsrc.name} with a 1 MiB texture lump naming one name from every offset`, bytes: goldsrcNameFlood(goldsrc.bytes) });
  for (const base of [goldsrc, source]) if (base) out.push(...countAttacks(base.name, base.bytes, bspTarget.countFields!(base.bytes)));
  return out;
}

function mdlInputs(): Input[] {
  const real = ['kotor/k1-blackvulkar-models', 'kotor/pykotor-mdl', 'kotor/k1cp-rooms'].flatMap((f) => fixtureInputs(f, ['.mdl']));
  const out: Input[] = [...real];
  // Count attacks on the two smallest models (names, animations, every node's arrays).
  for (const base of [...real].sort((a, b) => a.bytes.length - b.bytes.length).slice(0, 2)) {
    out.push(...countAttacks(base.name, base.bytes, mdlTarget.countFields!(base.bytes)));
  }
  return out;
}

/** MDB mesh packets' vertex and face counts (after the names and the 164-byte material). */
function mdbMeshCountFields(bytes: Uint8Array): CountField[] {
  const out: CountField[] = [];
  for (const p of readNwn2Container(bytes, MDB_FORMAT).packets) {
    const names = p.type === 'SKIN' ? 2 : p.type === 'RIGD' || p.type === 'COL2' || p.type === 'COL3' ? 1 : 0;
    if (names === 0) continue;
    const at = p.payloadOffset + 32 * names + 32 + 96 + 12 + 24;
    out.push({ offset: at, byteWidth: 4, kind: `${p.type}.vertexCount` }, { offset: at + 4, byteWidth: 4, kind: `${p.type}.faceCount` });
  }
  return out;
}

function mdbInputs(): Input[] {
  const real = fixtureInputs('nwn2', ['.mdb']);
  const out: Input[] = [...real];
  for (const base of real) out.push(...countAttacks(base.name, base.bytes, [...mdbCountFields(base.bytes), ...mdbMeshCountFields(base.bytes)]));
  return out;
}

/** Built textures (none are among the fixtures) and each with its sizes made huge; for TGA also a run-length flood (one 4-byte packet per 128 pixels, bottom-first rows turned). */
function imageInputs(target: typeof ddsTarget): () => Input[] {
  return () => {
    const seeds = target.loadCorpus({ maxSize: Infinity, all: true });
    const out: Input[] = [...seeds];
    for (const s of seeds) out.push(...countAttacks(s.name, s.bytes, target.countFields!(s.bytes), 3));
    if (target === tgaTarget) {
      const packets = 4096;
      const flood = new Uint8Array(18 + packets * 4);
      flood[2] = 10;
      new DataView(flood.buffer).setUint16(12, 512, true);
      new DataView(flood.buffer).setUint16(14, (packets * 128) / 512, true);
      flood[16] = 24;
      for (let i = 0; i < packets; i++) flood[18 + i * 4] = 0xff;
      out.push({ name: 'run-length flood 512 × 1024 from 16 KiB', bytes: flood });
    }
    return out;
  };
}

const rows: Row[] = [
  { reader: 'readDds', bound: DDS_READ_MEMORY, inputs: imageInputs(ddsTarget), read: (b) => readDds(b, 'hostile.dds') },
  { reader: 'readTga', bound: TGA_READ_MEMORY, inputs: imageInputs(tgaTarget), read: (b) => readTga(b, 'hostile.tga') },
  { reader: 'readBsp', bound: BSP_READ_MEMORY, inputs: bspInputs, read: (b) => readBsp(b, 'hostile.bsp') },
  { reader: 'readBsp + bspLevelContextPieces', bound: BSP_LEVEL_CONTEXT_MEMORY, inputs: bspInputs, read: (b) => bspLevelContextPieces(readBsp(b, 'hostile.bsp')) },
  { reader: 'readKotorModel (MDL without MDX)', bound: MDL_READ_MEMORY, inputs: mdlInputs, read: (b) => readKotorModel(b, null, 'hostile.mdl') },
  { reader: 'mdbMeshes', bound: MDB_MESH_READ_MEMORY, inputs: mdbInputs, read: (b) => mdbMeshes(b) },
  // The input is a LAND record's subrecords; the record was parsed from them beforehand (land-inputs.ts).
  { reader: 'readLandRecord (Skyrim LAND)', bound: LAND_READ_MEMORY, inputs: landInputs, read: (b) => readLandRecord(landRecordOf(b)) },
];

describe('readers stay within their stated memory bound on real and hostile inputs', () => {
  for (const row of rows) {
    it(`${row.reader}: ${row.bound.perInputByte} × input + ${row.bound.perDecompressedByte} × inflated + ${READ_MEMORY_ALLOWANCE} bytes`, () => {
      const inputs = row.inputs();
      const attempt = (bytes: Uint8Array): { accepted: boolean; error?: unknown } => {
        try {
          row.read(bytes);
          return { accepted: true };
        } catch (e) {
          return { accepted: false, error: e };
        }
      };
      // Warm up on the first input: compiling the reader is not the read's memory.
      attempt(inputs[0]!.bytes);
      const over: string[] = [];
      let accepted = 0;
      let refused = 0;
      let worst = 0;
      let worstName = '';
      for (const input of inputs) {
        const { bytes, result } = allocation(() => attempt(input.bytes));
        if (!result.accepted && !isMalformedInputError(result.error)) over.push(`${input.name}: threw ${String(result.error)}`);
        if (result.accepted) accepted++;
        else refused++;
        const bound = row.bound.perInputByte * input.bytes.length + row.bound.perDecompressedByte * (input.inflated ?? 0) + READ_MEMORY_ALLOWANCE;
        if (bytes / bound > worst) [worst, worstName] = [bytes / bound, input.name];
        if (bytes > bound) over.push(`${input.name}: ${bytes} bytes, bound ${bound}`);
      }
      process.stderr.write(`${row.reader}: ${inputs.length} inputs (${accepted} read, ${refused} refused), worst ${(worst * 100).toFixed(0)}% of the bound (${worstName})\n`);
      expect(over).toEqual([]);
      // Both kinds were exercised: real files read, hostile ones refused.
      expect(accepted).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
    });
  }
});
