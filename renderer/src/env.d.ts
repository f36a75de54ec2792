import type { WalkbenchBridge } from '../../shared/ipc/bridge';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in browser mode. */
    walkbench?: WalkbenchBridge;
  }
}

export {};
