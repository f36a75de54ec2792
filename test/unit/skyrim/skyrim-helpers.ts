import { portableEnvironment } from '../../../shared/formats/format-environment';
import type { PluginDocument } from '../../../shared/formats/skyrim/plugin-document';
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
