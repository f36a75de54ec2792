import { readNwn2Container } from './nwn2-container';
import { fixedString } from './le-words';
import { TRX_FORMAT } from './trx-document';

/** TRRN payload offsets of the six texture names (spec §2.3: after the 128-byte name, 32 bytes each). */
const NAMES_AT = 128;
const NAME_BYTES = 32;
const TEXTURES = 6;

/**
 * The terrain texture names every TRRN packet of a TRN/TRX names (spec §2.3), lower-cased,
 * each once, in first-seen order: what the services look up in the designer's files before
 * the worker composes the megatiles' images. Only the packet table and the names are read
 * (no walkmesh is inflated); a packet too short for its names is skipped (the worker's full
 * read reports it). Throws MalformedInputError when the container itself is damaged.
 */
export function trrnTextureNames(bytes: Uint8Array): string[] {
  const seen = new Set<string>();
  for (const p of readNwn2Container(bytes, TRX_FORMAT).packets) {
    if (p.type !== 'TRRN' || p.payload.length < NAMES_AT + TEXTURES * NAME_BYTES) continue;
    for (let i = 0; i < TEXTURES; i++) {
      const name = fixedString(p.payload.subarray(NAMES_AT + i * NAME_BYTES, NAMES_AT + (i + 1) * NAME_BYTES)).trim().toLowerCase();
      if (name) seen.add(name);
    }
  }
  return [...seen];
}
