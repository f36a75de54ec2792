import { AABB_NO_CHILD, AABB_NODE_WORDS, BWM_FORMAT, floatsOf, NO_TRANSITION, type BwmDocument } from '../formats/kotor/bwm-document';
import { COVER_MASK, TRI_EDGE_LINK_BITS, type NvnmDocument } from '../formats/skyrim/nvnm-document';
import { PLUGIN_FORMAT, type PluginDocument } from '../formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../formats/skyrim/plugin-navmeshes';
import { floatView, NAV_LADDER_WORDS, NavCorner, type NavDocument } from '../formats/source/nav-document';
import { OverlayBuilder, type LineOverlay } from './view-overlay';

const NAV_FORMAT = 'source-nav';
/** Deeper AABB levels share the last legend line: a 10,000-face room is about 14 deep. */
const MAX_AABB_DEPTH_CLASSES = 16;

/**
 * The overlays a format's own document holds beyond the common model: KotOR AABB boxes and
 * room transitions, Skyrim edge links, door links and cover edges, Source connections,
 * ladders and hiding spots. An unknown format or one without such data gives none.
 */
export function documentOverlays(format: string, document: unknown): LineOverlay[] {
  let found: (LineOverlay | null)[] = [];
  if (format === BWM_FORMAT) found = bwmOverlays(document as BwmDocument);
  else if (format === NAV_FORMAT) found = navOverlays(document as NavDocument);
  else if (format === PLUGIN_FORMAT) found = pluginOverlays(document as PluginDocument);
  return found.filter((o): o is LineOverlay => o !== null);
}

function bwmOverlays(doc: BwmDocument): (LineOverlay | null)[] {
  const nodes = doc.aabb.length / AABB_NODE_WORDS;
  const box = floatsOf(doc.aabb);
  const depth = new Int32Array(nodes).fill(-1);
  const aabb = new OverlayBuilder('aabb', Array.from({ length: MAX_AABB_DEPTH_CLASSES }, (_, d) => (d === MAX_AABB_DEPTH_CLASSES - 1 ? `depth ${d}+` : `depth ${d}`)));
  if (nodes > 0) {
    // Breadth first from the root; a node reached twice (a broken tree) is drawn once.
    const queue = [0];
    depth[0] = 0;
    for (let h = 0; h < queue.length; h++) {
      const n = queue[h]!;
      const o = n * AABB_NODE_WORDS;
      const c = Math.min(depth[n]!, MAX_AABB_DEPTH_CLASSES - 1);
      aabb.countItem(c);
      aabb.box(c, box[o]!, box[o + 1]!, box[o + 2]!, box[o + 3]!, box[o + 4]!, box[o + 5]!);
      for (const child of [doc.aabb[o + 9]!, doc.aabb[o + 10]!]) {
        if (child === AABB_NO_CHILD || child >= nodes || depth[child] !== -1) continue;
        depth[child] = depth[n]! + 1;
        queue.push(child);
      }
    }
  }
  const p = floatsOf(doc.vertices);
  const rooms = [...new Set(doc.edgeTransition)].filter((r) => r !== NO_TRANSITION).sort((a, b) => a - b).slice(0, 256);
  const classOf = new Map(rooms.map((r, i) => [r, i]));
  const transitions = new OverlayBuilder('transitions', rooms.map((r) => `to room ${r}`));
  for (let i = 0; i < doc.edgeIndex.length; i++) {
    const c = classOf.get(doc.edgeTransition[i]!);
    if (c === undefined) continue;
    const edge = doc.edgeIndex[i]!;
    const f = Math.floor(edge / 3);
    const e = edge - f * 3;
    if (f * 3 + 2 >= doc.faces.length) continue;
    const a = doc.faces[f * 3 + e]! * 3;
    const b = doc.faces[f * 3 + (e === 2 ? 0 : e + 1)]! * 3;
    if (a + 2 >= p.length || b + 2 >= p.length) continue;
    transitions.countItem(c);
    transitions.segment(c, p[a]!, p[a + 1]!, p[a + 2]!, p[b]!, p[b + 1]!, p[b + 2]!);
  }
  return [aabb.finish(), transitions.finish()];
}

