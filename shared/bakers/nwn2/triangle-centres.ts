import { floatView } from '../../formats/nwn2/aswm-document';

const f = Math.fround;
const THIRD = f(1 / 3);

/**
 * Each triangle's centre (x, y) as float bits, computed as the toolset computes it: in
 * 32-bit floats, ((a + b) + c) · (1/3) (the same arithmetic as aswm-geometry's
 * deriveTriangle, which reproduces every fixture's stored centres bit for bit).
 */
export function triangleCentres(vertices: Uint32Array, triVertices: Uint32Array): Uint32Array {
  const p = floatView(vertices);
  const T = triVertices.length / 3;
  const out = new Uint32Array(T * 2);
  const c = floatView(out);
  for (let t = 0; t < T; t++) {
    const a = triVertices[t * 3]! * 3;
    const b = triVertices[t * 3 + 1]! * 3;
    const d = triVertices[t * 3 + 2]! * 3;
    c[t * 2] = f(f(f(p[a]! + p[b]!) + p[d]!) * THIRD);
    c[t * 2 + 1] = f(f(f(p[a + 1]! + p[b + 1]!) + p[d + 1]!) * THIRD);
  }
  return out;
}
