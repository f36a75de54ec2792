/**
 * Editing a project's files and previewing paths (contract methods `edits.*`, `path.query`).
 * Every edit is a command (shared/edits): the walkmesh commands of edit-command.ts, or the
 * document commands of document-edit-command.ts (connections, room links, cutters,
 * placeables, cover); the command's own parser checks it before it reaches a service.
 */
import type { DocumentEditCommand } from '../edits/document-edit-command';
import type { EditCommand } from '../edits/edit-command';
import { EditError } from '../edits/edit-error';
import { isDocumentEditKind, parseDocumentEditCommand } from '../edits/parse-document-edit-command';
import { parseEditCommand } from '../edits/parse-edit-command';
import type { FileReport } from '../formats/file-report';
import type { Walkmesh } from '../model/walkmesh';
import type { BreakEdge, NoPathCode, PathEnd, Point3, UnlinkedEdge } from '../pathing/path-result';
import type { Finding } from '../validation/finding';
import type { LineOverlay } from '../views/view-overlay';
import * as s from './schema';
import type { Schema } from './schema';
import { sessionSchema, type ProjectFileState } from './project-contract';

/** MAX_PATH_LENGTH of contract.ts, which imports this file. */
const MAX_PATH_LENGTH = 32_767;
/** Largest command accepted as JSON text (a stroke over a whole mesh stays far below). */
const MAX_COMMAND_CHARS = 16 * 1024 * 1024;

/**
 * Which project a call is about: `session`, the project open in the app (from its
 * `project.open` answer; refused once another project is opened), or `project`, a project
 * file named by its path (scripts and tests). One of the two is required: a call never
 * falls back to whatever project happens to be open.
 */
export interface ProjectParam {
  session?: string;
  project?: string;
}

/** Whether the reply may carry only what changed (see EditsOutcome.delta). */
export interface StepParams extends ProjectParam {
  delta?: boolean;
  /**
   * Undo or redo this file's edits (a tab's own, see ProjectFileView.undoScope); without
   * it, the project's latest edit whichever file it changed.
   */
  fileId?: number;
  /** The revision of fileId the page shows; the step is refused when the file changed since. */
  revision?: number;
}

export interface EditsApplyParams extends ProjectParam {
  delta?: boolean;
  fileId: number;
  /** The revision of the file the page shows; the edit is refused when the file changed since. */
  revision?: number;
  /** Which walkmesh of the file (a Skyrim plugin holds several); default 0. */
  mesh?: number;
  command: EditCommand | DocumentEditCommand;
}

export interface FixRoomLinkParams extends ProjectParam {
  /** The KotOR room (.wok) holding the one-sided link. */
  fileId: number;
  revision?: number;
  face: number;
  edge: number;
  /** `reciprocate` (default) links the other side back; `unlink` drops this side. */
  mode?: 'reciprocate' | 'unlink';
}

/** An NWN2 area baked again after a cutter or placeable edit. */
export interface AreaRebake {
  /** The project file of the area's TRN (or TRX) that was baked. */
  sourceFileId: number;
  walkmesh: Walkmesh;
  /** Wall-clock milliseconds of the bake, in its worker. */
  ms: number;
  /** Milliseconds from the edit to the finished bake (queueing and transfer included). */
  waitMs: number;
  cutters: number;
  /** Placeables whose models were not in the project, so they do not cut the walkmesh. */
  placeablesWithoutModel: number;
  tiles: number;
  /** Tiles whose path tables were unchanged and taken from the area's previous bake. */
  reusedTiles: number;
}

/** A re-bake an edit started in the background: fetch it with `edits.rebakeResult`. */
export interface PendingRebake {
  ticket: number;
  /** The project file of the area's TRN (or TRX) being baked. */
  sourceFileId: number;
}

export interface RebakeResultParams {
  session?: string;
  ticket: number;
}

