import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import type { PlaceableModel } from '../../../shared/bakers/nwn2/placeable-walkmesh';
import type { TwoDaTable } from '../../../shared/formats/aurora/twoda-table';
import { readTwoDaText } from '../../../shared/formats/aurora/twoda-text';
import { readMdbWalkmeshes } from '../../../shared/formats/nwn2/mdb-reader';
import { MODEL_COLUMN } from '../nwn2-model-resolver';
import type { ProjectStore } from './project-store';
import type { FileRecord } from './project-types';

/**
 * Placeable models from the project itself: placeables.2da (a `2da` file) names each
 * Appearance row's model, and the project's `mdb` files hold them. What is not in the
 * project is undefined, and the bake lists the placeable as having no model.
 * Models are read once per lookup object; an MDB that cannot be read counts as missing.
 */
export function projectPlaceableModels(store: ProjectStore, module: string): (appearance: number) => PlaceableModel | undefined {
  const files = store.listFiles();
  // The module's own table first, then any other module's (a shared 2DA module).
  const tables = files.filter((f) => f.kind === '2da' && f.name.toLowerCase() === 'placeables.2da').sort((a, b) => Number(b.module === module) - Number(a.module === module));
  let table: TwoDaTable | undefined;
  for (const t of tables) {
    try {
      table = readTwoDaText(store.loadCurrentBytes(t));
      break;
    } catch (e) {
      if (!isMalformedInputError(e)) throw e;
    }
  }
  const mdbs = new Map<string, FileRecord>();
  for (const f of files) if (f.kind === 'mdb' || /\.mdb$/i.test(f.name)) if (!mdbs.has(key(f.name)) || f.module === module) mdbs.set(key(f.name), f);
  const loaded = new Map<string, PlaceableModel | undefined>();
  return (appearance) => {
    const name = table?.cell(appearance, MODEL_COLUMN)?.trim();
    if (!name) return undefined;
    const k = name.toLowerCase();
    if (!loaded.has(k)) {
      const f = mdbs.get(k);
      let model: PlaceableModel | undefined;
      if (f) {
        try {
          model = { name, walkmeshes: readMdbWalkmeshes(store.loadCurrentBytes(f)) };
        } catch (e) {
          if (!isMalformedInputError(e)) throw e;
        }
      }
      loaded.set(k, model);
    }
    return loaded.get(k);
  };
}

function key(fileName: string): string {
  return fileName.replace(/\.mdb$/i, '').toLowerCase();
}
