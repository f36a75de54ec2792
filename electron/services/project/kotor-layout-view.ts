import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { readLyt } from '../../../shared/formats/kotor/lyt-reader';
import type { OpenedFile } from '../../../shared/ipc/contract';
import type { Walkmesh } from '../../../shared/model/walkmesh';
import { warning } from '../../../shared/validation/finding';
import { kotorRoomsOfLayout } from './kotor-room-layout';
import type { ProjectStore } from './project-store';
import type { FileRecord } from './project-types';

/** A room's name as the assembled area shows it: the LYT name and its index (what transitions name). */
export function assembledRoomName(name: string, index: number): string {
  return `${name} (room ${index})`;
}

/**
 * A KotOR layout opened as its area: every room the LYT lists whose walkmesh the project
 * holds, as edited, named by its LYT room name, with faceOwner the room's LYT index (so the
 * owner colouring tells rooms apart). WOK vertices are already world space (kotor-area.ts),
 * so the rooms fall into place without the LYT positions. A room the project lacks is
 * named in a warning rather than silently left out; walkmeshes are read in LYT order.
 */
export function assembleLayout(
  store: ProjectStore,
  lyt: FileRecord,
  opened: OpenedFile,
  roomWalkmeshes: (room: FileRecord) => Walkmesh[],
): OpenedFile {
  let layout;
  try {
    layout = readLyt(store.loadCurrentBytes(lyt));
  } catch (e) {
    if (isMalformedInputError(e)) return opened;
    throw e;
  }
  const rooms = kotorRoomsOfLayout(store, lyt, layout);
  const walkmeshes: Walkmesh[] = [];
  const missing: string[] = [];
  layout.rooms.forEach((r, index) => {
    const f = rooms.get(r.name.toLowerCase());
    const mesh = f ? roomWalkmeshes(f)[0] : undefined;
    if (!mesh) {
      missing.push(r.name);
      return;
    }
    walkmeshes.push({ ...mesh, name: assembledRoomName(r.name, index), faceOwner: new Uint32Array(mesh.faceOwner.length).fill(index) });
  });
  const warnings = missing.length === 0 ? opened.report.warnings : [...opened.report.warnings, warning('kotor.layout.rooms-missing', `${lyt.name}: ${missing.length} of ${layout.rooms.length} rooms have no walkmesh in the project and are not shown: ${missing.join(', ')}`)];
  return { ...opened, walkmeshes, report: { ...opened.report, warnings } };
}
