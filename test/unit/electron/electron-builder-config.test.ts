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
  asar?: boolean;
  electronFuses?: Record<string, boolean>;
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

  it('flips the Electron fuses that let a packaged app run other code', () => {
    // No ELECTRON_RUN_AS_NODE, NODE_OPTIONS or --inspect; only app.asar, checked against the
    // hash embedded in the binary; cookies encrypted at rest.
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    // The app is in an asar (what the integrity check and onlyLoadAppFromAsar protect).
    expect(config.asar).toBe(true);
    // Each key is one the installed electron-builder knows (its schema refuses unknown ones).
    const schema = JSON.parse(readFileSync(path.join(repoRoot, 'node_modules/app-builder-lib/scheme.json'), 'utf8')) as { definitions: { FuseOptionsV1: { properties: Record<string, unknown> } } };
    for (const key of Object.keys(config.electronFuses ?? {})) expect(Object.keys(schema.definitions.FuseOptionsV1.properties)).toContain(key);
  });

  it('depends on a supported Electron line by a caret range, not one pinned old version', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const range = pkg.devDependencies['electron']!;
    expect(range).toMatch(/^\^\d+\.\d+\.\d+$/);
    // Electron supports its latest three stable majors; 45 was the newest when this was set
    // (see README, "Electron version").
    expect(Number(/^\^(\d+)/.exec(range)![1])).toBeGreaterThanOrEqual(43);
  });
});
