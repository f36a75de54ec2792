import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../electron/cli/walkbench';
import { fixturesRoot, listFixtures, repoRoot } from '../support/fixtures';
import { commandRunner, type CommandRun } from '../support/run-command';

const run = commandRunner(main);

const json = (r: CommandRun) => JSON.parse(r.out) as Record<string, unknown>[];
const navFiles = listFixtures('source', ['.nav']);
const itemtest = path.join(fixturesRoot, 'source/tf2/itemtest.nav');
const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-cli-'));

/** A copy of a fixture cut short, as a damaged download would be. */
function truncatedCopy(file: string, keep: number): string {
  const out = path.join(tmp, `truncated-${path.basename(file)}`);
  writeFileSync(out, readFileSync(file).subarray(0, keep));
  return out;
}

describe('walkbench command line', () => {
  it('info --json gives format, version and counts per file', async () => {
    const r = await run('info', itemtest, path.join(fixturesRoot, 'source/cs16/de_prodigy.nav'), '--json');
    expect(r.status).toBe(0);
    const [tf2, cs16] = json(r);
    expect(tf2).toMatchObject({ file: itemtest, format: 'source-nav', ok: true, version: '16 (sub-version 2)', counts: { areas: 33, ladders: 0 } });
    expect(cs16).toMatchObject({ format: 'source-nav', ok: true, version: '5', counts: { areas: 464 } });
  });

  it('validate --json reports every fixture valid with errors and warnings lists', async () => {
    const r = await run('validate', '--json', ...navFiles);
    expect(r.status).toBe(0);
    const results = json(r);
    expect(results).toHaveLength(navFiles.length);
    for (const res of results) expect(res).toMatchObject({ format: 'source-nav', ok: true, errors: [], warnings: expect.any(Array) });
  });

  it('roundtrip --json finds every fixture identical', async () => {
    const r = await run('roundtrip', '--json', ...navFiles);
    expect(r.status).toBe(0);
    for (const res of json(r)) expect(res).toMatchObject({ ok: true, identical: true, firstDifference: null });
  });

  it('reports a truncated file in one line with its name and offset, and fails', async () => {
    const bad = truncatedCopy(itemtest, 3000);
    for (const command of ['info', 'validate', 'roundtrip']) {
      const r = await run(command, bad);
      expect(r.status).toBe(1);
      const lines = r.err.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(bad);
      expect(lines[0]).toMatch(/at offset \d+/);
      expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
    }
    const r = await run('roundtrip', '--json', bad, itemtest);
    expect(r.status).toBe(1);
    const [broken, fine] = json(r);
    expect(broken).toMatchObject({ file: bad, ok: false, identical: false });
    expect(fine).toMatchObject({ ok: true, identical: true });
  });

  it('validate --json marks a file with broken references invalid', async () => {
    const bytes = new Uint8Array(readFileSync(itemtest));
    // The first area's first connection target (after header, places and the area's id,
    // attributes and corners) is set to an ID no area has.
    const { readNav } = await import('../../shared/formats/source/nav-reader');
    const doc = readNav(bytes);
    expect(doc.areas.connectionTarget.length).toBeGreaterThan(0);
    doc.areas.connectionTarget[0] = 4_000_000;
    const { writeNav } = await import('../../shared/formats/source/nav-writer');
    const bad = path.join(tmp, 'dangling.nav');
    writeFileSync(bad, writeNav(doc));
    const r = await run('validate', '--json', bad);
    expect(r.status).toBe(1);
    const [res] = json(r);
    expect(res).toMatchObject({ ok: false });
    expect((res!.errors as { message: string }[]).map((e) => e.message).join('\n')).toContain('area 4000000, which does not exist');
  });

  it('names a missing file and an unknown format', async () => {
    const missing = await run('info', path.join(tmp, 'nope.nav'));
    expect(missing.status).toBe(1);
    expect(missing.err).toContain('nope.nav: no such file');
    const text = path.join(tmp, 'notes.txt');
    writeFileSync(text, 'hello');
    const unknown = await run('info', text);
    expect(unknown.status).toBe(1);
    expect(unknown.err).toContain('not a format Walkbench reads');
  });

  it('converts .nav to .obj and back to the same bytes with --base', async () => {
    const obj = path.join(tmp, 'itemtest.obj');
    const back = path.join(tmp, 'itemtest.nav');
    expect((await run('convert', itemtest, obj)).status).toBe(0);
    expect(readFileSync(obj, 'utf8')).toMatch(/^usemtl /m);
    expect(readFileSync(path.join(tmp, 'itemtest.mtl'), 'utf8')).toMatch(/^newmtl /m);
    const r = await run('convert', obj, back, '--base', itemtest, '--json');
    expect(r.status).toBe(0);
    expect(json(r)[0]).toMatchObject({ ok: true, format: 'source-nav' });
    expect(Buffer.compare(readFileSync(back), readFileSync(itemtest))).toBe(0);
  });

  it('refuses unknown commands and options with usage status 2', async () => {
    expect((await run('frobnicate')).status).toBe(2);
    const r = await run('info', '--jsn', itemtest);
    expect(r.status).toBe(2);
    expect(r.err).toContain('unknown option --jsn');
  });

  it('runs as an installed command (the built launcher)', () => {
    const launcher = path.join(repoRoot, 'electron/cli/bin.mjs');
    const r = spawnSync(process.execPath, [launcher, 'roundtrip', '--json', itemtest], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ file: itemtest, identical: true, firstDifference: null })]);
  });
});
