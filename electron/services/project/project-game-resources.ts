import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { FileAccessError } from '../file-access';
import { Nwn2GameResources, type Nwn2ResourceHit } from '../nwn2-game-resources';
import type { ProjectStore } from './project-store';

/**
 * The NWN2 installs among a project's game folders (`walkbench project create
 * --game-folder DIR`, the same table KotOR projects keep theirs in), opened as resource
 * sources for what the project itself lacks: placeables.2da rows and placeable MDBs from
 * the install's override and Data zips. Folders that are gone or are no NWN2 install are
 * left out and listed in `unusable` (the bake still names each placeable left without a
 * model). Nothing is read for projects of other games.
 */
export class ProjectGameResources {
  readonly unusable: { folder: string; reason: string }[] = [];
  private readonly installs: Nwn2GameResources[] = [];

  constructor(store: ProjectStore) {
    if (store.info().game !== 'nwn2') return;
    for (const { path, role } of store.listGameFolders()) {
      if (role !== 'game') continue;
      try {
        this.installs.push(Nwn2GameResources.open({ game: path, types: ['mdb', '2da'] }));
      } catch (e) {
        if (!(e instanceof FileAccessError) && !isMalformedInputError(e)) throw e;
        this.unusable.push({ folder: path, reason: e.message });
      }
    }
  }

  /** The first hit in the game folders, in the order the project lists them. */
  find(resRef: string, ext: string): Nwn2ResourceHit | undefined {
    for (const g of this.installs) {
      const hit = g.find(resRef, ext);
      if (hit) return hit;
    }
    return undefined;
  }

  get isEmpty(): boolean {
    return this.installs.length === 0;
  }
}
