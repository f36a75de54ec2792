import type { GffDocument, GffStruct } from './gff-document';
import { getFloat, getInteger, optFloat, optInteger, optList, optStruct, optText } from './gff-fields';

/**
 * The parts of an NWN2 GIT (area instances) that baking needs, as plain typed data.
 * Field names follow the toolset's files (nwn2-trn-trx.md §5.4, §5.5, §8.4). Required
 * fields missing or of the wrong type throw MalformedInputError naming the label; optional
 * ones take the game's default.
 */

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** Trigger `Type` of a walkmesh cutter. */
export const TRIGGER_TYPE_WALKMESH_CUTTER = 3;

export interface GitWalkmeshCutter {
  /** Position of the trigger in `TriggerList`. */
  index: number;
  tag: string | undefined;
  templateResRef: string | undefined;
  /** `XPosition`, `YPosition`, `ZPosition`. */
  position: Vec3;
  /** `Geometry` points as stored (`PointX`, `PointY`, `PointZ`, relative to position), xyz. */
  points: Float32Array;
  /**
   * The cutting polygon in world x/y, interleaved: (XPosition + PointX, YPosition + PointY)
   * per point; PointZ and the X/Y/ZOrientation fields (always 0 in practice) are ignored,
   * as the toolset and nwn-lib-d do.
   */
  polygon: Float64Array;
}

export interface GitPlaceable {
  /** Position in `Placeable List`. */
  index: number;
  /** `TemplateResRef` (the UTP blueprint), when present. */
  templateResRef: string | undefined;
  /** `Tag`, when present. */
  tag: string | undefined;
  /** `Appearance`: a row of placeables.2da (column `NWN2_ModelName` = the MDB). */
  appearance: number;
  /** `X`, `Y`, `Z`. */
  x: number;
  y: number;
  z: number;
  /** `Bearing`: radians about +Z (default 0). */
  bearing: number;
  /** `ModelScale` {x, y, z} (default 1 on each axis). */
  scale: Vec3;
  /** `IsWalkable` ≠ 0 (default false). */
  isWalkable: boolean;
  /** `Static` ≠ 0 (default false); BYTE in placeables. */
  isStatic: boolean;
}

export interface GitDoor {
  /** Position in `Door List`. */
  index: number;
  templateResRef: string | undefined;
  tag: string | undefined;
  /** `Appearance`: a row of doortypes.2da (0 with `GenericType` for generic doors). */
  appearance: number;
  /** `GenericType` (default 0): a row of genericdoors.2da when `Appearance` is 0. */
  genericType: number;
  x: number;
  y: number;
  z: number;
  /** `Bearing`: radians about +Z (default 0). */
  bearing: number;
  /** `ModelScale` {x, y, z} (default 1). */
  scale: Vec3;
  /** `Static` ≠ 0 (default false); INT in NWN2 doors. */
  isStatic: boolean;
}

export function readGitWalkmeshCutters(gff: GffDocument): GitWalkmeshCutter[] {
  const out: GitWalkmeshCutter[] = [];
  optList(gff.root, 'TriggerList').forEach((t, index) => {
    if (optInteger(t, 'Type', 0) !== TRIGGER_TYPE_WALKMESH_CUTTER) return;
    const position = { x: getFloat(t, 'XPosition'), y: getFloat(t, 'YPosition'), z: getFloat(t, 'ZPosition') };
    const geometry = optList(t, 'Geometry');
    const points = new Float32Array(geometry.length * 3);
    const polygon = new Float64Array(geometry.length * 2);
    geometry.forEach((p, i) => {
      const px = getFloat(p, 'PointX');
      const py = getFloat(p, 'PointY');
      points[i * 3] = px;
      points[i * 3 + 1] = py;
      points[i * 3 + 2] = optFloat(p, 'PointZ', 0);
      polygon[i * 2] = position.x + px;
      polygon[i * 2 + 1] = position.y + py;
    });
    out.push({ index, tag: optText(t, 'Tag'), templateResRef: optText(t, 'TemplateResRef'), position, points, polygon });
  });
  return out;
}

function readScale(s: GffStruct): Vec3 {
  const m = optStruct(s, 'ModelScale');
  if (m === undefined) return { x: 1, y: 1, z: 1 };
  return { x: optFloat(m, 'x', 1), y: optFloat(m, 'y', 1), z: optFloat(m, 'z', 1) };
}

export function readGitPlaceables(gff: GffDocument): GitPlaceable[] {
  return optList(gff.root, 'Placeable List').map((p, index) => ({
    index,
    templateResRef: optText(p, 'TemplateResRef'),
    tag: optText(p, 'Tag'),
    appearance: getInteger(p, 'Appearance'),
    x: getFloat(p, 'X'),
    y: getFloat(p, 'Y'),
    z: getFloat(p, 'Z'),
    bearing: optFloat(p, 'Bearing', 0),
    scale: readScale(p),
    isWalkable: optInteger(p, 'IsWalkable', 0) !== 0,
    isStatic: optInteger(p, 'Static', 0) !== 0,
  }));
}

export function readGitDoors(gff: GffDocument): GitDoor[] {
  return optList(gff.root, 'Door List').map((d, index) => ({
    index,
    templateResRef: optText(d, 'TemplateResRef'),
    tag: optText(d, 'Tag'),
    appearance: optInteger(d, 'Appearance', 0),
    genericType: optInteger(d, 'GenericType', 0),
    x: getFloat(d, 'X'),
    y: getFloat(d, 'Y'),
    z: getFloat(d, 'Z'),
    bearing: optFloat(d, 'Bearing', 0),
    scale: readScale(d),
    isStatic: optInteger(d, 'Static', 0) !== 0,
  }));
}
