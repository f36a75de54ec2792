import { cellInteger, type TwoDaTable } from '../aurora/twoda-table';
import { readTwoDaText } from '../aurora/twoda-text';

/**
 * Which KotOR surface materials (rows of `surfacemat.2da`) are walkable. The game reads its
 * 2DA; every tool hard-codes its own table and they disagree (spec §3.2), which puts faces
 * in the wrong block when a walkmesh is rebuilt. So the table in use is always named, and
 * the differences from the other tools' tables can be listed for the user.
 */
export interface WalkabilityTable {
  /** Where the table came from: `default (kotorblender)` or the 2DA's file name. */
  source: string;
  /** Labels by material id (for messages), as known. */
  labels: readonly string[];
  /** 1 when walkable, by material id; ids past the end are not walkable. */
  walkable: Uint8Array;
}

export const SURFACE_MATERIAL_LABELS: readonly string[] = [
  'NotDefined', 'Dirt', 'Obscuring', 'Grass', 'Stone', 'Wood', 'Water', 'Nonwalk', 'Transparent', 'Carpet',
  'Metal', 'Puddles', 'Swamp', 'Mud', 'Leaves', 'Lava', 'BottomlessPit', 'DeepWater', 'Door', 'Snow',
  'Sand', 'BareBones', 'StoneBridge',
];

function tableOf(source: string, ids: readonly number[], size = 32): WalkabilityTable {
  const walkable = new Uint8Array(size);
  for (const id of ids) walkable[id] = 1;
  return { source, labels: SURFACE_MATERIAL_LABELS, walkable };
}

/** kotorblender's WALKMESH_MATERIALS: the spec's fallback when no surfacemat.2da is given. */
export const DEFAULT_WALKABILITY = tableOf('default (kotorblender)', [1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 16, 18, 20, 21, 22]);
/** MDLEdit's IsMaterialWalkable (everything but its exclusion list). */
export const MDLEDIT_WALKABILITY = tableOf('MDLEdit', [0, 1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 16, 18, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
/** PyKotor's SurfaceMaterial.walkable(). */
export const PYKOTOR_WALKABILITY = tableOf('PyKotor', [1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 18, 30]);

export const OTHER_TOOL_TABLES: readonly WalkabilityTable[] = [MDLEDIT_WALKABILITY, PYKOTOR_WALKABILITY];

export function isWalkableMaterial(table: WalkabilityTable, material: number): boolean {
  return material < table.walkable.length && table.walkable[material] === 1;
}

export function materialLabel(table: WalkabilityTable, material: number): string {
  return table.labels[material] ?? `material ${material}`;
}

/** The walkability table of a game's `surfacemat.2da` (column `Walk`, 1 = walkable). */
export function walkabilityFromTwoDa(table: TwoDaTable, source: string): WalkabilityTable {
  const walkColumn = table.columnIndex('Walk');
  if (walkColumn < 0) throw new RangeError(`${source} has no "Walk" column; is it surfacemat.2da?`);
  const labelColumn = table.columnIndex('label');
  const walkable = new Uint8Array(table.rowCount);
  const labels: string[] = [];
  for (let row = 0; row < table.rowCount; row++) {
    walkable[row] = cellInteger(table, row, walkColumn) === 1 ? 1 : 0;
    labels.push((labelColumn >= 0 ? table.cell(row, labelColumn) : undefined) ?? SURFACE_MATERIAL_LABELS[row] ?? `material ${row}`);
  }
  return { source, labels, walkable };
}

/** Reads a text surfacemat.2da (V2.0). */
export function readSurfaceMaterials(bytes: Uint8Array, source: string): WalkabilityTable {
  return walkabilityFromTwoDa(readTwoDaText(bytes), source);
}

export interface WalkabilityDisagreement {
  material: number;
  label: string;
  /** Walkability in the table in use. */
  used: boolean;
  /** Tables (by source) that say the opposite. */
  otherTools: string[];
}

/**
 * For the given materials (e.g. those a file uses), where the table in use and the other
 * tools' tables disagree: shown to the user, because each such material moves faces
 * between the walkable and non-walkable blocks depending on the tool.
 */
export function walkabilityDisagreements(used: WalkabilityTable, materials: Iterable<number>): WalkabilityDisagreement[] {
  const out: WalkabilityDisagreement[] = [];
  const others = [DEFAULT_WALKABILITY, ...OTHER_TOOL_TABLES].filter((t) => t.source !== used.source);
  for (const m of [...new Set(materials)].sort((a, b) => a - b)) {
    const w = isWalkableMaterial(used, m);
    const otherTools = others.filter((t) => isWalkableMaterial(t, m) !== w).map((t) => t.source);
    if (otherTools.length > 0) out.push({ material: m, label: materialLabel(used, m), used: w, otherTools });
  }
  return out;
}
