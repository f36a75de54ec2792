import type { FuzzTarget } from './fuzz-target';
import { canaryTarget } from './targets/canary-target';
import { aswmTarget, bwmTarget, erfTarget, gffTarget, mdbTarget, nvnmTarget, pluginTarget, trxTarget } from './targets/format-targets';
import { landTarget, mdbMeshTarget, trrnContextTarget } from './targets/level-context-targets';
import { mdlTarget } from './targets/mdl-target';
import { navTarget } from './targets/nav-target';
import { bspTarget } from './targets/bsp-target';
import { projectTarget } from './targets/project-target';
import { zipTarget } from './targets/zip-target';
import { ddsTarget, tgaTarget } from './targets/image-targets';

/** Every format target: what `npm run fuzz -- all` runs. */
export const formatTargets: readonly FuzzTarget<unknown>[] = [navTarget, trxTarget, aswmTarget, mdbTarget, bwmTarget, mdlTarget, pluginTarget, nvnmTarget, gffTarget, erfTarget, zipTarget, projectTarget, landTarget, mdbMeshTarget, trrnContextTarget, bspTarget, ddsTarget, tgaTarget];

/** Every target `npm run fuzz -- <name>` knows (the canary is the fuzzer's self-test, not a format). */
export const fuzzTargets: readonly FuzzTarget<unknown>[] = [...formatTargets, canaryTarget];

export function targetByName(name: string): FuzzTarget<unknown> | undefined {
  return fuzzTargets.find((t) => t.name === name);
}
