import path from 'node:path';
import { kotorRoomsView, type KotorRoomsView } from '../../shared/views/game-structure';
import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import type { DocumentEditCommand } from '../../shared/edits/document-edit-command';
import type { EditCommand } from '../../shared/edits/edit-command';
import { EditError } from '../../shared/edits/edit-error';
import { meshEdgeOfRow, perimeterRow } from '../../shared/edits/kotor-transitions';
import { areaBakeDoors, areaBakeModels, type PlaceableModelLookup } from '../../shared/edits/nwn2-area-bake-job';
import { isDocumentEditKind } from '../../shared/edits/parse-document-edit-command';
import type { GffDocument } from '../../shared/formats/aurora/gff-document';
import { readGitPlaceables, readGitWalkmeshCutters } from '../../shared/formats/aurora/nwn2-git';
import { loadDocument, UnknownFormatError, type LoadedDocument } from '../../shared/formats/inspect-file';
import { BWM_FORMAT, type BwmDocument } from '../../shared/formats/kotor/bwm-document';
import { areaFromDocuments, type KotorArea, type WokLoader } from '../../shared/formats/kotor/kotor-area';
import { checkRoomLinks, fixOneSidedLink } from '../../shared/formats/kotor/kotor-room-links';
import { LYT_FORMAT, type LytDocument } from '../../shared/formats/kotor/lyt-document';
import { readLyt } from '../../shared/formats/kotor/lyt-reader';
import type { SkyrimCheckParams } from '../../shared/ipc/edits-contract';
import type { EditsApplyParams, EditsDelta, EditsOutcome, FileReportResult, FixRoomLinkParams, GitPlacements, HistoryEntry, PlacementsParams, PathQueryParams, PathQueryResult, PendingRebake, ProjectParam, RebakeResult, RebakeResultParams, ReportParams, StepParams } from '../../shared/ipc/edits-contract';
import type { ProjectFileState } from '../../shared/ipc/project-contract';
import type { FileReport } from '../../shared/formats/file-report';
import { inspectBytes } from '../../shared/formats/inspect-file';
import { refusalOf, editRefusals } from '../../shared/edits/edit-capabilities';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { ModelMappingError } from '../../shared/model/model-mapping-error';
import { pathSurfaceFor } from '../../shared/pathing/path-for-document';
import type { PathQueryOptions } from '../../shared/pathing/path-surface';
import type { Walkmesh } from '../../shared/model/walkmesh';
import { checkSkyrimNavmeshes, type NavmeshCheck } from '../../shared/edits/skyrim-navmesh-check';
import { PLUGIN_FORMAT, type PluginDocument } from '../../shared/formats/skyrim/plugin-document';
import { copyWalkmesh } from '../../shared/edits/walkmesh-copy';
import { error, warning, type Finding } from '../../shared/validation/finding';
import { gitOverlays } from '../../shared/views/placement-overlays';
import type { LineOverlay } from '../../shared/views/view-overlay';
import type { BakePoolOptions } from './bake-pool/bake-pool';
import { FileAccessError, readBytes } from './file-access';
import { nodeFormatEnvironment as env } from './node-format-environment';
import { LiveAreaBaker } from './nwn2-live-area-bake';
import { ProjectEdits, type EditOutcome } from './project/project-edits';
import { ProjectFileError } from './project/project-file-error';
import { ProjectFootprintModels } from './project/project-footprint-models';
import { nwn2AreaFiles } from './project/nwn2-area-bake-source';
import { kotorLayoutOfRoom, kotorRoomsOfLayout } from './project/kotor-room-layout';
import { projectPlaceableModels } from './project/project-placeable-models';
import { HistoryOrderError, ProjectStore } from './project/project-store';
import type { FileRecord } from './project/project-types';
import { editTargetOf, fileStateOf, undoScopeOf } from './project/project-file-view';
import { areaTrxOf, notCarriedEdits } from './project/not-carried-edits';

/** Re-bake tickets remembered for `edits.rebakeResult` (the live baker keeps as many results). */
const MAX_OPEN_TICKETS = 64;
/** Idle time after an edit before its written-behind bytes are written. */
const WRITE_BEHIND_IDLE_MS = 400;

export interface EditServiceOptions {
  /**
   * The project file a call is about (project-service.ts `resolve`): the app's open project
   * by its session, or a project file named by path; refuses a stale session.
   */
  resolveProject(params: ProjectParam, method: string): string;
  /** Settings of the worker the NWN2 live re-bakes run on (the Electron main process passes the worker entry). */
  bakePool?: Omit<BakePoolOptions, 'concurrency'>;
}

