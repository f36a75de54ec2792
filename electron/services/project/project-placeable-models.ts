import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import type { PlaceableModel } from '../../../shared/bakers/nwn2/placeable-walkmesh';
import type { TwoDaTable } from '../../../shared/formats/aurora/twoda-table';
import { readTwoDaText } from '../../../shared/formats/aurora/twoda-text';
import { readMdbWalkmeshes } from '../../../shared/formats/nwn2/mdb-reader';
import type { PlaceableModelLookup } from '../../../shared/edits/nwn2-area-bake-job';
import { FileAccessError } from '../file-access';
import { MODEL_COLUMN } from '../nwn2-model-resolver';
import { ProjectGameResources } from './project-game-resources';
import type { ProjectStore } from './project-store';
import type { FileRecord } from './project-types';

/**
 * Placeable models from the project itself: placeables.2da (a `2da` file) names each
 * Appearance row's model, and the project's `mdb` files hold them. What is not in the
 * project is looked for in the project's NWN2 game folders (their override and Data
 * zips: project-game-resources.ts), the project coming first as a module does; what is in
 * neither is undefined, and the bake lists the placeable, with the model its row names
 * (`modelName`), as having no model.
 * Models are read once per lookup object; an MDB that cannot be read counts as missing.
 */
export function projectPlaceableModels(store: ProjectStore, module: string): PlaceableModelLookup {
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
  // The game folders are opened (listed) only when the project lacks something.
  let game: ProjectGameResources | undefined;
  const gameResources = () => (game ??= new ProjectGameResources(store));
  if (!table) {
    const hit = gameResources().find('placeables', '2da');
    if (hit) {
      try {
        table = readTwoDaText(hit.bytes);
      } catch (e) {
        if (!isMalformedInputError(e)) throw e;
      }
    }
  }
  const mdbs = new Map<string, FileRecord>();
  for (const f of files) if (f.kind === 'mdb' || /\.mdb$/i.test(f.name)) if (!mdbs.has(key(f.name)) || f.module === module) mdbs.set(key(f.name), f);
  const loaded = new Map<string, PlaceableModel | undefined>();
  const modelName = (appearance: number): string | undefined => table?.cell(appearance, MODEL_COLUMN)?.trim() || undefined;
  const lookup: PlaceableModelLookup = (appearance) => {
    const name = modelName(appearance);
    if (!name) return undefined;
    const k = name.toLowerCase();
    if (!loaded.has(k)) {
      const f = mdbs.get(k);
      let model: PlaceableModel | undefined;
      try {
        if (f) model = { name, walkmeshes: readMdbWalkmeshes(store.loadCurrentBytes(f)) };
        else {
          const hit = gameResources().find(name, 'mdb');
          if (hit) model = { name, walkmeshes: readMdbWalkmeshes(hit.bytes) };
        }
      } catch (e) {
        // A damaged MDB or archive entry, or a game file gone since the folder was listed:
        // the placeable counts as missing, and the bake's findings name its model.
        if (!isMalformedInputError(e) && !(e instanceof FileAccessError)) throw e;
      }
      loaded.set(k, model);
    }
    return loaded.get(k);
  };
  lookup.modelName = modelName;
  return lookup;
}

function key(fileName: string): string {
  return fileName.replace(/\.mdb$/i, '').toLowerCase();
}
