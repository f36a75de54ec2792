import { MalformedInputError } from '../../binary/malformed-input-error';
import type { ReadLimits, ReadMemoryBound } from '../../binary/read-budget';
import type { BspMap } from './bsp-document';
import { GOLDSRC_BSP_VERSION, readGoldsrcBsp } from './goldsrc-bsp-reader';
import { readVbsp, VBSP_MAGIC } from './vbsp-reader';

/**
 * readBsp's memory bound (see ReadMemoryBound): the typed columns take at most 2 bytes per
 * lump byte; names and entity text are strings (a 16-byte GoldSrc texture name may be
 * named from every 4-byte offset of its lump, and each string costs ~40 bytes of heap).
 */
export const BSP_READ_MEMORY: ReadMemoryBound = { perInputByte: 12, perDecompressedByte: 3 };

/**
 * readBsp followed by bspLevelContextPieces: the pieces add at most 12 bytes of positions
 * and 14 of triangles and surfaces per surfedge (4 input bytes) or 40 per displacement
 * vertex (20 input bytes): 7 bytes per input byte more.
 */
export const BSP_LEVEL_CONTEXT_MEMORY: ReadMemoryBound = { perInputByte: 19, perDecompressedByte: 10 };

/**
 * Reads a compiled map, GoldSrc (first word 30) or Source (`VBSP` magic), by its first
 * word. Throws MalformedInputError naming `fileName`, the offset and the field otherwise.
 */
export function readBsp(bytes: Uint8Array, fileName: string, options?: { limits?: ReadLimits }): BspMap {
  if (bytes.length < 4) {
    throw new MalformedInputError({ format: 'bsp', offset: 0, field: 'version', expected: 'a 4-byte version or "VBSP" magic', found: `${bytes.length} byte(s)`, file: fileName });
  }
  const first = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  if (first === VBSP_MAGIC) return readVbsp(bytes, fileName, options);
  if (first === GOLDSRC_BSP_VERSION) return readGoldsrcBsp(bytes, fileName);
  throw new MalformedInputError({
    format: 'bsp',
    offset: 0,
    field: 'version',
    expected: `"VBSP" (Source) or version ${GOLDSRC_BSP_VERSION} (GoldSrc); Quake (29) and Xash/other BSP variants are not read`,
    found: `0x${first.toString(16).padStart(8, '0')}`,
    file: fileName,
  });
}
