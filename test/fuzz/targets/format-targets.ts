import { statSync } from 'node:fs';
import type { ReadMemoryBound } from '../../../shared/binary/read-budget';
import { ERF_READ_MEMORY, readErf } from '../../../shared/formats/aurora/erf-reader';
import { writeErf } from '../../../shared/formats/aurora/erf-writer';
import { GFF_READ_MEMORY, readGff } from '../../../shared/formats/aurora/gff-reader';
import { writeGff } from '../../../shared/formats/aurora/gff-writer';
import type { FormatHandler } from '../../../shared/formats/format-handler';
import { handlerById } from '../../../shared/formats/format-registry';
import { ASWM_READ_MEMORY, readAswm } from '../../../shared/formats/nwn2/aswm-reader';
import { MDB_READ_MEMORY } from '../../../shared/formats/nwn2/mdb-reader';
import { BWM_READ_MEMORY } from '../../../shared/formats/kotor/bwm-reader';
import { PLUGIN_READ_MEMORY } from '../../../shared/formats/skyrim/plugin-reader';
import { validateAswm } from '../../../shared/formats/nwn2/aswm-validate';
import { writeAswm } from '../../../shared/formats/nwn2/aswm-writer';
import { aswmPacketOf } from '../../../shared/formats/nwn2/trx-document';
import type { NvnmDocument } from '../../../shared/formats/skyrim/nvnm-document';
import { NVNM_READ_MEMORY, readNvnm } from '../../../shared/formats/skyrim/nvnm-reader';
import { writeNvnm } from '../../../shared/formats/skyrim/nvnm-writer';
import { NVNM_FORMAT, type PluginRecord } from '../../../shared/formats/skyrim/plugin-document';
import { validatePlugin } from '../../../shared/formats/skyrim/skyrim-validate';
import { readTrx, TRX_READ_MEMORY } from '../../../shared/formats/nwn2/trx-reader';
import { FindingSink } from '../../../shared/validation/finding-sink';
import type { Finding } from '../../../shared/validation/finding';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import { bodySubrecords, compressedNavmeshes, recordBody } from '../crafted-inputs';
import { fuzzEnvironment as env } from '../fuzz-env';
import type { CorpusEntry, CountField, FuzzTarget, StructureMutator } from '../fuzz-target';
import {
  aswmCountFields,
  aswmStructure,
  aswmStructureMutators,
  bwmCountFields,
  bwmStructure,
  bwmStructureMutators,
  containerStructure,
  erfStructure,
  erfStructureMutators,
  gffStructure,
  gffStructureMutators,
  mdbCountFields,
  mdbStructureMutators,
  nvnmCountFields,
  nvnmStructure,
  nvnmStructureMutators,
  pluginStructure,
  pluginStructureMutators,
  trxStructureMutators,
} from '../structure-mutators';
import { hasNonFiniteAswm, hasNonFiniteBwm, hasNonFiniteMdb, hasNonFiniteNvnm, hasNonFinitePlugin, hasNonFiniteTrx } from './non-finite-oracle';

/**
 * Fuzz targets for the readers beyond `.nav`: every accepted input must be written back
 * byte for byte (each reader keeps what it does not model), and validation must run on it
 * without throwing. Count fields are not traced for these formats, so the count mutators
 * fall back to random 1-, 2- and 4-byte positions.
 */
function corpus(folders: readonly string[], extensions: readonly string[]) {
  return ({ maxSize, all }: { maxSize: number; all: boolean }): CorpusEntry[] =>
    folders
      .flatMap((f) => listFixtures(f, extensions))
      .filter((file) => all || statSync(file).size <= maxSize)
      .map((file) => ({ name: fixtureName(file), bytes: readFixture(file) }));
}

function sameBytes(what: string, written: Uint8Array, input: Uint8Array): void {
  if (!Buffer.from(written.buffer, written.byteOffset, written.byteLength).equals(input)) {
    throw new Error(`${what}: an accepted input is not written back byte for byte (${written.length} vs ${input.length} bytes)`);
  }
}

/**
 * Non-finite geometry (issue 14) must never validate: an accepted document whose walkmesh
 * holds a NaN or infinite vertex, normal or plane distance must have an error.
 */
function requireErrorForNonFinite(what: string, nonFinite: boolean, findings: readonly Finding[]): void {
  if (nonFinite && !findings.some((f) => f.severity === 'error')) {
    throw new Error(`${what}: the document has non-finite geometry but validation reports no error`);
  }
}

