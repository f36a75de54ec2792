import { pakoZlibCodec } from '../platform/pako-zlib-codec';
import type { ZlibCodec } from '../platform/zlib-codec';

/** What a format reader or writer needs from the platform it runs on. */
export interface FormatEnvironment {
  zlib: ZlibCodec;
}

/** Works everywhere (renderer, workers, Node); Node callers may pass a faster one. */
export const portableEnvironment: FormatEnvironment = { zlib: pakoZlibCodec };
