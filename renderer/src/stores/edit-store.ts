import { defineStore } from 'pinia';
import { computed, inject, markRaw, ref, shallowRef, watch } from 'vue';
import type { DocumentEditCommand } from '../../../shared/edits/document-edit-command';
import type { EditCommand } from '../../../shared/edits/edit-command';
import { floodSelect, walkmeshGrid, type FloodRule } from '../../../shared/edits/selection';
import { dropToSurface, snapToGrid } from '../../../shared/edits/vertex-placement';
import { applyEditsDelta, type DeltaChange } from '../../../shared/edits/apply-edits-delta';
import { EditError } from '../../../shared/edits/edit-error';
import type { OpenedFile } from '../../../shared/ipc/contract';
import type { AreaRebake, EditsDelta, EditsOutcome, HistoryEntry, PathQueryResult } from '../../../shared/ipc/edits-contract';
import { WalkbenchRpcError } from '../../../shared/ipc/rpc-error';
import { faceCount, type Walkmesh } from '../../../shared/model/walkmesh';
import type { Point3 } from '../../../shared/pathing/path-result';
import type { Finding } from '../../../shared/validation/finding';
import type { LineOverlay } from '../../../shared/views/view-overlay';
import { combineFaces, facesWithin, nudgeVertices, verticesOfFaces, type SelectMode } from '../tools/face-selection';
import { projectFileIdOf } from '../tools/tab-file';
import { clientKey } from '../transport/client-key';
import { carryViewData } from '../viewport/file-view-data';
import { useDocumentStore, type OpenTab } from './document-store';
import { useProjectStore } from './project-store';
import { useSelectionStore } from './selection-store';

/**
 * What a left click or drag in the viewport does: pick faces (click, box, lasso), paint
 * with the brush, pick vertices (for create, weld, split, fill hole), pick the two ends
 * of a path preview, or place points on the ground (NWN2 cutter corners, where a placeable goes).
 */
export type ToolId = 'select' | 'box' | 'lasso' | 'paint' | 'vertices' | 'move' | 'path' | 'place';

function describe(e: unknown): string {
  if (e instanceof WalkbenchRpcError) return e.message;
  return e instanceof Error ? e.message : String(e);
}

/**
 * An edit reply's delta as the store applied it: the tab's file `before` became `after`, the
 * same walkmesh arrays patched in place (see applyEditsDelta) with the new findings, so the
 * viewport redraws only `change` instead of the whole mesh.
 */
export interface AppliedDelta {
  before: OpenedFile;
  after: OpenedFile;
  mesh: number;
  change: DeltaChange;
}

/** A number typed in a field: empty means "leave as it is"; 0x… is hexadecimal. */
export function parseFieldNumber(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  const v = /^0x[0-9a-f]+$/i.test(t) ? parseInt(t, 16) : Number(t);
  return Number.isInteger(v) && v >= 0 && v <= 0xffffffff ? v : Number.NaN;
}

/**
 * The edit tools: the tool in use, the faces and vertices they act on, and every edit sent
 * through `edits.apply` / `edits.undo` / `edits.redo`. The reply's walkmeshes and findings
 * replace the open tab's, so the viewport and the findings panel show the file as edited.
 */
