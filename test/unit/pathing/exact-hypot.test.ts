import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../shared/bakers/nwn2/point-reachability';
import { hypot3 } from '../../../shared/geometry/exact-hypot';

/** hypot3 stands in for Math.hypot in the path search (issue 18), so it must give the same bits. */
describe('hypot3', () => {
  it('equals Math.hypot bit for bit on a million random triples of every magnitude and sign', () => {
    const random = seededRandom(18);
    const value = () => {
      const r = random();
      if (r < 0.05) return 0;
      if (r < 0.08) return -0;
      // Magnitudes from 1e-12 to 1e12, as coordinates and their differences span in every game's units.
      return (random() - 0.5) * 10 ** Math.floor(random() * 25 - 12);
    };
    let differing = 0;
    for (let i = 0; i < 1_000_000; i++) {
      const x = value(), y = value(), z = value();
      if (!Object.is(hypot3(x, y, z), Math.hypot(x, y, z))) differing++;
    }
    expect(differing).toBe(0);
  });

  it('equals Math.hypot on the special values', () => {
    const specials = [0, -0, 1, -1, Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE, Infinity, -Infinity, NaN, 1e-310, 3, 4, 12];
    for (const x of specials) {
      for (const y of specials) {
        for (const z of specials) expect(Object.is(hypot3(x, y, z), Math.hypot(x, y, z)), `${x}, ${y}, ${z}`).toBe(true);
      }
    }
  });
});
