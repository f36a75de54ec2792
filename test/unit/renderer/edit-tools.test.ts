import { createPinia, setActivePinia } from 'pinia';
import type { FileReport } from '../../../shared/formats/file-report';
import type { ProjectFileState } from '../../../shared/ipc/project-contract';
import { useProjectStore } from '../../../renderer/src/stores/project-store';
import { describe, expect, it } from 'vitest';
import { createApp, markRaw } from 'vue';
import { applyEdit } from '../../../shared/edits/apply-edit';
import type { EditCommand } from '../../../shared/edits/edit-command';
import { copyWalkmesh } from '../../../shared/edits/walkmesh-copy';
import type { Method, OpenedFile, Params } from '../../../shared/ipc/contract';
import type { EditsApplyParams, EditsOutcome } from '../../../shared/ipc/edits-contract';
import type { RpcOutcome } from '../../../shared/ipc/rpc-error';
import { createWalkmesh, faceCount, type Walkmesh } from '../../../shared/model/walkmesh';
import { useDocumentStore } from '../../../renderer/src/stores/document-store';
import { parseFieldNumber, useEditStore } from '../../../renderer/src/stores/edit-store';
import { combineFaces, cornersOfFaces, facesInLasso, facesInRect, nearestCorner, nudgeVertices, sameGeometry, verticesOfFaces } from '../../../renderer/src/tools/face-selection';
import { faceEdges, navmeshFormId } from '../../../renderer/src/tools/game-edges';
import { projectFileIdOf, projectSessionOf } from '../../../renderer/src/tools/tab-file';
import type { LineOverlay } from '../../../shared/views/view-overlay';
import { clientKey } from '../../../renderer/src/transport/client-key';
import type { Transport } from '../../../renderer/src/transport/transport';
import { WalkbenchClient } from '../../../renderer/src/transport/walkbench-client';

/** A 3 × 2 grid of unit squares, two faces each, at z = 0 (x right, y up). */
function grid(): Walkmesh {
  const positions: number[] = [];
  for (let y = 0; y <= 2; y++) for (let x = 0; x <= 3; x++) positions.push(x, y, 0);
  const triangles: number[] = [];
  for (let y = 0; y < 2; y++) {
    for (let x = 0; x < 3; x++) {
      const v = y * 4 + x;
      triangles.push(v, v + 1, v + 5, v, v + 5, v + 4);
    }
  }
  const faces = triangles.length / 3;
  return createWalkmesh({
    name: 'grid',
    game: 'kotor',
    format: 'kotor-bwm',
    positions: Float32Array.from(positions),
    triangles: Uint32Array.from(triangles),
    faceMaterial: Uint32Array.from({ length: faces }, (_, f) => (f < 6 ? 1 : 2)),
  });
}

/** Top view: one game unit is 100 pixels, y down the screen. */
const topView = (x: number, y: number): [number, number] => [x * 100, 300 - y * 100];

