import { bakeBwm, bakeInputOf } from '../../../shared/bakers/kotor/bwm-bake';
import { bakeBwmWithModel } from '../../../shared/bakers/kotor/bwm-model-bake';
import { readKotorModel } from '../../../shared/formats/kotor/mdl-reader';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { decodeModelBakeInput } from './kotor-room-model';
import { rebakeTrx } from '../../../shared/bakers/nwn2/trx-rebake';
import type { TileTableCache } from '../../../shared/bakers/nwn2/tile-table-reuse';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { storedTileCache } from '../../../shared/edits/nwn2-toolset-tile-cache';
import { aswmPacketOf } from '../../../shared/formats/nwn2/trx-document';
import { decodeFrame, encodeFrame } from '../../../shared/ipc/mesh-payload';
import { runPluginBake } from '../../../shared/bakers/skyrim/plugin-bake-job';
import { AREA_BAKE_JOB, encodeAreaBakeOutput, runAreaBake, runAreaBakeToTrx } from '../../../shared/edits/nwn2-area-bake-job';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { writeBwm } from '../../../shared/formats/kotor/bwm-writer';
import { DEFAULT_WALKABILITY } from '../../../shared/formats/kotor/surface-materials';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { nodeFormatEnvironment as env } from '../node-format-environment';
import type { JobRegistry, JobRunner } from './bake-job-types';
import { LEVEL_CONTEXT_JOB, levelContextJob } from './level-context-job';

/**
 * Bumped whenever a baker's output bytes can change, so a project re-bakes what it baked
 * with the old code (the version is part of every bake's input hash).
 */
export const BAKER_VERSIONS = { 'nwn2-rebake': '2', 'kotor-bake': '1', 'skyrim-rebake': '1' } as const;

export type BuiltinJobKind = keyof typeof BAKER_VERSIONS;

function lineOfSightOption(options: unknown): boolean {
  if (typeof options === 'object' && options !== null && 'lineOfSight' in options) return (options as { lineOfSight: unknown }).lineOfSight !== false;
  return true;
}

/** TRX bytes → re-baked TRX bytes (walkmesh path tables, islands, line of sight). */
const nwn2Rebake: JobRunner = (input, options, progress) => {
  progress('read', 0);
  const doc = readTrx(input, env);
  progress('bake', 0.2);
  const baked = rebakeTrx(doc, { lineOfSight: lineOfSightOption(options) });
  progress('write', 0.9);
  const output = writeTrx(baked.document, env);
  return { output, summary: { triangles: baked.counts.triangles, islands: baked.counts.islands, tiles: baked.counts.tiles } };
};

/** Input of an `nwn2-rebake-edit` job: the TRX as edited and as imported. */
export function encodeEditedTrxInput(edited: Uint8Array, imported: Uint8Array): Uint8Array {
  return encodeFrame({ edited, imported });
}

function decodeEditedTrxInput(frame: Uint8Array): { edited: Uint8Array; imported: Uint8Array } {
  const v = decodeFrame(frame) as { edited?: unknown; imported?: unknown } | null;
  if (!v || !(v.edited instanceof Uint8Array) || !(v.imported instanceof Uint8Array)) throw new TypeError('nwn2-rebake-edit input: expected the edited and the imported TRX bytes');
  return { edited: v.edited, imported: v.imported };
}

/**
 * An edited TRX → re-baked TRX, every tile the edit left exactly as imported keeping the
 * imported file's path table and line-of-sight bits (the toolset's: nwn2-toolset-tile-cache.ts),
 * so an edit changes how the game paths and sees only where it changed the walkmesh.
 */
