import type { FileSummary } from '../format-handler';
import { floatOfBits, TILES_FLAGS_TRN, TILES_FLAGS_TRX, TriangleFlag } from './aswm-document';
import { hex } from './aswm-layout';
import { aswmPacketOf, trwhPacketOf, type TrxDocument } from './trx-document';

/** What `walkbench info` shows about a TRN/TRX. */
export function summarizeTrx(doc: TrxDocument): FileSummary {
  const p = aswmPacketOf(doc);
  const counts: Record<string, number> = { packets: doc.packets.length };
  for (const packet of doc.packets) counts[`packets${packet.type}`] = (counts[`packets${packet.type}`] ?? 0) + 1;
  const details: FileSummary['details'] = { container: `${doc.versionMajor}.${doc.versionMinor}` };
  const trwh = trwhPacketOf(doc)?.trwh;
  if (trwh) details.areaSize = `${trwh.width} × ${trwh.height} (TRWH id ${trwh.id})`;
  if (!p) return { version: `container ${doc.versionMajor}.${doc.versionMinor}, no walkmesh`, counts, details };

  const a = p.aswm;
  const T = a.triFlags.length;
  let walkable = 0;
  let clockwise = 0;
  for (let t = 0; t < T; t++) {
    if (a.triFlags[t]! & TriangleFlag.walkable) walkable++;
    if (a.triFlags[t]! & TriangleFlag.clockwise) clockwise++;
  }
  let nonEmptyTiles = 0;
  let maxWalkablePerTile = 0;
  let pathTableTiles = 0;
  for (let k = 0; k < a.tiles.count; k++) {
    if (a.tiles.triangleCount[k]! > 0) nonEmptyTiles++;
    if (a.tiles.localToNodeStart[k + 1]! > a.tiles.localToNodeStart[k]!) pathTableTiles++;
    maxWalkablePerTile = Math.max(maxWalkablePerTile, a.tiles.nodeCount[k]!);
  }
  Object.assign(counts, {
    vertices: a.vertices.length / 3,
    edges: a.edges.length / 4,
    triangles: T,
    walkableTriangles: walkable,
    tiles: a.tiles.count,
    nonEmptyTiles,
    tilesWithPathTables: pathTableTiles,
    islands: a.islands.count,
  });
  const kind = a.tilesFlags === TILES_FLAGS_TRX ? 'baked (TRX)' : a.tilesFlags === TILES_FLAGS_TRN ? 'unbaked (TRN)' : 'unknown';
  Object.assign(details, {
    aswmVersion: hex(a.version),
    compressed: p.compressed,
    uncompressedBytes: p.inflated.length || 0,
    grid: `${a.gridWidth} × ${a.gridHeight}`,
    tileWidth: floatOfBits(a.tileWidth),
    borderSize: a.borderSize,
    tilesFlags: a.tilesFlags,
    kind,
    clockwiseTriangles: clockwise,
    mostNodesInATile: maxWalkablePerTile,
  });
  return { version: `ASWM ${hex(a.version)} (container ${doc.versionMajor}.${doc.versionMinor})`, counts, details };
}
