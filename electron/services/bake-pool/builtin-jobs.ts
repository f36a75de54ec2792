import { bakeBwm, bakeInputOf } from '../../../shared/bakers/kotor/bwm-bake';
import { rebakeTrx } from '../../../shared/bakers/nwn2/trx-rebake';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { writeBwm } from '../../../shared/formats/kotor/bwm-writer';
import { DEFAULT_WALKABILITY } from '../../../shared/formats/kotor/surface-materials';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { nodeFormatEnvironment as env } from '../node-format-environment';
import type { JobRegistry, JobRunner } from './bake-job-types';

/**
 * Bumped whenever a baker's output bytes can change, so a project re-bakes what it baked
 * with the old code (the version is part of every bake's input hash).
 */
export const BAKER_VERSIONS = { 'nwn2-rebake': '1', 'kotor-bake': '1' } as const;

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

/** WOK/PWK/DWK bytes → re-baked bytes with the default walkability table. */
const kotorBake: JobRunner = (input, _options, progress) => {
  progress('read', 0);
  const doc = readBwm(input);
  progress('bake', 0.2);
  const baked = bakeBwm(bakeInputOf(doc), DEFAULT_WALKABILITY);
  progress('write', 0.9);
  return { output: writeBwm(baked.document), summary: { faces: baked.faceOrder.length, walkableFaces: baked.walkableCount } };
};

export const builtinJobs: JobRegistry = { 'nwn2-rebake': nwn2Rebake, 'kotor-bake': kotorBake };