export interface RebakeResult {
  ticket: number;
  /**
   * `superseded`: a later edit of the same area replaced this bake before it started (its
   * own ticket brings the area as it is now); `unknown`: no such ticket (or its result was
   * already fetched).
   */
  status: 'done' | 'superseded' | 'failed' | 'unknown';
  rebake: AreaRebake | null;
  /** What the bake says about the area (placeables without a model, slivers…). */
  findings: Finding[];
  /** The GIT's placements as baked (cutter outlines, placeable footprints), replacing those the area's tab shows. */
  overlays: LineOverlay[];
  error: string | null;
}

/**
 * What an edit changed when it changed no face's corners and added or removed nothing (a
 * paint stroke, a vertex move): the new values of the touched faces and vertices, so a
 * stroke over a large mesh does not send the whole mesh back.
 */
export interface EditsDelta {
  faces: Uint32Array;
  faceWalkable: Uint8Array;
  faceMaterial: Uint32Array;
  faceOwner: Uint32Array;
  vertices: Uint32Array;
  /** x, y, z per listed vertex. */
  positions: Float32Array;
}

export interface EditsOutcome {
  fileId: number;
  mesh: number;
  /** The history entry applied, undone or redone. */
  seq: number;
  label: string;
  /** The edited file's walkmeshes as they are now (empty for a GIT, and when `delta` is given). */
  walkmeshes: Walkmesh[];
  /** Asked for with `delta` and possible for this edit: the changes to walkmesh `mesh`. */
  delta: EditsDelta | null;
  /**
   * What `walkbench validate` says of the file's bytes as the project now holds them, with
   * the project's own findings about it (room links, edits that cannot be written); null
   * while the bytes are written behind (a paint, a move): `edits.report` brings it then.
   */
  report: FileReport | null;
  /** Every file the step changed (the edited one first), with its new revision and bake state. */
  files: ProjectFileState[];
  /** Other files the step changed (a link fixed on both sides). */
  changedFiles: number[];
  /**
   * Files whose report may have changed although their bytes did not: the other rooms of a
   * KotOR layout after a link or a corner changed (their links are checked against this
   * room). An open tab of one asks for its report again.
   */
  reportsChanged: number[];
  notes: string[];
  /**
   * What the designer must know now about the edit's effect elsewhere, e.g. an NWN2
   * area's TRX edits that its export will no longer carry once the GIT or TRN is edited.
   */
  warnings: string[];
  /** NWN2: after a GIT edit, the area's re-bake running in the background (when its TRN is in the project). */
  rebakePending: PendingRebake | null;
}

export interface ReportParams {
  session?: string;
  project?: string;
  fileId: number;
}

/** A project file's report as its bytes stand, once what was written behind is written. */
export interface FileReportResult {
  fileId: number;
  revision: number;
  report: FileReport;
  /** The file's state now (revision, edited, bake state, tools). */
  state: ProjectFileState;
  /**
   * The states of the files that follow it (an NWN2 area's TRX, TRN and GIT show one bake
   * state): its written bytes can end a "not written yet" state they showed too.
   */
  related: ProjectFileState[];
}

export interface HistoryEntry {
  seq: number;
  label: string;
  undone: boolean;
  createdAt: string;
  /** The files the entry changed. */
  files: { fileId: number; label: string }[];
}

export interface PathQueryParams extends ProjectParam {
  /** A project file (its edited bytes when it has edits)… */
  fileId?: number;
  /** …or a file on disk. */
  path?: string;
  from: Point3;
  to: Point3;
  /** The navmesh to start on, by index, id or name (files with several). */
  walkmesh?: string;
  /** How far a point off the surface may be moved onto it. */
  tolerance?: number;
}

export interface PathQueryResult {
  found: boolean;
  length: number | null;
  points: Point3[];
  facesCrossed: number;
  /** "faces" or "areas". */
  nodeNoun: string;
  corridor: number[];
  method: string;
  start: PathEnd | null;
  end: PathEnd | null;
  reason: string | null;
  code: NoPathCode | null;
  breakEdges: BreakEdge[];
  unlinked: UnlinkedEdge[];
}

const projectPath = s.optional(s.string({ minLength: 1, maxLength: MAX_PATH_LENGTH }));
const session = s.optional(sessionSchema);
const fileId = s.number({ min: 1, max: Number.MAX_SAFE_INTEGER, integer: true });
const revision = s.optional(s.number({ min: 0, max: Number.MAX_SAFE_INTEGER, integer: true }));
const coordinate = s.number({ min: -1e9, max: 1e9 });