const nwn2RebakeEdited: JobRunner = (input, options, progress) => {
  progress('read', 0);
  const { edited, imported } = decodeEditedTrxInput(input);
  const doc = readTrx(edited, env);
  let tileCache: TileTableCache | undefined;
  try {
    const stored = aswmPacketOf(readTrx(imported, env))?.aswm;
    tileCache = stored ? storedTileCache(stored) : undefined;
  } catch (e) {
    // Imported bytes that do not read leave nothing to keep: every tile is baked.
    if (!isMalformedInputError(e)) throw e;
  }
  progress('bake', 0.2);
  const baked = rebakeTrx(doc, { lineOfSight: lineOfSightOption(options), ...(tileCache ? { tileCache } : {}) });
  progress('write', 0.9);
  const output = writeTrx(baked.document, env);
  return { output, summary: { triangles: baked.counts.triangles, islands: baked.counts.islands, tiles: baked.counts.tiles, reusedTiles: baked.counts.reusedTiles } };
};

/** WOK/PWK/DWK bytes → re-baked bytes with the default walkability table. */
const kotorBake: JobRunner = (input, _options, progress) => {
  progress('read', 0);
  // With the room model (kotor-room-model.ts), the face order and AABB tree come from its
  // walkmesh node; a model that does not match the WOK (an edited room) leaves today's rebuild.
  const withModel = decodeModelBakeInput(input);
  const doc = readBwm(withModel?.wok ?? input);
  progress('bake', 0.2);
  let model: string | undefined;
  let baked: ReturnType<typeof bakeBwm> | undefined;
  if (withModel) {
    try {
      baked = bakeBwmWithModel(doc, readKotorModel(withModel.mdl, null, 'the room model'), DEFAULT_WALKABILITY);
      model = 'used';
    } catch (e) {
      if (!(e instanceof ModelMappingError) && !isMalformedInputError(e)) throw e;
      model = `not used: ${e.message}`;
    }
  }
  baked ??= bakeBwm(bakeInputOf(doc), DEFAULT_WALKABILITY);
  progress('write', 0.9);
  return { output: writeBwm(baked.document), summary: { faces: baked.faceOrder.length, walkableFaces: baked.walkableCount, ...(model ? { model } : {}) } };
};

/** Options of a `skyrim-rebake` job: the project file's name, for its failure messages. */
function fileOption(options: unknown): string {
  if (typeof options === 'object' && options !== null && 'file' in options) {
    const file = (options as { file: unknown }).file;
    if (typeof file === 'string') return file;
  }
  return 'the plugin';
}

/** Plugin bytes → the plugin with edge links, cover lists, grids and NAVI entries rebaked, as `walkbench bake PLUGIN.esp` writes it. */
const skyrimRebake: JobRunner = (input, options, progress) => {
  progress('bake', 0);
  const r = runPluginBake(input, env, fileOption(options));
  return { output: r.bytes, summary: { navmeshes: r.navmeshes, skipped: r.skipped, externalEdges: r.externalEdges } };
};

/** An NWN2 area's live re-bake after a GIT edit (shared/edits/nwn2-area-bake-job.ts); never stored as a bake. */
const nwn2AreaBake: JobRunner = (input, _options, progress) => {
  progress('bake', 0);
  const out = runAreaBake(input, env);
  return { output: encodeAreaBakeOutput(out), summary: { ms: out.ms, tiles: out.tiles, reusedTiles: out.reusedTiles } };
};

/** An NWN2 area's TRX baked from its TRN and GIT as edited (project/nwn2-area-bake-source.ts). */
const nwn2TrnBake: JobRunner = (input, _options, progress) => {
  progress('bake', 0);
  const r = runAreaBakeToTrx(input, env);
  return { output: r.bytes, summary: { triangles: r.triangles, islands: r.islands, cutters: r.cutters, placeablesWithoutModel: r.placeablesWithoutModel } };
};

export const builtinJobs: JobRegistry = {
  'nwn2-rebake': nwn2Rebake,
  'nwn2-rebake-edit': nwn2RebakeEdited,
  'kotor-bake': kotorBake,
  'skyrim-rebake': skyrimRebake,
  [AREA_BAKE_JOB]: nwn2AreaBake,
  'nwn2-trn-bake': nwn2TrnBake,
  [LEVEL_CONTEXT_JOB]: levelContextJob,
};
