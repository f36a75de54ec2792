import { describe, expect, it } from 'vitest';
import { bakeBwm, bakeInputOf } from '../../../shared/bakers/kotor/bwm-bake';
import {
  BWM_TYPE_OBJECT,
  HOOK_POSITION,
  HOOK_USE1_ABSOLUTE,
  HOOK_USE1_RELATIVE,
  HOOK_USE2_RELATIVE,
  hookPoint,
} from '../../../shared/formats/kotor/bwm-document';
import { bwmFormat } from '../../../shared/formats/kotor/bwm-format';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { writeBwm } from '../../../shared/formats/kotor/bwm-writer';
import { DEFAULT_WALKABILITY } from '../../../shared/formats/kotor/surface-materials';
import { fixturesRoot, readFixture } from '../../support/fixtures';

const pwkFile = `${fixturesRoot}/kotor/k1cp/plc_fccage2.pwk`;
const u32 = (b: Uint8Array, at: number): number => new DataView(b.buffer, b.byteOffset).getUint32(at, true);

describe('PWK and DWK', () => {
  it('reads the placeable walkmesh header: type 0, use points, position, no walk tables', () => {
    const doc = readBwm(readFixture(pwkFile));
    expect(doc.type).toBe(BWM_TYPE_OBJECT);
    expect(doc.vertices.length / 3).toBe(18);
    expect(doc.faces.length / 3).toBe(16);
    expect(Array.from(doc.materials).every((m) => m === 7)).toBe(true);
    const use1 = hookPoint(doc, HOOK_USE1_RELATIVE);
    expect(use1[0]).toBeCloseTo(-0.88, 2);
    expect(use1[1]).toBeCloseTo(-0.85, 2);
    expect(hookPoint(doc, HOOK_USE2_RELATIVE).some((v) => v !== 0)).toBe(true);
    expect(hookPoint(doc, HOOK_USE1_ABSOLUTE)).toEqual([0, 0, 0]);
    expect(doc.aabb.length + doc.adjacency.length + doc.edgeIndex.length + doc.perimeters.length).toBe(0);
    expect(doc.emptyOffsets).toEqual({ aabb: 'zero', adjacency: 'zero', edges: 'zero', perimeters: 'zero' });
    const summary = bwmFormat.summarize(doc);
    expect(summary.details.use1Relative).toMatch(/^\(-0\.88/);
  });

  it('a rebuilt PWK keeps use points and position and writes empty-section offsets as 0', () => {
    const original = readFixture(pwkFile);
    const baked = bakeBwm(bakeInputOf(readBwm(original)), DEFAULT_WALKABILITY).document;
    const bytes = writeBwm(baked);
    expect(Buffer.from(bytes.subarray(0, 0x48)).equals(Buffer.from(original.subarray(0, 0x48)))).toBe(true);
    for (const at of [0x68, 0x74, 0x7c, 0x84]) expect(u32(bytes, at)).toBe(0);
    expect(bytes.length).toBe(original.length);
  });

  it('keeps running offsets of empty sections when the file had them (PyKotor-fork style)', () => {
    const doc = readBwm(readFixture(pwkFile));
    doc.emptyOffsets = { aabb: 'running', adjacency: 'running', edges: 'running', perimeters: 'running' };
    const bytes = writeBwm(doc);
    expect(u32(bytes, 0x68)).toBe(bytes.length);
    const again = readBwm(bytes);
    expect(again.emptyOffsets.aabb).toBe('running');
    expect(Buffer.from(writeBwm(again)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('a DWK (type 0 with absolute use points = position + relative) round-trips exactly', () => {
    const doc = readBwm(readFixture(pwkFile));
    const f = new Float32Array(doc.hooks.buffer);
    f.set([1.5, -2.25, 0.5], HOOK_POSITION);
    f.set([0.25, 1, 0], HOOK_USE1_RELATIVE);
    f.set([1.75, -1.25, 0.5], HOOK_USE1_ABSOLUTE);
    const bytes = writeBwm(doc);
    const back = readBwm(bytes);
    expect(hookPoint(back, HOOK_POSITION)).toEqual([1.5, -2.25, 0.5]);
    expect(hookPoint(back, HOOK_USE1_ABSOLUTE)).toEqual([1.75, -1.25, 0.5]);
    expect(Buffer.from(writeBwm(back)).equals(Buffer.from(bytes))).toBe(true);
    expect(bwmFormat.extensions).toContain('.dwk');
  });
});
