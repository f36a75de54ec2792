import type { GameId } from '../model/walkmesh';
import type { DocumentEditCommand } from './document-edit-command';
import type { EditCommand } from './edit-command';

/**
 * The edit tools a file offers, one group per control in the edit toolbar. The same rules
 * decide what the toolbar enables (with the reason as its tooltip) and what the edit
 * service refuses, so a tool is never offered and then refused.
 */
export type EditToolGroup =
  | 'paint'
  | 'paint-walkable'
  | 'move'
  | 'delete'
  | 'flip'
  | 'create'
  | 'split-edge'
  | 'weld'
  | 'areas'
  | 'connections'
  | 'room-links'
  | 'cover'
  | 'navmesh-links'
  | 'placements';

export const editToolGroups: readonly EditToolGroup[] = [
  'paint',
  'paint-walkable',
  'move',
  'delete',
  'flip',
  'create',
  'split-edge',
  'weld',
  'areas',
  'connections',
  'room-links',
  'cover',
  'navmesh-links',
  'placements',
];

/** Why each group cannot be used on a file; a group that is absent can. */
export type EditRefusals = Partial<Record<EditToolGroup, string>>;

/** What decides a file's tools: its game, kind and format, and for NWN2 what its area holds. */
export interface EditTarget {
  /** The file as the user knows it (`module/name`), for the messages. */
  name: string;
  game: GameId | null;
  /** The project's file kind (walkmesh, trn, git…). */
  kind: string;
  format: string | null;
  /** NWN2 walkmeshes (TRN, TRX): what the project holds of the file's area. */
  nwn2Area?: {
    /** `module/name` of the area's TRN, TRX and GIT in the project, when there. */
    trn: string | null;
    trx: string | null;
    git: string | null;
    /** The area is exported as baked from its TRN and GIT (one of them was edited). */
    bakedFromTrnAndGit: boolean;
  };
}

const ALL_MESH_GROUPS: readonly EditToolGroup[] = ['paint', 'paint-walkable', 'move', 'delete', 'flip', 'create', 'split-edge', 'weld'];

function refuse(out: EditRefusals, groups: readonly EditToolGroup[], reason: string): void {
  for (const g of groups) out[g] ??= reason;
}

/**
 * The tool groups a project file cannot use, each with the reason a designer reads. Rules:
 * - only walkmesh files and NWN2 TRNs are edited in a tab (GIT placements are edited from
 *   the area's TRN or TRX);
 * - an NWN2 TRN is where the area's ground is painted (walkable, surface flags), as in the
 *   toolset; its shape comes from the terrain and tile models, so it is not reshaped here;
 *   it is baked with the area's GIT, so it needs the GIT and the TRX (what the game loads)
 *   in the project;
 * - an NWN2 TRX whose area is exported as the bake of its TRN and GIT (one was edited)
 *   takes no walkmesh edits: the export would not carry them;
 * - Source faces are halves of area rectangles (no flip, create, split-edge or weld), and
 *   Source and Skyrim faces are all walkable;
 * - areas and connections are Source's, room links KotOR rooms', cover Skyrim's, cutters
 *   and placeables NWN2's.
 */
