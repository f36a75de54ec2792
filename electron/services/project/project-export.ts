import path from 'node:path';
import { putErfResource, type ErfDocument } from '../../../shared/formats/aurora/erf-document';
import { readErf } from '../../../shared/formats/aurora/erf-reader';
import { writeErf } from '../../../shared/formats/aurora/erf-writer';
import { resourceTypes } from '../../../shared/formats/aurora/resource-types';
import { putRimResource, type RimDocument } from '../../../shared/formats/aurora/rim-document';
import { readRim } from '../../../shared/formats/aurora/rim-reader';
import { writeRim } from '../../../shared/formats/aurora/rim-writer';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { FileAccessError, readIfPresentSync } from '../file-access';
import { contentHash } from './content-hash';
import { removeStaleTempFiles, replaceFileDurably } from './durable-write';
import { backUpFile, backupDirFor } from './export-backups';
import { exportRunKey, type ExportTarget } from './export-target';
import { checkExportBytes, exportBytesOf, planExport, type ExportPlan, type ExportPlanOptions, type PlannedExport } from './project-export-plan';
import type { ProjectStore } from './project-store';

export type ExportProgress = (done: number, total: number, label: string) => void;

export interface ExportOptions extends ExportPlanOptions {
  /** Plan only: list what would be created or replaced, write nothing. */
  dryRun?: boolean;
  onProgress?: ExportProgress;
  /** Stops between files; every file is then either its old or its new version. */
  signal?: AbortSignal;
  /**
   * A plan made with planExport for the same target, shown to the user before writing; the
   * bytes are still checked against its hashes as each file is written.
   */
  plan?: ExportPlan;
}

/** A file written and read back: identical to what was meant and readable by its format. */
export interface VerifiedExport {
  file: string;
  targetPath: string;
  resource: string | null;
  action: 'create' | 'replace';
  sha256: string;
  bytes: number;
}

export interface ExportResult {
  plan: ExportPlan;
  /** `refused`: some file cannot be exported (see plan.refused) and nothing was written. */
  status: 'planned' | 'refused' | 'done' | 'aborted';
  runId: number | null;
  /** Where the replaced files were copied (null when nothing was replaced or written). */
  backupDir: string | null;
  verified: VerifiedExport[];
}

/** A written file that did not read back as written: the export stops, `project restore` undoes it. */
export class ExportVerifyError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'ExportVerifyError';
  }
}

/** The target's bytes, or undefined when there is none; a FIFO, device or socket there is refused unread. */
function readTarget(file: string): Uint8Array | undefined {
  return readIfPresentSync(file);
}

/** The bytes the plan promised, loaded again at write time and checked against its hash. */
function plannedBytes(store: ProjectStore, entry: PlannedExport, rebake: boolean): Uint8Array {
  const record = store.fileById(entry.fileId);
  const chosen = record ? exportBytesOf(store, record, { rebake }) : undefined;
  if (!chosen || 'refused' in chosen || contentHash(chosen.bytes) !== entry.sha256) {
    throw new ExportVerifyError(entry.file, 'changed in the project while it was being exported; run the export again');
  }
  return chosen.bytes;
}

/**
 * Exports the project's walkmeshes into a game folder or archive (issue 6 §4): plans first
 * (and stops there on a dry run or when any file is refused), then per file: copies the
 * file it replaces into the backup folder, logs it in the project (so a crash after the
 * rename still knows the backup), writes through a flushed temporary file renamed over the
 * target, reads it back and checks it is identical and readable. Files already holding the
 * planned bytes are left alone, so running an interrupted export again finishes it.
 */
