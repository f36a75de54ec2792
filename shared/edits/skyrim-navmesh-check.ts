import { TRI_DOOR, type NvnmDocument } from '../formats/skyrim/nvnm-document';
import { doorPortalSummary, skyrimDoorPortals, type DoorPortalReport } from './skyrim-door-portals';
import { formIdHex, type PluginDocument } from '../formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../formats/skyrim/plugin-navmeshes';
import type { DocumentEditCommand } from './document-edit-command';
import type { EditCommand } from './edit-command';
import { planSkyrimLinks } from './skyrim-finalize';

/** One problem "Check navmeshes" reports, with the one edit that fixes it when there is one. */
export interface NavmeshCheckItem {
  code: 'degenerate-triangle' | 'shared-edge-unlinked' | 'link-not-reciprocal' | 'border-unlinked' | 'door-not-flagged';
  navmesh: number;
  /** The walkmesh (of the file's walkmeshes, one per modelled navmesh) the triangle is a face of. */
  mesh: number;
  triangle: number;
  message: string;
  /** The fix-up as one edit: a document edit, or a walkmesh edit of `mesh`. */
  fix?: { label: string; command: EditCommand | DocumentEditCommand };
  /** Why there is no fix-up, when there is none. */
  noFix?: string;
}

export interface NavmeshCheck {
  items: NavmeshCheckItem[];
  /** What Finalize would link over the whole plugin. */
  finalize: { sharedEdges: number; reciprocals: number; crossNavmesh: number };
  /** Door links (door triangles) in the plugin's navmeshes. */
  doors: number;
  /** What the door portals rest on (skyrim-door-portals.ts), counted, and said in one line. */
  doorPortals: DoorPortalReport['counts'];
  doorSummary: string;
}

/** Twice a triangle's area is below this (square units): the CK's degenerate sliver. */
const DEGENERATE_AREA2 = 1e-3;

function area2(v: NvnmDocument, t: number): number {
  const P = new Float32Array(v.vertices.buffer, v.vertices.byteOffset, v.vertices.length);
  const [a, b, c] = [v.triVertices[t * 3]!, v.triVertices[t * 3 + 1]!, v.triVertices[t * 3 + 2]!];
  const ux = P[b * 3]! - P[a * 3]!, uy = P[b * 3 + 1]! - P[a * 3 + 1]!, uz = P[b * 3 + 2]! - P[a * 3 + 2]!;
  const wx = P[c * 3]! - P[a * 3]!, wy = P[c * 3 + 1]! - P[a * 3 + 1]!, wz = P[c * 3 + 2]! - P[a * 3 + 2]!;
  return Math.hypot(uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx);
}

/**
 * What the Creation Kit's "Check navmeshes" looks for, on the plugin as edited: triangles
 * with no area; edges that should be linked and are not (the CK's "Triangle A Edge i and
 * Triangle B Edge j should be linked, but they are not"); links with no way back; border
 * edges meeting another navmesh's open border edge; door triangles without the Door flag
 * (spec §5: every door-link triangle has it). Each linking problem is fixed by
 * skyrim-finalize scoped to its triangle, a missing Door flag by painting it. Overlapping
 * triangles are not checked.
 */
export function checkSkyrimNavmeshes(doc: PluginDocument): NavmeshCheck {
  const meshOf = new Map<number, number>();
  const live = new Map<number, NvnmDocument>();
  let mesh = 0;
  for (const n of pluginNavmeshes(doc)) {
    if (!n.nvnm) continue;
    // pluginToWalkmeshes makes one walkmesh per navmesh with an NVNM, deleted or not, in file order.
    if (!meshOf.has(n.formId)) meshOf.set(n.formId, mesh);
    mesh++;
    if (!n.deleted && !live.has(n.formId)) live.set(n.formId, n.nvnm);
  }
  const items: NavmeshCheckItem[] = [];
  let doors = 0;
  for (const [formId, v] of live) {
    const id = formIdHex(formId);
    const m = meshOf.get(formId)!;
    for (let t = 0; t < v.triFlags.length; t++) {
      if (area2(v, t) < DEGENERATE_AREA2) {
        items.push({
          code: 'degenerate-triangle', navmesh: formId, mesh: m, triangle: t,
          message: `navmesh ${id} triangle ${t} has no area (its corners are in a line)`,
          noFix: 'deleting it would renumber the triangles other navmeshes and doors name; move one of its vertices off the line (Move), or weld it away in the Creation Kit',
        });
      }
    }
    doors += v.doorTriangle.length;
    const flagged = new Set<number>();
    for (const t of v.doorTriangle) {
      if (t < 0 || t >= v.triFlags.length || (v.triFlags[t]! & TRI_DOOR) !== 0 || flagged.has(t)) continue;
      flagged.add(t);
      items.push({
        code: 'door-not-flagged', navmesh: formId, mesh: m, triangle: t,
        message: `navmesh ${id} triangle ${t} is a door portal but lacks the Door flag (0x400)`,
        fix: { label: 'Set the Door flag', command: { kind: 'paint-faces', faces: [t], setBits: TRI_DOOR } },
      });
    }
  }
  const plan = planSkyrimLinks(doc);
  for (const l of plan.links) {
    const { a, b } = l;
    const fix = { label: 'Link', command: { kind: 'skyrim-finalize', navmeshes: [a.navmesh], triangle: a.t } as DocumentEditCommand };
    const where = `navmesh ${formIdHex(a.navmesh)} triangle ${a.t} edge ${a.e}`;
    const other = `${b.navmesh === a.navmesh ? '' : `navmesh ${formIdHex(b.navmesh)} `}triangle ${b.t} edge ${b.e}`;
    const message =
      l.why === 'shared-edge' ? `${where} and ${other} should be linked, but they are not (they share both vertices)`
      : l.why === 'reciprocal' ? `${other} links to ${where.replace(/ edge \d$/, '')}, which does not link back`
      : `${where} meets ${other} but the two navmeshes are not linked there`;
    const code = l.why === 'shared-edge' ? 'shared-edge-unlinked' : l.why === 'reciprocal' ? 'link-not-reciprocal' : 'border-unlinked';
    items.push({ code, navmesh: a.navmesh, mesh: meshOf.get(a.navmesh)!, triangle: a.t, message, fix: { ...fix, label: l.why === 'reciprocal' ? 'Link back' : 'Link both ways' } });
  }
  const portals = skyrimDoorPortals(doc);
  return { items, finalize: plan.counts, doors, doorPortals: portals.counts, doorSummary: doorPortalSummary(portals) };
}