export interface EditService {
  handlers: {
    'edits.apply': (params: EditsApplyParams) => Promise<EditsOutcome>;
    'edits.report': (params: ReportParams) => Promise<FileReportResult>;
    'edits.fixRoomLink': (params: FixRoomLinkParams) => Promise<EditsOutcome>;
    'edits.undo': (params: StepParams) => Promise<{ outcome: EditsOutcome | null }>;
    'edits.redo': (params: StepParams) => Promise<{ outcome: EditsOutcome | null }>;
    'edits.history': (params: ProjectParam) => Promise<{ entries: HistoryEntry[] }>;
    'edits.rebakeResult': (params: RebakeResultParams) => Promise<RebakeResult>;
    'edits.placements': (params: PlacementsParams) => Promise<GitPlacements>;
    'edits.skyrimCheck': (params: SkyrimCheckParams) => Promise<NavmeshCheck>;
    'path.query': (params: PathQueryParams) => Promise<PathQueryResult>;
  };
  /**
   * The walkmeshes of an edited file of the open project as the edits hold them (the
   * original model with the history replayed). The app must show these, not the saved
   * bytes read again: a format's writer may reorder faces (KotOR: walkable first), and the
   * next edit names faces and vertices of this model.
   */
  editedWalkmeshes(project: string, fileId: number): Walkmesh[] | undefined;
  /**
   * What the project knows about a file beyond its own bytes, added to its report: KotOR
   * room links checked against the layout's other rooms as edited (a one-sided link is
   * seen before any edit), edited bytes that could not be written, NWN2 edits the area's
   * export will not carry.
   */
  projectFindings(project: string, fileId: number): Finding[];
  /** KotOR: a room walkmesh's layout, with the rooms sharing each perimeter edge (undefined for another file or a room no LYT lists). */
  kotorRooms(project: string, fileId: number): KotorRoomsView | undefined;
  /**
   * NWN2: bakes the area of a TRN or GIT of the open project in the background as it is
   * now, so the live bake worker is started and warm and the area's tile tables are there
   * for the first edit. Does nothing for other files or when the area has no GIT or TRN.
   */
  warmArea(project: string, fileId: number): void;
  /**
   * Writes the edited bytes that are written behind (paint strokes and moves mark their
   * file; the bytes follow when the editor is idle). Called before anything else reads the
   * project's bytes (bakes, export, Save As). Returns the files that could not be written.
   */
  flushWrites(): { fileId: number; message: string }[];
  /** Writes what is behind, closes the project handle and ends the live re-bake worker. */
  close(): Promise<void>;
}

interface OpenProject {
  file: string;
  store: ProjectStore;
  edits: ProjectEdits;
  /** Placeable model lookups per module (reading the 2DA and MDBs once per project open). */
  models: Map<string, PlaceableModelLookup>;
  /** Placeable outlines for the footprint view, made when a re-bake first needs them. */
  footprints?: ProjectFootprintModels;
  /** KotOR: the room-link findings last checked per room (a paint changes no seam, so they stay). */
  linkFindings: Map<number, Finding[]>;
  /** Files whose written-behind bytes could not be written, with the reason. */
  writeFailures: Map<number, string>;
}

/**
 * Edits and path preview for the app (contract methods `edits.*`, `path.query`), in plain
 * Node. It keeps its own handle on the project file the app has open (the project service
 * owns the tree's); both see every committed change, as SQLite readers do. An edit's reply
 * carries what the viewport and the findings panel need: the edited walkmeshes, their
 * findings, the document's own findings (connections, room links) and, after a cutter or
 * placeable edit, the ticket of the NWN2 area's re-bake, which runs on a worker
 * (nwn2-live-area-bake.ts) and is fetched with `edits.rebakeResult`.
 */
