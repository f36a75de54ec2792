import { bitsOf, BWM_TYPE_AREA, NO_TRANSITION } from '../../../shared/formats/kotor/bwm-document';
import type { BwmBakeInput } from '../../../shared/bakers/kotor/bwm-bake';

/**
 * A generated room walkmesh: a (cols × rows) grid of unit squares split into two
 * up-facing triangles each, with a little deterministic height noise. Every 7th triangle
 * gets material 7 (non-walkable) so faces must be reordered, and the west border edges
 * carry transition 3.
 */
export function gridBakeInput(cols: number, rows: number): BwmBakeInput {
  const vx = cols + 1;
  const positions = new Float32Array(vx * (rows + 1) * 3);
  for (let y = 0; y <= rows; y++) {
    for (let x = 0; x <= vx - 1; x++) {
      const v = y * vx + x;
      positions[3 * v] = x;
      positions[3 * v + 1] = y;
      positions[3 * v + 2] = ((x * 7919 + y * 104729) % 13) * 0.01;
    }
  }
  const faces = new Uint32Array(cols * rows * 6);
  const materials = new Uint32Array(cols * rows * 2);
  const transitions = new Int32Array(cols * rows * 6).fill(NO_TRANSITION);
  let f = 0;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const a = y * vx + x, b = a + 1, c = a + vx, d = c + 1;
      faces.set([a, b, d], 3 * f);
      faces.set([a, d, c], 3 * f + 3);
      materials[f] = f % 7 === 3 ? 7 : 4;
      materials[f + 1] = (f + 1) % 7 === 3 ? 7 : 4;
      if (x === 0) transitions[3 * (f + 1) + 2] = 3; // edge c→a of the second triangle lies on x = 0
      f += 2;
    }
  }
  return { type: BWM_TYPE_AREA, hooks: new Uint32Array(15), vertices: bitsOf(positions), faces, materials, transitions };
}
