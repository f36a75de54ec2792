import { defineStore } from 'pinia';
import { computed, inject, markRaw, ref, shallowRef, watch } from 'vue';
import type { DocumentEditCommand } from '../../../shared/edits/document-edit-command';
import type { EditCommand } from '../../../shared/edits/edit-command';
import { floodSelect, walkmeshGrid, type FloodRule } from '../../../shared/edits/selection';
import { dropToSurface, snapToGrid, surfaceBelow } from '../../../shared/edits/vertex-placement';
import { applyEditsDelta, type DeltaChange } from '../../../shared/edits/apply-edits-delta';
import { EditError } from '../../../shared/edits/edit-error';
import type { OpenedFile } from '../../../shared/ipc/contract';
import type { AreaRebake, EditsDelta, EditsOutcome, HistoryEntry, PathQueryResult } from '../../../shared/ipc/edits-contract';
import { editToolGroupsOf, refuseAll, type EditRefusals, type EditToolGroup } from '../../../shared/edits/edit-capabilities';
import type { FileReport } from '../../../shared/formats/file-report';
import { WalkbenchRpcError } from '../../../shared/ipc/rpc-error';
import { faceCount, type Walkmesh } from '../../../shared/model/walkmesh';
import type { Point3 } from '../../../shared/pathing/path-result';
import type { Finding } from '../../../shared/validation/finding';
import type { LineOverlay } from '../../../shared/views/view-overlay';
import { combineFaces, facesWithin, nudgeVertices, verticesOfFaces, type SelectMode } from '../tools/face-selection';
import { projectFileIdOf, projectSessionOf, projectTabKey } from '../tools/tab-file';
import { followFaces } from '../tools/follow-faces';
import { clientKey } from '../transport/client-key';
import { carryViewData, withFileFacts, withFileOverlays } from '../viewport/file-view-data';
import { useDocumentStore, type OpenTab } from './document-store';
import { useProjectStore } from './project-store';
import { useSelectionStore } from './selection-store';
import { useLevelContextStore } from './level-context-store';

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
  /** What the last edit means elsewhere (shared/ipc/edits-contract.ts EditsOutcome.warnings), shown until the next edit. */
  const warnings = ref<string[]>([]);
  /** What happened to the selection when the view changed under it (a re-bake, Ground/Baked). */
  const selectionNote = ref<string | null>(null);
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
  /** The project opening the active tab belongs to (its requests name it). */
  const session = computed(() => projectSessionOf(doc.activeKey));
  const activeMesh = computed<Walkmesh | null>(() => doc.opened?.walkmeshes[mesh.value] ?? null);
  /** The files whose edits the active tab undoes (its own, and an NWN2 area's GIT). */
  const undoScope = computed(() => new Set(doc.activeTab?.file.projectFile?.undoScope ?? []));
  const inScope = (h: HistoryEntry) => h.files.some((f) => undoScope.value.has(f.fileId));
  const canUndo = computed(() => history.value.some((h) => !h.undone && inScope(h)));
  const canRedo = computed(() => history.value.some((h) => h.undone && inScope(h)));
  const undoLabel = computed(() => [...history.value].reverse().find((h) => !h.undone && inScope(h))?.label ?? null);
  const redoLabel = computed(() => history.value.find((h) => h.undone && inScope(h))?.label ?? null);
  /**
   * The edit tools the active tab does not offer, each with its reason (the services give
   * them per file, shared/edits/edit-capabilities.ts); a tab showing an NWN2 area as baked,
   * or a file opened from disk, offers none.
   */
  const refusals = computed<EditRefusals>(() => {
    const tab = doc.activeTab;
    const view = tab?.file.projectFile;
    if (!tab || !view) return refuseAll('this file was opened from disk: open it from a project (its tree) to edit it');
    if (tab.showBaked && tab.baked) {
      // The bake is read-only, but its cutters and placeables (the GIT) are edited on it.
      const { placements: _placements, ...walkmeshTools } = refuseAll('this is the area as baked from its TRN and GIT: switch the view to Ground to edit its walkmesh');
      return view.refusals.placements === undefined ? walkmeshTools : { ...walkmeshTools, placements: view.refusals.placements };
    }
    return view.refusals;
  });
  function refusal(group: EditToolGroup): string | null {
    return refusals.value[group] ?? null;
  }
  /** The move tools act on picked vertices, else on every corner of the selected faces. */
  const moveVertices = computed(() => {
    const m = activeMesh.value;
    if (!m) return [];
    return vertices.value.length > 0 ? vertices.value.slice() : verticesOfFaces(m, faces.value);
  });

  // A tool the file does not offer is put down (the toolbar shows why it is off).
  watch(refusals, (r) => {
    if ((tool.value === 'paint' && r.paint !== undefined) || (tool.value === 'move' && r.move !== undefined)) tool.value = 'select';
  });
  // The project's history (kept across restarts) decides what Undo and Redo offer.
  watch([fileId, () => projects.session], () => void refreshHistory());

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
    const s = projects.session;
    if (s === null) {
      history.value = [];
      return;
    }
    try {
      history.value = (await client!.call('edits.history', { session: s })).entries;
    } catch (e) {
      if (!staleProject(e)) error.value = describe(e);
    }
  }

  /**
   * A request refused because its project is no longer the one open: the tabs of that
   * opening are closed (their file ids mean nothing now). True when that was the case.
   */
  function staleProject(e: unknown): boolean {
    if (!(e instanceof WalkbenchRpcError && e.code === 'stale' && e.parameter === 'params.session')) return false;
    const open = projects.session;
    doc.closeWhere((t) => {
      const s = projectSessionOf(t.key);
      return s !== null && s !== open;
    });
    error.value = e.message;
    return true;
  }

  /** The report of a file's edited bytes, asked for once the editor is idle (written behind). */
  const reportTimers = new Map<number, ReturnType<typeof setTimeout>>();
  const REPORT_IDLE_MS = 450;

  function scheduleReport(s: string, id: number): void {
    const old = reportTimers.get(id);
    if (old) clearTimeout(old);
    reportTimers.set(
      id,
      setTimeout(() => {
        reportTimers.delete(id);
        void fetchReport(s, id);
      }, REPORT_IDLE_MS),
    );
  }

  async function fetchReport(s: string, id: number): Promise<void> {
    const key = projectTabKey(s, id);
    // The tab may have been closed, or its project left, while the editor was idle.
    if (s !== projects.session || !doc.tabs.some((t) => t.key === key)) return;
    try {
      const r = await client!.call('edits.report', { session: s, fileId: id });
      const tab = doc.tabs.find((t) => t.key === key);
      // An answer about an older revision than the tab shows waits for the newer one's.
      if (!tab || tab.file.projectFile?.revision !== r.revision) return;
      setReport(key, r.report, false);
      // The files that follow it (an NWN2 area's TRN, GIT and TRX) leave their "not written yet" state with it.
      projects.mergeStates([r.state, ...r.related], s);
      reportRevision.value++;
    } catch (e) {
      if (!staleProject(e)) error.value = describe(e);
    }
  }

  /** Bumped when a tab's report arrives after an edit (the e2e tests wait on it). */
  const reportRevision = ref(0);

  function setReport(key: string, report: FileReport, pending: boolean): void {
    doc.updateTab(key, (t) => ({ ...t, reportPending: pending, file: markRaw(withFileFacts(t.file, { report })) }));
  }

  /**
   * NWN2: an edit of the GIT or of the TRN's ground starts a re-bake of the area in the
   * background; the reply only carries its ticket. The result is fetched without holding
   * the edit tools (more edits may follow while it runs; a newer ticket of the same area
   * makes this one's result stale, and the service reports a waiting one as superseded).
   */
  function awaitRebake(outcome: EditsOutcome, s: string, show: boolean): void {
    const pending = outcome.rebakePending;
    if (!pending) return;
    latestRebake.set(pending.sourceFileId, pending.ticket);
    rebaking.value++;
    void client!
      .call('edits.rebakeResult', { session: s, ticket: pending.ticket })
      .then((r) => {
        if (latestRebake.get(pending.sourceFileId) !== pending.ticket && r.status !== 'failed') return;
        if (r.status === 'failed') error.value = `The area could not be baked again: ${r.error ?? 'unknown error'}`;
        if (r.status !== 'done' || !r.rebake) return;
        absorbRebake(s, r.rebake, r.findings, r.overlays, show);
        const reused = r.rebake.tiles > 0 ? ` (${r.rebake.tiles - r.rebake.reusedTiles} of ${r.rebake.tiles} tiles' path tables baked)` : '';
        rebakeMessage.value = `area re-baked in ${r.rebake.ms.toFixed(0)} ms${reused}, shown ${r.rebake.waitMs.toFixed(0)} ms after the edit`;
        if (message.value) message.value = `${message.value.replace(/ · (area re-baking…|area re-baked .*)$/, '')} · ${rebakeMessage.value}`;
        rebakeRevision.value++;
      })
      .catch((e: unknown) => {
        if (!staleProject(e)) error.value = `The area could not be baked again: ${describe(e)}`;
      })
      .finally(() => {
        rebaking.value--;
      });
  }

  /**
   * The area's TRN (or TRX) tab takes the re-baked walkmesh as its baked view (the file it
   * edits stays as it is): shown at once after a cutter or placeable edit (`show`), kept
   * for the Baked view after a ground paint. A selection on the baked view follows its
   * faces to the new bake, or is cleared with a note when they are gone.
   */
  function absorbRebake(s: string, r: AreaRebake, findings: Finding[], placements: LineOverlay[], show: boolean): void {
    const key = projectTabKey(s, r.sourceFileId);
    const tab = doc.tabs.find((t) => t.key === key);
    if (!tab) return;
    const base = tab.file;
    // The GIT's views (cutter outlines, footprints) as baked; the TRN's own views stay.
    const replaced = new Set(placements.map((o) => o.id));
    const overlays = [...(base.overlays ?? []).filter((o) => !replaced.has(o.id)), ...placements];
    const errors = findings.filter((f) => f.severity === 'error');
    const warnings = findings.filter((f) => f.severity === 'warning');
    // What the bake says, and its own counts: not the counts of the file the tab edits.
    let walkable = 0;
    for (let f = 0; f < r.walkmesh.faceWalkable.length; f++) walkable += r.walkmesh.faceWalkable[f]!;
    const summary = {
      version: 'baked in the background from the TRN and GIT as edited (what Bake and Export write)',
      counts: { triangles: r.walkmesh.faceWalkable.length, walkableTriangles: walkable, tiles: r.tiles, tilesBakedThisTime: r.tiles - r.reusedTiles, cutters: r.cutters, placeablesWithoutModel: r.placeablesWithoutModel },
      details: { bakeMs: Math.round(r.ms) },
    };
    const report: FileReport = { ...base.report, summary, errors, warnings, ok: errors.length === 0 && base.report.readFailure === null };
    const baked: OpenedFile = markRaw({ ...base, name: `${base.name.replace(/ \(edited\)$/, '')} (as baked)`, walkmeshes: [r.walkmesh], overlays, report });
    // The GIT's views are the same over the ground the tab edits: it shows them as edited too.
    const ground = markRaw(withFileOverlays(base, overlays));
    const wasShowingBaked = tab.showBaked === true && tab.baked !== null && tab.baked !== undefined;
    const showBaked = show || wasShowingBaked;
    if (key === doc.activeKey && wasShowingBaked && showBaked) followSelection(tab.baked!.walkmeshes[0]!, r.walkmesh);
    else if (key === doc.activeKey && showBaked !== (tab.showBaked === true) && (faces.value.length > 0 || selection.selected)) {
      clearSelection();
      selection.select(null);
      message.value = 'Selection cleared: the view now shows the area as baked';
    }
    doc.updateTab(key, (t) => ({ ...t, file: t.file === base ? ground : t.file, baked, showBaked }));
  }

  /** Moves the face selection from one bake of an area to the next, or clears it with a note. */
  function followSelection(before: Walkmesh, after: Walkmesh): void {
    const had = Array.from(faces.value);
    const sel = selection.selected;
    if (had.length === 0 && !sel) return;
    const wanted = sel && !had.includes(sel.face) ? [...had, sel.face] : had;
    const mapped = followFaces(before, after, wanted);
    const next = [...new Set(Array.from(mapped).filter((f) => f >= 0))].sort((a, b) => a - b);
    faces.value = Uint32Array.from(next);
    vertices.value = [];
    const selIndex = sel ? wanted.indexOf(sel.face) : -1;
    const selNext = selIndex >= 0 ? mapped[selIndex]! : -1;
    selection.select(selNext >= 0 ? { mesh: 0, face: selNext } : null);
    const lost = mapped.filter((f) => f < 0).length;
    selectionNote.value =
      lost === 0
        ? `Selection follows the re-bake${sel && selNext >= 0 && selNext !== sel.face ? ` (face ${sel.face} is now face ${selNext})` : ''}`
        : `${lost} selected face${lost === 1 ? ' is' : 's are'} gone after the re-bake (cut away); ${next.length} kept`;
  }

  /** Switches an NWN2 area's tab between the ground it edits and the area as baked. */
  function showBakedView(on: boolean): void {
    const tab = doc.activeTab;
    if (!tab || (on && !tab.baked) || (tab.showBaked === true) === on) return;
    if (faces.value.length > 0 || selection.selected || vertices.value.length > 0) {
      clearSelection();
      selection.select(null);
      selectionNote.value = `Selection cleared: the view now shows ${on ? 'the area as baked' : 'the ground (TRN) it edits'}`;
    }
    doc.updateTab(tab.key, (t) => ({ ...t, showBaked: on }));
  }

  /**
   * A reply carrying only what changed: copied into the open tab's walkmesh arrays, the tab
   * given a new file object (new revision; the view data carried over, see carryViewData).
   * A delta that does not fit the tab's walkmesh (the tab is not the file as the edits hold
   * it) leaves it untouched, and the tab reads the file again instead.
   */
  function absorbDelta(tab: OpenTab, outcome: EditsOutcome, delta: EditsDelta, projectFile: OpenedFile['projectFile']): void {
    const before = tab.file;
    const m = before.walkmeshes[outcome.mesh];
    let change: DeltaChange;
    try {
      if (!m) throw new EditError('delta', `${before.name} has no walkmesh ${outcome.mesh}`);
      change = applyEditsDelta(m, delta);
    } catch (e) {
      if (!(e instanceof EditError)) throw e;
      void reread(projectSessionOf(tab.key)!, outcome.fileId).catch((e2: unknown) => (error.value = describe(e2)));
      return;
    }
    const after = markRaw({ ...before, ...(outcome.report ? { report: outcome.report } : {}), projectFile });
    carryViewData(before, after, { mesh: outcome.mesh, movedVertices: change.vertices, islands: change.walkableChanged || change.ownerChanged });
    lastDelta.value = markRaw({ before, after, mesh: outcome.mesh, change });
    doc.updateTab(tab.key, (t) => ({ ...t, file: after, reportPending: outcome.report === null }));
  }

  /**
   * Puts an edit's result into the open tabs: the edited file's walkmeshes (whole or as a
   * delta) and report with its new revision; every file the step changed gets its new
   * state (revision, bake); a tab of another changed file is read again.
   */
  function absorb(outcome: EditsOutcome, verb: string, s: string): void {
    awaitRebake(outcome, s, isPlacementEdit(outcome));
    const own = outcome.files.find((f) => f.fileId === outcome.fileId);
    const tab = doc.tabs.find((t) => t.key === projectTabKey(s, outcome.fileId));
    if (tab && own && tab.file.projectFile) {
      const projectFile = { ...tab.file.projectFile, revision: own.revision, bake: own.bake };
      if (outcome.delta) absorbDelta(tab, outcome, outcome.delta, projectFile);
      else if (outcome.walkmeshes.length > 0) {
        const file = markRaw({ ...tab.file, walkmeshes: outcome.walkmeshes, projectFile, ...(outcome.report ? { report: outcome.report } : {}) });
        doc.updateTab(tab.key, (t) => ({ ...t, file, reportPending: outcome.report === null }));
        if (tab.key === doc.activeKey && !(tab.showBaked && tab.baked)) {
          const m = outcome.walkmeshes[mesh.value];
          const n = m ? faceCount(m) : 0;
          faces.value = facesWithin(faces.value, n);
          vertices.value = vertices.value.filter((v) => m && v < m.positions.length / 3);
          if (selection.selected && selection.selected.face >= n) selection.select(null);
        }
      } else {
        // A document edit: the file is read again by the caller; its revision moves with it.
        doc.updateTab(tab.key, (t) => ({ ...t, file: markRaw(withFileFacts(t.file, { projectFile, ...(outcome.report ? { report: outcome.report } : {}) })) }));
      }
      if (outcome.report === null && (tab.file.projectFile.kind === 'walkmesh' || tab.file.projectFile.kind === 'trn')) scheduleReport(s, outcome.fileId);
    }
    // After the edited tab took its content and revision: the states of every file the step
    // changed (the tree's marks, other tabs' bake states, the GIT's revision).
    projects.mergeStates(outcome.files, s);
    // Rooms whose link findings follow this one's seams: their reports are asked for again.
    for (const id of outcome.reportsChanged) if (doc.tabs.some((t) => t.key === projectTabKey(s, id))) void fetchReport(s, id);
    // Tabs of other files the step changed (a link made on both sides, undone from either).
    for (const stale of projects.staleTabs()) {
      if (stale.key === tab?.key) continue;
      void reread(s, projectFileIdOf(stale.key)!).catch((e: unknown) => (error.value = describe(e)));
    }
    const others = outcome.changedFiles.length > 0 ? ` (also changed ${outcome.changedFiles.length} other file${outcome.changedFiles.length === 1 ? '' : 's'})` : '';
    const rebake = outcome.rebakePending ? ' · area re-baking…' : '';
    message.value = `${verb}: ${outcome.label}${others}${rebake}`;
    if (outcome.warnings.length > 0) warnings.value = [...outcome.warnings];
    revision.value++;
  }

  /** A cutter or placeable edit (the GIT): its re-bake is shown at once. */
  function isPlacementEdit(outcome: EditsOutcome): boolean {
    const tab = doc.activeTab;
    return tab?.file.projectFile?.related.some((r) => r.fileId === outcome.fileId && r.kind === 'git') ?? false;
  }

  /** What edits the services refused as stale want: the tab shown again as the project holds it. */
  async function recoverFromStale(e: unknown): Promise<boolean> {
    if (staleProject(e)) return true;
    if (!(e instanceof WalkbenchRpcError && e.code === 'stale')) return false;
    const s = projects.session;
    await projects.refreshStates();
    if (s !== null) for (const t of projects.staleTabs()) await reread(s, projectFileIdOf(t.key)!);
    error.value = e.message;
    return true;
  }

  async function run(work: () => Promise<void>): Promise<void> {
    if (busy.value) return;
    busy.value = true;
    error.value = null;
    warnings.value = [];
    selectionNote.value = null;
    try {
      await work();
    } catch (e) {
      try {
        if (!(await recoverFromStale(e))) error.value = describe(e);
      } catch (e2) {
        error.value = describe(e2);
      }
    } finally {
      busy.value = false;
    }
    await refreshHistory();
  }

  /** The active tab's project file, or an error the user reads. */
  function target(what: string): { s: string; id: number; revision: number } {
    const tab = doc.activeTab;
    const view = tab?.file.projectFile;
    if (!tab || !view) throw new Error(`${what} are made on project files: open a project and a file from its tree`);
    return { s: view.session, id: view.fileId, revision: view.revision };
  }

  /** Refuses at once, with the services' reason, a command the active tab does not offer. */
  function refusedHere(command: EditCommand | DocumentEditCommand): string | null {
    for (const g of editToolGroupsOf(command)) {
      const r = refusals.value[g];
      if (r !== undefined) return r;
    }
    return null;
  }

  function apply(command: EditCommand | DocumentEditCommand): Promise<void> {
    return run(async () => {
      const refused = refusedHere(command);
      if (refused) throw new Error(refused);
      const t = target('edits');
      // A paint or a move comes back as a delta; edits of corners as whole walkmeshes.
      absorb(await client!.call('edits.apply', { session: t.s, fileId: t.id, revision: t.revision, mesh: mesh.value, command, delta: true }), 'Done', t.s);
    });
  }

  /**
   * The file read again from the project: a document edit (room links, connections, cover)
   * changes views the reply does not carry, and a file changed from another tab is shown
   * as it is now.
   */
  async function reread(s: string, id: number): Promise<void> {
    const key = projectTabKey(s, id);
    if (!doc.tabs.some((t) => t.key === key)) return;
    const file = markRaw(await client!.call('project.openFile', { session: s, fileId: id }));
    doc.updateTab(key, (t) => ({ ...t, file, reportPending: false }));
    const v = file.projectFile;
    if (v) projects.mergeStates([{ fileId: id, revision: v.revision, edited: v.edited, bake: v.bake, refusals: v.refusals }], s);
  }

  function hasViews(s: string, id: number): boolean {
    return (doc.tabs.find((t) => t.key === projectTabKey(s, id))?.file.overlays?.length ?? 0) > 0;
  }

  async function rereadAll(outcome: EditsOutcome, s: string): Promise<void> {
    await reread(s, outcome.fileId);
    for (const other of outcome.changedFiles) await reread(s, other);
    // A KotOR link back is made in the room the link leads to: the open room's findings follow it.
    const active = fileId.value;
    if (active !== null && active !== outcome.fileId && !outcome.changedFiles.includes(active) && hasViews(s, active)) await reread(s, active);
  }

  /** A document edit: applied, then the file read again so its views show the change. */
  function applyDocument(command: DocumentEditCommand): Promise<void> {
    return run(async () => {
      const refused = refusedHere(command);
      if (refused) throw new Error(refused);
      const t = target('edits');
      const outcome = await client!.call('edits.apply', { session: t.s, fileId: t.id, revision: t.revision, mesh: mesh.value, command });
      absorb(outcome, 'Done', t.s);
      await reread(t.s, t.id);
    });
  }

  /** KotOR: links the other room back to this perimeter edge, or drops this side's link. */
  function fixRoomLink(face: number, edge: number, mode: 'reciprocate' | 'unlink'): Promise<void> {
    return run(async () => {
      const t = target('room links');
      const outcome = await client!.call('edits.fixRoomLink', { session: t.s, fileId: t.id, revision: t.revision, face, edge, mode });
      absorb(outcome, 'Done', t.s);
      await reread(t.s, t.id);
      for (const other of outcome.changedFiles) await reread(t.s, other);
    });
  }

  /** Undo or redo in the active tab: its own file's edits (and its area's GIT's), in order. */
  function step(which: 'undo' | 'redo'): Promise<void> {
    return run(async () => {
      const t = target(which === 'undo' ? 'undo and redo' : 'undo and redo');
      const r = await client!.call(which === 'undo' ? 'edits.undo' : 'edits.redo', { session: t.s, fileId: t.id, revision: t.revision, delta: true });
      if (!r.outcome) {
        message.value = which === 'undo' ? 'Nothing to undo in this file' : 'Nothing to redo in this file';
        return;
      }
      absorb(r.outcome, which === 'undo' ? 'Undone' : 'Redone', t.s);
      // The step may have been a document edit (links, connections): views follow the file.
      // A delta is a paint or a move, never a document edit: no need to read the file again.
      if (!r.outcome.delta && (hasViews(t.s, r.outcome.fileId) || r.outcome.changedFiles.length > 0 || hasViews(t.s, t.id))) await rereadAll(r.outcome, t.s);
    });
  }

  const undo = () => step('undo');
  const redo = () => step('redo');

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
    const grid = walkmeshGrid(m);
    const command = dropToSurface(m, grid, list);
    // A corner with no walkmesh face below it lands on the level under it, where one is shown (issue 19).
    const level = useLevelContextStore();
    const moving = new Set(list);
    const T = m.triangles;
    const skip = (t: number) => moving.has(T[t * 3]!) || moving.has(T[t * 3 + 1]!) || moving.has(T[t * 3 + 2]!);
    list.forEach((v, i) => {
      const p = command.positions;
      const o = i * 3;
      if (surfaceBelow(m, grid, p[o]!, p[o + 1]!, p[o + 2]!, skip) !== undefined) return;
      const onLevel = level.dropPoint([p[o]!, p[o + 1]!, p[o + 2]!]);
      if (onLevel) p[o + 2] = Math.fround(onLevel[2]);
    });
    await apply(command);
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
      const s = session.value;
      const where = id !== null && s !== null ? { session: s, fileId: id } : file.path ? { path: file.path } : null;
      if (!where) throw new Error('path preview needs a project file or a file opened from disk');
      const walkmesh = file.walkmeshes.length > 1 ? { walkmesh: String(meshIndex) } : {};
      pathResult.value = markRaw(await client!.call('path.query', { ...where, ...walkmesh, from: pathStart.value, to: point }));
    } catch (e) {
      error.value = describe(e);
    } finally {
      busy.value = false;
    }
  }

  /** The GIT of the active file's area (cutters and placeables live there), from the tab's file view. */
  const gitFileId = computed(() => doc.activeTab?.file.projectFile?.related.find((r) => r.kind === 'git')?.fileId ?? null);

  function placePoint(point: Point3): void {
    placed.value = [...placed.value, point];
  }

  /** A document edit of the area's GIT; the re-baked area is then shown in the tab. */
  function applyToGit(command: DocumentEditCommand): Promise<void> {
    return run(async () => {
      const refused = refusal('placements');
      if (refused) throw new Error(refused);
      const t = target('cutter and placeable edits');
      const git = doc.activeTab?.file.projectFile?.related.find((r) => r.kind === 'git');
      if (!git) throw new Error("this area's GIT is not in the project: cutters and placeables are edited there");
      absorb(await client!.call('edits.apply', { session: t.s, fileId: git.fileId, revision: git.revision, command }), 'Done', t.s);
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
    warnings.value = [];
    selectionNote.value = null;
    // Nor does the old file's last delta (it would keep that file's arrays alive).
    lastDelta.value = null;
  }

  return {
    tool, floodRule, brushRadius, paintMaterial, paintSetBits, paintClearBits, paintWalkable, gridStep, snap,
    mesh, faces, vertices, busy, message, error, warnings, selectionNote, history, revision, reportRevision, lastDelta, rebaking, rebakeRevision, rebakeMessage, placed, pathStart, pathEnd, pathResult, gitFileId,
    placePoint, addCutter, movePlaceable, rotatePlaceable, applyToGit, need, showBakedView,
    fileId, session, activeMesh, undoScope, canUndo, canRedo, undoLabel, redoLabel, moveVertices, refusals, refusal,
    clearSelection, setFaces, pickVertex, grow, refreshHistory, apply, applyDocument, fixRoomLink, undo, redo, paint, deleteFaces, flipFaces,
    createFace, splitEdge, fillHole, weld, nudge, moveBy, snapSelection, drop, pathPoint, clearPath, reset,
  };
});
