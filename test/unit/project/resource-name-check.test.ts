import { describe, expect, it } from 'vitest';
import { resourceNameProblem } from '../../../electron/services/project/resource-name-check';
import { progressReporter } from '../../../electron/cli/commands/project-progress';

describe('resourceNameProblem', () => {
  it('accepts the names of real game files', () => {
    for (const name of ["harper's hill cave.trx", 'cormanthyr - starwoodtunnel.trx', 'CSLMordMansion.TRX']) expect(resourceNameProblem(name, 'nwn2'), name).toBeUndefined();
    for (const name of ['m10aa_01c.wok', 'plc_fccage2.pwk', 'ZIO006J.WOK']) expect(resourceNameProblem(name, 'kotor'), name).toBeUndefined();
    expect(resourceNameProblem('2nd_mythic_town_v5.nav', 'source')).toBeUndefined();
    expect(resourceNameProblem('Dawn Of The Silver Hand.esp', 'skyrim')).toBeUndefined();
  });

  it('refuses what could leave the folder', () => {
    expect(resourceNameProblem('../up.nav', 'source')).toBe('the name contains a path separator');
    expect(resourceNameProblem('a\\b.nav', 'source')).toBe('the name contains a path separator');
    expect(resourceNameProblem('..', 'source')).toBe('the name contains ".."');
    expect(resourceNameProblem('a..nav', 'source')).toBe('the name contains ".."');
    expect(resourceNameProblem('', 'nwn2')).toBe('the name is empty');
  });

  it('refuses what the game or Windows refuses, saying which character', () => {
    expect(resourceNameProblem('what?.nav', 'source')).toBe('the name contains "?", which Windows refuses in file names');
    expect(resourceNameProblem('tab\there.trx', 'nwn2')).toBe('the name contains the control character U+0009');
    expect(resourceNameProblem('trailing.nav ', 'source')).toBe('the name ends with a space or a dot, which Windows drops');
    expect(resourceNameProblem('CON.nav', 'source')).toBe('"CON" is a device name Windows reserves');
    expect(resourceNameProblem('noextension', 'source')).toBe('the name has no extension');
    expect(resourceNameProblem('café.trx', 'nwn2')).toBe('the name contains U+00E9: nwn2 resource names are ASCII');
    expect(resourceNameProblem(`${'a'.repeat(17)}.wok`, 'kotor')).toBe(`the resource name "${'a'.repeat(17)}" is 17 characters long; kotor allows at most 16`);
    expect(resourceNameProblem(`${'a'.repeat(32)}.trx`, 'nwn2')).toBeUndefined();
    expect(resourceNameProblem(`${'a'.repeat(33)}.trx`, 'nwn2')).toMatch(/33 characters long; nwn2 allows at most 32/);
    expect(resourceNameProblem('room one.wok', 'kotor')).toMatch(/characters KotOR does not use/);
  });
});

describe('progressReporter', () => {
  it('draws a bar in place on a terminal and ends it with a line break', () => {
    let err = '';
    const p = progressReporter({ out: () => undefined, err: (s) => void (err += s) }, 'export', 'bar');
    p.update(1, 4, 'a.nav');
    p.update(4, 4, 'd.nav');
    p.finish();
    expect(err).toBe(`\rexport [${'#'.repeat(7)}${'-'.repeat(21)}] 1/4 a.nav\u001b[K\rexport [${'#'.repeat(28)}] 4/4 d.nav\u001b[K\n`);
  });

  it('prints plain lines off a terminal, throttled but always the last, and nothing in JSON mode', () => {
    let err = '';
    const io = { out: () => undefined, err: (s: string) => void (err += s) };
    const lines = progressReporter(io, 'import', 'lines');
    for (let i = 1; i <= 100; i++) lines.update(i, 100, 'files');
    lines.finish();
    expect(err.startsWith('import: 1/100 files\n')).toBe(true);
    expect(err.endsWith('import: 100/100 files\n')).toBe(true);
    expect(err.split('\n').filter(Boolean).length).toBeLessThan(10);
    err = '';
    const none = progressReporter(io, 'import', 'none');
    none.update(1, 1, 'x');
    none.finish();
    expect(err).toBe('');
  });
});
