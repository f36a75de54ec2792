import { readNav } from '../../shared/formats/source/nav-reader';
import { writeNav } from '../../shared/formats/source/nav-writer';
import {
  BWM_SECTION_FIELDS,
  bodySubrecords,
  buildBody,
  bwmOverlappingSections,
  bwmWithNonFinite,
  compressedNavmeshes,
  compressedRecordData,
  containerPackets,
  duplicatePacketEntry,
  erfRepeatedEntries,
  gffSharedListStructs,
  maxRepeats,
  mdbWithNonFiniteWalk,
  NON_FINITE_BITS,
  nvnmGridOffset,
  nvnmWithHugeGrid,
  nvnmWithNonFiniteVertices,
  nvnmWithTrailingZeros,
  overlapPacket,
  pluginRecords,
  pluginWithNvnm,
  recordBody,
  repeatPacketEntries,
  replaceRecordData,
  trxWithAswm,
  trxWithAswmBomb,
  trxWithLyingAswmSize,
  type PacketSpan,
  type PluginRecordSpan,
} from './crafted-inputs';
import type { StructureMutator } from './fuzz-target';
import { builtMutation, type Mutation, type StructureMutatorName } from './mutators';
import type { Rng } from './prng';

/**
 * The structure-aware mutators of each format (mutators.ts STRUCTURE_MUTATORS), built on
 * crafted-inputs.ts. Each `*Structure` function reads what its mutators need from a valid
 * seed (undefined when nothing applies); each mutator picks its parameters with the
 * iteration's generator and builds the input lazily (builtMutation).
 */

const KiB = 1024;
const MiB = 1024 * 1024;
const hex = (n: number) => `0x${n.toString(16)}`;
const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at, true);
function withU32(b: Uint8Array, at: number, v: number): Uint8Array {
  const out = b.slice();
  new DataView(out.buffer).setUint32(at, v >>> 0, true);
  return out;
}

function mutator(name: StructureMutatorName, weight: number, plan: (rng: Rng, base: Uint8Array, structure: never) => Mutation | undefined): StructureMutator {
  return { name, weight, plan: plan as StructureMutator['plan'] };
}

const BIT_NAMES = new Map<number, string>([
  [NON_FINITE_BITS[0], 'NaN'],
  [NON_FINITE_BITS[1], '+Infinity'],
  [NON_FINITE_BITS[2], '-Infinity'],
]);
function nonFiniteBits(rng: Rng): { bits: number; name: string } {
  const bits = rng.pick(NON_FINITE_BITS);
  return { bits, name: BIT_NAMES.get(bits)! };
}

/** Sizes of zero runs for zlib bombs: small ones are accepted, large ones meet the budget. */
const BOMB_ZEROS = [64 * KiB, 1 * MiB, 8 * MiB, 40 * MiB];

// ---------------------------------------------------------------------------------------
// NWN2 container: TRN/TRX and MDB

interface ContainerStructure {
  packets: PacketSpan[];
  largest: number;
  repeats: number;
  /** The ASWM walkmesh, for TRN/TRX: its packet and (once inflated) its layout. */
  aswm: PacketSpan | undefined;
}

export function containerStructure(bytes: Uint8Array): ContainerStructure | undefined {
  try {
    const packets = containerPackets(bytes);
    if (packets.length === 0) return undefined;
    let largest = 0;
    packets.forEach((p, i) => {
      if (p.size > packets[largest]!.size) largest = i;
    });
    return { packets, largest, repeats: maxRepeats(bytes), aswm: packets.find((p) => p.type === 'ASWM') };
  } catch {
    return undefined;
  }
}

