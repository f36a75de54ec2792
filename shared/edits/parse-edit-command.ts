import type { EditCommand, EditKind } from './edit-command';
import { EditError } from './edit-error';

type FieldType = 'ints' | 'numbers' | 'number' | 'values' | 'boolean' | 'pair' | 'triple' | 'axis' | 'commands';

interface FieldSpec {
  type: FieldType;
  optional?: boolean;
}

const attributes = { walkable: { type: 'boolean', optional: true }, material: { type: 'number', optional: true }, owner: { type: 'number', optional: true } } as const;

/** The fields of each command: enough to apply it without a crash; ranges are the command's to check. */
const schema: Record<EditKind, Record<string, FieldSpec>> = {
  'set-face-attributes': { faces: { type: 'ints' }, walkable: { type: 'values', optional: true }, material: { type: 'values', optional: true }, owner: { type: 'values', optional: true } },
  'paint-faces': { faces: { type: 'ints' }, material: { type: 'number', optional: true }, setBits: { type: 'number', optional: true }, clearBits: { type: 'number', optional: true }, walkable: { type: 'boolean', optional: true } },
  'move-vertices': { vertices: { type: 'ints' }, positions: { type: 'numbers' } },
  'set-triangles': { faces: { type: 'ints' }, triangles: { type: 'ints' } },
  'delete-faces': { faces: { type: 'ints' } },
  'insert-faces': { at: { type: 'ints' }, triangles: { type: 'ints' }, walkable: { type: 'ints' }, material: { type: 'ints' }, owner: { type: 'ints' } },
  'append-vertices': { positions: { type: 'numbers' } },
  'truncate-vertices': { count: { type: 'number' } },
  'create-face': { vertices: { type: 'triple' }, ...attributes },
  'fill-hole': { edge: { type: 'pair' }, ...attributes },
  'split-edge': { edge: { type: 'pair' }, t: { type: 'number', optional: true } },
  'weld-vertices': { vertices: { type: 'ints' }, position: { type: 'triple', optional: true } },
  'flip-faces': { faces: { type: 'ints' } },
  'split-area': { area: { type: 'number' }, axis: { type: 'axis' }, at: { type: 'number' } },
  'merge-areas': { keep: { type: 'number' }, remove: { type: 'number' } },
  'create-face-at-point': { edge: { type: 'pair' }, point: { type: 'triple' }, ...attributes },
  'source-create-area': { rect: { type: 'numbers' }, heights: { type: 'numbers' }, attributes: { type: 'number', optional: true } },
  batch: { commands: { type: 'commands' } },
};

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isNumbers = (v: unknown): v is number[] => Array.isArray(v) && v.every(isNumber);

/**
 * An edit command from JSON (the project history, IPC), checked field by field so that a
 * damaged entry gives an error naming `where` and the field instead of a crash.
 */
export function parseEditCommand(value: unknown, where: string): EditCommand {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EditError('edit', `${where}: expected an edit command object, got ${JSON.stringify(value)?.slice(0, 80)}`);
  const record = value as Record<string, unknown>;
  const kind = record.kind;
  if (typeof kind !== 'string' || !Object.hasOwn(schema, kind)) throw new EditError('edit', `${where}: kind ${JSON.stringify(kind)} is not one of ${Object.keys(schema).join(', ')}`);
  const fields = schema[kind as EditKind];
  for (const [name, spec] of Object.entries(fields)) {
    const v = record[name];
    if (v === undefined) {
      if (spec.optional) continue;
      throw new EditError(kind, `${where}: field ${name} is missing`);
    }
    const ok =
      spec.type === 'ints' ? isNumbers(v) && v.every(Number.isInteger)
      : spec.type === 'numbers' ? isNumbers(v)
      : spec.type === 'number' ? isNumber(v)
      : spec.type === 'values' ? isNumber(v) || isNumbers(v)
      : spec.type === 'boolean' ? typeof v === 'boolean'
      : spec.type === 'pair' ? isNumbers(v) && v.length === 2
      : spec.type === 'triple' ? isNumbers(v) && v.length === 3
      : spec.type === 'axis' ? v === 'x' || v === 'y'
      : Array.isArray(v);
    if (!ok) throw new EditError(kind, `${where}: field ${name} is ${JSON.stringify(v)?.slice(0, 80)}, expected ${spec.type}`);
    if (spec.type === 'commands') (v as unknown[]).forEach((c, i) => parseEditCommand(c, `${where}.${name}[${i}]`));
  }
  return value as EditCommand;
}
