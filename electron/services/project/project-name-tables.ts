import path from 'node:path';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { readAnyTwoDa } from '../../../shared/formats/aurora/twoda-binary';
import type { TwoDaTable } from '../../../shared/formats/aurora/twoda-table';
import { KotorResType } from '../../../shared/formats/aurora/resource-types';
import { walkabilityFromTwoDa } from '../../../shared/formats/kotor/surface-materials';
import type { ProjectNameTables } from '../../../shared/views/game-attribute-names';
import { FileAccessError } from '../file-access';
import { openKotorModule, scanKotorGameFolder } from '../kotor-game-folder';
import { ProjectGameResources } from './project-game-resources';
import type { ProjectStore } from './project-store';
import type { FileRecord } from './project-types';

/**
 * The game's own name tables for a project file, for the app's pickers, legend and
 * inspector: KotOR surfacemat.2da and NWN2 terrainmaterials.2da, from the project's 2DA
 * files (the file's module first), else from the project's game folders (KotOR: override,
 * the module's capsules, chitin.key, as the engine looks; NWN2: override and Data zips).
 * A table that cannot be read is left out (the built-in names stay), never an error: the
 * file itself opens either way. The project's own 2DAs are read at each open (small, and
 * one may just have been added); what the game folders give is kept per module and folder
 * list until the project changes.
 */
export class ProjectNameTablesCache {
  private readonly fromGame = new Map<string, Promise<ProjectNameTables | undefined>>();

  constructor(private readonly store: ProjectStore) {}

  async forFile(record: FileRecord): Promise<ProjectNameTables | undefined> {
    const game = this.store.info().game;
    if (game !== 'kotor' && game !== 'nwn2') return undefined;
    const own = game === 'kotor' ? this.kotorOwn(record.module) : this.nwn2Rows(this.projectTable('terrainmaterials.2da', record.module));
    if (own) return own;
    const folders = this.store.listGameFolders().filter((f) => f.role === 'game').map((f) => f.path);
    if (folders.length === 0) return undefined;
    const key = `${record.module.toLowerCase()}\u0000${folders.join('\u0000')}`;
    let hit = this.fromGame.get(key);
    if (!hit) {
      hit = game === 'kotor' ? this.kotorGame(record.module, folders) : Promise.resolve(this.nwn2Game());
      this.fromGame.set(key, hit);
    }
    return hit;
  }

  /** A 2DA of the project by file name, the module's own first; with where it was found. */
  private projectTable(file: string, module: string): { table: TwoDaTable; source: string } | undefined {
    const candidates = this.store
      .listFiles({ kind: '2da' })
      .filter((f) => f.name.toLowerCase() === file)
      .sort((a, b) => Number(b.module === module) - Number(a.module === module));
    for (const f of candidates) {
      try {
        return { table: readAnyTwoDa(this.store.loadCurrentBytes(f)), source: `${f.name} (project, module ${f.module})` };
      } catch (e) {
        if (!isMalformedInputError(e)) throw e;
      }
    }
    return undefined;
  }

  private kotorOwn(module: string): ProjectNameTables | undefined {
    try {
      const own = this.projectTable('surfacemat.2da', module);
      return own ? kotorLabels(own.table, own.source) : undefined;
    } catch (e) {
      // A 2DA named surfacemat.2da without its Walk column: the built-in labels stay.
      if (e instanceof RangeError) return undefined;
      throw e;
    }
  }

  private async kotorGame(module: string, folders: string[]): Promise<ProjectNameTables | undefined> {
    for (const root of folders) {
      try {
        const folder = await scanKotorGameFolder(root);
        const { resolver } = await openKotorModule(folder, module);
        const hit = resolver.resolve('surfacemat', KotorResType.TWODA);
        if (hit) return kotorLabels(readAnyTwoDa(hit.data), `surfacemat.2da (game folder ${path.basename(root)})`);
      } catch (e) {
        // A folder gone or damaged, or a 2DA without the columns: the built-in labels stay.
        if (!(e instanceof FileAccessError) && !isMalformedInputError(e) && !(e instanceof RangeError)) throw e;
      }
    }
    return undefined;
  }

  private nwn2Game(): ProjectNameTables | undefined {
    const hit = new ProjectGameResources(this.store).find('terrainmaterials', '2da');
    if (!hit) return undefined;
    try {
      return this.nwn2Rows({ table: readAnyTwoDa(hit.bytes), source: 'terrainmaterials.2da (game folder)' });
    } catch (e) {
      if (!isMalformedInputError(e)) throw e;
      return undefined;
    }
  }

  /** terrainmaterials.2da's (Terrain, Material) rows; undefined without those columns. */
  private nwn2Rows(found: { table: TwoDaTable; source: string } | undefined): ProjectNameTables | undefined {
    if (!found) return undefined;
    const { table, source } = found;
    const terrain = table.columnIndex('Terrain');
    const material = table.columnIndex('Material');
    if (terrain < 0 || material < 0) return undefined;
    const rows: [string, string][] = [];
    for (let r = 0; r < table.rowCount; r++) {
      const t = table.cell(r, terrain);
      const m = table.cell(r, material);
      if (t !== undefined && m !== undefined) rows.push([t, m]);
    }
    return { nwn2TerrainMaterials: { rows, source } };
  }
}

function kotorLabels(table: TwoDaTable, source: string): ProjectNameTables {
  return { kotorSurfacemat: { labels: [...walkabilityFromTwoDa(table, source).labels], source } };
}