const tableRepeat = mutator('table-repeat', 3, (rng, base, s: ContainerStructure) => {
  const p = rng.next() < 0.6 ? s.largest : rng.below(s.packets.length);
  const target = s.packets[p]!;
  if (rng.next() < 0.3 && s.packets.length >= 2) {
    const e = (p + 1 + rng.below(s.packets.length - 1)) % s.packets.length;
    return builtMutation('table-repeat', `table-repeat: entry #${e} made a second entry of packet #${p} (${target.type})`, () => duplicatePacketEntry(base, e, p));
  }
  const times = Math.min(s.repeats, rng.pick([1, 2, 16, 256, 4096]));
  if (times < 1) return undefined;
  return builtMutation('table-repeat', `table-repeat: packet #${p} (${target.type}, ${target.size} bytes) named by ${times} more table entries`, () => repeatPacketEntries(base, p, times));
});

const tableOverlap = mutator('table-overlap', 2, (rng, base, s: ContainerStructure) => {
  const byOffset = [...s.packets].sort((a, b) => a.offset - b.offset);
  if (byOffset.length < 2) return undefined;
  const p = byOffset[rng.below(byOffset.length - 1)]!;
  return builtMutation('table-overlap', `table-overlap: packet #${p.index} (${p.type}) stretched over every packet after it`, () => overlapPacket(base, p.index));
});

/** Offsets inside a decompressed ASWM (spec §3.3): the tiles header and the triangle records. */
function aswmLayout(raw: Uint8Array): { tilesHeader: number; triangles: number; triBytes: number; normalAt: number; dotAt: number; count: number } {
  const version = u32(raw, 0);
  const V = u32(raw, 37);
  const E = u32(raw, 41);
  const T = u32(raw, 45);
  const edgeBytes = version === 0x69 ? 52 : 16;
  const triBytes = version === 0x69 ? 88 : version === 0x6a ? 68 : 64;
  const triangles = 53 + V * 12 + E * edgeBytes;
  const normalAt = version === 0x69 ? 68 : version === 0x6a ? 48 : 44;
  return { tilesHeader: triangles + T * triBytes, triangles, triBytes, normalAt, dotAt: normalAt + 12, count: T };
}

/** A decompressed ASWM with NaN/Inf in its vertices, triangle normals or plane offsets. */
function aswmNonFinite(rng: Rng): { what: string; edit: (raw: Uint8Array) => Uint8Array } {
  const { bits, name } = nonFiniteBits(rng);
  const where = rng.pick(['vertices', 'normal', 'plane offset'] as const);
  const every = rng.pick([1, 7, 1000]);
  return {
    what: `${name} in every ${every === 1 ? '' : `${every}th `}${where === 'vertices' ? 'vertex' : `triangle ${where}`}`,
    edit(raw) {
      const out = raw.slice();
      const dv = new DataView(out.buffer);
      if (where === 'vertices') {
        const n = u32(raw, 37);
        for (let v = 0; v < n; v += every) for (let k = 0; k < 3; k++) dv.setUint32(53 + v * 12 + k * 4, bits, true);
        return out;
      }
      const l = aswmLayout(raw);
      for (let t = 0; t < l.count; t += every) dv.setUint32(l.triangles + t * l.triBytes + (where === 'normal' ? l.normalAt + 8 : l.dotAt), bits, true);
      return out;
    },
  };
}

/** A decompressed ASWM whose tile grid claims `w` × `h` tiles, with `zeros` bytes appended. */
function aswmHugeGrid(raw: Uint8Array, w: number, h: number, zeros: number): Uint8Array {
  const l = aswmLayout(raw);
  const out = new Uint8Array(raw.length + zeros);
  out.set(raw);
  const dv = new DataView(out.buffer);
  dv.setUint32(l.tilesHeader + 8, h, true);
  dv.setUint32(l.tilesHeader + 12, w, true);
  return out;
}

const GRID_SIDES = [100, 1000, 65536, 0x40000000];

