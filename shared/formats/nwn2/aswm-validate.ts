import {
  floatOfBits,
  floatView,
  KNOWN_TRIANGLE_FLAGS,
  MAX_TILE_NODES,
  NO_NODE,
  NODE_INDEX_MASK,
  NONE16,
  NONE32,
  TILES_FLAGS_TRN,
  TILES_FLAGS_TRX,
  TriangleFlag,
  type AswmDocument,
} from './aswm-document';
import { deriveTriangle, signedArea2 } from './aswm-geometry';
import { hex } from './aswm-layout';
import { nwn2TileName } from './tile-name';
import type { FindingSink } from '../../validation/finding-sink';

const tri = (id: number) => ({ kind: 'triangle' as const, id });
const edge = (id: number) => ({ kind: 'edge' as const, id });
const tileSubject = (id: number) => ({ kind: 'tile' as const, id });
const island = (id: number) => ({ kind: 'island' as const, id });
const idx = (v: number) => (v === NONE32 ? 'none' : String(v));

/** How far a stored centre may be from the vertices' mean before it counts as stale (m). */
const CENTRE_TOLERANCE = 1e-3;
const NORMAL_TOLERANCE = 1e-3;
/** A centre this close to its tile (m) is float noise of a centre on the border, not misplaced. */
const TILE_SLACK = 1e-3;
/** Slivers below this doubled area have no reliable winding. */
const WINDING_EPSILON = 1e-9;

/**
 * Checks an ASWM walkmesh against what the game's loaders and the community tools rely on
 * (spec §7: nwn-lib-d `validate` with its strict checks, Skywing's loader), plus the
 * conventions a bake must follow (spec §4, §12). What the game refuses or mis-reads is an
 * error; what it tolerates but a builder should look at is a warning. The fields the spec
 * calls garbage (names, island `tile`, island-path padding, weights of unreachable pairs,
 * tile vertex/edge counts) are never checked.
 */
export function validateAswm(a: AswmDocument, out: FindingSink): void {
  const V = a.vertices.length / 3;
  const E = a.edges.length / 4;
  const T = a.triFlags.length;
  const I = a.islands.count;
  const baked = I > 0 || a.tiles.localToNode.length > 0;

  if (a.version !== 0x6c) {
    out.warning('nwn2.aswm.old-version', undefined, () => `the walkmesh is ASWM version ${hex(a.version)}; the toolset writes 0x6C and Skywing's server library reads nothing else (Walkbench writes 0x6C after any edit)`);
  }
  if (a.ownsData !== 1) out.error('nwn2.aswm.owns-data', undefined, () => `the walkmesh header's owns_data is ${a.ownsData}; it must be 1 (Skywing and nwn-lib-d refuse the file otherwise)`);
  if (a.faceOffset !== 0) out.warning('nwn2.aswm.face-offset', undefined, () => `the walkmesh header's face offset is ${a.faceOffset}; every toolset file has 0`);
  if (a.trailing.length > 0) out.warning('nwn2.aswm.trailing-bytes', undefined, () => `${a.trailing.length} byte(s) follow the island path table; nwn-lib-d refuses a walkmesh with bytes left over`);
  // Judged from what the file stores, never from `bakeStale` (an in-memory mark the bytes
  // do not keep): the findings of a document must be those of its written bytes read back.
  if (!baked && a.tilesFlags === TILES_FLAGS_TRX && hasWalkable(a)) {
    out.warning('nwn2.aswm.not-baked', undefined, () => 'this file (tiles flags 31, a TRX) has walkable triangles but no path tables or islands: creatures cannot path on it as it is; bake it (a project exports the bake)');
  }

  const p = floatView(a.vertices);
  for (let v = 0; v < V; v++) {
    if (!Number.isFinite(p[v * 3]!) || !Number.isFinite(p[v * 3 + 1]!) || !Number.isFinite(p[v * 3 + 2]!)) {
      out.error('nwn2.vertex.not-finite', undefined, () => `vertex ${v} is at (${p[v * 3]}, ${p[v * 3 + 1]}, ${p[v * 3 + 2]}); every coordinate must be a finite number`);
    }
  }

  validateEdges(a, out, V, E, T);
  validateTriangles(a, out, V, E, T, I);
  validateTiles(a, out, T);
  validateIslands(a, out, T, I);
}

