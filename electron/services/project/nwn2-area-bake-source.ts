import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { areaBakeDoors, areaBakeModels, encodeAreaBakeInput, type AreaBakeInput } from '../../../shared/edits/nwn2-area-bake-job';
import { encodeFrame } from '../../../shared/ipc/mesh-payload';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { TRX_FORMAT } from '../../../shared/formats/nwn2/trx-document';
import { contentHash, type BakeSpec } from './content-hash';
import { projectPlaceableModels } from './project-placeable-models';
import type { ProjectStore } from './project-store';
import type { FileRecord } from './project-types';

/** Bumped when the bytes of a TRN + GIT bake can change (2: tiles as in the imported TRX keep its tables; 3: doors). */
export const NWN2_TRN_BAKE_VERSION = '3';

function stem(name: string): string {
  return name.replace(/\.[^.]*$/, '').toLowerCase();
}

/**
 * The files of an NWN2 area in the project: those of the same module and area whose name
 * is `file`'s but for the extension (the toolset names an area's TRN, TRX and GIT alike).
 */
export function nwn2AreaFiles(store: ProjectStore, file: FileRecord): { trn?: FileRecord; trx?: FileRecord; git?: FileRecord } {
  const siblings = store.listFiles({ module: file.module }).filter((f) => f.area === file.area && stem(f.name) === stem(file.name));
  const trn = siblings.find((f) => f.kind === 'trn') ?? siblings.find((f) => /\.trn$/i.test(f.name));
  const trx = siblings.find((f) => f.kind === 'walkmesh' && f.format === TRX_FORMAT) ?? siblings.find((f) => /\.trx$/i.test(f.name));
  const git = siblings.find((f) => f.kind === 'git');
  return { ...(trn ? { trn } : {}), ...(trx ? { trx } : {}), ...(git ? { git } : {}) };
}

/**
 * Decision: an NWN2 area's TRX is baked from its TRN and GIT (the full bake, as the toolset
 * bakes it: cutters, placeable walkmeshes, tiles, tables) when the project holds both and
 * the designer edited the GIT or the TRN; otherwise its own tables are re-baked from the
 * TRX (the toolset's TRX is the better source while nothing it was baked from changed: it
 * has the walkmeshes of placeables whose models the project may lack). This is what makes
 * cutter and placeable edits reach the game.
 */
export function nwn2AreaSourcesOf(store: ProjectStore, trx: FileRecord): { trn: FileRecord; git: FileRecord } | undefined {
  if (trx.kind !== 'walkmesh' || trx.format !== TRX_FORMAT) return undefined;
  const { trn, git } = nwn2AreaFiles(store, trx);
  if (!trn || !git || !(git.edited || trn.edited)) return undefined;
  return { trn, git };
}

/** The bake job of an area's TRN + GIT: its input frame and the spec its bake is recorded under. */
export function nwn2AreaBakeJob(store: ProjectStore, trx: FileRecord, sources: { trn: FileRecord; git: FileRecord }): { spec: BakeSpec; input: () => Uint8Array } {
  const trnBytes = store.loadCurrentBytes(sources.trn);
  const gitBytes = store.loadCurrentBytes(sources.git);
  let models: AreaBakeInput['models'] = [];
  let doors: NonNullable<AreaBakeInput['doors']> = [];
  try {
    const gitDoc = readGff(gitBytes);
    const lookup = projectPlaceableModels(store, trx.module);
    models = areaBakeModels(gitDoc, lookup);
    doors = areaBakeDoors(gitDoc, lookup);
  } catch (e) {
    // A GIT that does not read fails in the bake itself, with its name.
    if (!isMalformedInputError(e)) throw e;
  }
  const spec: BakeSpec = {
    bakerId: 'nwn2-trn-bake',
    bakerVersion: NWN2_TRN_BAKE_VERSION,
    inputs: [
      { name: `${sources.trn.module}/${sources.trn.name}`, sha256: contentHash(trnBytes) },
      { name: `${sources.git.module}/${sources.git.name}`, sha256: contentHash(gitBytes) },
      // The placeable models as the bake gets them: a new or changed MDB or 2DA row bakes again.
      { name: 'placeable models', sha256: contentHash(encodeFrame(models)) },
      // The door rows and models likewise (door-walkmesh.ts).
      { name: 'door models', sha256: contentHash(encodeFrame(doors)) },
      // The TRX as imported (the toolset's bake): unchanged tiles keep its tables and line-of-sight bits.
      { name: `${trx.module}/${trx.name} as imported`, sha256: trx.sha256 },
    ],
  };
  return {
    spec,
    input: () =>
      encodeAreaBakeInput({
        name: `${trx.module}/${trx.name}`,
        gitName: `${sources.git.module}/${sources.git.name}`,
        trn: trnBytes,
        git: gitBytes,
        models,
        doors,
        tileCache: null,
        storedTrx: store.loadFileBytes(trx.id),
      }),
  };
}
