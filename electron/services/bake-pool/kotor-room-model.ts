import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { contentHash } from '../project/content-hash';
import type { ProjectStore } from '../project/project-store';
import type { FileRecord } from '../project/project-types';
import { FileAccessError, readBytesSync } from '../file-access';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { KotorResType } from '../../../shared/formats/aurora/resource-types';
import { findKotorGameResource } from './kotor-game-resource';

/**
 * A KotOR room's model (`ROOM.mdl`) as the project bake finds it for a room walkmesh
 * (`ROOM.wok`): beside the file the WOK was imported from (names matched without regard to
 * case), else in each of the project's game folders as the game loads it for the room's
 * module: `override/`, the module's capsules (`modules/<module>.mod`, else `.rim`,
 * `_s.rim`, `_dlg.erf`), then chitin.key and its BIFs (kotor-game-resource.ts reads only
 * tables and the one resource, so this stays synchronous and cheap). The bake then takes
 * the face order and the AABB tree from the model's walkmesh node, as BioWare's compiler
 * did (shared/bakers/kotor/bwm-model-bake.ts).
 */
export interface KotorRoomModel {
  /** `ROOM.mdl` as the room names it. */
  name: string;
  /** Where it was found: a path beside the WOK, or `<game folder>: modules/m10aa_s.rim` etc. */
  origin: string;
  sha256: string;
  read(): Uint8Array;
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
  const room = file.name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  const name = `${room}.mdl`;
  const beside = file.sourcePath ? findInDir(path.dirname(file.sourcePath), name) : undefined;
  if (beside) {
    try {
      const s = statSync(beside);
      const key = `${beside}|${s.size}|${s.mtimeMs}`;
      let sha256 = hashes.get(key);
      if (sha256 === undefined) {
        sha256 = contentHash(readBytesSync(beside));
        hashes.set(key, sha256);
      }
      return { name, origin: beside, sha256, read: () => readBytesSync(beside) };
    } catch {
      // Gone or unreadable since it was listed: look in the game folders.
    }
  }
  for (const g of store.listGameFolders()) {
    try {
      const found = findKotorGameResource(g.path, file.module, room, KotorResType.MDL);
      if (found) return { name, origin: `${g.path}: ${found.origin}`, sha256: found.sha256, read: found.read };
    } catch (e) {
      // A game folder with a broken capsule, key or BIF cannot give the model; the room is
      // then baked from its WOK alone (the job summary has no `model`), as without a model.
      if (!(e instanceof FileAccessError || isMalformedInputError(e))) throw e;
    }
  }
  return undefined;
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
