import { GffType, type GffDocument, type GffField, type GffStruct } from '../formats/aurora/gff-document';
import { findField, gff, setField } from '../formats/aurora/gff-fields';
import { TRIGGER_TYPE_WALKMESH_CUTTER } from '../formats/aurora/nwn2-git';
import {
  GIT_PLACEABLE_LIST,
  GIT_TRIGGER_LIST,
  type DocumentEditCommand,
  type GitInsertStructCommand,
  type GitRemoveStructCommand,
  type GitReplaceStructCommand,
  type Nwn2AddCutterCommand,
  type Nwn2AddPlaceableCommand,
} from './document-edit-command';
import { EditError } from './edit-error';
import { gffStructFromJson, gffStructToJson } from './gff-struct-json';

/** Struct ids the toolset writes: a TriggerList entry, a Geometry point, a placeable. */
const TRIGGER_STRUCT = 1;
const POINT_STRUCT = 3;
const PLACEABLE_STRUCT = 9;

export type GitEditCommand = Extract<DocumentEditCommand, { kind: `git-${string}` | `nwn2-${string}` }>;

export interface GitEditResult {
  inverse: DocumentEditCommand;
  /** The list and index of the instance that changed (for the re-bake and the viewport). */
  list: string;
  index: number;
}

/**
 * Applies a cutter or placeable edit to a GIT in place. Every user-level edit reduces to
 * inserting, removing or replacing one struct of one list, whose inverse is exact: the
 * struct goes back as it was (its JSON holds float bit patterns), and the GFF writer
 * returns the file's own bytes once the tree is what was read. Structs that the edit does
 * not name are never touched, so the rest of the file is written unchanged.
 */
export function applyGitEdit(doc: GffDocument, cmd: GitEditCommand): GitEditResult {
  switch (cmd.kind) {
    case 'git-insert-struct':
      return insertStruct(doc, cmd);
    case 'git-remove-struct':
      return removeStruct(doc, cmd);
    case 'git-replace-struct':
      return replaceStruct(doc, cmd);
    case 'nwn2-add-cutter':
      return insertStruct(doc, { kind: 'git-insert-struct', list: GIT_TRIGGER_LIST, index: listOf(doc, GIT_TRIGGER_LIST, cmd.kind, true).length, struct: gffStructToJson(newCutter(cmd)) });
    case 'nwn2-set-cutter': {
      const t = cutterAt(doc, cmd.index, cmd.kind);
      const next = structuredCopy(t);
      setCutterPolygon(next, cmd.polygon, cmd.kind);
      return replaceWith(doc, GIT_TRIGGER_LIST, cmd.index, next, cmd.kind);
    }
    case 'nwn2-delete-cutter':
      cutterAt(doc, cmd.index, cmd.kind);
      return removeStruct(doc, { kind: 'git-remove-struct', list: GIT_TRIGGER_LIST, index: cmd.index });
    case 'nwn2-add-placeable':
      return insertStruct(doc, { kind: 'git-insert-struct', list: GIT_PLACEABLE_LIST, index: listOf(doc, GIT_PLACEABLE_LIST, cmd.kind, true).length, struct: gffStructToJson(newPlaceable(doc, cmd)) });
    case 'nwn2-move-placeable': {
      const next = structuredCopy(placeableAt(doc, cmd.index, cmd.kind));
      const [x, y, z] = checkPosition(cmd.position, cmd.kind, 'position');
      setFloat(next, 'X', x);
      setFloat(next, 'Y', y);
      setFloat(next, 'Z', z);
      return replaceWith(doc, GIT_PLACEABLE_LIST, cmd.index, next, cmd.kind);
    }
    case 'nwn2-rotate-placeable': {
      const next = structuredCopy(placeableAt(doc, cmd.index, cmd.kind));
      if (!Number.isFinite(cmd.bearing)) throw new EditError(cmd.kind, `bearing ${cmd.bearing} is not a finite number of radians`);
      setFloat(next, 'Bearing', cmd.bearing);
      return replaceWith(doc, GIT_PLACEABLE_LIST, cmd.index, next, cmd.kind);
    }
    default:
      throw new EditError(String((cmd as { kind?: unknown }).kind), 'not a GIT edit');
  }
}