function hasWalkable(a: AswmDocument): boolean {
  for (let t = 0; t < a.triFlags.length; t++) if (a.triFlags[t]! & TriangleFlag.walkable) return true;
  return false;
}

function validateEdges(a: AswmDocument, out: FindingSink, V: number, E: number, T: number): void {
  const named = new Uint8Array(E);
  for (let t = 0; t < T; t++) for (let k = 0; k < 3; k++) if (a.triEdges[t * 3 + k]! < E) named[a.triEdges[t * 3 + k]!] = 1;
  for (let e = 0; e < E; e++) {
    const v0 = a.edges[e * 4]!;
    const v1 = a.edges[e * 4 + 1]!;
    const t0 = a.edges[e * 4 + 2]!;
    const t1 = a.edges[e * 4 + 3]!;
    if (v0 >= V || v1 >= V) out.error('nwn2.edge.vertex-out-of-range', edge(e), () => `edge ${e} joins vertices ${v0} and ${v1}, but the walkmesh has ${V} vertices`);
    for (let side = 0; side < 2; side++) {
      const t = side === 0 ? t0 : t1;
      if (t !== NONE32 && t >= T) out.error('nwn2.edge.triangle-out-of-range', edge(e), () => `edge ${e} names triangle ${t}, but the walkmesh has ${T} triangles`);
    }
    if (t0 === NONE32 && t1 === NONE32) out.warning('nwn2.edge.no-triangle', edge(e), () => `edge ${e} belongs to no triangle`);
    else if (!named[e]) out.warning('nwn2.edge.unused', edge(e), () => `edge ${e} is named by no triangle's edge list (the toolset never leaves one)`);
    for (let side = 0; side < 2; side++) {
      const t = side === 0 ? t0 : t1;
      if (t === NONE32 || t >= T) continue;
      if (a.triEdges[t * 3] !== e && a.triEdges[t * 3 + 1] !== e && a.triEdges[t * 3 + 2] !== e) {
        out.error('nwn2.edge.triangle-does-not-name-edge', edge(e), () => `edge ${e} says it borders triangle ${t}, but triangle ${t} does not list edge ${e}`);
      } else if (!hasCorner(a, t, v0) || !hasCorner(a, t, v1)) {
        out.error('nwn2.edge.not-a-side', edge(e), () => `edge ${e} joins vertices ${v0}–${v1}, which is not a side of triangle ${t} (vertices ${Array.from(a.triVertices.subarray(t * 3, t * 3 + 3)).join(', ')})`);
      }
    }
  }
}

function hasCorner(a: AswmDocument, t: number, v: number): boolean {
  return a.triVertices[t * 3] === v || a.triVertices[t * 3 + 1] === v || a.triVertices[t * 3 + 2] === v;
}

