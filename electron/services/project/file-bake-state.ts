import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { handlerById } from '../../../shared/formats/format-registry';
import type { BakeState } from '../../../shared/ipc/project-contract';
import { bakeJobOf } from '../bake-pool/project-rebake';
import { nodeFormatEnvironment } from '../node-format-environment';
import { nwn2AreaFiles } from './nwn2-area-bake-source';
import type { ProjectStore } from './project-store';
import type { BakeRecord, FileRecord } from './project-types';

/** A bake's counts, read once per bake (its bytes never change). */
const countsOfBake = new Map<string, Record<string, number> | null>();
const MAX_CACHED_COUNTS = 512;

function bakeCounts(store: ProjectStore, bake: BakeRecord): Record<string, number> | null {
  const key = `${bake.outputSha256}:${bake.outputFormat}`;
  if (countsOfBake.has(key)) return countsOfBake.get(key)!;
  let counts: Record<string, number> | null = null;
  const handler = handlerById(bake.outputFormat);
  if (handler) {
    try {
      counts = handler.summarize(handler.read(store.loadBakeOutput(bake.id), nodeFormatEnvironment)).counts;
    } catch (e) {
      if (!isMalformedInputError(e)) throw e;
    }
  }
  if (countsOfBake.size >= MAX_CACHED_COUNTS) countsOfBake.delete(countsOfBake.keys().next().value!);
  countsOfBake.set(key, counts);
  return counts;
}

/** The file whose bake stands for `file`: itself, or for an NWN2 TRN or GIT its area's TRX. */
export function bakedFileOf(store: ProjectStore, file: FileRecord): FileRecord | undefined {
  if (file.kind === 'trn' || (file.kind === 'git' && store.info().game === 'nwn2')) return nwn2AreaFiles(store, file).trx;
  return file;
}

/**
 * Whether the project holds the bake of what a file is baked from now (shared/ipc
 * project-contract.ts BakeState): the one fact the tree, the tab and the export show. Null
 * for files no baker takes (Source .nav, LYT…). An input whose edited bytes are still to be
 * written behind has no bake yet by definition (the bytes are new), so it is `unbaked`
 * without reading anything.
 */
export function bakeStateOf(store: ProjectStore, file: FileRecord): BakeState | null {
  const target = bakedFileOf(store, file);
  if (!target) return null;
  const label = `${target.module}/${target.name}`;
  const area = target.kind === 'walkmesh' ? nwn2AreaFiles(store, target) : {};
  const inputs = [target, area.trn, area.git].filter((f): f is FileRecord => f !== undefined);
  let job;
  try {
    job = bakeJobOf(store, target);
  } catch (e) {
    if (!isMalformedInputError(e)) throw e;
    return { status: 'blocked', file: label, source: 'import', label: `Cannot be baked: ${e.message}`, bakedAt: null, counts: null };
  }
  if (!job) return null;
  // An unedited plugin is exported as imported: the Creation Kit's own bake (project-export-plan.ts).
  if (job.kind === 'skyrim-rebake' && !target.edited) {
    return { status: 'baked', file: label, source: 'import', label: 'As the Creation Kit baked it (unedited): export writes it unchanged', bakedAt: null, counts: null };
  }
  // Any other unedited file whose bake inputs are unedited is exported as imported too
  // (exportBytesOf, issue 15 §4); its bake is written only when a re-bake is asked for.
  const asImported = job.kind !== 'nwn2-trn-bake' && !target.edited;
  const source: BakeState['source'] = job.kind === 'nwn2-trn-bake' ? 'trn+git' : target.edited && !target.editStale ? 'edit' : 'import';
  const from = source === 'trn+git' ? 'from its TRN and GIT as edited' : source === 'edit' ? 'from its edited bytes' : 'from its imported bytes';
  if (target.editStale) {
    return { status: 'blocked', file: label, source, label: 'Not baked: its edits were made on older bytes than it now holds (it was imported again since)', bakedAt: null, counts: null };
  }
  if (inputs.some((f) => f.editWritePending)) {
    return { status: 'unbaked', file: label, source, label: `Not baked since its last edit (${from})`, bakedAt: null, counts: null };
  }
  const bake = store.lookupBake(job.spec);
  if (!bake) {
    if (asImported) return { status: 'unbaked', file: label, source, label: 'Not baked yet: export writes it as imported (unedited), or needs a bake to re-bake it', bakedAt: null, counts: null };
    const never = source === 'import' ? 'Not baked yet' : 'Not baked since its last edit';
    return { status: 'unbaked', file: label, source, label: `${never}: export needs a bake ${from}`, bakedAt: null, counts: null };
  }
  const writes = asImported ? 'export writes it as imported (unedited) unless a re-bake is asked for' : 'export writes this bake';
  return { status: 'baked', file: label, source, label: `Baked ${from}: ${writes}`, bakedAt: bake.createdAt, counts: bakeCounts(store, bake) };
}