describe('face selection tools', () => {
  it('replaces, adds to and toggles a selection', () => {
    expect(Array.from(combineFaces([1, 2], [5, 3, 5], 'replace'))).toEqual([3, 5]);
    expect(Array.from(combineFaces([1, 2], [2, 4], 'add'))).toEqual([1, 2, 4]);
    expect(Array.from(combineFaces([1, 2], [2, 4], 'toggle'))).toEqual([1, 4]);
  });

  it('selects the faces whose centroid is in a box or a lasso, whatever corner the drag started at', () => {
    const m = grid();
    // The left column of squares (x 0..1): faces 0, 1 (bottom row) and 6, 7 (top row).
    expect(Array.from(facesInRect(m, topView, 0, 0, 100, 300))).toEqual([0, 1, 6, 7]);
    expect(Array.from(facesInRect(m, topView, 100, 300, 0, 0))).toEqual([0, 1, 6, 7]);
    // A triangle lasso over the bottom-left square's lower-right half only.
    const lasso = [0, 300, 100, 300, 100, 200];
    expect(Array.from(facesInLasso(m, topView, lasso))).toEqual([0]);
    expect(Array.from(facesInLasso(m, topView, [0, 0, 10, 10]))).toEqual([]);
    // Points behind the camera are never selected.
    expect(Array.from(facesInRect(m, () => null, -1e9, -1e9, 1e9, 1e9))).toEqual([]);
  });

  it('lists vertices of faces, finds the nearest corner and copies corners for drawing', () => {
    const m = grid();
    expect(verticesOfFaces(m, [0, 1])).toEqual([0, 1, 4, 5]);
    expect(nearestCorner(m, 0, 0.9, 0.1, 0)).toBe(1);
    expect(nearestCorner(m, 0, 0.9, 0.8, 0)).toBe(5);
    const c = cornersOfFaces(m, [1]);
    expect(Array.from(c)).toEqual([0, 0, 0, 1, 1, 0, 0, 1, 0]);
  });

  it('nudges vertices, snapping x and y to the step but not z', () => {
    const m = grid();
    m.positions[5 * 3] = 1.13;
    const cmd = nudgeVertices(m, [5, 6], 0.5, 0, 0.25, 0.5);
    expect(cmd.vertices).toEqual([5, 6]);
    expect(cmd.positions).toEqual([1.5, 1, 0.25, 2.5, 1, 0.25]);
    const free = nudgeVertices(m, [5], 0.1, 0, 0, null);
    expect(free.positions[0]).toBe(Math.fround(1.13 + 0.1));
  });

  it('tells a recolour from a change of corners or positions', () => {
    const a = grid();
    const b = copyWalkmesh(a);
    b.faceMaterial[0] = 9;
    expect(sameGeometry(a, b)).toBe(true);
    b.positions[2] = 1;
    expect(sameGeometry(a, b)).toBe(false);
  });

  it('lists the edges of a face: perimeter or inside, and the room link drawn on it either way round', () => {
    const m = grid();
    // Face 0 is (0, 1, 5): edge 0 (0→1) is on the border, edge 1 (1→5) is shared with face 3, edge 2 (5→0) with face 1.
    const transitions: LineOverlay = {
      id: 'transitions',
      segments: Float32Array.from([1, 0, 0, 0, 0, 0]),
      segmentClass: Uint8Array.from([1]),
      boxes: new Float32Array(0),
      boxClass: new Uint8Array(0),
      classes: [{ label: 'to room 0', count: 0 }, { label: 'to room 4', count: 1 }],
    };
    expect(faceEdges(m, 0, transitions)).toEqual([
      { edge: 0, perimeter: true, link: 'to room 4' },
      { edge: 1, perimeter: false, link: null },
      { edge: 2, perimeter: false, link: null },
    ]);
    expect(faceEdges(m, 0, null)[0]).toEqual({ edge: 0, perimeter: true, link: null });
    expect(navmeshFormId('FreeCamera.esp NAVM 0x01000D69')).toBe(0x01000d69);
    expect(navmeshFormId('m10aa_09a.wok')).toBeNull();
  });

  it('reads numbers typed in the paint fields', () => {
    expect(parseFieldNumber('')).toBeNull();
    expect(parseFieldNumber(' 12 ')).toBe(12);
    expect(parseFieldNumber('0x40')).toBe(64);
    expect(parseFieldNumber('-1')).toBeNaN();
    expect(parseFieldNumber('1.5')).toBeNaN();
    expect(projectFileIdOf('project:s-0001:17')).toBe(17);
    expect(projectSessionOf('project:s-0001:17')).toBe('s-0001');
    expect(projectFileIdOf('project:17')).toBeNull();
    expect(projectFileIdOf('path:/x.wok')).toBeNull();
  });
});

/**
 * The edit store against a scripted service that applies the commands to a real walkmesh
 * with the shared edit code and keeps an undo stack, as the edit service does.
 */
function setup() {
  let mesh = grid();
  const done: EditCommand[] = [];
  const undone: EditCommand[] = [];
  const calls: Method[] = [];
  let revision = 0;
  const state = (): ProjectFileState => ({ fileId: 7, revision, edited: revision > 0, bake: null, refusals: {} });
  const outcome = (label: string): EditsOutcome => ({ fileId: 7, mesh: 0, seq: done.length, label, walkmeshes: [copyWalkmesh(mesh)], delta: null, report, files: [state()], changedFiles: [], reportsChanged: [], notes: [], warnings: [], rebakePending: null });
  const report: FileReport = { file: 'grid.wok', format: 'kotor-bwm', game: 'kotor', ok: true, summary: null, errors: [], warnings: [], readFailure: null };
  const answer = (method: Method, params: unknown): RpcOutcome<unknown> => {
    calls.push(method);
    if (method === 'edits.apply') {
      const cmd = (params as EditsApplyParams).command as EditCommand;
      if (cmd.kind === 'delete-faces' && cmd.faces.length === faceCount(mesh)) return { ok: false, error: { code: 'invalid-params', message: 'delete-faces: that would delete every face' } };
      // The page names the revision it shows; a stale one is refused as the service does.
      if ((params as EditsApplyParams).revision !== revision) return { ok: false, error: { code: 'stale', message: 'changed since', parameter: 'params.revision' } };
      mesh = copyWalkmesh(mesh);
      done.push(applyEdit(mesh, cmd).inverse);
      undone.length = 0;
      revision++;
      return { ok: true, value: outcome(cmd.kind) };
    }
    if (method === 'edits.undo' || method === 'edits.redo') {
      const from = method === 'edits.undo' ? done : undone;
      const to = method === 'edits.undo' ? undone : done;
      const cmd = from.pop();
      if (!cmd) return { ok: true, value: { outcome: null } };
      mesh = copyWalkmesh(mesh);
      to.push(applyEdit(mesh, cmd).inverse);
      revision++;
      return { ok: true, value: { outcome: outcome(method) } };
    }
    const files = [{ fileId: 7, label: 'm/grid.wok' }];
    if (method === 'edits.history') return { ok: true, value: { entries: [...done.map((_, i) => ({ seq: i + 1, label: 'edit', undone: false, createdAt: '', files })), ...undone.map((_, i) => ({ seq: 100 + i, label: 'undone edit', undone: true, createdAt: '', files }))] } };
    if (method === 'project.open') return { ok: true, value: { session: SESSION, path: '/p.walkbench', name: 'p', game: 'kotor', modules: [] } };
    return { ok: false, error: { code: 'internal', message: `${method} is not scripted` } };
  };
  const transport: Transport = {
    invoke: <M extends Method>(method: M, params: Params<M>) => Promise.resolve(answer(method, params)) as never,
    on: () => () => undefined,
  };
  const app = createApp({});
  app.provide(clientKey, new WalkbenchClient(transport));
  const pinia = createPinia();
  app.use(pinia);
  setActivePinia(pinia);
  const doc = app.runWithContext(() => useDocumentStore());
  const edit = app.runWithContext(() => useEditStore());
  const file: OpenedFile = {
    name: 'grid.wok',
    path: null,
    byteLength: 0,
    report: { file: 'grid.wok', format: 'kotor-bwm', game: 'kotor', ok: true, summary: null, errors: [], warnings: [], readFailure: null },
    walkmeshes: [grid()],
    projectFile: { session: SESSION, fileId: 7, label: 'm/grid.wok', kind: 'walkmesh', revision: 0, edited: false, undoScope: [7], related: [], bake: null, refusals: {} },
  };
  doc.tabs = [markRaw({ key: `project:${SESSION}:7`, file: markRaw(file), requestedAt: 0, loadedAt: 0 })];
  doc.activeKey = `project:${SESSION}:7`;
  return { doc, edit, calls, current: () => mesh, openProject: () => app.runWithContext(() => useProjectStore()).open('/p.walkbench') };
}

