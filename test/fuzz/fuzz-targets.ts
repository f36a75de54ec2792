import type { FuzzTarget } from './fuzz-target';
import { canaryTarget } from './targets/canary-target';
import { aswmTarget, bwmTarget, erfTarget, gffTarget, mdbTarget, nvnmTarget, pluginTarget, trxTarget } from './targets/format-targets';
import { navTarget } from './targets/nav-target';
import { projectTarget } from './targets/project-target';
import { zipTarget } from './targets/zip-target';

/** Every format target: what `npm run fuzz -- all` runs. */
export const formatTargets: readonly FuzzTarget<unknown>[] = [navTarget, trxTarget, aswmTarget, mdbTarget, bwmTarget, pluginTarget, nvnmTarget, gffTarget, erfTarget, zipTarget, projectTarget];

/** Every target `npm run fuzz -- <name>` knows (the canary is the fuzzer's self-test, not a format). */
export const fuzzTargets: readonly FuzzTarget<unknown>[] = [...formatTargets, canaryTarget];

export function targetByName(name: string): FuzzTarget<unknown> | undefined {
  return fuzzTargets.find((t) => t.name === name);
}
