import { readdirSync } from 'node:fs';
import path from 'node:path';
import { readErf } from '../../../shared/formats/aurora/erf-reader';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { resourceTypes } from '../../../shared/formats/aurora/resource-types';
import { readRim } from '../../../shared/formats/aurora/rim-reader';
import { BWM_FORMAT } from '../../../shared/formats/kotor/bwm-document';
import { TRX_FORMAT } from '../../../shared/formats/nwn2/trx-document';
import { PLUGIN_FORMAT } from '../../../shared/formats/skyrim/plugin-document';
import { NAV_FORMAT } from '../../../shared/formats/source/nav-reader';
import { handlerById } from '../../../shared/formats/format-registry';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { countBySeverity } from '../../../shared/validation/finding';
import type { GameId } from '../../../shared/model/walkmesh';
import { bakeJobOf, type ProjectBakeJob } from '../bake-pool/project-rebake';
import { nwn2AreaSourcesOf } from './nwn2-area-bake-source';
import { nodeFormatEnvironment } from '../node-format-environment';
import { readBytesSync, specialFileAt } from '../file-access';
import { contentHash } from './content-hash';
import { resolveExportTarget, type ExportTarget } from './export-target';
import { writePendingEdits } from './pending-edit-writes';
import { nameKey, type ProjectStore } from './project-store';
import type { FileRecord } from './project-types';
import { resourceNameProblem } from './resource-name-check';
import { notCarriedEdits } from './not-carried-edits';
import type { NotCarriedEdit } from '../../../shared/ipc/export-contract';

/** Which formats each game's export writes (the walkmeshes; bake inputs stay in the project). */
const EXPORTED_FORMATS: Readonly<Record<GameId, readonly string[]>> = {
  nwn2: [TRX_FORMAT],
  kotor: [BWM_FORMAT],
  skyrim: [PLUGIN_FORMAT],
  source: [NAV_FORMAT],
};

/** What is exported of a project file: its bake, its saved edit, or the bytes imported. */
export type ExportSource = 'bake' | 'edit' | 'import';

/**
 * What the export does to a file's content (shared/ipc/export-contract.ts ExportChange):
 * keeps the bytes imported, writes the saved edit, or writes a bake.
 */
export type ExportChange = 'unchanged' | 'edited' | 'rebaked';

export type ExportAction = 'create' | 'replace' | 'unchanged';

export interface PlannedExport {
  /** The project file, `module/name`. */
  file: string;
  fileId: number;
  bakeId: number | null;
  source: ExportSource;
  /** Kept as imported, written from its edit, or re-baked; `why` says which edit or request made it so. */
  change: ExportChange;
  why: string;
  format: string;
  /** The file written: the loose file, or the archive holding `resource`. */
  targetPath: string;
  /** The resource inside the archive (`name.trx`), or null for a loose file. */
  resource: string | null;
  /** `unchanged`: the target already holds exactly these bytes; nothing is written. */
  action: ExportAction;
  bytes: number;
  sha256: string;
  /** Validation findings of the bytes (game-shipped files have some; they do not stop an export). */
  errors: number;
  warnings: number;
  /** Edits the project holds that the written file does not carry, with the reason (not-carried-edits.ts). */
  notCarried: NotCarriedEdit[];
}

export interface RefusedExport {
  file: string;
  reason: string;
}

export interface ExportPlan {
  target: ExportTarget;
  entries: PlannedExport[];
  /** Files that cannot be exported; an export with any refuses to start. */
  refused: RefusedExport[];
  /** The plan writes the bake of every file that has a baker, edited or not (`--rebake`). */
  rebake: boolean;
}

export interface ExportPlanOptions {
  /** The game folder or archive (`--to`). */
  to: string;
  /** Only this module's walkmeshes. */
  module?: string;
  /** Export the bake of unedited files too (`--rebake`, the dialog's "Re-bake unedited files"). */
  rebake?: boolean;
}

export interface ExportBytesOptions {
  rebake?: boolean;
}

