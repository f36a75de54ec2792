import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ASWM_VERSIONS,
  edgeReservedWords,
  emptyTiles,
  TriangleFlag,
  type AswmDocument,
  type AswmTiles,
  type AswmVersion,
} from '../../../shared/formats/nwn2/aswm-document';
import { edgeBytes } from '../../../shared/formats/nwn2/aswm-layout';
import { readAswm } from '../../../shared/formats/nwn2/aswm-reader';
import { convertAswmVersion } from '../../../shared/formats/nwn2/aswm-version';
import { writeAswm } from '../../../shared/formats/nwn2/aswm-writer';
import { aswmPacketOf, type TrxDocument } from '../../../shared/formats/nwn2/trx-document';
import { trxFromWalkmeshes } from '../../../shared/formats/nwn2/trx-from-walkmesh';
import { readTrx } from '../../../shared/formats/nwn2/trx-reader';
import { validateTrx } from '../../../shared/formats/nwn2/trx-validate';
import { trxToWalkmeshes } from '../../../shared/formats/nwn2/trx-walkmesh';
import { writeTrx } from '../../../shared/formats/nwn2/trx-writer';
import { env, firstDifference, loadTrx } from './nwn2-fixtures';

/**
 * The fixtures are all version 0x6C; these properties cover 0x69–0x6B (spec §3.2) with
 * generated walkmeshes: whatever a document of version V holds, writing it as V and
 * reading it back gives the same document, and the same bytes again.
 */
const u8 = fc.integer({ min: 0, max: 0xff });
const u16 = fc.integer({ min: 0, max: 0xffff });
const u32 = fc.integer({ min: 0, max: 0xffffffff });
const words = (n: number, item: fc.Arbitrary<number> = u32) => fc.array(item, { minLength: n, maxLength: n }).map((a) => Uint32Array.from(a));
const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });

interface TileGen {
  name: Uint8Array;
  owned: { vertices: number; edges: number; data: Uint8Array } | null;
  header: Uint32Array; // vertexCount, edgeCount, triangleCount, sizeX, sizeY, triangleOffset
  pathFlags: number;
  rleSize: number;
  ltn: Uint8Array;
  ntl: Uint32Array;
  nodes: Uint8Array;
  flags: number;
}

function tileArb(version: AswmVersion): fc.Arbitrary<TileGen> {
  const ownedArb = fc.oneof(
    fc.constant(null),
    fc.record({ vertices: fc.integer({ min: 0, max: 2 }), edges: fc.integer({ min: 0, max: 2 }) }).chain(({ vertices, edges }) =>
      bytes(vertices * 12 + edges * edgeBytes(version)).map((data) => ({ vertices, edges, data })),
    ),
  );
  return fc.integer({ min: 0, max: 4 }).chain((n) =>
    fc.record({
      name: bytes(32),
      owned: ownedArb,
      header: words(6),
      // The RLE and zcompress bits are refused by every reader.
      pathFlags: u32.map((f) => f & ~3),
      rleSize: u32,
      ltn: fc.uint8Array({ maxLength: 12 }),
      ntl: version >= 0x6b ? words(n, version === 0x6b ? u8 : u32) : fc.constant(new Uint32Array(0)),
      nodes: bytes(n * n),
      flags: u32,
    }),
  );
}

function packTiles(list: TileGen[]): AswmTiles {
  const t = emptyTiles(list.length);
  const cat = <A extends Uint8Array | Uint32Array>(parts: A[], make: (n: number) => A, starts: Uint32Array): A => {
    let n = 0;
    parts.forEach((p, i) => {
      starts[i] = n;
      n += p.length;
    });
    starts[parts.length] = n;
    const out = make(n);
    parts.forEach((p, i) => out.set(p, starts[i]!));
    return out;
  };
  list.forEach((g, k) => {
    t.name.set(g.name, k * 32);
    t.ownsData[k] = g.owned ? 1 : 0;
    t.vertexCount[k] = g.owned ? g.owned.vertices : g.header[0]!;
    t.edgeCount[k] = g.owned ? g.owned.edges : g.header[1]!;
    t.triangleCount[k] = g.header[2]!;
    t.sizeX[k] = g.header[3]!;
    t.sizeY[k] = g.header[4]!;
    t.triangleOffset[k] = g.header[5]!;
    t.pathFlags[k] = g.pathFlags;
    t.rleSize[k] = g.rleSize;
    t.nodeCount[k] = Math.round(Math.sqrt(g.nodes.length));
    t.flags[k] = g.flags;
  });
  t.ownedData = cat(list.map((g) => g.owned?.data ?? new Uint8Array(0)), (n) => new Uint8Array(n), t.ownedDataStart);
  t.localToNode = cat(list.map((g) => g.ltn), (n) => new Uint8Array(n), t.localToNodeStart);
  t.nodeToLocal = cat(list.map((g) => g.ntl), (n) => new Uint32Array(n), t.nodeToLocalStart);
  t.nodes = cat(list.map((g) => g.nodes), (n) => new Uint8Array(n), t.nodesStart);
  return t;
}