export function createEditService(options: EditServiceOptions): EditService {
  let open: OpenProject | null = null;
  const baker = new LiveAreaBaker(options.bakePool);
  const areaOfTicket = new Map<number, number>();
  /** The GIT each ticket baked and its module, for the placement overlays of its result. */
  const gitOfTicket = new Map<number, { bytes: Uint8Array; module: string }>();

  function project(params: ProjectParam, method = 'edits'): OpenProject {
    return projectAt(options.resolveProject(params, method));
  }

  function projectAt(file: string): OpenProject {
    if (open?.file === file) return open;
    let store: ProjectStore;
    try {
      store = ProjectStore.open(file);
    } catch (e) {
      if (e instanceof ProjectFileError) throw new ServiceError(/no such/.test(e.message) ? 'not-found' : 'unreadable', e.message);
      throw e;
    }
    // The project being left gets its written-behind bytes first.
    flushWrites();
    open?.store.close();
    open = { file, store, edits: new ProjectEdits(store, env, { writeBehind: true }), models: new Map(), linkFindings: new Map(), writeFailures: new Map() };
    // Marks a crashed session left: the history is there, the bytes are written now.
    flushWrites();
    return open;
  }

  /** Edited bytes written behind (ProjectEdits writeBehind) are written after this idle time. */
  let flushTimer: ReturnType<typeof setTimeout> | undefined;

  function scheduleFlush(): void {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = setTimeout(() => {
      flushTimer = undefined;
      flushWrites();
    }, WRITE_BEHIND_IDLE_MS);
    flushTimer.unref?.();
  }

  /** Writes every file whose edited bytes are behind; what cannot be written is kept as a failure to report. */
  function flushWrites(): void {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (!open) return;
    for (const id of [...open.writeFailures.keys()]) if (!open.store.fileById(id)?.editWritePending) open.writeFailures.delete(id);
    for (const f of open.edits.flushWrites()) open.writeFailures.set(f.fileId, f.message);
  }

  function writeFailureFindings(p: OpenProject, fileId: number): Finding[] {
    // A failed write stays pending; once the file's bytes were written since (an undo back
    // to writable bytes writes them at once), the failure is gone with it.
    if (p.writeFailures.has(fileId) && !p.store.fileById(fileId)?.editWritePending) p.writeFailures.delete(fileId);
    const message = p.writeFailures.get(fileId);
    return message ? [error('edit.unwritable', `${message}; the edits are kept in the history: undo the last ones to make the file writable again`)] : [];
  }

  function record(p: OpenProject, fileId: number): FileRecord {
    const r = p.store.fileById(fileId);
    if (!r) throw new ServiceError('not-found', `${p.file}: no file with id ${fileId}`, 'params.fileId');
    return r;
  }

  /** Runs an edit, turning a refused edit into an error the user reads. */
  function editing<T>(run: () => T): T {
    try {
      return run();
    } catch (e) {
      if (e instanceof EditError) throw new ServiceError('invalid-params', e.message, 'params.command');
      if (e instanceof ProjectFileError) throw new ServiceError('unreadable', e.message);
      throw e;
    }
  }

  function outcome(p: OpenProject, o: EditOutcome, wantDelta = false, alsoFiles: readonly number[] = []): EditsOutcome {
    const r = record(p, o.fileId);
    const delta = wantDelta && o.result && !o.result.topology ? deltaOf(p.edits.meshes(o.fileId)[o.mesh]!, o.result.affectedFaces, o.result.affectedVertices) : null;
    // The area's bake follows its GIT and its TRN's ground: both start the live re-bake.
    const gitOfArea = r.kind === 'git' ? r : r.kind === 'trn' ? nwn2AreaFiles(p.store, r).git : undefined;
    const rebakePending = gitOfArea ? startAreaRebake(p, gitOfArea) : null;
    if (o.bytes === undefined) scheduleFlush();
    // A paint changes no seam between KotOR rooms; anything else may (a moved corner, a
    // changed transition, faces added or removed), so every room's link findings are
    // checked again when next asked for.
    const seamsKept = o.result !== undefined && !o.result.topology && o.result.affectedVertices.length === 0;
    if (!seamsKept) p.linkFindings.clear();
    const changed = [...new Set([o.fileId, ...(o.others ?? []).map((x) => x.fileId), ...alsoFiles, ...(o.touched ?? [])])];
    const neighbours = !seamsKept && isRoomWalkmesh(r) ? [...(kotorLayoutOfRoom(p.store, r, { read: (f) => currentBytes(p, f) })?.rooms.values() ?? [])].map((f) => f.id).filter((id) => !changed.includes(id)) : [];
    // An NWN2 TRN or GIT edit changes what the area's TRX export carries: its report says so.
    const areaTrx = r.kind === 'trn' || r.kind === 'git' ? areaTrxOf(p.store, r) : undefined;
    if (areaTrx && !changed.includes(areaTrx.id)) neighbours.push(areaTrx.id);
    return {
      fileId: o.fileId,
      mesh: o.mesh,
      seq: o.seq,
      label: o.label,
      walkmeshes: (r.kind === 'walkmesh' || r.kind === 'trn') && !delta ? [...p.edits.meshes(o.fileId)] : [],
      delta,
      report: o.bytes !== undefined && (r.kind === 'walkmesh' || r.kind === 'trn') ? fileReport(p, r) : null,
      files: changedFileStates(p, changed),
      changedFiles: (o.others ?? []).map((x) => x.fileId),
      reportsChanged: neighbours,
      notes: o.notes ?? [],
      warnings: exportWarnings(p, r),
      rebakePending,
    };
  }

  /**
   * The states of the files a step changed, and of what follows from them: an NWN2 TRN or
   * GIT edit changes what its area's TRX is baked from.
   */
  function changedFileStates(p: OpenProject, fileIds: readonly number[]): ProjectFileState[] {
    const ids = [...new Set(fileIds)];
    for (const id of fileIds) {
      const f = p.store.fileById(id);
      const trx = f ? areaTrxOf(p.store, f) : undefined;
      if (trx && !ids.includes(trx.id)) ids.push(trx.id);
      // The area's TRN and GIT show its TRX's bake state (file-bake-state.ts bakedFileOf): they follow it.
      const area = trx ? nwn2AreaFiles(p.store, trx) : {};
      for (const x of [area.trn, area.git]) if (x && !ids.includes(x.id)) ids.push(x.id);
    }
    return ids.map((id) => p.store.fileById(id)).filter((f): f is FileRecord => f !== undefined).map((f) => fileStateOf(p.store, f));
  }

  /**
   * NWN2: said when an edit of an area's TRN or GIT leaves edits the area's export will
   * not carry (the TRX's own edits once the area is baked from TRN + GIT; GIT edits when
   * the project has no TRN to bake them into).
   */
  function exportWarnings(p: OpenProject, r: FileRecord): string[] {
    if (r.kind !== 'trn' && r.kind !== 'git') return [];
    const trx = areaTrxOf(p.store, r);
    if (!trx) return [];
    const lost = notCarriedEdits(p.store, trx);
    if (lost.length === 0) return [];
    const names = lost.slice(0, 5).map((e) => `"${e.label}"`).join(', ') + (lost.length > 5 ? ` and ${lost.length - 5} more` : '');
    return [`${lost.length} edit${lost.length === 1 ? '' : 's'} (${names}) will not be in the exported ${trx.name}: ${lost[0]!.reason}`];
  }

  /** What the project adds to a file's own findings (see EditService.projectFindings). */
  function projectFindingsOf(p: OpenProject, r: FileRecord): Finding[] {
    const out: Finding[] = [];
    if (isRoomWalkmesh(r)) {
      let links = p.linkFindings.get(r.id);
      if (!links) p.linkFindings.set(r.id, (links = roomLinkFindingsOf(p, r)));
      out.push(...links);
    }
    out.push(...writeFailureFindings(p, r.id));
    const trx = areaTrxOf(p.store, r);
    if (trx && trx.id === r.id) {
      for (const e of notCarriedEdits(p.store, trx)) out.push(warning('project.edit-not-exported', `"${e.label}" (${e.editedFile}) will not be in the exported ${trx.name}: ${e.reason}`));
    }
    return out;
  }

  /** Reports of files' bytes, by content hash: a file's bytes are read and validated once per state. */
  const reportCache = new Map<string, FileReport>();

  /**
   * What `walkbench validate` reports on the file's bytes as the project holds them now
   * (written first when they are behind), plus what the project adds (projectFindingsOf).
   * Both the edit replies and a tab opened afresh show this, so the panels never disagree
   * with the command line.
   */
  function fileReport(p: OpenProject, r: FileRecord): FileReport {
    if (r.editWritePending) flushWrites();
    const now = p.store.fileById(r.id) ?? r;
    const sha = now.edited && now.editSha256 ? now.editSha256 : now.sha256;
    const key = `${now.name}\0${sha}`;
    let own = reportCache.get(key);
    if (!own) {
      own = inspectBytes(now.name, p.store.loadCurrentBytes(now), env);
      if (reportCache.size >= 64) reportCache.delete(reportCache.keys().next().value!);
      reportCache.set(key, own);
    }
    const extra = projectFindingsOf(p, now);
    if (extra.length === 0) return own;
    const errors = [...own.errors, ...extra.filter((f) => f.severity === 'error')];
    return { ...own, errors, warnings: [...own.warnings, ...extra.filter((f) => f.severity !== 'error')], ok: errors.length === 0 && own.readFailure === null };
  }

  /** Refuses a request made on another revision of the file than the project holds (a stale tab). */
  function checkRevision(r: FileRecord, revision: number | undefined): void {
    if (revision === undefined || revision === r.revision) return;
    throw new ServiceError('stale', `${r.module}/${r.name} changed since this view of it was read (revision ${revision}, now ${r.revision}); it is shown again as the project holds it`, 'params.revision');
  }

  /**
   * Starts the re-bake of the area's TRN (else TRX) with the GIT as edited, on the live
   * bake worker; null when the project has neither.
   */
  function startAreaRebake(p: OpenProject, git: FileRecord, warm = false): PendingRebake | null {
    const area = nwn2AreaFiles(p.store, git);
    const source = area.trn ?? area.trx;
    if (!source) return null;
    let models = p.models.get(git.module);
    if (!models) p.models.set(git.module, (models = projectPlaceableModels(p.store, git.module)));
    const input = {
      name: `${source.module}/${source.name}`,
      gitName: `${git.module}/${git.name}`,
      trn: currentBytes(p, source),
      git: currentBytes(p, git),
      models: areaBakeModels(p.edits.document(git.id) as GffDocument, models),
      doors: areaBakeDoors(p.edits.document(git.id) as GffDocument, models),
    };
    // The area's tables are handed from bake to bake; a changed TRN invalidates them, so
    // its content hash (read after its pending bytes were written, above) is part of the key.
    const now = p.store.fileById(source.id) ?? source;
    const key = `${p.file}\0${source.id}\0${now.sha256}\0${now.editSha256 ?? ''}`;
    // A warm-up must never replace a bake an edit is waiting for: only an area not yet baked is warmed.
    if (warm && baker.knows(key)) return null;
    const ticket = baker.request(key, input);
    if (!warm) {
      areaOfTicket.set(ticket, source.id);
      gitOfTicket.set(ticket, { bytes: input.git, module: git.module });
      // Tickets nobody fetched (a page reloaded mid-bake) must not pile up.
      for (const old of areaOfTicket.keys()) {
        if (areaOfTicket.size <= MAX_OPEN_TICKETS) break;
        areaOfTicket.delete(old);
        gitOfTicket.delete(old);
      }
    }
    return { ticket, sourceFileId: source.id };
  }

  /** The cutter outlines and placeable footprints of the GIT a ticket baked (none when it cannot be read). */
  function placementOverlaysOf(ticket: number): LineOverlay[] {
    const git = gitOfTicket.get(ticket);
    gitOfTicket.delete(ticket);
    if (!git || !open) return [];
    open.footprints ??= new ProjectFootprintModels(open.store);
    try {
      return gitOverlays('nwn2', git.bytes, open.footprints.forModule(git.module));
    } catch (e) {
      if (isMalformedInputError(e)) return [];
      throw e;
    }
  }

  function readProjectFile<T>(p: OpenProject, f: FileRecord, read: (bytes: Uint8Array) => T): T {
    try {
      return read(currentBytes(p, f));
    } catch (e) {
      if (isMalformedInputError(e)) throw new ServiceError('unreadable', e.withFile(`${f.module}/${f.name}`).message);
      throw e;
    }
  }

  function currentBytes(p: OpenProject, f: FileRecord): Uint8Array {
    if (f.editWritePending) flushWrites();
    return p.store.loadCurrentBytes(f);
  }

  /** The KotOR area of a room file: its module's LYT with every room's walkmesh as edited. */
  function kotorArea(p: OpenProject, room: FileRecord): { area: KotorArea; files: Map<number, FileRecord>; lyt: FileRecord } | undefined {
    // The layout listing the room, wherever in the project it was imported from (a LYT from
    // override, rooms from a module capsule, a project imported under folder names).
    const found = kotorLayoutOfRoom(p.store, room, { read: (f) => currentBytes(p, f) });
    if (!found) return undefined;
    const docs = new Map<string, BwmDocument>();
    const files = new Map<number, FileRecord>();
    found.layout.rooms.forEach((r, index) => {
      const name = r.name.toLowerCase();
      const f = found.rooms.get(name);
      if (!f || docs.has(name)) return;
      docs.set(name, p.edits.document(f.id) as BwmDocument);
      files.set(index, f);
    });
    return { area: areaFromDocuments(found.layout, docs), files, lyt: found.lyt };
  }

  /** The room-link findings about one room of its layout (one-sided links, open seams). */
  function roomLinkFindingsOf(p: OpenProject, room: FileRecord): Finding[] {
    const found = kotorArea(p, room);
    const index = found ? [...found.files].find(([, f]) => f.id === room.id)?.[0] : undefined;
    return found && index !== undefined ? checkRoomLinks(found.area).filter((f) => f.room === index) : [];
  }

  /** A path on a project file as it is now (its edited bytes when it has edits). */
  function queryProjectPath(params: PathQueryParams & { fileId: number }): PathQueryResult {
    const p = project(params, 'path.query');
    const f = record(p, params.fileId);
    const loaded = readProjectFile(p, f, (b) => loadDocument(f.name, b, env));
    const context = loaded.handler.id === LYT_FORMAT ? { wok: projectWoks(p, f) } : {};
    return pathResult(loaded, f.name.replace(/\.[^.]*$/, ''), context, params);
  }

  function projectWoks(p: OpenProject, lyt: FileRecord): WokLoader {
    const layout = readProjectFile(p, lyt, (b) => readLyt(b));
    const byName = kotorRoomsOfLayout(p.store, lyt, layout);
    return (room) => {
      const f = byName.get(room.toLowerCase());
      return f ? currentBytes(p, f) : undefined;
    };
  }

  /** Undo or redo: of the tab's file (its undo scope) when the call names one, else of the project. */
  function step(params: StepParams, which: 'undo' | 'redo'): { outcome: EditsOutcome | null } {
    const p = project(params, `edits.${which}`);
    let scope: number[] | undefined;
    if (params.fileId !== undefined) {
      const f = record(p, params.fileId);
      checkRevision(f, params.revision);
      scope = undoScopeOf(p.store, f).map((x) => x.id);
    }
    return editing(() => {
      try {
        const o = which === 'undo' ? p.edits.undo(scope) : p.edits.redo(scope);
        return { outcome: o ? outcome(p, o, params.delta) : null };
      } catch (e) {
        if (e instanceof HistoryOrderError) throw new ServiceError('invalid-params', e.message, 'params.fileId');
        throw e;
      }
    });
  }

  return {
    handlers: {
      'edits.apply': async (params) => {
        const p = project(params, 'edits.apply');
        const f = record(p, params.fileId);
        checkRevision(f, params.revision);
        const refused = refusalOf(editRefusals(editTargetOf(p.store, f)), params.command);
        if (refused !== null) throw new ServiceError('invalid-params', `${f.module}/${f.name}: ${refused}`, 'params.command');
        const mesh = params.mesh ?? 0;
        return editing(() => {
          const cmd = params.command;
          const o = isDocumentEditKind(cmd.kind)
            ? p.edits.applyDocument(f.id, mesh, cmd as DocumentEditCommand)
            : p.edits.apply(f.id, mesh, cmd as EditCommand);
          return outcome(p, o, params.delta);
        });
      },
      'edits.report': async (params) => {
        const p = project(params, 'edits.report');
        const f = record(p, params.fileId);
        return editing(() => {
          const report = fileReport(p, f);
          const now = record(p, f.id);
          const related = changedFileStates(p, [f.id]).filter((x) => x.fileId !== f.id);
          return { fileId: f.id, revision: now.revision, report, state: fileStateOf(p.store, now), related };
        });
      },
      'edits.fixRoomLink': async (params) => {
        const p = project(params, 'edits.fixRoomLink');
        const room = record(p, params.fileId);
        checkRevision(room, params.revision);
        if (!isRoomWalkmesh(room)) throw new ServiceError('invalid-params', `${room.module}/${room.name} is not a KotOR room walkmesh (.wok)`, 'params.fileId');
        return editing(() => {
          const found = kotorArea(p, room);
          if (!found) throw new EditError('fix-room-link', `no .lyt in the project lists ${room.name} as a room, so its neighbours are not known (import the module's layout)`);
          const index = [...found.files].find(([, f]) => f.id === room.id)?.[0];
          if (index === undefined) throw new EditError('fix-room-link', `${room.name} is not a room of ${room.module}'s layout`);
          const doc = found.area.rooms[index]!.doc!;
          const row = perimeterRow(doc, params.face, params.edge, 'fix-room-link', p.edits.meshes(room.id)[0]);
          const slot = doc.edgeIndex[row]!;
          const fix = fixOneSidedLink(found.area, index, (slot / 3) | 0, slot % 3, params.mode ?? 'reciprocate');
          if (!fix.ok) throw new EditError('fix-room-link', fix.reason);
          const parts = [];
          for (const [r, next] of fix.documents) {
            const file = found.files.get(r)!;
            const before = found.area.rooms[r]!.doc!;
            const mesh = p.edits.meshes(file.id)[0]!;
            for (let k = 0; k < next.edgeTransition.length; k++) {
              if (next.edgeTransition[k] === before.edgeTransition[k]) continue;
              const at = meshEdgeOfRow(before, k, mesh);
              if (!at) throw new EditError('fix-room-link', `${file.name}: the edge to change is not in the walkmesh as edited`);
              parts.push({ fileId: file.id, mesh: 0, edit: { kind: 'kotor-set-transition' as const, face: at.face, edge: at.edge, target: next.edgeTransition[k]! } });
            }
          }
          if (parts.length === 0) throw new EditError('fix-room-link', 'the link needs no change');
          const label = params.mode === 'unlink' ? `Unlink face ${params.face} edge ${params.edge} of ${room.name}` : `Link back to face ${params.face} edge ${params.edge} of ${room.name}`;
          return outcome(p, p.edits.applyDocumentParts(parts, label, [room.id]), false, [room.id]);
        });
      },
      'edits.undo': async (params) => step(params, 'undo'),
      'edits.redo': async (params) => step(params, 'redo'),
      'edits.history': async (params) => {
        const p = project(params, 'edits.history');
        const names = new Map(p.store.listFiles().map((f) => [f.id, `${f.module}/${f.name}`]));
        return { entries: p.edits.history().map((h) => ({ ...h, files: h.files.map((id) => ({ fileId: id, label: names.get(id) ?? `file ${id} (no longer in the project)` })) })) };
      },
      'edits.placements': async (params) => {
        const p = project(params, 'edits.placements');
        const f = record(p, params.fileId);
        if (f.kind !== 'git') throw new ServiceError('invalid-params', `${f.module}/${f.name} is not a GIT (an area's placements)`, 'params.fileId');
        const doc = editing(() => p.edits.document(f.id)) as GffDocument;
        return {
          cutters: readGitWalkmeshCutters(doc).map((c) => ({ index: c.index, tag: c.tag ?? null, polygon: Array.from(c.polygon), z: c.position.z })),
          placeables: readGitPlaceables(doc).map((x) => ({
            index: x.index,
            tag: x.tag ?? null,
            templateResRef: x.templateResRef ?? null,
            appearance: x.appearance,
            position: [x.x, x.y, x.z],
            bearing: (x.bearing * 180) / Math.PI,
            walkable: x.isWalkable,
          })),
        };
      },
      'edits.skyrimCheck': async (params) => {
        const p = project(params, 'edits.skyrimCheck');
        const f = record(p, params.fileId);
        if (f.format !== PLUGIN_FORMAT) throw new ServiceError('invalid-params', `${f.module}/${f.name} is not a Skyrim plugin: "Check navmeshes" is the Creation Kit's`, 'params.fileId');
        return editing(() => checkSkyrimNavmeshes(p.edits.document(f.id) as PluginDocument));
      },
      'edits.rebakeResult': async ({ session, ticket }) => {
        // A ticket belongs to the project it was made in: a page of another project gets none.
        if (session !== undefined) options.resolveProject({ session }, 'edits.rebakeResult');
        const sourceFileId = areaOfTicket.get(ticket);
        const waiting = baker.result(ticket);
        if (!waiting || sourceFileId === undefined) return { ticket, status: 'unknown', rebake: null, findings: [], overlays: [], error: null };
        const r = await waiting;
        areaOfTicket.delete(ticket);
        if (r.status !== 'done') {
          gitOfTicket.delete(ticket);
          return { ticket, status: r.status, rebake: null, findings: [], overlays: [], error: r.status === 'failed' ? r.error : null };
        }
        const o = r.output;
        return {
          ticket,
          status: 'done',
          rebake: { sourceFileId, walkmesh: o.walkmesh, ms: o.ms, waitMs: r.waitMs, cutters: o.cutters, placeablesWithoutModel: o.placeablesWithoutModel, tiles: o.tiles, reusedTiles: o.reusedTiles },
          findings: o.findings,
          overlays: placementOverlaysOf(ticket),
          error: null,
        };
      },
      'path.query': async (params) => {
        if ((params.fileId === undefined) === (params.path === undefined)) {
          throw new ServiceError('invalid-params', 'give either params.fileId (a project file) or params.path (a file on disk)', 'params.fileId');
        }
        return params.fileId !== undefined ? queryProjectPath({ ...params, fileId: params.fileId }) : queryDiskPath(params.path!, params);
      },
    },
    warmArea(file, fileId) {
      try {
        const p = projectAt(file);
        const f = p.store.fileById(fileId);
        if (!f || !(f.kind === 'git' || f.kind === 'trn' || /\.(trn|trx)$/i.test(f.name))) return;
        const git = f.kind === 'git' ? f : nwn2AreaFiles(p.store, f).git;
        if (!git) return;
        // Nobody waits for this ticket; its tables stay with the area.
        startAreaRebake(p, git, true);
      } catch {
        // Warming is an optimisation: a project or file that cannot be read shows its error when edited.
      }
    },
    editedWalkmeshes(file, fileId) {
      const p = projectAt(file);
      // Copies: the renderer gets a snapshot, the model stays the service's.
      return editing(() => p.edits.meshes(fileId).map(copyWalkmesh));
    },
    projectFindings(file, fileId) {
      const p = projectAt(file);
      const r = p.store.fileById(fileId);
      return r ? editing(() => projectFindingsOf(p, r)) : [];
    },
    kotorRooms(file, fileId) {
      const p = projectAt(file);
      const r = p.store.fileById(fileId);
      if (!r || !isRoomWalkmesh(r)) return undefined;
      return editing(() => {
        const found = kotorArea(p, r);
        const index = found ? [...found.files].find(([, f]) => f.id === r.id)?.[0] : undefined;
        if (!found || index === undefined) return undefined;
        return kotorRoomsView(`${found.lyt.module}/${found.lyt.name}`, found.area, index);
      });
    },
    flushWrites() {
      flushWrites();
      return open ? [...open.writeFailures].map(([fileId, message]) => ({ fileId, message })) : [];
    },
    async close() {
      flushWrites();
      open?.store.close();
      open = null;
      areaOfTicket.clear();
      gitOfTicket.clear();
      await baker.close();
    },
  };
}