export interface ExportChoice {
  source: ExportSource;
  bytes: Uint8Array;
  bakeId: number | null;
  change: ExportChange;
  why: string;
}

const labelOf = (f: FileRecord) => `${f.module}/${f.name}`;

/** Why a file is re-baked: the inputs of its bake edited since import, or the user's request. */
function rebakeReason(store: ProjectStore, file: FileRecord, job: ProjectBakeJob): string {
  if (job.kind === 'nwn2-trn-bake') {
    const sources = nwn2AreaSourcesOf(store, file);
    const edited = sources ? [sources.trn, sources.git].filter((f) => f.edited).map(labelOf) : [];
    return `baked from its TRN and GIT: ${edited.join(' and ')} ${edited.length === 1 ? 'was' : 'were'} edited`;
  }
  if (file.edited) return `${labelOf(file)} was edited`;
  return 'a re-bake of unedited files was asked for';
}

/**
 * The bytes a file exports, or why it cannot be exported. Decision (issue 6 §4, issue 15 §4):
 * - an imported file that nothing was edited in since import, neither itself nor an input
 *   of its bake, exports the bytes imported, byte for byte: for a walkmesh the game's own
 *   tools baked (an NWN2 toolset TRX, a KotOR WOK, a Creation Kit plugin), those bytes are
 *   that tool's bake, which ours does not reproduce bit for bit (the toolset's line-of-
 *   sight rule is unknown, issue 15), so a re-bake would change an area nobody touched and
 *   show a diff for every file. The user can still ask for the bake (`rebake`);
 * - "an input of its bake" is what the bake job reads (project-rebake.ts bakeJobOf): an
 *   NWN2 TRX is baked from its TRN and GIT (with the placeable models and 2DAs, which the
 *   project holds as imported, never edited) exactly when one of those two is edited, and
 *   otherwise from its own bytes; so a TRX is kept as imported when neither it nor its TRN
 *   or GIT is edited. (An edited GIT without the area's TRN cannot reach the TRX: the GIT
 *   is exported beside it and not-carried-edits.ts lists its edits.);
 * - a format the project bakes (NWN2 TRX, KotOR WOK/PWK/DWK, Skyrim plugin) whose file or
 *   bake inputs were edited exports the recorded bake of its current inputs, and is
 *   refused without one, so a game never gets stale path tables or loses an edit: an edit
 *   updates only part of what the tools derive (a painted Preferred flag leaves the NAVI
 *   neighbour lists as they were), the bake all of it, as `walkbench bake` does;
 * - Source .nav files and NWN2 GITs have no bake: they export the saved edit when it was
 *   made on the bytes the file holds now (refused when it is stale), else the imported bytes;
 * - whatever is exported must read back with its format's reader.
 */
export function exportBytesOf(store: ProjectStore, file: FileRecord, options: ExportBytesOptions = {}): ExportChoice | { refused: string } {
  if (file.editWritePending) return { refused: 'its last edits could not be written (see the edit tools); undo them or fix the file, then export' };
  const job = bakeJobOf(store, file);
  if (job !== undefined && (job.kind === 'nwn2-trn-bake' || file.edited || options.rebake === true)) {
    if (file.editStale) return { refused: 'its saved edits were made on older bytes than the file now holds (it was imported again since)' };
    const bake = store.lookupBake(job.spec);
    if (!bake && job.kind === 'skyrim-rebake') return { refused: `has no bake of its current ${file.edited ? 'edited ' : ''}bytes; bake it first` };
    const what = job.kind === 'nwn2-trn-bake' ? 'its TRN and GIT as edited' : `its current ${file.edited ? 'edited ' : ''}bytes`;
    if (!bake) return { refused: `has no bake of ${what}; run \`walkbench project rebake\` first` };
    return { source: 'bake', bytes: store.loadBakeOutput(bake.id), bakeId: bake.id, change: 'rebaked', why: rebakeReason(store, file, job) };
  }
  if (file.edited) {
    if (file.editStale) return { refused: 'its saved edits were made on older bytes than the file now holds (it was imported again since)' };
    const edit = store.loadEdit(file.id);
    if (edit) return { source: 'edit', bytes: edit.bytes, bakeId: null, change: 'edited', why: `${labelOf(file)} was edited` };
  }
  const why = job === undefined ? 'unedited since import' : 'unedited since import, as are the inputs of its bake: the bytes the game\'s tools baked';
  return { source: 'import', bytes: store.loadFileBytes(file.id), bakeId: null, change: 'unchanged', why };
}

