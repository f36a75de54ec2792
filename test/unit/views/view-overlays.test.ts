import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../../shared/formats/inspect-file';
import { createWalkmesh } from '../../../shared/model/walkmesh';
import { documentOverlays } from '../../../shared/views/document-overlays';
import { faceIslands, NO_ISLAND } from '../../../shared/views/face-islands';
import { gitOverlays } from '../../../shared/views/placement-overlays';
import { normalsOverlay, perimeterOverlay } from '../../../shared/views/model-overlays';
import { boxEdges } from '../../../shared/views/view-overlay';
import { fixturesRoot, readFixture } from '../../support/fixtures';

/** Two unit squares side by side (vertices duplicated along the seam) and one far away. */
function threeSquares(walkable: number[]) {
  const square = (x: number, y: number) => [x, y, 0, x + 1, y, 0, x + 1, y + 1, 0, x, y + 1, 0];
  const positions = new Float32Array([...square(0, 0), ...square(1, 0), ...square(10, 10)]);
  const tris: number[] = [];
  for (let s = 0; s < 3; s++) tris.push(s * 4, s * 4 + 1, s * 4 + 2, s * 4, s * 4 + 2, s * 4 + 3);
  return createWalkmesh({ name: 't', game: 'kotor', format: 'test', positions, triangles: new Uint32Array(tris), faceWalkable: new Uint8Array(walkable) });
}

function open(rel: string) {
  const file = path.join(fixturesRoot, rel);
  const loaded = loadDocument(file, readFixture(file));
  return { loaded, overlays: documentOverlays(loaded.handler.id, loaded.document), meshes: loaded.handler.toWalkmeshes(loaded.document, path.basename(file)) };
}

describe('islands', () => {
  it('joins faces through welded seam vertices and numbers islands by size', () => {
    const islands = faceIslands(threeSquares([1, 1, 1, 1, 1, 1]));
    expect([...islands.faceIsland]).toEqual([0, 0, 0, 0, 1, 1]);
    expect(islands.sizes).toEqual([4, 2]);
  });

  it('splits where a non-walkable face cuts the floor', () => {
    const islands = faceIslands(threeSquares([1, 0, 1, 1, 1, 1]));
    expect(islands.faceIsland[1]).toBe(NO_ISLAND);
    expect(islands.sizes).toEqual([3, 2]);
    expect(new Set([islands.faceIsland[0], islands.faceIsland[2]]).size).toBe(1);
  });
});

describe('islands through owner links', () => {
  it('joins Source areas through their connections, not only through shared edges', () => {
    const { meshes, overlays } = open('source/tf2/itemtest.nav');
    const mesh = meshes[0]!;
    const links = overlays.find((o) => o.id === 'connections')!.ownerLinks!;
    expect(links.length % 2).toBe(0);
    expect(faceIslands(mesh).sizes.length).toBeGreaterThan(1);
    const linked = faceIslands(mesh, links);
    // Every connected area pair is on one island.
    for (let i = 0; i < links.length; i += 2) {
      const a = mesh.faceOwner.indexOf(links[i]!);
      const b = mesh.faceOwner.indexOf(links[i + 1]!);
      expect(linked.faceIsland[a]).toBe(linked.faceIsland[b]);
    }
    expect(linked.sizes.reduce((n, s) => n + s, 0)).toBe([...mesh.faceWalkable].filter((w) => w).length);
    expect(linked.sizes).toEqual([...linked.sizes].sort((x, y) => y - x));
  });
});

describe('model overlays', () => {
  it('draws the border of the walkable region, not the inner seams', () => {
    const mesh = threeSquares([1, 1, 1, 1, 1, 1]);
    const perimeter = perimeterOverlay([mesh], [faceIslands(mesh).neighbors])!;
    // The 2×1 rectangle has 6 border edges, the lone square 4.
    expect(perimeter.segments.length / 6).toBe(10);
    expect(perimeter.classes[0]).toEqual({ label: 'open edge', count: 10 });
    const cut = threeSquares([1, 1, 0, 1, 1, 1]);
    const against = perimeterOverlay([cut], [faceIslands(cut).neighbors])!;
    expect(against.classes[1]!.count).toBeGreaterThan(0);
  });

  it('points normals up for upward faces and flags flipped and degenerate ones', () => {
    const mesh = createWalkmesh({
      name: 'n', game: 'source', format: 'test',
      positions: new Float32Array([0, 0, 0, 3, 0, 0, 0, 3, 0, 5, 5, 5]),
      triangles: new Uint32Array([0, 1, 2, 0, 2, 1, 3, 3, 3]),
    });
    const normals = normalsOverlay([mesh])!;
    expect(normals.classes.map((c) => c.count)).toEqual([1, 1, 1]);
    expect(normals.segments[5]! - normals.segments[2]!).toBeGreaterThan(0);
    expect(normals.segments[11]! - normals.segments[8]!).toBeLessThan(0);
  });
});