const trxBomb = mutator('zlib-bomb', 3, (rng, base, s: ContainerStructure) => {
  if (!s.aswm || s.aswm.size < 12 || u32(base, s.aswm.offset + 8) !== 0x504d4f43) return undefined;
  const zeros = rng.pick(BOMB_ZEROS);
  const variant = rng.pick(['grown', 'grown', 'copies', 'lying', 'declared'] as const);
  if (variant === 'declared') {
    const declared = rng.pick([0, 1, 128 * MiB, 128 * MiB + 1, 0xffffffff]);
    return builtMutation('zlib-bomb', `zlib-bomb: ASWM COMP uncompressed size declared ${declared}`, () => withU32(base, s.aswm!.offset + 8 + 8, declared));
  }
  if (variant === 'lying') return builtMutation('zlib-bomb', `zlib-bomb: ASWM stream inflating ${zeros} bytes past its declared size`, () => trxWithLyingAswmSize(base, zeros));
  const copies = variant === 'copies' ? rng.pick([1, 3, 8]) : 0;
  return builtMutation('zlib-bomb', `zlib-bomb: ASWM walkmesh + ${zeros} zero bytes${copies ? `, and ${copies} more ASWM packets like it` : ''}`, () => trxWithAswmBomb(base, zeros, copies));
});

const trxSparse = mutator('sparse-inflate', 2, (rng, base, s: ContainerStructure) => {
  if (!s.aswm) return undefined;
  const [w, h, zeros] = [rng.pick(GRID_SIDES), rng.pick(GRID_SIDES), rng.pick([0, 0, 1 * MiB, 16 * MiB])];
  return builtMutation('sparse-inflate', `sparse-inflate: ASWM tile grid ${w} × ${h}${zeros ? ` with ${zeros} zero bytes after it` : ''}`, () => trxWithAswm(base, (raw) => aswmHugeGrid(raw, w, h, zeros)));
});

const trxNonFinite = mutator('non-finite', 3, (rng, base, s: ContainerStructure) => {
  if (!s.aswm) return undefined;
  const nf = aswmNonFinite(rng);
  return builtMutation('non-finite', `non-finite: ASWM ${nf.what}`, () => trxWithAswm(base, nf.edit));
});

export const trxStructureMutators: readonly StructureMutator[] = [tableRepeat, tableOverlap, trxBomb, trxSparse, trxNonFinite];

const mdbNonFinite = mutator('non-finite', 2, (rng, base, s: ContainerStructure) => {
  if (!s.packets.some((p) => p.type === 'WALK')) return undefined;
  const { bits, name } = nonFiniteBits(rng);
  return builtMutation('non-finite', `non-finite: ${name} in every WALK vertex`, () => mdbWithNonFiniteWalk(base, bits));
});

export const mdbStructureMutators: readonly StructureMutator[] = [tableRepeat, tableOverlap, mdbNonFinite];

