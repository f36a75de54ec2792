import { MalformedInputError } from '../../binary/malformed-input-error';
import { BIF_FORMAT, type BifDocument } from '../aurora/bif-document';
import { KeyIndex, type KeyBif, type KeyDocument } from '../aurora/key-document';
import { KOTOR_RESOURCE_TYPES } from '../aurora/resource-types';

/**
 * Finds a KotOR resource the way the game does (kotor-bwm.md §8.1, after PyKotor
 * `SearchLocation` and xoreos `engines/kotor/kotor.cpp`):
 *
 *  1. `override/` (loose files named `<resref>.<ext>`);
 *  2. the module's capsules in `modules/`: `<m>.mod` when present (it shadows the RIM set,
 *     as TSLPatcher/HoloPatcher install it), else `<m>.rim`, `<m>_s.rim`, `<m>_dlg.erf`;
 *  3. `chitin.key` and the BIFs it lists.
 *
 * ResRefs compare case-insensitively (§8.4). This module is pure: the caller supplies the
 * file lists and loaders (electron/services/kotor-game-folder.ts does so for a folder).
 */

/** What a module capsule must offer (ErfDocument and RimDocument both do). */
export interface ResourceArchive {
  readonly resources: readonly { readonly resRef: string; readonly type: number; readonly data: Uint8Array }[];
}

export interface OverrideSource {
  /** File names in the override folder (any case, no folders). */
  readonly files: readonly string[];
  /** The bytes of one of `files`. */
  read(fileName: string): Uint8Array;
}

export interface ModuleArchiveSource {
  /** The capsule's file name, e.g. `m10aa.rim` (reported as the origin). */
  readonly name: string;
  readonly archive: ResourceArchive;
}

export interface ChitinSource {
  readonly key: KeyDocument;
  /** The BIF the key's file table lists at `bifIndex`; called at most once per BIF. */
  loadBif(bif: KeyBif, bifIndex: number): BifDocument;
}

export interface KotorResourceSources {
  override?: OverrideSource;
  /** In search order; see `moduleCapsuleOrder` for choosing them. */
  modules?: readonly ModuleArchiveSource[];
  chitin?: ChitinSource;
}

export type KotorResourceOrigin =
  | { kind: 'override'; file: string }
  | { kind: 'module'; archive: string }
  | { kind: 'chitin'; bif: string; index: number };

export interface ResolvedKotorResource {
  resRef: string;
  type: number;
  data: Uint8Array;
  origin: KotorResourceOrigin;
}

const key = (resRef: string, type: number) => `${type}:${resRef.toLowerCase()}`;

/**
 * The capsule files of module `moduleName` to search, in order, among `available` file
 * names of `modules/` (any case): `<m>.mod` alone when present, else those of `<m>.rim`,
 * `<m>_s.rim` and `<m>_dlg.erf` that exist. Returns the names as spelled in `available`.
 */
export function moduleCapsuleOrder(moduleName: string, available: readonly string[]): string[] {
  const byLower = new Map<string, string>();
  for (const f of available) if (!byLower.has(f.toLowerCase())) byLower.set(f.toLowerCase(), f);
  const m = moduleName.toLowerCase();
  const mod = byLower.get(`${m}.mod`);
  if (mod !== undefined) return [mod];
  return [`${m}.rim`, `${m}_s.rim`, `${m}_dlg.erf`].map((n) => byLower.get(n)).filter((n): n is string => n !== undefined);
}

export class KotorResourceResolver {
  private readonly overrideFiles = new Map<string, string>();
  private readonly modules: { name: string; index: Map<string, ResourceArchive['resources'][number]> }[] = [];
  private readonly keyIndex: KeyIndex | undefined;
  private readonly bifCache = new Map<number, BifDocument>();

  constructor(private readonly sources: KotorResourceSources) {
    for (const f of sources.override?.files ?? []) {
      const lower = f.toLowerCase();
      if (!this.overrideFiles.has(lower)) this.overrideFiles.set(lower, f);
    }
    for (const m of sources.modules ?? []) {
      const index = new Map<string, ResourceArchive['resources'][number]>();
      for (const r of m.archive.resources) {
        const k = key(r.resRef, r.type);
        if (!index.has(k)) index.set(k, r);
      }
      this.modules.push({ name: m.name, index });
    }
    this.keyIndex = sources.chitin ? new KeyIndex(sources.chitin.key) : undefined;
  }

  /** The resource from the first source that has it, or undefined. */
  resolve(resRef: string, type: number): ResolvedKotorResource | undefined {
    const override = this.sources.override;
    const ext = KOTOR_RESOURCE_TYPES.extension(type);
    if (override !== undefined && ext !== undefined) {
      const file = this.overrideFiles.get(`${resRef}.${ext}`.toLowerCase());
      if (file !== undefined) return { resRef, type, data: override.read(file), origin: { kind: 'override', file } };
    }
    const k = key(resRef, type);
    for (const m of this.modules) {
      const r = m.index.get(k);
      if (r !== undefined) return { resRef: r.resRef, type, data: r.data, origin: { kind: 'module', archive: m.name } };
    }
    const chitin = this.sources.chitin;
    const entry = this.keyIndex?.get(resRef, type);
    if (chitin === undefined || entry === undefined) return undefined;
    const bif = chitin.key.bifs[entry.bifIndex]!;
    let doc = this.bifCache.get(entry.bifIndex);
    if (doc === undefined) {
      doc = chitin.loadBif(bif, entry.bifIndex);
      this.bifCache.set(entry.bifIndex, doc);
    }
    const res = doc.resources[entry.resourceIndex];
    if (res === undefined) {
      throw new MalformedInputError({
        format: BIF_FORMAT,
        offset: 8,
        field: 'variableCount',
        expected: `more than ${entry.resourceIndex} resources (chitin.key puts ${entry.resRef}.${ext ?? type} at index ${entry.resourceIndex})`,
        found: String(doc.resources.length),
        file: bif.fileName,
      });
    }
    return { resRef: entry.resRef, type, data: res.data, origin: { kind: 'chitin', bif: bif.fileName, index: entry.resourceIndex } };
  }

  /** Where the resource would come from, without loading a BIF or an override file. */
  locate(resRef: string, type: number): KotorResourceOrigin | undefined {
    const ext = KOTOR_RESOURCE_TYPES.extension(type);
    const file = ext !== undefined ? this.overrideFiles.get(`${resRef}.${ext}`.toLowerCase()) : undefined;
    if (this.sources.override !== undefined && file !== undefined) return { kind: 'override', file };
    const k = key(resRef, type);
    for (const m of this.modules) if (m.index.has(k)) return { kind: 'module', archive: m.name };
    const entry = this.keyIndex?.get(resRef, type);
    if (this.sources.chitin === undefined || entry === undefined) return undefined;
    return { kind: 'chitin', bif: this.sources.chitin.key.bifs[entry.bifIndex]!.fileName, index: entry.resourceIndex };
  }
}