export async function exportProject(store: ProjectStore, options: ExportOptions): Promise<ExportResult> {
  const plan = options.plan ?? planExport(store, options);
  const result: ExportResult = { plan, status: 'planned', runId: null, backupDir: null, verified: [] };
  if (plan.refused.length > 0) return { ...result, status: 'refused' };
  const todo = plan.entries.filter((e) => e.action !== 'unchanged');
  if (options.dryRun) return result;
  if (plan.target.kind === 'folder') removeStaleTempFiles(plan.target.dir);
  else removeStaleTempFiles(path.dirname(plan.target.file));
  if (todo.length === 0) return { ...result, status: 'done' };

  const runId = store.beginExportRun({ target: exportRunKey(plan.target), backupDir: '' });
  const backupDir = backupDirFor(store.file, runId);
  store.setExportRunBackupDir(runId, backupDir);
  result.runId = runId;
  result.backupDir = backupDir;
  try {
    const aborted =
      plan.target.kind === 'folder'
        ? await exportToFolder(store, plan.target, todo, runId, backupDir, result.verified, { ...options, rebake: plan.rebake })
        : await exportToArchive(store, plan.target, todo, runId, backupDir, result.verified, { ...options, rebake: plan.rebake });
    store.finishExportRun(runId, aborted ? 'failed' : 'done');
    return { ...result, status: aborted ? 'aborted' : 'done' };
  } catch (e) {
    store.finishExportRun(runId, 'failed');
    throw e;
  }
}

/** Yields to the event loop so an AbortSignal (a UI's cancel button) can fire between files. */
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function verifyLoose(entry: PlannedExport, file: string, bytes: Uint8Array): void {
  const back = readTarget(file);
  if (!back) throw new ExportVerifyError(file, 'is missing after it was written');
  if (back.length !== bytes.length || contentHash(back) !== entry.sha256) throw new ExportVerifyError(file, 'reads back different from what was written');
  const checked = checkExportBytes(entry.format, file, back);
  if ('refused' in checked) throw new ExportVerifyError(file, checked.refused);
}

async function exportToFolder(
  store: ProjectStore,
  target: Extract<ExportTarget, { kind: 'folder' }>,
  todo: readonly PlannedExport[],
  runId: number,
  backupDir: string,
  verified: VerifiedExport[],
  options: ExportOptions,
): Promise<boolean> {
  let done = 0;
  for (const entry of todo) {
    await tick();
    if (options.signal?.aborted) return true;
    const bytes = plannedBytes(store, entry, options.rebake === true);
    const current = readTarget(entry.targetPath);
    done++;
    if (current && contentHash(current) === entry.sha256) {
      options.onProgress?.(done, todo.length, entry.file);
      continue;
    }
    const action = current ? 'replace' : 'create';
    const backupPath = current ? backUpFile(backupDir, target.root, entry.targetPath, current) : null;
    const logId = store.logExportRunEntry({
      runId,
      targetPath: entry.targetPath,
      resource: null,
      action,
      backupPath,
      format: entry.format,
      bytes,
      fileId: entry.fileId,
      ...(entry.bakeId !== null ? { bakeId: entry.bakeId } : {}),
    });
    replaceFileDurably(entry.targetPath, bytes);
    verifyLoose(entry, entry.targetPath, bytes);
    store.markExportVerified([logId]);
    verified.push({ file: entry.file, targetPath: entry.targetPath, resource: null, action, sha256: entry.sha256, bytes: bytes.length });
    options.onProgress?.(done, todo.length, entry.file);
  }
  return false;
}

type Archive = { kind: 'erf'; doc: ErfDocument } | { kind: 'rim'; doc: RimDocument };

function readArchive(file: string, kind: 'erf' | 'rim', bytes: Uint8Array): Archive {
  try {
    return kind === 'rim' ? { kind, doc: readRim(bytes) } : { kind, doc: readErf(bytes) };
  } catch (e) {
    if (isMalformedInputError(e)) throw e.withFile(file);
    throw e;
  }
}

function writeArchive(a: Archive): Uint8Array {
  return a.kind === 'rim' ? writeRim(a.doc) : writeErf(a.doc);
}

/**
 * Puts every resource into the archive in memory, backs the archive up whole, logs the
 * resources, then replaces the archive in one rename: a crash leaves the old archive or the
 * new one. Reading back checks each exported resource and that every other resource kept
 * its bytes.
 */
