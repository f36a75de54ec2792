import type { BenchSuite } from './bench-suite';
import { navBench } from './nav-bench';
import { bspContextBench, bspReadBench } from './bsp-bench';
import { trnBakeBench } from './nwn2-trn-bake-bench';
import { nwn2Bench } from './nwn2-bench';
import { nwn2ExteriorContextBench, nwn2ExteriorReadBench } from './nwn2-context-bench';
import { kotorBench } from './kotor-bench';
import { skyrimPluginBench } from './skyrim-bake-bench';

/** Every suite `npm run bench` runs, in table order. */
export const benchSuites: readonly BenchSuite<unknown>[] = [navBench, nwn2Bench, trnBakeBench, kotorBench, skyrimPluginBench, bspReadBench, bspContextBench, nwn2ExteriorReadBench, nwn2ExteriorContextBench];
