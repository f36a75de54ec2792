import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImportService, type ImportService } from '../../electron/services/import-service';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { ImportJobState } from '../../shared/ipc/import-contract';

/**
 * Issue 16: an import can be cancelled, and a cancelled import leaves nothing half-written:
 * the files it added are gone with the modules and areas it made, a file it replaced has
 * its old bytes back. The import writes in batches of 64 files; the cancel lands after
 * the first batch was committed, so there is something to take back.
 */
const FILES = 200;
const twoDa = (i: number, extra = '') => new TextEncoder().encode(`2DA V2.0\n\n\tLabel\n0\trow_${i}${extra}\n`);

describe('import.cancel takes back what the import wrote', () => {
  let tmp = '';
  let folder = '';
  beforeAll(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-import-cancel-'));
    folder = path.join(tmp, 'tables');
    mkdirSync(folder);
    for (let i = 0; i < FILES; i++) writeFileSync(path.join(folder, `t${String(i).padStart(3, '0')}.2da`), twoDa(i));
  });
  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  function setUp(name: string, cancelAt: number | null): { store: ProjectStore; service: ImportService; events: ImportJobState[]; session: string } {
    const store = ProjectStore.create(path.join(tmp, `${name}.wbproj`), { name, game: 'nwn2' });
    const session = 'session-0001';
    const events: ImportJobState[] = [];
    let cancelSent = false;
    const service: ImportService = createImportService({
      progressIntervalMs: 0,
      projects: {
        openStore: (s: string) => {
          if (s !== session) throw new Error(`unknown session ${s}`);
          return store;
        },
      },
      emit: (event, payload) => {
        if (event !== 'import.progress') return;
        const state = payload as ImportJobState;
        events.push(state);
        if (cancelAt !== null && !cancelSent && state.state === 'running' && state.done >= cancelAt) {
          cancelSent = true;
          void service.handlers['import.cancel']({ jobId: state.jobId });
        }
      },
    });
    return { store, service, events, session };
  }

  it('a cancel after the first committed batch leaves the project as it was', async () => {
    const { store, service, events, session } = setUp('cancelled', 64);
    // Held before the import: one file the import would replace, in a module it writes to.
    store.upsertFile({ module: 'tables', name: 't000.2da', kind: '2da', format: '2da', bytes: twoDa(0, ' old') });
    const before = store.listFiles();
    const modulesBefore = store.listModules().map((m) => m.name);
    const { jobId } = await service.handlers['import.start']({ session, sources: [folder], module: 'tables' });
    const final = await service.settled(jobId);
    expect(final.state).toBe('cancelled');
    expect(final.label).toMatch(/^Import cancelled: nothing was added \(\d+ file\(s\) written were taken back\)$/);
    // It had committed at least one batch before the cancel landed.
    expect(events.some((e) => e.state === 'running' && e.done >= 64)).toBe(true);
    expect(store.listFiles().map((f) => [f.module, f.name, f.sha256])).toEqual(before.map((f) => [f.module, f.name, f.sha256]));
    expect(new TextDecoder().decode(store.loadFileBytes(before[0]!.id))).toContain('row_0 old');
    expect(store.listModules().map((m) => m.name)).toEqual(modulesBefore);
    // Cancelling an import that has ended says so.
    expect(await service.handlers['import.cancel']({ jobId })).toEqual({ cancelled: false });
    store.close();
  });

  it('a new module made by a cancelled import is gone too; an import left alone adds every file', async () => {
    const a = setUp('new-module', 64);
    const { jobId } = await a.service.handlers['import.start']({ session: a.session, sources: [folder], module: 'fresh' });
    expect((await a.service.settled(jobId)).state).toBe('cancelled');
    expect(a.store.listFiles()).toEqual([]);
    expect(a.store.listModules()).toEqual([]);
    a.store.close();

    const b = setUp('whole', null);
    const run = await b.service.handlers['import.start']({ session: b.session, sources: [folder], module: 'fresh' });
    const done = await b.service.settled(run.jobId);
    expect(done.state).toBe('done');
    expect(b.store.listFiles().length).toBe(FILES);
    await expect(b.service.handlers['import.cancel']({ jobId: 999 })).rejects.toThrow(/no import job 999/);
    b.store.close();
  });
});