interface HandlerTargetOptions {
  memoryFactor?: number;
  inflatedFactor?: number;
  /**
   * An accepted input must come back byte for byte. Skyrim plugins re-encode their
   * compressed records from the model (as the issue requires), so a stream another zlib
   * wrote, or one with garbage in its padding bits, comes back with the same content in
   * other bytes; for them the check is that the written file reads back and writes the same.
   */
  exact?: boolean;
  countFields?(bytes: Uint8Array): CountField[];
  structure?(bytes: Uint8Array): unknown;
  structureMutators?: readonly StructureMutator[];
  nonFinite?(doc: unknown): boolean;
}

function handlerTarget(name: string, handlerId: string, folders: readonly string[], extensions: readonly string[], o: HandlerTargetOptions = {}): FuzzTarget<unknown> {
  const handler = (): FormatHandler<unknown> => {
    const h = handlerById(handlerId);
    if (!h) throw new Error(`no format handler ${handlerId}`);
    return h;
  };
  return {
    name,
    description: `${handlerId} reader through its format handler, with a byte-exact write and validation of accepted inputs`,
    loadCorpus: corpus(folders, extensions),
    parse: (bytes) => handler().read(bytes, env),
    check(doc, bytes) {
      const h = handler();
      const written = h.write(doc, env);
      if (o.exact !== false) sameBytes(handlerId, written, bytes);
      else sameBytes(`${handlerId} (written, read and written again)`, h.write(h.read(written, env), env), written);
      requireErrorForNonFinite(handlerId, o.nonFinite?.(doc) ?? false, h.validate(doc));
    },
    ...(o.memoryFactor !== undefined ? { memoryFactor: o.memoryFactor } : {}),
    ...(o.inflatedFactor !== undefined ? { inflatedFactor: o.inflatedFactor } : {}),
    ...(o.countFields ? { countFields: o.countFields } : {}),
    ...(o.structure ? { structure: o.structure } : {}),
    ...(o.structureMutators ? { structureMutators: o.structureMutators } : {}),
  };
}

/*
 * Memory bounds: each target holds every mutated input to its reader's stated bound
 * (`*_READ_MEMORY`, in the reader's doc comment): its bytes per input byte, per byte
 * inflated during the parse (fuzz-env.ts counts them), plus the 1 MiB allowance.
 */
const bound = (b: ReadMemoryBound) => ({ memoryFactor: b.perInputByte, inflatedFactor: b.perDecompressedByte });

export const trxTarget = handlerTarget('trx', 'nwn2-trx', ['nwn2'], ['.trx', '.trn'], {
  ...bound(TRX_READ_MEMORY),
  structure: containerStructure,
  structureMutators: trxStructureMutators,
  nonFinite: (doc) => hasNonFiniteTrx(doc as ReturnType<typeof readTrx>),
});
export const mdbTarget = handlerTarget('mdb', 'nwn2-mdb', ['nwn2'], ['.mdb'], {
  ...bound(MDB_READ_MEMORY),
  countFields: mdbCountFields,
  structure: containerStructure,
  structureMutators: mdbStructureMutators,
  nonFinite: (doc) => hasNonFiniteMdb(doc as Parameters<typeof hasNonFiniteMdb>[0]),
});
export const bwmTarget = handlerTarget('bwm', 'kotor-bwm', ['kotor'], ['.wok', '.pwk', '.dwk'], {
  ...bound(BWM_READ_MEMORY),
  countFields: bwmCountFields,
  structure: bwmStructure,
  structureMutators: bwmStructureMutators,
  nonFinite: (doc) => hasNonFiniteBwm(doc as Parameters<typeof hasNonFiniteBwm>[0]),
});
export const pluginTarget = handlerTarget('esp', 'skyrim-plugin', ['skyrim'], ['.esp', '.esm'], {
  ...bound(PLUGIN_READ_MEMORY),
  exact: false,
  structure: pluginStructure,
  structureMutators: pluginStructureMutators,
  nonFinite: (doc) => hasNonFinitePlugin(doc as Parameters<typeof hasNonFinitePlugin>[0]),
});

export const gffTarget: FuzzTarget<unknown> = {
  name: 'gff',
  description: 'GFF V3.2 reader (GIT, ARE, GIC), with a byte-exact write of accepted inputs',
  format: 'gff',
  ...bound(GFF_READ_MEMORY),
  loadCorpus: corpus(['nwn2', 'kotor'], ['.git', '.are', '.gic']),
  structure: gffStructure,
  structureMutators: gffStructureMutators,
  parse: (bytes) => readGff(bytes),
  check: (doc, bytes) => sameBytes('gff', writeGff(doc as ReturnType<typeof readGff>), bytes),
};

