import { PLUGIN_FORMAT, type PluginDocument } from '../formats/skyrim/plugin-document';
import { cellLabel, pluginCells } from '../formats/skyrim/plugin-cells';
import { placeList, placeName, type NavDocument } from '../formats/source/nav-document';
import { navGates } from '../formats/source/nav-layout';
import type { KotorArea } from '../formats/kotor/kotor-area';
import type { ProjectNameTables } from './game-attribute-names';
import { aswmPacketOf, TRX_FORMAT, type TrxDocument } from '../formats/nwn2/trx-document';
import { roomEdgeChoices, type RoomEdgeChoice } from '../formats/kotor/kotor-room-links';

const NAV_FORMAT = 'source-nav';

/** Source: the map's place directory and each area's place (callout). */
export interface SourcePlacesView {
  /** Place names, index i is place i + 1 as areas name it. */
  names: string[];
  /** Area IDs (the walkmesh faceOwner values) and, at the same index, the area's place (0 = none). */
  areaIds: Uint32Array;
  areaPlaces: Uint16Array;
}

/** Skyrim: the cells owning a plugin's navmeshes, named as the Creation Kit lists them. */
export interface SkyrimCellView {
  formId: number;
  /** `EditorID (X, Y)`, `Tamriel (X, Y)` or the FormID (plugin-cells.ts `cellLabel`). */
  label: string;
  editorId: string | null;
  grid: [number, number] | null;
  interior: boolean;
  /** FormIDs of its navmeshes (the plugin's walkmeshes are named `… NAVM 0x…` by them). */
  navmeshes: number[];
}

/** KotOR: the layout a room walkmesh belongs to, with the rooms each perimeter edge may lead to. */
export interface KotorRoomsView {
  /** The LYT file the rooms are listed in. */
  layout: string;
  /** This room's index in the layout. */
  room: number;
  /** Every LYT room in order (the index edge transitions name) and whether its walkmesh is in the project. */
  rooms: { name: string; walkmesh: boolean }[];
  edges: RoomEdgeChoice[];
}

/**
 * NWN2: the pathing island each triangle of the TRX/TRN walkmesh (its only walkmesh) is
 * stored in, 0xFFFF for none, as the file holds it (stale until the area is baked again).
 */
export interface Nwn2BakedIslandsView {
  faceIsland: Uint16Array;
}

/** A game's own structure of an opened file, beyond its walkmeshes (OpenedFile.structure). */
export interface GameStructure {
  places?: SourcePlacesView;
  bakedIslands?: Nwn2BakedIslandsView;
  /** The project's own name tables (KotOR surfacemat.2da, NWN2 terrainmaterials.2da), when it has them. */
  tables?: ProjectNameTables;
  cells?: SkyrimCellView[];
  rooms?: KotorRoomsView;
}

export function sourcePlacesView(doc: NavDocument): SourcePlacesView | undefined {
  if (!navGates.place(doc.version)) return undefined;
  return {
    names: placeList(doc.places).map((p) => placeName(p)),
    areaIds: doc.areas.id.slice(),
    areaPlaces: doc.areas.place.slice(),
  };
}

export function skyrimCellsView(doc: PluginDocument): SkyrimCellView[] {
  return pluginCells(doc).map((c) => ({
    formId: c.formId,
    label: cellLabel(c),
    editorId: c.editorId ?? null,
    grid: c.grid ?? null,
    interior: c.interior,
    navmeshes: c.navmeshFormIds,
  }));
}

export function kotorRoomsView(layout: string, area: KotorArea, room: number): KotorRoomsView {
  return {
    layout,
    room,
    rooms: area.rooms.map((r) => ({ name: r.name, walkmesh: r.doc !== undefined })),
    edges: roomEdgeChoices(area, room),
  };
}

/** The structure a format's document shows by itself (a KotOR room's layout needs the project: see kotorRoomsView). */
export function documentStructure(format: string, document: unknown): GameStructure | undefined {
  if (format === NAV_FORMAT) {
    const places = sourcePlacesView(document as NavDocument);
    return places ? { places } : undefined;
  }
  if (format === PLUGIN_FORMAT) return { cells: skyrimCellsView(document as PluginDocument) };
  if (format === TRX_FORMAT) {
    const aswm = aswmPacketOf(document as TrxDocument)?.aswm;
    return aswm && aswm.triIsland.length > 0 ? { bakedIslands: { faceIsland: aswm.triIsland.slice() } } : undefined;
  }
  return undefined;
}
