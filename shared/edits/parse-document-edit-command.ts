import type { DocumentEditCommand, DocumentEditKind } from './document-edit-command';
import { EditError } from './edit-error';

type FieldType = 'int' | 'number' | 'numbers' | 'ints' | 'boolean' | 'string' | 'triple' | 'struct' | 'commands';

interface FieldSpec {
  type: FieldType;
  optional?: boolean;
}

const req = (type: FieldType): FieldSpec => ({ type });
const opt = (type: FieldType): FieldSpec => ({ type, optional: true });

/** The fields of each document command: enough to apply it without a crash; ranges are the command's to check. */
const schema: Record<DocumentEditKind, Record<string, FieldSpec>> = {
  'source-connect': { from: req('int'), to: req('int'), direction: req('int'), index: opt('int'), twoWay: opt('boolean') },
  'source-disconnect': { from: req('int'), to: req('int'), direction: req('int'), twoWay: opt('boolean') },
  'source-set-place': { areas: req('ints'), place: opt('int'), places: opt('ints') },
  'kotor-set-transition': { face: req('int'), edge: req('int'), target: req('int') },
  'git-insert-struct': { list: req('string'), index: req('int'), struct: req('struct') },
  'git-remove-struct': { list: req('string'), index: req('int') },
  'git-replace-struct': { list: req('string'), index: req('int'), struct: req('struct') },
  'nwn2-add-cutter': { polygon: req('numbers'), z: opt('number'), tag: opt('string') },
  'nwn2-set-cutter': { index: req('int'), polygon: req('numbers') },
  'nwn2-delete-cutter': { index: req('int') },
  'nwn2-add-placeable': { copyOf: opt('int'), appearance: opt('int'), templateResRef: opt('string'), tag: opt('string'), position: req('triple'), bearing: opt('number') },
  'nwn2-move-placeable': { index: req('int'), position: req('triple') },
  'nwn2-rotate-placeable': { index: req('int'), bearing: req('number') },
  'skyrim-set-triangle-flags': { navmesh: req('int'), triangles: req('ints'), flags: opt('ints'), cover: opt('ints') },
  'skyrim-link-edges': { sides: req('ints') },
  'skyrim-unlink-edges': { sides: req('ints') },
  'skyrim-finalize': { navmeshes: opt('ints'), triangle: opt('int') },
  'skyrim-add-door-links': { links: req('ints'), at: opt('ints') },
  'skyrim-remove-door-links': { links: req('ints'), keep: opt('ints') },
  'source-add-ladder': { top: req('triple'), bottom: req('triple'), width: req('number'), direction: opt('int'), topArea: opt('int'), bottomArea: opt('int'), topOtherAreas: opt('ints'), length: opt('number'), id: opt('int'), index: opt('int') },
  'source-remove-ladder': { id: req('int') },
  'document-batch': { commands: req('commands') },
};

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isNumbers = (v: unknown): v is number[] => Array.isArray(v) && v.every(isNumber);

export function isDocumentEditKind(kind: unknown): kind is DocumentEditKind {
  return typeof kind === 'string' && Object.hasOwn(schema, kind);
}

/**
 * A document edit command from JSON (the project history, IPC), checked field by field;
 * unknown fields are refused so that a typo is an error rather than an ignored value.
 */
export function parseDocumentEditCommand(value: unknown, where: string): DocumentEditCommand {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EditError('edit', `${where}: expected a document edit object, got ${JSON.stringify(value)?.slice(0, 80)}`);
  const record = value as Record<string, unknown>;
  const kind = record.kind;
  if (!isDocumentEditKind(kind)) throw new EditError('edit', `${where}: kind ${JSON.stringify(kind)} is not one of ${Object.keys(schema).join(', ')}`);
  const fields = schema[kind];
  for (const name of Object.keys(record)) {
    if (name !== 'kind' && !Object.hasOwn(fields, name)) throw new EditError(kind, `${where}: ${name} is not a field of ${kind}`);
  }
  for (const [name, spec] of Object.entries(fields)) {
    const v = record[name];
    if (v === undefined) {
      if (spec.optional) continue;
      throw new EditError(kind, `${where}: field ${name} is missing`);
    }
    const ok =
      spec.type === 'int' ? isNumber(v) && Number.isInteger(v)
      : spec.type === 'number' ? isNumber(v)
      : spec.type === 'numbers' ? isNumbers(v)
      : spec.type === 'ints' ? isNumbers(v) && v.every(Number.isInteger)
      : spec.type === 'boolean' ? typeof v === 'boolean'
      : spec.type === 'string' ? typeof v === 'string' && v.length <= 1024
      : spec.type === 'triple' ? isNumbers(v) && v.length === 3
      : spec.type === 'struct' ? typeof v === 'object' && v !== null && !Array.isArray(v)
      : Array.isArray(v);
    if (!ok) throw new EditError(kind, `${where}: field ${name} is ${JSON.stringify(v)?.slice(0, 80)}, expected ${spec.type}`);
    if (spec.type === 'commands') (v as unknown[]).forEach((c, i) => parseDocumentEditCommand(c, `${where}.${name}[${i}]`));
  }
  return value as DocumentEditCommand;
}