function validateTriangles(a: AswmDocument, out: FindingSink, V: number, E: number, T: number, I: number): void {
  const centre = new Float32Array(T * 2);
  const normal = new Float32Array(T * 3);
  const dot = new Float32Array(T);
  const storedCentre = floatView(a.triCentre);
  const storedNormal = floatView(a.triNormal);
  const storedDot = floatView(a.triDot);
  const positions = floatView(a.vertices);
  for (let t = 0; t < T; t++) {
    const flags = a.triFlags[t]!;
    // Read as numbers, not as a subarray per triangle: a validation of a large area
    // otherwise spends much of its time collecting those views.
    const vs0 = a.triVertices[t * 3]!, vs1 = a.triVertices[t * 3 + 1]!, vs2 = a.triVertices[t * 3 + 2]!;
    let verticesOk = true;
    for (let k = 0; k < 3; k++) {
      const v = a.triVertices[t * 3 + k]!;
      if (v >= V) {
        verticesOk = false;
        out.error('nwn2.triangle.vertex-out-of-range', tri(t), () => `triangle ${t} uses vertex ${v}, but the walkmesh has ${V} vertices`);
      }
    }
    if (vs0 === vs1 || vs1 === vs2 || vs0 === vs2) {
      out.warning('nwn2.triangle.repeated-vertex', tri(t), () => `triangle ${t} uses one vertex twice (${vs0}, ${vs1}, ${vs2}): it has no area`);
    }

    for (let k = 0; k < 3; k++) {
      const e = a.triEdges[t * 3 + k]!;
      const n = a.triLinks[t * 3 + k]!;
      if (e >= E) {
        out.error('nwn2.triangle.edge-out-of-range', tri(t), () => `triangle ${t}: edge slot ${k} names edge ${idx(e)}, but the walkmesh has ${E} edges (every slot needs an edge)`);
        continue;
      }
      if (n !== NONE32 && n >= T) {
        out.error('nwn2.triangle.link-out-of-range', tri(t), () => `triangle ${t}: neighbour slot ${k} names triangle ${n}, but the walkmesh has ${T} triangles`);
        continue;
      }
      const t0 = a.edges[e * 4 + 2]!;
      const t1 = a.edges[e * 4 + 3]!;
      if (!((t0 === t && t1 === n) || (t0 === n && t1 === t))) {
        out.error('nwn2.triangle.link-mismatch', tri(t), () => `triangle ${t}: slot ${k} pairs edge ${e} with neighbour ${idx(n)}, but edge ${e} joins triangles ${idx(t0)} and ${idx(t1)}`);
      }
    }

    const isl = a.triIsland[t]!;
    if (isl !== NONE16 && I > 0 && isl >= I) {
      out.error('nwn2.triangle.island-out-of-range', tri(t), () => `triangle ${t} belongs to baked island ${isl}, but the walkmesh has ${I} islands`);
    }
    if (I > 0) {
      const walkable = (flags & TriangleFlag.walkable) !== 0;
      if (walkable && isl === NONE16) out.warning('nwn2.triangle.walkable-without-island', tri(t), () => `walkable triangle ${t} belongs to no island: creatures cannot path to it (bake the area again)`);
      if (!walkable && isl !== NONE16) out.warning('nwn2.triangle.unwalkable-in-island', tri(t), () => `unwalkable triangle ${t} belongs to baked island ${isl}; the toolset puts only walkable triangles in islands`);
    }
    if (flags & ~KNOWN_TRIANGLE_FLAGS & 0xffff) {
      out.warning('nwn2.triangle.unknown-flags', tri(t), () => `triangle ${t} has flag bits ${hex(flags & ~KNOWN_TRIANGLE_FLAGS & 0xffff)} that have no known meaning`);
    }
    // The game takes heights from the stored plane and path distances from the stored centre.
    const n0 = storedNormal[t * 3]!, n1 = storedNormal[t * 3 + 1]!, n2 = storedNormal[t * 3 + 2]!;
    let storedOk = true;
    if (!Number.isFinite(n0) || !Number.isFinite(n1) || !Number.isFinite(n2)) {
      storedOk = false;
      out.error('nwn2.triangle.normal-not-finite', tri(t), () => `triangle ${t}'s stored normal is (${n0}, ${n1}, ${n2}); every component must be a finite number`);
    }
    if (!Number.isFinite(storedDot[t]!)) {
      storedOk = false;
      out.error('nwn2.triangle.plane-not-finite', tri(t), () => `triangle ${t}'s stored plane offset is ${storedDot[t]}; it must be a finite number`);
    }
    if (!Number.isFinite(storedCentre[t * 2]!) || !Number.isFinite(storedCentre[t * 2 + 1]!)) {
      storedOk = false;
      out.error('nwn2.triangle.centre-not-finite', tri(t), () => `triangle ${t}'s stored centre is (${storedCentre[t * 2]}, ${storedCentre[t * 2 + 1]}); it must be a finite point`);
    }
    if (!verticesOk) continue;
    // A corner that is not a finite point is reported once, as a vertex; nothing derived from it is compared.
    let finiteCorners = true;
    for (let k = 0; k < 3; k++) for (let c = 0; c < 3; c++) if (!Number.isFinite(positions[a.triVertices[t * 3 + k]! * 3 + c]!)) finiteCorners = false;
    if (!finiteCorners) continue;

    const area = signedArea2(positions, a.triVertices, t);
    const clockwise = (flags & TriangleFlag.clockwise) !== 0;
    if (Math.abs(area) > WINDING_EPSILON && clockwise === area > 0) {
      out.warning('nwn2.triangle.winding-flag', tri(t), () =>
        clockwise
          ? `triangle ${t} has the clockwise flag (0x04) but its vertices run counter-clockwise seen from above`
          : `triangle ${t} runs clockwise seen from above but lacks the clockwise flag (0x04); the toolset sets it on every TRX triangle`,
      );
    }
    deriveTriangle(positions, a.triVertices, flags, t, centre, normal, dot);
    if (!storedOk) continue;
    if (Math.abs(centre[t * 2]! - storedCentre[t * 2]!) > CENTRE_TOLERANCE || Math.abs(centre[t * 2 + 1]! - storedCentre[t * 2 + 1]!) > CENTRE_TOLERANCE || !Number.isFinite(storedCentre[t * 2]! + storedCentre[t * 2 + 1]!)) {
      out.warning('nwn2.triangle.centre-stale', tri(t), () => `triangle ${t}'s stored centre (${storedCentre[t * 2]}, ${storedCentre[t * 2 + 1]}) is not the mean of its vertices (${centre[t * 2]}, ${centre[t * 2 + 1]}); the game uses it for path distances`);
    }
    let planeOff = !(Math.abs(dot[t]! - storedDot[t]!) <= NORMAL_TOLERANCE * Math.max(1, Math.abs(dot[t]!)));
    for (let k = 0; k < 3; k++) if (!(Math.abs(normal[t * 3 + k]! - storedNormal[t * 3 + k]!) <= NORMAL_TOLERANCE)) planeOff = true;
    if (planeOff) {
      out.warning('nwn2.triangle.plane-stale', tri(t), () => `triangle ${t}'s stored normal (${Array.from(storedNormal.subarray(t * 3, t * 3 + 3)).join(', ')}) and plane offset ${storedDot[t]} do not match its vertices (expected ${Array.from(normal.subarray(t * 3, t * 3 + 3)).join(', ')}; ${dot[t]}); the game uses them for heights on the walkmesh`);
    }
  }
}

