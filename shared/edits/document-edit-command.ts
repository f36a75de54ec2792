/**
 * Edits of what the common walkmesh model does not hold: Source area connections, KotOR
 * perimeter-edge transitions (room links), NWN2 walkmesh cutters and placeables in the
 * GIT, Skyrim cover edges. Like EditCommand they are JSON-safe data with an exact inverse,
 * so they live in the same project history and replay after a restart.
 */

/** A GFF struct as JSON (shared/edits/gff-struct-json.ts): bigint as a decimal string, bytes as numbers. */
export interface GffStructJson {
  type: number;
  fields: { label: string; type: number; value: unknown }[];
}

/** Source: adds `to` to the connection list of area `from` in `direction` (0 N, 1 E, 2 S, 3 W). */
export interface SourceConnectCommand {
  kind: 'source-connect';
  from: number;
  to: number;
  direction: number;
  /** Position in the list (default: the end); the inverse of a disconnect puts it back here. */
  index?: number;
  /** Also connect `to` back to `from` in the opposite direction. */
  twoWay?: boolean;
}

/** Source: removes `to` from area `from`'s list in `direction` (and the way back with `twoWay`). */
export interface SourceDisconnectCommand {
  kind: 'source-disconnect';
  from: number;
  to: number;
  direction: number;
  twoWay?: boolean;
}

/**
 * Source: sets the place (callout) of areas: `place` (1-based into the map's place
 * directory, 0 = none) for all of them, or `places`, one per area (the inverse's form).
 */
export interface SourceSetPlaceCommand {
  kind: 'source-set-place';
  areas: number[];
  place?: number;
  places?: number[];
}

/**
 * KotOR: sets the transition (the LYT room the edge leads to, −1 for none) of a perimeter
 * edge, named by face and local edge (0: v1→v2, 1: v2→v3, 2: v3→v1) of the walkmesh as the
 * user sees it. Only the edge table's transition changes: no rebake, nothing renumbered.
 */
export interface KotorSetTransitionCommand {
  kind: 'kotor-set-transition';
  face: number;
  edge: number;
  target: number;
}

/** NWN2 GIT: puts a struct into a list at `index` (the inverse of a removal). */
export interface GitInsertStructCommand {
  kind: 'git-insert-struct';
  list: string;
  index: number;
  struct: GffStructJson;
}

export interface GitRemoveStructCommand {
  kind: 'git-remove-struct';
  list: string;
  index: number;
}

/** NWN2 GIT: replaces the struct at `index` of a list (the inverse of every change to one instance). */
export interface GitReplaceStructCommand {
  kind: 'git-replace-struct';
  list: string;
  index: number;
  struct: GffStructJson;
}

/** NWN2: a new walkmesh cutter from a polygon on the ground (world x, y pairs; at least 3 points). */
export interface Nwn2AddCutterCommand {
  kind: 'nwn2-add-cutter';
  polygon: number[];
  /** Height of the trigger (default 0). */
  z?: number;
  tag?: string;
}

/** NWN2: gives cutter `index` (its position in TriggerList) a new polygon (world x, y pairs). */
export interface Nwn2SetCutterCommand {
  kind: 'nwn2-set-cutter';
  index: number;
  polygon: number[];
}

export interface Nwn2DeleteCutterCommand {
  kind: 'nwn2-delete-cutter';
  index: number;
}

/**
 * NWN2: a new placeable, a copy of placeable `copyOf` (all its blueprint fields) or a bare
 * instance of `appearance` (a placeables.2da row), at x, y, z turned by `bearing` radians.
 */
export interface Nwn2AddPlaceableCommand {
  kind: 'nwn2-add-placeable';
  copyOf?: number;
  appearance?: number;
  templateResRef?: string;
  tag?: string;
  position: [number, number, number];
  bearing?: number;
}

/** NWN2: moves placeable `index` (its position in `Placeable List`). */
export interface Nwn2MovePlaceableCommand {
  kind: 'nwn2-move-placeable';
  index: number;
  position: [number, number, number];
}

/** NWN2: turns placeable `index` to `bearing` radians about +Z. */
export interface Nwn2RotatePlaceableCommand {
  kind: 'nwn2-rotate-placeable';
  index: number;
  bearing: number;
}

/**
 * Skyrim: sets triangle flags and/or cover words of triangles of one navmesh (by FormID),
 * through the navmesh edit functions that keep links and derived data consistent.
 */
export interface SkyrimSetTriangleFlagsCommand {
  kind: 'skyrim-set-triangle-flags';
  navmesh: number;
  triangles: number[];
  flags?: number[];
  cover?: number[];
}