describe('document overlays', () => {
  it('Source: connections, ladders and hiding spots of a real map', () => {
    const { loaded, overlays } = open('source/tf2/itemtest.nav');
    const connections = overlays.find((o) => o.id === 'connections');
    const doc = loaded.document as { areas: { connectionTarget: Uint32Array; hidingSpotId: Uint32Array } };
    expect(connections).toBeDefined();
    const linkItems = connections!.classes.reduce((n, c) => n + c.count, 0);
    // Two-way links are drawn once, so there are between half and all of the stored ones.
    expect(linkItems).toBeGreaterThanOrEqual(doc.areas.connectionTarget.length / 2);
    expect(linkItems).toBeLessThanOrEqual(doc.areas.connectionTarget.length);
    const spots = overlays.find((o) => o.id === 'hiding-spots');
    expect(spots?.classes[0]!.count ?? 0).toBe(doc.areas.hidingSpotId.length);
  });

  it('KotOR: one AABB box per node, rooted at depth 0, and transitions on doorway edges', () => {
    const { loaded, overlays } = open('kotor/k1-blackvulkar/m10aa_01c.wok');
    const doc = loaded.document as { aabb: Uint32Array; edgeTransition: Int32Array };
    const aabb = overlays.find((o) => o.id === 'aabb')!;
    expect(aabb.classes.reduce((n, c) => n + c.count, 0)).toBe(doc.aabb.length / 11);
    expect(aabb.classes[0]!.count).toBe(1);
    expect(aabb.boxes.length / 6).toBe(doc.aabb.length / 11);
    expect(aabb.boxClass[0]).toBe(0);
    const edges = new Float32Array(72);
    boxEdges(aabb.boxes, 0, edges, 0);
    // The root box holds every vertex of the room.
    const xs = edges.filter((_, i) => i % 3 === 0);
    expect(Math.min(...xs)).toBe(aabb.boxes[0]);
    expect(Math.max(...xs)).toBe(aabb.boxes[3]);
    const transitions = overlays.find((o) => o.id === 'transitions');
    const stored = [...doc.edgeTransition].filter((t) => t >= 0).length;
    expect(transitions?.segments.length ?? 0).toBe(stored * 6);
  });

  it('Skyrim: edge links, door links and cover edges of a plugin', () => {
    const { overlays } = open('skyrim/DawnOfTheSilverHand.esp');
    const ids = overlays.map((o) => o.id);
    expect(ids).toContain('door-links');
    expect(ids).toContain('cover-edges');
    for (const o of overlays) {
      expect(o.segmentClass.length * 6).toBe(o.segments.length);
      expect(o.boxClass.length * 6).toBe(o.boxes.length);
      for (const v of o.segments) expect(Number.isFinite(v)).toBe(true);
    }
  });

  it('GIT placements: NWN2 cutter outlines at their polygon, KotOR placeables and doors facing their bearing', () => {
    const nwn2 = gitOverlays('nwn2', readFixture(path.join(fixturesRoot, 'nwn2/mordmansion/CSLMordMansion.GIT')));
    const cutters = nwn2.find((o) => o.id === 'cutters')!;
    expect(cutters.classes[0]!.count).toBe(13);
    // Outlines are closed: every segment's end is some segment's start.
    const key = (a: number) => `${cutters.segments[a]},${cutters.segments[a + 1]}`;
    const starts = new Set(Array.from({ length: cutters.segments.length / 6 }, (_, i) => key(i * 6)));
    for (let i = 0; i < cutters.segments.length / 6; i++) expect(starts.has(key(i * 6 + 3))).toBe(true);
    const kotor = gitOverlays('kotor', readFixture(path.join(fixturesRoot, 'kotor/pykotor/test.git')));
    const marks = kotor.find((o) => o.id === 'footprints')!;
    // Without models: a marker each (outline classes first, markers after).
    expect(marks.classes.map((c) => c.count)).toEqual([0, 0, 0, 1, 1]);
    expect(() => gitOverlays('nwn2', new Uint8Array([1, 2, 3]))).toThrow(/GFF header/);
  });

  it('gives none for a format without such data', () => {
    expect(documentOverlays('nwn2-trx', {})).toEqual([]);
  });
});
