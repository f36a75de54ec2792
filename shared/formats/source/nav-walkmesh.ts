import { createWalkmesh, type Walkmesh } from '../../model/walkmesh';
import { floatView, NavCorner as C, type NavDocument } from './nav-document';

/**
 * The common-model view of a `.nav` file: each area becomes four vertices (NW, NE, SE, SW)
 * and two upward-facing triangles tagged with the area ID, so viewers and tools treat nav
 * meshes like any other walkmesh. Face material holds the area's attribute flags.
 */
export function navToWalkmesh(doc: NavDocument, name: string): Walkmesh {
  const A = doc.areas;
  const n = A.count;
  const c = floatView(A.corners);
  const positions = new Float32Array(n * 12);
  const triangles = new Uint32Array(n * 6);
  const faceMaterial = new Uint32Array(n * 2);
  const faceOwner = new Uint32Array(n * 2);
  for (let a = 0; a < n; a++) {
    const k = a * 8;
    const nwX = c[k + C.NwX]!;
    const nwY = c[k + C.NwY]!;
    const seX = c[k + C.SeX]!;
    const seY = c[k + C.SeY]!;
    const p = a * 12;
    // NW, NE, SE, SW: north is -Y, east is +X (spec §3).
    positions[p] = nwX;
    positions[p + 1] = nwY;
    positions[p + 2] = c[k + C.NwZ]!;
    positions[p + 3] = seX;
    positions[p + 4] = nwY;
    positions[p + 5] = c[k + C.NeZ]!;
    positions[p + 6] = seX;
    positions[p + 7] = seY;
    positions[p + 8] = c[k + C.SeZ]!;
    positions[p + 9] = nwX;
    positions[p + 10] = seY;
    positions[p + 11] = c[k + C.SwZ]!;
    const v = a * 4;
    const t = a * 6;
    triangles[t] = v;
    triangles[t + 1] = v + 1;
    triangles[t + 2] = v + 2;
    triangles[t + 3] = v;
    triangles[t + 4] = v + 2;
    triangles[t + 5] = v + 3;
    faceMaterial[a * 2] = faceMaterial[a * 2 + 1] = A.attributes[a]!;
    faceOwner[a * 2] = faceOwner[a * 2 + 1] = A.id[a]!;
  }
  return createWalkmesh({ name, game: 'source', format: 'source-nav', positions, triangles, faceMaterial, faceOwner });
}
