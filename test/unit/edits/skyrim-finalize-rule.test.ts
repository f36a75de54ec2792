import { describe, expect, it } from 'vitest';
import { applySkyrimUnlinkEdges, liveNavmeshes } from '../../../shared/edits/skyrim-edge-links';
import { doorPortalSummary, skyrimDoorPortals } from '../../../shared/edits/skyrim-door-portals';
import { CROSS_LINK_XY_TOLERANCE, planSkyrimLinks } from '../../../shared/edits/skyrim-finalize';
import { checkSkyrimNavmeshes } from '../../../shared/edits/skyrim-navmesh-check';
import { TRI_EDGE_LINK_BITS, type NvnmDocument } from '../../../shared/formats/skyrim/nvnm-document';
import type { PluginDocument } from '../../../shared/formats/skyrim/plugin-document';
import { readFixturePlugin } from '../skyrim/skyrim-helpers';

/** The two ends of a triangle edge, x y z each. */
function ends(v: NvnmDocument, t: number, e: number): number[] {
  const P = new Float32Array(v.vertices.buffer, v.vertices.byteOffset, v.vertices.length);
  const a = v.triVertices[t * 3 + e]!, b = v.triVertices[t * 3 + ((e + 1) % 3)]!;
  return [P[a * 3]!, P[a * 3 + 1]!, P[a * 3 + 2]!, P[b * 3]!, P[b * 3 + 1]!, P[b * 3 + 2]!];
}
/** Seen from above, how far apart two edges' ends are when matched end to end. */
function apartXY(p: number[], q: number[]): number {
  const d = (i: number, j: number) => Math.hypot(p[i]! - q[j]!, p[i + 1]! - q[j + 1]!);
  return Math.min(Math.max(d(0, 3), d(3, 0)), Math.max(d(0, 0), d(3, 3)));
}
const onBorder = (p: number[]) => [0, 1].some((k) => Math.abs(p[k]! / 4096 - Math.round(p[k]! / 4096)) * 4096 <= 1 && Math.abs(p[k + 3]! / 4096 - Math.round(p[k]! / 4096)) * 4096 <= 1);

/** The CK's own links between the plugin's live navmeshes, by side. */
function ckLinks(doc: PluginDocument): { sides: number[]; keys: Set<string>; apart: number[]; border: boolean[] } {
  const all = liveNavmeshes(doc);
  const sides: number[] = [];
  const keys = new Set<string>();
  const apart: number[] = [];
  const border: boolean[] = [];
  for (const [id, v] of all) {
    for (let t = 0; t < v.triFlags.length; t++) {
      for (let e = 0; e < 3; e++) {
        if ((v.triFlags[t]! & TRI_EDGE_LINK_BITS[e]!) === 0) continue;
        const li = v.triEdges[t * 3 + e]!;
        const w = all.get(v.edgeLinkNavmesh[li]!);
        if (!w) continue;
        sides.push(id, t, e);
        keys.add(`${id}:${t}:${e}>${v.edgeLinkNavmesh[li]}:${v.edgeLinkTriangle[li]}`);
        const u = v.edgeLinkTriangle[li]!;
        const p = ends(v, t, e);
        const best = [0, 1, 2].map((f) => ends(w, u, f)).sort((a, b) => apartXY(p, a) - apartXY(p, b))[0]!;
        apart.push(apartXY(p, best));
        border.push(onBorder(p) || onBorder(best));
      }
    }
  }
  return { sides, keys, apart, border };
}