/** A command: plain JSON, then checked by the parser of its kind (walkmesh or document edit). */
const commandSchema: Schema<EditCommand | DocumentEditCommand> = {
  description: 'an edit command ({ kind, … })',
  check(value, path) {
    let copy: unknown;
    try {
      const text = JSON.stringify(value);
      if (text === undefined || text.length > MAX_COMMAND_CHARS) return { ok: false, issue: { path, message: `must be a JSON edit command of at most ${MAX_COMMAND_CHARS} characters` } };
      copy = JSON.parse(text);
    } catch {
      return { ok: false, issue: { path, message: 'must be plain JSON (no cycles or bigints)' } };
    }
    try {
      const kind = (copy as { kind?: unknown } | null)?.kind;
      return { ok: true, value: isDocumentEditKind(kind) ? parseDocumentEditCommand(copy, path) : parseEditCommand(copy, path) };
    } catch (e) {
      if (e instanceof EditError) return { ok: false, issue: { path, message: e.message } };
      throw e;
    }
  },
};

const point: Schema<Point3> = {
  description: 'a point [x, y, z]',
  check(value, path) {
    if (!Array.isArray(value) || value.length !== 3) return { ok: false, issue: { path, message: 'expected a point [x, y, z]' } };
    const out: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = coordinate.check(value[i], `${path}[${i}]`);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return { ok: true, value: out as Point3 };
  },
};

export const editsApplySchema: Schema<EditsApplyParams> = s.object({
  session,
  project: projectPath,
  delta: s.optional(s.boolean()),
  fileId,
  revision,
  mesh: s.optional(s.number({ min: 0, max: 65_535, integer: true })),
  command: commandSchema,
});

export const fixRoomLinkSchema: Schema<FixRoomLinkParams> = s.object({
  session,
  project: projectPath,
  fileId,
  revision,
  face: s.number({ min: 0, max: 0x7fffffff, integer: true }),
  edge: s.number({ min: 0, max: 2, integer: true }),
  mode: s.optional(s.literal('reciprocate', 'unlink')),
});

export interface PlacementsParams extends ProjectParam {
  /** An NWN2 GIT of the project. */
  fileId: number;
}

/** What an NWN2 GIT places, as edited: what the cutter and placeable tools pick from. */
export interface GitPlacements {
  cutters: { index: number; tag: string | null; /** World x, y pairs. */ polygon: number[]; z: number }[];
  placeables: { index: number; tag: string | null; templateResRef: string | null; appearance: number; position: Point3; /** Degrees. */ bearing: number; walkable: boolean }[];
}

export const placementsSchema: Schema<PlacementsParams> = s.object({ session, project: projectPath, fileId });

/** Skyrim: "Check navmeshes" of a plugin of the project as edited (shared/edits/skyrim-navmesh-check.ts). */
export type SkyrimCheckParams = PlacementsParams;
export const skyrimCheckSchema: Schema<SkyrimCheckParams> = s.object({ session, project: projectPath, fileId });


export const rebakeResultSchema: Schema<RebakeResultParams> = s.object({ session, ticket: s.number({ min: 1, max: Number.MAX_SAFE_INTEGER, integer: true }) });

export const projectParamSchema: Schema<ProjectParam> = s.object({ session, project: projectPath });

export const stepParamsSchema: Schema<StepParams> = s.object({ session, project: projectPath, delta: s.optional(s.boolean()), fileId: s.optional(fileId), revision });

export const reportParamsSchema: Schema<ReportParams> = s.object({ session, project: projectPath, fileId });

export const pathQuerySchema: Schema<PathQueryParams> = s.object({
  session,
  project: projectPath,
  fileId: s.optional(fileId),
  path: s.optional(s.string({ minLength: 1, maxLength: MAX_PATH_LENGTH })),
  from: point,
  to: point,
  walkmesh: s.optional(s.string({ minLength: 1, maxLength: 256 })),
  tolerance: s.optional(s.number({ min: 0, max: 1e6 })),
});