export const erfTarget: FuzzTarget<unknown> = {
  name: 'erf',
  description: 'ERF V1.0/V1.1 reader (MOD, HAK, ERF), with a byte-exact write of accepted inputs',
  format: 'erf',
  ...bound(ERF_READ_MEMORY),
  loadCorpus: corpus(['nwn2', 'kotor'], ['.mod', '.hak', '.erf']),
  structure: erfStructure,
  structureMutators: erfStructureMutators,
  parse: (bytes) => readErf(bytes),
  check: (doc, bytes) => sameBytes('erf', writeErf(doc as ReturnType<typeof readErf>), bytes),
};

/**
 * The decompressed ASWM walkmesh of every fixture TRN/TRX: mutating the zlib stream of a
 * TRX almost always just breaks the stream (1 input in 600 survives), so the walkmesh
 * parser itself is fuzzed on the inflated payloads.
 */
export const aswmTarget: FuzzTarget<unknown> = {
  name: 'aswm',
  description: 'NWN2 ASWM walkmesh reader on decompressed payloads, with a byte-exact write and validation of accepted inputs',
  ...bound(ASWM_READ_MEMORY),
  loadCorpus(options) {
    return corpus(['nwn2'], ['.trx', '.trn'])(options).flatMap((entry) => {
      const doc = readTrx(entry.bytes, env);
      const packet = aswmPacketOf(doc);
      return packet ? [{ name: `${entry.name} (ASWM)`, bytes: writeAswm(packet.aswm) }] : [];
    });
  },
  countFields: aswmCountFields,
  structure: aswmStructure,
  structureMutators: aswmStructureMutators,
  parse: (bytes) => readAswm(bytes),
  check(doc, bytes) {
    const a = doc as ReturnType<typeof readAswm>;
    sameBytes('aswm', writeAswm(a), bytes);
    const sink = new FindingSink();
    validateAswm(a, sink);
    requireErrorForNonFinite('aswm', hasNonFiniteAswm(a), sink.finish());
  },
};

/**
 * The NVNM navmesh subrecords of the plugin fixtures, decompressed (as the aswm target does
 * for NWN2): the navmesh reader and its sparse grid, fuzzed without the zlib stream that
 * nearly every byte mutation breaks. Each accepted navmesh is written back byte for byte
 * and validated inside a one-navmesh plugin.
 */
export const nvnmTarget: FuzzTarget<unknown> = {
  name: 'nvnm',
  description: 'Skyrim NVNM navmesh reader (with its sparse grid) on decompressed subrecords, with a byte-exact write and validation of accepted inputs',
  format: NVNM_FORMAT,
  ...bound(NVNM_READ_MEMORY),
  loadCorpus(options) {
    return corpus(['skyrim'], ['.esp', '.esm'])(options).flatMap((entry) =>
      compressedNavmeshes(entry.bytes).flatMap((r, i) =>
        bodySubrecords(recordBody(entry.bytes, r))
          .filter((s) => s.signature === 'NVNM' && s.data.length >= 4 && new DataView(s.data.buffer, s.data.byteOffset, 4).getUint32(0, true) === 12)
          .map((s) => ({ name: `${entry.name} (NAVM #${i} NVNM)`, bytes: s.data.slice() })),
      ),
    );
  },
  countFields: nvnmCountFields,
  structure: nvnmStructure,
  structureMutators: nvnmStructureMutators,
  parse: (bytes) => readNvnm(bytes, 0, bytes.length, 'NAVM'),
  check(doc, bytes) {
    const n = doc as NvnmDocument;
    sameBytes('nvnm', writeNvnm(n), bytes);
    const record: PluginRecord = { kind: 'record', signature: 'NAVM', flags: 0, formId: 0x800, versionControl1: 0, formVersion: 44, versionControl2: 0, compressed: false, subrecords: [{ kind: 'nvnm', signature: 'NVNM', nvnm: n }], sourceOffset: -1 };
    const header: PluginRecord = { ...record, signature: 'TES4', formId: 0, subrecords: [] };
    requireErrorForNonFinite('nvnm', hasNonFiniteNvnm(n), validatePlugin({ items: [header, record] }));
  },
};