/** MDB count fields: the packet count and each WALK packet's vertex and face counts. */
export function mdbCountFields(bytes: Uint8Array): { offset: number; byteWidth: number; kind: string }[] {
  const out = [{ offset: 8, byteWidth: 4, kind: 'packet_count' }];
  for (const p of containerPackets(bytes)) {
    if (p.type !== 'WALK' || p.size < 44) continue;
    out.push({ offset: p.offset + 8 + 36, byteWidth: 4, kind: 'WALK.vertexCount' }, { offset: p.offset + 8 + 40, byteWidth: 4, kind: 'WALK.faceCount' });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Decompressed ASWM

export function aswmStructure(raw: Uint8Array): { tilesHeader: number } | undefined {
  if (raw.length < 53) return undefined;
  const l = aswmLayout(raw);
  return l.tilesHeader + 16 <= raw.length ? { tilesHeader: l.tilesHeader } : undefined;
}

export const aswmStructureMutators: readonly StructureMutator[] = [
  mutator('sparse-inflate', 2, (rng, base) => {
    const [w, h, zeros] = [rng.pick(GRID_SIDES), rng.pick(GRID_SIDES), rng.pick([0, 0, 256 * KiB, 4 * MiB])];
    return builtMutation('sparse-inflate', `sparse-inflate: tile grid ${w} × ${h}${zeros ? ` with ${zeros} zero bytes after it` : ''}`, () => aswmHugeGrid(base, w, h, zeros));
  }),
  mutator('non-finite', 3, (rng, base) => {
    const nf = aswmNonFinite(rng);
    return builtMutation('non-finite', `non-finite: ${nf.what}`, () => nf.edit(base));
  }),
];

/** ASWM count fields: the header's vertex, edge and triangle counts and the tile grid. */
export function aswmCountFields(raw: Uint8Array): { offset: number; byteWidth: number; kind: string }[] {
  const s = aswmStructure(raw);
  const out = [
    { offset: 37, byteWidth: 4, kind: 'header.vertices_count' },
    { offset: 41, byteWidth: 4, kind: 'header.edges_count' },
    { offset: 45, byteWidth: 4, kind: 'header.triangles_count' },
  ];
  if (s) out.push({ offset: s.tilesHeader + 8, byteWidth: 4, kind: 'tiles_header.grid_height' }, { offset: s.tilesHeader + 12, byteWidth: 4, kind: 'tiles_header.grid_width' });
  return out;
}

// ---------------------------------------------------------------------------------------
// KotOR BWM

export function bwmStructure(bytes: Uint8Array): { sections: number[] } | undefined {
  if (bytes.length < 136) return undefined;
  const sections = BWM_SECTION_FIELDS.map((f, i) => (u32(bytes, f.countAt) > 0 ? i : -1)).filter((i) => i >= 0);
  return sections.length >= 2 ? { sections } : undefined;
}

export const bwmStructureMutators: readonly StructureMutator[] = [
  mutator('table-overlap', 2, (rng, base, s: { sections: number[] }) => {
    const a = rng.pick(s.sections);
    const b = rng.pick(s.sections.filter((x) => x !== a));
    return builtMutation('table-overlap', `table-overlap: the ${BWM_SECTION_FIELDS[a]!.name} laid over the ${BWM_SECTION_FIELDS[b]!.name}`, () => bwmOverlappingSections(base, a, b));
  }),
  mutator('table-repeat', 1, (_rng, base) =>
    builtMutation('table-repeat', 'table-repeat: materials, normals and planes all read from the faces table', () => [2, 3, 4].reduce((b, s) => bwmOverlappingSections(b, s, 1), base)),
  ),
  mutator('non-finite', 3, (rng, base) => {
    const { bits, name } = nonFiniteBits(rng);
    const derived = rng.next() < 0.3;
    return builtMutation('non-finite', `non-finite: ${name} in every vertex${derived ? ', normal and plane distance' : ''}`, () => bwmWithNonFinite(base, bits, derived));
  }),
];

/** BWM count fields: the header's section counts. */
export function bwmCountFields(bytes: Uint8Array): { offset: number; byteWidth: number; kind: string }[] {
  if (bytes.length < 136) return [];
  return [0x48, 0x50, 0x64, 0x70, 0x78, 0x80].map((offset) => ({ offset, byteWidth: 4, kind: BWM_SECTION_FIELDS.find((f) => f.countAt === offset)!.name }));
}

// ---------------------------------------------------------------------------------------
// Skyrim plugins and NVNM

interface PluginStructure {
  navmeshes: PluginRecordSpan[];
  compressed: PluginRecordSpan[];
}

export function pluginStructure(bytes: Uint8Array): PluginStructure | undefined {
  try {
    const compressed = pluginRecords(bytes).filter((r) => (r.flags & 0x00040000) !== 0 && r.size > 4);
    return compressed.length > 0 ? { navmeshes: compressedNavmeshes(bytes), compressed } : undefined;
  } catch {
    return undefined;
  }
}

/** Grid divisors for sparse-inflate: just past xEdit's 12 up to 6.25 million empty cells. */
const DIVISORS = [13, 100, 1000, 2500];

export const pluginStructureMutators: readonly StructureMutator[] = [
  mutator('zlib-bomb', 3, (rng, base, s: PluginStructure) => {
    const r = rng.pick(s.compressed);
    const where = `${r.signature} ${hex(r.formId)}`;
    const variant = rng.pick(['zeros', 'zeros', 'empty subrecords', 'declared'] as const);
    if (variant === 'declared') {
      const declared = rng.pick([0, 1, 64 * MiB, 256 * MiB]);
      return builtMutation('zlib-bomb', `zlib-bomb: ${where} uncompressed size declared ${declared}`, () => withU32(base, r.offset + 24, declared));
    }
    if (variant === 'empty subrecords') {
      const n = rng.pick([10_000, 100_000, 1_000_000]);
      return builtMutation('zlib-bomb', `zlib-bomb: ${where} with ${n} more empty subrecords`, () => {
        const subs = bodySubrecords(recordBody(base, r));
        const empty = new Uint8Array(0);
        for (let i = 0; i < n; i++) subs.push({ signature: 'ZZZZ', data: empty });
        return replaceRecordData(base, r, compressedRecordData(buildBody(subs), undefined, 1));
      });
    }
    const zeros = rng.pick(BOMB_ZEROS);
    const inNvnm = r.signature === 'NAVM' && rng.next() < 0.5;
    return builtMutation('zlib-bomb', `zlib-bomb: ${where} with ${zeros} zero bytes ${inNvnm ? 'after its NVNM' : 'in a new subrecord'}`, () => {
      if (inNvnm) return pluginWithNvnm(base, [r], (n) => nvnmWithTrailingZeros(n, zeros), undefined, 1);
      const subs = bodySubrecords(recordBody(base, r));
      subs.push({ signature: 'ZZZZ', data: new Uint8Array(zeros) });
      return replaceRecordData(base, r, compressedRecordData(buildBody(subs), undefined, 1));
    });
  }),
  mutator('sparse-inflate', 2, (rng, base, s: PluginStructure) => {
    if (s.navmeshes.length === 0) return undefined;
    const r = rng.pick(s.navmeshes);
    const divisor = rng.pick(DIVISORS);
    return builtMutation('sparse-inflate', `sparse-inflate: NAVM ${hex(r.formId)} grid divisor ${divisor} (${divisor * divisor} empty cells)`, () => pluginWithNvnm(base, [r], (n) => nvnmWithHugeGrid(n, divisor), undefined, 1));
  }),
  mutator('non-finite', 3, (rng, base, s: PluginStructure) => {
    if (s.navmeshes.length === 0) return undefined;
    const r = rng.pick(s.navmeshes);
    const { bits, name } = nonFiniteBits(rng);
    const every = rng.pick([1, 5, 1000]);
    return builtMutation('non-finite', `non-finite: ${name} in every ${every === 1 ? '' : `${every}th `}vertex of NAVM ${hex(r.formId)}`, () => pluginWithNvnm(base, [r], (n) => nvnmWithNonFiniteVertices(n, bits, every), undefined, 1));
  }),
];

export function nvnmStructure(nvnm: Uint8Array): { grid: number } | undefined {
  try {
    const grid = nvnmGridOffset(nvnm);
    return grid + 36 <= nvnm.length ? { grid } : undefined;
  } catch {
    return undefined;
  }
}

export const nvnmStructureMutators: readonly StructureMutator[] = [
  mutator('sparse-inflate', 2, (rng, base) => {
    const divisor = rng.pick([13, 100, 500, 1500]);
    return builtMutation('sparse-inflate', `sparse-inflate: grid divisor ${divisor} (${divisor * divisor} empty cells)`, () => nvnmWithHugeGrid(base, divisor));
  }),
  mutator('non-finite', 3, (rng, base, s: { grid: number }) => {
    const { bits, name } = nonFiniteBits(rng);
    if (rng.next() < 0.3) return builtMutation('non-finite', `non-finite: ${name} in the grid bounds`, () => {
      const out = base.slice();
      const dv = new DataView(out.buffer);
      for (let k = 0; k < 8; k++) dv.setUint32(s.grid + 4 + k * 4, bits, true);
      return out;
    });
    const every = rng.pick([1, 5, 1000]);
    return builtMutation('non-finite', `non-finite: ${name} in every ${every === 1 ? '' : `${every}th `}vertex`, () => nvnmWithNonFiniteVertices(base, bits, every));
  }),
];

/** NVNM count fields: every list count up to the grid, the divisor and the cells' counts. */
export function nvnmCountFields(nvnm: Uint8Array): { offset: number; byteWidth: number; kind: string }[] {
  const out: { offset: number; byteWidth: number; kind: string }[] = [];
  let o = 16;
  for (const [kind, item] of [['vertices', 12], ['triangles', 16], ['edgeLinks', 10], ['doorLinks', 10], ['coverTriangles', 2]] as const) {
    if (o + 4 > nvnm.length) return out;
    out.push({ offset: o, byteWidth: 4, kind: `${kind}.count` });
    o += 4 + u32(nvnm, o) * item;
  }
  if (o + 36 > nvnm.length) return out;
  out.push({ offset: o, byteWidth: 4, kind: 'grid.divisor' });
  const cells = u32(nvnm, o) ** 2;
  o += 36;
  for (let c = 0; c < cells && o + 4 <= nvnm.length; c++) {
    out.push({ offset: o, byteWidth: 4, kind: 'grid.cell.count' });
    o += 4 + u32(nvnm, o) * 2;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// GFF, ERF, Source .nav

/** A GFF whose header's sections lie inside the file (undefined otherwise). */
export function gffStructure(bytes: Uint8Array): object | undefined {
  if (bytes.length < 56) return undefined;
  for (let i = 0; i < 6; i++) if (u32(bytes, 8 + i * 8) > bytes.length) return undefined;
  return u32(bytes, 40) + u32(bytes, 44) <= bytes.length && u32(bytes, 48) + u32(bytes, 52) <= bytes.length ? {} : undefined;
}

export const gffStructureMutators: readonly StructureMutator[] = [
  mutator('table-repeat', 2, (rng, base) => {
    if (rng.next() < 0.5) {
      const shared = gffSharedListStructs(base);
      if (shared) return builtMutation('table-repeat', 'table-repeat: a list naming its first struct in every entry', () => shared);
    }
    // A field-index slot naming the field of another slot: one field reached twice.
    const fi = u32(base, 40);
    const slots = Math.floor(u32(base, 44) / 4);
    if (slots < 2) return undefined;
    const [a, b] = [rng.below(slots), rng.below(slots)];
    return builtMutation('table-repeat', `table-repeat: field-index slot ${a} made a copy of slot ${b}`, () => withU32(base, fi + a * 4, u32(base, fi + b * 4)));
  }),
  mutator('table-overlap', 1, (rng, base) => {
    const names = ['struct', 'field', 'label', 'fieldData', 'fieldIndices', 'listIndices'];
    const [a, b] = [rng.below(6), rng.below(6)];
    if (a === b) return undefined;
    return builtMutation('table-overlap', `table-overlap: the ${names[a]} section laid over the ${names[b]} section`, () => withU32(base, 8 + a * 8, u32(base, 8 + b * 8)));
  }),
];

interface ErfStructure {
  n: number;
  list: number;
  largest: number;
}

/** An ERF whose resource list lies inside the file (undefined otherwise). */
export function erfStructure(bytes: Uint8Array): ErfStructure | undefined {
  if (bytes.length < 160) return undefined;
  const n = u32(bytes, 16);
  const list = u32(bytes, 28);
  if (n === 0 || list > bytes.length || n * 8 > bytes.length - list) return undefined;
  let largest = 0;
  for (let i = 1; i < n; i++) if (u32(bytes, list + i * 8 + 4) > u32(bytes, list + largest * 8 + 4)) largest = i;
  return { n, list, largest };
}

export const erfStructureMutators: readonly StructureMutator[] = [
  mutator('table-repeat', 2, (rng, base, s: ErfStructure) => {
    const resource = rng.next() < 0.6 ? s.largest : rng.below(s.n);
    const times = rng.pick([1, 8, 256, 4000]);
    return builtMutation('table-repeat', `table-repeat: resource ${resource} listed ${times} more times`, () => erfRepeatedEntries(base, resource, times));
  }),
  mutator('table-overlap', 2, (rng, base, s: ErfStructure) => {
    if (s.n < 2) return undefined;
    const [a, b] = [rng.below(s.n), rng.below(s.n)];
    const start = u32(base, s.list + b * 8);
    const size = u32(base, s.list + b * 8 + 4);
    const shift = size > 1 ? rng.below(size) : 0;
    return builtMutation('table-overlap', `table-overlap: resource ${a} moved to ${shift} bytes into resource ${b}`, () => withU32(base, s.list + a * 8, start + shift));
  }),
];

export const navStructureMutators: readonly StructureMutator[] = [
  mutator('non-finite', 1, (rng, base) => {
    const { bits, name } = nonFiniteBits(rng);
    const every = rng.pick([1, 3, 100]);
    const word = rng.below(8);
    return builtMutation('non-finite', `non-finite: ${name} in corner word ${word} of every ${every === 1 ? '' : `${every}th `}area`, () => {
      const doc = readNav(base);
      for (let a = 0; a < doc.areas.count; a += every) doc.areas.corners[a * 8 + word] = bits;
      return writeNav(doc);
    });
  }),
];

// ---------------------------------------------------------------------------------------
// Walkbench project files (SQLite databases)

/** What the SQLite mutators know of a project file: its page size and whole pages. */
export interface SqliteStructure {
  pageSize: number;
  pages: number;
}

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32be = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at, false);

/** An SQLite database with a valid page size (header offset 16; 1 means 65536) and at least one page. */
export function sqliteStructure(bytes: Uint8Array): SqliteStructure | undefined {
  if (bytes.length < 100 || String.fromCharCode(...bytes.subarray(0, 16)) !== 'SQLite format 3\0') return undefined;
  const raw = u16be(bytes, 16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return undefined;
  const pages = Math.floor(bytes.length / pageSize);
  return pages >= 1 ? { pageSize, pages } : undefined;
}

/** A big-endian header field of the given width set to `value`. */
function withHeaderField(b: Uint8Array, at: number, width: 1 | 2 | 4, value: number): Uint8Array {
  const out = b.slice();
  const dv = new DataView(out.buffer);
  if (width === 1) dv.setUint8(at, value & 0xff);
  else if (width === 2) dv.setUint16(at, value & 0xffff, false);
  else dv.setUint32(at, value >>> 0, false);
  return out;
}

interface HeaderField {
  name: string;
  at: number;
  width: 1 | 2 | 4;
  values(rng: Rng, base: Uint8Array, s: SqliteStructure): number[];
}

/** 'WBNC', the project application_id (electron/services/project/project-database.ts). */
const WBNC = 0x57424e43;

/** The header fields a damaged, foreign or newer project differs in, with values worth trying. */
const HEADER_FIELDS: readonly HeaderField[] = [
  { name: 'application_id', at: 68, width: 4, values: (rng) => [0, 0xffffffff, WBNC ^ (1 << rng.below(32)), 0x434e4257, rng.below(0x100000000)] },
  // Schema versions: none, each older one, the next (newer) ones, and negatives as a signed int.
  { name: 'user_version', at: 60, width: 4, values: (rng, base) => [0, 1, 2, 3, 4, u32be(base, 60) + 1, u32be(base, 60) + 1000, 0xffffffff, 0x80000000, 0x7fffffff, rng.below(0x100000000)] },
  { name: 'page size', at: 16, width: 2, values: (_rng, _b, s) => [0, 1, 3, 256, 512, 1024, 2048, s.pageSize * 2, s.pageSize / 2, 32768, 0xffff, s.pageSize + 1] },
  { name: 'page count', at: 28, width: 4, values: (rng, _b, s) => [0, 1, s.pages - 1, s.pages + 1, s.pages * 2, 0x7fffffff, 0xffffffff, rng.below(s.pages * 4 + 1)] },
  { name: 'freelist trunk page', at: 32, width: 4, values: (rng, _b, s) => [0, 1, 2, s.pages, s.pages + 1, 0xffffffff, 1 + rng.below(s.pages)] },
  { name: 'freelist page count', at: 36, width: 4, values: (rng, _b, s) => [0, 1, s.pages, s.pages + 1, 0xffffffff, rng.below(s.pages + 1)] },
  // 1: rollback journal, 2: WAL; anything higher makes the file read-only or unreadable to SQLite.
  { name: 'file format write version', at: 18, width: 1, values: () => [0, 1, 2, 3, 0xff] },
  { name: 'file format read version', at: 19, width: 1, values: () => [0, 1, 2, 3, 0xff] },
  { name: 'change counter', at: 24, width: 4, values: (rng, base) => [0, u32be(base, 92), u32be(base, 24) + 1, rng.below(0x100000000)] },
  { name: 'version-valid-for', at: 92, width: 4, values: (rng, base) => [0, u32be(base, 24), u32be(base, 92) + 1, rng.below(0x100000000)] },
  { name: 'schema format number', at: 44, width: 4, values: () => [0, 1, 4, 5, 0xffffffff] },
  { name: 'text encoding', at: 56, width: 4, values: () => [0, 1, 2, 3, 4, 0xffffffff] },
  { name: 'reserved bytes per page', at: 20, width: 1, values: () => [0, 1, 32, 255] },
];

export const projectStructureMutators: readonly StructureMutator[] = [
  mutator('cut-at-page', 2, (rng, base, s: SqliteStructure) => {
    const page = rng.below(s.pages);
    const mid = rng.next() < 0.3 ? 1 + rng.below(s.pageSize - 1) : 0;
    const keep = Math.max(page * s.pageSize + mid, mid === 0 && page === 0 ? s.pageSize : 0);
    if (keep >= base.length) return undefined;
    return builtMutation('cut-at-page', `cut-at-page: kept ${keep} of ${base.length} bytes (${mid ? `${mid} bytes into page ${page + 1}` : `${keep / s.pageSize} whole page(s)`} of ${s.pageSize})`, () =>
      base.slice(0, keep),
    );
  }),
  mutator('zero-page', 3, (rng, base, s: SqliteStructure) => {
    // Page 1 holds the header and the schema's root: zeroing all of it is just "not SQLite",
    // so mostly its part after the 100-byte header is zeroed.
    const page = rng.below(s.pages);
    const from = page === 0 && rng.next() < 0.8 ? 100 : page * s.pageSize;
    const to = (page + 1) * s.pageSize;
    return builtMutation('zero-page', `zero-page: page ${page + 1} of ${s.pages} zeroed (bytes ${hex(from)}..${hex(to)})`, () => {
      const out = base.slice();
      out.fill(0, from, to);
      return out;
    });
  }),
  mutator('header-field', 4, (rng, base, s: SqliteStructure) => {
    const f = rng.pick(HEADER_FIELDS);
    const value = Math.max(0, Math.floor(rng.pick(f.values(rng, base, s))));
    // A page count is only believed while the change counter equals version-valid-for.
    const current = f.name === 'page count' && rng.next() < 0.5;
    // Projects are WAL files, where opening for writing changes nothing in the header; in
    // rollback-journal mode (a copy another tool made) the switch to WAL rewrites it, so a
    // file refused after that switch would be found changed.
    const rollback = f.at !== 18 && f.at !== 19 && rng.next() < 0.3;
    const what = `${f.name} (offset ${f.at}) := ${value} (${hex(value)})${current ? ', marked current' : ''}${rollback ? ', in rollback-journal mode' : ''}`;
    return builtMutation('header-field', `header-field: ${what}`, () => {
      let out = withHeaderField(base, f.at, f.width, value);
      if (current) out = withHeaderField(out, 92, 4, u32be(out, 24));
      return rollback ? withHeaderField(out, 18, 2, 0x0101) : out;
    });
  }),
  mutator('cut-tail', 2, (rng, base, s: SqliteStructure) => {
    const n = rng.pick([1, 1 + rng.below(16), 1 + rng.below(s.pageSize), 1 + rng.below(base.length - 1)]);
    if (n >= base.length) return undefined;
    return builtMutation('cut-tail', `cut-tail: the last ${n} of ${base.length} bytes dropped`, () => base.slice(0, base.length - n));
  }),
];
