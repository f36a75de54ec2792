import type { TileTableCache } from '../bakers/nwn2/tile-table-reuse';
import { bakeTrn, type TrnBakeInput, type TrnBakeReport } from '../bakers/nwn2/trn-bake';
import { missingDoorModels } from '../bakers/nwn2/door-walkmesh';
import type { GffDocument } from '../formats/aurora/gff-document';
import { aswmToWalkmesh } from '../formats/nwn2/trx-walkmesh';
import type { TrxDocument } from '../formats/nwn2/trx-document';
import type { Walkmesh } from '../model/walkmesh';
import { warning, type Finding } from '../validation/finding';

export interface Nwn2AreaRebake {
  walkmesh: Walkmesh;
  /** Wall-clock milliseconds of the bake. */
  ms: number;
  cutters: number;
  placeablesWithoutModel: number;
  report: TrnBakeReport;
  /** What the bake says about the result, for the findings panel after a GIT edit. */
  findings: Finding[];
  /** This bake's tile tables, for the next bake of the area. */
  tileCache: TileTableCache | undefined;
}

const clock = (globalThis as { performance?: { now(): number } }).performance;
const now = clock ? () => clock.now() : () => Date.now();

/**
 * The area's walkmesh after a cutter or placeable edit. The geometry steps (placeables,
 * cutters, re-tiling) run over the area, which is cheap; the tile path tables and their
 * line-of-sight bits, most of a bake, are baked again only for the tiles whose triangles
 * changed: with `tileCache` (the previous bake's, tile-table-reuse.ts) every other tile
 * takes its table from it, and the bytes are the same as a full bake's. The islands and
 * island paths span the area and are always rebuilt. test/bench/nwn2-live-bake-bench.ts
 * measures it on the fixture areas.
 */
export function rebakeNwn2Area(
  trn: TrxDocument,
  git: GffDocument,
  name: string,
  placeableModels?: TrnBakeInput['placeableModels'],
  tileCache?: TileTableCache,
  /** The model a placeables.2da row names, to name the models not found in the findings. */
  modelName?: (appearance: number) => string | undefined,
  /** The doors' 2DA rows and models (door-walkmesh.ts); without it every door is listed as having no model lookup. */
  doorModels?: TrnBakeInput['doorModels'],
): Nwn2AreaRebake {
  const t0 = now();
  const result = bakeTrn({ trn, git, ...(placeableModels ? { placeableModels } : {}), ...(doorModels ? { doorModels } : {}), options: { now, keepTileCache: true, ...(tileCache ? { tileCache } : {}) } });
  const walkmesh = aswmToWalkmesh(result.aswm, name);
  return {
    walkmesh,
    ms: now() - t0,
    cutters: result.report.cutters.inGit,
    placeablesWithoutModel: result.report.placeables.missingModel.length,
    report: result.report,
    findings: bakeFindings(result.report, modelName),
    tileCache: result.tileCache,
  };
}

function bakeFindings(r: TrnBakeReport, modelName?: (appearance: number) => string | undefined): Finding[] {
  const out: Finding[] = [];
  // One summary naming every model not found (count per model), then one finding per placeable.
  if (r.placeables.missingModel.length > 0) {
    const byModel = new Map<string, number>();
    for (const p of r.placeables.missingModel) {
      const k = modelName?.(p.appearance) ?? `placeables.2da row ${p.appearance}`;
      byModel.set(k, (byModel.get(k) ?? 0) + 1);
    }
    const names = [...byModel].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, n]) => (n > 1 ? `${k} ×${n}` : k));
    out.push(
      warning(
        'nwn2.bake.placeable-models-missing',
        `${r.placeables.missingModel.length} placeable(s) without a model found in the project or its game folders, so they do not cut the walkmesh: ${names.join(', ')}`,
      ),
    );
  }
  for (const p of r.placeables.missingModel) {
    const model = modelName?.(p.appearance);
    out.push(
      warning(
        'nwn2.bake.placeable-model-missing',
        `placeable ${p.index} (placeables.2da row ${p.appearance}${model !== undefined ? `, model ${model}` : ''}): its model is not in the project, so it does not cut the walkmesh`,
      ),
    );
  }
  // Doors the same way: one summary naming the models not found, grouped by model.
  const doorsMissing = missingDoorModels(r.doors);
  if (doorsMissing.length > 0) {
    const names = doorsMissing.map((g) => `${g.model ?? g.reason}${g.doors.length > 1 ? ` ×${g.doors.length}` : ''}`);
    out.push(
      warning(
        'nwn2.bake.door-models-missing',
        `${r.doors.missingModel.length} door(s) without a model found in the project or its game folders, so their walkmeshes are not in the bake: ${names.join(', ')}`,
      ),
    );
  }
  for (const d of r.doors.noWalkmesh) out.push(warning('nwn2.bake.door-no-walkmesh', `door ${d.index}: model ${d.model} has no walkmesh, so it adds nothing to the bake`));
  for (const p of r.placeables.noWalkmesh) out.push(warning('nwn2.bake.placeable-no-walkmesh', `placeable ${p.index}: model ${p.model} has no walkmesh, so it does not cut the walkmesh`));
  if (r.retile.outsideGrid > 0) out.push(warning('nwn2.bake.outside-grid', `${r.retile.outsideGrid} triangle(s) fell outside the tile grid and were dropped`));
  for (const t of r.retile.simplifiedTiles) out.push(warning('nwn2.bake.tile-simplified', `${t} had more than the toolset's walkable triangles per tile and was re-triangulated`));
  if (r.slivers.count > 0) out.push(warning('nwn2.bake.slivers', `${r.slivers.count} sliver triangle(s) thinner than ${r.slivers.threshold} m (the thinnest ${r.slivers.minAltitude.toExponential(2)} m): a cutter edge runs very close to another edge`));
  if (r.overlaps.pairs > 0) out.push(warning('nwn2.bake.overlaps', `${r.overlaps.pairs} pair(s) of triangles overlap seen from above (${r.overlaps.area.toFixed(3)} m²)`));
  return out;
}
