import type { FormatHandler } from '../format-handler';
import { PLUGIN_FORMAT, signatureOf, type PluginDocument } from './plugin-document';
import { readPlugin } from './plugin-reader';
import { pluginRoundtripDetails } from './plugin-roundtrip';
import { summarizePlugin } from './plugin-summary';
import { writePlugin } from './plugin-writer';
import { pluginFromWalkmeshes, pluginToWalkmeshes } from './skyrim-walkmesh';
import { validatePlugin } from './skyrim-validate';

/** A TES4 header with the 24-byte record header of Skyrim (Oblivion's is 20 bytes, so HEDR sits elsewhere). */
export function sniffPlugin(bytes: Uint8Array): boolean {
  return bytes.length >= 30 && signatureOf(bytes, 0) === 'TES4' && signatureOf(bytes, 24) === 'HEDR';
}

/**
 * Skyrim plugins (ESP/ESM) with their NAVM navmeshes and the NAVI info map. Written back
 * byte for byte; compressed records are re-encoded from the model with pako at level 9,
 * which reproduces the Creation Kit's streams.
 */
export const pluginFormat: FormatHandler<PluginDocument> = {
  id: PLUGIN_FORMAT,
  game: 'skyrim',
  label: 'Skyrim plugin with navmeshes (ESP/ESM)',
  extensions: ['.esp', '.esm'],
  sniff: sniffPlugin,
  read: (bytes, env) => readPlugin(bytes, env),
  write: (doc, env) => writePlugin(doc, env),
  summarize: summarizePlugin,
  validate: (doc) => validatePlugin(doc),
  toWalkmeshes: pluginToWalkmeshes,
  fromWalkmeshes: pluginFromWalkmeshes,
  roundtripDetails: (original, doc, env) => ({ ...pluginRoundtripDetails(original, doc, env) }),
};
