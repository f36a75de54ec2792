import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rebakeProject } from '../../electron/services/bake-pool/project-rebake';
import { nodeFormatEnvironment as env } from '../../electron/services/node-format-environment';
import { planExport } from '../../electron/services/project/project-export-plan';
import { importSources } from '../../electron/services/project/project-import';
import { ProjectStore } from '../../electron/services/project/project-store';
import { createWalkbenchService } from '../../electron/services/walkbench-service';
import { editRefusals } from '../../shared/edits/edit-capabilities';
import { inspectBytes, loadDocument } from '../../shared/formats/inspect-file';
import { readBwm } from '../../shared/formats/kotor/bwm-reader';
import { writeLyt } from '../../shared/formats/kotor/lyt-writer';
import type { ContractHandlers } from '../../shared/ipc/contract';
import type { ProjectTree, ProjectTreeFile } from '../../shared/ipc/project-contract';
import { faceCount, type Walkmesh } from '../../shared/model/walkmesh';
import { fixturesRoot, readFixture } from '../support/fixtures';
import { reportOfHeldBytes } from '../support/held-report';
import { centroid, coversXY, heightAt } from '../support/walkmesh-probes';
import { BLACK_VULKAR_ROOMS, blackVulkarLyt, blackVulkarWok } from '../unit/kotor-area/black-vulkar-area';

/**
 * Regression tests for what issue 13 saw the app do wrong, each through the whole service
 * as the page calls it: edits landing in another project's file, NWN2 edits the export
 * silently dropped, findings that disagreed with `walkbench validate`, a TRN offered for
 * editing and then refused, bake states the tabs never saw, room links that did not find
 * their layout in another module, and one undo stack for the whole project.
 */

