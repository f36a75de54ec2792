import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGffDocument, createGffStruct, type GffStruct } from '../../../shared/formats/aurora/gff-document';
import { gff, optList, setField } from '../../../shared/formats/aurora/gff-fields';
import { readGff } from '../../../shared/formats/aurora/gff-reader';
import { writeGff } from '../../../shared/formats/aurora/gff-writer';
import { readGitPlaceables } from '../../../shared/formats/aurora/nwn2-git';
import { floatsOf } from '../../../shared/formats/kotor/bwm-document';
import { readBwm } from '../../../shared/formats/kotor/bwm-reader';
import { readKotorGitPlacements } from '../../../shared/formats/kotor/kotor-git-placement';
import type { LineOverlay } from '../../../shared/views/view-overlay';
import { importSources } from '../../../electron/services/project/project-import';
import { ProjectStore } from '../../../electron/services/project/project-store';
import { createWalkbenchService } from '../../../electron/services/walkbench-service';
import { fixturesRoot, readFixture } from '../../support/fixtures';
import { placeableStruct } from '../nwn2-trn-bake/bake-support';

const kotor = (name: string) => path.join(fixturesRoot, 'kotor', name);
const nwn2 = (name: string) => path.join(fixturesRoot, 'nwn2', name);

/** Segments of one overlay class as [x, y, z] end points. */
function pointsOf(o: LineOverlay, cls: number): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let i = 0; i < o.segmentClass.length; i++) {
    if (o.segmentClass[i] !== cls) continue;
    for (const k of [0, 3]) out.push([o.segments[i * 6 + k]!, o.segments[i * 6 + k + 1]!, o.segments[i * 6 + k + 2]!]);
  }
  return out;
}

describe('project.openFile: placeable and door footprints from the project models', () => {
  let tmp = '';
  beforeEach(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-footprints-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('KotOR: the GIT placeable whose PWK was imported is drawn as the PWK outline at its place; the door without DWKs stays a marker', async () => {
    // test.git with its placeable's template pointing at the K1CP cage, so the import has its PWK.
    const source = readGff(readFixture(kotor('pykotor/test.git')));
    const list = optList(source.root, 'Placeable List').map((s): GffStruct => {
      const copy = createGffStruct(s.type, s.fields.slice());
      setField(copy, gff.resRef('TemplateResRef', 'plc_fccage2'));
      return copy;
    });
    const root = createGffStruct(source.root.type, source.root.fields.slice());
    setField(root, gff.list('Placeable List', list));
    const gitPath = path.join(tmp, 'test.git');
    writeFileSync(gitPath, writeGff(createGffDocument(source.fileType, root)));

    const projectFile = path.join(tmp, 'k.walkbench');
    const store = ProjectStore.create(projectFile, { name: 'k', game: 'kotor' });
    try {
      await importSources(store, [kotor('pykotor/test.wok'), gitPath, kotor('k1cp/plc_fccage2.pwk'), kotor('k1-blackvulkar/m10aa_01c.wok')], { module: 'mod' });
    } finally {
      store.close();
    }
    const service = createWalkbenchService();
    const tree = await service['project.open']({ path: projectFile });
    const files = tree.modules.flatMap((m) => [...m.files, ...m.areas.flatMap((a) => a.files)]);
    const opened = await service['project.openFile']({ session: tree.session, fileId: files.find((f) => f.name === 'test.wok')!.id });
    const footprints = opened.overlays?.find((o) => o.id === 'footprints');
    expect(footprints?.classes.map((c) => c.count)).toEqual([1, 0, 0, 0, 1]);
    expect(footprints!.classes[4]!.label).toBe('door without a model (marker only)');

    // The outline's points are the cage's border vertices turned by the GIT bearing and moved to its X, Y, Z.
    const at = readKotorGitPlacements(readGff(readFixture(gitPath))).placeables[0]!;
    const local = floatsOf(readBwm(readFixture(kotor('k1cp/plc_fccage2.pwk'))).vertices);
    const c = Math.cos(at.bearing), s = Math.sin(at.bearing);
    const placed = new Set<string>();
    for (let i = 0; i < local.length; i += 3) placed.add(`${(local[i]! * c - local[i + 1]! * s + at.x).toFixed(3)},${(local[i]! * s + local[i + 1]! * c + at.y).toFixed(3)},${(local[i + 2]! + at.z).toFixed(3)}`);
    const outline = pointsOf(footprints!, 0);
    expect(outline.length / 2).toBe(18);
    for (const [x, y, z] of outline) expect(placed.has(`${x.toFixed(3)},${y.toFixed(3)},${z.toFixed(3)}`)).toBe(true);

    // A room named apart from the module's only GIT shows the same placements.
    const room = await service['project.openFile']({ session: tree.session, fileId: files.find((f) => f.name === 'm10aa_01c.wok')!.id });
    expect(room.overlays?.find((o) => o.id === 'footprints')?.classes.map((k) => k.count)).toEqual([1, 0, 0, 0, 1]);
  });

  it('NWN2: a placed PLC_MC_BALCONY3 brought in by the import is outlined where the GIT puts it; the other objects stay markers', async () => {
    const mord = readGff(readFixture(nwn2('mordmansion/CSLMordMansion.GIT')));
    const before = readGitPlaceables(mord).length;
    const root = createGffStruct(mord.root.type, mord.root.fields.slice());
    // Row 1599 of placeables.2da names PLC_MC_BALCONY3.
    setField(root, gff.list('Placeable List', [...optList(mord.root, 'Placeable List'), placeableStruct({ appearance: 1599, x: 4, y: 40.5, z: 1.25, bearing: 0.6 })]));
    const gitPath = path.join(tmp, 'CSLMordMansion.GIT');
    writeFileSync(gitPath, writeGff(createGffDocument(mord.fileType, root)));

    const projectFile = path.join(tmp, 'n.walkbench');
    const store = ProjectStore.create(projectFile, { name: 'n', game: 'nwn2' });
    try {
      await importSources(store, [gitPath, nwn2('mordmansion/CSLMordMansion.TRX')], { module: 'mord', modelDirs: [nwn2('nwn-lib-d')], twoDaDir: nwn2('2da') });
      expect(store.listFiles({ kind: 'mdb' }).map((f) => f.name.toLowerCase())).toContain('plc_mc_balcony3.mdb');
    } finally {
      store.close();
    }
    const service = createWalkbenchService();
    const tree = await service['project.open']({ path: projectFile });
    const trx = tree.modules.flatMap((m) => m.areas.flatMap((a) => a.files)).find((f) => f.name === 'CSLMordMansion.TRX')!;
    const opened = await service['project.openFile']({ session: tree.session, fileId: trx.id });
    const footprints = opened.overlays?.find((o) => o.id === 'footprints');
    // The fixture's own 19 placeables have models outside the fixtures, its 12 doors are not looked up.
    expect(footprints?.classes.map((k) => k.count)).toEqual([1, 0, 0, before, 12]);
    const outline = pointsOf(footprints!, 0);
    expect(outline.length / 2).toBe(14);
    for (const [x, y, z] of outline) {
      expect(Math.hypot(x - 4, y - 40.5)).toBeLessThan(6);
      expect(z).toBeCloseTo(1.25, 4);
    }
  });
});
