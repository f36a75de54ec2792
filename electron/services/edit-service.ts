import path from 'node:path';
import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import type { DocumentEditCommand } from '../../shared/edits/document-edit-command';
import type { EditCommand } from '../../shared/edits/edit-command';
import { EditError } from '../../shared/edits/edit-error';
import { meshEdgeOfRow, perimeterRow } from '../../shared/edits/kotor-transitions';
import { rebakeNwn2Area } from '../../shared/edits/nwn2-area-rebake';
import { isDocumentEditKind } from '../../shared/edits/parse-document-edit-command';
import type { GffDocument } from '../../shared/formats/aurora/gff-document';
import { loadDocument, UnknownFormatError, type LoadedDocument } from '../../shared/formats/inspect-file';
import { BWM_FORMAT, type BwmDocument } from '../../shared/formats/kotor/bwm-document';
import { areaFromDocuments, type KotorArea, type WokLoader } from '../../shared/formats/kotor/kotor-area';
import { checkRoomLinks, fixOneSidedLink } from '../../shared/formats/kotor/kotor-room-links';
import { LYT_FORMAT, type LytDocument } from '../../shared/formats/kotor/lyt-document';
import { readLyt } from '../../shared/formats/kotor/lyt-reader';
import { readTrx } from '../../shared/formats/nwn2/trx-reader';
import type { AreaRebake, EditsApplyParams, EditsDelta, EditsOutcome, FixRoomLinkParams, HistoryEntry, PathQueryParams, PathQueryResult, ProjectParam, StepParams } from '../../shared/ipc/edits-contract';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { ModelMappingError } from '../../shared/model/model-mapping-error';
import { pathSurfaceFor } from '../../shared/pathing/path-for-document';
import type { PathQueryOptions } from '../../shared/pathing/path-surface';
import type { Walkmesh } from '../../shared/model/walkmesh';
import { copyWalkmesh } from '../../shared/edits/walkmesh-copy';
import type { Finding } from '../../shared/validation/finding';
import { FileAccessError, readBytes } from './file-access';
import { nodeFormatEnvironment as env } from './node-format-environment';
import { ProjectEdits, type EditOutcome } from './project/project-edits';
import { ProjectFileError } from './project/project-file-error';
import { projectPlaceableModels } from './project/project-placeable-models';
import { ProjectStore } from './project/project-store';
import type { FileRecord } from './project/project-types';

export interface EditServiceOptions {
  /** The project open in the app (the edits default to it), or null. */
  currentProject(): string | null;
}

export interface EditService {
  handlers: {
    'edits.apply': (params: EditsApplyParams) => Promise<EditsOutcome>;
    'edits.fixRoomLink': (params: FixRoomLinkParams) => Promise<EditsOutcome>;
    'edits.undo': (params: StepParams) => Promise<{ outcome: EditsOutcome | null }>;
    'edits.redo': (params: StepParams) => Promise<{ outcome: EditsOutcome | null }>;
    'edits.history': (params: ProjectParam) => Promise<{ entries: HistoryEntry[] }>;
    'path.query': (params: PathQueryParams) => Promise<PathQueryResult>;
  };
  /**
   * The walkmeshes of an edited file of the open project as the edits hold them (the
   * original model with the history replayed). The app must show these, not the saved
   * bytes read again: a format's writer may reorder faces (KotOR: walkable first), and the
   * next edit names faces and vertices of this model.
   */
  editedWalkmeshes(fileId: number): Walkmesh[] | undefined;
  close(): void;
}

interface OpenProject {
  file: string;
  store: ProjectStore;
  edits: ProjectEdits;
}

/**
 * Edits and path preview for the app (contract methods `edits.*`, `path.query`), in plain
 * Node. It keeps its own handle on the project file the app has open (the project service
 * owns the tree's); both see every committed change, as SQLite readers do. An edit's reply
 * carries what the viewport and the findings panel need: the edited walkmeshes, their
 * findings, the document's own findings (connections, room links) and, after a cutter or
 * placeable edit, the NWN2 area baked again.
 */
