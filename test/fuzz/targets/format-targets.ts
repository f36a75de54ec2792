import { statSync } from 'node:fs';
import { nodeFormatEnvironment as env } from '../../../electron/services/node-format-environment';
import { readErf } from '../../../shared/formats/aurora/erf-reader';
import { writeErf } from '../../../shared/formats/aurora/erf-writer';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { writeGff } from '../../../shared/formats/aurora/gff-writer';
import type { FormatHandler } from '../../../shared/formats/format-handler';
import { handlerById } from '../../../shared/formats/format-registry';
import { readAswm } from '../../../shared/formats/nwn2/aswm-reader';
import { validateAswm } from '../../../shared/formats/nwn2/aswm-validate';
import { writeAswm } from '../../../shared/formats/nwn2/aswm-writer';
import { aswmPacketOf } from '../../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { FindingSink } from '../../../shared/validation/finding-sink';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import type { CorpusEntry, FuzzTarget } from '../fuzz-target';

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
 * `exact`: an accepted input must come back byte for byte. Skyrim plugins re-encode their
 * compressed records from the model (as the issue requires), so a stream another zlib
 * wrote, or one with garbage in its padding bits, comes back with the same content in
 * other bytes; for them the check is that the written file reads back and writes the same.
 */
function handlerTarget(
  name: string,
  handlerId: string,
  folders: readonly string[],
  extensions: readonly string[],
  memoryFactor?: number,
  exact = true,
): FuzzTarget<unknown> {
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
      if (exact) sameBytes(handlerId, written, bytes);
      else sameBytes(`${handlerId} (written, read and written again)`, h.write(h.read(written, env), env), written);
      h.validate(doc);
    },
    ...(memoryFactor !== undefined ? { memoryFactor } : {}),
  };
}

/*
 * Memory factors: about twice what an unmutated fixture needs, measured after warm-up (the
 * growth over one parse, less the 1 MiB allowance, per input byte): a TRX inflates ~3x into
 * typed columns ~5x its size plus parse garbage (27x at most), a plugin's compressed
 * records likewise (23x), and a GFF is a tree with an object per field (34x). A mutation
 * that makes a reader allocate from a garbage count blows far past these.
 */
export const trxTarget = handlerTarget('trx', 'nwn2-trx', ['nwn2'], ['.trx', '.trn'], 64);
export const bwmTarget = handlerTarget('bwm', 'kotor-bwm', ['kotor'], ['.wok', '.pwk', '.dwk']);
export const pluginTarget = handlerTarget('esp', 'skyrim-plugin', ['skyrim'], ['.esp', '.esm'], 64, false);

export const gffTarget: FuzzTarget<unknown> = {
  name: 'gff',
  description: 'GFF V3.2 reader (GIT, ARE, GIC), with a byte-exact write of accepted inputs',
  format: 'gff',
  memoryFactor: 80,
  loadCorpus: corpus(['nwn2', 'kotor'], ['.git', '.are', '.gic']),
  parse: (bytes) => readGff(bytes),
  check: (doc, bytes) => sameBytes('gff', writeGff(doc as ReturnType<typeof readGff>), bytes),
};

export const erfTarget: FuzzTarget<unknown> = {
  name: 'erf',
  description: 'ERF V1.0/V1.1 reader (MOD, HAK, ERF), with a byte-exact write of accepted inputs',
  format: 'erf',
  loadCorpus: corpus(['nwn2', 'kotor'], ['.mod', '.hak', '.erf']),
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
  memoryFactor: 24,
  loadCorpus(options) {
    return corpus(['nwn2'], ['.trx', '.trn'])(options).flatMap((entry) => {
      const doc = readTrx(entry.bytes, env);
      const packet = aswmPacketOf(doc);
      return packet ? [{ name: `${entry.name} (ASWM)`, bytes: writeAswm(packet.aswm) }] : [];
    });
  },
  parse: (bytes) => readAswm(bytes),
  check(doc, bytes) {
    const a = doc as ReturnType<typeof readAswm>;
    sameBytes('aswm', writeAswm(a), bytes);
    validateAswm(a, new FindingSink());
  },
};