function validateTiles(a: AswmDocument, out: FindingSink, T: number): void {
  const tiles = a.tiles;
  const width = floatOfBits(a.tileWidth);
  const gw = a.gridWidth;
  if (!(width > 0 && Number.isFinite(width))) out.error('nwn2.tiles.width', undefined, () => `the tile width is ${width}; it must be a positive number`);
  if (tiles.count === 0 && T > 0) out.error('nwn2.tiles.empty-grid', undefined, () => `the tile grid is ${a.gridWidth} × ${a.gridHeight}: no tile can hold the ${T} triangles`);
  if (a.tilesFlags !== TILES_FLAGS_TRN && a.tilesFlags !== TILES_FLAGS_TRX) {
    out.warning('nwn2.tiles.flags', undefined, () => `the tiles flags are ${a.tilesFlags}; the toolset writes 15 in a TRN and 31 in a TRX`);
  }
  if (a.borderSize > 0 && (a.borderSize * 2 >= a.gridWidth || a.borderSize * 2 >= a.gridHeight)) {
    out.warning('nwn2.tiles.border', undefined, () => `the border of ${a.borderSize} tiles on each side leaves nothing of the ${a.gridWidth} × ${a.gridHeight} grid`);
  }

  const owner = new Int32Array(T).fill(-1);
  const centre = floatView(a.triCentre);
  let running = 0;
  for (let k = 0; k < tiles.count; k++) {
    const subject = tileSubject(k);
    const tx = k % gw;
    const ty = (k / gw) | 0;
    const name = nwn2TileName(k, gw);
    const start = tiles.triangleOffset[k]!;
    const count = tiles.triangleCount[k]!;
    if (start !== running) {
      out.error('nwn2.tile.offset-not-cumulative', subject, () => `${name} says its triangles start at ${start}, but the tiles before it hold ${running}; Skywing's loader and nwn-lib-d would disagree about which triangles it owns (store triangles grouped by tile, in tile order)`);
    }
    running += count;
    if (start + count > T) {
      out.error('nwn2.tile.range', subject, () => `${name} claims triangles ${start} to ${start + count - 1}, but the walkmesh has ${T} triangles`);
    }
    const end = Math.min(T, start + count);
    let walkable = 0;
    for (let t = start; t < end; t++) {
      if (owner[t] >= 0) {
        const first = owner[t]!;
        out.error('nwn2.triangle.two-tiles', tri(t), () => `triangle ${t} is claimed by ${nwn2TileName(first, gw)} and by ${nwn2TileName(k, gw)}; a tile must not reuse another tile's triangles (it crashes NWN2)`);
      } else owner[t] = k;
      if (a.triFlags[t]! & TriangleFlag.walkable) walkable++;
      const cx = centre[t * 2]!;
      const cy = centre[t * 2 + 1]!;
      if (!(cx >= tx * width - TILE_SLACK && cx <= (tx + 1) * width + TILE_SLACK && cy >= ty * width - TILE_SLACK && cy <= (ty + 1) * width + TILE_SLACK)) {
        out.warning('nwn2.triangle.outside-tile', tri(t), () => `triangle ${t}'s centre (${cx}, ${cy}) lies outside ${name} that stores it (x ${tx * width}–${(tx + 1) * width}, y ${ty * width}–${(ty + 1) * width}); the game looks for it in another tile`);
      }
    }
    if (walkable > MAX_TILE_NODES) {
      out.error('nwn2.tile.too-many-walkable', subject, () => `${name} has ${walkable} walkable triangles; a tile's path table holds at most ${MAX_TILE_NODES} (simplify the walkmesh there or paint some of it unwalkable)`);
    }
    if (tiles.ownsData[k] !== 0) out.warning('nwn2.tile.owns-data', subject, () => `${name} stores its own vertices and edges (owns_data ${tiles.ownsData[k]}); NWN2 never writes such tiles`);
    if (tiles.flags[k] !== a.tilesFlags) out.warning('nwn2.tile.flags', subject, () => `${name}'s path-table flags are ${tiles.flags[k]}, but the tiles header says ${a.tilesFlags}; the toolset repeats the header's value`);
    validatePathTable(a, out, k, name, T);
  }
  if (running !== T) {
    out.error('nwn2.tiles.claimed-count', undefined, () =>
      running < T
        ? `the tiles hold ${running} triangles but the walkmesh has ${T}; Skywing's loader fails with "unclaimed faces"`
        : `the tiles hold ${running} triangles but the walkmesh has only ${T}`,
    );
  }
  for (let t = 0; t < T; t++) {
    if (owner[t] < 0) out.error('nwn2.triangle.no-tile', tri(t), () => `triangle ${t} belongs to no tile: the game cannot find or path across it`);
  }
}