function navOverlays(doc: NavDocument): (LineOverlay | null)[] {
  const areas = doc.areas;
  const corners = floatView(areas.corners);
  const indexOf = new Map<number, number>();
  for (let a = 0; a < areas.count; a++) indexOf.set(areas.id[a]!, a);
  const centre = (a: number): [number, number, number] => {
    const o = a * 8;
    return [
      (corners[o + NavCorner.NwX]! + corners[o + NavCorner.SeX]!) / 2,
      (corners[o + NavCorner.NwY]! + corners[o + NavCorner.SeY]!) / 2,
      (corners[o + NavCorner.NwZ]! + corners[o + NavCorner.SeZ]! + corners[o + NavCorner.NeZ]! + corners[o + NavCorner.SwZ]!) / 4,
    ];
  };
  // Two-way connections are drawn once; a one-way one gets its own colour.
  const links = new Set<number>();
  for (let a = 0; a < areas.count; a++) {
    for (let k = areas.connectionStart[a * 4]!; k < areas.connectionStart[a * 4 + 4]!; k++) {
      const b = indexOf.get(areas.connectionTarget[k]!);
      if (b !== undefined) links.add(a * areas.count + b);
    }
  }
  const connections = new OverlayBuilder('connections', ['two-way', 'one-way', 'to a missing area']);
  const ownerLinks: number[] = [];
  for (let a = 0; a < areas.count; a++) {
    const from = centre(a);
    for (let k = areas.connectionStart[a * 4]!; k < areas.connectionStart[a * 4 + 4]!; k++) {
      const b = indexOf.get(areas.connectionTarget[k]!);
      if (b === undefined) {
        connections.countItem(2);
        connections.marker(2, from[0], from[1], from[2], 8);
        continue;
      }
      ownerLinks.push(areas.id[a]!, areas.id[b]!);
      const back = links.has(b * areas.count + a);
      if (back && b < a) continue;
      const to = centre(b);
      const c = back ? 0 : 1;
      connections.countItem(c);
      // Lifted a little, so the line is not hidden inside sloped floors.
      connections.segment(c, from[0], from[1], from[2] + 4, to[0], to[1], to[2] + 4);
    }
  }
  const ladders = new OverlayBuilder('ladders', ['ladder']);
  const lw = floatView(doc.ladders.words);
  for (let l = 0; l < doc.ladders.count; l++) {
    const o = l * NAV_LADDER_WORDS;
    ladders.countItem(0);
    ladders.segment(0, lw[o + 1]!, lw[o + 2]!, lw[o + 3]!, lw[o + 4]!, lw[o + 5]!, lw[o + 6]!);
  }
  const spots = new OverlayBuilder('hiding-spots', ['hiding spot']);
  const sp = floatView(areas.hidingSpotPosition);
  for (let s = 0; s < sp.length / 3; s++) {
    spots.countItem(0);
    spots.marker(0, sp[s * 3]!, sp[s * 3 + 1]!, sp[s * 3 + 2]!, 8);
  }
  const connectionOverlay = connections.finish();
  if (connectionOverlay) connectionOverlay.ownerLinks = Uint32Array.from(ownerLinks);
  return [connectionOverlay, ladders.finish(), spots.finish()];
}

function pluginOverlays(doc: PluginDocument): (LineOverlay | null)[] {
  const edgeLinks = new OverlayBuilder('edge-links', ['to another navmesh']);
  const doors = new OverlayBuilder('door-links', ['door triangle']);
  const cover = new OverlayBuilder('cover-edges', ['ledge cover', 'covered wall', 'wall without cover']);
  for (const n of pluginNavmeshes(doc)) if (n.nvnm) navmeshOverlays(n.nvnm, edgeLinks, doors, cover);
  return [edgeLinks.finish(), doors.finish(), cover.finish()];
}

function navmeshOverlays(v: NvnmDocument, edgeLinks: OverlayBuilder, doors: OverlayBuilder, cover: OverlayBuilder): void {
  const p = new Float32Array(new Uint32Array(v.vertices).buffer);
  const nv = p.length / 3;
  const tris = v.triFlags.length;
  const corner = (t: number, k: number) => v.triVertices[t * 3 + k]!;
  const ok = (t: number) => t >= 0 && t < tris && corner(t, 0) < nv && corner(t, 1) < nv && corner(t, 2) < nv;
  const edge = (b: OverlayBuilder, c: number, t: number, e: number) => {
    const a = corner(t, e) * 3;
    const z = corner(t, e === 2 ? 0 : e + 1) * 3;
    b.segment(c, p[a]!, p[a + 1]!, p[a + 2]!, p[z]!, p[z + 1]!, p[z + 2]!);
  };
  for (let t = 0; t < tris; t++) {
    if (!ok(t)) continue;
    const flags = v.triFlags[t]!;
    for (let e = 0; e < 3; e++) {
      if ((flags & TRI_EDGE_LINK_BITS[e]!) === 0) continue;
      edgeLinks.countItem(0);
      edge(edgeLinks, 0, t, e);
    }
    const word = v.triCover[t]! & COVER_MASK;
    if (word === 0) continue;
    // Edges 0-1 and 1-2 carry a 4-bit type each (spec §6); edge 2-0 has no cover slot.
    for (let e = 0; e < 2; e++) {
      const type = (word >> (e * 6)) & 0xf;
      if (type === 0 || type === 3) continue;
      const c = type === 2 ? 0 : type >= 4 ? 1 : 2;
      cover.countItem(c);
      edge(cover, c, t, e);
    }
  }
  for (let d = 0; d < v.doorTriangle.length; d++) {
    const t = v.doorTriangle[d]!;
    if (!ok(t)) continue;
    const a = corner(t, 0) * 3, b = corner(t, 1) * 3, c = corner(t, 2) * 3;
    doors.countItem(0);
    doors.marker(0, (p[a]! + p[b]! + p[c]!) / 3, (p[a + 1]! + p[b + 1]! + p[c + 1]!) / 3, (p[a + 2]! + p[b + 2]! + p[c + 2]!) / 3, 24);
    for (let e = 0; e < 3; e++) edge(doors, 0, t, e);
  }
}

