import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import type { PlaceableModel } from '../../../shared/bakers/nwn2/placeable-walkmesh';
import type { TwoDaTable } from '../../../shared/formats/aurora/twoda-table';
import { readTwoDaText } from '../../../shared/formats/aurora/twoda-text';
import { readMdbWalkmeshes } from '../../../shared/formats/nwn2/mdb-reader';
import type { PlaceableModelLookup } from '../../../shared/edits/nwn2-area-bake-job';
import { doorModelName, type DoorModelLookup } from '../../../shared/bakers/nwn2/door-walkmesh';
import type { GitDoor } from '../../../shared/formats/aurora/nwn2-git';
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
 * Doors (`lookup.door`) are found the same way through doortypes.2da / genericdoors.2da.
 */
export function projectPlaceableModels(store: ProjectStore, module: string): PlaceableModelLookup {
  const files = store.listFiles();
  // The game folders are opened (listed) only when the project lacks something.
  let game: ProjectGameResources | undefined;
  const gameResources = () => (game ??= new ProjectGameResources(store));
  const twoDa = projectTwoDa(store, module, gameResources);
  const table = twoDa('placeables');
  const mdbs = new Map<string, FileRecord>();
  for (const f of files) if (f.kind === 'mdb' || /\.mdb$/i.test(f.name)) if (!mdbs.has(key(f.name)) || f.module === module) mdbs.set(key(f.name), f);
  const loaded = new Map<string, PlaceableModel | undefined>();
  const modelName = (appearance: number): string | undefined => table?.cell(appearance, MODEL_COLUMN)?.trim() || undefined;
  const model = (name: string): PlaceableModel | undefined => {
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
  const lookup: PlaceableModelLookup = (appearance) => {
    const name = modelName(appearance);
    return name ? model(name) : undefined;
  };
  lookup.modelName = modelName;
  // Doors as the game finds them (door-walkmesh.ts): doortypes.2da or genericdoors.2da
  // row, the model it names, from the project or its game folders like a placeable's.
  lookup.door = (door: GitDoor): DoorModelLookup => {
    const doortypes = door.appearance !== 0 ? twoDa('doortypes') : undefined;
    const genericdoors = door.appearance === 0 ? twoDa('genericdoors') : undefined;
    const found = doorModelName(door, { ...(doortypes ? { doortypes } : {}), ...(genericdoors ? { genericdoors } : {}) });
    const m = found.modelName ? model(found.modelName) : undefined;
    return { ...found, ...(m ? { model: m } : {}), ...(found.modelName && !m ? { reason: `model ${found.modelName} is not in the project or its game folders` } : {}) };
  };
  return lookup;
}

/**
 * A game table by name as the bake finds it: the module's own `2da` file first, then any
 * other module's (a shared 2DA module), then the project's game folders' (override, Data
 * zips). Each table is read once; one that does not read counts as absent.
 */
export function projectTwoDa(store: ProjectStore, module: string, gameResources: () => ProjectGameResources = lazyGameResources(store)): (name: string) => TwoDaTable | undefined {
  const files = store.listFiles();
  const tableCache = new Map<string, TwoDaTable | undefined>();
  return (name: string): TwoDaTable | undefined => {
    if (tableCache.has(name)) return tableCache.get(name);
    const file = `${name}.2da`;
    const candidates = files.filter((f) => f.kind === '2da' && f.name.toLowerCase() === file).sort((a, b) => Number(b.module === module) - Number(a.module === module));
    let found: TwoDaTable | undefined;
    for (const t of candidates) {
      try {
        found = readTwoDaText(store.loadCurrentBytes(t));
        break;
      } catch (e) {
        if (!isMalformedInputError(e)) throw e;
      }
    }
    if (!found) {
      const hit = gameResources().find(name, '2da');
      if (hit) {
        try {
          found = readTwoDaText(hit.bytes);
        } catch (e) {
          if (!isMalformedInputError(e)) throw e;
        }
      }
    }
    tableCache.set(name, found);
    return found;
  };
}

function lazyGameResources(store: ProjectStore): () => ProjectGameResources {
  let game: ProjectGameResources | undefined;
  return () => (game ??= new ProjectGameResources(store));
}

function key(fileName: string): string {
  return fileName.replace(/\.mdb$/i, '').toLowerCase();
}