/** The export log's format of an NWN2 GIT (a GFF file, not a walkmesh format of the registry). */
export const NWN2_GIT_EXPORT_FORMAT = 'nwn2-git';

/** Reads and validates bytes with the format's handler; a reason when they do not read. */
export function checkExportBytes(format: string, name: string, bytes: Uint8Array): { errors: number; warnings: number } | { refused: string } {
  if (format === NWN2_GIT_EXPORT_FORMAT) {
    try {
      const gff = readGff(bytes);
      return gff.fileType.trim() === 'GIT' ? { errors: 0, warnings: 0 } : { refused: `is a GFF ${JSON.stringify(gff.fileType.trim())} file, not a GIT` };
    } catch (e) {
      if (isMalformedInputError(e)) return { refused: `does not read as a GIT: ${e.withFile(name).message}` };
      throw e;
    }
  }
  const handler = handlerById(format);
  if (!handler) return { refused: `format ${format} has no reader to check it with` };
  try {
    const doc = handler.read(bytes, nodeFormatEnvironment);
    return countBySeverity(handler.validate(doc));
  } catch (e) {
    if (isMalformedInputError(e)) return { refused: `does not read as ${handler.label}: ${e.withFile(name).message}` };
    throw e;
  }
}

interface ArchiveView {
  version: 'V1.0' | 'V1.1' | 'rim';
  /** `resref.ext` (lower case) → sha256 of the resource bytes. */
  resources: Map<string, string>;
}

function readArchiveView(target: Extract<ExportTarget, { kind: 'archive' }>): ArchiveView {
  const bytes = readBytesSync(target.file);
  const types = resourceTypes(target.game === 'nwn2' ? 'nwn2' : 'kotor');
  const map = new Map<string, string>();
  try {
    const doc = target.archive === 'rim' ? readRim(bytes) : readErf(bytes);
    for (const r of doc.resources) {
      const key = `${r.resRef}.${types.extension(r.type) ?? r.type}`.toLowerCase();
      if (!map.has(key)) map.set(key, contentHash(r.data));
    }
    return { version: target.archive === 'rim' ? 'rim' : (doc as { version: 'V1.0' | 'V1.1' }).version, resources: map };
  } catch (e) {
    if (isMalformedInputError(e)) throw e.withFile(target.file);
    throw e;
  }
}

/** The archive's resref limit: 16 bytes in ERF V1.0 and RIM, 32 in ERF V1.1. */
const resRefLimit = (version: ArchiveView['version']) => (version === 'V1.1' ? 32 : 16);

/**
 * Lists what an export will do, reading the project and the target but writing nothing:
 * every walkmesh of the project's game (of one module when asked), where it goes, whether
 * that creates or replaces a file (names match the game folder's files without case), and
 * the files refused with the reason. Two project files landing on one target name are
 * both refused.
 */
