import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { importSources } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import type { GameId } from '../../shared/model/walkmesh';
import { fixturesRoot } from '../support/fixtures';
import { BLACK_VULKAR_ROOMS, blackVulkarLyt } from '../unit/kotor-area/black-vulkar-area';

/**
 * The projects the random walk edits: one per game, small files so that a step is quick,
 * built in a temporary folder from the fixtures (read in place, never copied into the
 * repository) with the app's own import.
 */
export interface WalkProject {
  game: GameId;
  /** Short name used in the action log (`nwn2`, `kotor`, …). */
  key: string;
  /** The project file. */
  file: string;
  /** An empty game folder of the right shape for the export's dry run. */
  gameDir: string;
}

export const WALK_GAMES: readonly GameId[] = ['nwn2', 'kotor', 'skyrim', 'source'];

async function build(file: string, game: GameId, sources: string[], module?: string): Promise<void> {
  const store = ProjectStore.create(file, { name: `walk ${game}`, game });
  try {
    await importSources(store, sources, module !== undefined ? { module } : {});
  } finally {
    store.close();
  }
}

/**
 * Builds the four projects in `dir`:
 * - NWN2 `nwn2/mordmansion/` (TRN, TRX, GIT, ARE, GIC): the TRN's ground is painted, cutters
 *   edited from the TRN or TRX tab, the area re-baked in the background;
 * - KotOR the eight Black Vulkar rooms with a LYT listing them (room links between them);
 * - Skyrim `FreeCamera.esp` (one small navmesh);
 * - Source `tf2/itemtest.nav`.
 */
export async function buildWalkProjects(dir: string): Promise<WalkProject[]> {
  mkdirSync(dir, { recursive: true });
  const out: WalkProject[] = [];
  const add = (game: GameId, sub: string[]) => {
    const gameDir = path.join(dir, `${game}-game`);
    mkdirSync(path.join(gameDir, ...sub), { recursive: true });
    const p: WalkProject = { game, key: game, file: path.join(dir, `walk-${game}.wbproj`), gameDir };
    out.push(p);
    return p;
  };

  const nwn2 = add('nwn2', []);
  await build(nwn2.file, 'nwn2', [path.join(fixturesRoot, 'nwn2/mordmansion')], 'mord');

  const kotor = add('kotor', ['override']);
  const lytDir = path.join(dir, 'kotor-src');
  mkdirSync(lytDir, { recursive: true });
  writeFileSync(path.join(lytDir, 'm10aa.lyt'), writeLyt(blackVulkarLyt()));
  await build(kotor.file, 'kotor', [path.join(lytDir, 'm10aa.lyt'), ...BLACK_VULKAR_ROOMS.map((r) => path.join(fixturesRoot, `kotor/k1-blackvulkar/${r}.wok`))], 'm10aa');

  const skyrim = add('skyrim', ['Data']);
  await build(skyrim.file, 'skyrim', [path.join(fixturesRoot, 'skyrim/FreeCamera.esp')]);

  const source = add('source', ['maps']);
  await build(source.file, 'source', [path.join(fixturesRoot, 'source/tf2/itemtest.nav')]);
  return out;
}
