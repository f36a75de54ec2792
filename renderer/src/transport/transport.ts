import type { WalkbenchBridge } from '../../../shared/ipc/bridge';

/**
 * What the client needs from a transport: exactly the bridge the Electron preload
 * exposes. The HTTP transport implements the same interface, so nothing above the
 * transport layer knows which one it talks to.
 */
export type Transport = WalkbenchBridge;
