import type { NvmiEntry } from '../../formats/skyrim/navi-document';
import { PATHING_DOOR_HASH, TRI_EDGE_LINK_BITS, TRI_PREFERRED, type NvnmDocument } from '../../formats/skyrim/nvnm-document';

/**
 * The NVMI floats: vertex mean x, y, z and the preferred-triangle fraction (spec §9.1). The
 * CK sums the coordinates in f32, in vertex order, and multiplies by f32(1 / n); that
 * reproduces every stored centre bit for bit, where a double mean misses by some ULPs.
 */
export function naviFloatsOf(v: NvnmDocument): Uint32Array {
  const p = new Float32Array(new Uint32Array(v.vertices).buffer);
  const nv = p.length / 3;
  const out = new Float32Array(4);
  const inv = nv ? Math.fround(1 / nv) : 0;
  for (let a = 0; a < 3; a++) {
    let sum = 0;
    for (let i = a; i < p.length; i += 3) sum = Math.fround(sum + p[i]!);
    out[a] = Math.fround(sum * inv);
  }
  let preferred = 0;
  for (const f of v.triFlags) if (f & TRI_PREFERRED) preferred++;
  const nt = v.triFlags.length;
  out[3] = nt ? preferred / nt : 0;
  return new Uint32Array(out.buffer);
}

export interface NaviNeighbours {
  /** Distinct neighbour navmeshes reached only from non-preferred triangles. */
  edgeLinks: number[];
  /** Distinct neighbour navmeshes reached from at least one Preferred triangle. */
  preferredEdgeLinks: number[];
}

/**
 * The NVMI neighbour lists (spec §9.1): the targets of the NVNM edge links used by the
 * triangles' link edges, split by the Preferred flag. In the fixtures a neighbour reached
 * from both kinds of triangle is only on the preferred list, so the lists are disjoint.
 * Order: first use in triangle order (the CK's own order looks like a hash table's).
 */
export function naviNeighboursOf(v: NvnmDocument): NaviNeighbours {
  const preferred = new Set<number>();
  const all = new Set<number>();
  const nl = v.edgeLinkNavmesh.length;
  for (let t = 0; t < v.triFlags.length; t++) {
    const flags = v.triFlags[t]!;
    for (let k = 0; k < 3; k++) {
      if ((flags & TRI_EDGE_LINK_BITS[k]!) === 0) continue;
      const li = v.triEdges[t * 3 + k]!;
      if (li < 0 || li >= nl) continue;
      const target = v.edgeLinkNavmesh[li]!;
      all.add(target);
      if (flags & TRI_PREFERRED) preferred.add(target);
    }
  }
  return { edgeLinks: [...all].filter((f) => !preferred.has(f)), preferredEdgeLinks: [...preferred] };
}

/** The NVMI door list: (PathingDoor hash, door REFR) for each distinct door of the NVNM, in NVNM order. */
export function naviDoorsOf(v: NvnmDocument): Uint32Array {
  const seen = new Set<number>();
  const out: number[] = [];
  for (const ref of v.doorRef) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    out.push(PATHING_DOOR_HASH, ref);
  }
  return new Uint32Array(out);
}

function sameSet(a: ArrayLike<number>, b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(b);
  for (let i = 0; i < a.length; i++) if (!s.has(a[i]!)) return false;
  return s.size === a.length;
}

/** True when the two (hash, ref) pair lists hold the same pairs, in any order. */
export function sameDoorPairs(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  const key = (x: Uint32Array, i: number) => `${x[i]}:${x[i + 1]}`;
  const s = new Set<string>();
  for (let i = 0; i + 1 < b.length; i += 2) s.add(key(b, i));
  for (let i = 0; i + 1 < a.length; i += 2) if (!s.has(key(a, i))) return false;
  return s.size === a.length / 2;
}

/** True when a stored u32 list holds exactly the derived set (order ignored). */
export function sameFormIdSet(stored: Uint32Array, derived: readonly number[]): boolean {
  return sameSet(stored, derived);
}

/**
 * The NVMI entry with the fields the CK derives from the navmesh: vertex mean, preferred
 * fraction, neighbour lists and doors. A list that already holds the derived set keeps
 * its stored order, so an unchanged navmesh writes identical bytes. The category, island
 * data and pathing cell are kept.
 */
export function rebakeNvmi(entry: NvmiEntry, v: NvnmDocument): NvmiEntry {
  const { edgeLinks, preferredEdgeLinks } = naviNeighboursOf(v);
  const doors = naviDoorsOf(v);
  return {
    ...entry,
    floats: naviFloatsOf(v),
    edgeLinks: sameSet(entry.edgeLinks, edgeLinks) ? entry.edgeLinks : new Uint32Array(edgeLinks),
    preferredEdgeLinks: sameSet(entry.preferredEdgeLinks, preferredEdgeLinks) ? entry.preferredEdgeLinks : new Uint32Array(preferredEdgeLinks),
    doors: sameDoorPairs(entry.doors, doors) ? entry.doors : doors,
  };
}
