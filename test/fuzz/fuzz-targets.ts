import type { FuzzTarget } from './fuzz-target';
import { canaryTarget } from './targets/canary-target';
import { aswmTarget, bwmTarget, erfTarget, gffTarget, pluginTarget, trxTarget } from './targets/format-targets';
import { navTarget } from './targets/nav-target';

/** Every target `npm run fuzz -- <name>` knows. */
export const fuzzTargets: readonly FuzzTarget<unknown>[] = [navTarget, trxTarget, aswmTarget, bwmTarget, pluginTarget, gffTarget, erfTarget, canaryTarget];

export function targetByName(name: string): FuzzTarget<unknown> | undefined {
  return fuzzTargets.find((t) => t.name === name);
}