/** The list field `label` of the root (created empty when `create` and absent). */
function listOf(doc: GffDocument, label: string, kind: string, create = false): GffStruct[] {
  const f = findField(doc.root, label);
  if (f === undefined) {
    if (!create) throw new EditError(kind, `the GIT has no ${label}`);
    return [];
  }
  if (f.type !== GffType.List) throw new EditError(kind, `the GIT's ${label} is a field of type ${f.type}, not a list`);
  return f.value;
}

function checkIndex(list: GffStruct[], index: number, label: string, kind: string, end: boolean): void {
  const max = end ? list.length : list.length - 1;
  if (!Number.isInteger(index) || index < 0 || index > max) throw new EditError(kind, `${label} has ${list.length} entries; index ${index} is out of range`);
}

function insertStruct(doc: GffDocument, cmd: GitInsertStructCommand): GitEditResult {
  const list = listOf(doc, cmd.list, cmd.kind, true);
  checkIndex(list, cmd.index, cmd.list, cmd.kind, true);
  const struct = gffStructFromJson(cmd.struct, `${cmd.kind}.struct`);
  if (findField(doc.root, cmd.list) === undefined) doc.root.fields.push(gff.list(cmd.list, list));
  list.splice(cmd.index, 0, struct);
  return { inverse: { kind: 'git-remove-struct', list: cmd.list, index: cmd.index }, list: cmd.list, index: cmd.index };
}

function removeStruct(doc: GffDocument, cmd: GitRemoveStructCommand): GitEditResult {
  const list = listOf(doc, cmd.list, cmd.kind);
  checkIndex(list, cmd.index, cmd.list, cmd.kind, false);
  const [old] = list.splice(cmd.index, 1);
  return { inverse: { kind: 'git-insert-struct', list: cmd.list, index: cmd.index, struct: gffStructToJson(old!) }, list: cmd.list, index: cmd.index };
}

function replaceStruct(doc: GffDocument, cmd: GitReplaceStructCommand): GitEditResult {
  return replaceWith(doc, cmd.list, cmd.index, gffStructFromJson(cmd.struct, `${cmd.kind}.struct`), cmd.kind);
}

function replaceWith(doc: GffDocument, label: string, index: number, next: GffStruct, kind: string): GitEditResult {
  const list = listOf(doc, label, kind);
  checkIndex(list, index, label, kind, false);
  const old = list[index]!;
  list[index] = next;
  return { inverse: { kind: 'git-replace-struct', list: label, index, struct: gffStructToJson(old) }, list: label, index };
}

/** A deep copy through the exact JSON form, so the stored instance is never shared. */
function structuredCopy(s: GffStruct): GffStruct {
  return gffStructFromJson(gffStructToJson(s), 'copy');
}

function cutterAt(doc: GffDocument, index: number, kind: string): GffStruct {
  const list = listOf(doc, GIT_TRIGGER_LIST, kind);
  checkIndex(list, index, GIT_TRIGGER_LIST, kind, false);
  const t = list[index]!;
  const type = findField(t, 'Type');
  if (type === undefined || type.value !== TRIGGER_TYPE_WALKMESH_CUTTER) {
    throw new EditError(kind, `${GIT_TRIGGER_LIST}[${index}] is not a walkmesh cutter (Type ${type ? String(type.value) : 'missing'}, expected ${TRIGGER_TYPE_WALKMESH_CUTTER})`);
  }
  return t;
}

function placeableAt(doc: GffDocument, index: number, kind: string): GffStruct {
  const list = listOf(doc, GIT_PLACEABLE_LIST, kind);
  checkIndex(list, index, GIT_PLACEABLE_LIST, kind, false);
  return list[index]!;
}

function checkPolygon(polygon: readonly number[], kind: string): void {
  if (!Array.isArray(polygon) || polygon.length % 2 !== 0 || polygon.length < 6) {
    throw new EditError(kind, `polygon has ${Array.isArray(polygon) ? polygon.length : 0} numbers; expected x, y pairs of at least 3 points`);
  }
  polygon.forEach((v, i) => {
    if (!Number.isFinite(v) || Math.abs(v) > 1e6) throw new EditError(kind, `polygon[${i}] is ${v}, not a coordinate`);
  });
}

