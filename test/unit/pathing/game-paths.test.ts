import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFormatEnvironment } from '../../../electron/services/node-format-environment';
import { seededRandom } from '../../../shared/bakers/nwn2/point-reachability';
import { loadDocument } from '../../../shared/formats/inspect-file';
import type { BwmDocument } from '../../../shared/formats/kotor/bwm-document';
import { TRI_EDGE_LINK_BITS } from '../../../shared/formats/skyrim/nvnm-document';
import { formIdHex, type PluginDocument } from '../../../shared/formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../../../shared/formats/skyrim/plugin-navmeshes';
import type { NavDocument } from '../../../shared/formats/source/nav-document';
import { pathSurfaceFor } from '../../../shared/pathing/path-for-document';
import type { PathSurface } from '../../../shared/pathing/path-surface';
import type { Point3 } from '../../../shared/pathing/path-result';
import { fixtureName, fixturesRoot, listFixtures, readFixture } from '../../support/fixtures';

function load(file: string): { surface: PathSurface; document: unknown } {
  const loaded = loadDocument(file, readFixture(file), nodeFormatEnvironment);
  return { surface: pathSurfaceFor(loaded, path.basename(file)), document: loaded.document };
}

/** Centre of a graph node. */
function centre(s: PathSurface, node: number): Point3 {
  return [s.graph.centre[node * 3]!, s.graph.centre[node * 3 + 1]!, s.graph.centre[node * 3 + 2]!];
}

/** Nodes reachable from `start` over `next` (breadth-first), as a set. */
function reachableFrom(start: number, next: (node: number) => number[]): Set<number> {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const v of next(queue.shift()!)) {
      if (seen.has(v)) continue;
      seen.add(v);
      queue.push(v);
    }
  }
  return seen;
}

describe('KotOR room walkmeshes walk the file\'s adjacency table', () => {
  for (const file of listFixtures('kotor', ['.wok'])) {
    it(fixtureName(file), () => {
      const { surface, document } = load(file);
      const doc = document as BwmDocument;
      const rows = doc.adjacency.length / 3;
      const neighbours = (f: number) => (f < rows ? Array.from(doc.adjacency.subarray(f * 3, f * 3 + 3)).filter((v) => v >= 0).map((v) => (v / 3) | 0) : []);
      const random = seededRandom(rows);
      let found = 0;
      for (let i = 0; i < 60 && rows > 0; i++) {
        const a = Math.floor(random() * rows), b = Math.floor(random() * rows);
        const r = surface.findPath(centre(surface, a), centre(surface, b), { tolerance: 0 });
        expect(r.start, r.reason ?? '').not.toBeNull();
        const sa = r.start!.node, sb = r.end!.node;
        const reach = reachableFrom(sa, neighbours).has(sb);
        expect(r.found, r.reason ?? '').toBe(reach);
        if (!reach) {
          expect(['different-components', 'unlinked-edge']).toContain(r.code);
          continue;
        }
        found++;
        for (let k = 0; k + 1 < r.corridor.length; k++) expect(neighbours(r.corridor[k]!)).toContain(r.corridor[k + 1]);
      }
      if (rows > 0) expect(found).toBeGreaterThan(0);
    });
  }
});

describe('Source nav meshes walk the area connections', () => {
  const files = ['source/tf2/itemtest.nav', 'source/cs16/de_dust2.nav', 'source/csgo/de_iris.nav', 'source/css/de_train.nav'].map((f) => path.join(fixturesRoot, f));
  for (const file of files) {
    it(fixtureName(file), () => {
      const { surface, document } = load(file);
      const doc = document as NavDocument;
      const A = doc.areas;
      const index = new Map<number, number>();
      for (let a = 0; a < A.count; a++) index.set(A.id[a]!, a);
      // Ladders are the nodes after the areas, joined both ways to their bottom and top areas.
      const ladderAreas = (l: number) => Array.from(doc.ladders.areas.subarray(l * 5, l * 5 + 5)).flatMap((id) => (id !== 0 && index.has(id) ? [index.get(id)!] : []));
      const out = (a: number) => {
        if (a >= A.count) return ladderAreas(a - A.count);
        const list: number[] = [];
        for (let i = A.connectionStart[a * 4]!; i < A.connectionStart[a * 4 + 4]!; i++) {
          const t = index.get(A.connectionTarget[i]!);
          if (t !== undefined) list.push(t);
        }
        for (let l = 0; l < doc.ladders.count; l++) if (ladderAreas(l).includes(a)) list.push(A.count + l);
        return list;
      };
      const random = seededRandom(A.count);
      let found = 0;
      for (let i = 0; i < 60; i++) {
        const a = Math.floor(random() * A.count), b = Math.floor(random() * A.count);
        const r = surface.findPath(centre(surface, a), centre(surface, b), { tolerance: 0 });
        if (!r.start || !r.end) continue;
        const sa = r.start.node, sb = r.end.node;
        const reach = reachableFrom(sa, out).has(sb);
        expect(r.found, r.reason ?? '').toBe(reach);
        if (!reach) continue;
        found++;
        for (let k = 0; k + 1 < r.corridor.length; k++) expect(out(r.corridor[k]!)).toContain(r.corridor[k + 1]);
        expect(r.length!).toBeGreaterThanOrEqual(Math.hypot(r.end.point[0] - r.start.point[0], r.end.point[1] - r.start.point[1]) - 1e-3);
      }
      expect(found).toBeGreaterThan(10);
    });
  }
});

