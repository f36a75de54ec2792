import { describe, expect, it } from 'vitest';
import { bspLevelContextPieces } from '../../../shared/formats/source/bsp-level-context';
import { readBsp } from '../../../shared/formats/source/bsp-reader';
import { syntheticVbsp } from '../../support/big-bsp';

/** The bench's synthetic map (test/support/big-bsp.ts) is a map the reader takes as written. */
describe('synthetic VBSP for the bench', () => {
  const small = syntheticVbsp(0);

  it('is deterministic and padded to the size asked for', () => {
    expect(Buffer.from(syntheticVbsp(0).bytes).equals(small.bytes)).toBe(true);
    expect(syntheticVbsp(small.bytes.length + 4096).bytes.length).toBe(small.bytes.length + 4096);
  });

  it('reads back with its faces, displacements and drawn triangles', () => {
    const map = readBsp(small.bytes, 'maps/synthetic.bsp');
    expect(map.version).toBe(20);
    expect(map.faces.count).toBe(small.faces);
    expect(map.displacements.count).toBe(small.displacements);
    const pieces = bspLevelContextPieces(map);
    expect(pieces.reduce((n, p) => n + p.triangles.length / 3, 0)).toBe(small.drawnTriangles);
    // Skybox and nodraw ceilings are left out; the func_brush plates stand at their origins.
    expect(pieces[0]!.surfaces).not.toContain('TOOLS/TOOLSSKYBOX');
    const plates = pieces.slice(1);
    expect(plates.map((p) => p.label)).toEqual(plates.map((_, i) => `func_brush *${i + 1}`));
    for (const [i, p] of plates.entries()) {
      expect(p.positions[0]! + 32).toBe((i + 1) * 640);
      expect(p.positions[2]).toBe(600);
    }
  });
});
