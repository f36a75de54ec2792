import { portableEnvironment } from '../../../shared/formats/format-environment';
import { formIdHex, RECORD_HEADER_SIZE, walkRecords, type PluginDocument } from '../../../shared/formats/skyrim/plugin-document';
import { pluginNavmeshes, type PluginNavmesh } from '../../../shared/formats/skyrim/plugin-navmeshes';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import type { NvnmDocument } from '../../../shared/formats/skyrim/nvnm-document';
import { listFixtures, readFixture } from '../../support/fixtures';

export const env = portableEnvironment;
export const pluginFiles = listFixtures('skyrim', ['.esp', '.esm']);

export function fixtureFile(base: string): string {
  const f = pluginFiles.find((p) => p.endsWith(base));
  if (!f) throw new Error(`fixture ${base} not found`);
  return f;
}

export function readFixturePlugin(base: string): { bytes: Uint8Array; doc: PluginDocument } {
  const bytes = readFixture(fixtureFile(base));
  return { bytes, doc: readPlugin(bytes, env) };
}

export type ModelledNavmesh = PluginNavmesh & { nvnm: NvnmDocument };

export function modelledNavmeshes(doc: PluginDocument): ModelledNavmesh[] {
  return pluginNavmeshes(doc).filter((n): n is ModelledNavmesh => n.nvnm !== undefined);
}

export function firstDifference(a: Uint8Array, b: Uint8Array): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? null : n;
}

export function floatsOf(bits: Uint32Array): Float32Array {
  return new Float32Array(new Uint32Array(bits).buffer);
}

/** Each record's header and stored data, sliced from the file bytes it was read from, by `index SIG FORMID`. */
export function recordBytes(doc: PluginDocument, bytes: Uint8Array): Map<string, Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Map<string, Uint8Array>();
  let i = 0;
  for (const { record } of walkRecords(doc.items)) {
    const o = record.sourceOffset;
    out.set(`${i++} ${record.signature} ${formIdHex(record.formId)}`, bytes.subarray(o, o + RECORD_HEADER_SIZE + view.getUint32(o + 4, true)));
  }
  return out;
}