/** The new values of the faces and vertices an edit touched (copies: the model stays the service's). */
function deltaOf(mesh: Walkmesh, faces: Uint32Array, vertices: Uint32Array): EditsDelta {
  const positions = new Float32Array(vertices.length * 3);
  vertices.forEach((v, i) => positions.set(mesh.positions.subarray(v * 3, v * 3 + 3), i * 3));
  return {
    faces: faces.slice(),
    faceWalkable: Uint8Array.from(faces, (f) => mesh.faceWalkable[f]!),
    faceMaterial: Uint32Array.from(faces, (f) => mesh.faceMaterial[f]!),
    faceOwner: Uint32Array.from(faces, (f) => mesh.faceOwner[f]!),
    vertices: vertices.slice(),
    positions,
  };
}

/** A KotOR room walkmesh (.wok), by its recorded format or, when none was recorded, its name. */
function isRoomWalkmesh(f: FileRecord): boolean {
  return f.kind === 'walkmesh' && (f.format === BWM_FORMAT || (f.format === null && /\.wok$/i.test(f.name)));
}

async function queryDiskPath(file: string, params: PathQueryParams): Promise<PathQueryResult> {
  if (!path.isAbsolute(file)) throw new ServiceError('invalid-params', `params.path must be an absolute path, not ${JSON.stringify(file)}`, 'params.path');
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(file);
  } catch (e) {
    if (e instanceof FileAccessError) throw new ServiceError('not-found', e.message, 'params.path');
    throw e;
  }
  let loaded: LoadedDocument;
  try {
    loaded = loadDocument(file, bytes, env);
  } catch (e) {
    if (isMalformedInputError(e) || e instanceof UnknownFormatError) throw new ServiceError('unreadable', e.message, 'params.path');
    throw e;
  }
  let context: { wok?: WokLoader } = {};
  if (loaded.handler.id === LYT_FORMAT) context = { wok: await woksBeside(file, loaded.document as LytDocument) };
  return pathResult(loaded, path.basename(file, path.extname(file)), context, params);
}