export const useEditStore = defineStore('edit', () => {
  const client = inject(clientKey);
  if (!client) throw new Error('the Walkbench client is not provided to the app');
  const doc = useDocumentStore();
  const selection = useSelectionStore();
  const projects = useProjectStore();

  const tool = ref<ToolId>('select');
  const floodRule = ref<FloodRule>('island');
  const brushRadius = ref(1);
  /** Paint fields as typed: material (replaces the value), flags to set and to clear. */
  const paintMaterial = ref('');
  const paintSetBits = ref('');
  const paintClearBits = ref('');
  const paintWalkable = ref<'keep' | 'yes' | 'no'>('keep');
  const gridStep = ref(1);
  const snap = ref(false);

  /** The walkmesh (of the active file) the face and vertex selections are in. */
  const mesh = ref(0);
  const faces = shallowRef<Uint32Array>(new Uint32Array(0));
  const vertices = ref<number[]>([]);
  const busy = ref(false);
  const message = ref<string | null>(null);
  const error = ref<string | null>(null);
  const history = shallowRef<HistoryEntry[]>([]);
  /** Bumped after each edit, undo or redo that reached the viewport (the e2e tests wait on it). */
  const revision = ref(0);
  /** NWN2 area re-bakes running in the background, and a count of those shown. */
  const rebaking = ref(0);
  const rebakeRevision = ref(0);
  const rebakeMessage = ref<string | null>(null);
  /** Per area (its TRN's file id) the newest re-bake ticket: older results are stale. */
  const latestRebake = new Map<number, number>();
  /**
   * The last reply applied as a delta, bumped per reply (a new object each time): the
   * walkmesh arrays are patched in place and never deep-watched, so the viewport follows this.
   */
  const lastDelta = shallowRef<AppliedDelta | null>(null);

  /** Points placed on the ground with the place tool (a cutter's corners, a placeable's spot). */
  const placed = ref<Point3[]>([]);
  const pathStart = ref<Point3 | null>(null);
  const pathEnd = ref<Point3 | null>(null);
  const pathResult = shallowRef<PathQueryResult | null>(null);

  const fileId = computed(() => projectFileIdOf(doc.activeKey));
  const activeMesh = computed<Walkmesh | null>(() => doc.opened?.walkmeshes[mesh.value] ?? null);
  const canUndo = computed(() => history.value.some((h) => !h.undone));
  const canRedo = computed(() => history.value.some((h) => h.undone));
  const undoLabel = computed(() => [...history.value].reverse().find((h) => !h.undone)?.label ?? null);
  const redoLabel = computed(() => history.value.find((h) => h.undone)?.label ?? null);
  /** The move tools act on picked vertices, else on every corner of the selected faces. */
  const moveVertices = computed(() => {
    const m = activeMesh.value;
    if (!m) return [];
    return vertices.value.length > 0 ? vertices.value.slice() : verticesOfFaces(m, faces.value);
  });

  // The project's history (kept across restarts) decides what Undo and Redo offer.
  watch(fileId, () => void refreshHistory());

  function clearSelection(): void {
    faces.value = new Uint32Array(0);
    vertices.value = [];
  }

  function setFaces(meshIndex: number, picked: ArrayLike<number>, mode: SelectMode): void {
    if (meshIndex !== mesh.value) {
      mesh.value = meshIndex;
      faces.value = new Uint32Array(0);
      vertices.value = [];
    }
    faces.value = combineFaces(faces.value, picked, mode);
    const last = picked.length > 0 ? picked[picked.length - 1]! : faces.value[0];
    selection.select(last === undefined ? null : { mesh: meshIndex, face: last });
  }

  function pickVertex(meshIndex: number, vertex: number): void {
    if (meshIndex !== mesh.value) {
      mesh.value = meshIndex;
      faces.value = new Uint32Array(0);
      vertices.value = [];
    }
    const i = vertices.value.indexOf(vertex);
    if (i >= 0) vertices.value.splice(i, 1);
    else vertices.value.push(vertex);
  }

  /** Grows the face selection by flood fill under the chosen rule. */
  function grow(): void {
    const m = activeMesh.value;
    if (!m || faces.value.length === 0) return;
    faces.value = floodSelect(m, Array.from(faces.value), floodRule.value);
    message.value = `${faces.value.length} faces selected (${floodRule.value})`;
  }

  async function refreshHistory(): Promise<void> {
    if (fileId.value === null) return;
    try {
      history.value = (await client!.call('edits.history', {})).entries;
    } catch (e) {
      error.value = describe(e);
    }
  }

  /**
   * NWN2: an edit of the GIT starts a re-bake of the area in the background; the reply
   * only carries its ticket. The result is fetched without holding the edit tools (more
   * edits may follow while it runs; a newer ticket of the same area makes this one's
   * result stale, and the service reports a waiting one as superseded).
   */
  function awaitRebake(outcome: EditsOutcome): void {
    const pending = outcome.rebakePending;
    if (!pending) return;
    latestRebake.set(pending.sourceFileId, pending.ticket);
    rebaking.value++;
    void client!
      .call('edits.rebakeResult', { ticket: pending.ticket })
      .then((r) => {
        if (latestRebake.get(pending.sourceFileId) !== pending.ticket && r.status !== 'failed') return;
        if (r.status === 'failed') error.value = `The area could not be baked again: ${r.error ?? 'unknown error'}`;
        if (r.status !== 'done' || !r.rebake) return;
        absorbRebake(r.rebake, r.findings, r.overlays);
        const reused = r.rebake.tiles > 0 ? ` (${r.rebake.tiles - r.rebake.reusedTiles} of ${r.rebake.tiles} tiles' path tables baked)` : '';
        rebakeMessage.value = `area re-baked in ${r.rebake.ms.toFixed(0)} ms${reused}, shown ${r.rebake.waitMs.toFixed(0)} ms after the edit`;
        if (message.value) message.value = `${message.value.replace(/ · (area re-baking…|area re-baked .*)$/, '')} · ${rebakeMessage.value}`;
        rebakeRevision.value++;
      })
      .catch((e: unknown) => {
        error.value = `The area could not be baked again: ${describe(e)}`;
      })
      .finally(() => {
        rebaking.value--;
      });
  }

  /** The open TRN (or TRX) of a re-baked area shows the new walkmesh and what the bake found. */
  function absorbRebake(r: AreaRebake, findings: Finding[], placements: LineOverlay[]): void {
    const tab = doc.tabs.find((t) => t.key === `project:${r.sourceFileId}`);
    if (!tab) return;
    // The GIT's views (cutter outlines, footprints) as baked; the TRN's own views stay.
    const replaced = new Set(placements.map((o) => o.id));
    const overlays = [...(tab.file.overlays ?? []).filter((o) => !replaced.has(o.id)), ...placements];
    const errors = findings.filter((f) => f.severity === 'error');
    const warnings = findings.filter((f) => f.severity === 'warning');
    const walkmeshes = tab.file.walkmeshes.length <= 1 ? [r.walkmesh] : tab.file.walkmeshes.map((m, i) => (i === 0 ? r.walkmesh : m));
    const file = markRaw({ ...tab.file, walkmeshes, overlays, report: { ...tab.file.report, errors, warnings, ok: errors.length === 0 && tab.file.report.readFailure === null } });
    doc.tabs = doc.tabs.map((t) => (t === tab ? markRaw({ ...t, file }) : t));
  }

  /**
   * A reply carrying only what changed: copied into the open tab's walkmesh arrays, the tab
   * given a new file object (new findings; the view data carried over, see carryViewData).
   * A delta that does not fit the tab's walkmesh (the tab is not the file as the edits hold
   * it) leaves it untouched, and the tab reads the file again instead.
   */
  function absorbDelta(tab: OpenTab, outcome: EditsOutcome, delta: EditsDelta): void {
    const before = tab.file;
    const m = before.walkmeshes[outcome.mesh];
    let change: DeltaChange;
    try {
      if (!m) throw new EditError('delta', `${before.name} has no walkmesh ${outcome.mesh}`);
      change = applyEditsDelta(m, delta);
    } catch (e) {
      if (!(e instanceof EditError)) throw e;
      void reread(outcome.fileId).catch((e2: unknown) => (error.value = describe(e2)));
      return;
    }
    const all: Finding[] = [...outcome.findings, ...outcome.documentFindings];
    const errors = all.filter((f) => f.severity === 'error');
    const warnings = all.filter((f) => f.severity === 'warning');
    const report = { ...before.report, errors, warnings, ok: errors.length === 0 && before.report.readFailure === null };
    const after = markRaw({ ...before, report });
    carryViewData(before, after, { mesh: outcome.mesh, movedVertices: change.vertices, islands: change.walkableChanged || change.ownerChanged });
    lastDelta.value = markRaw({ before, after, mesh: outcome.mesh, change });
    doc.tabs = doc.tabs.map((t) => (t === tab ? markRaw({ ...t, file: after }) : t));
  }

  /** Puts an edit's result into the open tab of its file: the walkmeshes and the findings. */
  function absorb(outcome: EditsOutcome, verb: string): void {
    awaitRebake(outcome);
    const key = `project:${outcome.fileId}`;
    const tab = doc.tabs.find((t) => t.key === key);
    if (tab && outcome.delta) absorbDelta(tab, outcome, outcome.delta);
    else if (tab && outcome.walkmeshes.length > 0) {
      const all: Finding[] = [...outcome.findings, ...outcome.documentFindings];
      const errors = all.filter((f) => f.severity === 'error');
      const warnings = all.filter((f) => f.severity === 'warning');
      const report = { ...tab.file.report, errors, warnings, ok: errors.length === 0 && tab.file.report.readFailure === null };
      const file = markRaw({ ...tab.file, walkmeshes: outcome.walkmeshes, report });
      doc.tabs = doc.tabs.map((t) => (t === tab ? markRaw({ ...t, file }) : t));
      if (key === doc.activeKey) {
        const m = outcome.walkmeshes[mesh.value];
        const n = m ? faceCount(m) : 0;
        faces.value = facesWithin(faces.value, n);
        vertices.value = vertices.value.filter((v) => m && v < m.positions.length / 3);
        if (selection.selected && selection.selected.face >= n) selection.select(null);
      }
    }
    const others = outcome.changedFiles.length > 0 ? ` (also changed ${outcome.changedFiles.length} other file${outcome.changedFiles.length === 1 ? '' : 's'})` : '';
    const rebake = outcome.rebakePending ? ' · area re-baking…' : '';
    message.value = `${verb}: ${outcome.label}${others}${rebake}`;
    revision.value++;
  }

  async function run(work: () => Promise<void>): Promise<void> {
    if (busy.value) return;
    busy.value = true;
    error.value = null;
    try {
      await work();
    } catch (e) {
      error.value = describe(e);
    } finally {
      busy.value = false;
    }
    await refreshHistory();
  }

  function apply(command: EditCommand | DocumentEditCommand): Promise<void> {
    return run(async () => {
      const id = fileId.value;
      if (id === null) throw new Error('edits are made on project files: open a project and a file from its tree');
      // A paint or a move comes back as a delta; edits of corners as whole walkmeshes.
      absorb(await client!.call('edits.apply', { fileId: id, mesh: mesh.value, command, delta: true }), 'Done');
    });
  }

  /**
   * The file read again from the project: a document edit (room links, connections, cover)
   * changes views the reply does not carry, so the tab takes the file as the services read it.
   */
  async function reread(fileId: number): Promise<void> {
    const key = `project:${fileId}`;
    if (!doc.tabs.some((t) => t.key === key)) return;
    const file = markRaw(await client!.call('project.openFile', { fileId }));
    doc.tabs = doc.tabs.map((t) => (t.key === key ? markRaw({ ...t, file }) : t));
  }

  function hasViews(fileId: number): boolean {
    return (doc.tabs.find((t) => t.key === `project:${fileId}`)?.file.overlays?.length ?? 0) > 0;
  }

  async function rereadAll(outcome: EditsOutcome): Promise<void> {
    await reread(outcome.fileId);
    for (const other of outcome.changedFiles) await reread(other);
    // A KotOR link back is made in the room the link leads to: the open room's findings follow it.
    const active = fileId.value;
    if (active !== null && active !== outcome.fileId && !outcome.changedFiles.includes(active) && hasViews(active)) await reread(active);
  }

  /** A document edit: applied, then the file read again so its views show the change. */
  function applyDocument(command: DocumentEditCommand): Promise<void> {
    return run(async () => {
      const id = fileId.value;
      if (id === null) throw new Error('edits are made on project files: open a project and a file from its tree');
      const outcome = await client!.call('edits.apply', { fileId: id, mesh: mesh.value, command });
      await reread(id);
      absorb(outcome, 'Done');
    });
  }

  /** KotOR: links the other room back to this perimeter edge, or drops this side's link. */
  function fixRoomLink(face: number, edge: number, mode: 'reciprocate' | 'unlink'): Promise<void> {
    return run(async () => {
      const id = fileId.value;
      if (id === null) throw new Error('room links are fixed in project files: open a project and a room from its tree');
      const outcome = await client!.call('edits.fixRoomLink', { fileId: id, face, edge, mode });
      await reread(id);
      for (const other of outcome.changedFiles) await reread(other);
      absorb(outcome, 'Done');
    });
  }

  function undo(): Promise<void> {
    return run(async () => {
      const r = await client!.call('edits.undo', { delta: true });
      // The step may have been a document edit (links, connections): views follow the file.
      // A delta is a paint or a move, never a document edit: no need to read the file again.
      if (r.outcome && !r.outcome.delta && (hasViews(r.outcome.fileId) || r.outcome.changedFiles.length > 0 || hasViews(fileId.value ?? -1))) await rereadAll(r.outcome);
      if (r.outcome) absorb(r.outcome, 'Undone');
      else message.value = 'Nothing to undo';
    });
  }

  function redo(): Promise<void> {
    return run(async () => {
      const r = await client!.call('edits.redo', { delta: true });
      // The step may have been a document edit (links, connections): views follow the file.
      // A delta is a paint or a move, never a document edit: no need to read the file again.
      if (r.outcome && !r.outcome.delta && (hasViews(r.outcome.fileId) || r.outcome.changedFiles.length > 0 || hasViews(fileId.value ?? -1))) await rereadAll(r.outcome);
      if (r.outcome) absorb(r.outcome, 'Redone');
      else message.value = 'Nothing to redo';
    });
  }

  function need(what: string, ok: boolean): boolean {
    if (!ok) error.value = what;
    return ok;
  }

  /** The paint command for the faces from the paint fields, or null (and a message) when they are wrong. */
  function paintCommand(list: ArrayLike<number>): EditCommand | null {
    const material = parseFieldNumber(paintMaterial.value);
    const setBits = parseFieldNumber(paintSetBits.value);
    const clearBits = parseFieldNumber(paintClearBits.value);
    for (const [name, v] of [['material', material], ['flags to set', setBits], ['flags to clear', clearBits]] as const) {
      if (Number.isNaN(v)) {
        error.value = `${name}: expected a whole number 0..4294967295 (or 0x… hexadecimal), or nothing`;
        return null;
      }
    }
    if (material === null && setBits === null && clearBits === null && paintWalkable.value === 'keep') {
      error.value = 'choose a material, flags or walkability to paint';
      return null;
    }
    return {
      kind: 'paint-faces',
      faces: Array.from(list),
      ...(material !== null ? { material } : {}),
      ...(setBits !== null ? { setBits } : {}),
      ...(clearBits !== null ? { clearBits } : {}),
      ...(paintWalkable.value !== 'keep' ? { walkable: paintWalkable.value === 'yes' } : {}),
    };
  }

  async function paint(list: ArrayLike<number>): Promise<void> {
    if (!need('select faces (or brush over them) to paint', list.length > 0)) return;
    const cmd = paintCommand(list);
    if (cmd) await apply(cmd);
  }

  async function deleteFaces(): Promise<void> {
    if (!need('select faces to delete', faces.value.length > 0)) return;
    const list = Array.from(faces.value);
    await apply({ kind: 'delete-faces', faces: list });
    if (!error.value) {
      clearSelection();
      selection.select(null);
    }
  }

  async function flipFaces(): Promise<void> {
    if (need('select faces to flip', faces.value.length > 0)) await apply({ kind: 'flip-faces', faces: Array.from(faces.value) });
  }

  async function createFace(): Promise<void> {
    const v = vertices.value;
    if (need('pick exactly three vertices to make a face from', v.length === 3)) await apply({ kind: 'create-face', vertices: [v[0]!, v[1]!, v[2]!] });
    if (!error.value) vertices.value = [];
  }

  async function splitEdge(): Promise<void> {
    const v = vertices.value;
    if (need('pick the two vertices of the edge to split', v.length === 2)) await apply({ kind: 'split-edge', edge: [v[0]!, v[1]!] });
    if (!error.value) vertices.value = [];
  }

  async function fillHole(): Promise<void> {
    const v = vertices.value;
    if (need('pick the two vertices of a border edge of the hole', v.length === 2)) await apply({ kind: 'fill-hole', edge: [v[0]!, v[1]!] });
    if (!error.value) vertices.value = [];
  }

  async function weld(): Promise<void> {
    const v = vertices.value;
    if (need('pick two or more vertices to weld (into the first)', v.length >= 2)) await apply({ kind: 'weld-vertices', vertices: v.slice() });
    if (!error.value) vertices.value = [];
  }

  async function nudge(dx: number, dy: number, dz: number): Promise<void> {
    const m = activeMesh.value;
    const list = moveVertices.value;
    if (!m || !need('select faces or pick vertices to move', list.length > 0)) return;
    const step = gridStep.value;
    await apply(nudgeVertices(m, list, dx * step, dy * step, dz * step, snap.value ? step : null));
  }

  /** The move tool's drag: the selection's corners moved by (dx, dy, dz), snapped when snap is on. */
  async function moveBy(dx: number, dy: number, dz: number): Promise<void> {
    const m = activeMesh.value;
    const list = moveVertices.value;
    if (!m || !need('select faces or pick vertices to move', list.length > 0)) return;
    await apply(nudgeVertices(m, list, dx, dy, dz, snap.value ? gridStep.value : null));
  }

  async function snapSelection(): Promise<void> {
    const m = activeMesh.value;
    const list = moveVertices.value;
    if (!m || !need('select faces or pick vertices to snap', list.length > 0)) return;
    const positions: number[] = [];
    for (const v of list) positions.push(m.positions[v * 3]!, m.positions[v * 3 + 1]!, m.positions[v * 3 + 2]!);
    await apply({ kind: 'move-vertices', vertices: list, positions: snapToGrid(positions, gridStep.value, 'xy') });
  }

  async function drop(): Promise<void> {
    const m = activeMesh.value;
    const list = moveVertices.value;
    if (!m || !need('select faces or pick vertices to drop onto the surface below', list.length > 0)) return;
    await apply(dropToSurface(m, walkmeshGrid(m), list));
  }

  /** The path tool: the first click sets the start, the second the end and asks for the path. */
  async function pathPoint(point: Point3, meshIndex: number): Promise<void> {
    if (pathStart.value === null || pathEnd.value !== null) {
      pathStart.value = point;
      pathEnd.value = null;
      pathResult.value = null;
      return;
    }
    pathEnd.value = point;
    const file = doc.opened;
    const id = fileId.value;
    if (!file) return;
    busy.value = true;
    error.value = null;
    try {
      const where = id !== null ? { fileId: id } : file.path ? { path: file.path } : null;
      if (!where) throw new Error('path preview needs a project file or a file opened from disk');
      const walkmesh = file.walkmeshes.length > 1 ? { walkmesh: String(meshIndex) } : {};
      pathResult.value = markRaw(await client!.call('path.query', { ...where, ...walkmesh, from: pathStart.value, to: point }));
    } catch (e) {
      error.value = describe(e);
    } finally {
      busy.value = false;
    }
  }

  /** The GIT of the active file's area in the project tree (cutters and placeables live there). */
  const gitFileId = computed(() => {
    const id = fileId.value;
    for (const m of projects.tree?.modules ?? []) {
      for (const a of m.areas) {
        if (!a.files.some((f) => f.id === id)) continue;
        return a.files.find((f) => f.kind === 'git' || /\.git$/i.test(f.name))?.id ?? null;
      }
    }
    return null;
  });

  function placePoint(point: Point3): void {
    placed.value = [...placed.value, point];
  }

  /** A document edit of the area's GIT; the reply's re-baked walkmesh replaces the open TRN's. */
  function applyToGit(command: DocumentEditCommand): Promise<void> {
    return run(async () => {
      const id = gitFileId.value;
      if (id === null) throw new Error("this area's GIT is not in the project: cutters and placeables are edited there");
      absorb(await client!.call('edits.apply', { fileId: id, command }), 'Done');
    });
  }

  async function addCutter(): Promise<void> {
    const pts = placed.value;
    if (!need('place three or more corners on the ground first', pts.length >= 3)) return;
    await applyToGit({ kind: 'nwn2-add-cutter', polygon: pts.flatMap((p) => [p[0], p[1]]), z: pts[0]![2] });
    if (!error.value) placed.value = [];
  }

  async function movePlaceable(index: number): Promise<void> {
    const p = placed.value[placed.value.length - 1];
    if (!need('place a point on the ground where the placeable goes', p !== undefined)) return;
    await applyToGit({ kind: 'nwn2-move-placeable', index, position: [p![0], p![1], p![2]] });
    if (!error.value) placed.value = [];
  }

  async function rotatePlaceable(index: number, degrees: number): Promise<void> {
    await applyToGit({ kind: 'nwn2-rotate-placeable', index, bearing: (degrees * Math.PI) / 180 });
  }

  function clearPath(): void {
    pathStart.value = null;
    pathEnd.value = null;
    pathResult.value = null;
  }

  /** A new file in the viewport: selections and the path are about the old one. */
  function reset(): void {
    clearSelection();
    mesh.value = 0;
    placed.value = [];
    clearPath();
    error.value = null;
    message.value = null;
    // Nor does the old file's last delta (it would keep that file's arrays alive).
    lastDelta.value = null;
  }

  return {
    tool, floodRule, brushRadius, paintMaterial, paintSetBits, paintClearBits, paintWalkable, gridStep, snap,
    mesh, faces, vertices, busy, message, error, history, revision, lastDelta, rebaking, rebakeRevision, rebakeMessage, placed, pathStart, pathEnd, pathResult, gitFileId,
    placePoint, addCutter, movePlaceable, rotatePlaceable, applyToGit, need,
    fileId, activeMesh, canUndo, canRedo, undoLabel, redoLabel, moveVertices,
    clearSelection, setFaces, pickVertex, grow, refreshHistory, apply, applyDocument, fixRoomLink, undo, redo, paint, deleteFaces, flipFaces,
    createFace, splitEdge, fillHole, weld, nudge, moveBy, snapSelection, drop, pathPoint, clearPath, reset,
  };
});
