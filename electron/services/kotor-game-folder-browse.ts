import path from 'node:path';
import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import { WOK_RESOURCE_TYPE } from '../../shared/formats/kotor/kotor-area';
import { readLyt } from '../../shared/formats/kotor/lyt-reader';
import type { ContractHandlers } from '../../shared/ipc/contract';
import { ServiceError } from '../../shared/ipc/rpc-error';
import { FileAccessError } from './file-access';
import { kotorModuleNames, openKotorModule, scanKotorGameFolder } from './kotor-game-folder';
import type { ProjectService } from './project-service';

/** Resource type of a layout (kotor-bwm.md §8.3). */
const LYT_RESOURCE_TYPE = 3000;

export type GameFolderBrowseHandlers = Pick<ContractHandlers, 'project.gameModules' | 'project.kotorModuleRooms'>;

const failure = (e: unknown): string | null => (e instanceof FileAccessError || isMalformedInputError(e) ? e.message : null);

/**
 * The KotOR modules a project's game folders hold, for the tree to browse before adding one
 * (issue 16 §4): folder listings only, then one module's capsules and LYT when it is opened.
 * Only the project's own game folders are read: a path the project does not name is
 * refused, so the page cannot make the service list arbitrary folders.
 */
export function createGameFolderBrowse(projects: Pick<ProjectService, 'openStore'>): GameFolderBrowseHandlers {
  return {
    'project.gameModules': async ({ session }) => {
      const store = projects.openStore(session, 'project.gameModules');
      if (store.info().game !== 'kotor') return { folders: [] };
      const folders = [];
      for (const f of store.listGameFolders()) {
        try {
          folders.push({ path: f.path, modules: kotorModuleNames(await scanKotorGameFolder(f.path)), error: null });
        } catch (e) {
          const why = failure(e);
          if (why === null) throw e;
          folders.push({ path: f.path, modules: [], error: why });
        }
      }
      return { folders };
    },
    'project.kotorModuleRooms': async ({ session, folder, module }) => {
      const store = projects.openStore(session, 'project.kotorModuleRooms');
      const known = store.listGameFolders().find((f) => path.resolve(f.path) === path.resolve(folder));
      if (!known) throw new ServiceError('invalid-params', `${folder} is not a game folder of this project`, 'params.folder');
      try {
        const scanned = await scanKotorGameFolder(known.path);
        if (!kotorModuleNames(scanned).includes(module.toLowerCase())) throw new ServiceError('not-found', `${known.path}: no module ${module} in its modules folder`, 'params.module');
        const { resolver } = await openKotorModule(scanned, module.toLowerCase());
        const lyt = resolver.resolve(module.toLowerCase(), LYT_RESOURCE_TYPE);
        if (!lyt) return { layout: null, rooms: [] };
        const layout = readLyt(lyt.data);
        return {
          layout: `${module.toLowerCase()}.lyt`,
          rooms: layout.rooms.map((r) => ({ name: r.name, walkmesh: resolver.resolve(r.name.toLowerCase(), WOK_RESOURCE_TYPE) !== undefined })),
        };
      } catch (e) {
        const why = failure(e);
        if (why === null) throw e;
        throw new ServiceError('unreadable', why, 'params.module');
      }
    },
  };
}
