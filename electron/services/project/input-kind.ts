import { detectFormat, extensionOf } from '../../../shared/formats/format-registry';
import { LYT_FORMAT } from '../../../shared/formats/kotor/lyt-document';
import { MDB_FORMAT } from '../../../shared/formats/nwn2/mdb-document';
import { TRX_FORMAT } from '../../../shared/formats/nwn2/trx-document';
import type { FileKind } from './project-types';

export type InputKind =
  | { kind: FileKind; format: string; skip?: undefined }
  | { skip: string; kind?: undefined; format?: undefined };

function tag(bytes: Uint8Array, at: number, length: number): string {
  if (bytes.length < at + length) return '';
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

const head = (bytes: Uint8Array) => tag(bytes, 0, 4);

/**
 * A Skyrim master (`.esm`, or a plugin with the ESM flag, bit 0 of the TES4 record's
 * flags at offset 8) is a bake input the navmeshes of other plugins refer to, rather
 * than a plugin the project edits.
 */
function isMasterPlugin(fileName: string, bytes: Uint8Array): boolean {
  return extensionOf(fileName) === '.esm' || (bytes.length >= 12 && (bytes[8]! & 1) === 1);
}

/** GFF files name their type in the first four bytes, then the version (`V3.2`). */
const gffKinds: Record<string, FileKind> = { 'GIT ': 'git', 'ARE ': 'are', 'GIC ': 'gic', 'UTP ': 'template', 'UTD ': 'template' };
const archiveTags = new Set(['MOD ', 'ERF ', 'HAK ', 'SAV ', 'RIM ', 'BIFF', 'KEY ']);

/**
 * What a file is to a project, by its content: a format handler's magic number first, then
 * the headers of the bake inputs that have no handler (GFF, 2DA, plugin masters). A name
 * alone never decides; a file named like a walkmesh whose bytes are not one is skipped.
 */
export function classifyInput(fileName: string, bytes: Uint8Array): InputKind {
  const handler = detectFormat(fileName, bytes);
  if (handler?.sniff(bytes)) {
    if (head(bytes) === 'TES4' && isMasterPlugin(fileName, bytes)) return { kind: 'master', format: handler.id };
    if (handler.id === LYT_FORMAT) return { kind: 'lyt', format: handler.id };
    if (handler.id === MDB_FORMAT) return { kind: 'mdb', format: handler.id };
    // TRN and TRX share their container; the TRN is the terrain a bake starts from.
    if (handler.id === TRX_FORMAT && extensionOf(fileName) === '.trn') return { kind: 'trn', format: handler.id };
    return { kind: 'walkmesh', format: handler.id };
  }
  const head4 = head(bytes);
  const gff = gffKinds[head4];
  if (gff && tag(bytes, 4, 2) === 'V3') return { kind: gff, format: `gff-${gff}` };
  if (tag(bytes, 0, 3) === '2DA') return { kind: '2da', format: '2da' };
  if (archiveTags.has(head4)) return { skip: `${head4.trim()} archive: the import opens .mod, .erf, .hak and .rim archives and KotOR game folders (chitin.key), not this file on its own` };
  if (handler) return { skip: `named like ${handler.label} but its content is not one` };
  return { skip: 'not a file Walkbench uses' };
}

/** Files of an area carry its name as their stem (`fh_settlement.trx`, `fh_settlement.git`). */
export function areaOf(fileName: string, kind: FileKind): string | null {
  if (kind === '2da' || kind === 'mdb' || kind === 'master' || kind === 'template') return null;
  const base = fileName.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}
