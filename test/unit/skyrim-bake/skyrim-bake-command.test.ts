import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bakePluginCommand } from '../../../electron/cli/commands/skyrim-bake';
import { ExitCode, UsageError, type CliIo } from '../../../electron/cli/cli-io';
import { readPlugin } from '../../../shared/formats/skyrim/plugin-reader';
import { pluginNavmeshes } from '../../../shared/formats/skyrim/plugin-navmeshes';
import { env, fixtureFile } from '../skyrim/skyrim-helpers';

const temp = mkdtempSync(path.join(tmpdir(), 'walkbench-skyrim-bake-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function capture(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => void stdout.push(t), err: (t) => void stderr.push(t) };
}

interface JsonNavmesh {
  formId: string;
  cell: string | null;
  agreement: { edgeLinks: number; coverList: number; grid: number; navi: number | null };
  counts: { triangles: number };
}

describe('walkbench bake PLUGIN.esp', () => {
  it('writes the rebaked plugin and reports agreement per navmesh as JSON', async () => {
    const input = fixtureFile('DwemerSecrets.esp');
    const output = path.join(temp, 'dwemer.esp');
    const io = capture();
    const code = await bakePluginCommand([input, '-o', output, '--compare', input, '--json'], io);
    expect(code).toBe(ExitCode.ok);
    const [entry] = JSON.parse(io.stdout.join('')) as [{ file: string; format: string; ok: boolean; output: string; navmeshes: JsonNavmesh[] }];
    expect(entry).toMatchObject({ file: input, format: 'skyrim-plugin', ok: true, output });
    const written = readPlugin(new Uint8Array(readFileSync(output)), env);
    const live = pluginNavmeshes(written).filter((n) => n.nvnm && !n.deleted);
    expect(entry.navmeshes).toHaveLength(live.length);
    for (const n of entry.navmeshes) {
      for (const k of ['edgeLinks', 'coverList', 'grid', 'navi'] as const) {
        expect(n.agreement[k]).toBeGreaterThanOrEqual(0.98);
        expect(n.agreement[k]).toBeLessThanOrEqual(1);
      }
      expect(n.agreement.coverList).toBe(1);
      expect(n.agreement.navi).toBe(1);
      expect(n.cell).toMatch(/^0x[0-9A-F]{8}$/);
    }
  });

  it('rebakes only --navmesh FORMID and prints a table without --json', async () => {
    const input = fixtureFile('DwemerSecrets.esp');
    const io = capture();
    const code = await bakePluginCommand([input, '-o', path.join(temp, 'one.esp'), '--navmesh', '0x000F26C8'], io);
    expect(code).toBe(ExitCode.ok);
    const text = io.stdout.join('');
    expect(text).toMatch(/1 navmesh\(es\) rebaked/);
    expect(text).toMatch(/0x000F26C8/);
  });

  it('fails cleanly on an unknown navmesh and refuses bad arguments', async () => {
    const input = fixtureFile('FreeCamera.esp');
    const io = capture();
    expect(await bakePluginCommand([input, '-o', path.join(temp, 'x.esp'), '--navmesh', '0x12345678', '--json'], io)).toBe(ExitCode.failed);
    expect(io.stderr.join('')).toMatch(/no navmesh 0x12345678/);
    await expect(bakePluginCommand([input], capture())).rejects.toBeInstanceOf(UsageError);
    await expect(bakePluginCommand([input, '-o', 'y.esp', '--navmesh', 'zz'], capture())).rejects.toBeInstanceOf(UsageError);
  });
});