function validatePathTable(a: AswmDocument, out: FindingSink, k: number, name: string, T: number): void {
  const tiles = a.tiles;
  const subject = tileSubject(k);
  const count = tiles.triangleCount[k]!;
  const offset = tiles.triangleOffset[k]!;
  const ltn = tiles.localToNode.subarray(tiles.localToNodeStart[k]!, tiles.localToNodeStart[k + 1]!);
  const ntl = tiles.nodeToLocal.subarray(tiles.nodeToLocalStart[k]!, tiles.nodeToLocalStart[k + 1]!);
  const N = tiles.nodeCount[k]!;
  const nodes = tiles.nodes.subarray(tiles.nodesStart[k]!, tiles.nodesStart[k + 1]!);
  const hasNodeToLocal = a.version >= 0x6b;

  if (tiles.rleSize[k] !== 0) out.warning('nwn2.tile.rle-size', subject, () => `${name}'s path table has rle_table_size ${tiles.rleSize[k]}; it is always 0`);
  if (ltn.length !== 0 && ltn.length !== count) {
    out.error('nwn2.tile.local-count', subject, () => `${name}'s path table covers ${ltn.length} triangles, but the tile holds ${count}`);
    return;
  }
  if (N > MAX_TILE_NODES) out.error('nwn2.tile.too-many-nodes', subject, () => `${name}'s path table has ${N} nodes; node index 0x7F and above cannot be stored (at most ${MAX_TILE_NODES})`);

  // local → node must be one-to-one onto the nodes, and node_to_local its inverse.
  const localOfNode = new Int32Array(N).fill(-1);
  for (let l = 0; l < ltn.length; l++) {
    const v = ltn[l]!;
    const t = offset + l;
    const walkable = t < T && (a.triFlags[t]! & TriangleFlag.walkable) !== 0;
    if (v === NO_NODE) {
      if (walkable) out.warning('nwn2.tile.walkable-without-node', tri(t), () => `walkable triangle ${t} has no node in ${name}'s path table: creatures cannot path through it (bake the area again)`);
      continue;
    }
    if (v >= N) {
      out.error('nwn2.tile.local-to-node-out-of-range', subject, () => `${name}: triangle ${t} maps to node ${v}, but the tile's path table has ${N} nodes`);
      continue;
    }
    if (!walkable && t < T) out.warning('nwn2.tile.unwalkable-node', tri(t), () => `unwalkable triangle ${t} has node ${v} in ${name}'s path table`);
    if (localOfNode[v]! >= 0) {
      const other = offset + localOfNode[v]!;
      out.error('nwn2.tile.node-shared', subject, () => `${name}: triangles ${other} and ${t} both map to node ${v}`);
    } else localOfNode[v] = l;
  }
  if (hasNodeToLocal) {
    for (let n = 0; n < ntl.length; n++) {
      const l = ntl[n]!;
      if (l >= count) {
        out.error('nwn2.tile.node-to-local-out-of-range', subject, () => `${name}: node ${n} stands for local triangle ${l}, but the tile holds ${count} triangles`);
      } else if (ltn.length > 0 && ltn[l] !== n) {
        out.error('nwn2.tile.tables-disagree', subject, () => `${name}: node ${n} stands for triangle ${offset + l}, but that triangle maps to node ${ltn[l] === NO_NODE ? 'none' : ltn[l]}`);
      }
    }
  }
  if (ltn.length > 0) {
    for (let n = 0; n < N; n++) {
      if (localOfNode[n]! < 0) out.error('nwn2.tile.node-without-triangle', subject, () => `${name}: node ${n} stands for no triangle of the tile`);
    }
  }

  for (let from = 0; from < N; from++) {
    for (let to = 0; to < N; to++) {
      const v = nodes[from * N + to]!;
      if (v === NO_NODE) continue;
      if (from === to) {
        out.warning('nwn2.tile.node-self', subject, () => `${name}: the path from node ${from} to itself is ${hex(v, 2)}; it is always 0xFF`);
        continue;
      }
      const next = v & NODE_INDEX_MASK;
      if (next >= N) {
        out.error('nwn2.tile.node-out-of-range', subject, () => `${name}: the path from node ${from} to node ${to} goes to node ${next}, but the tile has ${N} nodes`);
        continue;
      }
      const fromLocal = hasNodeToLocal ? ntl[from] : localOfNode[from];
      const nextLocal = hasNodeToLocal ? ntl[next] : localOfNode[next];
      if (fromLocal === undefined || nextLocal === undefined || fromLocal < 0 || nextLocal < 0 || fromLocal >= count || nextLocal >= count) continue;
      const ft = offset + fromLocal;
      const nt = offset + nextLocal;
      if (ft >= T || nt >= T) continue;
      if (a.triLinks[ft * 3] !== nt && a.triLinks[ft * 3 + 1] !== nt && a.triLinks[ft * 3 + 2] !== nt) {
        out.warning('nwn2.tile.next-not-adjacent', subject, () => `${name}: the path from triangle ${ft} to triangle ${offset + (hasNodeToLocal ? ntl[to]! : localOfNode[to]!)} steps to triangle ${nt}, which does not border triangle ${ft}`);
      }
    }
  }
}

