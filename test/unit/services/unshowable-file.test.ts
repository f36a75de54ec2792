import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWalkbenchService } from '../../../electron/services/walkbench-service';
import { fixturesRoot, readFixture } from '../../support/fixtures';

describe('opening a file that reads but cannot be drawn', () => {
  it('returns a report naming the problem instead of failing the call', async () => {
    const bytes = readFixture(path.join(fixturesRoot, 'kotor/pykotor/test.wok')).slice();
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const vertexCount = view.getUint32(0x48, true);
    const faceOffset = view.getUint32(0x54, true);
    // Face 0's first corner names a vertex past the end of the vertex table.
    view.setUint32(faceOffset, vertexCount + 5, true);
    const service = createWalkbenchService();
    const opened = await service['files.openBytes']({ name: 'broken.wok', bytes });
    expect(opened.walkmeshes).toEqual([]);
    expect(opened.report.ok).toBe(false);
    const codes = opened.report.errors.map((e) => e.code);
    expect(codes).toContain('model.unshowable');
    const unshown = opened.report.errors.find((e) => e.code === 'model.unshowable')!;
    expect(unshown.message).toContain('broken.wok');
    expect(unshown.message).toContain(String(vertexCount + 5));
  });
});