export function editRefusals(target: EditTarget): EditRefusals {
  const out: EditRefusals = {};
  const isWalkmesh = target.kind === 'walkmesh';
  const isTrn = target.kind === 'trn';
  if (target.kind === 'git' && target.game === 'nwn2') {
    refuse(out, [...ALL_MESH_GROUPS, 'areas', 'connections', 'room-links', 'cover', 'navmesh-links'], `${target.name} is an NWN2 GIT: it holds the area's cutters and placeables, not a walkmesh`);
    return out;
  }
  if (!isWalkmesh && !isTrn) {
    refuse(out, [...ALL_MESH_GROUPS, 'areas', 'connections', 'room-links', 'cover', 'navmesh-links', 'placements'], `${target.name} is a ${target.kind} file: it is not edited as a walkmesh`);
    return out;
  }
  const area = target.nwn2Area;
  if (target.game === 'nwn2' && area) {
    if (isTrn) {
      if (!area.git) refuse(out, [...ALL_MESH_GROUPS, 'placements'], `the area's GIT is not in the project: import it, so that the TRN is baked with the area's cutters and placeables`);
      else if (!area.trx) refuse(out, ALL_MESH_GROUPS, `the area's TRX is not in the project: import it (the bake of the TRN and GIT is exported as the TRX)`);
      refuse(out, ['move', 'delete', 'flip', 'create', 'split-edge', 'weld'], `the TRN's ground is painted (walkable, surface flags), not reshaped: its shape comes from the terrain and the tile models; reshape it in the NWN2 toolset and import it again`);
    } else if (area.bakedFromTrnAndGit) {
      refuse(out, ALL_MESH_GROUPS, `this area is exported as baked from its TRN and GIT (${area.trn ?? 'the TRN'} or the GIT was edited), so edits of this TRX would not reach the game: paint the ground in ${area.trn ?? 'the TRN'}`);
    }
    if (!area.git) refuse(out, ['placements'], `the area's GIT is not in the project: walkmesh cutters and placeables live there`);
  } else {
    refuse(out, ['placements'], 'walkmesh cutters and placeables are NWN2 areas’ (their GIT)');
  }
  if (target.game === 'source') {
    const reason = 'a Source .nav mesh is made of area rectangles (two faces each): edit whole areas (split, merge, move corners up or down), not single faces';
    refuse(out, ['flip', 'create', 'split-edge', 'weld'], reason);
  } else refuse(out, ['areas', 'connections'], 'areas and their connections are Source .nav data');
  if (target.game === 'source' || target.game === 'skyrim') {
    refuse(out, ['paint-walkable'], `every face of a ${target.game === 'skyrim' ? 'Skyrim navmesh' : 'Source .nav mesh'} is walkable: paint its flags instead, or delete faces`);
  }
  if (!(target.game === 'kotor' && /\.wok$/i.test(target.name))) refuse(out, ['room-links'], 'room links are KotOR room walkmeshes’ (.wok)');
  if (target.game !== 'skyrim') refuse(out, ['cover'], 'cover edges are Skyrim navmeshes’');
  if (target.game !== 'skyrim') refuse(out, ['navmesh-links'], 'edge links between navmeshes (Finalize) are Skyrim navmeshes’');
  return out;
}

/** Every group refused with one reason (a file opened from disk, a view of a bake). */
export function refuseAll(reason: string): EditRefusals {
  const out: EditRefusals = {};
  refuse(out, editToolGroups, reason);
  return out;
}

/** The toolbar group a walkmesh command belongs to (a batch: the first refused of its parts). */
export function editToolGroupsOf(command: EditCommand | DocumentEditCommand): EditToolGroup[] {
  switch (command.kind) {
    case 'paint-faces':
    case 'set-face-attributes':
      return command.walkable === undefined ? ['paint'] : ['paint', 'paint-walkable'];
    case 'move-vertices':
      return ['move'];
    case 'delete-faces':
    case 'insert-faces':
    case 'set-triangles':
    case 'append-vertices':
    case 'truncate-vertices':
      return ['delete'];
    case 'flip-faces':
      return ['flip'];
    case 'create-face':
    case 'fill-hole':
      return ['create'];
    case 'split-edge':
      return ['split-edge'];
    case 'weld-vertices':
      return ['weld'];
    case 'split-area':
    case 'merge-areas':
      return ['areas'];
    case 'batch':
    case 'document-batch':
      return [...new Set((command.commands as (EditCommand | DocumentEditCommand)[]).flatMap((c) => editToolGroupsOf(c)))];
    case 'source-connect':
    case 'source-disconnect':
    case 'source-set-place':
      // A place is area data of the .nav like its connections, refused where they are.
      return ['connections'];
    case 'kotor-set-transition':
      return ['room-links'];
    case 'skyrim-set-triangle-flags':
      return ['cover'];
    case 'skyrim-link-edges':
    case 'skyrim-unlink-edges':
    case 'skyrim-finalize':
    case 'skyrim-add-door-links':
    case 'skyrim-remove-door-links':
      return ['navmesh-links'];
    // Ladders are area data of the .nav like connections, refused where they are.
    case 'source-add-ladder':
    case 'source-remove-ladder':
      return ['connections'];
    case 'create-face-at-point':
      return ['create'];
    case 'source-create-area':
      return ['areas'];
    default:
      return ['placements'];
  }
}

/** The reason a command is refused on a file with these refusals, or null when it may be applied. */
export function refusalOf(refusals: EditRefusals, command: EditCommand | DocumentEditCommand): string | null {
  for (const g of editToolGroupsOf(command)) {
    const reason = refusals[g];
    if (reason !== undefined) return reason;
  }
  return null;
}
