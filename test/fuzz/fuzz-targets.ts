import type { FuzzTarget } from './fuzz-target';
import { canaryTarget } from './targets/canary-target';
import { navTarget } from './targets/nav-target';

/** Every target `npm run fuzz -- <name>` knows. */
export const fuzzTargets: readonly FuzzTarget<unknown>[] = [navTarget, canaryTarget];

export function targetByName(name: string): FuzzTarget<unknown> | undefined {
  return fuzzTargets.find((t) => t.name === name);
}