function checkPosition(p: readonly number[], kind: string, field: string): [number, number, number] {
  if (!Array.isArray(p) || p.length !== 3 || !p.every((v) => Number.isFinite(v) && Math.abs(v) <= 1e6)) {
    throw new EditError(kind, `${field} is ${JSON.stringify(p)}, expected [x, y, z]`);
  }
  return [p[0]!, p[1]!, p[2]!];
}

/** Keeps a float field's type (Float) and place, or appends it. */
function setFloat(s: GffStruct, label: string, value: number): void {
  setField(s, gff.float(label, Math.fround(value)));
}

/**
 * The polygon relative to the trigger's position, as the toolset stores it: the first
 * point is the position itself (spec §5.4: every community cutter starts at (0,0)).
 */
function setCutterPolygon(t: GffStruct, polygon: readonly number[], kind: string): void {
  checkPolygon(polygon, kind);
  const x0 = Math.fround(polygon[0]!);
  const y0 = Math.fround(polygon[1]!);
  setFloat(t, 'XPosition', x0);
  setFloat(t, 'YPosition', y0);
  const old = findField(t, 'Geometry');
  const template = old?.type === GffType.List ? old.value[0] : undefined;
  const points: GffStruct[] = [];
  for (let i = 0; i < polygon.length; i += 2) {
    const p: GffStruct = { type: template?.type ?? POINT_STRUCT, fields: [] };
    p.fields.push(gff.float('PointX', Math.fround(polygon[i]! - x0)), gff.float('PointY', Math.fround(polygon[i + 1]! - y0)), gff.float('PointZ', 0));
    points.push(p);
  }
  setField(t, gff.list('Geometry', points));
}

function newCutter(cmd: Nwn2AddCutterCommand): GffStruct {
  const z = cmd.z ?? 0;
  if (!Number.isFinite(z)) throw new EditError(cmd.kind, `z ${z} is not a number`);
  const fields: GffField[] = [
    gff.exoString('Tag', cmd.tag ?? 'WalkmeshCutter'),
    gff.resRef('TemplateResRef', 'walkmeshcutter'),
    gff.int('Type', TRIGGER_TYPE_WALKMESH_CUTTER),
    gff.float('XPosition', 0),
    gff.float('YPosition', 0),
    gff.float('ZPosition', Math.fround(z)),
    gff.float('XOrientation', 0),
    gff.float('YOrientation', 0),
    gff.float('ZOrientation', 0),
  ];
  const t: GffStruct = { type: TRIGGER_STRUCT, fields };
  setCutterPolygon(t, cmd.polygon, cmd.kind);
  return t;
}

function newPlaceable(doc: GffDocument, cmd: Nwn2AddPlaceableCommand): GffStruct {
  const [x, y, z] = checkPosition(cmd.position, cmd.kind, 'position');
  let p: GffStruct;
  if (cmd.copyOf !== undefined) p = structuredCopy(placeableAt(doc, cmd.copyOf, cmd.kind));
  else {
    if (cmd.appearance === undefined || !Number.isInteger(cmd.appearance) || cmd.appearance < 0) {
      throw new EditError(cmd.kind, 'give copyOf (a placeable to copy) or appearance (a placeables.2da row)');
    }
    p = { type: PLACEABLE_STRUCT, fields: [gff.resRef('TemplateResRef', cmd.templateResRef ?? ''), gff.dword('Appearance', cmd.appearance)] };
  }
  if (cmd.appearance !== undefined) setField(p, gff.dword('Appearance', cmd.appearance));
  if (cmd.templateResRef !== undefined) setField(p, gff.resRef('TemplateResRef', cmd.templateResRef));
  if (cmd.tag !== undefined) setField(p, gff.exoString('Tag', cmd.tag));
  setFloat(p, 'X', x);
  setFloat(p, 'Y', y);
  setFloat(p, 'Z', z);
  setFloat(p, 'Bearing', cmd.bearing ?? 0);
  if (!Number.isFinite(cmd.bearing ?? 0)) throw new EditError(cmd.kind, `bearing ${cmd.bearing} is not a number`);
  return p;
}
