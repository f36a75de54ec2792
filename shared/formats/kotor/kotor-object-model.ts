import { isMalformedInputError } from '../../binary/malformed-input-error';
import { optInteger } from '../aurora/gff-fields';
import { readGff } from '../aurora/gff-reader';
import type { TwoDaTable } from '../aurora/twoda-table';

/** The 2DA that names the models of each kind of placed object (kotor-bwm.md §7.4). */
export const KOTOR_MODEL_TABLES = { placeable: 'placeables', door: 'genericdoors' } as const;

/**
 * The model a KotOR object template names: template (UTP/UTD) → `Appearance` → the
 * `modelname` cell of placeables.2da / genericdoors.2da. Its walkmeshes are `<model>.pwk`
 * and `<model>0..2.dwk`. An unreadable template, a missing row or `****` gives undefined:
 * the object simply has no known walkmesh.
 */
export function kotorTemplateModel(templateBytes: Uint8Array, table: TwoDaTable | null | undefined): string | undefined {
  if (!table) return undefined;
  let appearance: number;
  try {
    appearance = optInteger(readGff(templateBytes).root, 'Appearance', -1);
  } catch (e) {
    if (isMalformedInputError(e)) return undefined;
    throw e;
  }
  if (appearance < 0) return undefined;
  const model = table.cell(appearance, 'modelname')?.trim();
  return model && model !== '****' ? model.toLowerCase() : undefined;
}