const SESSION = 'session-0001';

describe('the edit store', () => {
  it('paints the selection, shows the edited walkmesh in the tab, and undoes and redoes it', async () => {
    const { doc, edit, openProject } = setup();
    await openProject();
    edit.setFaces(0, [2, 3], 'replace');
    edit.paintMaterial = '5';
    await edit.paint(edit.faces);
    expect(edit.error).toBeNull();
    expect(doc.opened!.walkmeshes[0]!.faceMaterial[2]).toBe(5);
    expect(doc.opened!.walkmeshes[0]!.faceMaterial[4]).toBe(1);
    // The tab shows the revision the edit made, so the next edit names it.
    expect(doc.activeTab!.file.projectFile!.revision).toBe(1);
    expect(edit.canUndo).toBe(true);
    expect(edit.message).toBe('Done: paint-faces');
    await edit.undo();
    expect(doc.opened!.walkmeshes[0]!.faceMaterial[2]).toBe(1);
    expect(edit.canRedo).toBe(true);
    await edit.redo();
    expect(doc.opened!.walkmeshes[0]!.faceMaterial[3]).toBe(5);
  });

  it('refuses a paint with nothing to paint or a bad number before asking the service', async () => {
    const { edit, calls } = setup();
    edit.setFaces(0, [0], 'replace');
    await edit.paint(edit.faces);
    expect(edit.error).toMatch(/choose a material/);
    edit.paintSetBits = 'lots';
    await edit.paint(edit.faces);
    expect(edit.error).toMatch(/flags to set: expected a whole number/);
    expect(calls).not.toContain('edits.apply');
  });

  it('deletes faces and drops them from the selection; shows a refused edit', async () => {
    const { doc, edit, current } = setup();
    edit.setFaces(0, [10, 11], 'replace');
    await edit.deleteFaces();
    expect(faceCount(doc.opened!.walkmeshes[0]!)).toBe(10);
    expect(faceCount(current())).toBe(10);
    expect(edit.faces.length).toBe(0);
    edit.setFaces(0, Array.from({ length: 10 }, (_, i) => i), 'replace');
    await edit.deleteFaces();
    expect(edit.error).toBe('delete-faces: that would delete every face');
    expect(faceCount(doc.opened!.walkmeshes[0]!)).toBe(10);
  });

  it('grows a selection by flood fill over the same material', () => {
    const { edit } = setup();
    edit.setFaces(0, [0], 'replace');
    edit.floodRule = 'material';
    edit.grow();
    expect(Array.from(edit.faces)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('moves the corners of the selection one step up, and welds and splits picked vertices', async () => {
    const { doc, edit } = setup();
    edit.setFaces(0, [0], 'replace');
    edit.gridStep = 0.5;
    await edit.nudge(0, 0, 1);
    const m = doc.opened!.walkmeshes[0]!;
    for (const v of [0, 1, 5]) expect(m.positions[v * 3 + 2]).toBe(0.5);
    expect(m.positions[4 * 3 + 2]).toBe(0);
    edit.clearSelection();
    edit.pickVertex(0, 1);
    edit.pickVertex(0, 2);
    await edit.splitEdge();
    expect(doc.opened!.walkmeshes[0]!.positions.length / 3).toBe(13);
    expect(edit.vertices).toEqual([]);
    edit.pickVertex(0, 6);
    edit.pickVertex(0, 7);
    edit.pickVertex(0, 6);
    expect(edit.vertices).toEqual([7]);
  });
});
