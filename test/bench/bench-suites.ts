import type { BenchSuite } from './bench-suite';
import { navBench } from './nav-bench';

/** Every suite `npm run bench` runs, in table order. */
export const benchSuites: readonly BenchSuite<unknown>[] = [navBench];
