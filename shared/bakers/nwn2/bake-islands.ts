import { ModelMappingError } from '../../model/model-mapping-error';
import { bitsOfFloat, NONE16, NONE32, type AswmIslands } from '../../formats/nwn2/aswm-document';
import type { BakeMesh } from './bake-mesh';
import { distance32 } from './distance32';

const f = Math.fround;

/** Island indices are u16 with 0xFFFF meaning none. */
export const MAX_ISLANDS = 0xffff;

export interface BakedIslands {
  islands: AswmIslands;
  /** Island of each triangle (0xFFFF for unwalkable triangles). */
  triIsland: Uint16Array;
  /** Island centres as float64 copies of the stored float32 values. */
  centreX: Float64Array;
  centreY: Float64Array;
}

/**
 * The islands as the toolset bakes them (spec §5.8):
 * - an island is a connected component of walkable triangles inside one tile, joined
 *   through linked_triangles within the tile;
 * - islands are ordered by tile, then by their lowest triangle index;
 * - centre = mean of the members' centres (x, y; z = 0), triangle count = members;
 * - adjacent islands = islands of other tiles a member links to, in order of first
 *   discovery scanning the members ascending and each member's three link slots;
 *   distance = 2-D distance between the centres; exit triangle = the lowest-index member
 *   linking to that island (the first found in that scan).
 * The island header's `tile` is garbage in toolset files (uninitialised memory): it is
 * taken from `previousTile` where there is one (so an unedited file keeps it) and
 * otherwise repeats its first value (or 0).
 *
 * Linear: one breadth-first pass per tile, a counting sort of the members, one scan of
 * their links.
 */
export function bakeIslands(m: BakeMesh, previousTile: Uint32Array): BakedIslands {
  const T = m.triangleCount;
  const island = new Int32Array(T).fill(-1);
  const queue = new Int32Array(T);
  let count = 0;
  const { links, walkable, tileOf, tileStart, tileEnd } = m;
  for (let k = 0; k < m.tileCount; k++) {
    const s = tileStart[k]!;
    const e = tileEnd[k]!;
    for (let t = s; t < e; t++) {
      if (walkable[t] === 0 || island[t] >= 0) continue;
      if (count === MAX_ISLANDS) {
        throw new ModelMappingError(`the walkmesh has more than ${MAX_ISLANDS} islands; NWN2 numbers islands with 16 bits`);
      }
      const id = count++;
      island[t] = id;
      let head = 0;
      let tail = 0;
      queue[tail++] = t;
      while (head < tail) {
        const u = queue[head++]!;
        for (let j = 0; j < 3; j++) {
          const v = links[u * 3 + j]!;
          if (v === NONE32 || v < s || v >= e || walkable[v] === 0 || island[v] >= 0) continue;
          island[v] = id;
          queue[tail++] = v;
        }
      }
    }
  }

  // Members of each island, ascending (a stable counting sort of the triangles).
  const memberStart = new Uint32Array(count + 1);
  for (let t = 0; t < T; t++) if (island[t]! >= 0) memberStart[island[t]! + 1]!++;
  for (let i = 0; i < count; i++) memberStart[i + 1]! += memberStart[i]!;
  const members = new Uint32Array(memberStart[count]!);
  const fill = memberStart.slice(0, count);
  for (let t = 0; t < T; t++) if (island[t]! >= 0) members[fill[island[t]!]!++] = t;

  const triIsland = new Uint16Array(T);
  for (let t = 0; t < T; t++) triIsland[t] = island[t]! >= 0 ? island[t]! : NONE16;

  const centre = new Uint32Array(count * 3);
  const centreX = new Float64Array(count);
  const centreY = new Float64Array(count);
  const triangleCount = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const a = memberStart[i]!;
    const b = memberStart[i + 1]!;
    // The toolset's arithmetic (bit for bit on every fixture island): a float32 running
    // sum times the float32 reciprocal of the count.
    let sx = 0;
    let sy = 0;
    for (let k = a; k < b; k++) {
      sx = f(sx + m.centreX[members[k]!]!);
      sy = f(sy + m.centreY[members[k]!]!);
    }
    const inverse = f(1 / (b - a));
    const x = f(sx * inverse);
    const y = f(sy * inverse);
    centreX[i] = x;
    centreY[i] = y;
    centre[i * 3] = bitsOfFloat(x);
    centre[i * 3 + 1] = bitsOfFloat(y);
    centre[i * 3 + 2] = 0;
    triangleCount[i] = b - a;
  }

  const adjacentStart = new Uint32Array(count + 1);
  const adjacentAll = new Uint32Array(members.length * 3);
  const exitAll = new Uint32Array(members.length * 3);
  let n = 0;
  for (let i = 0; i < count; i++) {
    adjacentStart[i] = n;
    const first = n;
    for (let k = memberStart[i]!, end = memberStart[i + 1]!; k < end; k++) {
      const t = members[k]!;
      const tile = tileOf[t]!;
      for (let j = 0; j < 3; j++) {
        const v = links[t * 3 + j]!;
        if (v === NONE32 || walkable[v] === 0 || tileOf[v] === tile) continue;
        const other = island[v]!;
        let seen = false;
        for (let q = first; q < n; q++) {
          if (adjacentAll[q] === other) {
            seen = true;
            break;
          }
        }
        if (seen) continue;
        adjacentAll[n] = other;
        exitAll[n] = t;
        n++;
      }
    }
  }
  adjacentStart[count] = n;
  const adjacent = adjacentAll.slice(0, n);
  const distance = new Uint32Array(n);
  for (let i = 0; i < count; i++) {
    for (let q = adjacentStart[i]!, end = adjacentStart[i + 1]!; q < end; q++) {
      const o = adjacent[q]!;
      distance[q] = bitsOfFloat(distance32(centreX[i]!, centreY[i]!, centreX[o]!, centreY[o]!));
    }
  }

  const index = new Uint32Array(count);
  const tile = new Uint32Array(count);
  const filler = previousTile.length > 0 ? previousTile[0]! : 0;
  for (let i = 0; i < count; i++) {
    index[i] = i;
    tile[i] = i < previousTile.length ? previousTile[i]! : filler;
  }
  return {
    islands: {
      count,
      index,
      tile,
      centre,
      triangleCount,
      adjacentStart,
      adjacent,
      distanceStart: adjacentStart.slice(),
      distance,
      exitStart: adjacentStart.slice(),
      exit: exitAll.slice(0, n),
    },
    triIsland,
    centreX,
    centreY,
  };
}

