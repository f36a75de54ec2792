import {
  edgeReservedWords,
  NO_NODE,
  triangleReservedWords,
  type AswmDocument,
  type AswmTiles,
  type AswmVersion,
} from './aswm-document';
import { edgeBytes, maxLocalCount } from './aswm-layout';

/**
 * The document in another ASWM version (spec §3.2). The fields every version shares are
 * kept; the reserved words of 0x69/0x6A are dropped (upgrading) or zero (downgrading).
 *
 * node_to_local, absent before 0x6B, is the inverse of local_to_node (the walkable
 * triangles' local indices in node order), so an upgrade rebuilds it; a tile whose
 * local_to_node is not a one-to-one map onto its nodes cannot be upgraded, and its path
 * table is emptied instead (`bakeStale` is then set). A downgrade throws RangeError when
 * something would not fit or would be lost: a local count over 255, a node_to_local entry
 * over 255 (0x6B) or one that is not that inverse (0x69, 0x6A).
 *
 * The result shares every array it does not change with `a` (clone first to edit both).
 */
export function convertAswmVersion(a: AswmDocument, target: AswmVersion): AswmDocument {
  if (a.version === target) return a;
  const T = a.triFlags.length;
  const E = a.edges.length / 4;
  const fail = (what: string): never => {
    throw new RangeError(`cannot write ASWM version 0x${target.toString(16)}: ${what}`);
  };
  const hadNodeToLocal = a.version >= 0x6b;
  const wantNodeToLocal = target >= 0x6b;

  const tiles = convertTables(a.tiles, hadNodeToLocal, wantNodeToLocal, maxLocalCount(target), fail);
  if (target === 0x6b) {
    for (let i = 0; i < tiles.nodeToLocal.length; i++) if (tiles.nodeToLocal[i]! > 0xff) fail(`a node_to_local entry (${tiles.nodeToLocal[i]}) does not fit a byte`);
  }
  if (edgeBytes(a.version) !== edgeBytes(target)) convertOwnedEdges(tiles, a.version, target);

  return {
    ...a,
    version: target,
    edgeReserved: new Uint32Array(E * edgeReservedWords(target)),
    triReserved: new Uint32Array(T * triangleReservedWords(target)),
    tiles: tiles.tiles,
    bakeStale: a.bakeStale || tiles.cleared,
  };
}

interface ConvertedTables {
  tiles: AswmTiles;
  nodeToLocal: Uint32Array;
  cleared: boolean;
}