const tmp = mkdtempSync(path.join(tmpdir(), 'walkbench-app-truth-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const MORD = path.join(fixturesRoot, 'nwn2/mordmansion');
const AREA = 'CSLMordMansion';

function filesOf(tree: ProjectTree): ProjectTreeFile[] {
  return tree.modules.flatMap((m) => [...m.files, ...m.areas.flatMap((a) => a.files)]);
}

function fileNamed(tree: ProjectTree, name: string): ProjectTreeFile {
  const f = filesOf(tree).find((x) => x.name.toLowerCase() === name.toLowerCase());
  if (!f) throw new Error(`${name} is not in ${tree.path}`);
  return f;
}

async function newProject(name: string, game: 'nwn2' | 'kotor' | 'source' | 'skyrim', sources: string[], module?: string): Promise<string> {
  const file = path.join(tmp, `${name}.walkbench`);
  const store = ProjectStore.create(file, { name, game });
  try {
    await importSources(store, sources, module !== undefined ? { module } : {});
  } finally {
    store.close();
  }
  return file;
}


/** A walkable face of the mesh with a fair area, for paints that must show. */
function walkableFace(m: Walkmesh, skip = 0): number {
  let seen = 0;
  for (let f = 0; f < faceCount(m); f++) if (m.faceWalkable[f] && seen++ === skip) return f;
  throw new Error('no walkable face');
}

describe('one identity for everything the page holds', () => {
  it('an edit, undo or file request of a project opened before is refused; the new project is untouched', async () => {
    const kotor = await newProject('identity-kotor', 'kotor', [path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_09a.wok')], 'm10aa');
    const source = await newProject('identity-source', 'source', [path.join(fixturesRoot, 'source/tf2/itemtest.nav')], 'maps');
    const service: ContractHandlers = createWalkbenchService();
    const a = await service['project.open']({ path: kotor });
    const room = filesOf(a)[0]!;
    const shown = await service['project.openFile']({ session: a.session, fileId: room.id });
    expect(shown.projectFile).toMatchObject({ session: a.session, fileId: room.id, revision: 0 });

    const b = await service['project.open']({ path: source });
    expect(b.session).not.toBe(a.session);
    const nav = filesOf(b)[0]!;
    // The same file id in both projects: the old tab's request must not reach the new project's file.
    expect(nav.id).toBe(room.id);
    const paint = { kind: 'paint-faces' as const, faces: [0], setBits: 0x2 };
    await expect(service['edits.apply']({ session: a.session, fileId: room.id, revision: 0, command: paint })).rejects.toMatchObject({ code: 'stale', parameter: 'params.session' });
    await expect(service['edits.undo']({ session: a.session, fileId: room.id })).rejects.toMatchObject({ code: 'stale' });
    await expect(service['project.openFile']({ session: a.session, fileId: room.id })).rejects.toThrow(/no longer open.*identity-source/);
    // The file of the new project with that id opens, unedited.
    const opened = await service['project.openFile']({ session: b.session, fileId: nav.id });
    expect(opened.name).toBe('itemtest.nav');
    expect((await service['edits.history']({ session: b.session })).entries).toEqual([]);
    const s = ProjectStore.open(source);
    expect(s.fileById(nav.id)!.edited).toBe(false);
    s.close();
  });

  it('an edit made on an older revision of the file than the project holds is refused as stale', async () => {
    const project = await newProject('revision', 'kotor', [path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_09a.wok')], 'm10aa');
    const service = createWalkbenchService();
    const first0 = await service['project.open']({ path: project });
    // Opening the same project again is a new opening: the one before is stale.
    const tree = await service['project.open']({ path: project });
    expect(first0.session).not.toBe(tree.session);
    const room = filesOf(tree)[0]!;
    const paint = (revision: number) => service['edits.apply']({ session: tree.session, fileId: room.id, revision, command: { kind: 'paint-faces', faces: [1], material: 3 } });
    const first = await paint(0);
    expect(first.files.find((f) => f.fileId === room.id)!.revision).toBe(1);
    // A second view still on revision 0 (another window, a tab not yet told) is refused.
    await expect(paint(0)).rejects.toMatchObject({ code: 'stale', parameter: 'params.revision' });
    expect((await paint(1)).files[0]!.revision).toBe(2);
  });
});

describe('undo per file', () => {
  it('each file undoes its own edits in order; the project history lists every edit with its file', async () => {
    const rooms = ['m10aa_09a', 'm10aa_09b'].map((r) => path.join(fixturesRoot, `kotor/k1-blackvulkar/${r}.wok`));
    const project = await newProject('undo-per-file', 'kotor', rooms, 'm10aa');
    const service = createWalkbenchService();
    const tree = await service['project.open']({ path: project });
    const [a, b] = [fileNamed(tree, 'm10aa_09a.wok'), fileNamed(tree, 'm10aa_09b.wok')];
    const session = tree.session;
    await service['edits.apply']({ session, fileId: a.id, command: { kind: 'paint-faces', faces: [0], material: 3 } });
    await service['edits.apply']({ session, fileId: b.id, command: { kind: 'paint-faces', faces: [0], material: 4 } });
    await service['edits.apply']({ session, fileId: a.id, command: { kind: 'paint-faces', faces: [1], material: 5 } });
    // Undo in b's tab takes b's edit, though a's is the project's latest.
    const undoneB = (await service['edits.undo']({ session, fileId: b.id })).outcome!;
    expect(undoneB.fileId).toBe(b.id);
    expect((await service['edits.undo']({ session, fileId: b.id })).outcome).toBeNull();
    // a's own edits undo newest first, and redo in order; b's undone edit stays undone meanwhile.
    expect((await service['edits.undo']({ session, fileId: a.id })).outcome!.label).toBe('Paint 1 face');
    const history = (await service['edits.history']({ session })).entries;
    expect(history.map((h) => [h.files.map((f) => f.label), h.undone])).toEqual([
      [['m10aa/m10aa_09a.wok'], false],
      [['m10aa/m10aa_09b.wok'], true],
      [['m10aa/m10aa_09a.wok'], true],
    ]);
    // A new edit of a drops a's redo only; b's redo is kept.
    await service['edits.apply']({ session, fileId: a.id, command: { kind: 'paint-faces', faces: [2], material: 6 } });
    expect((await service['edits.redo']({ session, fileId: a.id })).outcome).toBeNull();
    expect((await service['edits.redo']({ session, fileId: b.id })).outcome!.fileId).toBe(b.id);
  });

  it('a KotOR link back undoes as one step from the tab it was asked in, in both rooms', async () => {
    const project = path.join(tmp, 'link-back.walkbench');
    const store = ProjectStore.create(project, { name: 'bv', game: 'kotor' });
    // Imported by the old rule: the layout under one folder's module, the rooms under another.
    store.upsertFile({ module: 'override', area: 'm10aa', name: 'm10aa.lyt', kind: 'lyt', bytes: writeLyt(blackVulkarLyt()) });
    const ids = BLACK_VULKAR_ROOMS.map((r) => store.upsertFile({ module: 'm10aa_s', area: r, name: `${r}.wok`, kind: 'walkmesh', bytes: blackVulkarWok(r) }).fileId);
    store.close();
    const service = createWalkbenchService();
    const { session } = await service['project.open']({ path: project });
    // Room 4's edge to another room is cut on room 4's side: that room now links one way.
    const doc = readBwm(blackVulkarWok(BLACK_VULKAR_ROOMS[4]));
    const row = Array.from(doc.edgeTransition).findIndex((t) => t >= 0 && t < BLACK_VULKAR_ROOMS.length && t !== 4);
    const target = doc.edgeTransition[row]!;
    const slot = doc.edgeIndex[row]!;
    await service['edits.apply']({ session, fileId: ids[4]!, command: { kind: 'kotor-set-transition', face: (slot / 3) | 0, edge: slot % 3, target: -1 } });
    const report = (await service['edits.report']({ session, fileId: ids[target]! })).report;
    const oneWay = [...report.errors, ...report.warnings].find((f) => f.code === 'kotor.link.one-way') as ({ face: number; edge: number } & object) | undefined;
    expect(oneWay, 'the layout in module "override" is found for rooms in module "m10aa_s"').toBeDefined();
    const fixed = await service['edits.fixRoomLink']({ session, fileId: ids[target]!, face: oneWay!.face, edge: oneWay!.edge });
    expect(fixed.fileId).toBe(ids[4]);
    // The tab it was asked in undoes it (the step is that file's too), and both rooms go back.
    const undone = (await service['edits.undo']({ session, fileId: ids[target]! })).outcome!;
    expect(undone.label).toMatch(/^Link back/);
    expect(undone.files.map((f) => f.fileId).sort()).toEqual([ids[4]!, ids[target]!].sort());
    const s = ProjectStore.open(project);
    expect(readBwm(s.loadEdit(ids[4]!)!.bytes).edgeTransition[row]).toBe(-1);
    s.close();
  });
});

describe('panels show what the project holds', () => {
  it('after a paint on a toolset TRX the report is what walkbench validate says of the written bytes, and undo gives the original report back', async () => {
    const project = await newProject('trx-findings', 'nwn2', [path.join(fixturesRoot, 'nwn2/kaedrin/a winding path.trx')], 'kaedrin');
    const service = createWalkbenchService();
    const tree = await service['project.open']({ path: project });
    const trx = filesOf(tree)[0]!;
    const opened = await service['project.openFile']({ session: tree.session, fileId: trx.id });
    const original = inspectBytes(trx.name, readFixture(path.join(fixturesRoot, 'nwn2/kaedrin/a winding path.trx')), env);
    expect(opened.report.errors).toEqual(original.errors);
    expect(opened.report.warnings).toEqual(original.warnings);
    const face = walkableFace(opened.walkmeshes[0]!, 3);
    const painted = await service['edits.apply']({ session: tree.session, fileId: trx.id, delta: true, command: { kind: 'paint-faces', faces: [face], setBits: 0x20 } });
    expect(painted.report).toBeNull();
    const after = await service['edits.report']({ session: tree.session, fileId: trx.id });
    expect(after.revision).toBe(1);
    expect(after.report).toEqual(reportOfHeldBytes(project, trx.id));
    // A surface paint keeps the tables: no new error and no "needs baking" for it.
    expect(after.report.errors).toEqual(original.errors);
    expect(after.state.bake).toMatchObject({ status: 'unbaked' });
    await service['edits.undo']({ session: tree.session, fileId: trx.id });
    const back = (await service['edits.report']({ session: tree.session, fileId: trx.id })).report;
    expect(back.errors).toEqual(original.errors);
    expect(back.warnings).toEqual(original.warnings);
    // A reopened tab says the same as the edit replies.
    const again = await service['project.openFile']({ session: tree.session, fileId: trx.id });
    expect(again.report.warnings).toEqual(back.warnings);
  });

  it('a bake reaches the file states: unbaked after an edit, baked with its counts once baked', async () => {
    const project = await newProject('bake-state', 'kotor', [path.join(fixturesRoot, 'kotor/k1-blackvulkar/m10aa_09a.wok')], 'm10aa');
    const service = createWalkbenchService();
    const tree = await service['project.open']({ path: project });
    const room = filesOf(tree)[0]!;
    expect(room.bake).toMatchObject({ status: 'unbaked', source: 'import' });
    const painted = await service['edits.apply']({ session: tree.session, fileId: room.id, command: { kind: 'paint-faces', faces: [0], material: 3 } });
    expect(painted.files[0]!.bake).toMatchObject({ status: 'unbaked', source: 'edit' });
    const store = ProjectStore.open(project);
    try {
      expect((await rebakeProject(store, { jobs: 1 })).counts.baked).toBe(1);
    } finally {
      store.close();
    }
    const state = (await service['project.state']({ session: tree.session, fileIds: [room.id] })).files[0]!;
    expect(state.bake).toMatchObject({ status: 'baked', source: 'edit' });
    expect(state.bake!.counts).toMatchObject({ faces: faceCount((await service['project.openFile']({ session: tree.session, fileId: room.id })).walkmeshes[0]!) });
  });
});

describe('NWN2: ground painted on the TRN, edits the export would drop named', () => {
  async function mordProject(name: string): Promise<{ project: string; service: ContractHandlers; tree: ProjectTree }> {
    const project = await newProject(name, 'nwn2', [MORD], 'mord');
    const service = createWalkbenchService();
    return { project, service, tree: await service['project.open']({ path: project }) };
  }

  it('the TRN takes ground paints (not reshapes, with the reason), and the TRX exported is baked from them', async () => {
    const { project, service, tree } = await mordProject('trn-paint');
    const trn = fileNamed(tree, `${AREA}.TRN`);
    const opened = await service['project.openFile']({ session: tree.session, fileId: trn.id });
    const view = opened.projectFile!;
    expect(view.refusals.paint).toBeUndefined();
    expect(view.refusals['paint-walkable']).toBeUndefined();
    expect(view.refusals.move).toMatch(/painted .* not reshaped/);
    expect(view.related.map((r) => r.kind)).toEqual(['git']);
    await expect(service['edits.apply']({ session: tree.session, fileId: trn.id, command: { kind: 'move-vertices', vertices: [0], positions: [1, 1, 1] } })).rejects.toThrow(view.refusals.move!);

    const ground = opened.walkmeshes[0]!;
    const face = walkableFace(ground, 10);
    const painted = await service['edits.apply']({ session: tree.session, fileId: trn.id, command: { kind: 'paint-faces', faces: [face], walkable: false } });
    // The area's bake follows its ground: the re-bake starts, and the TRX's bake state moves.
    expect(painted.rebakePending).not.toBeNull();
    const trx = fileNamed(tree, `${AREA}.TRX`);
    expect(painted.files.find((f) => f.fileId === trx.id)!.bake).toMatchObject({ status: 'unbaked', source: 'trn+git' });
    await service['edits.rebakeResult']({ session: tree.session, ticket: painted.rebakePending!.ticket });

    const store = ProjectStore.open(project);
    try {
      expect((await rebakeProject(store, { jobs: 1 })).counts.failed).toBe(0);
      const gameDir = mkdtempSync(path.join(tmp, 'mord-game-'));
      const plan = planExport(store, { to: gameDir });
      const entry = plan.entries.find((e) => e.fileId === trx.id)!;
      expect(entry.source).toBe('bake');
      const baked = store.loadBakeOutput(entry.bakeId!);
      const d = loadDocument('baked.trx', baked, env);
      const mesh = d.handler.toWalkmeshes(d.document, 'baked.trx')[0]!;
      // Where the painted face was, the baked TRX has no walkable triangle; the toolset's
      // bake of the unpainted TRN has one there.
      const [x, y, z] = centroid(ground, face);
      const walkableAt = (m: Walkmesh) => {
        let n = 0;
        for (let f = 0; f < faceCount(m); f++) if (m.faceWalkable[f] && coversXY(m, f, x, y) && Math.abs(heightAt(m, f, x, y) - z) < 0.05) n++;
        return n;
      };
      expect(walkableAt(mesh)).toBe(0);
      const toolset = loadDocument('toolset.trx', readFixture(path.join(MORD, `${AREA}.TRX`)), env);
      expect(walkableAt(toolset.handler.toWalkmeshes(toolset.document, 'toolset.trx')[0]!)).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });

  it('edits of the TRX are named when a GIT edit makes the area baked from TRN + GIT, and in the dry run', async () => {
    const { project, service, tree } = await mordProject('not-carried');
    const trx = fileNamed(tree, `${AREA}.TRX`);
    const git = fileNamed(tree, `${AREA}.GIT`);
    const shown = await service['project.openFile']({ session: tree.session, fileId: trx.id });
    expect(shown.projectFile!.refusals.paint).toBeUndefined();
    const face = walkableFace(shown.walkmeshes[0]!, 5);
    const paint = await service['edits.apply']({ session: tree.session, fileId: trx.id, command: { kind: 'paint-faces', faces: [face], setBits: 0x20 } });
    expect(paint.warnings).toEqual([]);
    // The second kind of edit: the GIT. The reply says at once what the export will not carry.
    const cut = await service['edits.apply']({ session: tree.session, fileId: git.id, command: { kind: 'nwn2-add-cutter', polygon: [10, 10, 11, 10, 11, 11, 10, 11], z: 0 } });
    expect(cut.warnings).toHaveLength(1);
    expect(cut.warnings[0]).toMatch(/1 edit \("Paint 1 face"\) will not be in the exported CSLMordMansion\.TRX/);
    await service['edits.rebakeResult']({ session: tree.session, ticket: cut.rebakePending!.ticket });
    // The TRX itself now refuses walkmesh edits, with the reason, and its report names the lost edit.
    const now = await service['project.openFile']({ session: tree.session, fileId: trx.id });
    expect(now.projectFile!.refusals.paint).toMatch(/exported as baked from its TRN and GIT/);
    expect(now.report.warnings.map((w) => w.code)).toContain('project.edit-not-exported');
    const store = ProjectStore.open(project);
    try {
      await rebakeProject(store, { jobs: 1 });
      const plan = planExport(store, { to: mkdtempSync(path.join(tmp, 'mord-game-')) });
      const entry = plan.entries.find((e) => e.fileId === trx.id)!;
      expect(entry.notCarried).toEqual([expect.objectContaining({ label: 'Paint 1 face', editedFile: `mord/${trx.name}` })]);
      expect(entry.notCarried[0]!.reason).toMatch(/baked from its TRN and GIT/);
    } finally {
      store.close();
    }
    // Undoing the GIT edit makes the TRX's own edit count again.
    await service['edits.undo']({ session: tree.session, fileId: trx.id });
    const after = await service['project.openFile']({ session: tree.session, fileId: trx.id });
    expect(after.report.warnings.map((w) => w.code)).not.toContain('project.edit-not-exported');
    expect(after.projectFile!.refusals.paint).toBeUndefined();
  });

  it('without the area GIT in the project the TRN is not offered for editing, and says why', async () => {
    const project = path.join(tmp, 'trn-alone.walkbench');
    const store = ProjectStore.create(project, { name: 'alone', game: 'nwn2' });
    await importSources(store, [path.join(MORD, `${AREA}.TRN`), path.join(MORD, `${AREA}.TRX`)], { module: 'mord' });
    store.close();
    const service = createWalkbenchService();
    const tree = await service['project.open']({ path: project });
    const trn = fileNamed(tree, `${AREA}.TRN`);
    const view = (await service['project.openFile']({ session: tree.session, fileId: trn.id })).projectFile!;
    expect(view.refusals.paint).toMatch(/GIT is not in the project/);
    expect(editRefusals({ name: 'x', game: 'nwn2', kind: 'trn', format: null, nwn2Area: { trn: 'x', trx: 'y', git: null, bakedFromTrnAndGit: false } }).paint).toBe(view.refusals.paint);
    await expect(service['edits.apply']({ session: tree.session, fileId: trn.id, command: { kind: 'paint-faces', faces: [0], walkable: false } })).rejects.toThrow(/GIT is not in the project/);
  });
});
