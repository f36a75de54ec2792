import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/fixtures';

// js-yaml comes with electron-builder (and ESLint); it ships no types of its own.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

interface BuilderConfig {
  appId?: string;
  npmRebuild?: boolean;
  files?: string[];
  asarUnpack?: string[];
  extraMetadata?: { main?: string };
  linux?: { target?: string[] };
  win?: { target?: string[] };
  mac?: { target?: string[] };
}

const config = yaml.load(readFileSync(path.join(repoRoot, 'build/electron-builder.yml'), 'utf8')) as BuilderConfig;

describe('build/electron-builder.yml', () => {
  it('packages for Linux, Windows and macOS', () => {
    expect(config.linux?.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.win?.target).toEqual(expect.arrayContaining(['nsis']));
    expect(config.mac?.target).toEqual(expect.arrayContaining(['dmg']));
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z]+)+$/);
  });

  it('does not rebuild native modules and ships what the main process loads', () => {
    expect(config.npmRebuild).toBe(false);
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { main: string };
    expect(config.extraMetadata?.main ?? pkg.main).toBe('dist/electron/main.cjs');
    for (const needed of ['package.json', 'dist/electron/**', 'dist/renderer/**', 'dist/workers/**']) expect(config.files).toContain(needed);
    // The project store's native module, and the bake worker outside the archive.
    expect(config.files?.some((f) => f.startsWith('node_modules/better-sqlite3/'))).toBe(true);
    expect(config.asarUnpack).toContain('dist/workers/**');
  });

  it('names build outputs that build/build-node.mjs produces', () => {
    const build = readFileSync(path.join(repoRoot, 'build/build-node.mjs'), 'utf8');
    for (const entry of ["'electron/main'", "'electron/preload'", "'workers/bake-worker'"]) expect(build).toContain(entry);
  });
});
