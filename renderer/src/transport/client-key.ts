import type { InjectionKey } from 'vue';
import type { WalkbenchClient } from './walkbench-client';

/** How the app provides the one client to stores and components. */
export const clientKey: InjectionKey<WalkbenchClient> = Symbol('walkbench-client');