function convertTables(
  src: AswmTiles,
  hadNodeToLocal: boolean,
  wantNodeToLocal: boolean,
  maxLocal: number,
  fail: (what: string) => never,
): ConvertedTables {
  const n = src.count;
  let cleared = false;
  const keep = new Uint8Array(n).fill(1);
  const derived: Uint32Array[] = [];
  for (let t = 0; t < n; t++) {
    const ltn = src.localToNode.subarray(src.localToNodeStart[t]!, src.localToNodeStart[t + 1]!);
    const inverse = inverseOf(ltn, src.nodeCount[t]!);
    if (hadNodeToLocal && !wantNodeToLocal) {
      const stored = src.nodeToLocal.subarray(src.nodeToLocalStart[t]!, src.nodeToLocalStart[t + 1]!);
      if (!inverse || inverse.length !== stored.length || inverse.some((v, i) => v !== stored[i])) {
        fail(`tile ${t}: node_to_local is not the inverse of local_to_node, and this version does not store it`);
      }
    }
    if (!hadNodeToLocal && wantNodeToLocal) {
      if (inverse) derived[t] = inverse;
      else {
        keep[t] = 0;
        cleared = true;
      }
    }
    if (ltn.length > maxLocal && keep[t]) fail(`tile ${t} has ${ltn.length} triangles in its path table; this version stores at most ${maxLocal}`);
  }

  const tiles: AswmTiles = {
    ...src,
    pathFlags: src.pathFlags.slice(),
    rleSize: src.rleSize.slice(),
    nodeCount: src.nodeCount.slice(),
    localToNodeStart: new Uint32Array(n + 1),
    nodeToLocalStart: new Uint32Array(n + 1),
    nodesStart: new Uint32Array(n + 1),
    ownedDataStart: src.ownedDataStart.slice(),
    ownedData: src.ownedData.slice(),
  };
  let ltnTotal = 0;
  let ntlTotal = 0;
  let nodesTotal = 0;
  for (let t = 0; t < n; t++) {
    if (!keep[t]) tiles.nodeCount[t] = 0;
    const nodes = tiles.nodeCount[t]!;
    ltnTotal += keep[t] ? src.localToNodeStart[t + 1]! - src.localToNodeStart[t]! : 0;
    ntlTotal += wantNodeToLocal ? nodes : 0;
    nodesTotal += nodes * nodes;
    tiles.localToNodeStart[t + 1] = ltnTotal;
    tiles.nodeToLocalStart[t + 1] = ntlTotal;
    tiles.nodesStart[t + 1] = nodesTotal;
  }
  tiles.localToNode = new Uint8Array(ltnTotal);
  tiles.nodeToLocal = new Uint32Array(ntlTotal);
  tiles.nodes = new Uint8Array(nodesTotal);
  for (let t = 0; t < n; t++) {
    if (!keep[t]) continue;
    tiles.localToNode.set(src.localToNode.subarray(src.localToNodeStart[t]!, src.localToNodeStart[t + 1]!), tiles.localToNodeStart[t]!);
    tiles.nodes.set(src.nodes.subarray(src.nodesStart[t]!, src.nodesStart[t + 1]!), tiles.nodesStart[t]!);
    if (wantNodeToLocal) {
      const ntl = hadNodeToLocal ? src.nodeToLocal.subarray(src.nodeToLocalStart[t]!, src.nodeToLocalStart[t + 1]!) : derived[t]!;
      tiles.nodeToLocal.set(ntl, tiles.nodeToLocalStart[t]!);
    }
  }
  return { tiles, nodeToLocal: tiles.nodeToLocal, cleared };
}

/** node → local index for a local_to_node that maps one-to-one onto 0..nodes-1, else undefined. */
function inverseOf(ltn: Uint8Array, nodes: number): Uint32Array | undefined {
  const out = new Uint32Array(nodes).fill(0xffffffff);
  for (let l = 0; l < ltn.length; l++) {
    const v = ltn[l]!;
    if (v === NO_NODE) continue;
    if (v >= nodes || out[v] !== 0xffffffff) return undefined;
    out[v] = l;
  }
  for (let i = 0; i < nodes; i++) if (out[i] === 0xffffffff) return undefined;
  return out;
}

/** Re-lays the edges a tile owns (52 bytes in 0x69, 16 after). */
function convertOwnedEdges(c: ConvertedTables, from: AswmVersion, to: AswmVersion): void {
  const t = c.tiles;
  if (t.ownedData.length === 0) return;
  const fromBytes = edgeBytes(from);
  const toBytes = edgeBytes(to);
  const starts = new Uint32Array(t.count + 1);
  const parts: Uint8Array[] = [];
  for (let k = 0; k < t.count; k++) {
    const old = t.ownedData.subarray(t.ownedDataStart[k]!, t.ownedDataStart[k + 1]!);
    let part = old;
    if (old.length > 0) {
      const vertexBytes = t.vertexCount[k]! * 12;
      const edges = t.edgeCount[k]!;
      part = new Uint8Array(vertexBytes + edges * toBytes);
      part.set(old.subarray(0, vertexBytes));
      for (let e = 0; e < edges; e++) part.set(old.subarray(vertexBytes + e * fromBytes, vertexBytes + e * fromBytes + 16), vertexBytes + e * toBytes);
    }
    parts.push(part);
    starts[k + 1] = starts[k]! + part.length;
  }
  const data = new Uint8Array(starts[t.count]!);
  parts.forEach((p, k) => data.set(p, starts[k]!));
  t.ownedData = data;
  t.ownedDataStart = starts;
}