function aswmArb(version: AswmVersion): fc.Arbitrary<AswmDocument> {
  const triReserved = (T: number) =>
    version === 0x69
      ? fc.array(fc.tuple(u32, u16, u32, u32, u32, u32, u16), { minLength: T, maxLength: T }).map((a) => Uint32Array.from(a.flat()))
      : version === 0x6a
        ? words(T)
        : fc.constant(new Uint32Array(0));
  const lists = (n: number) => fc.array(fc.array(u32, { maxLength: 3 }), { minLength: n, maxLength: n });
  return fc
    .record({
      V: fc.integer({ min: 0, max: 6 }),
      E: fc.integer({ min: 0, max: 6 }),
      T: fc.integer({ min: 0, max: 6 }),
      gw: fc.integer({ min: 0, max: 3 }),
      gh: fc.integer({ min: 0, max: 3 }),
      I: fc.integer({ min: 0, max: 3 }),
    })
    .chain(({ V, E, T, gw, gh, I }) =>
      fc
        .record({
          name: bytes(32),
          ownsData: u8,
          faceOffset: u32,
          vertices: words(V * 3),
          edges: words(E * 4),
          edgeReserved: words(E * edgeReservedWords(version)),
          triVertices: words(T * 3),
          triEdges: words(T * 3),
          triLinks: words(T * 3),
          triCentre: words(T * 2),
          triNormal: words(T * 3),
          triDot: words(T),
          triIsland: fc.array(u16, { minLength: T, maxLength: T }).map((a) => Uint16Array.from(a)),
          triFlags: fc.array(u16, { minLength: T, maxLength: T }).map((a) => Uint16Array.from(a)),
          triReserved: triReserved(T),
          tilesFlags: u32,
          tileWidth: u32,
          tiles: fc.array(tileArb(version), { minLength: gw * gh, maxLength: gw * gh }),
          borderSize: u32,
          islandHeaders: fc.array(words(6), { minLength: I, maxLength: I }),
          adjacent: lists(I),
          distance: lists(I),
          exit: lists(I),
          pathNext: fc.array(u16, { minLength: I * I, maxLength: I * I }),
          pathPadding: fc.array(u16, { minLength: I * I, maxLength: I * I }),
          pathWeight: words(I * I),
          trailing: fc.uint8Array({ maxLength: 6 }),
        })
        .map((g): AswmDocument => {
          const flat = (ls: number[][]) => {
            const start = new Uint32Array(ls.length + 1);
            ls.forEach((l, i) => (start[i + 1] = start[i]! + l.length));
            return { start, values: Uint32Array.from(ls.flat()) };
          };
          const adj = flat(g.adjacent);
          const dist = flat(g.distance);
          const exit = flat(g.exit);
          const h = g.islandHeaders;
          return {
            version,
            name: g.name,
            ownsData: g.ownsData,
            faceOffset: g.faceOffset,
            vertices: g.vertices,
            edges: g.edges,
            edgeReserved: g.edgeReserved,
            triVertices: g.triVertices,
            triEdges: g.triEdges,
            triLinks: g.triLinks,
            triCentre: g.triCentre,
            triNormal: g.triNormal,
            triDot: g.triDot,
            triIsland: g.triIsland,
            triFlags: g.triFlags,
            triReserved: g.triReserved,
            tilesFlags: g.tilesFlags,
            tileWidth: g.tileWidth,
            gridWidth: gw,
            gridHeight: gh,
            tiles: packTiles(g.tiles),
            borderSize: g.borderSize,
            islands: {
              count: I,
              index: Uint32Array.from(h.map((x) => x[0]!)),
              tile: Uint32Array.from(h.map((x) => x[1]!)),
              centre: Uint32Array.from(h.flatMap((x) => [x[2]!, x[3]!, x[4]!])),
              triangleCount: Uint32Array.from(h.map((x) => x[5]!)),
              adjacentStart: adj.start,
              adjacent: adj.values,
              distanceStart: dist.start,
              distance: dist.values,
              exitStart: exit.start,
              exit: exit.values,
            },
            islandPaths: { next: Uint16Array.from(g.pathNext), padding: Uint16Array.from(g.pathPadding), weight: g.pathWeight },
            trailing: g.trailing,
            bakeStale: false,
          };
        }),
    );
}

function withAswm(doc: TrxDocument, aswm: AswmDocument): TrxDocument {
  return { ...doc, packets: doc.packets.map((p) => (p.kind === 'aswm' ? { ...p, aswm } : p)) };
}

