import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import type { BwmDocument } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { readAnyTwoDa } from '../../../shared/formats/aurora/twoda-binary';
import type { TwoDaTable } from '../../../shared/formats/aurora/twoda-table';
import { KOTOR_MODEL_TABLES, kotorTemplateModel } from '../../../shared/formats/kotor/kotor-object-model';
import type { PlacedState } from '../../../shared/formats/kotor/kotor-git-placement';
import type { FootprintModels, KotorObjectWalkmesh } from '../../../shared/views/placement-overlays';
import { projectPlaceableModels } from './project-placeable-models';
import type { ProjectStore } from './project-store';
import type { FileRecord } from './project-types';

/** A door's DWKs: `<model>0.dwk` closed, `1` and `2` open one way and the other (kotor-bwm.md §7.4). */
const DOOR_STATES: readonly [string, PlacedState][] = [
  ['0', 'closed'],
  ['1', 'open1'],
  ['2', 'open2'],
];

/**
 * The models of an area's placeables and doors as the project holds them, for the
 * footprint view. Parsed models are kept for as long as the project's model files do not
 * change (same ids, hashes and edits), so opening the area's walkmeshes one after another
 * parses each model once.
 *
 * KotOR: the import brings each object's template (UTP/UTD), placeables.2da /
 * genericdoors.2da and the PWK/DWKs they name, so the model is found as the game finds it;
 * a project without the template falls back to `<TemplateResRef>.pwk` / `…0..2.dwk`.
 * NWN2: placeables.2da and the MDBs, as the
 * bake finds them (project-placeable-models.ts).
 */
export class ProjectFootprintModels {
  private signature = '';
  private readonly bwms = new Map<string, BwmDocument | null>();
  private readonly nwn2 = new Map<string, ReturnType<typeof projectPlaceableModels>>();

  constructor(private readonly store: ProjectStore) {}

  forModule(module: string): FootprintModels {
    const files = this.store.listFiles();
    this.refresh(files);
    return {
      kotor: this.kotorLookup(files, module),
      nwn2Placeable: (p) => {
        // placeables.2da is read on the first placeable only, and only for NWN2 GITs.
        let lookup = this.nwn2.get(module);
        if (!lookup) this.nwn2.set(module, (lookup = projectPlaceableModels(this.store, module)));
        return lookup(p.appearance);
      },
    };
  }

  /** Drops what was parsed when any model file was added, replaced or edited since. */
  private refresh(files: readonly FileRecord[]): void {
    const signature = files
      .filter((f) => f.kind === 'mdb' || f.kind === '2da' || f.kind === 'template' || /\.(pwk|dwk|mdb)$/i.test(f.name))
      .map((f) => `${f.id}:${f.sha256}:${f.edited ? 1 : 0}`)
      .join(';');
    if (signature === this.signature) return;
    this.signature = signature;
    this.bwms.clear();
    this.nwn2.clear();
  }

  private kotorLookup(files: readonly FileRecord[], module: string): NonNullable<FootprintModels['kotor']> {
    // The module's own file first, then any other module's.
    const byName = new Map<string, FileRecord>();
    for (const f of files) {
      if (!/\.(pwk|dwk|utp|utd|2da)$/i.test(f.name)) continue;
      const k = f.name.toLowerCase();
      if (!byName.has(k) || f.module === module) byName.set(k, f);
    }
    const load = (name: string): BwmDocument | undefined => {
      const f = byName.get(name);
      if (!f) return undefined;
      const key = `${f.id}`;
      if (!this.bwms.has(key)) {
        let doc: BwmDocument | null = null;
        try {
          doc = readBwm(this.store.loadCurrentBytes(f));
        } catch (e) {
          // A model that cannot be read counts as missing: the object keeps its marker.
          if (!isMalformedInputError(e)) throw e;
        }
        this.bwms.set(key, doc);
      }
      return this.bwms.get(key) ?? undefined;
    };
    const tables = new Map<string, TwoDaTable | null>();
    const table = (name: string): TwoDaTable | null => {
      if (!tables.has(name)) {
        const f = byName.get(`${name}.2da`);
        let t: TwoDaTable | null = null;
        try {
          t = f ? readAnyTwoDa(this.store.loadFileBytes(f.id)) : null;
        } catch (e) {
          if (!isMalformedInputError(e)) throw e;
        }
        tables.set(name, t);
      }
      return tables.get(name)!;
    };
    // template → Appearance → the 2DA's modelname, when the import brought the template
    // and the table; else the template's own name, which holds where it is named after its model.
    const modelOf = (template: string, kind: 'placeable' | 'door'): string => {
      const f = byName.get(`${template}.${kind === 'placeable' ? 'utp' : 'utd'}`);
      return (f && kotorTemplateModel(this.store.loadFileBytes(f.id), table(KOTOR_MODEL_TABLES[kind]))) ?? template;
    };
    return (object) => {
      const template = object.templateResRef?.trim().toLowerCase();
      if (!template) return undefined;
      const model = modelOf(template, object.kind === 'placeable' ? 'placeable' : 'door');
      const out: KotorObjectWalkmesh[] = [];
      if (object.kind === 'placeable') {
        const doc = load(`${model}.pwk`);
        if (doc) out.push({ state: 'placeable', doc });
      } else {
        for (const [suffix, state] of DOOR_STATES) {
          const doc = load(`${model}${suffix}.dwk`);
          if (doc) out.push({ state, doc });
        }
      }
      return out.length > 0 ? out : undefined;
    };
  }
}
