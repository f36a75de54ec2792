import type { NotCarriedEdit } from '../../../shared/ipc/export-contract';
import { TRX_FORMAT } from '../../../shared/formats/nwn2/trx-document';
import { nwn2AreaFiles, nwn2AreaSourcesOf } from './nwn2-area-bake-source';
import type { ProjectStore } from './project-store';
import type { FileRecord } from './project-types';

const labelOf = (f: FileRecord) => `${f.module}/${f.name}`;

/**
 * The edits the project holds that an NWN2 area's exported TRX will not carry, each with
 * the reason (none for other files). An area has two sources of one output:
 * - once its GIT or TRN is edited, the TRX is the bake of TRN + GIT (nwn2-area-bake-source.ts),
 *   so the edits made on the TRX itself are not in it;
 * - without a TRN in the project the TRX is re-baked from itself, so the GIT's cutter and
 *   placeable edits are not in its walkmesh (the edited GIT is exported beside it).
 * The export's dry run lists these, and an edit that makes one says so at once.
 */
export function notCarriedEdits(store: ProjectStore, trx: FileRecord): NotCarriedEdit[] {
  if (trx.kind !== 'walkmesh' || trx.format !== TRX_FORMAT) return [];
  const area = nwn2AreaFiles(store, trx);
  const out: NotCarriedEdit[] = [];
  if (nwn2AreaSourcesOf(store, trx)) {
    const reason = `the area is exported as baked from its TRN and GIT (edited), which does not hold edits made on ${trx.name} itself; paint the ground in ${area.trn?.name ?? 'the TRN'} instead`;
    for (const e of store.doneEntriesOf(trx.id)) out.push({ seq: e.seq, label: e.label, editedFile: labelOf(trx), reason });
  } else if (area.git && !area.trn) {
    const reason = `the project has no TRN of this area, so ${trx.name} is re-baked from itself without the GIT's cutters and placeables (import the area's TRN to bake them in)`;
    for (const e of store.doneEntriesOf(area.git.id)) out.push({ seq: e.seq, label: e.label, editedFile: labelOf(area.git), reason });
  }
  return out;
}

/** The area's TRX of an NWN2 file (TRN, TRX or GIT), if the project has one. */
export function areaTrxOf(store: ProjectStore, file: FileRecord): FileRecord | undefined {
  if (file.kind === 'walkmesh' && file.format === TRX_FORMAT) return file;
  if (file.kind !== 'trn' && file.kind !== 'git') return undefined;
  return nwn2AreaFiles(store, file).trx;
}