async function exportToArchive(
  store: ProjectStore,
  target: Extract<ExportTarget, { kind: 'archive' }>,
  todo: readonly PlannedExport[],
  runId: number,
  backupDir: string,
  verified: VerifiedExport[],
  options: ExportOptions,
): Promise<boolean> {
  const original = readTarget(target.file);
  if (!original) throw new FileAccessError(target.file, 'no such archive');
  const archive = readArchive(target.file, target.archive, original);
  const types = resourceTypes(target.game === 'nwn2' ? 'nwn2' : 'kotor');
  const keyOf = (resRef: string, type: number) => `${type}:${resRef.toLowerCase()}`;
  const before = new Map<string, string>();
  for (const r of archive.doc.resources) before.set(keyOf(r.resRef, r.type), contentHash(r.data));
  const written: { entry: PlannedExport; resRef: string; type: number; action: 'create' | 'replace'; bytes: Uint8Array }[] = [];
  let done = 0;
  for (const entry of todo) {
    await tick();
    if (options.signal?.aborted) return true;
    const bytes = plannedBytes(store, entry, options.rebake === true);
    const ext = path.extname(entry.resource!);
    const resRef = entry.resource!.slice(0, -ext.length);
    const type = types.typeId(ext)!;
    const was = before.get(keyOf(resRef, type));
    done++;
    options.onProgress?.(done, todo.length + 1, entry.file);
    if (was === entry.sha256) continue;
    const resource = { resRef, type, data: bytes };
    if (archive.kind === 'rim') putRimResource(archive.doc, resource);
    else putErfResource(archive.doc, resource);
    written.push({ entry, resRef, type, action: was === undefined ? 'create' : 'replace', bytes });
  }
  if (written.length === 0) return false;
  const out = writeArchive(archive);
  const backupPath = backUpFile(backupDir, target.root, target.file, original);
  const logIds = store.transaction(() =>
    written.map((w) =>
      store.logExportRunEntry({
        runId,
        targetPath: target.file,
        resource: w.entry.resource,
        action: w.action,
        backupPath,
        format: w.entry.format,
        bytes: w.bytes,
        fileId: w.entry.fileId,
        ...(w.entry.bakeId !== null ? { bakeId: w.entry.bakeId } : {}),
      }),
    ),
  );
  if (options.signal?.aborted) return true;
  replaceFileDurably(target.file, out);

  const back = readTarget(target.file);
  if (!back || contentHash(back) !== contentHash(out)) throw new ExportVerifyError(target.file, 'reads back different from what was written');
  const reread = readArchive(target.file, target.archive, back);
  const after = new Map<string, Uint8Array>();
  for (const r of reread.doc.resources) if (!after.has(keyOf(r.resRef, r.type))) after.set(keyOf(r.resRef, r.type), r.data);
  const changed = new Set(written.map((w) => keyOf(w.resRef, w.type)));
  for (const [key, sha] of before) {
    if (changed.has(key)) continue;
    const data = after.get(key);
    if (!data || contentHash(data) !== sha) throw new ExportVerifyError(target.file, `resource ${key} other than the exported ones changed or went missing`);
  }
  for (const w of written) {
    const data = after.get(keyOf(w.resRef, w.type));
    const label = `${target.file}:${w.entry.resource}`;
    if (!data || contentHash(data) !== w.entry.sha256) throw new ExportVerifyError(label, 'reads back different from what was written');
    const checked = checkExportBytes(w.entry.format, label, data);
    if ('refused' in checked) throw new ExportVerifyError(label, checked.refused);
    verified.push({ file: w.entry.file, targetPath: target.file, resource: w.entry.resource, action: w.action, sha256: w.entry.sha256, bytes: w.bytes.length });
  }
  store.markExportVerified(logIds);
  options.onProgress?.(todo.length + 1, todo.length + 1, path.basename(target.file));
  return false;
}
