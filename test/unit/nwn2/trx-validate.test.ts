import { describe, expect, it } from 'vitest';
import { cloneAswm, NONE16, NONE32, TriangleFlag, type AswmDocument } from '../../../shared/formats/nwn2/aswm-document';
import { aswmPacketOf, type TrxDocument } from '../../../shared/formats/nwn2/trx-document';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { validateTrx } from '../../../shared/formats/nwn2/trx-validate';
import type { Finding } from '../../../shared/validation/finding';
import { readFixture } from '../../support/fixtures';
import { cases, env, loadTrx } from './nwn2-fixtures';

const MORD = 'mordmansion/CSLMordMansion.TRX';

/** Mord Mansion's TRX with its walkmesh replaced by an edited copy. */
function mutated(edit: (a: AswmDocument) => void, rel = MORD): TrxDocument {
  const { doc, aswm } = loadTrx(rel);
  const a = cloneAswm(aswm.aswm);
  edit(a);
  return { ...doc, packets: doc.packets.map((p) => (p === aswm ? { ...aswm, aswm: a } : p)) };
}

function findings(doc: TrxDocument, code: string): Finding[] {
  return validateTrx(doc).filter((f) => f.code === code);
}

function errorsOf(doc: TrxDocument): Finding[] {
  return validateTrx(doc).filter((f) => f.severity === 'error');
}

/** Index of the first walkable triangle with a neighbour across slot `k` (or any slot). */
function linkedTriangle(a: AswmDocument): { t: number; k: number } {
  for (let t = 0; t < a.triFlags.length; t++) for (let k = 0; k < 3; k++) if (a.triLinks[t * 3 + k] !== NONE32) return { t, k };
  throw new Error('no linked triangle');
}

/** An island with at least one adjacent island. */
function islandWithExit(a: AswmDocument): number {
  for (let i = 0; i < a.islands.count; i++) if (a.islands.adjacentStart[i + 1]! > a.islands.adjacentStart[i]!) return i;
  throw new Error('no island with an exit');
}

