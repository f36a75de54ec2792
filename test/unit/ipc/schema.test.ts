import { describe, expect, it } from 'vitest';
import { eventSchemas, methods, paramSchemas } from '../../../shared/ipc/contract';
import * as s from '../../../shared/ipc/schema';

function issue<T>(schema: s.Schema<T>, value: unknown) {
  const r = s.validate(schema, value);
  if (r.ok) throw new Error(`expected ${JSON.stringify(value)} to be refused`);
  return r.issue;
}

describe('schema validator', () => {
  const params = s.object({ path: s.string({ minLength: 1, maxLength: 10 }), depth: s.optional(s.number({ integer: true, min: 0, max: 3 })) });

  it('accepts a valid object and returns a fresh copy of the known keys only', () => {
    const input = { path: '/a/b', depth: 2 };
    const r = s.validate(params, input);
    expect(r).toEqual({ ok: true, value: { path: '/a/b', depth: 2 } });
    if (r.ok) expect(r.value).not.toBe(input);
  });

  it('leaves an absent optional key out', () => {
    const r = s.validate(params, { path: '/a' });
    expect(r.ok && Object.keys(r.value)).toEqual(['path']);
  });

  it('names the missing parameter', () => {
    expect(issue(params, {})).toEqual({ path: 'params.path', message: expect.stringContaining('is required') });
  });

  it('names a parameter of the wrong type and says what was found', () => {
    const i = issue(params, { path: 42 });
    expect(i.path).toBe('params.path');
    expect(i.message).toMatch(/expected a string .* found 42/);
  });

  it('refuses unknown keys, including __proto__ from JSON', () => {
    expect(issue(params, { path: '/a', extra: 1 }).path).toBe('params.extra');
    const hostile: unknown = JSON.parse('{"path":"/a","__proto__":{"polluted":true}}');
    expect(issue(params, hostile).path).toBe('params.__proto__');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('enforces string length and refuses NUL characters', () => {
    expect(issue(params, { path: '' }).message).toMatch(/found 0 characters/);
    expect(issue(params, { path: 'x'.repeat(11) }).message).toMatch(/found 11 characters/);
    expect(issue(params, { path: 'a\0b' }).message).toMatch(/NUL/);
  });

  it('checks integer ranges and refuses NaN and fractions', () => {
    expect(issue(params, { path: '/a', depth: 4 }).path).toBe('params.depth');
    expect(issue(params, { path: '/a', depth: 1.5 }).message).toMatch(/integer/);
    expect(issue(params, { path: '/a', depth: NaN }).message).toMatch(/integer/);
  });

  it('refuses values that are not plain objects', () => {
    class Params {
      path = '/a';
    }
    expect(issue(params, null).path).toBe('params');
    expect(issue(params, ['/a']).message).toMatch(/found an array/);
    expect(issue(params, new Params()).path).toBe('params');
    expect(issue(params, new Uint8Array(2)).message).toMatch(/found a Uint8Array/);
  });

  it('accepts Uint8Array bytes within the limit and nothing else', () => {
    const bytes = s.object({ bytes: s.bytes({ maxLength: 4 }) });
    expect(s.validate(bytes, { bytes: new Uint8Array(4) }).ok).toBe(true);
    expect(issue(bytes, { bytes: new Uint8Array(5) }).message).toMatch(/found 5 bytes/);
    expect(issue(bytes, { bytes: new Float32Array(1) }).message).toMatch(/found a Float32Array/);
    expect(issue(bytes, { bytes: [1, 2] }).message).toMatch(/found an array/);
  });

  it('validates array items and literals with the index in the path', () => {
    const list = s.array(s.literal('a', 'b'), { maxLength: 3 });
    expect(s.validate(list, ['a', 'b'])).toEqual({ ok: true, value: ['a', 'b'] });
    expect(issue(list, ['a', 'c']).path).toBe('params[1]');
    expect(issue(list, ['a', 'a', 'a', 'a']).message).toMatch(/at most 3 items/);
    expect(issue(s.boolean(), 'true').message).toMatch(/true or false/);
  });
});

describe('contract parameter schemas', () => {
  it('has a schema for every method', () => {
    expect([...methods].sort()).toEqual([
      'app.info',
      'context.load',
      'dialog.openFile',
      'dialog.openFolder',
      'dialog.openProject',
      'dialog.saveFile',
      'edits.apply',
      'edits.fixRoomLink',
      'edits.history',
      'edits.placements',
      'edits.rebakeResult',
      'edits.redo',
      'edits.report',
      'edits.skyrimCheck',
      'edits.undo',
      'export.cancel',
      'export.plan',
      'export.restore',
      'export.run',
      'export.status',
      'files.inspect',
      'files.open',
      'files.openBytes',
      'import.bytes',
      'import.cancel',
      'import.kotorModules',
      'import.start',
      'import.status',
      'jobs.bake',
      'jobs.cancel',
      'jobs.list',
      'path.query',
      'project.create',
      'project.gameModules',
      'project.kotorModuleRooms',
      'project.open',
      'project.openFile',
      'project.saveAs',
      'project.state',
      'recent.list',
    ]);
  });

  it('requires the session of the open project for its files, and takes a revision or a project path beside it', () => {
    expect(issue(paramSchemas['project.openFile'], { fileId: 3 }).path).toBe('params.session');
    expect(issue(paramSchemas['project.openFile'], { session: 'x', fileId: 3 }).path).toBe('params.session');
    expect(s.validate(paramSchemas['project.openFile'], { session: 'session-0001', fileId: 3 }).ok).toBe(true);
    expect(s.validate(paramSchemas['edits.apply'], { session: 'session-0001', fileId: 3, revision: 4, command: { kind: 'flip-faces', faces: [0] } }).ok).toBe(true);
    expect(issue(paramSchemas['edits.apply'], { session: 'session-0001', fileId: 3, revision: -1, command: { kind: 'flip-faces', faces: [0] } }).path).toBe('params.revision');
    expect(s.validate(paramSchemas['edits.undo'], { session: 'session-0001', fileId: 3, revision: 0 }).ok).toBe(true);
    expect(s.validate(paramSchemas['export.plan'], { gameDir: '/g', project: '/p.walkbench' }).ok).toBe(true);
  });

  it('requires a path for files.open and a name and bytes for files.openBytes', () => {
    expect(issue(paramSchemas['files.open'], {}).path).toBe('params.path');
    expect(issue(paramSchemas['files.openBytes'], { name: 'a.nav' }).path).toBe('params.bytes');
    expect(issue(paramSchemas['files.openBytes'], { name: '', bytes: new Uint8Array(1) }).path).toBe('params.name');
    expect(s.validate(paramSchemas['files.openBytes'], { name: 'a.nav', bytes: new Uint8Array(1) }).ok).toBe(true);
    expect(issue(paramSchemas['app.info'], { verbose: true }).path).toBe('params.verbose');
  });
});

describe('live re-bake and placement schemas', () => {
  it('take a whole positive ticket, and a GIT file id', () => {
    expect(s.validate(paramSchemas['edits.rebakeResult'], { ticket: 3 }).ok).toBe(true);
    expect(issue(paramSchemas['edits.rebakeResult'], { ticket: 0 }).path).toBe('params.ticket');
    expect(issue(paramSchemas['edits.rebakeResult'], { ticket: 1.5 }).path).toBe('params.ticket');
    expect(issue(paramSchemas['edits.rebakeResult'], {}).path).toBe('params.ticket');
    expect(s.validate(paramSchemas['edits.placements'], { fileId: 2 }).ok).toBe(true);
    expect(issue(paramSchemas['edits.placements'], { fileId: -1 }).path).toBe('params.fileId');
    expect(issue(paramSchemas['edits.placements'], { fileId: 2, extra: 1 }).path).toBe('params.extra');
  });
});

describe('jobs and dialog schemas', () => {
  it('take a bake scope, its target and nothing else', () => {
    expect(s.validate(paramSchemas['jobs.bake'], { scope: 'module', module: 'kaedrin', force: true }).ok).toBe(true);
    expect(s.validate(paramSchemas['jobs.bake'], { scope: 'file', fileId: 3 }).ok).toBe(true);
    expect(issue(paramSchemas['jobs.bake'], { scope: 'everything' }).path).toBe('params.scope');
    expect(issue(paramSchemas['jobs.bake'], { scope: 'file', fileId: 0 }).path).toBe('params.fileId');
    expect(issue(paramSchemas['jobs.bake'], { scope: 'file', fileId: 1.5 }).path).toBe('params.fileId');
    expect(issue(paramSchemas['jobs.bake'], { scope: 'all', priority: 9 }).path).toBe('params.priority');
    expect(issue(paramSchemas['jobs.cancel'], { jobId: '1' }).path).toBe('params.jobId');
    expect(issue(paramSchemas['dialog.saveFile'], { extensions: ['trx', 7] }).path).toBe('params.extensions[1]');
  });

  it('check every progress event field', () => {
    const progress = { jobId: 1, project: '/p.walkbench', title: 't', done: 1, total: 2, label: 'l', state: 'running', baked: 1, skipped: 0, failed: 0, failures: [], seq: 3 };
    expect(s.validate(eventSchemas['jobs.progress'], progress).ok).toBe(true);
    expect(s.validate(eventSchemas['jobs.progress'], { ...progress, failures: [{ file: 'm/a.trx', message: 'x', face: 4, fileId: 2 }] }).ok).toBe(true);
    expect(issue(eventSchemas['jobs.progress'], { ...progress, state: 'paused' }).path).toBe('params.state');
    // A job names its project: the page lists the open project's only.
    const { project: _project, ...anonymous } = progress;
    expect(issue(eventSchemas['jobs.progress'], anonymous).path).toBe('params.project');
    expect(issue(eventSchemas['jobs.progress'], { ...progress, failures: [{ file: 'm/a.trx', message: 'x', face: -1 }] }).path).toBe('params.failures[0].face');
    expect(issue(eventSchemas['app.command'], { command: 'rm -rf' }).path).toBe('params.command');
  });
});
