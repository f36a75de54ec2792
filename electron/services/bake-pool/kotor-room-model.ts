import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { contentHash } from '../project/content-hash';
import type { ProjectStore } from '../project/project-store';
import type { FileRecord } from '../project/project-types';
import { readBytesSync } from '../file-access';

/**
 * A KotOR room's model (`ROOM.mdl`) as the project bake finds it for a room walkmesh
 * (`ROOM.wok`): beside the file the WOK was imported from, else in the `override` folder of
 * each of the project's game folders (names matched without regard to case). The bake then
 * takes the face order and the AABB tree from the model's walkmesh node, as BioWare's
 * compiler did (shared/bakers/kotor/bwm-model-bake.ts). Models inside the game's capsules
 * (modules/, chitin.key) are not looked up here: the bake's inputs must be known without
 * opening archives each time a file's bake state is shown.
 */
export interface KotorRoomModel {
  /** `ROOM.mdl` as the room names it. */
  name: string;
  mdlPath: string;
  sha256: string;
}

/** Content hashes of model files by path, size and time, so a bake state check does not hash them again. */
const hashes = new Map<string, string>();

function findInDir(dir: string, name: string): string | undefined {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  const want = name.toLowerCase();
  const hit = entries.find((e) => e.toLowerCase() === want);
  if (hit === undefined) return undefined;
  const full = path.join(dir, hit);
  try {
    return statSync(full).isFile() ? full : undefined;
  } catch {
    return undefined;
  }
}

export function kotorRoomModelOf(store: ProjectStore, file: FileRecord): KotorRoomModel | undefined {
  if (!/\.wok$/i.test(file.name)) return undefined;
  const name = `${file.name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '')}.mdl`;
  const dirs: string[] = [];
  if (file.sourcePath) dirs.push(path.dirname(file.sourcePath));
  for (const g of store.listGameFolders()) {
    dirs.push(path.join(g.path, readdirSafe(g.path).find((e) => e.toLowerCase() === 'override') ?? 'override'));
  }
  for (const dir of dirs) {
    const mdlPath = findInDir(dir, name);
    if (!mdlPath) continue;
    try {
      const s = statSync(mdlPath);
      const key = `${mdlPath}|${s.size}|${s.mtimeMs}`;
      let sha256 = hashes.get(key);
      if (sha256 === undefined) {
        sha256 = contentHash(readBytesSync(mdlPath));
        hashes.set(key, sha256);
      }
      return { name, mdlPath, sha256 };
    } catch {
      continue;
    }
  }
  return undefined;
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The input of a `kotor-bake` job that has the room model: "WBKM", the WOK's size (u32), the WOK, then the MDL. */
const MAGIC = 0x4d4b4257; // "WBKM"

export function encodeModelBakeInput(wok: Uint8Array, mdl: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + wok.length + mdl.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, MAGIC, true);
  v.setUint32(4, wok.length, true);
  out.set(wok, 8);
  out.set(mdl, 8 + wok.length);
  return out;
}

/** The WOK and MDL of a job input made by encodeModelBakeInput, or undefined for a plain WOK. */
export function decodeModelBakeInput(input: Uint8Array): { wok: Uint8Array; mdl: Uint8Array } | undefined {
  if (input.length < 8) return undefined;
  const v = new DataView(input.buffer, input.byteOffset, input.byteLength);
  if (v.getUint32(0, true) !== MAGIC) return undefined;
  const n = v.getUint32(4, true);
  if (n > input.length - 8) return undefined;
  return { wok: input.subarray(8, 8 + n), mdl: input.subarray(8 + n) };
}
