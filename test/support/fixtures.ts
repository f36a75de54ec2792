import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The real sample files, read in place beside the repository (never copied into it). */
export const fixturesRoot = path.resolve(repoRoot, '../shared/fixtures');

if (!existsSync(fixturesRoot)) {
  throw new Error(`fixtures not found at ${fixturesRoot}: the repository must sit beside ../shared`);
}

/** Every fixture below `sub` (e.g. `source`) whose name ends with one of `extensions`. */
export function listFixtures(sub: string, extensions: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (extensions.some((e) => name.toLowerCase().endsWith(e))) out.push(full);
    }
  };
  walk(path.join(fixturesRoot, sub));
  return out;
}

export function readFixture(file: string): Uint8Array {
  const b = readFileSync(file);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** A short name for test titles: the path below the fixtures folder. */
export function fixtureName(file: string): string {
  return path.relative(fixturesRoot, file);
}
