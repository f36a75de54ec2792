import { navGates } from '../formats/source/nav-layout';
import type { NavDocument } from '../formats/source/nav-document';
import type { SourceSetPlaceCommand } from './document-edit-command';
import { EditError } from './edit-error';

/**
 * Source: paints a place (callout) onto areas. Only the areas' 1-based place index column
 * changes (0 = no place); the place directory, every other column and so every other byte
 * of the file are kept, so the edit undoes exactly by putting the old indices back.
 */
export function applySourceSetPlace(doc: NavDocument, cmd: SourceSetPlaceCommand): { doc: NavDocument; inverse: SourceSetPlaceCommand } {
  const kind = cmd.kind;
  if (!navGates.place(doc.version)) throw new EditError(kind, `a version ${doc.version} .nav stores no place per area (places start at version 5)`);
  if (!Array.isArray(cmd.areas) || cmd.areas.length === 0) throw new EditError(kind, 'areas must name at least one area ID');
  const places = cmd.places ?? cmd.areas.map(() => cmd.place ?? -1);
  if (places.length !== cmd.areas.length) throw new EditError(kind, `places has ${places.length} entries for ${cmd.areas.length} areas`);
  const A = doc.areas;
  // Area IDs to rows through one map: an edit may name every area of a large map.
  const row = new Map<number, number>();
  for (let a = 0; a < A.count; a++) if (!row.has(A.id[a]!)) row.set(A.id[a]!, a);
  const column = A.place.slice();
  const old: number[] = [];
  const seen = new Set<number>();
  cmd.areas.forEach((id, i) => {
    const p = places[i]!;
    if (!Number.isInteger(p) || p < 0 || p > doc.places.count) {
      throw new EditError(kind, `place ${p} is not 0 (none) or a place of the map's directory (1..${doc.places.count})`);
    }
    const a = row.get(id);
    if (a === undefined) throw new EditError(kind, `the .nav has no area ${id}`);
    if (seen.has(id)) throw new EditError(kind, `area ${id} is named twice`);
    seen.add(id);
    old.push(column[a]!);
    column[a] = p;
  });
  return {
    doc: { ...doc, areas: { ...A, place: column } },
    inverse: { kind, areas: cmd.areas.slice(), places: old },
  };
}
