import { describe, expect, it } from 'vitest';
import { compareBakes } from '../../../shared/bakers/nwn2/bake-compare';
import { rebakeAswm } from '../../../shared/bakers/nwn2/trx-rebake';
import { floatView, NO_NODE, NONE16, NONE32, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import { smallMesh, tileEntry, type SmallMesh } from './bake-test-support';

/**
 * Two 9 m tiles side by side. In tile 0 (x < 9) two cells at x 7–9, rows y 1–3 (A) and
 * 5–7 (B), separated by an unwalkable cell; in tile 1 a column of three cells at x 9–11
 * (C) touching both, and a loose triangle (D) linked to nothing.
 */
function twoTiles(): { mesh: SmallMesh; cell: (col: number, row: number) => [number, number]; loose: number } {
  const points: [number, number][] = [];
  for (let j = 0; j < 4; j++) for (let i = 0; i < 3; i++) points.push([7 + 2 * i, 1 + 2 * j]);
  const triangles: [number, number, number][] = [];
  const order: [number, number][] = [[0, 0], [0, 2], [0, 1], [1, 0], [1, 1], [1, 2]];
  const at = new Map<string, [number, number]>();
  for (const [c, r] of order) {
    const bl = r * 3 + c;
    at.set(`${c},${r}`, [triangles.length, triangles.length + 1]);
    triangles.push([bl, bl + 1, bl + 4], [bl, bl + 4, bl + 3]);
  }
  const loose = triangles.length;
  points.push([15, 1], [17, 1], [15, 3]);
  triangles.push([12, 13, 14]);
  const mesh: SmallMesh = { points, triangles, unwalkable: at.get('0,1')!, grid: [2, 1] };
  return { mesh, cell: (c, r) => at.get(`${c},${r}`)!, loose };
}

function bake(m: SmallMesh): { a: AswmDocument; indexOf: number[] } {
  const { aswm, indexOf } = smallMesh(m);
  return { a: rebakeAswm(aswm).aswm, indexOf };
}

describe('tile path tables', () => {
  it('number the walkable triangles in ascending order and leave the rest without a node', () => {
    const { mesh } = twoTiles();
    const { a } = bake(mesh);
    const t = a.tiles;
    for (let k = 0; k < 2; k++) {
      const local = t.triangleCount[k]!;
      const ltn = Array.from(t.localToNode.subarray(t.localToNodeStart[k]!, t.localToNodeStart[k + 1]!));
      const ntl = Array.from(t.nodeToLocal.subarray(t.nodeToLocalStart[k]!, t.nodeToLocalStart[k + 1]!));
      expect(ltn).toHaveLength(local);
      const walkable = [...Array(local).keys()].filter((i) => a.triFlags[t.triangleOffset[k]! + i]! & 1);
      expect(ntl).toEqual(walkable);
      expect(t.nodeCount[k]).toBe(walkable.length);
      for (let i = 0; i < local; i++) expect(ltn[i]).toBe(walkable.includes(i) ? walkable.indexOf(i) : NO_NODE);
      expect(t.pathFlags[k]).toBe(0);
      expect(t.rleSize[k]).toBe(0);
    }
    expect(t.nodeCount[0]).toBe(4);
    expect(t.nodeCount[1]).toBe(7);
  });

  it('store 0xFF on the diagonal and for pairs not joined inside the tile, and the neighbour itself for linked pairs', () => {
    const { mesh, cell, loose } = twoTiles();
    const { a, indexOf } = bake(mesh);
    const [a0, a1] = cell(0, 0).map((i) => indexOf[i]!) as [number, number];
    const [b0] = cell(0, 2).map((i) => indexOf[i]!) as [number];
    const [c0, c1] = cell(1, 0).map((i) => indexOf[i]!) as [number, number];
    const d = indexOf[loose]!;
    // A and B are in one tile but joined only through tile 1.
    expect(tileEntry(a, 0, a0, b0)).toBe(NO_NODE);
    expect(tileEntry(a, 0, a0, a0)).toBe(NO_NODE);
    expect(tileEntry(a, 1, c0, d)).toBe(NO_NODE);
    expect(tileEntry(a, 1, d, c0)).toBe(NO_NODE);
    // The two triangles of a cell share its diagonal: each is the other's next hop.
    const nodeOf = (k: number, tri: number) => a.tiles.localToNode[a.tiles.localToNodeStart[k]! + tri - a.tiles.triangleOffset[k]!]!;
    expect(tileEntry(a, 0, a0, a1) & 0x7f).toBe(nodeOf(0, a1));
    expect(tileEntry(a, 1, c1, c0) & 0x7f).toBe(nodeOf(1, c0));
    // Every stored hop lies on a shortest path (checked against the mesh by the compare module).
    expect(compareBakes(a, a).reference.nextHopOnShortestPath).toBe(1);
  });

  it('refuse a tile with more than 127 walkable triangles', () => {
    const points: [number, number][] = [];
    for (let j = 0; j <= 8; j++) for (let i = 0; i <= 8; i++) points.push([0.5 + i, 0.5 + j]);
    const triangles: [number, number, number][] = [];
    for (let j = 0; j < 8; j++) for (let i = 0; i < 8; i++) triangles.push([j * 9 + i, j * 9 + i + 1, j * 9 + i + 10], [j * 9 + i, j * 9 + i + 10, j * 9 + i + 9]);
    const { aswm } = smallMesh({ points, triangles });
    expect(() => rebakeAswm(aswm)).toThrow(ModelMappingError);
    expect(() => rebakeAswm(aswm)).toThrow(/128 walkable triangles.*127/);
    // With one triangle unwalkable the tile fits.
    const fits = smallMesh({ points, triangles, unwalkable: [0] }).aswm;
    expect(rebakeAswm(fits).aswm.tiles.nodeCount[0]).toBe(127);
  });
});

describe('islands', () => {
  it('are the per-tile components, ordered by tile and lowest triangle, with centres, adjacency and exits as the toolset makes them', () => {
    const { mesh, cell, loose } = twoTiles();
    const { a, indexOf } = bake(mesh);
    const tri = (c: number, r: number) => cell(c, r).map((i) => indexOf[i]!);
    const isl = a.islands;
    expect(isl.count).toBe(4);
    const members = (i: number) => [...a.triIsland.keys()].filter((t) => a.triIsland[t] === i);
    expect(members(0)).toEqual(tri(0, 0));
    expect(members(1)).toEqual(tri(0, 2));
    expect(members(2)).toEqual([...tri(1, 0), ...tri(1, 1), ...tri(1, 2)].sort((x, y) => x - y));
    expect(members(3)).toEqual([indexOf[loose]!]);
    for (const t of tri(0, 1)) expect(a.triIsland[t]).toBe(NONE16);
    expect(Array.from(isl.index)).toEqual([0, 1, 2, 3]);
    expect(Array.from(isl.triangleCount)).toEqual([2, 2, 6, 1]);

    const centres = floatView(a.triCentre);
    const ic = floatView(isl.centre);
    for (let i = 0; i < 4; i++) {
      const m = members(i);
      expect(ic[i * 3]).toBeCloseTo(m.reduce((s, t) => s + centres[t * 2]!, 0) / m.length, 5);
      expect(ic[i * 3 + 1]).toBeCloseTo(m.reduce((s, t) => s + centres[t * 2 + 1]!, 0) / m.length, 5);
      expect(ic[i * 3 + 2]).toBe(0);
    }

    const list = (values: Uint32Array, start: Uint32Array, i: number) => Array.from(values.subarray(start[i]!, start[i + 1]!));
    expect(list(isl.adjacent, isl.adjacentStart, 0)).toEqual([2]);
    expect(list(isl.adjacent, isl.adjacentStart, 1)).toEqual([2]);
    // C's members are scanned in ascending order: its bottom cell (touching A) comes first.
    expect(list(isl.adjacent, isl.adjacentStart, 2)).toEqual([0, 1]);
    expect(list(isl.adjacent, isl.adjacentStart, 3)).toEqual([]);
    // Exit = the lowest member touching that island: the first triangle of each cell has the x = 9 side.
    expect(list(isl.exit, isl.exitStart, 0)).toEqual([tri(0, 0)[0]]);
    expect(list(isl.exit, isl.exitStart, 2)).toEqual([tri(1, 0)[1], tri(1, 2)[1]]);
    const dist = floatView(isl.distance);
    expect(dist[isl.distanceStart[0]!]).toBeCloseTo(Math.hypot(ic[6]! - ic[0]!, ic[7]! - ic[1]!), 5);
  });

  it('have path nodes through the first hop of a shortest route, with the first hop’s distance as weight', () => {
    const { mesh } = twoTiles();
    const { a } = bake(mesh);
    const p = a.islandPaths;
    const I = a.islands.count;
    const at = (i: number, j: number) => i * I + j;
    const weight = floatView(p.weight);
    const dist = floatView(a.islands.distance);
    expect(p.next[at(0, 1)]).toBe(2);
    expect(weight[at(0, 1)]).toBe(dist[a.islands.distanceStart[0]!]);
    expect(p.next[at(2, 1)]).toBe(1);
    expect(weight[at(2, 1)]).toBe(dist[a.islands.distanceStart[2]! + 1]);
    for (const [i, j] of [[0, 0], [0, 3], [3, 0], [2, 3], [3, 3]] as const) {
      expect(p.next[at(i, j)]).toBe(NONE16);
      expect(p.weight[at(i, j)]).toBe(0);
      expect(p.padding[at(i, j)]).toBe(0);
    }
  });

  it('link unwalkable triangles to no island and every walkable one to an island', () => {
    const { mesh } = twoTiles();
    const { a } = bake(mesh);
    for (let t = 0; t < a.triFlags.length; t++) expect(a.triIsland[t] !== NONE16).toBe((a.triFlags[t]! & 1) === 1);
    for (const e of a.triLinks) expect(e === NONE32 || e < a.triFlags.length).toBe(true);
  });
});
