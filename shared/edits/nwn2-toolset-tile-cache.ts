import { rebakeAswm } from '../bakers/nwn2/trx-rebake';
import type { TileTableCache } from '../bakers/nwn2/tile-table-reuse';
import type { AswmDocument } from '../formats/nwn2/aswm-document';
import { ModelMappingError } from '../model/model-mapping-error';

/**
 * A tile cache (tile-table-reuse.ts) whose tables are the ones a TRX stores, e.g. the
 * toolset's: a re-bake of the area given it keeps, in every tile whose triangles are
 * exactly the TRX's (same signature), the TRX's own path table and line-of-sight bits,
 * and computes only the tiles that changed. The toolset's line-of-sight rule is unknown
 * (issue 15: Walkbench's agrees on about 0.63 of the pairs), so this is what keeps an
 * edit from changing how the game sees across the tiles it did not touch.
 *
 * The signatures are those of the TRX's own mesh as Walkbench bakes it. A tile's stored
 * table is taken only where it is laid out as Walkbench lays it out (the same nodes, in
 * the same order, for the same local triangles), which holds in every tile of the 24
 * toolset TRX fixtures; any other tile's signature is spoiled so it never matches and is
 * baked afresh. Undefined for a TRX whose tables are stale (`bakeStale`: an edited file)
 * or that cannot be baked.
 */
export function storedTileCache(trx: AswmDocument): TileTableCache | undefined {
  if (trx.bakeStale) return undefined;
  let cache: TileTableCache | undefined;
  try {
    cache = rebakeAswm(trx, { keepTileCache: true }).tileCache;
  } catch (e) {
    if (e instanceof ModelMappingError) return undefined;
    throw e;
  }
  if (!cache) return undefined;
  const stored = trx.tiles;
  const ours = cache.tables;
  if (stored.count !== cache.signatureStart.length - 1) return undefined;
  const signatures = cache.signatures.slice();
  for (let k = 0; k < stored.count; k++) {
    if (!sameLayout(stored, ours, k)) signatures[cache.signatureStart[k]!] = 0xffffffff;
  }
  const { nodeCount, localToNodeStart, localToNode, nodeToLocalStart, nodeToLocal, nodesStart, nodes } = stored;
  return { ...cache, signatures, tables: { nodeCount, localToNodeStart, localToNode, nodeToLocalStart, nodeToLocal, nodesStart, nodes } };
}

type Tables = Pick<AswmDocument['tiles'], 'nodeCount' | 'localToNodeStart' | 'localToNode' | 'nodeToLocalStart' | 'nodeToLocal' | 'nodesStart' | 'nodes'>;

/** Tile k has the same nodes for the same local triangles in both tables, and a whole N² row block in `a`. */
function sameLayout(a: Tables, b: Tables, k: number): boolean {
  const n = a.nodeCount[k]!;
  if (n !== b.nodeCount[k]) return false;
  if (a.nodesStart[k]! + n * n > a.nodes.length) return false;
  const la = a.localToNodeStart[k]!, lb = b.localToNodeStart[k]!;
  const locals = b.localToNodeStart[k + 1]! - lb;
  if (a.localToNodeStart[k + 1]! - la !== locals || la + locals > a.localToNode.length) return false;
  for (let i = 0; i < locals; i++) if (a.localToNode[la + i] !== b.localToNode[lb + i]) return false;
  const na = a.nodeToLocalStart[k]!, nb = b.nodeToLocalStart[k]!;
  if (a.nodeToLocalStart[k + 1]! - na !== n || na + n > a.nodeToLocal.length) return false;
  for (let i = 0; i < n; i++) if (a.nodeToLocal[na + i] !== b.nodeToLocal[nb + i]) return false;
  return true;
}
