import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readBsp } from '../../../shared/formats/source/bsp-reader';
import { VBSP_ENTRY_BYTES, VBSP_LUMP } from '../../../shared/formats/source/vbsp-reader';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import { parseVbspinfo } from './vbspinfo';

/**
 * Lump sizes and object counts against Valve's `vbspinfo` output saved beside the TF2
 * maps: every row's bytes must equal the lump the reader found in the directory, and
 * every decoded lump's item count must equal vbspinfo's object count.
 */

/** vbspinfo row name → lump index (bspfile.h); game-lump and occluder rows are sums vbspinfo makes itself. */
const ROW_LUMP: Readonly<Record<string, number>> = {
  entdata: 0, planes: 1, texdata: 2, vertexes: 3, visdata: 4, nodes: 5, texinfos: 6, faces: 7, 'LDR lightdata': 8,
  leaves: 10, edges: 12, surfedges: 13, models: 14, 'LDR worldlights': 15, leaffaces: 16, leafbrushes: 17, brushes: 18,
  brushsides: 19, areas: 20, dispinfos: 26, origfaces: 27, 'physics terrain': 28, physics: 29, disp_verts: 33,
  disp_lmsamples: 34, leafwaterdata: 36, waterstrips: 37, waterverts: 38, waterindices: 39, pakfile: 40, cubemapsamples: 42,
  overlays: 45, disp_tris: 48, 'HDR ambient table': 51, 'LDR ambient table': 52, 'HDR lightdata': 53, 'HDR worldlights': 54,
  'HDR leaf ambient': 55, 'LDR leaf ambient': 56, 'hdr faces': 58,
};
const NOT_LUMPS = new Set(['occluders', 'occluder polygons', 'occluder vert ind', 'detail props', 'static props']);

const infos = listFixtures('source-maps', ['.bsp.info.txt']);

describe('VBSP lumps against vbspinfo', () => {
  it('has vbspinfo outputs to check against', () => {
    expect(infos.length).toBeGreaterThan(0);
  });

  for (const infoFile of infos) {
    const bspFile = infoFile.slice(0, -'.info.txt'.length);
    it(fixtureName(bspFile), () => {
      const info = parseVbspinfo(readFileSync(infoFile, 'utf8'));
      const bytes = readFixture(bspFile);
      expect(bytes.length).toBe(info.fileSize);
      const map = readBsp(bytes, fixtureName(bspFile));
      let checked = 0;
      for (const row of info.rows.values()) {
        if (NOT_LUMPS.has(row.name)) continue;
        const index = ROW_LUMP[row.name];
        expect(index, `vbspinfo row "${row.name}" has no lump in the table`).toBeDefined();
        expect(map.lumps[index!]!.length, row.name).toBe(row.bytes);
        checked++;
      }
      expect(checked).toBeGreaterThan(30);

      const objects = (name: string) => info.rows.get(name)!.objects;
      expect(map.models.count).toBe(objects('models'));
      expect(map.planes.length / 4).toBe(objects('planes'));
      expect(map.vertices.length / 3).toBe(objects('vertexes'));
      expect(map.texinfo.count).toBe(objects('texinfos'));
      expect(map.textures.length).toBe(objects('texdata'));
      expect(map.faces.count).toBe(objects('faces'));
      expect(map.edges.length / 2).toBe(objects('edges'));
      expect(map.surfedges.length).toBe(objects('surfedges'));
      expect(map.displacements.count).toBe(objects('dispinfos'));
      expect(map.displacements.verts.length / 5).toBe(objects('disp_verts'));
      expect(map.displacements.triTags.length).toBe(objects('disp_tris'));
      // The entry sizes the reader uses agree with vbspinfo's bytes per object.
      for (const [row, lump] of [['faces', VBSP_LUMP.faces], ['texinfos', VBSP_LUMP.texinfo], ['models', VBSP_LUMP.models], ['dispinfos', VBSP_LUMP.dispinfo]] as const) {
        const r = info.rows.get(row)!;
        if (r.objects! > 0) expect(r.bytes / r.objects!).toBe(VBSP_ENTRY_BYTES[map.lumps[lump]!.name]);
      }
    });
  }
});