export function createEditService(options: EditServiceOptions): EditService {
  let open: OpenProject | null = null;

  function project(params: ProjectParam): OpenProject {
    const file = params.project ?? options.currentProject();
    if (!file) throw new ServiceError('not-found', 'no project is open: open one first (project.open) or name it (params.project)');
    if (!path.isAbsolute(file)) throw new ServiceError('invalid-params', `params.project must be an absolute path, not ${JSON.stringify(file)}`, 'params.project');
    if (open?.file === file) return open;
    let store: ProjectStore;
    try {
      store = ProjectStore.open(file);
    } catch (e) {
      if (e instanceof ProjectFileError) throw new ServiceError(/no such/.test(e.message) ? 'not-found' : 'unreadable', e.message);
      throw e;
    }
    open?.store.close();
    open = { file, store, edits: new ProjectEdits(store, env) };
    return open;
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

  function outcome(p: OpenProject, o: EditOutcome, wantDelta = false): EditsOutcome {
    const r = record(p, o.fileId);
    const delta = wantDelta && o.result && !o.result.topology ? deltaOf(p.edits.meshes(o.fileId)[o.mesh]!, o.result.affectedFaces, o.result.affectedVertices) : null;
    const documentFindings: Finding[] = [...(o.documentFindings ?? [])];
    let rebake: AreaRebake | null = null;
    if (r.kind === 'git') {
      const baked = rebakeArea(p, r);
      if (baked) {
        rebake = baked.rebake;
        documentFindings.push(...baked.findings);
      }
    }
    // A moved vertex can open or close a seam as much as a changed transition can.
    if (isRoomWalkmesh(r)) documentFindings.push(...roomLinkFindings(p, r));
    return {
      fileId: o.fileId,
      mesh: o.mesh,
      seq: o.seq,
      label: o.label,
      walkmeshes: r.kind === 'walkmesh' && !delta ? [...p.edits.meshes(o.fileId)] : [],
      delta,
      findings: o.findings,
      documentFindings,
      changedFiles: (o.others ?? []).map((x) => x.fileId),
      notes: o.notes ?? [],
      rebake,
    };
  }

  /** The area's TRN (else TRX) baked with the GIT as edited; null when the project has neither. */
  function rebakeArea(p: OpenProject, git: FileRecord): { rebake: AreaRebake; findings: Finding[] } | null {
    const same = (f: FileRecord) => f.module === git.module && f.area === git.area && f.name.replace(/\.[^.]*$/, '').toLowerCase() === git.name.replace(/\.[^.]*$/, '').toLowerCase();
    const candidates = p.store.listFiles({ module: git.module }).filter(same);
    const source = candidates.find((f) => f.kind === 'trn') ?? candidates.find((f) => /\.trn$/i.test(f.name)) ?? candidates.find((f) => /\.trx$/i.test(f.name));
    if (!source) return null;
    const trn = readProjectFile(p, source, (b) => readTrx(b, env));
    try {
      const r = rebakeNwn2Area(trn, p.edits.document(git.id) as GffDocument, source.name, projectPlaceableModels(p.store, git.module));
      return { rebake: { sourceFileId: source.id, walkmesh: r.walkmesh, ms: r.ms, cutters: r.cutters, placeablesWithoutModel: r.placeablesWithoutModel }, findings: r.findings };
    } catch (e) {
      if (e instanceof ModelMappingError) throw new ServiceError('invalid-params', `${git.module}/${source.name} cannot be baked with this GIT: ${e.message}`, 'params.command');
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
    return (f.edited ? p.store.loadEdit(f.id)?.bytes : undefined) ?? p.store.loadFileBytes(f.id);
  }

  /** The KotOR area of a room file: its module's LYT with every room's walkmesh as edited. */
  function kotorArea(p: OpenProject, room: FileRecord): { area: KotorArea; files: Map<number, FileRecord> } | undefined {
    const lyts = p.store.listFiles({ module: room.module, kind: 'lyt' });
    const lyt = lyts.find((l) => l.area === room.area) ?? lyts[0];
    if (!lyt) return undefined;
    const layout = readProjectFile(p, lyt, (b) => readLyt(b));
    const docs = new Map<string, BwmDocument>();
    const files = new Map<number, FileRecord>();
    for (const f of p.store.listFiles({ module: room.module, kind: 'walkmesh' })) {
      if (!isRoomWalkmesh(f)) continue;
      const name = f.name.replace(/\.wok$/i, '').toLowerCase();
      const index = layout.rooms.findIndex((r) => r.name.toLowerCase() === name);
      if (index < 0) continue;
      docs.set(name, p.edits.document(f.id) as BwmDocument);
      files.set(index, f);
    }
    return { area: areaFromDocuments(layout, docs), files };
  }

  function roomLinkFindings(p: OpenProject, room: FileRecord): Finding[] {
    const found = kotorArea(p, room);
    return found ? checkRoomLinks(found.area) : [];
  }

  /** A path on a project file as it is now (its edited bytes when it has edits). */
  function queryProjectPath(params: PathQueryParams & { fileId: number }): PathQueryResult {
    const p = project(params);
    const f = record(p, params.fileId);
    const loaded = readProjectFile(p, f, (b) => loadDocument(f.name, b, env));
    const context = loaded.handler.id === LYT_FORMAT ? { wok: projectWoks(p, f) } : {};
    return pathResult(loaded, f.name.replace(/\.[^.]*$/, ''), context, params);
  }

  function projectWoks(p: OpenProject, lyt: FileRecord): WokLoader {
    const byName = new Map<string, FileRecord>();
    for (const f of p.store.listFiles({ module: lyt.module, kind: 'walkmesh' })) if (isRoomWalkmesh(f)) byName.set(f.name.replace(/\.wok$/i, '').toLowerCase(), f);
    return (room) => {
      const f = byName.get(room.toLowerCase());
      return f ? currentBytes(p, f) : undefined;
    };
  }

  return {
    handlers: {
      'edits.apply': async (params) => {
        const p = project(params);
        const f = record(p, params.fileId);
        const mesh = params.mesh ?? 0;
        return editing(() => {
          const cmd = params.command;
          const o = isDocumentEditKind(cmd.kind)
            ? p.edits.applyDocument(f.id, mesh, cmd as DocumentEditCommand)
            : p.edits.apply(f.id, mesh, cmd as EditCommand);
          return outcome(p, o, params.delta);
        });
      },
      'edits.fixRoomLink': async (params) => {
        const p = project(params);
        const room = record(p, params.fileId);
        if (!isRoomWalkmesh(room)) throw new ServiceError('invalid-params', `${room.module}/${room.name} is not a KotOR room walkmesh (.wok)`, 'params.fileId');
        return editing(() => {
          const found = kotorArea(p, room);
          if (!found) throw new EditError('fix-room-link', `${room.module} has no .lyt in the project, so the room's neighbours are not known`);
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
          return outcome(p, p.edits.applyDocumentParts(parts, label));
        });
      },
      'edits.undo': async (params) => {
        const p = project(params);
        return editing(() => {
          const o = p.edits.undo();
          return { outcome: o ? outcome(p, o, params.delta) : null };
        });
      },
      'edits.redo': async (params) => {
        const p = project(params);
        return editing(() => {
          const o = p.edits.redo();
          return { outcome: o ? outcome(p, o, params.delta) : null };
        });
      },
      'edits.history': async (params) => ({ entries: project(params).edits.history() }),
      'path.query': async (params) => {
        if ((params.fileId === undefined) === (params.path === undefined)) {
          throw new ServiceError('invalid-params', 'give either params.fileId (a project file) or params.path (a file on disk)', 'params.fileId');
        }
        return params.fileId !== undefined ? queryProjectPath({ ...params, fileId: params.fileId }) : queryDiskPath(params.path!, params);
      },
    },
    editedWalkmeshes(fileId) {
      if (!options.currentProject()) return undefined;
      const p = project({});
      // Copies: the renderer gets a snapshot, the model stays the service's.
      return editing(() => p.edits.meshes(fileId).map(copyWalkmesh));
    },
    close() {
      open?.store.close();
      open = null;
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
