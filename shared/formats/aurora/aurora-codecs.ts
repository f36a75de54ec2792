import type { ContainedResource, DocumentCodec } from '../document-codec';
import type { BifDocument } from './bif-document';
import { readBif, sniffBif } from './bif-reader';
import { canonicalBifSize, encodeBifCanonical, writeBif } from './bif-writer';
import { bytesEqual } from './byte-string';
import type { ErfDocument } from './erf-document';
import { readErf, sniffErf } from './erf-reader';
import { encodeErfCanonical, writeErf } from './erf-writer';
import type { GffDocument } from './gff-document';
import type { KeyDocument } from './key-document';
import { readKey, sniffKey } from './key-reader';
import { encodeKeyCanonical, writeKey } from './key-writer';
import { readGff, sniffGff } from './gff-reader';
import { writeGff } from './gff-writer';
import { resourceTypes, type AuroraGame } from './resource-types';
import type { RimDocument } from './rim-document';
import { readRim, sniffRim } from './rim-reader';
import { encodeRimCanonical, writeRim } from './rim-writer';
import { readTwoDaBinary, sniffTwoDaBinary, TwoDaBinary, writeTwoDaBinary } from './twoda-binary';
import { readTwoDaText, sniffTwoDaText, TWODA_FORMAT, writeTwoDaText, type TwoDaText } from './twoda-text';

/**
 * The extensions of GFF resources (NWN2 and KotOR). Detection is by signature first
 * (any `XXXX V3.2` file is read as GFF), so this list only names files whose signature is
 * damaged: they are read as GFF and refused with the offset of the fault.
 */
const GFF_EXTENSIONS = [
  'gff', 'are', 'git', 'gic', 'ifo', 'bic', 'dlg', 'fac', 'jrl', 'itp', 'ptm', 'ptt', 'gui',
  'utc', 'utd', 'ute', 'uti', 'utm', 'utp', 'uts', 'utt', 'utw', 'utg', 'utr', 'uen', 'ult', 'upe', 'ros', 'rst', 'wmp',
].map((e) => `.${e}`);

/** BioWare's Generic File Format: GIT, ARE, GIC, IFO, UT* and every other `XXXX V3.2` file. */
export const gffCodec: DocumentCodec<GffDocument> = {
  id: 'gff',
  label: 'BioWare GFF V3.2 (GIT, ARE, GIC, IFO, UT*…)',
  extensions: GFF_EXTENSIONS,
  sniff: sniffGff,
  read: (bytes) => readGff(bytes),
  write: (doc) => writeGff(doc),
  roundtripDetails: (_original, doc) => ({ fileType: doc.fileType.trimEnd(), canonicalLayout: doc.preserved === undefined }),
};

/** Text (`2DA V2.0`, NWN1/NWN2) and binary (`2DA V2.b`, KotOR) tables, one document type each. */
export const twoDaCodec: DocumentCodec<TwoDaText | TwoDaBinary> = {
  id: TWODA_FORMAT,
  label: 'BioWare 2DA table (text V2.0, binary V2.b)',
  extensions: ['.2da'],
  sniff: (bytes) => sniffTwoDaBinary(bytes) || sniffTwoDaText(bytes),
  read: (bytes) => (sniffTwoDaBinary(bytes) ? readTwoDaBinary(bytes) : readTwoDaText(bytes)),
  write: (table) => (table instanceof TwoDaBinary ? writeTwoDaBinary(table) : writeTwoDaText(table)),
  roundtripDetails(original, table) {
    const common = { encoding: table instanceof TwoDaBinary ? 'binary V2.b' : 'text V2.0', rows: table.rowCount, columns: table.columns.length };
    // Text tables keep their lines as read, so only the binary layout has a canonical form to compare.
    return table instanceof TwoDaBinary ? { ...common, canonicalLayout: bytesEqual(table.encodeCanonical(), original) } : common;
  },
};

/** ERF V1.0/V1.1 archives: NWN2 `.mod`/`.hak`/`.erf` (V1.1), KotOR `.mod`/`.erf`/`.sav` (V1.0). */
export const erfCodec: DocumentCodec<ErfDocument> = {
  id: 'erf',
  label: 'BioWare ERF archive (MOD, HAK, ERF, SAV, NWM, PWC)',
  extensions: ['.erf', '.mod', '.hak', '.sav', '.nwm', '.pwc'],
  sniff: sniffErf,
  read: (bytes) => readErf(bytes),
  write: (doc) => writeErf(doc),
  roundtripDetails: (original, doc) => ({
    fileType: doc.fileType.trimEnd(),
    version: doc.version,
    canonicalLayout: doc.preserved === undefined || bytesEqual(encodeErfCanonical(doc), original),
  }),
  // V1.1 (32-character resrefs) is NWN2's; V1.0 is KotOR's here (NWN1 is not a Walkbench game).
  resources: (doc) => containedResources(doc.resources, doc.version === 'V1.1' ? 'nwn2' : 'kotor'),
};

/** KotOR RIM V1.0 archives (module `.rim`/`_s.rim`, global rims). */
export const rimCodec: DocumentCodec<RimDocument> = {
  id: 'rim',
  label: 'KotOR RIM archive',
  extensions: ['.rim'],
  sniff: sniffRim,
  read: (bytes) => readRim(bytes),
  write: (doc) => writeRim(doc),
  roundtripDetails: (original, doc) => ({ canonicalLayout: doc.preserved === undefined || bytesEqual(encodeRimCanonical(doc), original) }),
  resources: (doc) => containedResources(doc.resources, 'kotor'),
};

/** KotOR's `chitin.key` (KEY V1): the index of the BIF archives. */
export const keyCodec: DocumentCodec<KeyDocument> = {
  id: 'key',
  label: 'KotOR KEY V1 index (chitin.key)',
  extensions: ['.key'],
  sniff: sniffKey,
  read: (bytes) => readKey(bytes),
  write: (doc) => writeKey(doc),
  roundtripDetails: (original, doc) => ({ bifs: doc.bifs.length, keys: doc.keys.length, canonicalLayout: bytesEqual(encodeKeyCanonical(doc), original) }),
};

/**
 * KotOR BIF V1 archives (`data/*.bif`). Their resources have no names (the KEY holds them):
 * each is named by its position and its type's extension (`12.wok`).
 */
export const bifCodec: DocumentCodec<BifDocument> = {
  id: 'bif',
  label: 'KotOR BIF V1 archive (data/*.bif)',
  extensions: ['.bif'],
  sniff: sniffBif,
  read: (bytes) => readBif(bytes),
  write: (doc) => writeBif(doc),
  roundtripDetails: (original, doc) => ({
    resources: doc.resources.length,
    // Sizes first: a hostile file's entries may name one large blob many times over.
    canonicalLayout: canonicalBifSize(doc) === original.length && bytesEqual(encodeBifCanonical(doc), original),
  }),
  resources: (doc) => containedResources(doc.resources.map((r, i) => ({ resRef: String(i), type: r.type, data: r.data })), 'kotor'),
};

/** The Aurora resource formats that hold no walkmesh of their own. */
export const auroraCodecs: readonly DocumentCodec<unknown>[] = [gffCodec, twoDaCodec, erfCodec, rimCodec, keyCodec, bifCodec];

function containedResources(list: readonly { resRef: string; type: number; data: Uint8Array }[], game: AuroraGame): ContainedResource[] {
  const types = resourceTypes(game);
  return list.map((r) => ({ name: `${r.resRef}.${types.extension(r.type) ?? `type${r.type}`}`, data: r.data }));
}
