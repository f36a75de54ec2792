import { TRI_DELETED, TRI_EDGE_LINK_BITS } from '../formats/skyrim/nvnm-document';
import { formIdHex, type PluginDocument } from '../formats/skyrim/plugin-document';
import { pluginNavmeshes } from '../formats/skyrim/plugin-navmeshes';
import { NavGraphBuilder, triangleOutlines } from './nav-graph';
import { PathSurface, SKYRIM_SNAP_TOLERANCE, type SurfacePart } from './path-surface';

/**
 * A path surface over every navmesh of a Skyrim plugin, one face range per navmesh.
 * Triangles join through the NVNM's own edge table (skyrim-navm.md §4.2): an edge whose
 * link bit is clear names the neighbour triangle, one whose bit is set names an edge-link
 * entry (another NAVM and a triangle in it), followed when that NAVM is in the plugin.
 * Links to NAVMs of other plugins (the master's) are border edges here. Deleted triangles
 * are not walkable.
 */
export function skyrimPathSurface(doc: PluginDocument, name: string): PathSurface {
  const navmeshes = pluginNavmeshes(doc).filter((n) => n.nvnm !== undefined && !n.deleted);
  const vertexBase: number[] = [];
  const faceBase: number[] = [];
  let V = 0, T = 0;
  for (const n of navmeshes) {
    vertexBase.push(V);
    faceBase.push(T);
    V += n.nvnm!.vertices.length / 3;
    T += n.nvnm!.triFlags.length;
  }
  const positions = new Float32Array(V * 3);
  const triangles = new Uint32Array(T * 3);
  const walkable = new Uint8Array(T);
  const byFormId = new Map<number, number>();
  navmeshes.forEach((n, i) => {
    const v = n.nvnm!;
    positions.set(new Float32Array(new Uint32Array(v.vertices).buffer), vertexBase[i]! * 3);
    const nv = v.vertices.length / 3;
    for (let k = 0; k < v.triVertices.length; k++) {
      // A corner past the vertex list (a damaged record) is pinned to vertex 0 and its face left unwalkable.
      triangles[faceBase[i]! * 3 + k] = vertexBase[i]! + (v.triVertices[k]! < nv ? v.triVertices[k]! : 0);
    }
    for (let t = 0; t < v.triFlags.length; t++) {
      const bad = v.triVertices[t * 3]! >= nv || v.triVertices[t * 3 + 1]! >= nv || v.triVertices[t * 3 + 2]! >= nv;
      walkable[faceBase[i]! + t] = bad || v.triFlags[t]! & TRI_DELETED ? 0 : 1;
    }
    if (!byFormId.has(n.formId)) byFormId.set(n.formId, i);
  });
  const { polyStart, polyPoints } = triangleOutlines(positions, triangles);
  const b = new NavGraphBuilder(T, polyStart, polyPoints, walkable);
  navmeshes.forEach((n, i) => {
    const v = n.nvnm!;
    const base = faceBase[i]!;
    const count = v.triFlags.length;
    for (let t = 0; t < count; t++) {
      const f = base + t;
      if (!walkable[f]) continue;
      for (let e = 0; e < 3; e++) {
        const value = v.triEdges[t * 3 + e]!;
        if (value < 0) continue;
        let g = -1;
        if (v.triFlags[t]! & TRI_EDGE_LINK_BITS[e]!) {
          const target = value < v.edgeLinkNavmesh.length ? byFormId.get(v.edgeLinkNavmesh[value]!) : undefined;
          const tri = target !== undefined ? v.edgeLinkTriangle[value]! : -1;
          if (target !== undefined && tri >= 0 && tri < navmeshes[target]!.nvnm!.triFlags.length) g = faceBase[target]! + tri;
        } else if (value < count) g = base + value;
        if (g >= 0 && g !== f && walkable[g]) b.addThroughEdge(f, g, e);
      }
    }
  });
  const partOf = (f: number): number => {
    let lo = 0, hi = faceBase.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (faceBase[mid]! <= f) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const graph = b.finish((f) => {
    const i = partOf(f);
    return `triangle ${f - faceBase[i]!} of NAVM ${formIdHex(navmeshes[i]!.formId)}`;
  }, 'faces');
  const surface = new PathSurface(graph, positions, triangles, walkable);
  surface.snapTolerance = SKYRIM_SNAP_TOLERANCE;
  surface.parts = navmeshes.map((n, i): SurfacePart => ({
    index: i,
    name: `${name} NAVM ${formIdHex(n.formId)}`,
    id: formIdHex(n.formId),
    faceStart: faceBase[i]!,
    faceEnd: faceBase[i]! + n.nvnm!.triFlags.length,
    // Exterior navmeshes of one worldspace share coordinates; each interior cell has its own.
    space: n.nvnm!.worldspace !== 0 ? `worldspace ${formIdHex(n.nvnm!.worldspace)}` : `cell ${formIdHex(n.nvnm!.parent)}`,
  }));
  return surface;
}
