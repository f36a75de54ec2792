import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bakePluginCommand } from '../../electron/cli/commands/skyrim-bake';
import { validateCommand } from '../../electron/cli/commands/validate-command';
import { ExitCode } from '../../electron/cli/cli-io';
import { commandRunner } from '../support/run-command';
import { fixtureFile, readFixturePlugin } from '../unit/skyrim/skyrim-helpers';
import { renumberNavmesh, splitMaster } from '../unit/skyrim/skyrim-master-builder';

const validate = commandRunner(validateCommand);
const bake = commandRunner(bakePluginCommand);

interface FindingJson {
  code: string;
  message: string;
}
interface ValidateJson {
  file: string;
  ok: boolean;
  errors: FindingJson[];
  warnings: FindingJson[];
}

const MOVED = 0x000fd765;
const temp = mkdtempSync(path.join(tmpdir(), 'walkbench-skyrim-master-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

// A Skyrim.esm stand-in holding one vanilla navmesh of DawnOfTheSilverHand, and the plugin without it.
const base = readFixturePlugin('DawnOfTheSilverHand.esp').doc;
renumberNavmesh(base, 0x0200e9cd, 0x0000e9cd);
const split = splitMaster(base, [MOVED]);
const masterFile = path.join(temp, 'Skyrim.esm');
const pluginFile = path.join(temp, 'DawnOfTheSilverHand.esp');
writeFileSync(masterFile, split.masterBytes);
writeFileSync(pluginFile, split.pluginBytes);

const about = (fs: FindingJson[], code: string) => fs.filter((f) => f.code === code && f.message.includes('0x000FD765'));

describe('walkbench validate PLUGIN.esp --master MASTER.esm', () => {
  it('reports links into a master that was not given as unverifiable, and checks them when it is', async () => {
    const without = await validate(pluginFile, '--json');
    const [a] = JSON.parse(without.out) as [ValidateJson];
    expect(about(a.warnings, 'navm.edge-link.unverifiable').length).toBeGreaterThan(0);
    expect(a.errors.filter((f) => f.code.startsWith('navm.edge-link'))).toEqual([]);
    // The plugin's two deleted NAVM records are errors either way.
    expect(a.errors.filter((f) => f.code === 'navm.deleted')).toHaveLength(2);
    expect(without.status).toBe(ExitCode.failed);

    const withMaster = await validate(pluginFile, '--master', masterFile, '--json');
    const [b] = JSON.parse(withMaster.out) as [ValidateJson];
    expect(about(b.warnings, 'navm.edge-link.unverifiable')).toEqual([]);
    expect(about(b.errors, 'navm.edge-link.not-reciprocal')).toEqual([]);
    expect(about(b.errors, 'navm.edge-link.missing-navmesh')).toEqual([]);
    // The stand-in master lacks Skyrim.esm's other navmeshes: links into them are now errors.
    expect(b.errors.some((f) => f.code === 'navm.edge-link.missing-navmesh')).toBe(true);
    expect(b.errors.filter((f) => f.code === 'navm.deleted')).toHaveLength(2);
  });

  it('warns about a --master the plugin does not list and fails cleanly on an unreadable one', async () => {
    const other = await validate(pluginFile, '--master', fixtureFile('FreeCamera.esp'), '--json');
    const [c] = JSON.parse(other.out) as [ValidateJson];
    expect(c.warnings.filter((f) => f.code === 'navm.master.not-listed').map((f) => f.message)).toEqual([
      '--master FreeCamera.esp is not a master of this plugin (its masters: Skyrim.esm, Update.esm); its navmeshes are not used',
    ]);
    const missing = await validate(pluginFile, '--master', path.join(temp, 'nope.esm'));
    expect(missing.status).toBe(ExitCode.failed);
    expect(missing.err).toMatch(/^walkbench: .*nope\.esm/);
    expect(missing.out).toBe('');
  });

  it('prints the findings without --json, master-checked', async () => {
    const run = await validate(pluginFile, '--master', masterFile, '--max', '3');
    expect(run.out).toMatch(/DawnOfTheSilverHand\.esp: INVALID \(\d+ error\(s\), \d+ warning\(s\)\)/);
    expect(run.out).not.toMatch(/0x000FD765 of Skyrim\.esm, which was not given/);
  });
});

describe('walkbench bake PLUGIN.esp --master MASTER.esm', () => {
  it('validates the rebaked plugin against the masters', async () => {
    const out = path.join(temp, 'baked.esp');
    const run = await bake(pluginFile, '-o', out, '--master', masterFile, '--json');
    expect(run.status).toBe(ExitCode.ok);
    const [entry] = JSON.parse(run.out) as [{ ok: boolean; validation: { errors: FindingJson[]; warnings: FindingJson[] } }];
    expect(entry.ok).toBe(true);
    expect(about(entry.validation.errors, 'navm.edge-link.not-reciprocal')).toEqual([]);
    expect(about(entry.validation.warnings, 'navm.edge-link.unverifiable')).toEqual([]);
    const plain = await bake(pluginFile, '-o', out);
    expect(plain.out).toMatch(/validation of .*baked\.esp: \d+ error\(s\), \d+ warning\(s\)/);
    expect(plain.out).toMatch(/into navmesh 0x000FD765 of Skyrim\.esm, which was not given as a master: not checked \[navm\.edge-link\.unverifiable\]/);
  });
});