describe('ASWM versions 0x69–0x6C', () => {
  it.each(ASWM_VERSIONS.map((v) => [`0x${v.toString(16)}`, v] as const))('any version-%s walkmesh is written and read back unchanged', (_name, version) => {
    fc.assert(
      fc.property(aswmArb(version), (doc) => {
        const written = writeAswm(doc);
        const back = readAswm(written);
        expect(back).toEqual(doc);
        expect(firstDifference(writeAswm(back), written)).toBeNull();
      }),
      { numRuns: 150 },
    );
  });

  it.each([['0x69', 0x69], ['0x6A', 0x6a], ['0x6B', 0x6b]] as const)('a real walkmesh converted to %s round-trips through a TRX file and upgrades back exactly', (_name, version) => {
    for (const rel of ['mordmansion/CSLMordMansion.TRX', 'mordmansion/CSLMordMansion.TRN', 'kaedrin/dm generic_tavern1.trx']) {
      const { doc, aswm } = loadTrx(rel);
      const old = convertAswmVersion(aswm.aswm, version);
      expect(old.version).toBe(version);
      const file = writeTrx(withAswm(doc, old), env);
      const reread = readTrx(file, env);
      const back = aswmPacketOf(reread)!.aswm;
      expect(back).toEqual(old);
      // Read unedited, an old version is written back in its own version, byte for byte.
      expect(firstDifference(writeTrx(reread, env), file)).toBeNull();
      // Same geometry, flags and owners in the common model.
      expect(trxToWalkmeshes(reread, 'x')).toEqual(trxToWalkmeshes(doc, 'x'));
      // node_to_local, absent before 0x6B, is rebuilt from local_to_node on the way up.
      expect(firstDifference(writeAswm(convertAswmVersion(back, 0x6c)), writeAswm(aswm.aswm))).toBeNull();
      const codes = validateTrx(reread).map((f) => f.code);
      expect(codes).toContain('nwn2.aswm.old-version');
      expect(validateTrx(reread).filter((f) => f.severity === 'error')).toEqual([]);
    }
  });

  it('writes version 0x6C once an old-version walkmesh is edited', () => {
    const { doc, aswm } = loadTrx('mordmansion/CSLMordMansion.TRX');
    const old = readTrx(writeTrx(withAswm(doc, convertAswmVersion(aswm.aswm, 0x6a)), env), env);
    const mesh = trxToWalkmeshes(old, 'x')[0]!;
    mesh.faceMaterial[0] = (mesh.faceMaterial[0]! ^ TriangleFlag.stone) >>> 0;
    const edited = readTrx(writeTrx(trxFromWalkmeshes([mesh], old), env), env);
    const a = aswmPacketOf(edited)!.aswm;
    expect(a.version).toBe(0x6c);
    expect(a.triFlags[0]).toBe(mesh.faceMaterial[0]);
    // A surface change keeps the baked tables.
    expect(a.islands.count).toBe(aswm.aswm.islands.count);
    expect(a.tiles.nodeToLocal).toEqual(aswm.aswm.tiles.nodeToLocal);
  });

  it('refuses to write what an old version cannot hold, and empties a path table it cannot upgrade', () => {
    const { aswm } = loadTrx('mordmansion/CSLMordMansion.TRX');
    const wide = convertAswmVersion(aswm.aswm, 0x6b);
    wide.tiles.nodeToLocal[0] = 300;
    expect(() => writeAswm(wide)).toThrow(RangeError);
    expect(() => convertAswmVersion({ ...aswm.aswm, tiles: { ...aswm.aswm.tiles, nodeToLocal: Uint32Array.from(aswm.aswm.tiles.nodeToLocal, (v, i) => (i === 0 ? 300 : v)) } }, 0x6b)).toThrow(/does not fit a byte/);

    const old = convertAswmVersion(aswm.aswm, 0x69);
    let tile = 0;
    while (old.tiles.nodeCount[tile]! < 2) tile++;
    // Two triangles claiming the same node: node_to_local cannot be rebuilt.
    const l = old.tiles.localToNodeStart[tile]!;
    const ltn = old.tiles.localToNode;
    let a = l;
    while (ltn[a] === 0xff) a++;
    let b = a + 1;
    while (ltn[b] === 0xff) b++;
    ltn[b] = ltn[a]!;
    const up = convertAswmVersion(old, 0x6c);
    expect(up.bakeStale).toBe(true);
    expect(up.tiles.nodeCount[tile]).toBe(0);
    expect(up.tiles.localToNodeStart[tile + 1]).toBe(up.tiles.localToNodeStart[tile]);
    expect(up.tiles.nodeCount[tile + 1]).toBe(aswm.aswm.tiles.nodeCount[tile + 1]);
  });
});