describe('Skyrim Finalize links border edges as the Creation Kit does', () => {
  const dsh = readFixturePlugin('DawnOfTheSilverHand.esp').doc;
  const ck = ckLinks(dsh);

  it('the CK links edges on a cell border whose ends are within 12 units seen from above', () => {
    expect(ck.keys.size).toBe(74);
    expect(Math.max(...ck.apart)).toBeLessThanOrEqual(CROSS_LINK_XY_TOLERANCE);
    expect(ck.border.every(Boolean)).toBe(true);
  });

  it('every cross-navmesh link Finalize plans is of that kind; the CK links, once removed, are found again', () => {
    const all = liveNavmeshes(dsh);
    const plan = planSkyrimLinks(dsh);
    // Measured: 25 pairs (28 with the 3-D tolerance alone; 4 of those were 13 to 35 units apart from above).
    expect(plan.counts.crossNavmesh).toBe(25);
    for (const l of plan.links.filter((x) => x.why === 'cross-navmesh')) {
      const p = ends(all.get(l.a.navmesh)!, l.a.t, l.a.e), q = ends(all.get(l.b.navmesh)!, l.b.t, l.b.e);
      expect(apartXY(p, q)).toBeLessThanOrEqual(CROSS_LINK_XY_TOLERANCE);
      expect(onBorder(p) || onBorder(q)).toBe(true);
    }
    const bare = applySkyrimUnlinkEdges(dsh, { kind: 'skyrim-unlink-edges', sides: ck.sides }).doc;
    const again = planSkyrimLinks(bare);
    const planned = new Set<string>();
    for (let i = 0; i < again.sides.length; i += 5) planned.add(`${again.sides[i]}:${again.sides[i + 1]}:${again.sides[i + 2]}>${again.sides[i + 3]}:${again.sides[i + 4]}`);
    expect([...ck.keys].filter((k) => planned.has(k)).length).toBeGreaterThanOrEqual(70);
  });

  it("DwemerSecrets: the new navmesh the CK never linked (its neighbours still link the deleted one) is linked where it meets them", () => {
    const doc = readFixturePlugin('DwemerSecrets.esp').doc;
    const all = liveNavmeshes(doc);
    const plan = planSkyrimLinks(doc);
    const cross = plan.links.filter((l) => l.why === 'cross-navmesh');
    expect(cross.length).toBe(5);
    const fresh = new Set(cross.map((l) => l.b.navmesh));
    expect(fresh.size).toBe(1);
    const [target] = [...fresh];
    // No link of the plugin names the new navmesh, and some name a navmesh that is not live (deleted, replaced by it).
    const targets = [...all.values()].flatMap((v) => Array.from(v.edgeLinkNavmesh));
    expect(targets).not.toContain(target);
    expect(targets.some((t) => !all.has(t) && t >>> 24 === 0)).toBe(true);
  });
});

describe('Skyrim door portals: what the files hold', () => {
  it('DawnOfTheSilverHand: its own doors linked as their XNDP names them; the masters\' doors kept; said in one line', () => {
    const r = skyrimDoorPortals(readFixturePlugin('DawnOfTheSilverHand.esp').doc);
    expect(r.counts).toEqual({ linked: 2, missing: 0, 'master-door': 3, 'master-navmesh': 2 });
    expect(doorPortalSummary(r)).toMatch(/^2 door portal\(s\) of this plugin's doors linked as their XNDP names them; 3 naming doors of the masters .*; 2 door\(s\) whose XNDP names a navmesh of the masters; a door placed without an XNDP cannot be linked from these files/);
    expect(checkSkyrimNavmeshes(readFixturePlugin('DawnOfTheSilverHand.esp').doc).doorPortals).toEqual(r.counts);
  });

  it('a door link removed from its navmesh is reported missing with the door and triangle', () => {
    const { doc } = readFixturePlugin('DawnOfTheSilverHand.esp');
    const linked = skyrimDoorPortals(doc).portals.find((p) => p.state === 'linked')!;
    const v = liveNavmeshes(doc).get(linked.navmesh)!;
    const i = Array.from(v.doorRef).findIndex((d, k) => d === linked.door && v.doorTriangle[k] === linked.triangle);
    v.doorRef = Uint32Array.from(Array.from(v.doorRef).filter((_, k) => k !== i));
    v.doorTriangle = Int16Array.from(Array.from(v.doorTriangle).filter((_, k) => k !== i));
    v.doorHash = Uint32Array.from(Array.from(v.doorHash).filter((_, k) => k !== i));
    const r = skyrimDoorPortals(doc);
    expect(r.counts.missing).toBe(1);
    expect(doorPortalSummary(r)).toContain(`triangle ${linked.triangle}): Finalize makes them`);
  });
});
