import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { isMalformedInputError } from '../../shared/binary/malformed-input-error';
import { trrnTextureNames } from '../../shared/formats/nwn2/terrain-texture-names';
import type { LevelContextGap } from '../../shared/model/level-context';
import { FileAccessError } from './file-access';
import { Nwn2GameResources, type Nwn2ResourceHit } from './nwn2-game-resources';
import type { ProjectStore } from './project/project-store';
import type { FileRecord } from './project/project-types';

/** A terrain texture found for the worker: its file name (`tt_grass01.dds`), bytes and where it came from. */
export interface FoundTerrainTexture {
  name: string;
  bytes: Uint8Array;
  from: string;
}

/** Extensions tried for each name, first hit wins: the game's textures are DDS, TGA the older and custom form. */
const TEXTURE_TYPES = ['dds', 'tga'] as const;

/**
 * The terrain textures an NWN2 exterior's TRRN packets name (spec §2.3), looked up as the
 * game finds any resource (nwn2-resource-order.ts, nwn2-game-resources.ts): the module's
 * haks, the override folders, the module, then the install's `Data/*.zip`. NWN2 ships its
 * textures in the `NWN2_Materials*.zip` archives of `Data/` (the NWN2 Modding & Development
 * Kit, Arbos/nwn2mdk, extracts MDB textures from exactly `Data/NWN2_Materials_X2.zip` …
 * `Data/NWN2_Materials.zip`; xoreos indexes `nwn2_materials.zip` among the mandatory data
 * zips), which the Data zip look-up covers, whatever folder inside the zip holds a name
 * (entries are matched by file name). The module is the folder (or .mod) the terrain was
 * imported from; the install, each of the project's NWN2 game folders.
 *
 * Missing textures are one gap naming them: their megatiles keep the blend colours there.
 */
export function findNwn2TerrainTextures(store: ProjectStore, terrain: FileRecord, terrainBytes: Uint8Array): { found: FoundTerrainTexture[]; gaps: LevelContextGap[] } {
  let names: string[];
  try {
    names = trrnTextureNames(terrainBytes);
  } catch (e) {
    if (!isMalformedInputError(e)) throw e;
    // The worker reads the file in full and reports what is wrong with it.
    return { found: [], gaps: [] };
  }
  if (names.length === 0) return { found: [], gaps: [] };
  const gaps: LevelContextGap[] = [];
  const lookups: Nwn2GameResources[] = [];
  const module = moduleOf(terrain.sourcePath);
  const games = store.listGameFolders().filter((g) => g.role === 'game').map((g) => g.path);
  for (const game of games.length > 0 ? games : [undefined]) {
    if (game === undefined && module === undefined) break;
    try {
      lookups.push(Nwn2GameResources.open({ ...(game !== undefined ? { game } : {}), ...(module !== undefined ? { module } : {}), types: TEXTURE_TYPES }));
    } catch (e) {
      if (!(e instanceof FileAccessError) && !isMalformedInputError(e)) throw e;
      gaps.push({ what: game ?? module ?? 'the module', why: `terrain textures cannot be looked up there: ${e.message}` });
    }
  }
  const projectTextures = new Map<string, FileRecord>();
  for (const f of store.listFiles()) {
    const m = /^(?:.*[\\/])?([^\\/]+)\.(dds|tga)$/i.exec(f.name);
    if (m && !projectTextures.has(m[1]!.toLowerCase())) projectTextures.set(m[1]!.toLowerCase(), f);
  }
  const found: FoundTerrainTexture[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const own = projectTextures.get(name);
    if (own) {
      found.push({ name: path.basename(own.name), bytes: store.loadCurrentBytes(own), from: `${own.module}/${own.name}` });
      continue;
    }
    let hit: (Nwn2ResourceHit & { ext: string }) | undefined;
    try {
      for (const g of lookups) {
        for (const ext of TEXTURE_TYPES) {
          const h = g.find(name, ext);
          if (h) {
            hit = { ...h, ext };
            break;
          }
        }
        if (hit) break;
      }
    } catch (e) {
      if (!isMalformedInputError(e)) throw e;
      gaps.push({ what: `${name}.dds`, why: e.message });
      continue;
    }
    if (hit) found.push({ name: `${name}.${hit.ext}`, bytes: hit.bytes, from: hit.from });
    else missing.push(name);
  }
  for (const g of lookups) for (const d of g.damaged) gaps.push({ what: d.file, why: `skipped while looking up terrain textures: ${d.reason}` });
  if (missing.length > 0) {
    const where = lookups.length === 0 ? 'the project has no NWN2 game folder' : `not in the module, its haks, the override folders or the Data zips of ${games.length > 0 ? games.join(', ') : 'the module only'}`;
    gaps.push({ what: `terrain texture${missing.length === 1 ? '' : 's'} ${missing.map((n) => `${n}.dds`).join(', ')}`, why: `${where}: drawn in the colours the terrain gives ${missing.length === 1 ? 'it' : 'them'}` });
  }
  for (const g of lookups) g.close();
  return { found, gaps };
}

/**
 * The module the terrain was imported from: its .mod, or its folder when that holds a
 * module.ifo (a folder without one is not a module, and is not listed: it may be any
 * folder a file was imported from).
 */
function moduleOf(sourcePath: string | null): string | undefined {
  if (!sourcePath) return undefined;
  try {
    if (/\.mod$/i.test(sourcePath)) return statSync(sourcePath).isFile() ? sourcePath : undefined;
    const dir = path.dirname(sourcePath);
    return readdirSync(dir).some((e) => e.toLowerCase() === 'module.ifo') ? dir : undefined;
  } catch {
    return undefined;
  }
}