function validateIslands(a: AswmDocument, out: FindingSink, T: number, I: number): void {
  const is = a.islands;
  const members = new Uint32Array(I);
  const tileOfIsland = new Int32Array(I).fill(-1);
  const spans = new Uint8Array(I);
  const owners = tileOwnerOf(a, T);
  for (let t = 0; t < T; t++) {
    const i = a.triIsland[t]!;
    if (i === NONE16 || i >= I) continue;
    members[i]!++;
    const tile = owners[t]!;
    if (tileOfIsland[i]! < 0) tileOfIsland[i] = tile;
    else if (tileOfIsland[i] !== tile) spans[i] = 1;
  }
  const adjacency = new Set<number>();
  for (let i = 0; i < I; i++) for (let j = is.adjacentStart[i]!; j < is.adjacentStart[i + 1]!; j++) adjacency.add(i * I + is.adjacent[j]!);

  for (let i = 0; i < I; i++) {
    const subject = island(i);
    if (is.index[i] !== i) out.error('nwn2.island.index', subject, () => `baked island ${i} says its index is ${is.index[i]}; it must be its position in the list`);
    if (is.triangleCount[i] !== members[i]) out.warning('nwn2.island.triangle-count', subject, () => `baked island ${i} says it has ${is.triangleCount[i]} triangles, but ${members[i]} triangles name it`);
    if (members[i] === 0) out.warning('nwn2.island.empty', subject, () => `no triangle belongs to baked island ${i}`);
    if (spans[i]) out.warning('nwn2.island.spans-tiles', subject, () => `baked island ${i}'s triangles lie in more than one tile; an island is a connected region inside one tile`);

    const a0 = is.adjacentStart[i]!;
    const nAdj = is.adjacentStart[i + 1]! - a0;
    const nDist = is.distanceStart[i + 1]! - is.distanceStart[i]!;
    const e0 = is.exitStart[i]!;
    const nExit = is.exitStart[i + 1]! - e0;
    if (nAdj !== nDist || nAdj !== nExit) {
      out.error('nwn2.island.list-lengths', subject, () => `baked island ${i} lists ${nAdj} adjacent islands, ${nDist} distances and ${nExit} exit triangles; the three lists must have the same length`);
    }
    const dist = floatView(is.distance.subarray(is.distanceStart[i]!, is.distanceStart[i + 1]!));
    for (let k = 0; k < dist.length; k++) {
      if (!(dist[k]! >= 0 && Number.isFinite(dist[k]!))) out.warning('nwn2.island.distance', subject, () => `baked island ${i}: the distance to its adjacent island #${k} is ${dist[k]}`);
    }
    for (let k = 0; k < nAdj; k++) {
      const j = is.adjacent[a0 + k]!;
      if (j === NONE16) {
        out.warning('nwn2.island.adjacent-none', subject, () => `baked island ${i} lists 0xFFFF as an adjacent island (Skywing accepts it, nwn-lib-d does not)`);
        continue;
      }
      if (j >= I) {
        out.error('nwn2.island.adjacent-out-of-range', subject, () => `baked island ${i} lists baked island ${j} as adjacent, but the walkmesh has ${I} islands`);
        continue;
      }
      if (j === i) out.error('nwn2.island.self-adjacent', subject, () => `baked island ${i} lists itself as adjacent`);
      else if (!adjacency.has(j * I + i)) out.error('nwn2.island.adjacency-not-symmetric', subject, () => `baked island ${i} lists baked island ${j} as adjacent, but baked island ${j} does not list baked island ${i}`);
      if (k >= nExit) continue;
      const x = is.exit[e0 + k]!;
      if (x >= T) {
        out.error('nwn2.island.exit-out-of-range', subject, () => `baked island ${i}: the exit towards baked island ${j} is triangle ${x}, but the walkmesh has ${T} triangles`);
        continue;
      }
      if (a.triIsland[x] !== i) {
        out.error('nwn2.island.exit-not-member', subject, () => `baked island ${i}: the exit towards baked island ${j} is triangle ${x}, which belongs to ${a.triIsland[x] === NONE16 ? 'no island' : `baked island ${a.triIsland[x]}`}`);
        continue;
      }
      let touches = false;
      for (let s = 0; s < 3; s++) {
        const n = a.triLinks[x * 3 + s]!;
        if (n !== NONE32 && n < T && a.triIsland[n] === j) touches = true;
      }
      if (!touches) out.error('nwn2.island.exit-not-touching', subject, () => `baked island ${i}: the exit towards baked island ${j} is triangle ${x}, which does not border any triangle of baked island ${j}`);
    }
  }

  const paths = a.islandPaths;
  for (let from = 0; from < I; from++) {
    for (let to = 0; to < I; to++) {
      const next = paths.next[from * I + to]!;
      if (next === NONE16) continue;
      if (from === to) {
        out.warning('nwn2.island-path.self', island(from), () => `the island path from baked island ${from} to itself goes to baked island ${next}; it is always "none" (0xFFFF)`);
        continue;
      }
      if (next >= I) {
        out.error('nwn2.island-path.next-out-of-range', island(from), () => `the island path from baked island ${from} to baked island ${to} goes to baked island ${next}, but the walkmesh has ${I} islands`);
        continue;
      }
      if (!adjacency.has(from * I + next)) {
        out.warning('nwn2.island-path.next-not-adjacent', island(from), () => `the island path from baked island ${from} to baked island ${to} steps to baked island ${next}, which is not adjacent to baked island ${from}`);
      }
    }
  }
}

function tileOwnerOf(a: AswmDocument, T: number): Int32Array {
  const owner = new Int32Array(T).fill(-1);
  for (let k = 0; k < a.tiles.count; k++) {
    const end = Math.min(T, a.tiles.triangleOffset[k]! + a.tiles.triangleCount[k]!);
    for (let t = a.tiles.triangleOffset[k]!; t < end; t++) if (owner[t] < 0) owner[t] = k;
  }
  return owner;
}