describe('NWN2 TRN/TRX validation', () => {
  it.each(cases)('%s has no errors', (_name, file) => {
    const doc = readTrx(readFixture(file), env);
    const all = validateTrx(doc);
    expect(all.filter((f) => f.severity === 'error')).toEqual([]);
    // What the real files do show are the documented toolset quirks, as warnings only.
    const known = new Set(['nwn2.triangle.winding-flag', 'nwn2.triangle.outside-tile']);
    expect(all.filter((f) => !known.has(f.code))).toEqual([]);
  });

  it('reports the clockwise flag that disagrees with the winding as a warning on the triangle', () => {
    const warnings = findings(loadTrx(MORD).doc, 'nwn2.triangle.winding-flag');
    // Spec §4.1: 1,766 of the sample TRX's 1,768 triangles are geometrically clockwise.
    expect(warnings).toHaveLength(2);
    for (const w of warnings) {
      expect(w.severity).toBe('warning');
      expect(w.subject?.kind).toBe('triangle');
      expect(w.message).toMatch(/clockwise flag \(0x04\) but its vertices run counter-clockwise/);
    }
  });

  it('reports a broken link between two triangles, naming the triangle and the edge', () => {
    let at = { t: 0, k: 0 };
    const doc = mutated((a) => {
      at = linkedTriangle(a);
      a.triLinks[at.t * 3 + at.k] = NONE32;
    });
    const f = findings(doc, 'nwn2.triangle.link-mismatch');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'error', subject: { kind: 'triangle', id: at.t } });
    expect(f[0]!.message).toMatch(new RegExp(`^triangle ${at.t}: slot ${at.k} pairs edge \\d+ with neighbour none, but edge \\d+ joins triangles`));
  });

  it('reports an edge whose triangle does not list it', () => {
    let e = 0;
    const doc = mutated((a) => {
      const { t, k } = linkedTriangle(a);
      e = a.triEdges[t * 3 + k]!;
      const other = a.edges[e * 4 + 2] === t ? a.edges[e * 4 + 3]! : a.edges[e * 4 + 2]!;
      // The edge now names a triangle that knows nothing of it.
      const stranger = other === 0 || t === 0 ? 5 : 0;
      if (a.edges[e * 4 + 2] === other) a.edges[e * 4 + 2] = stranger;
      else a.edges[e * 4 + 3] = stranger;
    });
    const f = findings(doc, 'nwn2.edge.triangle-does-not-name-edge');
    expect(f.length).toBeGreaterThanOrEqual(1);
    expect(f[0]).toMatchObject({ severity: 'error', subject: { kind: 'edge', id: e } });
  });

  it('reports edges and triangles that point past the end of their tables', () => {
    const doc = mutated((a) => {
      a.edges[1] = a.vertices.length; // edge 0, v1
      a.triVertices[4] = 1_000_000; // triangle 1
      a.triEdges[7] = NONE32; // triangle 2
    });
    expect(findings(doc, 'nwn2.edge.vertex-out-of-range')[0]).toMatchObject({ severity: 'error', subject: { kind: 'edge', id: 0 } });
    expect(findings(doc, 'nwn2.triangle.vertex-out-of-range')[0]).toMatchObject({ severity: 'error', subject: { kind: 'triangle', id: 1 } });
    expect(findings(doc, 'nwn2.triangle.edge-out-of-range')[0]).toMatchObject({ severity: 'error', subject: { kind: 'triangle', id: 2 } });
  });

  it('reports a tile with more than 127 walkable triangles', () => {
    // Make every triangle of Mord Mansion's fullest tile (182 triangles) walkable.
    const { aswm } = loadTrx(MORD);
    let tile = 0;
    for (let k = 0; k < aswm.aswm.tiles.count; k++) if (aswm.aswm.tiles.triangleCount[k]! > aswm.aswm.tiles.triangleCount[tile]!) tile = k;
    expect(aswm.aswm.tiles.triangleCount[tile]).toBeGreaterThan(127);
    const doc = mutated((a) => {
      const start = a.tiles.triangleOffset[tile]!;
      for (let t = start; t < start + a.tiles.triangleCount[tile]!; t++) a.triFlags[t] |= TriangleFlag.walkable;
    });
    const f = findings(doc, 'nwn2.tile.too-many-walkable');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'error', subject: { kind: 'tile', id: tile } });
    expect(f[0]!.message).toMatch(/has 182 walkable triangles; a tile's path table holds at most 127/);
  });

  it('accepts the toolset maximum of 127 walkable triangles in a tile', () => {
    const { doc, aswm } = loadTrx('kaedrin/oldskull_depths.trx');
    expect(Math.max(...aswm.aswm.tiles.nodeCount)).toBe(127);
    expect(findings(doc, 'nwn2.tile.too-many-walkable')).toEqual([]);
    expect(findings(doc, 'nwn2.tile.too-many-nodes')).toEqual([]);
  });

  it('reports tiles whose triangles are not contiguous, overlap or leave triangles unclaimed', () => {
    let k = 0;
    const doc = mutated((a) => {
      while (a.tiles.triangleCount[k] === 0) k++;
      a.tiles.triangleOffset[k]! += 1; // now overlaps the next tile by one and leaves one unclaimed
    });
    expect(findings(doc, 'nwn2.tile.offset-not-cumulative')[0]).toMatchObject({ severity: 'error', subject: { kind: 'tile', id: k } });
    expect(findings(doc, 'nwn2.triangle.no-tile')[0]).toMatchObject({ severity: 'error', subject: { kind: 'triangle', id: 0 } });
    const two = findings(doc, 'nwn2.triangle.two-tiles');
    expect(two).toHaveLength(1);
    expect(two[0]!.subject?.kind).toBe('triangle');

    const short = mutated((a) => {
      let last = a.tiles.count - 1;
      while (a.tiles.triangleCount[last] === 0) last--;
      a.tiles.triangleCount[last]! -= 1;
    });
    const claimed = findings(short, 'nwn2.tiles.claimed-count');
    expect(claimed).toHaveLength(1);
    expect(claimed[0]!.message).toMatch(/unclaimed faces/);
    expect(findings(short, 'nwn2.triangle.no-tile')[0]).toMatchObject({ subject: { kind: 'triangle', id: aswmPacketOf(short)!.aswm.triFlags.length - 1 } });
  });

  it('reports path-table nodes out of range and tables that disagree', () => {
    let tile = 0;
    const doc = mutated((a) => {
      while (a.tiles.nodeCount[tile]! < 3) tile++;
      const N = a.tiles.nodeCount[tile]!;
      a.tiles.nodes[a.tiles.nodesStart[tile]! + 1] = N + 2; // node 0 → node 1 goes to a node that does not exist
      const l = a.tiles.nodeToLocal[a.tiles.nodeToLocalStart[tile]!]!;
      a.tiles.localToNode[a.tiles.localToNodeStart[tile]! + l] = 1; // node 0's triangle now claims node 1
    });
    expect(findings(doc, 'nwn2.tile.node-out-of-range')[0]).toMatchObject({ severity: 'error', subject: { kind: 'tile', id: tile } });
    expect(findings(doc, 'nwn2.tile.tables-disagree')[0]).toMatchObject({ severity: 'error', subject: { kind: 'tile', id: tile } });
  });

  it('reports a path-table step to a triangle that is not a neighbour', () => {
    let tile = 0;
    const doc = mutated((a) => {
      const T = a.tiles;
      search: for (tile = 0; tile < T.count; tile++) {
        const N = T.nodeCount[tile]!;
        const base = T.nodesStart[tile]!;
        for (let from = 0; from < N; from++) {
          for (let to = 0; to < N; to++) {
            const v = T.nodes[base + from * N + to]!;
            if (v === 0xff || from === to) continue;
            // Step to a node that is neither the current next hop nor a neighbour of `from`.
            const fromT = T.triangleOffset[tile]! + T.nodeToLocal[T.nodeToLocalStart[tile]! + from]!;
            for (let n = 0; n < N; n++) {
              const nt = T.triangleOffset[tile]! + T.nodeToLocal[T.nodeToLocalStart[tile]! + n]!;
              if (n !== from && a.triLinks[fromT * 3] !== nt && a.triLinks[fromT * 3 + 1] !== nt && a.triLinks[fromT * 3 + 2] !== nt) {
                T.nodes[base + from * N + to] = n;
                break search;
              }
            }
          }
        }
      }
    });
    const f = findings(doc, 'nwn2.tile.next-not-adjacent');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'warning', subject: { kind: 'tile', id: tile } });
  });

  it('reports a bad exit triangle and one-sided island adjacency, naming the island', () => {
    let i = 0;
    const notMember = mutated((a) => {
      i = islandWithExit(a);
      const k = a.islands.exitStart[i]!;
      let t = 0;
      while (a.triIsland[t] === i) t++;
      a.islands.exit[k] = t;
    });
    expect(findings(notMember, 'nwn2.island.exit-not-member')[0]).toMatchObject({ severity: 'error', subject: { kind: 'island', id: i } });

    const notTouching = mutated((a) => {
      i = islandWithExit(a);
      const k = a.islands.exitStart[i]!;
      const j = a.islands.adjacent[a.islands.adjacentStart[i]!]!;
      // A member of island i that borders no triangle of island j.
      for (let t = 0; t < a.triFlags.length; t++) {
        if (a.triIsland[t] !== i) continue;
        let touches = false;
        for (let s = 0; s < 3; s++) if (a.triLinks[t * 3 + s] !== NONE32 && a.triIsland[a.triLinks[t * 3 + s]!] === j) touches = true;
        if (!touches) {
          a.islands.exit[k] = t;
          return;
        }
      }
    });
    const touching = findings(notTouching, 'nwn2.island.exit-not-touching');
    expect(touching[0]).toMatchObject({ severity: 'error', subject: { kind: 'island', id: i } });
    expect(touching[0]!.message).toMatch(/does not border any triangle of baked island \d+/);

    let j = 0;
    const oneSided = mutated((a) => {
      i = islandWithExit(a);
      j = a.islands.adjacent[a.islands.adjacentStart[i]!]!;
      // Island j forgets island i: replace it in j's list with j's own index.
      for (let k = a.islands.adjacentStart[j]!; k < a.islands.adjacentStart[j + 1]!; k++) if (a.islands.adjacent[k] === i) a.islands.adjacent[k] = j;
    });
    const sym = findings(oneSided, 'nwn2.island.adjacency-not-symmetric');
    expect(sym.map((f) => f.subject)).toContainEqual({ kind: 'island', id: i });
    expect(findings(oneSided, 'nwn2.island.self-adjacent')[0]).toMatchObject({ subject: { kind: 'island', id: j } });
  });

  it('reports island list lengths, indices and island paths out of range', () => {
    const doc = mutated((a) => {
      a.islands.index[3] = 7;
      a.islandPaths.next[0 * a.islands.count + 1] = a.islands.count + 5;
      a.triIsland[10] = a.islands.count + 1;
    });
    expect(findings(doc, 'nwn2.island.index')[0]).toMatchObject({ severity: 'error', subject: { kind: 'island', id: 3 } });
    expect(findings(doc, 'nwn2.island-path.next-out-of-range')[0]).toMatchObject({ severity: 'error', subject: { kind: 'island', id: 0 } });
    expect(findings(doc, 'nwn2.triangle.island-out-of-range')[0]).toMatchObject({ severity: 'error', subject: { kind: 'triangle', id: 10 } });

    const lengths = mutated((a) => {
      const i = islandWithExit(a);
      // Drop island i's last exit triangle.
      for (let k = i + 1; k <= a.islands.count; k++) a.islands.exitStart[k]! -= 1;
      a.islands.exit = Uint32Array.from([...a.islands.exit.subarray(0, a.islands.exitStart[i + 1]!), ...a.islands.exit.subarray(a.islands.exitStart[i + 1]! + 1)]);
    });
    expect(findings(lengths, 'nwn2.island.list-lengths')).toHaveLength(1);
  });

  it('requires owns_data = 1 and a TRWH and ASWM packet', () => {
    expect(findings(mutated((a) => (a.ownsData = 0)), 'nwn2.aswm.owns-data')[0]?.severity).toBe('error');
    const { doc } = loadTrx(MORD);
    const noTrwh = { ...doc, packets: doc.packets.filter((p) => p.kind !== 'trwh') };
    expect(errorsOf(noTrwh).map((f) => f.code)).toEqual(['nwn2.trx.trwh-missing']);
    const twoAswm = { ...doc, packets: [...doc.packets, aswmPacketOf(doc)!] };
    expect(errorsOf(twoAswm).map((f) => f.code)).toEqual(['nwn2.trx.aswm-duplicate']);
  });

  it('never checks the fields the spec calls garbage', () => {
    const before = validateTrx(loadTrx(MORD).doc);
    const doc = mutated((a) => {
      a.name.fill(0x5a);
      a.tiles.name.fill(0x41);
      a.tiles.vertexCount.fill(123456);
      a.tiles.edgeCount.fill(7);
      a.islands.tile.fill(0xdeadbeef);
      a.islandPaths.padding.fill(0xbeef);
      const I = a.islands.count;
      // Weights of self and unreachable pairs are garbage.
      for (let i = 0; i < I * I; i++) if (a.islandPaths.next[i] === NONE16) a.islandPaths.weight[i] = 0x7fc00001;
    });
    expect(validateTrx(doc)).toEqual(before);
  });

  it('lists at most 100 findings per kind and counts the rest', () => {
    const doc = mutated((a) => a.triEdges.fill(NONE32));
    const f = findings(doc, 'nwn2.triangle.edge-out-of-range');
    expect(f).toHaveLength(101);
    expect(f[100]!.message).toMatch(new RegExp(`more finding\\(s\\).*; ${aswmPacketOf(doc)!.aswm.triFlags.length * 3} in all`));
  });
});
