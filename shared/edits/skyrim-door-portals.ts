import { formIdHex, walkRecords, type PluginDocument } from '../formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../formats/skyrim/plugin-navmeshes';

/** What a navmesh door link (door triangle) of the plugin rests on. */
export interface DoorPortal {
  /** The door reference (REFR) FormID. */
  door: number;
  navmesh: number;
  triangle: number;
  /**
   * - `linked`: the door's XNDP in this plugin names this navmesh triangle, and the navmesh links it back;
   * - `missing`: the door's XNDP names a triangle of a navmesh of this plugin that has no door link for it;
   * - `master-door`: the navmesh links a door whose reference (and XNDP) is in a master, not in this plugin;
   * - `master-navmesh`: the door's XNDP names a navmesh of a master.
   */
  state: 'linked' | 'missing' | 'master-door' | 'master-navmesh';
}

export interface DoorPortalReport {
  portals: DoorPortal[];
  counts: Record<DoorPortal['state'], number>;
}

/** XNDP "navmesh door link" on a door REFR: NAVM FormID, s16 triangle, 2 unused bytes (spec skyrim-navm.md §9.3). */
const XNDP_SIZE = 8;

/**
 * The door portals of a plugin as the files hold them: a door reference's XNDP names the
 * navmesh triangle at its teleport marker, and that navmesh's door links name the door
 * (spec §4 field 8, §9.3); the Creation Kit writes both when it finalizes. What Finalize
 * makes (skyrim-finalize.ts) is only what an XNDP of this plugin names and its navmesh lacks: a door whose
 * reference has no XNDP (placed after the last CK finalize) needs the triangle under its
 * teleport marker, which the CK chooses and these files do not record, and a door of a
 * master has its XNDP in the master. On the fixture plugins: DawnOfTheSilverHand has 5
 * door links, 2 with their door's XNDP in the plugin and 3 naming masters' doors, plus 2
 * XNDPs naming masters' navmeshes; DwemerSecrets and FreeCamera have none.
 */
export function skyrimDoorPortals(doc: PluginDocument): DoorPortalReport {
  const navmeshes = new Map<number, { triangles: number; links: Map<string, number> }>();
  for (const n of pluginNavmeshes(doc)) {
    if (n.deleted || !n.nvnm) continue;
    const links = new Map<string, number>();
    for (let i = 0; i < n.nvnm.doorTriangle.length; i++) links.set(`${n.nvnm.doorRef[i]}:${n.nvnm.doorTriangle[i]}`, i);
    navmeshes.set(n.formId, { triangles: n.nvnm.triFlags.length, links });
  }
  const portals: DoorPortal[] = [];
  const named = new Set<string>();
  const doorsHere = new Set<number>();
  for (const { record } of walkRecords(doc.items)) {
    if (record.signature !== 'REFR') continue;
    for (const s of record.subrecords) {
      if (s.signature !== 'XNDP' || s.kind !== 'raw' || s.data.byteLength < XNDP_SIZE - 2) continue;
      const dv = new DataView(s.data.buffer, s.data.byteOffset, s.data.byteLength);
      const navmesh = dv.getUint32(0, true);
      const triangle = dv.getInt16(4, true);
      doorsHere.add(record.formId);
      const nav = navmeshes.get(navmesh);
      if (!nav) {
        portals.push({ door: record.formId, navmesh, triangle, state: 'master-navmesh' });
        continue;
      }
      const key = `${record.formId}:${triangle}`;
      named.add(`${navmesh}:${key}`);
      portals.push({ door: record.formId, navmesh, triangle, state: nav.links.has(key) ? 'linked' : 'missing' });
    }
  }
  for (const [navmesh, nav] of navmeshes) {
    for (const key of nav.links.keys()) {
      const [door, triangle] = key.split(':').map(Number) as [number, number];
      if (named.has(`${navmesh}:${key}`) || doorsHere.has(door)) continue;
      portals.push({ door, navmesh, triangle, state: 'master-door' });
    }
  }
  const counts = { linked: 0, missing: 0, 'master-door': 0, 'master-navmesh': 0 };
  for (const p of portals) counts[p.state]++;
  return { portals, counts };
}

/**
 * One line for the Finalize report: what the door portals rest on and what Finalize leaves;
 * after a Finalize, `made` says how many door portals it made.
 */
export function doorPortalSummary(r: DoorPortalReport, made?: number): string {
  const c = r.counts;
  const parts = [`${c.linked} door portal(s) of this plugin's doors linked as their XNDP names them`];
  if (made !== undefined) parts.unshift(`Finalize made ${made} door portal(s)`);
  if (c['master-door'] > 0) parts.push(`${c['master-door']} naming doors of the masters (their references are not in this plugin), kept as stored`);
  if (c['master-navmesh'] > 0) parts.push(`${c['master-navmesh']} door(s) whose XNDP names a navmesh of the masters`);
  if (c.missing > 0) {
    const list = r.portals.filter((p) => p.state === 'missing').slice(0, 3).map((p) => `${formIdHex(p.door)} → ${formIdHex(p.navmesh)} triangle ${p.triangle}`);
    parts.push(`${c.missing} door(s) whose XNDP names a triangle the navmesh does not link (${list.join(', ')}${c.missing > 3 ? ', …' : ''}): Finalize makes them`);
  }
  parts.push('a door placed without an XNDP cannot be linked from these files (the CK picks its teleport-marker triangle)');
  return parts.join('; ');
}
