import { GffType, type GffDocument } from '../aurora/gff-document';
import { findField } from '../aurora/gff-fields';

/**
 * Where NWN2 looks for a resource, highest priority first (the NWN2 wiki's "Content Load
 * Priority", which the toolset follows since 1.13):
 *
 *   1. the module's haks, in the order of module.ifo's `Mod_HakList` (the first listed wins;
 *      a hak in a sub-folder of `hak/` before one at its top);
 *   2. the override folders: the user's (Documents/Neverwinter Nights 2/override), then the
 *      install's, sub-folders included (the community keeps override content in
 *      sub-folders; no source read here states how the game orders two files of one name
 *      in different sub-folders: a deeper one wins here, as for module folders);
 *   3. (a campaign's folder; not read here: the bake has no campaign context);
 *   4. the module: its folder (sub-folders first) or its .mod;
 *   5. the install's `Data/*.zip` archives, expansions and patches before what they patch
 *      (nwn2DataZipOrder).
 *
 * Names are matched without regard to case, as the game does on Windows.
 */
export type Nwn2SourceKind = 'hak' | 'override' | 'module' | 'data';

export const NWN2_SOURCE_ORDER: readonly Nwn2SourceKind[] = ['hak', 'override', 'module', 'data'];

/**
 * The rank of a Data zip: its expansion (`_x1` Mask of the Betrayer, `_x2` Storm of Zehir,
 * `_x3`… for later ones) then its patch version (`_v121`, `_v103x1`), both higher first.
 * NWN2 1.23 installs hold, e.g., NWN2_Models.zip, NWN2_Models_v103x1.zip … _v121.zip,
 * NWN2_Models_X1.zip, NWN2_Models_X1_v121.zip, NWN2_Models_X2.zip, NWN2_Models_X2_v121.zip;
 * the order matches the one the NWN2 Modding & Development Kit (Arbos/nwn2mdk) searches
 * the model and material zips in, and xoreos indexes the base, _x1 and _x2 zips in that
 * order with later ones winning. Archives of different families (models, 2DA, templates…)
 * hold different resources, so one order across all of them is the game's order within each.
 */
export function nwn2DataZipRank(fileName: string): { expansion: number; version: number } {
  const stem = fileName.toLowerCase().replace(/\.zip$/, '');
  const x = /_x(\d+)(?=_|$)/.exec(stem);
  const v = /_v(\d+)(?:x\d+)?$/.exec(stem);
  return { expansion: x ? Number(x[1]) : 0, version: v ? Number(v[1]) : 0 };
}

/** Data zip file names, highest priority first (ties by name, so the order never depends on the folder listing). */
export function nwn2DataZipOrder(fileNames: readonly string[]): string[] {
  return [...fileNames].sort((a, b) => {
    const ra = nwn2DataZipRank(a);
    const rb = nwn2DataZipRank(b);
    return rb.expansion - ra.expansion || rb.version - ra.version || (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);
  });
}

/**
 * The haks a module.ifo names, in its order (first = highest priority): `Mod_HakList`
 * (a list of structs with a `Mod_Hak` CExoString), else the older single `Mod_Hak` field.
 * Empty names are skipped; fields of another type are ignored (the game ignores what it
 * cannot read there and the bake only loses that hak's resources, which it reports).
 */
export function moduleHakList(ifo: GffDocument): string[] {
  const out: string[] = [];
  const list = findField(ifo.root, 'Mod_HakList');
  if (list && list.type === GffType.List) {
    for (const s of list.value) {
      const f = findField(s, 'Mod_Hak');
      if (f && (f.type === GffType.ExoString || f.type === GffType.ResRef) && f.value.trim() !== '') out.push(f.value.trim());
    }
    return out;
  }
  const single = findField(ifo.root, 'Mod_Hak');
  if (single && (single.type === GffType.ExoString || single.type === GffType.ResRef) && single.value.trim() !== '') out.push(single.value.trim());
  return out;
}

/** Splits `name.ext` into a lower-case resref and extension (no dot), or undefined without an extension. */
export function resourceKey(fileName: string): { resRef: string; ext: string } | undefined {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || dot === base.length - 1) return undefined;
  return { resRef: base.slice(0, dot).toLowerCase(), ext: base.slice(dot + 1).toLowerCase() };
}