export function planExport(store: ProjectStore, options: ExportPlanOptions): ExportPlan {
  // Edited bytes an editor wrote behind are written first; a file that cannot be is refused below.
  writePendingEdits(store);
  const game = store.info().game;
  const target = resolveExportTarget(game, options.to);
  const formats = EXPORTED_FORMATS[game];
  const moduleFilter = options.module !== undefined ? { module: options.module } : {};
  const files = [
    ...store.listFiles({ kind: 'walkmesh', ...moduleFilter }).filter((f) => f.format !== null && formats.includes(f.format)),
    // NWN2: an edited GIT goes with its area's TRX (baked from it), so the game places what
    // the walkmesh was cut for.
    ...(game === 'nwn2' ? store.listFiles({ kind: 'git', ...moduleFilter }).filter((f) => f.edited) : []),
  ];
  const entries: PlannedExport[] = [];
  const refused: RefusedExport[] = [];

  const onDisk = new Map<string, string>();
  // Names taken by something that is not a regular file: a FIFO, a device or a socket (or a
  // link to one) is refused here, before anything is written; the export never opens one.
  const notFiles = new Map<string, string>();
  let archive: ArchiveView | undefined;
  if (target.kind === 'folder') {
    for (const e of readdirSync(target.dir, { withFileTypes: true })) {
      if (e.isFile()) onDisk.set(nameKey(e.name), e.name);
      else notFiles.set(nameKey(e.name), e.name);
    }
  } else {
    archive = readArchiveView(target);
  }
  const types = game === 'nwn2' || game === 'kotor' ? resourceTypes(game) : undefined;
  const byTarget = new Map<string, PlannedExport>();

  for (const f of files) {
    const label = `${f.module}/${f.name}`;
    const problem = resourceNameProblem(f.name, game);
    if (problem) {
      refused.push({ file: label, reason: problem });
      continue;
    }
    if (archive) {
      const ext = path.extname(f.name).slice(1);
      const stem = f.name.slice(0, -(ext.length + 1));
      if (types?.typeId(ext) === undefined) {
        refused.push({ file: label, reason: `".${ext}" is not a resource type ${game} archives hold` });
        continue;
      }
      if (stem.length > resRefLimit(archive.version)) {
        refused.push({ file: label, reason: `the resource name "${stem}" is longer than the ${resRefLimit(archive.version)} characters ${path.basename(target.kind === 'archive' ? target.file : '')} allows` });
        continue;
      }
    }
    const chosen = exportBytesOf(store, f, { rebake: options.rebake === true });
    if ('refused' in chosen) {
      refused.push({ file: label, reason: chosen.refused });
      continue;
    }
    const format = f.kind === 'git' ? NWN2_GIT_EXPORT_FORMAT : f.format!;
    const checked = checkExportBytes(format, label, chosen.bytes);
    if ('refused' in checked) {
      refused.push({ file: label, reason: checked.refused });
      continue;
    }
    const sha256 = contentHash(chosen.bytes);
    let targetPath: string;
    let resource: string | null = null;
    let existing: string | undefined;
    if (target.kind === 'folder') {
      const taken = notFiles.get(nameKey(f.name));
      const what = taken === undefined ? undefined : specialFileAt(path.join(target.dir, taken), true);
      if (what !== undefined) {
        refused.push({ file: label, reason: `${path.join(target.dir, taken!)} is ${what}, not a regular file` });
        continue;
      }
      const diskName = onDisk.get(nameKey(f.name));
      targetPath = path.join(target.dir, diskName ?? f.name);
      existing = diskName === undefined ? undefined : contentHash(readBytesSync(targetPath));
    } else {
      targetPath = target.file;
      resource = f.name;
      existing = archive!.resources.get(f.name.toLowerCase());
    }
    const entry: PlannedExport = {
      file: label,
      fileId: f.id,
      bakeId: chosen.bakeId,
      source: chosen.source,
      change: chosen.change,
      why: chosen.why,
      format,
      targetPath,
      resource,
      action: existing === undefined ? 'create' : existing === sha256 ? 'unchanged' : 'replace',
      bytes: chosen.bytes.length,
      sha256,
      errors: checked.errors,
      warnings: checked.warnings,
      notCarried: notCarriedEdits(store, f),
    };
    const key = nameKey(resource ?? targetPath);
    const clash = byTarget.get(key);
    if (clash) {
      refused.push({ file: label, reason: `goes to the same ${resource ? 'resource' : 'file'} as ${clash.file} (names ignore case)` });
      continue;
    }
    byTarget.set(key, entry);
    entries.push(entry);
  }
  return { target, entries, refused, rebake: options.rebake === true };
}
