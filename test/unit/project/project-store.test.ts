import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bakeInputHash } from '../../../electron/services/project/content-hash';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { projectTempDir } from './project-test-files';

const tempFile = projectTempDir('project-store');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const nav = readFixture(`${fixturesRoot}/source/tf2/itemtest.nav`);
const navChanged = nav.slice();
navChanged[navChanged.length - 1] ^= 0xff;

function withStore<T>(file: string, fn: (s: ProjectStore) => T): T {
  const store = ProjectStore.open(file);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

describe('project store', () => {
  it('reports added, unchanged and changed, matching names without case', () => {
    const file = tempFile('upsert.wbproj');
    const store = ProjectStore.create(file, { name: 'upsert', game: 'source' });
    try {
      const added = store.upsertFile({ module: 'tf2', name: 'itemtest.nav', kind: 'walkmesh', format: 'source-nav', area: 'itemtest', bytes: nav });
      expect(added).toMatchObject({ status: 'added', sha256: sha(nav) });
      expect(store.upsertFile({ module: 'TF2', name: 'ITEMTEST.NAV', kind: 'walkmesh', format: 'source-nav', bytes: nav }).status).toBe('unchanged');
      const changed = store.upsertFile({ module: 'tf2', name: 'ItemTest.nav', kind: 'walkmesh', format: 'source-nav', bytes: navChanged });
      expect(changed).toMatchObject({ status: 'changed', fileId: added.fileId, sha256: sha(navChanged) });
      const files = store.listFiles();
      expect(files).toHaveLength(1);
      expect(files[0]).toMatchObject({ module: 'tf2', area: 'itemtest', name: 'ItemTest.nav', kind: 'walkmesh', format: 'source-nav', size: nav.length, sha256: sha(navChanged), edited: false });
      expect(sha(store.loadFileBytes(added.fileId))).toBe(sha(navChanged));
      // Same bytes from another place: unchanged, but the new source path is kept; null clears the area.
      expect(store.upsertFile({ module: 'tf2', name: 'ItemTest.nav', kind: 'walkmesh', bytes: navChanged, sourcePath: '/elsewhere/ItemTest.nav', area: null }).status).toBe('unchanged');
      expect(store.listFiles()[0]).toMatchObject({ area: null, format: 'source-nav', sourcePath: '/elsewhere/ItemTest.nav' });
    } finally {
      store.close();
    }
  });

  it('keeps modules apart and filters the list by module and kind', () => {
    const file = tempFile('modules.wbproj');
    const store = ProjectStore.create(file, { name: 'modules', game: 'nwn2' });
    try {
      store.upsertFile({ module: 'a', name: 'x.trx', kind: 'walkmesh', bytes: new Uint8Array([1]) });
      store.upsertFile({ module: 'b', name: 'x.trx', kind: 'walkmesh', bytes: new Uint8Array([2]) });
      store.upsertFile({ module: 'b', name: 'x.git', kind: 'git', bytes: new Uint8Array([3]) });
      expect(store.listFiles().map((f) => `${f.module}/${f.name}`)).toEqual(['a/x.trx', 'b/x.git', 'b/x.trx']);
      expect(store.listFiles({ module: 'B', kind: 'git' }).map((f) => f.name)).toEqual(['x.git']);
      expect(store.listModules()).toEqual([
        { id: expect.any(Number), name: 'a', fileCount: 1, totalSize: 1 },
        { id: expect.any(Number), name: 'b', fileCount: 2, totalSize: 2 },
      ]);
      expect(store.findFile('A', 'X.TRX')?.sha256).toBe(sha(new Uint8Array([1])));
    } finally {
      store.close();
    }
  });

  it('saves edits against the source bytes and marks them stale when the source changes', () => {
    const file = tempFile('edits.wbproj');
    const store = ProjectStore.create(file, { name: 'edits', game: 'source' });
    try {
      const { fileId } = store.upsertFile({ module: 'm', name: 'itemtest.nav', kind: 'walkmesh', bytes: nav });
      const edited = nav.slice(0, 100);
      store.saveEdit(fileId, edited);
      expect(store.loadEdit(fileId)).toMatchObject({ baseSha256: sha(nav), sha256: sha(edited) });
      expect(store.listFiles()[0]).toMatchObject({ edited: true, editStale: false });
      store.upsertFile({ module: 'm', name: 'itemtest.nav', kind: 'walkmesh', bytes: navChanged });
      expect(store.listFiles()[0]).toMatchObject({ edited: true, editStale: true });
      expect([...store.loadEdit(fileId)!.bytes]).toEqual([...edited]);
      store.discardEdit(fileId);
      expect(store.loadEdit(fileId)).toBeUndefined();
      expect(() => store.saveEdit(fileId + 100, edited)).toThrow(/no file/);
    } finally {
      store.close();
    }
  });

  it('finds a bake by exactly what it was baked from', () => {
    const file = tempFile('bakes.wbproj');
    const store = ProjectStore.create(file, { name: 'bakes', game: 'nwn2' });
    try {
      const inputs = [
        { name: 'a.trn', sha256: sha(new Uint8Array([1])) },
        { name: 'a.git', sha256: sha(new Uint8Array([2])) },
      ];
      const output = new Uint8Array([9, 8, 7]);
      const bake = store.recordBake({ bakerId: 'nwn2-trn', bakerVersion: '1.0.0', inputs, outputFormat: 'nwn2-trx', output });
      expect(bake).toMatchObject({ bakerId: 'nwn2-trn', bakerVersion: '1.0.0', outputSize: 3, outputSha256: sha(output), inputs });
      // Listed in another order and case: the same inputs.
      const same = { bakerId: 'nwn2-trn', bakerVersion: '1.0.0', inputs: [{ ...inputs[1]!, name: 'A.GIT' }, inputs[0]!] };
      expect(bakeInputHash(same)).toBe(bake.inputHash);
      expect(store.lookupBake(same)?.id).toBe(bake.id);
      expect(store.lookupBake({ ...same, bakerVersion: '1.0.1' })).toBeUndefined();
      expect(store.lookupBake({ ...same, inputs: [inputs[0]!, { name: 'a.git', sha256: sha(new Uint8Array([3])) }] })).toBeUndefined();
      expect([...store.loadBakeOutput(bake.id)]).toEqual([9, 8, 7]);
      // Baking the same inputs again replaces the result instead of keeping two.
      store.recordBake({ ...same, outputFormat: 'nwn2-trx', output: new Uint8Array([1]) });
      expect(store.listBakes()).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it('keeps undo and redo across closing and reopening the project', () => {
    const file = tempFile('history.wbproj');
    const first = ProjectStore.create(file, { name: 'history', game: 'kotor' });
    for (let i = 1; i <= 3; i++) {
      first.pushHistory({ label: `move ${i}`, command: { op: 'move', by: i }, inverse: { op: 'move', by: -i }, inverseBlob: new Uint8Array([i]), files: [1] });
    }
    expect(first.undo()).toMatchObject({ label: 'move 3', apply: { op: 'move', by: -3 }, blob: new Uint8Array([3]) });
    first.close();

    withStore(file, (store) => {
      expect(store.listHistory().map((h) => [h.label, h.undone])).toEqual([
        ['move 1', false],
        ['move 2', false],
        ['move 3', true],
      ]);
      expect(store.undo()).toMatchObject({ label: 'move 2', apply: { op: 'move', by: -2 } });
    });

    withStore(file, (store) => {
      expect(store.redo()).toMatchObject({ label: 'move 2', apply: { op: 'move', by: 2 }, blob: null });
      // A new command drops what was left to redo.
      store.pushHistory({ label: 'paint', command: { op: 'paint' }, inverse: { op: 'unpaint' }, files: [1] });
      expect(store.redo()).toBeUndefined();
      expect(store.listHistory().map((h) => h.label)).toEqual(['move 1', 'move 2', 'paint']);
    });

    withStore(file, (store) => {
      expect(store.undo()?.label).toBe('paint');
      expect(store.undo()?.label).toBe('move 2');
      expect(store.undo()?.label).toBe('move 1');
      expect(store.undo()).toBeUndefined();
      expect(() => store.pushHistory({ label: 'bad', command: undefined, inverse: {}, files: [1] })).toThrow(/JSON/);
    });
  });

  it('logs exports and keeps the project and its game folders', () => {
    const file = tempFile('exports.wbproj');
    const store = ProjectStore.create(file, { name: 'exports', game: 'kotor' });
    const { fileId } = store.upsertFile({ module: 'm', name: 'r.wok', kind: 'walkmesh', bytes: new Uint8Array([5, 5]) });
    store.logExport({ targetPath: '/out/r.wok', format: 'kotor-bwm', bytes: new Uint8Array([5, 5, 5]), fileId });
    store.addGameFolder('/games/kotor');
    store.addGameFolder('/games/kotor', 'override');
    store.setGame('nwn2');
    store.close();
    withStore(file, (s) => {
      expect(s.listExports()).toEqual([{ id: 1, at: expect.any(String), targetPath: '/out/r.wok', format: 'kotor-bwm', fileId, bakeId: null, sha256: sha(new Uint8Array([5, 5, 5])), size: 3 }]);
      expect(s.listGameFolders()).toEqual([{ path: '/games/kotor', role: 'override' }]);
      expect(s.info().game).toBe('nwn2');
      expect(s.counts()).toEqual({ files: 1, bytes: 2, edits: 0, bakes: 0, history: 0, exports: 1 });
    });
  });

  it('has each change in the file as soon as the call returns (no save step)', () => {
    const file = tempFile('incremental.wbproj');
    const writer = ProjectStore.create(file, { name: 'incremental', game: 'source' });
    try {
      writer.upsertFile({ module: 'm', name: 'itemtest.nav', kind: 'walkmesh', bytes: nav });
      writer.pushHistory({ label: 'x', command: 1, inverse: 2, files: [1] });
      // A second connection, as after a crash of the first process, sees both.
      withStore(file, (reader) => {
        expect(reader.listFiles().map((f) => f.name)).toEqual(['itemtest.nav']);
        expect(reader.listHistory().map((h) => h.label)).toEqual(['x']);
      });
    } finally {
      writer.close();
    }
  });

  it('rolls a failed transaction back whole', () => {
    const file = tempFile('rollback.wbproj');
    const store = ProjectStore.create(file, { name: 'rollback', game: 'source' });
    try {
      expect(() =>
        store.transaction(() => {
          store.upsertFile({ module: 'm', name: 'a.nav', kind: 'walkmesh', bytes: nav });
          throw new Error('stop');
        }),
      ).toThrow('stop');
      expect(store.listFiles()).toEqual([]);
      expect(() => store.upsertFile({ module: 'm', name: 'a.nav', kind: 'nonsense' as 'walkmesh', bytes: nav })).toThrow(/unknown file kind/);
    } finally {
      store.close();
    }
  });
});
