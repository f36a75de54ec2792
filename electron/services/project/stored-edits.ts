import type { DocumentEditCommand } from '../../../shared/edits/document-edit-command';
import type { EditCommand } from '../../../shared/edits/edit-command';
import { parseDocumentEditCommand } from '../../../shared/edits/parse-document-edit-command';
import { parseEditCommand } from '../../../shared/edits/parse-edit-command';
import { ProjectFileError } from './project-file-error';

/** What the history stores for one walkmesh edit (the command, or its inverse). */
export interface StoredWalkmeshEdit {
  type: 'walkmesh-edit';
  v: 1;
  fileId: number;
  mesh: number;
  edit: EditCommand;
}

/** One file's part of a document edit. */
export interface DocumentEditPart {
  fileId: number;
  /** The walkmesh of the file whose face indices the command uses (KotOR), else 0. */
  mesh: number;
  edit: DocumentEditCommand;
}

/**
 * What the history stores for a document edit: one part per file, applied in order (a
 * KotOR link fixed on both sides changes two room files in one step).
 */
export interface StoredDocumentEdit {
  type: 'document-edit';
  v: 1;
  parts: DocumentEditPart[];
}

export type StoredEdit = StoredWalkmeshEdit | StoredDocumentEdit;

function typeOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
}

export function isStoredEdit(value: unknown): boolean {
  const t = typeOf(value);
  return t === 'walkmesh-edit' || t === 'document-edit';
}

/** A history entry from JSON, checked so that a damaged entry names `where` instead of crashing. */
export function parseStoredEdit(value: unknown, where: string): StoredEdit {
  try {
    if (typeOf(value) === 'document-edit') {
      const v = value as Partial<StoredDocumentEdit>;
      if (v.v !== 1 || !Array.isArray(v.parts) || v.parts.length === 0) throw new Error("not a document edit (expected { type: 'document-edit', v: 1, parts: [...] })");
      return {
        type: 'document-edit',
        v: 1,
        parts: v.parts.map((p: Partial<DocumentEditPart>, i) => {
          if (!Number.isInteger(p.fileId) || !Number.isInteger(p.mesh)) throw new Error(`parts[${i}]: expected { fileId, mesh, edit }`);
          return { fileId: p.fileId!, mesh: p.mesh!, edit: parseDocumentEditCommand(p.edit, `${where}.parts[${i}]`) };
        }),
      };
    }
    const v = value as Partial<StoredWalkmeshEdit> | null;
    if (typeOf(v) !== 'walkmesh-edit' || v!.v !== 1 || !Number.isInteger(v!.fileId) || !Number.isInteger(v!.mesh)) {
      throw new Error("not a walkmesh edit (expected { type: 'walkmesh-edit', v: 1, fileId, mesh, edit })");
    }
    return { type: 'walkmesh-edit', v: 1, fileId: v!.fileId!, mesh: v!.mesh!, edit: parseEditCommand(v!.edit, where) };
  } catch (e) {
    throw new ProjectFileError(where, e instanceof Error ? e.message : String(e));
  }
}

/** The files an entry changes. */
export function storedFiles(s: StoredEdit): number[] {
  return s.type === 'walkmesh-edit' ? [s.fileId] : [...new Set(s.parts.map((p) => p.fileId))];
}

/** A history label for a command, e.g. "Paint 12 faces". */
export function describeEdit(cmd: EditCommand): string {
  const faces = (n: number) => `${n} face${n === 1 ? '' : 's'}`;
  switch (cmd.kind) {
    case 'paint-faces':
    case 'set-face-attributes':
      return `Paint ${faces(cmd.faces.length)}`;
    case 'move-vertices':
      return `Move ${cmd.vertices.length} vertex${cmd.vertices.length === 1 ? '' : 'es'}`;
    case 'delete-faces':
      return `Delete ${faces(cmd.faces.length)}`;
    case 'insert-faces':
      return `Insert ${faces(cmd.at.length)}`;
    case 'create-face':
      return 'Create face';
    case 'fill-hole':
      return 'Fill hole';
    case 'split-edge':
      return 'Split edge';
    case 'weld-vertices':
      return `Weld ${cmd.vertices.length} vertices`;
    case 'flip-faces':
      return `Flip ${faces(cmd.faces.length)}`;
    case 'split-area':
      return `Split area ${cmd.area}`;
    case 'merge-areas':
      return `Merge area ${cmd.remove} into ${cmd.keep}`;
    case 'create-face-at-point':
      return 'Create triangle to a new point';
    case 'source-create-area':
      return 'Create area';
    default:
      return 'Edit walkmesh';
  }
}

const DIRECTIONS = ['north', 'east', 'south', 'west'];

/** A history label for a document edit, e.g. "Connect area 3 to 7 (north)". */
export function describeDocumentEdit(cmd: DocumentEditCommand): string {
  switch (cmd.kind) {
    case 'source-connect':
      return `Connect area ${cmd.from} to ${cmd.to} (${DIRECTIONS[cmd.direction] ?? cmd.direction}${cmd.twoWay ? ', both ways' : ''})`;
    case 'source-disconnect':
      return `Disconnect area ${cmd.from} from ${cmd.to} (${DIRECTIONS[cmd.direction] ?? cmd.direction}${cmd.twoWay ? ', both ways' : ''})`;
    case 'source-set-place': {
      const n = cmd.areas.length;
      const what = n === 1 ? `area ${cmd.areas[0]}` : `${n} areas`;
      return cmd.places !== undefined ? `Set the place of ${what}` : cmd.place === 0 ? `Clear the place of ${what}` : `Paint place ${cmd.place} on ${what}`;
    }
    case 'kotor-set-transition':
      return cmd.target < 0 ? `Unlink face ${cmd.face} edge ${cmd.edge}` : `Link face ${cmd.face} edge ${cmd.edge} to room ${cmd.target}`;
    case 'nwn2-add-cutter':
      return `Add walkmesh cutter (${cmd.polygon.length / 2} points)`;
    case 'nwn2-set-cutter':
      return `Reshape walkmesh cutter ${cmd.index}`;
    case 'nwn2-delete-cutter':
      return `Delete walkmesh cutter ${cmd.index}`;
    case 'nwn2-add-placeable':
      return 'Add placeable';
    case 'nwn2-move-placeable':
      return `Move placeable ${cmd.index}`;
    case 'nwn2-rotate-placeable':
      return `Rotate placeable ${cmd.index}`;
    case 'skyrim-set-triangle-flags':
      return `Set cover of ${cmd.triangles.length} triangle${cmd.triangles.length === 1 ? '' : 's'}`;
    case 'skyrim-link-edges':
      return `Link ${cmd.sides.length / 5} navmesh edge side(s)`;
    case 'skyrim-unlink-edges':
      return `Unlink ${cmd.sides.length / 3} navmesh edge side(s)`;
    case 'skyrim-finalize':
      return cmd.triangle !== undefined ? `Fix links of triangle ${cmd.triangle}` : 'Finalize navmeshes (link edges, door portals)';
    case 'skyrim-add-door-links':
      return `Add ${cmd.links.length / 3} door link(s)`;
    case 'skyrim-remove-door-links':
      return `Remove ${cmd.links.length / 3} door link(s)`;
    case 'source-add-ladder':
      return 'Add ladder';
    case 'source-remove-ladder':
      return `Remove ladder ${cmd.id}`;
    default:
      return 'Edit document';
  }
}