/** The rooms' .wok files in the layout's folder (names match case-insensitively). */
async function woksBeside(file: string, lyt: LytDocument): Promise<WokLoader> {
  const dir = path.dirname(file);
  const loaded = new Map<string, Uint8Array>();
  for (const r of lyt.rooms) {
    try {
      loaded.set(r.name.toLowerCase(), await readBytes(path.join(dir, `${r.name}.wok`)));
    } catch (e) {
      if (!(e instanceof FileAccessError)) throw e;
      try {
        loaded.set(r.name.toLowerCase(), await readBytes(path.join(dir, `${r.name.toLowerCase()}.wok`)));
      } catch (e2) {
        if (!(e2 instanceof FileAccessError)) throw e2;
      }
    }
  }
  return (name) => loaded.get(name.toLowerCase());
}

function pathResult(loaded: LoadedDocument, name: string, context: { wok?: WokLoader }, params: PathQueryParams): PathQueryResult {
  let surface;
  try {
    surface = pathSurfaceFor(loaded, name, context);
  } catch (e) {
    if (e instanceof ModelMappingError || isMalformedInputError(e)) throw new ServiceError('unreadable', `${name}: ${e.message}`);
    throw e;
  }
  const options: PathQueryOptions = {};
  if (params.tolerance !== undefined) options.tolerance = params.tolerance;
  if (params.walkmesh !== undefined) {
    const part = surface.findPart(params.walkmesh);
    if (!part) throw new ServiceError('invalid-params', `${name} has no walkmesh "${params.walkmesh}" (it has ${surface.parts.length})`, 'params.walkmesh');
    options.part = part.index;
  }
  const r = surface.findPath(params.from, params.to, options);
  return {
    found: r.found,
    length: r.length,
    points: r.points,
    facesCrossed: r.facesCrossed,
    nodeNoun: r.nodeNoun,
    corridor: r.corridor,
    method: r.method,
    start: r.start,
    end: r.end,
    reason: r.reason,
    code: r.code,
    breakEdges: r.breaks,
    unlinked: r.unlinked,
  };
}
