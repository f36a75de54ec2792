import type { FormatEnvironment } from '../../shared/formats/format-environment';
import { nodeZlibCodec } from './node-zlib-codec';

/** The environment of format code running in the main process, workers and the CLI. */
export const nodeFormatEnvironment: FormatEnvironment = { zlib: nodeZlibCodec };