describe('Source ladders', () => {
  it('climbs a ladder between its bottom and top areas', () => {
    const file = path.join(fixturesRoot, 'source/css/de_train.nav');
    const { surface, document } = load(file);
    const doc = document as NavDocument;
    const index = new Map<number, number>();
    for (let a = 0; a < doc.areas.count; a++) index.set(doc.areas.id[a]!, a);
    let climbed = 0;
    for (let l = 0; l < doc.ladders.count && climbed < 5; l++) {
      const bottom = index.get(doc.ladders.areas[l * 5 + 4]!);
      const top = index.get(doc.ladders.areas[l * 5]!);
      if (bottom === undefined || top === undefined) continue;
      const r = surface.findPath(centre(surface, bottom), centre(surface, top), { tolerance: 0 });
      if (!r.found || !r.corridor.includes(doc.areas.count + l)) continue;
      climbed++;
      // The polyline goes up the ladder: it holds the ladder's bottom and top points.
      const w = new Float32Array(doc.ladders.words.slice(l * 9, l * 9 + 9).buffer);
      const has = (x: number, y: number, z: number) => r.points.some((p) => Math.abs(p[0] - x) < 1e-3 && Math.abs(p[1] - y) < 1e-3 && Math.abs(p[2] - z) < 1e-3);
      expect(has(w[4]!, w[5]!, w[6]!)).toBe(true);
      expect(has(w[1]!, w[2]!, w[3]!)).toBe(true);
      expect(surface.graph.label(doc.areas.count + l)).toBe(`ladder ${doc.ladders.id[l]!}`);
    }
    expect(climbed).toBeGreaterThan(0);
  });
});

describe('Skyrim navmeshes follow edge links between the plugin\'s navmeshes', () => {
  const file = path.join(fixturesRoot, 'skyrim/DawnOfTheSilverHand.esp');

  it('walks from one navmesh into another through an edge link', () => {
    const { surface, document } = load(file);
    const navmeshes = pluginNavmeshes(document as PluginDocument).filter((n) => n.nvnm && !n.deleted);
    // Parts are the plugin's live navmeshes in file order, so part i is navmeshes[i].
    expect(surface.parts.map((p) => p.id)).toEqual(navmeshes.map((n) => formIdHex(n.formId)));
    // Linked edges whose target navmesh is in the plugin: a path from the triangle into the target's.
    let checked = 0;
    navmeshes.forEach((n, i) => {
      const v = n.nvnm!;
      const from = surface.parts[i]!;
      for (let t = 0; t < v.triFlags.length && checked < 10; t++) {
        for (let e = 0; e < 3; e++) {
          if (!(v.triFlags[t]! & TRI_EDGE_LINK_BITS[e]!)) continue;
          const link = v.triEdges[t * 3 + e]!;
          const target = surface.parts.find((p) => p.id === formIdHex(v.edgeLinkNavmesh[link]!));
          if (!target) continue;
          const fromFace = from.faceStart + t;
          const toFace = target.faceStart + v.edgeLinkTriangle[link]!;
          const r = surface.findPath(centre(surface, fromFace), centre(surface, toFace), { part: from.index, tolerance: 0 });
          expect(r.found, r.reason ?? '').toBe(true);
          expect(r.corridor).toEqual([fromFace, toFace]);
          expect(target.index).not.toBe(from.index);
          checked++;
        }
      }
    });
    expect(checked).toBeGreaterThan(0);
  });

  it('finds paths inside each navmesh and explains the ones it cannot find', () => {
    const { surface } = load(file);
    const random = seededRandom(7);
    let found = 0, missing = 0;
    for (const p of surface.parts) {
      for (let i = 0; i < 20; i++) {
        const a = p.faceStart + Math.floor(random() * (p.faceEnd - p.faceStart));
        const b = p.faceStart + Math.floor(random() * (p.faceEnd - p.faceStart));
        const r = surface.findPath(centre(surface, a), centre(surface, b), { part: p.index, tolerance: 0 });
        if (r.found) {
          found++;
          const G = surface.graph;
          for (let k = 0; k + 1 < r.corridor.length; k++) {
            const u = r.corridor[k]!;
            expect(Array.from(G.linkTarget.subarray(G.linkStart[u]!, G.linkStart[u + 1]!))).toContain(r.corridor[k + 1]);
          }
        } else {
          missing++;
          expect(['start-off-mesh', 'end-off-mesh', 'different-components', 'unlinked-edge', 'one-way']).toContain(r.code);
          expect(r.reason).toMatch(/\S{3,}/);
        }
      }
    }
    expect(found).toBeGreaterThan(100);
    expect(missing + found).toBe(surface.parts.length * 20);
  });

  it('selects a navmesh by FormID, name or index', () => {
    const { surface } = load(file);
    const p = surface.parts[2]!;
    expect(surface.findPart(p.id)).toBe(p);
    expect(surface.findPart(p.id.replace(/^0x/, '').toLowerCase())).toBe(p);
    expect(surface.findPart('2')).toBe(p);
    expect(surface.findPart('no such navmesh')).toBeUndefined();
  });
});
