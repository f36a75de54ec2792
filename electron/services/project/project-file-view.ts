import { editRefusals, type EditTarget } from '../../../shared/edits/edit-capabilities';
import { handlerById } from '../../../shared/formats/format-registry';
import type { ProjectFileState, ProjectFileView } from '../../../shared/ipc/project-contract';
import type { GameId } from '../../../shared/model/walkmesh';
import { bakeStateOf } from './file-bake-state';
import { nwn2AreaFiles, nwn2AreaSourcesOf } from './nwn2-area-bake-source';
import type { ProjectStore } from './project-store';
import type { FileRecord } from './project-types';

const labelOf = (f: FileRecord) => `${f.module}/${f.name}`;

/** The game of a project file: its format's, else (GFF, 2DA) the project's. */
export function gameOfFile(store: ProjectStore, f: FileRecord): GameId {
  return (f.format ? handlerById(f.format)?.game : undefined) ?? store.info().game;
}

/** What decides the file's edit tools (shared/edits/edit-capabilities.ts). */
export function editTargetOf(store: ProjectStore, f: FileRecord): EditTarget {
  const game = gameOfFile(store, f);
  const target: EditTarget = { name: labelOf(f), game, kind: f.kind, format: f.format };
  if (game === 'nwn2' && (f.kind === 'trn' || f.kind === 'walkmesh')) {
    const area = nwn2AreaFiles(store, f);
    const trx = area.trx ?? (f.kind === 'walkmesh' ? f : undefined);
    target.nwn2Area = {
      trn: area.trn ? labelOf(area.trn) : null,
      trx: trx ? labelOf(trx) : null,
      git: area.git ? labelOf(area.git) : null,
      bakedFromTrnAndGit: trx !== undefined && nwn2AreaSourcesOf(store, trx) !== undefined,
    };
  }
  return target;
}

/**
 * The files a tab's undo covers: the file, and for an NWN2 area's TRN or TRX (or its GIT)
 * the other of the area's files the tab edits: the GIT, whose cutters and placeables are
 * edited from the walkmesh's tab.
 */
export function undoScopeOf(store: ProjectStore, f: FileRecord): FileRecord[] {
  if (gameOfFile(store, f) !== 'nwn2') return [f];
  if (f.kind === 'git') {
    const area = nwn2AreaFiles(store, f);
    return [f, ...[area.trn, area.trx].filter((x): x is FileRecord => x !== undefined)];
  }
  if (f.kind !== 'trn' && f.kind !== 'walkmesh') return [f];
  const git = nwn2AreaFiles(store, f).git;
  return git ? [f, git] : [f];
}

export function fileStateOf(store: ProjectStore, f: FileRecord): ProjectFileState {
  return { fileId: f.id, revision: f.revision, edited: f.edited, bake: bakeStateOf(store, f), refusals: editRefusals(editTargetOf(store, f)) };
}

/** What a project file's tab knows about it besides its contents. */
export function projectFileView(store: ProjectStore, session: string, f: FileRecord): ProjectFileView {
  const scope = undoScopeOf(store, f);
  return {
    session,
    fileId: f.id,
    label: labelOf(f),
    kind: f.kind,
    revision: f.revision,
    edited: f.edited,
    undoScope: scope.map((x) => x.id),
    related: scope.filter((x) => x.id !== f.id).map((x) => ({ fileId: x.id, kind: x.kind, label: labelOf(x), revision: x.revision })),
    bake: bakeStateOf(store, f),
    refusals: editRefusals(editTargetOf(store, f)),
  };
}