/**
 * Skyrim: links open triangle edges, one side each (navmesh, triangle, edge, target
 * navmesh, target triangle: 5 numbers a side); see shared/edits/skyrim-edge-links.ts.
 */
export interface SkyrimLinkEdgesCommand {
  kind: 'skyrim-link-edges';
  sides: number[];
}

/** Skyrim: opens linked triangle edges (navmesh, triangle, edge: 3 numbers a side). */
export interface SkyrimUnlinkEdgesCommand {
  kind: 'skyrim-unlink-edges';
  sides: number[];
}

/**
 * Skyrim: the Creation Kit's Finalize as one edit (shared/edits/skyrim-finalize.ts): links
 * what meets and is not linked, makes the door portals this plugin's doors' XNDPs name, in `navmeshes` (all when absent), or only around `triangle`
 * of the first listed navmesh (a check's fix-up).
 */
export interface SkyrimFinalizeCommand {
  kind: 'skyrim-finalize';
  navmeshes?: number[];
  triangle?: number;
}

/**
 * Skyrim: navmesh door links (navmesh, triangle, door REFR: 3 numbers a link) with the
 * triangle's Door flag and the door in the navmesh's NVMI (shared/edits/skyrim-door-links.ts).
 * `at`, 2 numbers a link: position in the NVNM door list and in the NVMI door list
 * (-1 the end, -2 not added to NVMI); the end, and added when absent, by default.
 */
export interface SkyrimAddDoorLinksCommand {
  kind: 'skyrim-add-door-links';
  links: number[];
  at?: number[];
}

/** Skyrim: removes door links; `keep`, one a link: 1 keep the Door flag, 2 keep the NVMI door. */
export interface SkyrimRemoveDoorLinksCommand {
  kind: 'skyrim-remove-door-links';
  links: number[];
  keep?: number[];
}

/** Source: a new ladder (shared/edits/source-ladders.ts); ends in x y z, width in units. */
export interface SourceAddLadderCommand {
  kind: 'source-add-ladder';
  top: [number, number, number];
  bottom: [number, number, number];
  width: number;
  /** The NavDirType the ladder faces (0 N, 1 E, 2 S, 3 W); from top and bottom areas when absent. */
  direction?: number;
  /** The areas at its ends (area IDs, 0 = none); found under the ends when absent. */
  topArea?: number;
  bottomArea?: number;
  /** Top left, top right and top behind areas (0 = none); the inverse of a removal gives them back. */
  topOtherAreas?: number[];
  /** Stored length (top z − bottom z when absent). */
  length?: number;
  /** The ladder's ID (the next free one when absent) and its position in the list (the end when absent). */
  id?: number;
  index?: number;
}

/** Source: removes a ladder and the areas' links to it. */
export interface SourceRemoveLadderCommand {
  kind: 'source-remove-ladder';
  id: number;
}

/** Several document commands applied in order as one edit. */
export interface DocumentBatchCommand {
  kind: 'document-batch';
  commands: DocumentEditCommand[];
}

export type DocumentEditCommand =
  | SourceConnectCommand
  | SourceDisconnectCommand
  | SourceSetPlaceCommand
  | KotorSetTransitionCommand
  | GitInsertStructCommand
  | GitRemoveStructCommand
  | GitReplaceStructCommand
  | Nwn2AddCutterCommand
  | Nwn2SetCutterCommand
  | Nwn2DeleteCutterCommand
  | Nwn2AddPlaceableCommand
  | Nwn2MovePlaceableCommand
  | Nwn2RotatePlaceableCommand
  | SkyrimSetTriangleFlagsCommand
  | SkyrimLinkEdgesCommand
  | SkyrimUnlinkEdgesCommand
  | SkyrimFinalizeCommand
  | SkyrimAddDoorLinksCommand
  | SkyrimRemoveDoorLinksCommand
  | SourceAddLadderCommand
  | SourceRemoveLadderCommand
  | DocumentBatchCommand;

export type DocumentEditKind = DocumentEditCommand['kind'];

/** Which document a command edits: the handler id of a walkmesh file, or `git` for an NWN2 GIT. */
export type DocumentTarget = 'source-nav' | 'kotor-bwm' | 'git' | 'skyrim-plugin';

/** NWN2 GIT lists the edits touch (labels as the toolset writes them). */
export const GIT_TRIGGER_LIST = 'TriggerList';
export const GIT_PLACEABLE_LIST = 'Placeable List';
