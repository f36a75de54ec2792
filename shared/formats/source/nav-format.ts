import type { FormatHandler } from '../format-handler';
import { hasSubVersion, NAV_MAGIC, placeList, placeName, type NavDocument } from './nav-document';
import { navGameLabel, navGates } from './nav-layout';
import { readNav } from './nav-reader';
import { validateNav } from './nav-validate';
import { navFromWalkmesh } from './nav-from-walkmesh';
import { navToWalkmesh } from './nav-walkmesh';
import { writeNav } from './nav-writer';

export const navFormat: FormatHandler<NavDocument> = {
  id: 'source-nav',
  game: 'source',
  label: 'Source engine navigation mesh',
  extensions: ['.nav'],
  sniff: (bytes) =>
    bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) === NAV_MAGIC,
  read: (bytes) => readNav(bytes),
  write: (doc) => writeNav(doc),
  summarize(doc) {
    const A = doc.areas;
    return {
      version: hasSubVersion(doc.version) ? `${doc.version} (sub-version ${doc.subVersion})` : String(doc.version),
      counts: {
        areas: A.count,
        ladders: doc.ladders.count,
        places: doc.places.count,
        connections: A.connectionTarget.length,
        hidingSpots: A.hidingSpotId.length,
        approachEntries: A.approachHere.length,
        encounterPaths: A.encounterFrom.length,
        visibilityEntries: A.visibleId.length,
      },
      details: {
        game: navGameLabel(doc.version, doc.subVersion, doc.customLayout),
        perAreaData: doc.customLayout,
        analyzed: doc.version >= 14 ? doc.isAnalyzed !== 0 : 'not stored before version 14',
        hasUnnamedAreas: doc.version >= 12 ? doc.hasUnnamedAreas !== 0 : 'not stored before version 12',
        bspSize: navGates.bspSize(doc.version) ? doc.bspSize : 'not stored before version 4',
        trailingBytes: doc.trailing.length,
        places: placeList(doc.places).map((p) => placeName(p)).join(', '),
      },
    };
  },
  validate: validateNav,
  toWalkmeshes: (doc, name) => [navToWalkmesh(doc, name)],
  fromWalkmeshes(meshes, base) {
    if (meshes.length !== 1) throw new RangeError(`a .nav file holds one walkmesh, not ${meshes.length}`);
    return navFromWalkmesh(meshes[0]!, base);
  },
};
